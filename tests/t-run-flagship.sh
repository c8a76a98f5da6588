#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/t-run-flagship.sh: the flagship matrix's CI version
# (profiles/matrix/coresched-vs-nosmt-ci.ini) for real under TCG: an RT
# guest with cyclictest beside a sysbench and a gemm neighbour at two load
# levels, baseline and siblings-idle run, nosmt and coresched are SKIPPED
# with the reason on a host without SMT and core scheduling; then `rtvirt
# compare` opens with the answer (RT p99.99 and max, events/s, GFLOPS and
# the host cpu% per cell, each better/worse against the baseline at its
# load level, with the noise marks), one sentence per option, the
# scenarios' descriptions, the per-level table, and `rtvirt report` opens
# its page with the same answer.  LIVE: boots guests (run it under
# flock /tmp/rtvirt-live.lock).  Needs root, libvirtd and QEMU; skips
# otherwise, and where the host has SMT (nosmt would run for real).
set -u
rtvirt=${RV_BUILD:?}/rtvirt
top=${RV_TOP:?}
matrix=$top/profiles/matrix/coresched-vs-nosmt-ci.ini
. "${RV_TOP:?}/tests/tap.sh"

need_cmds qemu-system-x86_64 virsh python3
need_root
smt=$(cat /sys/devices/system/cpu/smt/control 2>/dev/null || echo notsupported)
if [ "$smt" != notsupported ]; then echo "1..0 # SKIP the host has SMT ($smt): nosmt would switch it off"; exit 0; fi
export PATH=$PATH:/usr/sbin
need_libvirt "$rtvirt"
domains() { virsh -c qemu:///system list --all --name 2>/dev/null | grep -E '^rtvirt-coresched-vs-nosmt-ci-' || true; }
tmp=$(mktemp -d)
trap 'for d in $(domains); do virsh -c qemu:///system destroy "$d" >/dev/null 2>&1; done; rm -rf "$tmp"' EXIT

echo "1..11"
"$rtvirt" run --wait-lock 1800 --out "$tmp/results" "$matrix" >"$tmp/out" 2>"$tmp/err"; rc=$?
check "rtvirt run coresched-vs-nosmt-ci.ini ran to its end ($rc: $(tail -n 2 "$tmp/err" | tr '\n' ' ' | cut -c1-300))" \
    eval '[ $rc -eq 0 ] || [ $rc -eq 1 ]'
store=$(sed -n 's/^Results: //p' "$tmp/out")
check "the summary names the store ($store)" [ -f "$store/run.json" ]

python3 - "$store" >"$tmp/py" 2>&1 <<'PY'
import json, sys
d = json.load(open(sys.argv[1] + "/run.json"))
def say(ok, what):
    print(("ok " if ok else "FAIL ") + what)
sc = {s["name"]: s for s in d["scenarios"]}
say(sc["nosmt"]["status"] == "skipped" and "SMT" in (sc["nosmt"]["reason"] or "")
    and sc["coresched"]["status"] == "skipped" and sc["coresched"]["reason"],
    "nosmt and coresched SKIPPED with the reason (%s; %s)" % (sc["nosmt"]["reason"], sc["coresched"]["reason"]))
ok = {(r["scenario"], r["workload"]) for r in d["records"] if r["status"] == "ok"}
cells = ["%s@%s" % (s, l) for s in ("baseline", "siblings-idle") for l in ("t1", "t2")]
say(all((c, w) in ok for c in cells for w in ("cyclictest", "sysbench", "gemm")),
    "every cell of baseline and siblings-idle measured cyclictest, sysbench and gemm at least once (%s)"
    % sorted(set((c, w) for c in cells for w in ("cyclictest", "sysbench", "gemm")) - ok))
PY
while read -r word rest; do check "$rest" [ "$word" = ok ]; done <"$tmp/py"

"$rtvirt" compare "$store" >"$tmp/cmp" 2>"$tmp/cmperr"; crc=$?
check "rtvirt compare reads the store (rc $crc: $(head -c 300 "$tmp/cmperr"))" [ $crc -eq 0 ]
check "the answer is the first table: RT, sb, gm and host columns" \
    eval '[ "$(grep -m1 -n "^== " "$tmp/cmp" | cut -d: -f2-)" = "== the answer: each scenario against the baseline at its load level ==" ] &&
          grep -q "^ *RT *RT" "$tmp/cmp" && grep -q "events_per_s" "$tmp/cmp" && grep -q "gflops" "$tmp/cmp" && grep -q "cpu%" "$tmp/cmp"'
sed -n '/^== the answer/,/^marks:/p' "$tmp/cmp" >"$tmp/answer"
check "answer rows of siblings-idle at both levels say better, worse or same in every block" \
    eval '[ "$(grep -c "^  siblings-idle@t[12] " "$tmp/answer")" -ge 2 ] &&
          ! grep "^  siblings-idle@t[12] " "$tmp/answer" | grep -v -q " \(better\|worse\|same\)\( \|\$\)"'
check "one sentence per option and level" \
    eval 'grep -q "^  siblings-idle@t1 vs baseline@t1: RT p99.99 " "$tmp/cmp" && grep -q "^  siblings-idle@t2 vs baseline@t2: RT p99.99 " "$tmp/cmp"'
check "the scenarios' descriptions, the per-level table" \
    eval 'grep -q "^  siblings-idle  *SMT as the host has it, no core scheduling, the RT vCPUs. SMT siblings idle where it has any$" "$tmp/cmp" &&
          grep -q "per load level: mean \[std% / sem%\] change cpu%" "$tmp/cmp"'
"$rtvirt" report -o "$tmp/report" "$store" >/dev/null 2>"$tmp/reperr"; rrc=$?
check "rtvirt report opens with the answer ($rrc: $(head -c 200 "$tmp/reperr"))" \
    eval '[ $rrc -eq 0 ] && grep -q "<h2 id=\"answer\">The answer</h2>" "$tmp/report/index.html" &&
          grep -q "<li>siblings-idle@t1 vs baseline@t1: " "$tmp/report/index.html"'
check "no domain of the run remains" [ -z "$(domains)" ]
