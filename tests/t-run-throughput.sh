#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/t-run-throughput.sh: profiles/matrix/throughput-ci.ini for real:
# an RT guest with cyclictest beside a linpack, a
# sysbench, two semi-idle guests and a TPC-C guest (the tpcc-guest disk
# image, its database loaded when the image was built: t-guest-image.sh
# builds the same image first, so it is cached here) under TCG, then
# `rtvirt compare` on the store shows GFLOPS, events/s, NOPM and the RT
# latency, virt=tcg and untrusted.  The linpack guest
# of repetition 1 prints garbage instead (harness/run.c's
# RV_TEST_WORKLOAD_GARBAGE hook): that one record fails with the reason,
# every other one is kept.  LIVE: boots guests (run it under
# flock /tmp/rtvirt-live.lock).  Needs root, libvirtd and QEMU; skips
# otherwise.
set -u
rtvirt=${RV_BUILD:?}/rtvirt
top=${RV_TOP:?}
matrix=$top/profiles/matrix/throughput-ci.ini
. "${RV_TOP:?}/tests/tap.sh"

need_cmds qemu-system-x86_64 virsh python3
need_root
export PATH=$PATH:/usr/sbin
need_libvirt "$rtvirt"
domains() { virsh -c qemu:///system list --all --name 2>/dev/null | grep -E '^rtvirt-throughput-ci-' || true; }
tmp=$(mktemp -d)
trap 'for d in $(domains); do virsh -c qemu:///system destroy "$d" >/dev/null 2>&1; done; rm -rf "$tmp"' EXIT

echo "1..17"
RV_TEST_WORKLOAD_GARBAGE=unpinned:1:lp "$rtvirt" run --wait-lock 1800 --out "$tmp/results" \
    "$matrix" >"$tmp/out" 2>"$tmp/err"; rc=$?
check "rtvirt run throughput-ci.ini exits 1: one repetition's linpack failed, the matrix ran to its end ($(tail -n 2 "$tmp/err" | tr '\n' ' ' | cut -c1-300))" [ $rc -eq 1 ]
store=$(sed -n 's/^Results: //p' "$tmp/out")
check "the summary names the store ($store)" [ -f "$store/run.json" ]

python3 - "$store" >"$tmp/py" 2>&1 <<'PY'
import json, sys
d = json.load(open(sys.argv[1] + "/run.json"))
def say(ok, what):
    print(("ok " if ok else "FAIL ") + what)
recs = d["records"]
def rec(w, rep):
    r = [x for x in recs if x["workload"] == w and x["repetition"] == rep]
    return r[0] if len(r) == 1 else None
say(d["complete"] is True and d["trusted"] is False
    and any(r.startswith("virt=tcg") for r in d["untrusted_reasons"]),
    "complete, untrusted for virt=tcg (%s)" % d["untrusted_reasons"][:2])
ct = [rec("cyclictest", i) for i in (1, 2)]
say(all(c and c["status"] == "ok" and c["virt"] == "tcg" and c["metrics"]["max_us"]["value"] >= 0
        for c in ct), "cyclictest of the RT guest ok in both repetitions, virt=tcg")
bad, good = rec("linpack", 1), rec("linpack", 2)
say(bad and bad["status"] == "failed" and "linpack output rejected" in (bad["reason"] or "")
    and "is not text" in bad["reason"] and not bad["metrics"],
    "repetition 1's garbage linpack output failed that record with the reason: %s"
    % (bad and bad["reason"]))
g = good and good["metrics"].get("gflops")
say(good and good["status"] == "ok" and g and g["value"] > 0 and g["unit"] == "GFLOPS"
    and g["better"] == "higher" and g["aggregate"] == "hmean",
    "repetition 2's linpack ok: %s" % g)
say(good and good["metrics"].get("resid_max", {}).get("value", 99) < 16,
    "the HPL residual passed (%s)" % (good and good["metrics"].get("resid_max")))
say(good and 0 <= good["metrics"].get("cpu_pct", {}).get("value", -1) <= 100
    and good["metrics"]["cpu_pct"]["unit"] == "%",
    "host cpu%% beside the rate (%s)" % (good and good["metrics"].get("cpu_pct")))
sb = [rec("sysbench", i) for i in (1, 2)]
say(all(s and s["status"] == "ok" and s["metrics"]["events_per_s"]["value"] > 0
        and s["metrics"]["events_per_s"]["better"] == "higher"
        and s["metrics"]["latency_p95_ms"]["value"] >= 0 for s in sb),
    "sysbench ok in both repetitions, events/s and p95 (%s)"
    % [s and s["metrics"].get("events_per_s") for s in sb])
tp = [rec("tpcc", i) for i in (1, 2)]
say(all(t and t["status"] == "ok" and t["metrics"]["nopm"]["value"] > 0
        and t["metrics"]["nopm"]["better"] == "higher" and t["metrics"]["tpm"]["value"] > 0
        for t in tp),
    "the TPC-C guest measured NOPM and TPM in both repetitions (%s)"
    % [t and (t["status"], t.get("reason"), t["metrics"].get("nopm")) for t in tp])
say(all(x["load"] == "small" for x in recs if x["workload"] in ("linpack", "sysbench", "cyclictest")),
    "records carry their load level")
semi = [v for v in d["verifications"] if "semi-idle load" in v["what"]]
say(len(semi) == 4 and all(v["status"] == "PASS" for v in semi),
    "the semi-idle guests woke and worked in both repetitions (%s)" % [v["detail"] for v in semi][:2])
say(any(r["workload"] == "sysbench" and any("sysbench" in p for p in r["raw"]) for r in recs),
    "raw sysbench output kept")
PY
while read -r word rest; do check "$rest" [ "$word" = ok ]; done <"$tmp/py"

"$rtvirt" compare "$store" >"$tmp/cmp" 2>"$tmp/cmperr"; crc=$?
check "rtvirt compare reads the store (rc $crc: $(head -c 300 "$tmp/cmperr"))" [ $crc -le 1 ]
check "compare shows GFLOPS, events/s, NOPM and the RT latency side by side" \
    eval 'grep -qi "gflops" "$tmp/cmp" && grep -qi "events" "$tmp/cmp" && grep -qi "nopm" "$tmp/cmp" && grep -q "max_us\|p99\|latency" "$tmp/cmp"'
check "compare marks the store virt=tcg / untrusted" \
    eval 'grep -q "virt=tcg" "$tmp/cmp" && grep -qi "untrusted" "$tmp/cmp"'
check "no domain of the run remains" [ -z "$(domains)" ]
