#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# tests/t-persist.sh: `rtvirt host apply --persist` on a writable copy of
# tests/data/apply-root (no live host is touched):
#  1. the boot-time files: /etc/sysctl.d/60-rtvirt.conf holds the profile's
#     sysctls with the values apply set, /etc/modprobe.d/rtvirt.conf its
#     module parameters (the read-only one noted), the systemd unit runs
#     this rtvirt on the absolute profile path, and its enable link; then
#     `host revert` leaves /etc as the snapshot taken before (paths, modes,
#     types, link targets, sha256 of every file): equal;
#  2. a 60-rtvirt.conf that existed (other content, mode 0600, an old
#     mtime): revert restores its bytes, mode and mtime;
#  3. --dry-run --persist lists the files and writes nothing;
#  4. a second --persist writes nothing new ("already");
#  5. SIGKILL after each single change (RV_TEST_KILL_AFTER=N), then revert:
#     /etc and the whole tree as before, for every N until apply completes;
#  6. an enable link rtvirt did not make: apply fails (exit 2), reverted;
#  7. a module value modprobe would split: exit 2 naming file:line, nothing
#     changed;
#  8. without --persist: no /etc file written, the output says the changes
#     are lost at reboot; --json --persist lists the files;
#  9. what the boot unit would run as root must be root's alone: a profile
#     owned by nobody, mode 0666, in a 1777 directory; a root-owned one in
#     a 0777 directory; a world-writable included profile; the rtvirt
#     binary in a 0777 directory: each exit 2 naming the path and why,
#     nothing changed; a root-owned 0644 profile in a 1777 directory is
#     accepted (the sticky bit keeps others from replacing it);
# 10. SIGKILL where rtvirt's temporary files exist (RV_TEST_KILL_AT=
#     temp-created:N and temp-written:N, before the rename), for every N
#     until apply completes, then revert: the tree as before and no
#     FILE.rtvirt-XXXXXX left anywhere under the root.
# TAP output.
set -u

RTVIRT=${RV_BUILD:?}/rtvirt
FIX=${RV_TOP:?}/tests/data/apply-root
PROFILE=$RV_TOP/profiles/host/realtime-virtual-host.ini
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
R=$tmp/root
. "${RV_TOP:?}/tests/tap.sh"


# kvm.kvmclock_periodic_sync is 0444 in the kernel (git keeps no 0444)
fresh() {
    rm -rf "$R" && cp -a "$FIX" "$R" &&
        chmod 0444 "$R/sys/module/kvm/parameters/kvmclock_periodic_sync"
}
fresh
cp -a "$R" "$tmp/ref"
REF=$tmp/ref
# /etc of the root: every path with mode, type and link target, then the
# sha256 of every regular file
snap() {
    (cd "$R" && find etc -printf '%p %m %y %l\n' | LC_ALL=C sort &&
        find etc -type f -print0 | LC_ALL=C sort -z | xargs -0 sha256sum)
}
# the whole tree but rtvirt's state directory, as t-apply-revert.sh
listing() { (cd "$1" && find . -path ./var -prune -o -printf '%p %m %y %l\n' | LC_ALL=C sort); }
same_tree() { diff -r --no-dereference -x var "$1" "$R" >/dev/null 2>&1 && [ "$(listing "$1")" = "$(listing "$R")" ]; }
persist() { "$RTVIRT" host apply --persist --no-check --root "$R" "$@" >"$tmp/apply.out" 2>&1; }
revert() { "$RTVIRT" host revert --root "$R" >"$tmp/revert.out" 2>&1; }
J=$R/var/lib/rtvirt/journal
SYSCTL=$R/etc/sysctl.d/60-rtvirt.conf
MODPROBE=$R/etc/modprobe.d/rtvirt.conf
UNIT=$R/etc/systemd/system/rtvirt-host-apply.service
LINK=$R/etc/systemd/system/multi-user.target.wants/rtvirt-host-apply.service

