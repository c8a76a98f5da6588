#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# build-aux/long-functions.sh [-n COUNT] [-m MAX] [TOP]: the longest C
# functions outside tests/ and bench/ (Universal Ctags' end: field), longest
# first, as "LINES FILE:LINE NAME".  Exit 1 when one is longer than MAX lines
# (default 150, doc/hacking.md "Size and direction"), 0 otherwise, 2 when
# ctags is missing or is not Universal Ctags.
set -u
count=20 max=150
while getopts n:m: o; do
    case $o in n) count=$OPTARG ;; m) max=$OPTARG ;; *) exit 2 ;; esac
done
shift $((OPTIND - 1))
cd "${1:-.}" || exit 2
if ! ctags --version 2>/dev/null | grep -q 'Universal Ctags'; then
    echo "long-functions: needs Universal Ctags (Debian package universal-ctags)" >&2
    exit 2
fi
files=$(ls util/*.c host/*.c host/*/*.c guest/*.c results/*.c harness/*.c 2>/dev/null)
ctags --c-kinds=f --fields=+ne -o - $files |
    awk -F'\t' -v max="$max" -v count="$count" '
    { ln = ""; en = ""
      for (i = 4; i <= NF; i++) { if ($i ~ /^line:/) ln = substr($i, 6); if ($i ~ /^end:/) en = substr($i, 5) }
      if (ln != "" && en != "") printf "%d %s:%s %s\n", en - ln + 1, $2, ln, $1 }' |
    sort -k1,1rn -k2 | awk -v max="$max" -v count="$count" '
    NR <= count { print }
    $1 > max { over++ }
    END { if (over) { printf "%d function(s) over %d lines\n", over, max > "/dev/stderr"; exit 1 } }'
