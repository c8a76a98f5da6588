#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/t-run-kill.sh: `rtvirt run` killed at every point of a run, then
# `rtvirt host revert`: every file the scenario touched is as before, and no
# domain of the run remains (`virsh list --all`).  Also SIGINT and SIGTERM
# during the measurement: the run reverts and destroys by itself, exits 2,
# and leaves a consistent store (complete = false, run.json parses, the
# interrupted repetition's host-counters record not ok).  A run killed
# with its guest booted or measured leaves a run.json whose "repetition"
# NOTE says that repetition was running (and no record of it): the store
# names what was lost.
#
# Kill points: the RV_TEST_KILL_AT hook of harness/cmd-run.c (after the
# lock, after the settings were applied, with the guest booted, after the
# measurement, after teardown, after the store commit) and the journal's
# RV_TEST_KILL_AFTER=N (right after the N-th host change), plus a plain
# `kill -9` from outside while the guest boots.
# Needs root, libvirtd and QEMU (as tests/t-guest-run.sh); skips otherwise.
set -u
rtvirt=${RV_BUILD:?}/rtvirt
top=${RV_TOP:?}
matrix=$top/tests/data/run/kill.ini
. "${RV_TOP:?}/tests/tap.sh"

need_cmds qemu-system-x86_64 virsh
need_root
export PATH=$PATH:/usr/sbin
need_libvirt "$rtvirt"

# The files the scenario touches, and what SMT scenarios would touch.
files="/proc/sys/kernel/timer_migration /proc/sys/kernel/sched_rt_runtime_us
       /sys/devices/system/cpu/smt/control /sys/devices/system/cpu/online"
snapshot() { for f in $files; do printf '%s=%s\n' "$f" "$(cat "$f" 2>/dev/null || echo ABSENT)"; done; }
domains() { virsh -c qemu:///system list --all --name 2>/dev/null | grep -E '^rtvirt-kill-' || true; }
# libvirtd destroys an auto-destroy domain when it notices the closed
# connection: give it up to 30 s (it takes ~2 s here)
# `host revert` is refused while another rtvirt run (another test, another
# user) holds the host lock: retry until it is free
revert() {
    local out
    for _ in $(seq 1 1800); do
        out=$("$rtvirt" host revert 2>&1); rc=$?
        case $out in *"Another rtvirt run"*) sleep 1 ;; *) printf '%s\n' "$out"; return $rc ;; esac
    done
    printf '%s\n' "$out"; return $rc
}
wait_gone() { for _ in $(seq 1 300); do [ -z "$(domains)" ] && return 0; sleep 0.1; done; return 1; }

tmp=$(mktemp -d)
cleanup() {
    for d in $(domains); do virsh -c qemu:///system destroy "$d" >/dev/null 2>&1; done
    revert >/dev/null 2>&1
    rm -rf "$tmp"
}
trap cleanup EXIT

points="locked applied booted measured torn-down committed"
echo "1..$(( 1 + $(echo $points | wc -w) * 4 + 2 + 2 * 4 + 4 + 2 * 6 ))"

snapshot >"$tmp/before"
# the scenario really changes something here, or the test proves nothing
check "the scenario's values differ from this host's ($(tr '\n' ' ' <"$tmp/before"))" \
    eval '! grep -qx "/proc/sys/kernel/timer_migration=0" "$tmp/before" &&
          ! grep -qx "/proc/sys/kernel/sched_rt_runtime_us=970000" "$tmp/before"'

killed_run() {   # $1 = label; environment set by the caller
    "$rtvirt" run --wait-lock 1800 --out "$tmp/results" "$matrix" >"$tmp/out" 2>"$tmp/err"
    echo $?
}

after_kill() {   # $1 = label, $2 = rc of the killed run
    check "$1: rtvirt run died by SIGKILL (rc $2)" [ "$2" -eq 137 ]
    wait_gone
    check "$1: no domain of the run remains ($(domains | tr '\n' ' '))" [ -z "$(domains)" ]
    revert >"$tmp/revert" 2>&1; rc=$?
    check "$1: rtvirt host revert exits 0 ($(tr '\n' ' ' <"$tmp/revert" | cut -c1-200))" [ $rc -eq 0 ]
    snapshot >"$tmp/after"
    check "$1: the host is as before ($(diff "$tmp/before" "$tmp/after" | tr '\n' ' '))" \
        cmp -s "$tmp/before" "$tmp/after"
}

