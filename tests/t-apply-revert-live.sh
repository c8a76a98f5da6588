#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# tests/t-apply-revert-live.sh: `rtvirt host apply
# profiles/host/realtime-virtual-host.ini` then `rtvirt host revert` on THIS
# machine leaves /proc and /sys as they were.
#
# Snapshots, before apply and after revert: every sysctl and sysfs file the
# profile's knobs live in (IRQ affinities, workqueue mask, THP, KSM, module
# parameters, governors, idle states, qemu.conf) and the scheduling
# (policy, RT priority, CPU affinity) of every kernel thread.  Every path
# the journal recorded must be in the snapshot, so the snapshot cannot miss
# what apply touched.  Kernel threads are compared for the pids present in
# both snapshots (kworkers come and go), less those whose scheduling changed
# between two snapshots taken before apply, while nothing touched the host
# (a kworker bound for one work item, a thread still being set up by
# kthreadd): the kernel moves those itself, there is nothing to restore.
# A thread that differs after revert is read again once, a second later,
# before it counts; what differs is printed on stderr too, so that prove's
# summary shows it.
#
# Skipped (TAP SKIP) when not root, or while another rtvirt holds the host
# lock.  The journal is a temp file (--journal), so a user's own
# /var/lib/rtvirt/journal is never mixed in.
set -u

RTVIRT=${RV_BUILD:?}/rtvirt
PROFILE=${RV_TOP:?}/profiles/host/realtime-virtual-host.ini
LOCK=${RTVIRT_LOCK_FILE:-/run/rtvirt.lock}

if [ "$(id -u)" -ne 0 ]; then
    echo "1..0 # SKIP needs root to tune the live host"
    exit 0
fi
if [ -e "$LOCK" ] && ! flock -n "$LOCK" true; then
    echo "1..0 # SKIP another rtvirt holds $LOCK"
    exit 0
fi

tmp=$(mktemp -d)
J=$tmp/journal
. "${RV_TOP:?}/tests/tap.sh"

# Safety net: whatever happens below, leave the host reverted.
cleanup() {
    if [ -e "$J" ]; then
        "$RTVIRT" host revert --journal "$J" >/dev/null 2>&1 ||
            echo "# WARNING: revert in cleanup failed; run: rtvirt host revert --journal $J"
    fi
    [ -e "$J" ] || rm -rf "$tmp"
}
trap cleanup EXIT INT TERM

files() {
    ls -d /proc/sys/kernel/sched_rt_runtime_us /proc/sys/kernel/timer_migration \
        /proc/sys/kernel/numa_balancing /proc/sys/kernel/nmi_watchdog \
        /proc/sys/kernel/hung_task_timeout_secs /proc/sys/vm/stat_interval \
        /proc/sys/vm/swappiness /sys/kernel/mm/transparent_hugepage/enabled \
        /sys/kernel/mm/ksm/run /sys/devices/virtual/workqueue/cpumask \
        /proc/irq/default_smp_affinity /proc/irq/*/smp_affinity_list \
        /sys/module/kvm/parameters/* /sys/module/kvm_intel/parameters/* \
        /sys/devices/system/cpu/cpu*/cpufreq/scaling_governor \
        /sys/devices/system/cpu/cpu*/cpuidle/state*/disable \
        /sys/devices/system/machinecheck/machinecheck*/ignore_ce \
        /etc/libvirt/qemu.conf 2>/dev/null
    # and every sysctl the profile names (from the dry-run listing)
    sed -n 's|^[a-z ]*  *sysctl \([^:]*\):.*|\1|p' "$tmp/dry.out" | tr . / | sed 's|^|/proc/sys/|'
}

snap_files() {
    files | while read -r f; do
        [ -r "$f" ] || continue
        printf '%s: %s\n' "$f" "$(tr '\n' ' ' <"$f" 2>/dev/null | cksum)"
    done
}

