#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/t-rules.sh: the rule catalogue (util/rules.c) and `rtvirt rules`:
#  - doc/rules.md is what `rtvirt rules --markdown` prints (make doc/rules.md);
#  - every id of the catalogue is emitted somewhere: it appears as a string
#    literal in the judges' sources (no rule nothing can print);
#  - every id a judge's source passes to rv_findings_add() as a literal, and
#    the ids of the other emitters (guest/verify.c's checks, host check's
#    runtime knobs, tuned's notes, guest/check.c's placement table), is in
#    the catalogue (beside RV_RULES_STRICT=1, which aborts any test that
#    emits an unknown id at run time);
#  - `rtvirt rules` text, --json, ID prefixes and its exit codes.  TAP.
set -u
top=${RV_TOP:?}
rtvirt=${RV_BUILD:?}/rtvirt
. "${RV_TOP:?}/tests/tap.sh"
echo "1..9"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cd "$top" || exit 2

# the judges: where findings are made
srcs=(host/check/*.c host/tuned/*.c guest/check*.c guest/verify.c results/judge.c)

"$rtvirt" rules --markdown >"$tmp/rules.md"; rc=$?
if [ $rc = 0 ] && cmp -s "$tmp/rules.md" doc/rules.md; then
    ok "doc/rules.md is what rtvirt rules --markdown prints"
else
    nok "doc/rules.md differs from the binary's (run make doc/rules.md): $(diff doc/rules.md "$tmp/rules.md" | head -5)"
fi

"$rtvirt" rules >"$tmp/rules.txt"; rc=$?
awk '/^[a-z]/ { print $1 }' "$tmp/rules.txt" | sort >"$tmp/ids"
[ $rc = 0 ] && [ "$(wc -l <"$tmp/ids")" -gt 100 ] && [ -z "$(uniq -d "$tmp/ids")" ] \
    && ok "rtvirt rules lists $(wc -l <"$tmp/ids") distinct ids" || nok "rules rc=$rc: $(head -3 "$tmp/rules.txt")"

# catalogue -> sources: each id is a string literal in a judge's source
unused=""
while read -r id; do
    grep -qF "\"$id\"" "${srcs[@]}" || unused="$unused $id"
done <"$tmp/ids"
[ -z "$unused" ] && ok "every catalogue id is emitted by a judge's source" \
    || nok "catalogue ids no source emits:$unused"

# sources -> catalogue: the literal ids of every emitter
perl -0777 -ne '
    while (/rv_findings_add\(\s*[^,]+,\s*[^,]+?,\s*"([^"]+)"/g) { print "$1\n" }
    while (/add(?:_thread)?_check\(v,\s*"([^"]+)"/g) { print "$1\n" }
    while (/check_int\(c,\s*"([^"]+)"/g) { print "$1\n" }
    while (/rv_host_profile_add_note\([^,]+,\s*"([^"]+)"/g) { print "$1\n" }
    while (/#define\s+\w+\s+"(tuned\.[a-z-]+)"/g) { print "$1\n" }
    while (/"(placement\.[a-z-]+)"/g) { print "$1\n" }
' "${srcs[@]}" host/profile/profile.c | sort -u >"$tmp/emitted"
missing=$(comm -23 "$tmp/emitted" "$tmp/ids" | tr '\n' ' ')
[ "$(wc -l <"$tmp/emitted")" -gt 100 ] && [ -z "$missing" ] \
    && ok "every id the sources emit ($(wc -l <"$tmp/emitted")) is in the catalogue" \
    || nok "ids emitted but not in util/rules.c: $missing (found $(wc -l <"$tmp/emitted"))"

"$rtvirt" rules --json >"$tmp/rules.json"; rc=$?
[ $rc = 0 ] && jq -e --argjson n "$(wc -l <"$tmp/ids")" \
    '.schema_version == 1 and (.rules | length) == $n and
     all(.rules[]; (.levels | length) > 0 and (.commands | length) > 0 and (.source | length) > 0)' \
    "$tmp/rules.json" >/dev/null && ok "--json: every rule with levels, commands and a source" \
    || nok "--json rc=$rc: $(head -c 300 "$tmp/rules.json")"
jq -e '.rules[] | select(.id == "idle.deep-states") | .commands == ["host check", "result check"] and .levels == ["PASS", "NOTE", "WARN", "FAIL"]' \
    "$tmp/rules.json" >/dev/null && ok "--json: a rule of two commands lists both, and its four levels" \
    || nok "idle.deep-states: $(jq -c '.rules[] | select(.id == "idle.deep-states")' "$tmp/rules.json")"

"$rtvirt" rules smt. >"$tmp/smt.txt"; rc=$?
[ $rc = 0 ] && [ "$(awk '/^[a-z]/ { print $1 }' "$tmp/smt.txt" | grep -vc '^smt\.')" = 0 ] \
    && grep -q '^smt.sibling-main-thread  WARN  (result check)' "$tmp/smt.txt" \
    && grep -q '^    source: .*core-scheduling.rst' "$tmp/smt.txt" \
    && ok "an ID prefix lists that family, with level, command and source" || nok "rules smt. rc=$rc: $(cat "$tmp/smt.txt")"

"$rtvirt" rules no.such-rule >/dev/null 2>"$tmp/err"; rc=$?
[ $rc = 2 ] && grep -q "no rule id is or starts with 'no.such-rule'" "$tmp/err" \
    && ok "an ID that matches no rule: exit 2 naming it" || nok "unknown id rc=$rc: $(cat "$tmp/err")"
"$rtvirt" rules --json --markdown >/dev/null 2>&1; rc=$?
[ $rc = 2 ] && ok "--json with --markdown: exit 2" || nok "--json --markdown rc=$rc"
exit $fail
