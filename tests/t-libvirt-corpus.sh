#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/t-libvirt-corpus.sh: libvirt's own test corpus as the oracle of
# `guest xml --check` and `guest check`.
#
# The domain XMLs of libvirt's tests (qemuxml2argvdata, qemuxml2xmloutdata,
# genericxml2xmlindata) come from the Debian source package of the libvirt
# installed here (build-aux/libvirt-corpus.sh: apt through a private
# deb-src list, cached under /var/cache/rtvirt; skipped with the reason
# when apt cannot give it).  libvirt's verdicts come from its test
# programs: a name in DO_TEST*PARSE_ERROR* (qemuxml2argvtest.c) or
# DO_TEST_FAIL_ACTIVE/INACTIVE (genericxml2xmltest.c) is refused by
# libvirt's parser and validation; every other file is accepted.
#
# Every file runs through `rtvirt guest xml --check FILE --root ROOT` and
# `rtvirt guest check FILE --root ROOT` on a captured SMT host (hwloc's
# 2-socket Xeon, tests/data/cases/topology/sysfs-2socket-intel-ht-n-n16-
# offline32-111.txt), two at a time, 20 s each.  Asserted:
#  - no crash and no hang: every exit status is 0, 1 or 2;
#  - rtvirt refuses (exit 2) no file libvirt accepts;
#  - a file libvirt refuses whose name says it is about what rtvirt reads
#    (cputune, vcpu, iothread, numatune, hugepages, memory backing) is not
#    passed clean (exit 0) by rtvirt;
#  except the files of tests/data/libvirt-corpus/disagreements.txt, each
#  with what libvirt does, what rtvirt does and why; an entry that no
#  longer disagrees fails too, so the list stays short and true.
# TAP.
set -u
top=${RV_TOP:?}
rtvirt=${RV_BUILD:?}/rtvirt
. "$top/tests/tap.sh"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

corpus=$("$top/build-aux/libvirt-corpus.sh" "${RV_LIBVIRT_CORPUS_CACHE:-/var/cache/rtvirt}" 2>"$tmp/why"); rc=$?
[ $rc = 0 ] || skip_all "libvirt's test corpus: $(cat "$tmp/why")"
list=$top/tests/data/libvirt-corpus/disagreements.txt

# the captured SMT root ("path:value" lines, as tests/t-guest-xml.sh)
root=$tmp/root
while IFS= read -r line; do
    path=${line%%:*} value=${line#*:}
    mkdir -p "$root$(dirname "$path")"
    printf '%s\n' "$value" >"$root$path"
done <"$top/tests/data/cases/topology/sysfs-2socket-intel-ht-n-n16-offline32-111.txt"

# libvirt's verdicts: the names its test programs expect the parser to
# refuse, less those another test of the same program accepts (a refusal
# that depends on QEMU's capabilities: hugepages-memaccess3 is refused
# NOCAPS, accepted with the latest capabilities)
{
    grep -ho 'DO_TEST[A-Z_]*PARSE_ERROR[A-Z_]*("[^"]*"' "$corpus/qemuxml2argvtest.c" | sed 's/.*("//; s/"$//'
    grep -ho 'DO_TEST_FAIL_\(IN\)\?ACTIVE("[^"]*"' "$corpus/genericxml2xmltest.c" | sed 's/.*("//; s/"$//'
} | sort -u >"$tmp/refused-any"
grep -ho 'DO_TEST[A-Z_]*("[^"]*"' "$corpus/qemuxml2argvtest.c" | grep -v 'FAIL\|PARSE_ERROR' \
    | sed 's/.*("//; s/"$//' | sort -u >"$tmp/accepted-some"
comm -23 "$tmp/refused-any" "$tmp/accepted-some" >"$tmp/refused"
ls "$corpus"/qemuxml2argvdata/*.xml "$corpus"/qemuxml2xmloutdata/*.xml \
   "$corpus"/genericxml2xmlindata/*.xml >"$tmp/files"
total=$(wc -l <"$tmp/files")
check_expr '[ "$total" -gt 1500 ] && [ "$(wc -l <"$tmp/refused")" -gt 100 ]' \
    "corpus: $total domain XMLs, $(wc -l <"$tmp/refused") refused by libvirt's tests ($corpus)"

# one line per file: FILE XMLRC CHECKRC
run_one() {
    local f=$1 a b
    timeout 20 "$rtvirt" guest xml --check "$f" --root "$root" >/dev/null 2>&1; a=$?
    timeout 20 "$rtvirt" guest check "$f" --root "$root" >/dev/null 2>&1; b=$?
    echo "$f $a $b"
}
export -f run_one; export rtvirt root
xargs -P2 -I{} bash -c 'run_one "$@"' _ {} <"$tmp/files" >"$tmp/results"

awk '$2 != 0 && $2 != 1 && $2 != 2 || $3 != 0 && $3 != 1 && $3 != 2' "$tmp/results" >"$tmp/bad"
check_expr '[ "$(wc -l <"$tmp/results")" = "$total" ] && [ ! -s "$tmp/bad" ]' \
    "no crash, no hang: $total x 2 runs exit 0, 1 or 2 ($(wc -l <"$tmp/bad") do not: $(head -3 "$tmp/bad" | tr '\n' ' '))"
awk '$2 != $3' "$tmp/results" >"$tmp/split"
check_expr '[ ! -s "$tmp/split" ]' \
    "guest xml --check and guest check agree on every file ($(head -3 "$tmp/split" | tr '\n' ' '))"

ours='cputune|vcpu|iothread|numatune|hugepages|memorybacking|memtune'
listed() { grep -q "^$1	" "$list"; }
: >"$tmp/found"
while read -r f a _; do
    name=$(basename "$f" .xml); name=${name%.x86_64-latest}; name=${name%.x86_64-*}
    if grep -qxF "$name" "$tmp/refused"; then
        if [ "$a" = 0 ] && echo "$name" | grep -qiE "$ours"; then
            echo "$name refused-by-libvirt rtvirt-exit-0" >>"$tmp/found"
        fi
    elif [ "$a" = 2 ]; then
        echo "$name accepted-by-libvirt rtvirt-exit-2" >>"$tmp/found"
    fi
done <"$tmp/results"
sort -u "$tmp/found" -o "$tmp/found"
: >"$tmp/unlisted"
while read -r name what; do listed "$name" || echo "$name $what" >>"$tmp/unlisted"; done <"$tmp/found"
check_expr '[ ! -s "$tmp/unlisted" ]' \
    "every disagreement with libvirt is in disagreements.txt ($(wc -l <"$tmp/unlisted") not: $(head -5 "$tmp/unlisted" | tr '\n' ' '))"
: >"$tmp/stale"
grep -v '^#' "$list" | cut -f1 | while read -r name; do
    [ -n "$name" ] && ! grep -q "^$name " "$tmp/found" && echo "$name" >>"$tmp/stale"
done
check_expr '[ ! -s "$tmp/stale" ]' \
    "every entry of disagreements.txt still disagrees ($(tr '\n' ' ' <"$tmp/stale"))"
entries=$(grep -vc '^#' "$list")
check_expr '[ "$entries" -lt 10 ] && ! grep -v "^#" "$list" | awk -F"\t" "NF != 4 || \$4 == \"\"" | grep -q .' \
    "disagreements.txt: $entries entries (< 10), each FILE, libvirt, rtvirt, why"
tap_plan
tap_exit
