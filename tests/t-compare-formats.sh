#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/t-compare-formats.sh: `rtvirt compare --json / --csv /
# --histogram-csv` read by the tools users read them with:
#  - jq: schema_version, every percentile a number with a boolean bound,
#    the merged histogram's counts summing with the overflows to the
#    samples, bucket width 1 us;
#  - Python's csv module: every numeric column of --csv parses as a number
#    (no "<=N"), the bound column names exactly the percentiles that equal
#    the max beyond the range;
#  - --histogram-csv: numbers in bucket_us/count/overflow, the counts per
#    scenario equal the JSON's samples; a file that cannot be written is
#    exit 2.
# No root, no guest: the stores of tests/data/compare.
set -u
rtvirt=${RV_BUILD:?}/rtvirt
top=${RV_TOP:?}
. "${RV_TOP:?}/tests/tap.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$top/tests/data/compare" || exit 1

for st in welch/20261130-140000-demo demo/20261201-222234-demo; do
    name=${st%%/*}
    "$rtvirt" compare --json "$st" >"$tmp/$name.json"; rc=$?
    check "$name: --json exits 0" [ $rc -eq 0 ]
    check "$name: schema_version 1" [ "$(jq .schema_version "$tmp/$name.json")" = 1 ]
    check "$name: every percentile is a number with a boolean bound" \
        [ "$(jq '[.groups[].latency[].percentiles[] | select((.value_us | type) != "number" or (.bound | type) != "boolean")] | length' "$tmp/$name.json")" = 0 ]
    check "$name: histogram counts + overflows = samples, 1 us buckets" \
        [ "$(jq '[.groups[].latency[] | select(([.histogram.counts[][1]] | add) + .histogram.overflows != .samples or .histogram.bucket_width_us != 1)] | length' "$tmp/$name.json")" = 0 ]
    check "$name: a bound percentile is the max" \
        [ "$(jq '[.groups[].latency[] | .max as $m | .percentiles[] | select(.bound and .value_us != $m)] | length' "$tmp/$name.json")" = 0 ]

    "$rtvirt" compare --csv "$st" --histogram-csv "$tmp/$name.hist.csv" >"$tmp/$name.csv"; rc=$?
    check "$name: --csv --histogram-csv exit 0" [ $rc -eq 0 ]
    python3 - "$tmp/$name.csv" "$tmp/$name.hist.csv" "$tmp/$name.json" >"$tmp/py" <<'PY'
import csv, json, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
numeric = ["n", "failed", "mean", "stddev", "sem", "min", "max", "change_pct", "p",
           "samples", "overflows", "p50", "p99", "p99_9", "p99_99"]
bad = [(r["scenario"], k, r[k]) for r in rows for k in numeric if r[k] != "" and
       not r[k].lstrip("-").replace(".", "", 1).replace("e-", "", 1).replace("e+", "", 1).isdigit()]
print("ok" if not bad else "FAIL", "csv: numeric columns hold numbers only", bad[:3])
lat = [r for r in rows if r["metric"] == "latency"]
wrong = []
doc = json.load(open(sys.argv[3]))
for r in lat:
    for g in doc["groups"]:
        for l in g["latency"]:
            if l["scenario"] == r["scenario"] and g["target"] == r["target"]:
                want = " ".join(k for k, p in zip(["p50", "p99", "p99_9", "p99_99"], l["percentiles"]) if p["bound"])
                if want != r["bound"]:
                    wrong.append((r["scenario"], r["bound"], want))
print("ok" if lat and not wrong else "FAIL", "csv: bound names the bounded percentiles as the JSON does", wrong)
hist = list(csv.DictReader(open(sys.argv[2], newline="")))
print("ok" if hist and all(h[k].isdigit() for h in hist for k in ("bucket_us", "count", "overflow")) else "FAIL",
      "histogram csv: numbers only in bucket_us, count, overflow")
sums = {}
for h in hist:
    sums[(h["target"], h["scenario"])] = sums.get((h["target"], h["scenario"]), 0) + int(h["count"])
want = {(g["target"], l["scenario"]): l["samples"] for g in doc["groups"] for l in g["latency"]}
print("ok" if sums == want else "FAIL", "histogram csv: counts per scenario = the JSON's samples", sums, want)
PY
    while read -r word rest; do check "$name: $rest" [ "$word" = ok ]; done <"$tmp/py"
done

"$rtvirt" compare welch/20261130-140000-demo --histogram-csv "$tmp/no/such/dir/h.csv" >/dev/null 2>"$tmp/err"; rc=$?
check "--histogram-csv into a missing directory: exit 2 naming it ($(head -c 200 "$tmp/err"))" \
    eval '[ $rc -eq 2 ] && grep -q "no/such/dir/h.csv. (--histogram-csv): no directory" "$tmp/err"'
# Two stores of one host name are not silently "the same host":
# a copy of the report fixture (a real make demo store with its
# host context) whose kernel release differs gets a NOTE naming both
# releases; two identical copies get none.
src=$top/tests/data/report/20261201-231402-demo
mkdir -p "$tmp/ctx/a" "$tmp/ctx/b" "$tmp/ctx/c"
cp -r "$src" "$tmp/ctx/a/"; cp -r "$src" "$tmp/ctx/b/"; cp -r "$src" "$tmp/ctx/c/"
jq '.context.kernel.release = "6.1.0-28-amd64"' "$src/run.json" >"$tmp/ctx/c/20261201-231402-demo/run.json"
"$rtvirt" compare "$tmp/ctx/a/20261201-231402-demo" "$tmp/ctx/c/20261201-231402-demo" >"$tmp/ctx.txt" 2>&1
"$rtvirt" compare --json "$tmp/ctx/a/20261201-231402-demo" "$tmp/ctx/c/20261201-231402-demo" >"$tmp/ctx.json" 2>/dev/null
check "two stores of host vm with different kernels: a NOTE naming both releases" \
    eval 'grep -q "^NOTE: stores 1 and 2 both come from host vm, but not from the same setup" "$tmp/ctx.txt" && tr -d "\n" <"$tmp/ctx.txt" | tr -s " " | grep -q "6.18.44-fc-v1045 vs 6.1.0-28-amd64"'
check "the same NOTE in --json context_notes" \
    [ "$(jq '.context_notes | length' "$tmp/ctx.json")" = 1 ]
"$rtvirt" compare "$tmp/ctx/a/20261201-231402-demo" "$tmp/ctx/b/20261201-231402-demo" >"$tmp/ctx2.txt" 2>&1
check "two stores of one host and one setup: no such NOTE" \
    eval '! grep -q "not from the same setup" "$tmp/ctx2.txt"'
echo "1..$n"
