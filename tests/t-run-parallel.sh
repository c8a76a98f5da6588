#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/t-run-parallel.sh: a repetition's guests are booted in parallel by
# the provisioning pool (harness/run-pool.c): four real guests
# (tests/data/run/parallel.ini: rt + semi-01..03), semi-02's boot made to
# fail by the RV_TEST_BOOT_TIMEOUT hook (1 ms for its agent to answer: a
# real start that times out).  Checks that the failing guest fails the
# repetition with its own reason, that every other guest's result is
# recorded in run.json in both repetitions, that run.json has the
# per-repetition "provision" object, and that no domain is left.
# Needs root, libvirtd and QEMU; skips otherwise.  LIVE: on the shared
# test machine run it under the live lock (flock /tmp/rtvirt-live.lock).
set -u
rtvirt=${RV_BUILD:?}/rtvirt
top=${RV_TOP:?}
matrix=$top/tests/data/run/parallel.ini
. "${RV_TOP:?}/tests/tap.sh"

need_cmds qemu-system-x86_64 virsh python3
need_root
export PATH=$PATH:/usr/sbin
need_libvirt "$rtvirt"
domains() { virsh -c qemu:///system list --all --name 2>/dev/null | grep -E '^rtvirt-parallel-' || true; }
tmp=$(mktemp -d)
trap 'for d in $(domains); do virsh -c qemu:///system destroy "$d" >/dev/null 2>&1; done; rm -rf "$tmp"' EXIT

echo "1..10"
RV_TEST_BOOT_TIMEOUT=one:semi-02 "$rtvirt" run --wait-lock 1800 --out "$tmp/store" \
    "$matrix" >"$tmp/out" 2>"$tmp/err"; rc=$?
check "rtvirt run exits 1: a repetition failed, the run went to its end (rc $rc: $(tail -n 1 "$tmp/err"))" [ $rc -eq 1 ]
store=$(sed -n 's/^Results: //p' "$tmp/out")
python3 - "$store" >"$tmp/py" 2>&1 <<'PY'
import json, sys
d = json.load(open(sys.argv[1] + "/run.json"))
for rep in (1, 2):
    recs = [r for r in d["records"] if r["repetition"] == rep]
    ver = [v for v in d["verifications"] if v["repetition"] == rep]
    ct = [r for r in recs if r["workload"] == "cyclictest" and r["target"] == "guest:rt"]
    print("ok" if len(ct) == 1 and ct[0]["status"] == "ok" else "FAIL",
          "rep %d: the RT guest's cyclictest record is ok beside the failed boot (%s)"
          % (rep, ct and ct[0]["status"]))
    fail = [v for v in ver if v["what"] == "neighbour load" and v["status"] == "FAIL"]
    print("ok" if len(fail) == 1 and fail[0]["detail"].startswith("guest semi-02 did not start: ")
          else "FAIL", "rep %d: semi-02 failed with its own reason (%s)"
          % (rep, [v["detail"][:120] for v in fail]))
    loads = {v["what"]: v["status"] for v in ver if v["what"].endswith(" semi-idle load")}
    want = {"guest semi-01 semi-idle load": "PASS", "guest semi-03 semi-idle load": "PASS"}
    print("ok" if loads == want else "FAIL",
          "rep %d: semi-01 and semi-03 ran their load, nothing of semi-02 (%s)" % (rep, loads))
    hc = [r for r in recs if r["workload"] == "host-counters"]
    p = hc and hc[0]["details"].get("provision")
    print("ok" if p and p["guests"] == 4 and p["pool"] >= 2 and p["boot_ms"] > 0
          and p["teardown_ms"] >= 0 and p["first_alone"] == (rep == 1) and
          hc[0]["status"] == "failed" and "semi-02" in (hc[0]["reason"] or "")
          else "FAIL", "rep %d: provision object %s, host-counters %s"
          % (rep, p, hc and hc[0]["status"]))
PY
while read -r word rest; do check "$rest" [ "$word" = ok ]; done <"$tmp/py"
check "no domain of the run remains ($(domains | tr '\n' ' '))" [ -z "$(domains)" ]
