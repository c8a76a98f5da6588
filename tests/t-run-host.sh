#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/t-run-host.sh: `rtvirt run` with host-side workloads only (issue 4
# item 3): `rtvirt pert` and cyclictest on a host CPU, 2 scenarios x 2
# repetitions, no guest.  Checks the records (one per CPU for pert, with
# count/max/stolen and the perturbation histogram; cyclictest with
# max_us and its raw output), the /proc counter snapshots, and `rtvirt
# compare` on the store.  Needs root (SCHED_FIFO, the run journal) and
# rt-tests; skips otherwise.
set -u
rtvirt=${RV_BUILD:?}/rtvirt
top=${RV_TOP:?}
n=0
ok() { n=$((n + 1)); echo "ok $n - $*"; }
nok() { n=$((n + 1)); echo "not ok $n - $*"; }
check() { local what=$1; shift; if "$@"; then ok "$what"; else nok "$what"; fi; }
if [ "$(id -u)" != 0 ]; then echo "1..0 # SKIP needs root"; exit 0; fi
command -v cyclictest >/dev/null || { echo "1..0 # SKIP cyclictest (rt-tests) is not installed"; exit 0; }
if [ "$(nproc)" -lt 2 ]; then echo "1..0 # SKIP needs CPU 1"; exit 0; fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

echo "1..9"
for w in pert cyclictest; do
    "$rtvirt" run --wait-lock 1800 --out "$tmp/$w" "$top/tests/data/run/host-$w.ini" >"$tmp/out" 2>"$tmp/err"; rc=$?
    check "$w: rtvirt run exits 0 ($(tail -n 2 "$tmp/err" | tr '\n' ' ' | cut -c1-200))" [ $rc -eq 0 ]
    store=$(sed -n 's/^Results: //p' "$tmp/out")
    python3 - "$store" "$w" >"$tmp/py" 2>&1 <<'PY'
import json, sys, os
store, w = sys.argv[1], sys.argv[2]
d = json.load(open(os.path.join(store, "run.json")))
recs = [r for r in d["records"] if r["workload"] == w]
target = "host:cpu1" if w == "pert" else "host"
good = len(recs) == 4 and all(r["status"] == "ok" and r["target"] == target and r["raw"] for r in recs)
key = "stolen_us" if w == "pert" else "max_us"
good = good and all(key in r["metrics"] for r in recs)
hist = "perturbation" if w == "pert" else "latency"
good = good and all(hist in (r.get("histograms") or {}) for r in recs)
print("ok" if good else "FAIL", "2 x 2 %s records on %s with %s and histogram '%s': %s" %
      (w, target, key, hist, [(r["scenario"], r["status"], r["reason"]) for r in recs]))
hc = [r for r in d["records"] if r["workload"] == "host-counters"]
print("ok" if len(hc) == 4 else "FAIL", "4 host counter snapshots")
PY
    while read -r word rest; do check "$w: $rest" [ "$word" = ok ]; done <"$tmp/py"
    "$rtvirt" compare "$store" >"$tmp/cmp" 2>&1; rc=$?
    check "$w: rtvirt compare shows both scenarios" \
        eval '[ $rc -eq 0 ] && grep -q "no-timer-migration" "$tmp/cmp" && grep -qE "^  default +2 " "$tmp/cmp"'
done
# the value the run found when it held the host lock (another rtvirt run,
# e.g. another `make check`, may have held it when this test started)
before=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]+'/run.json'))['host']['timer_migration'])" "$store")
check "timer_migration is back to $before, as the run found it" \
    [ "$(cat /proc/sys/kernel/timer_migration)" = "$before" ]
