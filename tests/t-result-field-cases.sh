#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/t-result-field-cases.sh: every field case of `rtvirt result check`
# (a note under tests/data/result-check/ that starts 'field-case:' with
# 'tool: result check') gives its verdict on its fixture, and its corrected
# variant gets no WARN/FAIL of the verdict's ids.  Besides the keys
# build-aux/field-cases.sh requires, a note may give 'options:' (arguments
# of `result check` for the fixture, shell-quoted, a --root path from the
# top of the tree) and 'corrected-options:' (for the corrected variant;
# default the same).  TAP.
set -u
top=${RV_TOP:?}
rtvirt=${RV_BUILD:?}/rtvirt
. "$top/tests/tap.sh"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cd "$top" || exit 2

key() {   # key NOTE NAME: the value, continuation lines joined
    awk -v k="$2" '
        $0 ~ "^" k ":" { sub("^" k ":[ \t]*", ""); v = $0; on = 1; next }
        on && /^[ \t]+/ { sub(/^[ \t]+/, ""); v = v " " $0; next }
        { on = 0 }
        END { print v }' "$1"
}

notes=$(grep -l -r '^field-case: ' tests/data/result-check --include='source.txt' --include='*.source.txt' | LC_ALL=C sort)
count=$(grep -c . <<<"$notes")
echo "1..$((count * 2))"
for note in $notes; do
    slug=$(head -n1 "$note" | sed 's/^field-case: *//')
    verdict=$(key "$note" verdict)
    fixture=$(key "$note" fixture)
    corrected=$(key "$note" corrected)
    opts=$(key "$note" options)
    copts=$(key "$note" corrected-options)
    [ -n "$copts" ] || copts=$opts
    eval "set -- $opts"
    "$rtvirt" result check "$@" "$fixture" >"$tmp/out" 2>"$tmp/err"
    missing=""
    IFS=';' read -ra items <<<"$verdict"
    ids=()
    for it in "${items[@]}"; do
        read -r level id <<<"$it"
        ids+=("$id")
        grep -q "^$level  $id: " "$tmp/out" || missing="$missing $level $id"
    done
    [ -z "$missing" ] && ok "$slug: $verdict" \
        || nok "$slug: missing$missing in: $(cat "$tmp/out" "$tmp/err")"
    eval "set -- $copts"
    "$rtvirt" result check "$@" "$corrected" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    bad=""
    for id in "${ids[@]}"; do
        grep -qE "^(WARN|FAIL)  $id: " "$tmp/out" && bad="$bad $id"
    done
    { [ -z "$bad" ] && [ $rc -ne 2 ]; } && ok "$slug: corrected variant clean of${ids[*]/#/ }" \
        || nok "$slug: corrected variant still flagged:$bad (exit $rc) $(cat "$tmp/out" "$tmp/err")"
done
exit $fail
