#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/t-layers.sh: layers point down only (build-aux/check-layers.sh), and
# the checker itself catches a violation planted in a copy of the tree.
set -u
top=${RV_TOP:?}
. "${RV_TOP:?}/tests/tap.sh"
echo "1..9"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

out=$("$top/build-aux/check-layers.sh" "$top" 2>&1); rc=$?
[ $rc -eq 0 ] && ok "no lower layer includes an upper one" || nok "layering violations (rc=$rc): $out"

mkdir -p "$tmp/t"
cp -r "$top/util" "$top/results" "$top/host" "$top/guest" "$tmp/t/"
printf '#include "host/facts/topology.h"\n' >>"$tmp/t/util/units.h"
out=$("$top/build-aux/check-layers.sh" "$tmp/t" 2>&1); rc=$?
{ [ $rc -eq 1 ] && grep -q '^util/units.h:[0-9]*: util includes "host/facts/topology.h"' <<<"$out"; } \
    && ok "a planted util -> host include is named with file and line, exit 1" || nok "planted util->host: rc=$rc $out"

rm -rf "$tmp/t"; mkdir -p "$tmp/t"
cp -r "$top/util" "$top/results" "$top/host" "$top/guest" "$tmp/t/"
printf '#include "guest/session.h"\n' >>"$tmp/t/results/stats.c"
out=$("$top/build-aux/check-layers.sh" "$tmp/t" 2>&1); rc=$?
{ [ $rc -eq 1 ] && grep -q 'results/stats.c:[0-9]*: results includes "guest/session.h"' <<<"$out"; } \
    && ok "a planted results -> guest include is caught" || nok "planted results->guest: rc=$rc $out"

# workloads/ sits between guest/ and harness/
rm -rf "$tmp/t"; mkdir -p "$tmp/t"
cp -r "$top/util" "$top/results" "$top/host" "$top/guest" "$top/workloads" "$tmp/t/"
printf '#include "harness/run.h"\n' >>"$tmp/t/workloads/linpack.c"
printf '#include "workloads/workload.h"\n' >>"$tmp/t/guest/image.c"
out=$("$top/build-aux/check-layers.sh" "$tmp/t" 2>&1); rc=$?
{ [ $rc -eq 1 ] && grep -q 'workloads/linpack.c:[0-9]*: workloads includes "harness/run.h"' <<<"$out"; } \
    && ok "a planted workloads -> harness include is caught" || nok "planted workloads->harness: rc=$rc $out"
{ [ $rc -eq 1 ] && grep -q 'guest/image.c:[0-9]*: guest includes "workloads/workload.h"' <<<"$out"; } \
    && ok "a planted guest -> workloads include is caught" || nok "planted guest->workloads: rc=$rc $out"
# host/ rooms: a reader may not call a mutator, a trace may not read facts
rm -rf "$tmp/t"; mkdir -p "$tmp/t"
cp -r "$top/util" "$top/results" "$top/host" "$tmp/t/"
printf '#include "host/tune/journal.h"\n' >>"$tmp/t/host/facts/rtview.c"
printf '#include "host/facts/topology.h"\n' >>"$tmp/t/host/trace/pert.c"
out=$("$top/build-aux/check-layers.sh" "$tmp/t" 2>&1); rc=$?
{ [ $rc -eq 1 ] && grep -q '^host/facts/rtview.c:[0-9]*: host/facts includes "host/tune/journal.h" (the tune room' <<<"$out"; } \
    && ok "a planted facts -> tune include is caught" || nok "planted facts->tune: rc=$rc $out"
{ [ $rc -eq 1 ] && grep -q '^host/trace/pert.c:[0-9]*: host/trace includes "host/facts/topology.h"' <<<"$out"; } \
    && ok "a planted trace -> facts include is caught" || nok "planted trace->facts: rc=$rc $out"
rm -rf "$tmp/t"; mkdir -p "$tmp/t"
cp -r "$top/util" "$top/results" "$top/host" "$tmp/t/"
printf '/* nothing */\n' >"$tmp/t/host/stray.c"
out=$("$top/build-aux/check-layers.sh" "$tmp/t" 2>&1); rc=$?
{ [ $rc -eq 1 ] && grep -q '^host/stray.c:1: host file outside a room' <<<"$out"; } \
    && ok "a host file outside the rooms is caught" || nok "stray host file: rc=$rc $out"
# every shell test takes its TAP helpers from tests/tap.sh, none defines
# its own ok/nok/check (the house rule, doc/hacking.md "Shell tests")
own=$(grep -lE '^(ok|nok|notok|check|check_expr|skip_all)[[:space:]]*\(\)' "$top"/tests/t-*.sh 2>/dev/null | xargs -r -n1 basename | tr '\n' ' ')
nosrc=$(grep -L 'tests/tap.sh' "$top"/tests/t-*.sh 2>/dev/null | xargs -r -n1 basename | tr '\n' ' ')
{ [ -z "$own" ] && [ -z "$nosrc" ]; } && ok "every tests/t-*.sh sources tests/tap.sh and defines no TAP helper of its own" \
    || nok "shell tests with their own TAP helpers: ${own:-none}; not sourcing tests/tap.sh: ${nosrc:-none}"

exit $fail
