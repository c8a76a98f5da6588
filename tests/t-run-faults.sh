#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/t-run-faults.sh: a guest that hangs, or that sends garbage instead
# of cyclictest output, fails its repetition with the reason, and the
# matrix goes on.  Real guests: the RT
# demo guest runs `sleep 100000` (hang, ended by the matrix's 20 s timeout)
# or prints a cyclictest-looking line followed by random bytes, in place of
# cyclictest, on cue of the RV_TEST_GUEST_HANG / RV_TEST_GUEST_GARBAGE hooks
# of harness/run.c; the next scenario runs the real cyclictest.
# Needs root, libvirtd and QEMU; skips otherwise.
set -u
rtvirt=${RV_BUILD:?}/rtvirt
top=${RV_TOP:?}
matrix=$top/tests/data/run/faults.ini
. "${RV_TOP:?}/tests/tap.sh"

need_cmds qemu-system-x86_64 virsh python3
need_root
export PATH=$PATH:/usr/sbin
need_libvirt "$rtvirt"
domains() { virsh -c qemu:///system list --all --name 2>/dev/null | grep -E '^rtvirt-faults-' || true; }
tmp=$(mktemp -d)
trap 'for d in $(domains); do virsh -c qemu:///system destroy "$d" >/dev/null 2>&1; done; rm -rf "$tmp"' EXIT

echo "1..$((10 + 5 + 6 + 7 + 5 + 4))"
for fault in HANG GARBAGE; do
    env "RV_TEST_GUEST_$fault=bad" "$rtvirt" run --wait-lock 1800 --out "$tmp/$fault" "$matrix" >"$tmp/out" 2>"$tmp/err"; rc=$?
    check "$fault: rtvirt run exits 1 (a repetition failed, the matrix ran to its end)" [ $rc -eq 1 ]
    store=$(sed -n 's/^Results: //p' "$tmp/out")
    case $fault in
        HANG) want="did not finish cyclictest within 20 s" ;;
        GARBAGE) want="cyclictest output rejected" ;;
    esac
    python3 - "$store" "$want" >"$tmp/py" 2>&1 <<'PY'
import json, sys
d = json.load(open(sys.argv[1] + "/run.json"))
rec = {r["scenario"]: r for r in d["records"] if r["workload"] == "cyclictest"}
bad, good = rec.get("bad"), rec.get("good")
print("ok" if bad and bad["status"] == "failed" and sys.argv[2] in (bad["reason"] or "")
      else "FAIL", "the bad repetition failed with the reason: %s" % (bad and bad["reason"]))
print("ok" if good and good["status"] == "ok" and d["complete"] else "FAIL",
      "the good scenario after it ran (complete = %s)" % d["complete"])
hc = {r["scenario"]: r for r in d["records"] if r["workload"] == "host-counters"}
hb, hg = hc.get("bad"), hc.get("good")
print("ok" if hb and hb["status"] == "failed" and hg and hg["status"] == "ok" else "FAIL",
      "host-counters: the failed repetition's not ok (%s), the good one's ok (%s)"
      % (hb and hb["status"], hg and hg["status"]))
PY
    while read -r word rest; do check "$fault: $rest" [ "$word" = ok ]; done <"$tmp/py"
    check "$fault: no domain of the run remains" [ -z "$(domains)" ]
done

# ---- SIGPIPE, libvirtd death, full disk, SIGSTOP -------------------
kill_matrix=$top/tests/data/run/kill.ini
knobs="/proc/sys/kernel/timer_migration /proc/sys/kernel/sched_rt_runtime_us"
snapshot() { for f in $knobs; do printf '%s=%s\n' "$f" "$(cat "$f")"; done; }
snapshot >"$tmp/before"

