#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/t-run-faults.sh: a guest that hangs, or that sends garbage instead
# of cyclictest output, fails its repetition with the reason, and the
# matrix goes on (issue 4, "Bad input and faults").  Real guests: the RT
# demo guest runs `sleep 100000` (hang, ended by the matrix's 20 s timeout)
# or prints a cyclictest-looking line followed by random bytes, in place of
# cyclictest, on cue of the RV_TEST_GUEST_HANG / RV_TEST_GUEST_GARBAGE hooks
# of harness/run.c; the next scenario runs the real cyclictest.
# Needs root, libvirtd and QEMU; skips otherwise.
set -u
rtvirt=${RV_BUILD:?}/rtvirt
top=${RV_TOP:?}
matrix=$top/tests/data/run/faults.ini
n=0
ok() { n=$((n + 1)); echo "ok $n - $*"; }
nok() { n=$((n + 1)); echo "not ok $n - $*"; }
check() { local what=$1; shift; if "$@"; then ok "$what"; else nok "$what"; fi; }

for need in qemu-system-x86_64 virsh python3; do
    command -v "$need" >/dev/null 2>&1 || { echo "1..0 # SKIP $need is not installed"; exit 0; }
done
if [ "$(id -u)" != 0 ]; then echo "1..0 # SKIP qemu:///system needs root"; exit 0; fi
export PATH=$PATH:/usr/sbin
if ! "$rtvirt" setup >/dev/null 2>&1; then echo "1..0 # SKIP rtvirt setup failed: no libvirtd"; exit 0; fi
domains() { virsh -c qemu:///system list --all --name 2>/dev/null | grep -E '^rtvirt-faults-' || true; }
tmp=$(mktemp -d)
trap 'for d in $(domains); do virsh -c qemu:///system destroy "$d" >/dev/null 2>&1; done; rm -rf "$tmp"' EXIT

echo "1..10"
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
