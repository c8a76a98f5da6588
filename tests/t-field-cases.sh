#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/t-field-cases.sh: doc/field-cases.md is what build-aux/field-cases.sh
# makes of the fixtures' notes, and the generator refuses a field case with
# a missing key or a fixture that does not exist.  TAP.
set -u
top=${RV_TOP:?}
. "${RV_TOP:?}/tests/tap.sh"
echo "1..3"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

out=$("$top/build-aux/field-cases.sh" --check "$top" 2>&1); rc=$?
[ $rc -eq 0 ] && ok "doc/field-cases.md is up to date with the fixtures' notes" \
    || nok "field-cases --check rc=$rc: $out"

mkdir -p "$tmp/t/tests/data/x" "$tmp/t/doc"
printf 'field-case: planted\naddress: https://example.org/1\ntool: host check\nfailed: x\nverdict: FAIL a.b\nwhy: y\nverified: no, planted\nfixture: tests/data/x\n' \
    >"$tmp/t/tests/data/x/source.txt"
out=$("$top/build-aux/field-cases.sh" "$tmp/t" 2>&1); rc=$?
{ [ $rc -eq 2 ] && grep -q "tests/data/x/source.txt: field case 'planted' lacks 'corrected:'" <<<"$out"; } \
    && ok "a field case without its corrected variant is refused, naming the note" || nok "missing key: rc=$rc $out"

printf 'corrected: tests/data/nowhere\n' >>"$tmp/t/tests/data/x/source.txt"
out=$("$top/build-aux/field-cases.sh" "$tmp/t" 2>&1); rc=$?
{ [ $rc -eq 2 ] && grep -q "corrected 'tests/data/nowhere' does not exist" <<<"$out"; } \
    && ok "a corrected variant that does not exist is refused" || nok "missing variant: rc=$rc $out"
exit $fail
