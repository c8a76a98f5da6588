#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/t-hostile-stores.sh: stores are untrusted input (they come from
# other hosts: a colleague's, the fleet's collect role).  Reading one costs
# memory in proportion to its size, whatever it declares:
#  - the bucket bomb (tests/data/compare/bomb: 8 records, 5.4 KB, each
#    histogram declaring 2^24 buckets with one sample in the last; 128 MiB
#    each when histograms were dense) goes through compare (text, --json,
#    --csv --histogram-csv) and report under `ulimit -v` 256 MiB, and its
#    one sample per repetition comes out.
# No root, no guest.
set -u
rtvirt=${RV_BUILD:?}/rtvirt
top=${RV_TOP:?}
n=0
ok() { n=$((n + 1)); echo "ok $n - $*"; }
nok() { n=$((n + 1)); echo "not ok $n - $*"; }
check() { local what=$1; shift; if "$@"; then ok "$what"; else nok "$what"; fi; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$top/tests/data/compare/bomb" || exit 1
bomb=20261204-000000-bomb

# 256 MiB of address space: the dense reading of one histogram alone is
# 128 MiB, of the store 1 GiB.  An ASan build reserves terabytes of shadow
# and cannot run under any ulimit -v: there the limit is left out.
limit() {
    if nm -D "$rtvirt" 2>/dev/null | grep -q __asan_init; then "$@"; else (ulimit -v 262144; exec "$@"); fi
}

limit "$rtvirt" compare "$bomb" >"$tmp/out" 2>"$tmp/err"; rc=$?
check "compare of the bucket bomb under 256 MiB exits 0 ($(head -c 300 "$tmp/err"))" [ $rc -eq 0 ]
check "compare shows the last bucket as p99 of 4 samples" \
    grep -Eq '^  baseline +4 kvm +4 +0 +16777215 +16777215' "$tmp/out"

limit "$rtvirt" compare --json "$bomb" >"$tmp/json" 2>"$tmp/err"; rc=$?
check "compare --json of the bomb exits 0 ($(head -c 300 "$tmp/err"))" [ $rc -eq 0 ]
check "--json keeps the declared range and the one sparse count per scenario" \
    [ "$(jq -c '[.groups[].latency[].histogram | [.buckets, .counts]] | unique' "$tmp/json")" = '[[16777216,[[16777215,4]]]]' ]

limit "$rtvirt" compare --csv "$bomb" --histogram-csv "$tmp/h.csv" >"$tmp/csv" 2>"$tmp/err"; rc=$?
check "compare --csv --histogram-csv of the bomb exits 0 ($(head -c 300 "$tmp/err"))" [ $rc -eq 0 ]
check "the histogram CSV has one row per scenario, not one per declared bucket" \
    [ "$(wc -l <"$tmp/h.csv")" = 3 ]

if command -v gnuplot >/dev/null 2>&1; then
    limit "$rtvirt" report -o "$tmp/r" "$bomb" >"$tmp/out" 2>"$tmp/err"; rc=$?
    check "report of the bomb under 256 MiB exits 0 ($(head -c 300 "$tmp/err"))" [ $rc -eq 0 ]
    check "the histogram plot's data is in proportion to the bins ($(cat "$tmp"/r/plot/*hist*.dat 2>/dev/null | wc -c) bytes)" \
        eval '[ "$(cat "$tmp"/r/plot/*hist* 2>/dev/null | wc -c)" -lt 100000 ]'
else
    ok "# SKIP gnuplot is not installed"
    ok "# SKIP gnuplot is not installed"
fi

echo "1..$n"