# the private libvirtd
# short: QEMU's agent socket lives under it (sun_path holds 108 bytes)
lvd=$(mktemp -d /tmp/rvl.XXXX)
mkdir -p "$lvd/run" "$lvd/home"
chmod 755 "$tmp"
chown -R nobody:nogroup "$lvd"
chmod 700 "$lvd/run"
uri="qemu:///session?socket=$lvd/run/libvirt/libvirt-sock"
lvd_start() {
    setpriv --reuid=nobody --regid=nogroup --clear-groups \
        env -i HOME="$lvd/home" XDG_RUNTIME_DIR="$lvd/run" PATH=/usr/sbin:/usr/bin:/bin \
        /usr/sbin/libvirtd >>"$lvd/log" 2>&1 &
    lvd_pid=$!
    for _ in $(seq 1 300); do virsh -c "$uri" version >/dev/null 2>&1 && return 0; sleep 0.1; done
    return 1
}
lvd_stop() { [ -n "${lvd_pid:-}" ] && kill -9 "$lvd_pid" 2>/dev/null; wait "$lvd_pid" 2>/dev/null; lvd_pid=; }
pdomains() { virsh -c "$uri" list --all --name 2>/dev/null | grep -E '^rtvirt-kill-' || true; }
# waits until the run's guest answers its agent (booted), 10 min at most
wait_booted() {
    for _ in $(seq 1 6000); do
        for d in $(pdomains); do
            virsh -c "$uri" qemu-agent-command "$d" '{"execute":"guest-ping"}' >/dev/null 2>&1 && return 0
        done
        sleep 0.1
    done
    return 1
}
after_fault() {   # $1 = label, $2 = store directory
    snapshot >"$tmp/after"
    check "$1: host knobs as before ($(diff "$tmp/before" "$tmp/after" | tr '\n' ' '))" \
        cmp -s "$tmp/before" "$tmp/after"
    check "$1: no domain of the run left ($(pdomains | tr '\n' ' '))" [ -z "$(pdomains)" ]
    fault_store=$2
    check "$1: rtvirt compare reads the store back ($(cat "$tmp/compare" 2>/dev/null | head -n 1))" \
        eval '[ -f "$fault_store/run.json" ] && "$rtvirt" compare "$fault_store" >"$tmp/compare" 2>&1'
}
cleanup_faults() {
    for d in $(pdomains); do virsh -c "$uri" destroy "$d" >/dev/null 2>&1; done
    lvd_stop
    mountpoint -q "$tmp/full" && umount "$tmp/full"
    for d in $(domains); do virsh -c qemu:///system destroy "$d" >/dev/null 2>&1; done
    "$rtvirt" host revert >/dev/null 2>&1
    rm -rf "$tmp" "$lvd"
}
trap cleanup_faults EXIT
if ! lvd_start; then
    for i in $(seq 1 27); do ok "# SKIP no private libvirtd ($(tail -n 1 "$lvd/log"))"; done
    exit 0
fi
export RTVIRT_LIBVIRT_URI=$uri

# SIGPIPE: the reader goes away after the first line
set -o pipefail
"$rtvirt" run --wait-lock 1800 --out "$tmp/pipe" "$kill_matrix" 2>&1 | head -n 1 >/dev/null
rc=${PIPESTATUS[0]}
set +o pipefail
check "SIGPIPE: rtvirt run ran to its end instead of dying by SIGPIPE (rc $rc)" [ "$rc" -ne 141 ]
check "SIGPIPE: the store is complete" \
    python3 -c "import json,glob,sys; d=json.load(open(glob.glob('$tmp/pipe/*/run.json')[0])); sys.exit(0 if d['complete'] else 1)"
after_fault "SIGPIPE" "$(ls -d "$tmp"/pipe/*)"

# libvirtd killed while the guest measures, restarted 3 s later
"$rtvirt" run --wait-lock 1800 --duration 60s --out "$tmp/lvkill" "$kill_matrix" >"$tmp/out" 2>"$tmp/err" &
pid=$!
wait_booted; sleep 3
lvd_stop; sleep 3; lvd_start
wait $pid; rc=$?
store=$(sed -n 's/^Results: //p' "$tmp/out")
check "libvirtd killed: the repetition failed, the run ended (rc $rc: $(tail -n 2 "$tmp/err" | tr '\n' ' ' | cut -c1-300))" [ $rc -eq 1 ]
check "libvirtd killed: the record says the connection was lost" \
    python3 -c "import json,sys; d=json.load(open('$store/run.json')); r=[x for x in d['records'] if x['workload']=='cyclictest']; sys.exit(0 if r and r[0]['status']=='failed' and 'libvirt connection lost' in r[0]['reason'] else 1)"
check "libvirtd killed: nothing left to revert" eval '"$rtvirt" host revert | grep -q "revert run: nothing to revert"'
after_fault "libvirtd killed" "$store"

