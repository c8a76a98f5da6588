#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/t-hostcheck.sh: `rtvirt host check` on this machine and its exit codes.
#
# What the live host has is found out here independently of rtvirt (sysfs
# files, a prctl(PR_SCHED_CORE) probe from python3, /proc/mounts), and the
# findings must agree with it; nothing about this particular machine is
# hard-coded.
set -u
rtvirt=${RV_BUILD:?}/rtvirt
top=${RV_TOP:?}
cd "$top" || exit 2
. "${RV_TOP:?}/tests/tap.sh"
has() { jq -e --arg l "$1" --arg i "$2" '[.findings[] | select(.level == $l and .id == $i)] | length > 0' "$tmp/live.json" >/dev/null; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
prof=profiles/host/realtime-virtual-host.ini

"$rtvirt" host check --json "$prof" >"$tmp/live.json" 2>"$tmp/err"; rc=$?
fails=$(jq -r '.summary.fail' "$tmp/live.json" 2>/dev/null)
if [ -n "$fails" ] && { { [ "$fails" -gt 0 ] && [ $rc -eq 1 ]; } || { [ "$fails" -eq 0 ] && [ $rc -eq 0 ]; }; }; then
    ok "live check exits $rc with $fails FAIL findings"
else
    nok "live check: rc=$rc fails='$fails' $(cat "$tmp/err")"
fi
[ "$(jq -r '.schema_version' "$tmp/live.json")" = 1 ] && [ "$(jq -r '.live' "$tmp/live.json")" = true ] \
    && ok "JSON has schema_version 1 and live=true" || nok "JSON header"
[ "$(jq -r '.trusted' "$tmp/live.json")" = "$([ "$fails" = 0 ] && echo true || echo false)" ] \
    && ok "trusted flag follows FAIL count" || nok "trusted flag"

# SMT: any CPU with more than one online thread?
smt=no
for f in /sys/devices/system/cpu/cpu[0-9]*/topology/thread_siblings_list; do
    [ -r "$f" ] && grep -q '[,-]' "$f" && smt=yes
done
if [ $smt = no ]; then
    has NOTE smt.absent && ok "no SMT here: NOTE smt.absent" || nok "no SMT but no NOTE smt.absent"
else
    ! has NOTE smt.absent && ok "SMT here: no smt.absent" || nok "SMT present but smt.absent reported"
fi

# Core scheduling: the same prctl probe, from python3 (kernel core-scheduling.rst)
cs=$(python3 - <<'PY'
import ctypes, errno
libc = ctypes.CDLL(None, use_errno=True)
cookie = ctypes.c_ulong(0)
r = libc.prctl(62, 0, 0, 0, ctypes.byref(cookie))
e = ctypes.get_errno()
print("usable" if r == 0 else {errno.EINVAL: "unsupported", errno.ENODEV: "no-smt"}.get(e, "unknown"))
PY
)
case $cs in
usable) id=coresched.available ;;
no-smt) id=coresched.no-smt ;;
unsupported) id=coresched.unavailable ;;
*) id=coresched.unknown ;;
esac
jq -e --arg i "$id" '[.findings[] | select(.id == $i)] | length == 1' "$tmp/live.json" >/dev/null \
    && ok "core scheduling probe says $cs: finding $id" || nok "core scheduling $cs: no $id finding"

# The RT-group trap: a cgroup v1 cpu hierarchy with cpu.rt_runtime_us
mnt=$(awk '$3 == "cgroup" && $4 ~ /(^|,)cpu(,|$)/ {print $2; exit}' /proc/mounts)
qcc=$(grep -E '^[[:space:]]*cgroup_controllers[[:space:]]*=' /etc/libvirt/qemu.conf 2>/dev/null)
if [ -n "$mnt" ] && [ -e "$mnt/cpu.rt_runtime_us" ]; then
    if [ -n "$qcc" ] && ! echo "$qcc" | grep -q '"cpu"'; then
        has PASS rtgroup.avoided && ok "RT-group trap avoided by qemu.conf" || nok "trap avoided but not reported"
    else
        has FAIL rtgroup.trap && ok "RT group sched on v1 $mnt: FAIL rtgroup.trap" || nok "trap not reported"
    fi
else
    ! has FAIL rtgroup.trap && ok "no v1 RT cpu hierarchy: no rtgroup.trap" || nok "rtgroup.trap without cause"
fi