for p in $points; do
    rm -rf "$tmp/results"
    rc=$(RV_TEST_KILL_AT=$p killed_run)
    after_kill "kill at $p" "$rc"
    case $p in booted|measured)
        # the store names the repetition the SIGKILL lost
        check "kill at $p: run.json says repetition 1 of knobs was running" \
            python3 -c "import json,glob,sys; d=json.load(open(glob.glob('$tmp/results/*/run.json')[0])); v=[x for x in d['verifications'] if x['what']=='repetition' and x['scenario']=='knobs' and x['repetition']==1]; sys.exit(0 if v and v[0]['detail'].startswith('running since') and not [r for r in d['records'] if r['scenario']=='knobs'] else 1)"
        ;;
    esac
done
for k in 1 2; do
    rc=$(RV_TEST_KILL_AFTER=$k killed_run)
    after_kill "kill after host change $k" "$rc"
done

# kill -9 from outside while the guest boots
"$rtvirt" run --wait-lock 1800 --out "$tmp/results" "$matrix" >"$tmp/out" 2>"$tmp/err" &
pid=$!
for _ in $(seq 1 18000); do
    grep -q "booting\|Run 1/1" "$tmp/err" 2>/dev/null && [ -n "$(domains)" ] && break
    sleep 0.1
done
check "external kill -9: a domain was running ($(domains | tr '\n' ' '))" [ -n "$(domains)" ]
kill -9 $pid; wait $pid; rc=$?
check "external kill -9: the run died (rc $rc)" [ $rc -eq 137 ]
wait_gone
check "external kill -9: no domain remains ($(domains | tr '\n' ' '))" [ -z "$(domains)" ]
revert >/dev/null 2>&1
snapshot >"$tmp/after"
check "external kill -9: after host revert the host is as before ($(diff "$tmp/before" "$tmp/after" | tr '\n' ' '))" \
    cmp -s "$tmp/before" "$tmp/after"

# SIGINT / SIGTERM while measuring: the run cleans up by itself
for sig in INT TERM; do
    rm -rf "$tmp/results"
    "$rtvirt" run --wait-lock 1800 --duration 30s --out "$tmp/results" "$matrix" >"$tmp/out" 2>"$tmp/err" &
    pid=$!
    for _ in $(seq 1 18000); do grep -q "measuring\|Run 1/1" "$tmp/err" 2>/dev/null && [ -n "$(domains)" ] && break; sleep 0.1; done
    sleep 2
    kill -$sig $pid; wait $pid; rc=$?
    check "SIG$sig: rtvirt run exits 2 after its cleanup (rc $rc)" [ $rc -eq 2 ]
    check "SIG$sig: the run said it reverted and destroyed" grep -q "Interrupted: host settings reverted" "$tmp/err"
    snapshot >"$tmp/after"
    check "SIG$sig: host as before without 'host revert', no domain" \
        eval '[ -z "$(domains)" ] && cmp -s "$tmp/before" "$tmp/after"'
    store=$(sed -n 's/^Results: //p' "$tmp/out")
    check "SIG$sig: run.json is consistent: parses, complete = false" \
        python3 -c "import json,sys; d=json.load(open('$store/run.json')); sys.exit(0 if d['complete'] is False else 1)"
    check "SIG$sig: nothing left to revert" eval 'revert | grep -q "revert run: nothing to revert"'
    # the interrupted repetition's counters cover a cut-short window: not ok
    check "SIG$sig: the host-counters record of the interrupted repetition is not ok" \
        python3 -c "import json,sys; d=json.load(open('$store/run.json')); hc=[r for r in d['records'] if r['workload']=='host-counters']; sys.exit(0 if hc and all(r['status']!='ok' and r['reason'].startswith('interrupted') for r in hc) else 1)"
done
