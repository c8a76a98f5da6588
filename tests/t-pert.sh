#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/t-pert.sh: `rtvirt pert` live on this machine, and its refusals.
set -u
rtvirt=${RV_BUILD:?}/rtvirt
. "${RV_TOP:?}/tests/tap.sh"
echo "1..16"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cpu=$(( $(nproc) - 1 ))

"$rtvirt" pert -c "$cpu" -d 2s --threshold 1 --output "$tmp/p.json" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc -eq 0 ] && ok "live run on CPU $cpu exits 0" || nok "live run exits $rc: $(cat "$tmp/err")"
lines=$(grep -c '^pert/s: [0-9]* >[0-9.]*us: [0-9]* min: [0-9.]* max: [0-9.]* avg: [0-9.]* sum/s: [0-9]*us overhead: [0-9.]*%$' "$tmp/out")
[ "$lines" -eq 2 ] && ok "two per-second lines in the documented format" || nok "per-second lines: $lines"
grep -q '^# total: pert: ' "$tmp/out" && ok "summary line" || nok "no summary line"
count=$(jq -r '.summary.count' "$tmp/p.json" 2>/dev/null)
sumlines=$(awk '/^pert\/s:/ {s += $2} END {print s}' "$tmp/out")
[ "$count" = "$sumlines" ] && ok "JSON summary count ($count) = sum of per-second counts" \
    || nok "JSON count '$count' vs lines '$sumlines'"
[ "$(jq -r '.threshold_us' "$tmp/p.json")" = "1" ] && ok "threshold recorded" || nok "threshold"

"$rtvirt" pert -c 4095 -d 1s >/dev/null 2>"$tmp/err"; rc=$?
{ [ $rc -eq 2 ] && grep -q "CPU 4095 is not online" "$tmp/err"; } \
    && ok "offline CPU refused, exit 2" || nok "offline CPU: rc=$rc $(cat "$tmp/err")"
taskset -c 0 "$rtvirt" pert -c "$cpu" -d 1s >/dev/null 2>"$tmp/err"; rc=$?
if [ "$cpu" -ne 0 ]; then
    { [ $rc -eq 2 ] && grep -q "is not in this process's allowed CPUs (0)" "$tmp/err"; } \
        && ok "CPU outside the allowed set refused, exit 2" || nok "allowed set: rc=$rc $(cat "$tmp/err")"
else
    ok "# SKIP single-CPU machine: no CPU outside the allowed set"
fi
"$rtvirt" pert -c 0 -d 3parsecs >/dev/null 2>"$tmp/err"; rc=$?
{ [ $rc -eq 2 ] && grep -q "invalid duration '3parsecs'" "$tmp/err"; } \
    && ok "bad duration named, exit 2" || nok "bad duration: rc=$rc"
# refusals before anything is measured (no header line on stdout)
"$rtvirt" pert -c -1 -d 1s >"$tmp/out" 2>"$tmp/err"; rc=$?
{ [ $rc -eq 2 ] && grep -q "invalid CPU -1" "$tmp/err" && [ ! -s "$tmp/out" ]; } \
    && ok "-c -1: invalid CPU -1, exit 2" || nok "-c -1: rc=$rc $(cat "$tmp/err")"
"$rtvirt" pert -c 0 -p 0 -d 1s >"$tmp/out" 2>"$tmp/err"; rc=$?
{ [ $rc -eq 2 ] && grep -q "invalid priority 0: expected 1-99" "$tmp/err" && [ ! -s "$tmp/out" ]; } \
    && ok "-p 0 given explicitly refused, exit 2" || nok "-p 0: rc=$rc $(cat "$tmp/err")"
"$rtvirt" pert -c 0 -d 1s --output /nonexistent/dir/x.json >"$tmp/out" 2>"$tmp/err"; rc=$?
{ [ $rc -eq 2 ] && grep -q "/nonexistent/dir" "$tmp/err" && [ ! -s "$tmp/out" ]; } \
    && ok "--output into a missing directory refused before measuring, exit 2" \
    || nok "--output /nonexistent: rc=$rc out=$(head -1 "$tmp/out") $(cat "$tmp/err")"
"$rtvirt" pert --help >"$tmp/help" 2>&1
grep -- "--threshold" "$tmp/help" | grep -q "10 x loop period, at least 0.25 us" \
    && ok "--help documents the auto threshold's 0.25 us floor" || nok "help: $(grep -- --threshold "$tmp/help")"

# doc/cli.md: --json is the document alone on stdout
"$rtvirt" pert -c "$cpu" -d 1s --json >"$tmp/j.out" 2>"$tmp/err"; rc=$?
{ [ $rc -eq 0 ] && [ "$(jq -r .schema_version "$tmp/j.out")" = 1 ] && ! grep -q '^pert/s:' "$tmp/j.out" \
    && [ "$(jq '.seconds | length' "$tmp/j.out")" = 1 ]; } \
    && ok "--json: only the JSON document on stdout, one second recorded" || nok "--json: rc=$rc $(head -c 300 "$tmp/j.out")"
# the old spellings still work: -D TIME, --json FILE (harness/run.c), --json - is stdout
rm -f "$tmp/old.json"
"$rtvirt" pert -c "$cpu" -D 1s --json "$tmp/old.json" >"$tmp/out" 2>"$tmp/err"; rc=$?
{ [ $rc -eq 0 ] && [ "$(jq -r .schema_version "$tmp/old.json")" = 1 ] && grep -q '^pert/s:' "$tmp/out"; } \
    && ok "old -D 1s --json FILE: file written, text on stdout" || nok "old spelling: rc=$rc $(cat "$tmp/err")"
( cd "$tmp" && "$rtvirt" pert -c "$cpu" -d 1s --json - >"$tmp/dash.out" 2>"$tmp/err" ); rc=$?
{ [ $rc -eq 0 ] && [ ! -e "$tmp/-" ] && jq -e .summary "$tmp/dash.out" >/dev/null; } \
    && ok "--json - prints to stdout, no file named '-'" || nok "--json -: rc=$rc $(ls "$tmp")"
"$rtvirt" pert -c 0 -H -d 1s >/dev/null 2>"$tmp/err"; rc=$?
[ $rc -eq 2 ] && ok "-H is not --histogram any more (it is --host-profile elsewhere): exit 2" || nok "-H: rc=$rc"
exit $fail