# Isolation: nothing isolated => FAIL isolation.none
iso=$(cat /sys/devices/system/cpu/isolated 2>/dev/null)
nohz=$(cat /sys/devices/system/cpu/nohz_full 2>/dev/null)
nohz=${nohz//(null)/}
if [ -z "$iso" ] && [ -z "${nohz// /}" ]; then
    has FAIL isolation.none && ok "nothing isolated: FAIL isolation.none" || nok "no isolation.none"
else
    ! has FAIL isolation.none && ok "isolated '$iso': no isolation.none" || nok "isolation.none while '$iso' isolated"
fi

# Human output: the same counts as the JSON, and each FAIL line has a fix
"$rtvirt" host check "$prof" >"$tmp/live.txt" 2>&1
hf=$(grep -c '^FAIL  ' "$tmp/live.txt")
[ "$hf" = "$fails" ] && ok "human report lists the $fails FAILs" || nok "human FAIL lines $hf vs $fails"
nfix=$(grep -A3 '^FAIL  ' "$tmp/live.txt" | grep -c '^      fix: ')
[ "$nfix" = "$fails" ] && ok "every FAIL says how to fix it" || nok "fix lines $nfix vs $fails FAILs"

# The small profile of a 2-CPU host: explicit partition, must load and run
if [ "$(nproc --all)" -ge 2 ]; then
    "$rtvirt" host check --json profiles/host/two-cpu.ini >"$tmp/two.json" 2>"$tmp/err"; rc=$?
    { [ $rc -le 1 ] && [ "$(jq -r '.partition.isolated' "$tmp/two.json")" = 1 ]; } \
        && ok "two-cpu profile: partition isolated=1, exit $rc" || nok "two-cpu: rc=$rc $(cat "$tmp/err")"
else
    ok "# SKIP one CPU only"
fi

# A capture of this host checks like the host itself: same finding ids and
# levels from `--root CAPTURE` as live.  Findings allowed to differ: only
# those of live-only probes, i.e. the prctl(PR_SCHED_CORE) probe (the
# capture records its answer in rtvirt/coresched; listed here all the same).
live_only='^(coresched\.available|coresched\.no-smt|coresched\.unavailable|coresched\.unknown) '
# The live check runs before and after the capture: another rtvirt (a run
# tuning the host) may change it meanwhile, then the comparison is skipped.
for p in profiles/host/two-cpu.ini "$prof"; do
    "$rtvirt" host check --json "$p" >"$tmp/$(basename "$p" .ini).live0.json" 2>/dev/null
done
"$rtvirt" host capture "$tmp/cap" >/dev/null 2>"$tmp/err"; rc=$?
[ $rc -eq 0 ] && ok "host capture exits 0" || nok "host capture: rc=$rc $(cat "$tmp/err")"
for p in profiles/host/two-cpu.ini "$prof"; do
    b=$(basename "$p" .ini)
    "$rtvirt" host check --json "$p" >"$tmp/$b.live.json" 2>/dev/null; rl=$?
    "$rtvirt" host check --json --root "$tmp/cap" "$p" >"$tmp/$b.cap.json" 2>"$tmp/err"; rcap=$?
    for w in live0 live cap; do
        jq -r '.findings[] | "\(.id) \(.level)"' "$tmp/$b.$w.json" | grep -Ev "$live_only" | sort >"$tmp/$b.$w.ids"
    done
    if ! cmp -s "$tmp/$b.live0.ids" "$tmp/$b.live.ids"; then
        ok "# SKIP $b: the live host changed during the capture (another rtvirt tuning it)"
    elif [ $rl -eq $rcap ] && [ -s "$tmp/$b.live.ids" ] && diff "$tmp/$b.live.ids" "$tmp/$b.cap.ids" >"$tmp/diff"; then
        ok "$b: check --root CAPTURE = live ($(wc -l <"$tmp/$b.live.ids") findings, exit $rl)"
    else
        nok "$b: capture differs from live (rc $rl vs $rcap)"; sed 's/^/# /' "$tmp/diff"
    fi
done
# ... because the capture holds what host check reads
{ [ -e "$tmp/cap/proc/sys/vm/swappiness" ] && [ -e "$tmp/cap/proc/sys/net/core/busy_read" ] &&
  { [ ! -e /sys/module/kvm ] || [ -d "$tmp/cap/sys/module/kvm" ]; } &&
  { [ ! -r /etc/libvirt/qemu.conf ] || cmp -s /etc/libvirt/qemu.conf "$tmp/cap/etc/libvirt/qemu.conf"; }; } \
    && ok "capture holds vm/net sysctls, /sys/module, qemu.conf" || nok "capture misses sysctls, modules or qemu.conf"

# Errors: exit 2 with the file, line and value named
"$rtvirt" host check tests/data/hostprofile/bad-smt.ini >/dev/null 2>"$tmp/err"; rc=$?
{ [ $rc -eq 2 ] && grep -q "bad-smt.ini:3: invalid smt 'maybe'" "$tmp/err"; } \
    && ok "bad profile: exit 2 naming FILE:LINE and value" || nok "bad profile: rc=$rc $(cat "$tmp/err")"
"$rtvirt" host check >/dev/null 2>"$tmp/err"; rc=$?
[ $rc -eq 2 ] && ok "no PROFILE: exit 2" || nok "no PROFILE: rc=$rc"
"$rtvirt" host check --root "$tmp/nonexistent" "$prof" >/dev/null 2>"$tmp/err"; rc=$?
[ $rc -eq 2 ] && ok "missing --root: exit 2 ($(head -c 80 "$tmp/err"))" || nok "missing root: rc=$rc"
mkdir -p "$tmp/empty"
"$rtvirt" host check --root "$tmp/empty" "$prof" >/dev/null 2>"$tmp/err"; rc=$?
[ $rc -eq 2 ] && ok "root without CPUs: exit 2 ($(head -c 80 "$tmp/err"))" || nok "empty root: rc=$rc $(cat "$tmp/err")"

# Fixes that run as pasted: the profile as the user named it (never the
# word PROFILE), "&& reboot", one grouped line per fix; a path that needs
# quoting is quoted; a tuned profile gets tuned-adm.
fx=tests/data/hosts/debian12-2cpu-nosmt-rtgroup
"$rtvirt" host check realtime-virtual-host --root "$fx" >"$tmp/fix.txt" 2>&1
"$rtvirt" host check realtime-virtual-host --root "$fx" --json >"$tmp/fix.json" 2>/dev/null
check "host check realtime-virtual-host: no fix says PROFILE, in text or --json" \
    eval '! grep -q "PROFILE" "$tmp/fix.txt" && [ "$(jq "[.findings[] | select((.fix // \"\") | test(\"PROFILE\"))] | length" "$tmp/fix.json")" = 0 ]'
bootfix=$(sed -n 's/^  [0-9]* findings\{0,1\} ([^)]*bootarg\.missing[^)]*): \(rtvirt .*\)/\1/p' "$tmp/fix.txt" | head -1)
check "one grouped fix for the missing boot arguments: '$bootfix'" \
    [ "$bootfix" = "rtvirt host bootargs realtime-virtual-host --install && reboot" ]
check "the grouped line counts them (11 or more)" \
    eval '[ "$(sed -n "s/^  \([0-9]*\) findings (.*bootarg.missing.*/\1/p" "$tmp/fix.txt")" -ge 2 ]'
# the pasted fix runs (dry run on a copy with Debian 12's grub, reboot left out)
mkdir -p "$tmp/groot" && cp -a "$fx/." "$tmp/groot/" && mkdir -p "$tmp/groot/etc/default" &&
    cp tests/data/grub/debian12/etc/default/grub "$tmp/groot/etc/default/grub"
cmd=${bootfix% && reboot}
eval "\"\$rtvirt\"${cmd#rtvirt} -n --root \"\$tmp/groot\"" >"$tmp/paste.out" 2>&1; rc=$?
check "the fix as pasted runs (rc=$rc): $(head -c 120 "$tmp/paste.out" | tr '\n' ' ')" \
    eval '[ $rc -eq 0 ] && grep -q "would write /etc/default/grub.d/rtvirt.cfg" "$tmp/paste.out"'
mkdir -p "$tmp/my profiles" && cp profiles/host/*.ini "$tmp/my profiles/"
"$rtvirt" host check "$tmp/my profiles/realtime-virtual-host.ini" --root "$fx" >"$tmp/fix2.txt" 2>&1
check "a profile path with a space is quoted in the fix" \
    grep -qF "rtvirt host bootargs '$tmp/my profiles/realtime-virtual-host.ini' --install && reboot" "$tmp/fix2.txt"
if [ -f /usr/lib/tuned/realtime-virtual-host/tuned.conf ]; then
    "$rtvirt" host check /usr/lib/tuned/realtime-virtual-host --root "$fx" >"$tmp/fix3.txt" 2>&1
    check "a tuned profile: the fix is tuned-adm profile realtime-virtual-host, not rtvirt host apply" \
        eval 'grep -q "^  .*: tuned-adm profile realtime-virtual-host && reboot$" "$tmp/fix3.txt" && ! grep -q "rtvirt host apply /usr\\|rtvirt host bootargs" "$tmp/fix3.txt"'
else
    skip "tuned is not installed"
fi
check "no CONFIG_NO_HZ_FULL in the fixture's kernel: the fix says to boot a kernel with it" \
    grep -q "fix: boot a kernel built with CONFIG_NO_HZ_FULL=y" "$tmp/fix.txt"
tap_plan
exit $fail
