#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# tests/t-lock.sh: the host lock cannot be walked around,
# with real rtvirt processes on a writable copy of tests/data/apply-root
# (a fixture root carries its own lock, ROOT/var/lib/rtvirt/rtvirt.lock):
#  - A: `host apply` stopped (RV_TEST_STOP_AFTER) after its 3rd change,
#    holding the lock; the lock file is removed; B: a second `host apply`
#    is refused (the lock directory is still held) and changes nothing;
#    A, continued, finds its lock file gone before its next change, stops
#    with a clear error and reverts: the tree is as before;
#  - the same with the lock file replaced by another file;
#  - B while A holds an intact lock: refused, naming A's pid;
#  - a lock file left by a killed rtvirt (a dead pid) is reported stale and
#    taken over; no message tells to delete it;
#  - `rtvirt status` says who holds the lock, the journals and their entries.
# TAP output.
set -u

RTVIRT=${RV_BUILD:?}/rtvirt
FIX=${RV_TOP:?}/tests/data/apply-root
PROFILE=$RV_TOP/profiles/host/realtime-virtual-host.ini
tmp=$(mktemp -d)
apid=
trap '[ -n "$apid" ] && kill -CONT "$apid" 2>/dev/null; rm -rf "$tmp"' EXIT
R=$tmp/root
L=$R/var/lib/rtvirt/rtvirt.lock
. "${RV_TOP:?}/tests/tap.sh"


fresh() { rm -rf "$R"; cp -a "$FIX" "$R"; }
same() { diff -r -x var "$FIX" "$R" >"$tmp/diff" 2>&1; }
# A: apply, stopped by SIGSTOP after its 3rd change (holding its locks)
start_a() {
    RV_TEST_STOP_AFTER=3 "$RTVIRT" host apply --no-check --root "$R" "$PROFILE" >"$tmp/a.out" 2>&1 &
    apid=$!
    i=0
    while [ $i -lt 600 ]; do
        st=$(sed 's/^.*) \(.\).*/\1/' "/proc/$apid/stat" 2>/dev/null)
        [ "$st" = T ] && return 0
        i=$((i + 1))
        sleep 0.1
    done
    return 1
}
apply_b() { "$RTVIRT" host apply --no-check --root "$R" "$PROFILE" >"$tmp/b.out" 2>&1; }

for how in removed replaced; do
    fresh
    start_a; srs=$?
    check_expr '[ $srs -eq 0 ] && [ -s "$L" ]' "A stopped after 3 changes, holding $L"
    cp -a "$R" "$tmp/mid"
    if [ $how = removed ]; then rm -f "$L"; else rm -f "$L"; echo other >"$L"; fi
    apply_b; rc=$?
    sed 's/^/# B: /' "$tmp/b.out" | head -3
    check_expr '[ $rc -eq 2 ] && grep -q "Another rtvirt run (pid $apid) holds the lock directory" "$tmp/b.out"' "lock file $how: B refused, naming A's pid and the lock directory (rc=$rc)"
    check_expr 'diff -r -x var "$tmp/mid" "$R" >/dev/null' "lock file $how: B changed nothing"
    kill -CONT $apid
    wait $apid; rc=$?
    apid=
    sed 's/^/# A: /' "$tmp/a.out" | grep -v "^# A: \(CHANGED\|ALREADY\|SKIPPED\|isolated\|house\)" | head -4
    check_expr '[ $rc -eq 2 ] && grep -q "Lock file .* was \(removed\|replaced\) while this rtvirt held it: stopping before the next host change" "$tmp/a.out"' "lock file $how: A stops before its next change (rc=$rc)"
    check_expr 'same && [ ! -e "$R/var/lib/rtvirt/journal" ]' "lock file $how: A reverted its 3 changes, tree as before"
    rm -rf "$tmp/mid"
done

# B while A holds an intact lock
fresh
start_a
apply_b; rc=$?
check_expr '[ $rc -eq 2 ] && grep -q "Another rtvirt run (pid $apid) since .* holds '"'$L'"'" "$tmp/b.out"' "intact lock: B refused, naming A's pid, command and start (rc=$rc)"
"$RTVIRT" status --root "$R" >"$tmp/status.out" 2>&1; rc=$?
sed 's/^/# /' "$tmp/status.out"
check_expr '[ $rc -eq 0 ] && grep -q "^lock: held by pid $apid" "$tmp/status.out" && grep -q "^journal .*: [0-9]* entries" "$tmp/status.out"' "status: who holds the lock, the journal's entries (rc=$rc)"
"$RTVIRT" status --json --root "$R" >"$tmp/status.json" 2>&1; rc=$?
check_expr '[ $rc -eq 0 ] && grep -q "\"schema_version\" *: *1" "$tmp/status.json" && grep -q "\"holder\" *: *$apid" "$tmp/status.json"' "status --json: schema_version, holder pid (rc=$rc)"
check_expr 'grep -q "in use by the command holding the lock" "$tmp/status.out" && ! grep -q "interrupted" "$tmp/status.out" && jq -e "([.journals[] | select(.in_use)] | length) == 1 and ([.journals[] | select(.interrupted)] | length) == 0" "$tmp/status.json" >/dev/null' "status: the journal of the command holding the lock is in use, not interrupted"
kill -CONT $apid; wait $apid; apid=
"$RTVIRT" host revert --root "$R" >/dev/null 2>&1
check_expr 'same' "reverted"

# a stale lock file: a pid that is gone
fresh
mkdir -p "$(dirname "$L")"
sh -c 'exit 0' & dead=$!; wait $dead
printf '%s\nrtvirt run profiles/matrix/ci.ini\n2026-01-01T00:00:00Z\n' "$dead" >"$L"
"$RTVIRT" status --root "$R" >"$tmp/status.out" 2>&1; rc=$?
sed 's/^/# /' "$tmp/status.out"
check_expr '[ $rc -eq 0 ] && grep -q "^lock: free; .*pid $dead.*stale" "$tmp/status.out" && ! grep -qi "delete\|remove the" "$tmp/status.out"' "status: a dead pid in the lock file is stale, the lock free (rc=$rc)"
apply_b; rc=$?
check_expr '[ $rc -eq 0 ] && grep -q "is stale: the rtvirt it names (pid $dead)" "$tmp/b.out" && ! grep -qi "delete" "$tmp/b.out"' "apply takes a stale lock over, says stale, never 'delete' (rc=$rc)"
"$RTVIRT" host revert --root "$R" >/dev/null 2>&1
check_expr 'same' "reverted"

echo "1..$n"