# a full results disk: a small tmpfs, filled once the run has started
mkdir -p "$tmp/full"
if mount -t tmpfs -o size=2m rtvirt-full "$tmp/full"; then
    "$rtvirt" run --wait-lock 1800 --repetitions 2 --out "$tmp/full" "$kill_matrix" >"$tmp/out" 2>"$tmp/err" &
    pid=$!
    wait_booted
    dd if=/dev/zero of="$tmp/full/fill" bs=64k >/dev/null 2>&1
    wait $pid; rc=$?
    rm -f "$tmp/full/fill"
    store=$(ls -d "$tmp"/full/*-kill 2>/dev/null | head -n 1)
    check "full disk: rtvirt run stops with exit 2 (rc $rc)" [ $rc -eq 2 ]
    check "full disk: it says the store cannot be written and the matrix stopped" \
        eval 'grep -q "cannot be written" "$tmp/err" && grep -q "matrix stopped" "$tmp/err"'
    check "full disk: the second repetition never started" eval '! grep -q "Run 2/2" "$tmp/err"'
    check "full disk: run.json keeps the repetition's records, the missing raw files marked" \
        python3 -c "import json,sys; d=json.load(open('$store/run.json')); r=[x for x in d['records'] if x['repetition']==1 and x['workload'] in ('cyclictest','host-counters')]; v=[x for x in d['verifications'] if x['what']=='raw output' and x['status']=='FAIL' and 'not written' in x['detail']]; sys.exit(0 if len(r)==2 and v else 1)"
    after_fault "full disk" "$store"
    umount "$tmp/full"
else
    for i in 1 2 3 4 5 6 7; do ok "# SKIP cannot mount a tmpfs"; done
fi

# SIGSTOP for 25 s while measuring: the counters' window is stretched
"$rtvirt" run --wait-lock 1800 --duration 5s --out "$tmp/stop" "$kill_matrix" >"$tmp/out" 2>"$tmp/err" &
pid=$!
wait_booted; sleep 1
kill -STOP $pid; sleep 25; kill -CONT $pid
wait $pid; rc=$?
store=$(sed -n 's/^Results: //p' "$tmp/out")
check "SIGSTOP: the host-counters record says its window was stretched (rc $rc)" \
    python3 -c "import json,sys; d=json.load(open('$store/run.json')); r=[x for x in d['records'] if x['workload']=='host-counters']; sys.exit(0 if r and r[0]['status']=='failed' and r[0]['reason'].startswith('window stretched') and r[0]['details']['window']['measure_s'] > 25 else 1)"
check "SIGSTOP: the repetition has its wall time in run.json" \
    python3 -c "import json,sys; d=json.load(open('$store/run.json')); v=[x for x in d['verifications'] if x['what']=='repetition']; sys.exit(0 if v and v[0]['detail'].startswith('ran: ') else 1)"
after_fault "SIGSTOP" "$store"

# libvirtd stopped (SIGSTOP) for 40 s while a TCG guest measures: longer
# than libvirt's 30-s keepalive, shorter than the 120 s rtvirt allows a
# daemon serving guests under TCG (guest/libvirt.h): the connection and
# the repetition survive (with 30 s: 'libvirt connection lost: libvirtd
# stopped answering keepalives')
"$rtvirt" run --wait-lock 1800 --duration 60s --out "$tmp/lvstop" "$kill_matrix" >"$tmp/out" 2>"$tmp/err" &
pid=$!
wait_booted; sleep 3
kill -STOP "$lvd_pid"; sleep 40; kill -CONT "$lvd_pid"
wait $pid; rc=$?
store=$(sed -n 's/^Results: //p' "$tmp/out")
virt=$(python3 -c "import json; d=json.load(open('$store/run.json')); print([x for x in d['records'] if x['workload']=='cyclictest'][0].get('virt'))" 2>/dev/null)
if [ "$virt" = kvm ]; then
    ok "# SKIP the guest ran under KVM (the 30-s keepalive applies)"
else
    check "libvirtd stopped 40 s under TCG: the repetition measured, the connection kept (rc $rc, virt $virt: $(grep -o 'libvirt connection lost[^"]*' "$store/run.json" 2>/dev/null | head -n 1))" \
        python3 -c "import json,sys; d=json.load(open('$store/run.json')); r=[x for x in d['records'] if x['workload']=='cyclictest']; sys.exit(0 if r and r[0]['status']=='ok' else 1)"
fi
after_fault "libvirtd stopped" "$store"
