#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# build-aux/check-layers.sh [TOP]: the layering rule of doc/hacking.md
# ("Layers and rooms"), checked on every #include "layer/..." line:
#   util/    includes util/ only
#   results/ includes util/ and results/ (pure: files in, data out)
#   host/    includes util/, results/, host/, and inside host/ by room
#            (host/README.md):
#              host/fsroot    -> nothing in host/ but itself
#              host/facts/    -> fsroot, facts        (readers of the host)
#              host/profile/  -> fsroot, facts, profile (intent)
#              host/check/    -> fsroot, facts, profile, check (judges)
#              host/tune/     -> fsroot, facts, profile, tune (mutators)
#              host/trace/    -> fsroot, trace        (ftrace and probes)
#              host/tuned/    -> any host room        (tuned interop)
#   guest/   includes util/, results/, host/, guest/
#   workloads/ includes util/, results/, host/, guest/, workloads/ (one file
#            per workload: workloads/workload.h)
#   harness/ includes anything
# Prints each violation as FILE:LINE: LAYER includes "HEADER" and exits 1
# when there is one, 0 when there is none, 2 on bad usage.
set -u
top=${1:-.}
cd "$top" || exit 2
allowed() {
    case $1 in
    util) echo "util" ;;
    results) echo "util results" ;;
    host) echo "util results host" ;;
    guest) echo "util results host guest" ;;
    workloads) echo "util results host guest workloads" ;;
    *) return 1 ;;
    esac
}
# The host rooms a room may include ("fsroot" is host/fsroot.h).
rooms_allowed() {
    case $1 in
    fsroot) echo "fsroot" ;;
    facts) echo "fsroot facts" ;;
    profile) echo "fsroot facts profile" ;;
    check) echo "fsroot facts profile check" ;;
    tune) echo "fsroot facts profile tune" ;;
    trace) echo "fsroot trace" ;;
    tuned) echo "fsroot facts profile check tune trace tuned" ;;
    *) return 1 ;;
    esac
}
# The room of a host/ path: host/fsroot.h -> fsroot, host/facts/x.h -> facts,
# anything else directly under host/ -> "(none)" (not in a room).
room_of() {
    case $1 in
    host/fsroot.[ch]) echo fsroot ;;
    host/*/*) local r=${1#host/}; echo "${r%%/*}" ;;
    *) echo "(none)" ;;
    esac
}
bad=0
for layer in util results host guest workloads; do
    ok=$(allowed "$layer")
    for f in "$layer"/*.[ch] "$layer"/*/*.[ch]; do
        [ -e "$f" ] || continue
        room=""
        if [ "$layer" = host ]; then
            room=$(room_of "$f")
            if ! rooms=$(rooms_allowed "$room"); then
                echo "$f:1: host file outside a room (host/README.md names the rooms)"
                bad=1
                continue
            fi
        fi
        while IFS=: read -r line text; do
            hdr=$(sed -E 's/.*"(.*)".*/\1/' <<<"$text")
            inc=${hdr%%/*}
            case " $ok " in
            *" $inc "*) ;;
            *) echo "$f:$line: $layer includes \"$hdr\" (a $inc/ header: layers point down only)"
               bad=1 ;;
            esac
            if [ -n "$room" ] && [ "$inc" = host ]; then
                to=$(room_of "$hdr")
                case " $rooms " in
                *" $to "*) ;;
                *) echo "$f:$line: host/$room includes \"$hdr\" (the $to room: host/README.md says which rooms each may use)"
                   bad=1 ;;
                esac
            fi
        done < <(grep -nE '^[[:space:]]*#[[:space:]]*include[[:space:]]*"[a-z]+/' "$f")
    done
done
exit $bad