# 1. the files, then revert to the snapshot
fresh
snap >"$tmp/before"
persist "$PROFILE"; rc=$?
sed 's/^/# /' "$tmp/apply.out" | grep persist
check_expr '[ $rc -eq 0 ]' "apply --persist exits 0 (rc=$rc)"
check_expr '[ -f "$SYSCTL" ] && [ -f "$MODPROBE" ] && [ -f "$UNIT" ] && [ -L "$LINK" ]' "the four files exist"
check_expr '[ "$(stat -c %a "$SYSCTL" "$MODPROBE" "$UNIT" | sort -u)" = 644 ]' "written 0644"
check_expr 'grep -q "^# .*realtime-virtual-host" "$SYSCTL" && grep -q "^# .rtvirt host revert. removes this file" "$SYSCTL"' "sysctl.d header names the profile and host revert"
# every sysctl line holds the value apply set in /proc/sys
# (the fixture has 7 of the 12: apply skips the others, "does not exist")
lines=0
seen=0
bad=
while IFS= read -r l; do
    case $l in '#'*|'') continue ;; esac
    lines=$((lines + 1))
    key=${l%% = *}
    val=${l#* = }
    f=$R/proc/sys/$(echo "$key" | tr . /)
    if [ -e "$f" ]; then
        seen=$((seen + 1))
        [ "$(cat "$f")" = "$val" ] || bad="$bad $key"
    else
        grep -q "^skipped      sysctl $key: .*does not exist" "$tmp/apply.out" || bad="$bad $key(not-skipped)"
    fi
done <"$SYSCTL"
check_expr '[ -z "$bad" ] && [ $lines -eq 12 ] && [ $seen -ge 7 ]' "12 sysctl lines; the $seen under /proc/sys equal to the value apply set, the others skipped by apply${bad:+ (differ:$bad)}"
# the profile's own statements: [sched]/[kernel] and rt-base.ini's [sysctl]
missing=
for l in "kernel.sched_rt_runtime_us = -1" "kernel.timer_migration = 0" "kernel.numa_balancing = 0" \
         "kernel.nmi_watchdog = 0"; do
    grep -qxF "$l" "$SYSCTL" || missing="$missing '$l'"
done
sed -n '/^\[sysctl\]/,/^\[/{/^[a-z]/p}' "$RV_TOP/profiles/host/rt-base.ini" >"$tmp/sysctl.want"
while IFS= read -r l; do
    grep -qxF "$l" "$SYSCTL" || missing="$missing '$l'"
done <"$tmp/sysctl.want"
check_expr '[ -z "$missing" ] && [ "$(wc -l <"$tmp/sysctl.want")" -eq 8 ]' "every sysctl of the profile, as it states it${missing:+ (missing:$missing)}"
check_expr 'grep -qx "options kvm kvmclock_periodic_sync=0" "$MODPROBE" && grep -qx "options kvm nx_huge_pages=0" "$MODPROBE" && grep -qx "options kvm_intel ple_gap=0" "$MODPROBE" && [ "$(grep -c "^options " "$MODPROBE")" -eq 3 ]' "modprobe.d: the 3 options lines"
check_expr 'grep -B2 "^options kvm kvmclock_periodic_sync=0" "$MODPROBE" | grep -q "^# kvm.kvmclock_periodic_sync is read-only" && ! grep -q "nx_huge_pages is read-only" "$MODPROBE"' "modprobe.d: the read-only parameter (and only it) noted as needing a reload or reboot"
check_expr 'grep -q "reload or a reboot" "$tmp/apply.out"' "the output says so too"
exe=$(readlink -f "$RTVIRT")
prof=$(readlink -f "$PROFILE")
check_expr 'grep -qxF "ExecStart=$exe host apply $prof" "$UNIT"' "unit ExecStart runs this rtvirt on the absolute profile path"
check_expr 'grep -qx "Type=oneshot" "$UNIT" && grep -qx "WantedBy=multi-user.target" "$UNIT" && [ "$(grep -c "^\[" "$UNIT")" -eq 3 ]' "unit: Type=oneshot, WantedBy=multi-user.target, [Unit] [Service] [Install]"
check_expr '[ "$(readlink "$LINK")" = /etc/systemd/system/rtvirt-host-apply.service ]' "enable link points to the unit, as systemctl enable makes it"
check_expr 'grep -q "rtvirt host bootargs --install --root $R $PROFILE" "$tmp/apply.out"' "the boot arguments: the bootargs --install command printed, not run"
check_expr '[ ! -e "$R/etc/default/grub.d" ]' "no grub drop-in written"
for p in /etc/sysctl.d/60-rtvirt.conf /etc/modprobe.d/rtvirt.conf /etc/systemd/system/rtvirt-host-apply.service \
         /etc/systemd/system/multi-user.target.wants/rtvirt-host-apply.service; do
    grep -q "\"kind\":\"file\",\"path\":\"$p\",\"absent\":true" "$J" || missing="$missing $p"
done
check_expr '[ -z "$missing" ]' "the journal records each file's absence${missing:+ (missing:$missing)}"
revert; rc=$?
snap >"$tmp/after"
check_expr '[ $rc -eq 0 ] && cmp -s "$tmp/before" "$tmp/after"' "revert: /etc equal to the snapshot (rc=$rc)"
diff "$tmp/before" "$tmp/after" | sed 's/^/# /' | head -20
check_expr 'same_tree "$REF" && [ ! -e "$J" ]' "revert: the whole tree as before, journal gone"

# 2. a 60-rtvirt.conf that was there: its bytes and mode come back
fresh
mkdir -p "$R/etc/sysctl.d"
printf '# the admin'"'"'s own\nvm.swappiness = 60\n' >"$SYSCTL"
chmod 0600 "$SYSCTL"
touch -d '2020-01-02 03:04:05.123456789' "$SYSCTL"
cp -p "$SYSCTL" "$tmp/old.conf"
snap >"$tmp/before"
persist "$PROFILE"; rc=$?
check_expr '[ $rc -eq 0 ] && grep -qx "vm.swappiness = 10" "$SYSCTL" && ! grep -q "the admin" "$SYSCTL"' "existing 60-rtvirt.conf replaced (rc=$rc)"
check_expr '[ "$(stat -c %a "$SYSCTL")" = 600 ]' "it keeps its mode 0600"
revert; rc=$?
snap >"$tmp/after"
check_expr '[ $rc -eq 0 ] && cmp -s "$tmp/old.conf" "$SYSCTL" && [ "$(stat -c %a "$SYSCTL")" = 600 ] && cmp -s "$tmp/before" "$tmp/after"' "revert restores its content and mode, /etc equal to the snapshot (rc=$rc)"
check_expr '[ "$(stat -c %y "$SYSCTL")" = "$(stat -c %y "$tmp/old.conf")" ]' "revert restores its mtime too ($(stat -c %y "$SYSCTL"))"

# 3. dry run
fresh
snap >"$tmp/before"
"$RTVIRT" host apply --persist --dry-run --root "$R" "$PROFILE" >"$tmp/dry.out" 2>&1
rc=$?
snap >"$tmp/after"
check_expr '[ $rc -eq 0 ] && cmp -s "$tmp/before" "$tmp/after" && same_tree "$REF" && [ ! -e "$J" ]' "--dry-run --persist writes nothing (rc=$rc)"
check_expr '[ "$(grep -c "^would write  persist /etc/" "$tmp/dry.out")" -eq 4 ]' "--dry-run lists the 4 files it would write"

# 4. a second --persist: nothing new
fresh
persist "$PROFILE"
e1=$(grep -c '"kind"' "$J")
cp -a "$R" "$tmp/root.1"
persist "$PROFILE"; rc=$?
e2=$(grep -c '"kind"' "$J")
check_expr '[ $rc -eq 0 ] && [ "$e1" = "$e2" ] && [ "$(grep -c "^already      persist " "$tmp/apply.out")" -eq 4 ] && same_tree "$tmp/root.1"' "second --persist: 4 already, nothing recorded ($e1 = $e2 entries)"
revert
check_expr 'same_tree "$REF"' "reverted"

# 5. SIGKILL after each change
k=1
killed=0
fresh
snap >"$tmp/before"
while [ $k -le 500 ]; do
    fresh
    RV_TEST_KILL_AFTER=$k "$RTVIRT" host apply --persist --no-check --root "$R" "$PROFILE" >/dev/null 2>&1
    rc=$?
    [ $rc -ne 137 ] && break
    killed=$((killed + 1))
    revert; rrc=$?
    snap >"$tmp/after"
    if [ $rrc -ne 0 ] || ! cmp -s "$tmp/before" "$tmp/after" || ! same_tree "$REF"; then
        notok "kill after change $k, revert: identical (revert rc=$rrc)"
        diff "$tmp/before" "$tmp/after" | sed 's/^/# /' | head -10
        break
    fi
    k=$((k + 1))
done
# one kill per journal entry of a full apply (section 4: $e1 lines with
# "kind", one of them the commit marker): the files and their directories too
check_expr '[ $rc -eq 0 ] && [ $killed -eq $((e1 - 1)) ] && [ $killed -gt 40 ]' "killed after each of $killed changes, each reverted to the snapshot; apply completes after them (rc=$rc)"

# 6. an enable link that is not rtvirt's
fresh
mkdir -p "$(dirname "$LINK")"
ln -s /lib/systemd/system/other.service "$LINK"
cp -a "$R" "$tmp/root.6"
persist "$PROFILE"; rc=$?
check_expr '[ $rc -eq 2 ] && grep -q "not made by rtvirt: left alone" "$tmp/apply.out" && [ "$(readlink "$LINK")" = /lib/systemd/system/other.service ]' "a foreign enable link: exit 2, link left (rc=$rc)"
check_expr 'same_tree "$tmp/root.6" && [ ! -e "$J" ]' "what was applied before is reverted"

# 7. a module value modprobe would split
fresh
printf '[main]\ninclude = %s\n[modules]\nkvm.halt_poll_ns = 1 2\n' "$PROFILE" >"$tmp/bad.ini"
persist "$tmp/bad.ini"; rc=$?
check_expr '[ $rc -eq 2 ] && grep -q "bad.ini:4: " "$tmp/apply.out" && same_tree "$REF" && [ ! -e "$J" ]' "module value with a space: exit 2 naming bad.ini:4, nothing changed (rc=$rc)"
sed 's/^/# /' "$tmp/apply.out" | tail -2

# 8. without --persist; --json
fresh
"$RTVIRT" host apply --no-check --root "$R" "$PROFILE" >"$tmp/apply.out" 2>&1
rc=$?
check_expr '[ $rc -eq 0 ] && [ ! -e "$R/etc/sysctl.d" ] && [ ! -e "$R/etc/systemd" ] && [ ! -e "$R/etc/modprobe.d" ] && grep -q "lost at the next reboot" "$tmp/apply.out"' "without --persist: no boot-time file, the output says the changes are lost at reboot (rc=$rc)"
revert
fresh
"$RTVIRT" host apply --persist --dry-run --json --root "$R" "$PROFILE" >"$tmp/apply.json" 2>"$tmp/apply.err"
rc=$?
check_expr '[ $rc -eq 0 ] && [ "$(jq -r "[.persist[] | select(.changed)] | length" "$tmp/apply.json")" = 4 ] && [ "$(jq -r ".persist[3].target" "$tmp/apply.json")" = /etc/systemd/system/rtvirt-host-apply.service ]' "--json --persist --dry-run: persist lists the 4 files (rc=$rc)"
"$RTVIRT" host apply --dry-run --json --root "$R" "$PROFILE" >"$tmp/apply.json" 2>"$tmp/apply.err"
check_expr '[ "$(jq -r ".persist" "$tmp/apply.json")" = null ]' "--json without --persist: persist is null"

# 9. what the unit runs at boot must be root's alone
refused() {  # $1: what the message names, $2: why; then persist's arguments
    _what=$1 _why=$2; shift 2
    fresh
    persist "$@"; _rc=$?
    sed 's/^/# /' "$tmp/apply.out" | tail -1
    check_expr '[ $_rc -eq 2 ] && grep -q "Refusing --persist: $_what" "$tmp/apply.out" && grep -q -- "$_why" "$tmp/apply.out" && same_tree "$REF" && [ ! -e "$J" ]' \
        "--persist refuses $_what ... $_why: exit 2, nothing changed (rc=$_rc)"
}
ww=$tmp/ww
mkdir -p "$ww" && chmod 1777 "$ww"
printf '[main]\ninclude = %s\n' "$PROFILE" >"$ww/p.ini" && chmod 0666 "$ww/p.ini" && chown nobody "$ww/p.ini"
refused "profile '$ww/p.ini'" "is owned by uid $(id -u nobody), not root" "$ww/p.ini"
chown root "$ww/p.ini"
refused "profile '$ww/p.ini'" "is writable by others (mode 0666)" "$ww/p.ini"
chmod 0644 "$ww/p.ini"
fresh
persist "$ww/p.ini"; rc=$?
check_expr '[ $rc -eq 0 ] && [ -f "$UNIT" ]' "a root-owned 0644 profile in a sticky 1777 directory is accepted (rc=$rc)"
revert
open=$tmp/open
mkdir -p "$open" && chmod 0777 "$open" && cp "$ww/p.ini" "$open/p.ini"
refused "profile '$open/p.ini'" "its directory '$open' is writable by others (mode 0777)" "$open/p.ini"
cp "$ww/p.ini" "$ww/inc.ini" && chmod 0666 "$ww/inc.ini"
printf '[main]\ninclude = %s\n' "$ww/inc.ini" >"$tmp/top.ini"
refused "included profile '$ww/inc.ini'" "is writable by others (mode 0666)" "$tmp/top.ini"
cp "$RTVIRT" "$open/rtvirt"
_real=$RTVIRT
RTVIRT=$open/rtvirt
refused "rtvirt binary '$open/rtvirt'" "its directory '$open' is writable by others" "$PROFILE"
RTVIRT=$_real

# 10. SIGKILL while a temporary file exists, then revert
leftovers() { find "$R" -name '*.rtvirt-??????' | sed "s|^$R||" | tr '\n' ' '; }
for point in temp-created temp-written; do
    k=1
    killed=0
    bad=
    fresh
    snap >"$tmp/before"
    while [ $k -le 100 ]; do
        fresh
        RV_TEST_KILL_AT=$point:$k "$RTVIRT" host apply --persist --no-check --root "$R" "$PROFILE" >/dev/null 2>&1
        rc=$?
        [ $rc -ne 137 ] && break
        killed=$((killed + 1))
        [ -n "$(leftovers)" ] || bad="$bad $k:no-temp-file-at-the-kill"
        revert; rrc=$?
        snap >"$tmp/after"
        left=$(leftovers)
        if [ $rrc -ne 0 ] || [ -n "$left" ] || ! cmp -s "$tmp/before" "$tmp/after" || ! same_tree "$REF"; then
            bad="$bad $k:rc=$rrc:${left:-tree-differs}"
        fi
        k=$((k + 1))
    done
    revert
    check_expr '[ $killed -ge 2 ] && [ -z "$bad" ]' "SIGKILL at $point (each of $killed points), then revert: tree as before, no FILE.rtvirt-XXXXXX left${bad:+ (bad:$bad)}"
done

echo "1..$n"
