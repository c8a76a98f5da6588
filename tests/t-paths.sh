#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# tests/t-paths.sh: path safety, without libvirt:
#  - an include= of a file that is no profile: refused, naming file and
#    line, never printing its text;
#  - rtvirt run --out through a symbolic link, or into /etc, /usr, /boot,
#    /proc, /sys: refused (exit 2) before any store is created;
#  - a matrix named after a file called 'x;$(touch P).ini': refused at load
#    by run --plan (exit 2, naming the file), nothing executed.
# TAP output.
set -u

RTVIRT=${RV_BUILD:?}/rtvirt
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "${RV_TOP:?}/tests/tap.sh"

export RTVIRT_LOCK_FILE=$tmp/lock

# 1. include of a non-profile: its text is not shown
printf 'root:$y$SECRETHASH:20228:0:99999:7:::\ndaemon:*:20228:0:99999:7:::\n' >"$tmp/shadow"
printf '[main]\ninclude = %s\n' "$tmp/shadow" >"$tmp/inc.ini"
"$RTVIRT" host check --root "$RV_TOP/tests/data/apply-root" "$tmp/inc.ini" >"$tmp/out" 2>&1; rc=$?
sed 's/^/# /' "$tmp/out"
check_expr '[ $rc -eq 2 ] && grep -q "inc.ini:2: in include .*shadow:1: " "$tmp/out" && ! grep -q "SECRETHASH\|daemon" "$tmp/out"' "include of a non-profile: refused naming file:line, its text not shown (rc=$rc)"
printf '[main]\nsummary x\n' >"$tmp/own.ini"
"$RTVIRT" host check --root "$RV_TOP/tests/data/apply-root" "$tmp/own.ini" >"$tmp/out" 2>&1; rc=$?
check_expr '[ $rc -eq 2 ] && grep -q "own.ini:2: expected .key = value., got .summary x." "$tmp/out"' "the profile named on the command line still shows its own line (rc=$rc)"

# 2. --out
ln -s /etc "$tmp/to-etc"
for out in "$tmp/to-etc" "$tmp/to-etc/sub" /etc/rtvirt-results /usr/share/rtvirt-x /boot /proc/x /sys; do
    "$RTVIRT" run --out "$out" "$RV_TOP/profiles/matrix/ci.ini" >"$tmp/out" 2>&1; rc=$?
    check_expr '[ $rc -eq 2 ] && grep -q "^rtvirt: --output '"'$out'"': .*\(symbolic link\|system directory\)" "$tmp/out"' "run --out $out: refused (rc=$rc)"
done
check_expr '[ -z "$(find /etc /usr/share -maxdepth 1 -newer "$tmp/shadow" -name "*-ci" 2>/dev/null)" ] && [ ! -e /etc/rtvirt-results ]' "no store created in /etc or /usr/share"

# 3. a matrix name from a hostile file name, at load (--plan)
mkdir -p "$tmp/m" && cp "$RV_TOP/tests/data/matrix/bad/x;\$(touch P).ini" "$tmp/m/" && cp "$RV_TOP/tests/data/matrix/guest-a.ini" "$tmp/"
(cd "$tmp" && "$RTVIRT" run --plan "m/x;\$(touch P).ini" >"$tmp/out" 2>&1); rc=$?
sed 's/^/# /' "$tmp/out"
check_expr '[ $rc -eq 2 ] && grep -qF "m/x;\$(touch P).ini: invalid matrix name" "$tmp/out" && [ ! -e "$tmp/P" ] && [ ! -e "$tmp/m/P" ]' "run --plan of 'x;\$(touch P).ini': refused at load naming the file, nothing run (rc=$rc)"

echo "1..$n"
