#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/t-hostile-stores.sh: stores are untrusted input (they come from
# other hosts: a colleague's, the fleet's collect role).  Reading one costs
# memory in proportion to its size, whatever it declares:
#  - the bucket bomb (tests/data/compare/bomb: 8 records, 5.4 KB, each
#    histogram declaring 2^24 buckets with one sample in the last; 128 MiB
#    each when histograms were dense) goes through compare (text, --json,
#    --csv --histogram-csv) and report under `ulimit -v` 256 MiB, and its
#    one sample per repetition comes out;
#  - a store whose run.json links to /etc/passwd: exit 2, no text of that
#    file in the message (json-glib quotes the token it stumbled on);
#  - a run.json that is a FIFO nobody writes: exit 2, not a hang; result
#    check of a directory: "Is a directory", not mmap's message;
#  - an empty resume.json: a clear error and no GLib CRITICAL;
#  - store text with ESC sequences: compare --csv writes none of them raw;
#  - report -o DIR over an index.html rtvirt report did not write: exit 2,
#    the file untouched; over its own page, or with --force: written.
# No root, no guest.
set -u
rtvirt=${RV_BUILD:?}/rtvirt
top=${RV_TOP:?}
. "$top/tests/tap.sh"
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
    skip "gnuplot is not installed"
    skip "gnuplot is not installed"
fi

# a store that is a link to another file: nothing of that file echoed
mkdir -p "$tmp/passwd-store"
ln -s /etc/passwd "$tmp/passwd-store/run.json"
"$rtvirt" compare "$tmp/passwd-store" >"$tmp/out" 2>"$tmp/err"; rc=$?
first=$(head -n 1 /etc/passwd | cut -d: -f1)
check "run.json -> /etc/passwd: exit 2, no text of it in the message ($(cat "$tmp/err"))" \
    eval '[ $rc -eq 2 ] && grep -q "run.json" "$tmp/err" && ! grep -q "$first" "$tmp/err"'

# a run.json that is a FIFO nobody writes: an error, not a hang (the
# test's own timeout tells a hang from an exit)
mkdir -p "$tmp/fifo-store"
mkfifo "$tmp/fifo-store/run.json"
timeout 60 "$rtvirt" compare "$tmp/fifo-store" >"$tmp/out" 2>"$tmp/err"; rc=$?
check "run.json a FIFO: exit 2 naming it, no hang ($(cat "$tmp/err"))" \
    eval '[ $rc -eq 2 ] && grep -q "fifo-store/run.json: invalid JSON: empty, not JSON$" "$tmp/err"'
timeout 60 "$rtvirt" result check "$tmp/fifo-store/run.json" >"$tmp/out" 2>"$tmp/err"; rc=$?
check "result check of a FIFO: exit 2, no hang ($(cat "$tmp/err"))" [ $rc -eq 2 ]
"$rtvirt" result check "$tmp/fifo-store" >"$tmp/out" 2>"$tmp/err"; rc=$?
check "result check of a directory: exit 2, 'Is a directory' ($(cat "$tmp/err"))" \
    eval '[ $rc -eq 2 ] && grep -q "Failed to read .*fifo-store.: Is a directory" "$tmp/err"'

# an empty resume.json
mkdir -p "$tmp/empty-resume"
cp "$bomb/run.json" "$tmp/empty-resume/"
: >"$tmp/empty-resume/resume.json"
"$rtvirt" run --resume "$tmp/empty-resume" >"$tmp/out" 2>"$tmp/err"; rc=$?
check "empty resume.json: exit 2 with a clear error, no CRITICAL ($(head -c 300 "$tmp/err"))" \
    eval '[ $rc -eq 2 ] && grep -q "resume.json: empty, not JSON" "$tmp/err" && ! grep -q CRITICAL "$tmp/err"'

# ESC sequences in store text
mkdir -p "$tmp/esc/$bomb"
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
for r in d["records"]:
    r["target"] = "guest:\x1b[31mrt0\x1b]0;pwned\x07"
json.dump(d, open(sys.argv[2], "w"))' "$bomb/run.json" "$tmp/esc/$bomb/run.json"
"$rtvirt" compare --csv "$tmp/esc/$bomb" >"$tmp/csv" 2>"$tmp/err"; rc=$?
check "compare --csv of store text with ESC: exit 0, no raw ESC or BEL, escaped as \\033" \
    eval '[ $rc -eq 0 ] && ! grep -q "$(printf "[\033\007]")" "$tmp/csv" && grep -q "guest:\\\\033\[31mrt0" "$tmp/csv"'

# report -o over someone else's index.html
if command -v gnuplot >/dev/null 2>&1; then
    mkdir -p "$tmp/web"
    echo '<html>my own page</html>' >"$tmp/web/index.html"
    "$rtvirt" report -o "$tmp/web" "$bomb" >"$tmp/out" 2>"$tmp/err"; rc=$?
    check "report -o over a foreign index.html: exit 2, named, untouched ($(cat "$tmp/err"))" \
        eval '[ $rc -eq 2 ] && grep -q "$tmp/web/index.html" "$tmp/err" && grep -qx "<html>my own page</html>" "$tmp/web/index.html"'
    "$rtvirt" report -o "$tmp/r" "$bomb" >"$tmp/out" 2>"$tmp/err"; rc=$?
    check "report -o over its own earlier page: exit 0 ($(head -c 200 "$tmp/err"))" [ $rc -eq 0 ]
    "$rtvirt" report --force -o "$tmp/web" "$bomb" >"$tmp/out" 2>"$tmp/err"; rc=$?
    check "report --force replaces the foreign page" eval '[ $rc -eq 0 ] && grep -q "Written by rtvirt report" "$tmp/web/index.html"'
else
    skip "gnuplot is not installed"; skip "gnuplot is not installed"; skip "gnuplot is not installed"
fi

tap_plan
tap_exit
