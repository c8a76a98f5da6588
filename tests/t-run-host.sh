#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/t-run-host.sh: `rtvirt run` with host-side workloads only:
# `rtvirt pert` and cyclictest on a host CPU, and the pipe
# ping-pong on CPUs 0-1 with the IPIs and timer interrupts it took (issue
# 13), 2 scenarios x 2 repetitions each, no guest.  Checks the records (one per CPU for pert, with
# count/max/stolen and the perturbation histogram; cyclictest with
# max_us and its raw output), the /proc counter snapshots, and `rtvirt
# compare` on the store; then the pipe at two load levels, whose cells
# must say "ran" in the store.  Needs root (SCHED_FIFO, the run journal) and
# rt-tests; skips otherwise.
set -u
rtvirt=${RV_BUILD:?}/rtvirt
top=${RV_TOP:?}
. "${RV_TOP:?}/tests/tap.sh"
if [ "$(id -u)" != 0 ]; then skip_all "needs root"; fi
command -v cyclictest >/dev/null || skip_all "cyclictest (rt-tests) is not installed"
if [ "$(nproc)" -lt 2 ]; then skip_all "needs CPU 1"; fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

echo "1..16"
for w in pert cyclictest pipe; do
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
key = {"pert": "stolen_us", "cyclictest": "max_us", "pipe": "cross_cpu_ns"}[w]
good = good and all(key in r["metrics"] for r in recs)
hist = {"pert": "perturbation", "cyclictest": "latency"}.get(w)
good = good and all(hist is None or hist in (r.get("histograms") or {}) for r in recs)
print("ok" if good else "FAIL", "2 x 2 %s records on %s with %s and histogram '%s': %s" %
      (w, target, key, hist, [(r["scenario"], r["status"], r["reason"]) for r in recs]))
hc = [r for r in d["records"] if r["workload"] == "host-counters"]
print("ok" if len(hc) == 4 else "FAIL", "4 host counter snapshots")
if w == "pipe":
    # the IPIs and timer interrupts of CPUs 0-1 during the pipe run: within
    # what the repetition's host-counters saw on them (the pipe runs inside
    # that window), local timer ticks > 0.  Not ">= 1 RES per round trip":
    # with a polling idle state (haltpoll here) a wake-up sets need_resched
    # on the polling CPU and sends no IPI.
    def rep_sum(cell, rep, row):
        h = [x for x in hc if x["scenario"] == cell and x["repetition"] == rep][0]["details"]
        pc = h["interrupts"].get(row, {}).get("per_cpu", [])
        return sum(v for c, v in zip(h["cpus"], pc) if c in (0, 1))
    m = [(r["metrics"]["same_cpu_ns"]["value"], r["metrics"]["cross_cpu_ns"]["value"],
          r["metrics"].get("resched_ipis", {}).get("value", -1),
          rep_sum(r["scenario"], r["repetition"], "RES"),
          r["metrics"].get("local_timer_irqs", {}).get("value", -1),
          rep_sum(r["scenario"], r["repetition"], "LOC")) for r in recs]
    print("ok" if recs and all(x[0] > 0 and x[1] > 0 and 0 <= x[2] <= x[3] and 0 < x[4] <= x[5]
                               for x in m)
          else "FAIL", "pipe on CPUs 0-1: ns per round trip same/cross; RES and LOC during it "
          "within the repetition's (pipe, repetition): %s" % m)
PY
    while read -r word rest; do check "$w: $rest" [ "$word" = ok ]; done <"$tmp/py"
    "$rtvirt" compare "$store" >"$tmp/cmp" 2>&1; rc=$?
    check "$w: rtvirt compare shows both scenarios" \
        eval '[ $rc -eq 0 ] && grep -q "no-timer-migration" "$tmp/cmp" && grep -qE "^  default +2 " "$tmp/cmp"'
done
# two load levels: each cell (default@small, default@large) is a scenario
# of the store that says "ran" once measured, not "planned"
"$rtvirt" run --wait-lock 1800 --out "$tmp/loads" "$top/tests/data/run/host-pipe-loads.ini" >"$tmp/out" 2>"$tmp/err"; rc=$?
cells=$(python3 -c "import json,sys; print(' '.join('%s=%s' % (s['name'], s['status']) for s in json.load(open(sys.argv[1]+'/run.json'))['scenarios']))" "$(sed -n 's/^Results: //p' "$tmp/out")" 2>&1)
check "two load levels: every cell that was measured says ran ($rc: $cells)" \
    eval '[ $rc -eq 0 ] && [ "$cells" = "default=ran default@small=ran default@large=ran" ]'
# a host tool that fails: its stderr (several lines, a terminal escape, a
# trailing newline, 600 more bytes) is quoted in the record's reason as one
# line: trimmed, escaped, bounded.  A stand-in cyclictest, first in PATH:
# the real one cannot be made to write such bytes.
mkdir -p "$tmp/bin"
cat >"$tmp/bin/cyclictest" <<'SH'
#!/bin/sh
printf 'cyclictest: sched_setscheduler: Operation not permitted\r\n\033]0;pwned\007 again\n' >&2
head -c 600 /dev/zero | tr '\0' x >&2
printf '\n\n' >&2
exit 1
SH
chmod +x "$tmp/bin/cyclictest"
PATH="$tmp/bin:$PATH" "$rtvirt" run --wait-lock 1800 --out "$tmp/fails" "$top/tests/data/run/host-tool-fails.ini" >"$tmp/out" 2>"$tmp/err"; rc=$?
python3 - "$(sed -n 's/^Results: //p' "$tmp/out")" >"$tmp/py" 2>&1 <<'PY'
import json, sys
recs = json.load(open(sys.argv[1] + "/run.json"))["records"]
r = [x["reason"] for x in recs if x["workload"] == "cyclictest"]
want = ("host cyclictest exited with status 1: cyclictest: sched_setscheduler: "
        "Operation not permitted; \\033]0;pwned\\007 again; xxx")
good = (len(r) == 1 and r[0].startswith(want) and r[0].endswith("x...")
        and len(r[0]) < 300 and all(0x20 <= ord(c) < 0x7f for c in r[0]))
print("ok" if good else "FAIL", ascii(r))
PY
read -r word rest <"$tmp/py"
check "a failed host tool's stderr is one escaped, bounded line in the reason ($rc: $rest)" \
    eval '[ $rc -eq 1 ] && [ "$word" = ok ]'
# the value the run found when it held the host lock (another rtvirt run,
# e.g. another `make check`, may have held it when this test started)
before=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]+'/run.json'))['host']['timer_migration'])" "$store")
check "timer_migration is back to $before, as the run found it" \
    [ "$(cat /proc/sys/kernel/timer_migration)" = "$before" ]
