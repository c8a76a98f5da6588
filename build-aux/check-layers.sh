#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# build-aux/check-layers.sh [TOP]: the layering rule of ../shared/STYLE.md
# ("Size and direction"), checked on every #include "layer/..." line:
#   util/    includes util/ only
#   results/ includes util/ and results/ (pure: files in, data out)
#   host/    includes util/, results/, host/
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
bad=0
for layer in util results host guest workloads; do
    ok=$(allowed "$layer")
    for f in "$layer"/*.[ch]; do
        [ -e "$f" ] || continue
        while IFS=: read -r line text; do
            inc=$(sed -E 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"([a-z]+)\/.*/\1/' <<<"$text")
            case " $ok " in
            *" $inc "*) ;;
            *) echo "$f:$line: $layer includes \"$(sed -E 's/.*"(.*)".*/\1/' <<<"$text")\" (a $inc/ header: layers point down only)"
               bad=1 ;;
            esac
        done < <(grep -nE '^[[:space:]]*#[[:space:]]*include[[:space:]]*"[a-z]+/' "$f")
    done
done
exit $bad