# pid policy rt_priority affinity, for kernel threads (PF_KTHREAD)
snap_kthreads() {
    for s in /proc/[0-9]*/stat; do
        line=$(cat "$s" 2>/dev/null) || continue
        pid=${line%% *}
        rest=${line##*) }
        # shellcheck disable=SC2086
        set -- $rest
        [ $# -ge 39 ] || continue
        [ $(( $7 & 0x200000 )) -ne 0 ] || continue
        aff=$(sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' "/proc/$pid/status" 2>/dev/null)
        echo "$pid ${39} ${38} $aff"
    done | sort
}

"$RTVIRT" host apply --dry-run -v "$PROFILE" >"$tmp/dry.out" 2>&1
snap_files >"$tmp/files.before"
snap_kthreads >"$tmp/kthreads.before"
sleep 1
snap_kthreads >"$tmp/kthreads.before2"
# pids whose scheduling the kernel changed on its own: not compared
join "$tmp/kthreads.before" "$tmp/kthreads.before2" |
    awk '$2 != $5 || $3 != $6 || $4 != $7 { print $1 }' >"$tmp/kthreads.unstable"
sed 's/^/# changing before apply, not compared: pid /' "$tmp/kthreads.unstable"

"$RTVIRT" host apply --journal "$J" "$PROFILE" >"$tmp/apply.out" 2>&1
rc=$?
if [ $rc -eq 2 ] && grep -q "holds" "$tmp/apply.out"; then
    # a run started between the lock probe and apply: nothing was changed
    echo "1..0 # SKIP $(grep holds "$tmp/apply.out" | head -1)"
    exit 0
fi
sed 's/^/# apply: /' "$tmp/apply.out" | grep -v ' already ' | head -60
check_expr '[ $rc -eq 0 ] || [ $rc -eq 1 ]' "host apply ran (rc=$rc)"
check_expr '! grep -q "^failed " "$tmp/apply.out"' "no knob failed"
snap_files >"$tmp/files.applied"
check_expr '! cmp -s "$tmp/files.before" "$tmp/files.applied"' "apply changed the host"
check_expr 'grep -qx -- -1 /proc/sys/kernel/sched_rt_runtime_us' "RT throttling off while applied"

# every path apply recorded is covered by the snapshot
missing=0
for p in $(grep -o '"path":"[^"]*"' "$J" 2>/dev/null | sed 's/"path":"//; s/"$//'); do
    grep -q "^$p: " "$tmp/files.before" || { echo "# not in snapshot: $p"; missing=$((missing + 1)); }
done
check_expr '[ -s "$J" ] && [ $missing -eq 0 ]' "the snapshot covers every journaled path"

"$RTVIRT" host revert --journal "$J" >"$tmp/revert.out" 2>&1
rc=$?
sed 's/^/# revert: /' "$tmp/revert.out"
check_expr '[ $rc -eq 0 ] && [ ! -e "$J" ]' "host revert succeeded and removed the journal (rc=$rc)"

snap_files >"$tmp/files.after"
snap_kthreads >"$tmp/kthreads.after"
if cmp -s "$tmp/files.before" "$tmp/files.after"; then
    ok "sysctl/sysfs files identical after revert ($(wc -l <"$tmp/files.before") files)"
else
    notok "sysctl/sysfs files identical after revert"
    diff "$tmp/files.before" "$tmp/files.after" | sed 's/^/# /'
fi
# kthreads_diff AFTER: "pid policy prio aff policy prio aff" for each
# stable thread whose scheduling differs between before and AFTER
kthreads_diff() {
    join "$tmp/kthreads.before" "$1" |
        awk -v unstable="$tmp/kthreads.unstable" '
            BEGIN { while ((getline p < unstable) > 0) skip[p] = 1 }
            !($1 in skip) && ($2 != $5 || $3 != $6 || $4 != $7)'
}
kthreads_diff "$tmp/kthreads.after" >"$tmp/kthreads.diff"
if [ -s "$tmp/kthreads.diff" ]; then
    # read the differing ones again: a kworker caught mid-work item
    sleep 1
    snap_kthreads >"$tmp/kthreads.after2"
    kthreads_diff "$tmp/kthreads.after2" | join - "$tmp/kthreads.diff" | cut -d' ' -f1-7 >"$tmp/kthreads.diff2"
    mv "$tmp/kthreads.diff2" "$tmp/kthreads.diff"
fi
common=$(join "$tmp/kthreads.before" "$tmp/kthreads.after" | wc -l)
if [ -s "$tmp/kthreads.diff" ]; then
    notok "kernel threads: policy, priority and affinity restored"
    while read -r pid rest; do
        echo "# pid $pid ($(cat /proc/$pid/comm 2>/dev/null || echo gone)) before(policy prio aff) after: $rest" |
            tee /dev/stderr
    done <"$tmp/kthreads.diff"
else
    ok "kernel threads: policy, priority and affinity restored ($common threads)"
fi

echo "1..$n"
