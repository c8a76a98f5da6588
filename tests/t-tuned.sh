#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/t-tuned.sh: `rtvirt host check` on the tuned profiles the tuned
# package installs (/usr/lib/tuned: realtime, realtime-virtual-host,
# realtime-virtual-guest, cpu-partitioning), against copies of the captured
# root tests/data/hosts/debian12-2cpu-nosmt-rtgroup (2 CPUs, one package,
# no SMT, no isolation on its command line) with /etc/tuned variables files
# as the package installs them.  What the findings must say is derived here
# from the profile files themselves (line numbers by grep), not hard-coded.
# TAP output; skipped (77) without the tuned package.
set -u
rtvirt=${RV_BUILD:?}/rtvirt
top=${RV_TOP:?}
cd "$top" || exit 2
T=/usr/lib/tuned
if [ ! -f $T/realtime-virtual-host/tuned.conf ]; then
    echo "1..0 # SKIP tuned is not installed (make deps installs it)"
    exit 77
fi
. "${RV_TOP:?}/tests/tap.sh"
has() { jq -e --arg l "$2" --arg i "$3" '[.findings[] | select(.level == $l and .id == $i)] | length > 0' "$1" >/dev/null; }
msg() { jq -e --arg i "$2" --arg m "$3" '[.findings[] | select(.id == $i and (.message | contains($m)))] | length > 0' "$1" >/dev/null; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
echo "1..44"

# a root with the variables file as tuned installs it (calc_isolated_cores:1
# keeps the lowest CPU of the one package: CPU 0 housekeeping, CPU 1 isolated)
mkroot() {
    rm -rf "$1"; cp -a tests/data/hosts/debian12-2cpu-nosmt-rtgroup "$1"
    mkdir -p "$1/etc/tuned"
    for p in realtime realtime-virtual-host realtime-virtual-guest cpu-partitioning; do
        printf 'isolated_cores=${f:calc_isolated_cores:1}\nisolate_managed_irq=Y\n' \
            >"$1/etc/tuned/$p-variables.conf"
    done
}
R=$tmp/root; mkroot "$R"

for p in realtime realtime-virtual-host realtime-virtual-guest cpu-partitioning; do
    "$rtvirt" host check --root "$R" --json $T/$p >"$tmp/$p.json" 2>"$tmp/$p.err"; rc=$?
    [ $rc = 1 ] && jq -e '.findings | length > 0' "$tmp/$p.json" >/dev/null \
        && ok "$p: checked (rc 1, the root is not tuned)" || nok "$p: rc=$rc $(cat "$tmp/$p.err")"
    msg "$tmp/$p.json" tuned.profile "isolated_cores = 1 from" \
        && ok "$p: NOTE tuned.profile: isolated_cores = 1 (calc_isolated_cores:1 on this root)" \
        || nok "$p: tuned.profile"
    has "$tmp/$p.json" FAIL isolation.none && ok "$p: FAIL isolation.none (nothing isolated)" \
        || nok "$p: isolation.none"
    # [scheduler] isolated_cores has no rtvirt key: a NOTE naming its line
    line=$(grep -n '^isolated_cores=' $T/realtime/tuned.conf | tail -1 | cut -d: -f1)
    [ $p = cpu-partitioning ] && line=$(grep -n '^isolated_cores=' $T/$p/tuned.conf | tail -1 | cut -d: -f1)
    f=$T/realtime/tuned.conf; [ $p = cpu-partitioning ] && f=$T/$p/tuned.conf
    msg "$tmp/$p.json" tuned.unmapped "$f:$line: [scheduler] isolated_cores" \
        && ok "$p: NOTE tuned.unmapped names $f:$line" || nok "$p: no note for $f:$line"
done

# isolcpus= from realtime's cmdline_realtime with isolate_managed_irq=Y
for p in realtime realtime-virtual-host realtime-virtual-guest; do
    jq -e '[.findings[] | select(.id == "bootarg.missing" and .level == "FAIL" and .expected == "isolcpus=managed_irq,domain,1")] | length == 1' \
        "$tmp/$p.json" >/dev/null && ok "$p: FAIL bootarg.missing isolcpus=managed_irq,domain,1" \
        || nok "$p: isolcpus"
done
# cpu-partitioning writes isolcpus only with no_balance_cores
! jq -e '[.findings[] | select(.expected // "" | startswith("isolcpus"))] | length > 0' \
    "$tmp/cpu-partitioning.json" >/dev/null \
    && jq -e '[.findings[] | select(.id == "bootarg.missing" and .expected == "nohz_full=1")] | length == 1' \
    "$tmp/cpu-partitioning.json" >/dev/null \
    && ok "cpu-partitioning: nohz_full=1 wanted, no isolcpus" || nok "cpu-partitioning bootargs"

# realtime-virtual-host: ksm/run = 2, kernel threads FIFO, the RT-kernel-only sysfs knob
rvh=$tmp/realtime-virtual-host.json
jq -e '[.findings[] | select(.id == "ksm" and .expected == "2")] | length == 1' "$rvh" >/dev/null \
    && ok "rvh: [sysfs] /sys/kernel/mm/ksm/run = 2 judged (ksm)" || nok "rvh: ksm"
jq -e '[.findings[] | select(.id == "kthread.priority" and .expected == "fifo:2")] | length == 1' "$rvh" >/dev/null \
    && ok "rvh: group.ksoftirqd=0:f:2 judged as fifo:2" || nok "rvh: kthread.priority"
line=$(grep -n '^/sys/kernel/ktimer_lockless_check' $T/realtime-virtual-host/tuned.conf | cut -d: -f1)
if [ -n "$line" ]; then
    msg "$rvh" tuned.unmapped "$T/realtime-virtual-host/tuned.conf:$line: sysfs /sys/kernel/ktimer_lockless_check" \
        && ok "rvh: ktimer_lockless_check is a NOTE naming line $line" || nok "rvh: ktimer_lockless_check"
else
    ok "rvh: no ktimer_lockless_check in this tuned version # SKIP"
fi
jq -e '[.findings[] | select(.id == "rt-throttling" and .expected == "-1")] | length == 1' "$rvh" >/dev/null \
    && ok "rvh: kernel.sched_rt_runtime_us = -1 (from realtime) judged" || nok "rvh: rt-throttling"

# the tuned.conf itself reads as its directory
"$rtvirt" host check --root "$R" --json $T/realtime-virtual-host/tuned.conf >"$tmp/file.json"; rc=$?
[ $rc = 1 ] && [ "$(jq -c '[.findings[] | [.level, .id, .message]]' "$tmp/file.json")" = \
                 "$(jq -c '[.findings[] | [.level, .id, .message]]' "$rvh")" ] \
    && ok "tuned.conf and its directory give the same findings" || nok "tuned.conf vs directory (rc=$rc)"

# human output names the profile and the notes
"$rtvirt" host check --root "$R" $T/realtime-virtual-host >"$tmp/rvh.txt"; rc=$?
[ $rc = 1 ] && grep -q '^NOTE  tuned.unmapped: ' "$tmp/rvh.txt" && grep -q 'profile realtime-virtual-host' "$tmp/rvh.txt" \
    && ok "human report: profile name and NOTE tuned.unmapped lines" || nok "human report (rc=$rc)"

# a root booted with what tuned writes: the boot arguments pass
B=$tmp/booted; mkroot "$B"
args="skew_tick=1 isolcpus=managed_irq,domain,1 nosoftlockup tsc=reliable nohz=on nohz_full=1 rcu_nocbs=1 irqaffinity=0"
for a in $(jq -r '.findings[] | select(.id == "bootarg.missing" and .level == "FAIL") | .expected' "$rvh"); do
    case " $args " in *" $a "*) ;; *) args="$args $a" ;; esac
done
echo "BOOT_IMAGE=/vmlinuz root=/dev/vda1 ro $args" >"$B/proc/cmdline"
echo 1 >"$B/sys/devices/system/cpu/isolated"
"$rtvirt" host check --root "$B" --json $T/realtime-virtual-host >"$tmp/booted.json"; rc=$?
! has "$tmp/booted.json" FAIL bootarg.missing && ! has "$tmp/booted.json" FAIL isolation.none \
    && jq -e '[.findings[] | select(.id == "bootarg.ok" and .message == "isolcpus=managed_irq,domain,1 as the profile wants")] | length == 1' "$tmp/booted.json" >/dev/null \
    && ok "booted with tuned's arguments: PASS bootarg.ok, no bootarg.missing/isolation.none" \
    || nok "booted root (rc=$rc): $(jq -r '.findings[] | select(.level == "FAIL") | .id' "$tmp/booted.json" | sort -u | tr '\n' ' ')"

# isolated_cores unset: tuned refuses the profile (its assertion), so does rtvirt
U=$tmp/unset; mkroot "$U"
echo "# no isolated_cores" >"$U/etc/tuned/realtime-virtual-host-variables.conf"
"$rtvirt" host check --root "$U" $T/realtime-virtual-host >/dev/null 2>"$tmp/unset.err"; rc=$?
[ $rc = 2 ] && grep -q "tuned assertion 'isolated_cores are set' failed" "$tmp/unset.err" \
    && grep -q "tuned/realtime-virtual-host/tuned.conf:[0-9]*:" "$tmp/unset.err" \
    && ok "isolated_cores unset: exit 2 naming the assertion's line" || nok "unset: rc=$rc $(cat "$tmp/unset.err")"

# the shared tuned v2.28 cases read the same way (include= beside each other)
"$rtvirt" host check --root "$R" --json "${RV_CASES:?}/tuned/realtime-virtual-host" >"$tmp/case.json"; rc=$?
[ $rc = 1 ] && jq -e --arg f "$RV_CASES/tuned/latency-performance/tuned.conf" \
    '[.findings[] | select(.id == "tuned.unmapped" and (.message | startswith($f)))] | length > 0' "$tmp/case.json" >/dev/null \
    && ok "tests/data/cases/tuned/realtime-virtual-host: includes found beside it" || nok "shared case rc=$rc"

# export-tuned: the rtvirt profile as a tuned profile; host check on it gives
# the same findings (as a set: the merge orders sysctls differently)
fs='[.findings[] | select(.id | startswith("tuned.") | not) | [.level,.id,.message,.expected,.actual]] | sort'
for inc in realtime-virtual-host ""; do
    E=$tmp/export-${inc:-standalone}
    "$rtvirt" host export-tuned --root "$R" --include "$inc" realtime-virtual-host -o "$E" >"$tmp/exp.out"; rc=$?
    "$rtvirt" host check --root "$R" --json realtime-virtual-host >"$tmp/a.json"
    "$rtvirt" host check --root "$R" --json "$E" >"$tmp/b.json"
    if [ $rc = 0 ] && [ -s "$E/tuned.conf" ] && [ "$(jq -c "$fs" "$tmp/a.json")" = "$(jq -c "$fs" "$tmp/b.json")" ] \
        && [ "$(jq '.findings | length' "$tmp/a.json")" -gt 10 ]; then
        ok "export-tuned ${inc:+include=$inc}${inc:+}$( [ -z "$inc" ] && echo standalone): host check gives the profile's findings"
    else
        nok "export-tuned ${inc:-standalone} (rc=$rc): $(diff <(jq -c "$fs" "$tmp/a.json") <(jq -c "$fs" "$tmp/b.json") | head -5)"
    fi
done
grep -q '^include = realtime-virtual-host$' "$tmp/export-realtime-virtual-host/tuned.conf" \
    && ! grep -q '^include' "$tmp/export-standalone/tuned.conf" \
    && grep -q '^cmdline_rvh =$' "$tmp/export-realtime-virtual-host/tuned.conf" \
    && grep -q '^kvm = +r ' "$tmp/export-standalone/tuned.conf" \
    && ok "include= where it fits, the parent's cmdline emptied, [modules] kvm = +r ..." || nok "export content"
# isolated_cores_per_socket travels as rtvirt_isolated_cores_per_socket and
# reads back to the same findings (rt-beside-throughput: 3 isolated cores
# per socket, the rest housekeeping)
E=$tmp/export-rbt
"$rtvirt" host export-tuned --root "$R" rt-beside-throughput -o "$E" >/dev/null; rc=$?
"$rtvirt" host check --root "$R" --json rt-beside-throughput >"$tmp/a.json"
"$rtvirt" host check --root "$R" --json "$E" >"$tmp/b.json"
[ $rc = 0 ] && grep -q '^rtvirt_isolated_cores_per_socket = 3$' "$E/tuned.conf" \
    && ! grep -q 'rtvirt_housekeeping_cores_per_socket' "$E/tuned.conf" \
    && [ "$(jq -c "$fs" "$tmp/a.json")" = "$(jq -c "$fs" "$tmp/b.json")" ] \
    && ok "export-tuned rt-beside-throughput: rtvirt_isolated_cores_per_socket = 3, host check gives the profile's findings" \
    || nok "export-tuned rt-beside-throughput (rc=$rc): $(diff <(jq -c "$fs" "$tmp/a.json") <(jq -c "$fs" "$tmp/b.json") | head -5)"
# a profile that does not set what realtime-virtual-host sets: standalone, said why
printf '[cpus]\nisolated = 1\n[sysctl]\nvm.swappiness = 60\n' >"$tmp/small.ini"
"$rtvirt" host export-tuned --root "$R" "$tmp/small.ini" -o "$tmp/export-small" >/dev/null \
    && ! grep -q '^include' "$tmp/export-small/tuned.conf" && grep -q '^# not include=realtime-virtual-host' "$tmp/export-small/tuned.conf" \
    && ok "export-tuned: no include where the parent would add knobs (comment says why)" || nok "small export"
"$rtvirt" host export-tuned realtime-virtual-host >/dev/null 2>&1; [ $? = 2 ] && ok "export-tuned without -o: exit 2" || nok "no -o"

# a running tuned (PID file + live process in the root) with its profile
A=$tmp/apply; rm -rf "$A"; cp -a tests/data/apply-root "$A"
mkdir -p "$A/run/tuned" "$A/proc/4242" "$A/etc/tuned"
echo 4242 >"$A/run/tuned/tuned.pid"; echo tuned >"$A/proc/4242/comm"
echo realtime-virtual-host >"$A/etc/tuned/active_profile"; echo manual >"$A/etc/tuned/profile_mode"
printf 'isolated_cores=1\n' >"$A/etc/tuned/realtime-virtual-host-variables.conf"
"$rtvirt" host check --root "$A" --json "$tmp/small.ini" >"$tmp/run.json"
msg "$tmp/run.json" tuned.running "PID 4242 in /run/tuned/tuned.pid" && msg "$tmp/run.json" tuned.running "with profile realtime-virtual-host" \
    && ok "host check: NOTE tuned.running names the PID and the profile" || nok "tuned.running"
jq -e '[.findings[] | select(.id == "tuned.conflict" and .level == "WARN" and .expected == "60" and .actual == "10" and (.message | startswith("vm.swappiness")))] | length == 1' "$tmp/run.json" >/dev/null \
    && ok "host check: WARN tuned.conflict vm.swappiness 60 (profile) vs 10 (tuned)" || nok "tuned.conflict"
"$rtvirt" host show --root "$A" | grep -q '^tuned: running: PID 4242 .*active profile realtime-virtual-host (manual)' \
    && [ "$("$rtvirt" host show --root "$A" --json | jq -r '.tuned.running, .tuned.active_profile' | tr '\n' ' ')" = "true realtime-virtual-host " ] \
    && ok "host show (text and JSON) says tuned runs, with its profile" || nok "host show tuned"
# tuned's active profile checked by its tuned.conf is still tuned's own: no
# overlap of tuned with itself (t-tuned-live saw it with the real daemon)
act=$(jq -r .tuned.profile_dir "$(
    "$rtvirt" host show --root "$A" --json >"$tmp/act.json"; echo "$tmp/act.json")")
"$rtvirt" host check --root "$A" --json "$act" >"$tmp/self-dir.json" 2>/dev/null
"$rtvirt" host check --root "$A" --json "$act/tuned.conf" >"$tmp/self-file.json" 2>/dev/null
"$rtvirt" host check --root "$A" --json "$act/" >"$tmp/self-slash.json" 2>/dev/null
self=0
for f in self-dir self-file self-slash; do
    jq -e '[.findings[] | select(.id == "tuned.overlap" or .id == "tuned.conflict")] | length == 0' "$tmp/$f.json" >/dev/null \
        && msg "$tmp/$f.json" tuned.running "with profile realtime-virtual-host" || self=1
done
[ $self = 0 ] && [ "$act" != null ] \
    && ok "host check of tuned's active profile ($act, /tuned.conf, trailing /): no overlap or conflict with itself" \
    || nok "active profile $act judged against itself: $(for f in self-dir self-file self-slash; do echo "$f: $(jq -c '[.findings[] | select(.id == "tuned.overlap" or .id == "tuned.conflict") | .id]' "$tmp/$f.json")"; done | tr '\n' ' ')"
cp -a "$A" "$tmp/apply.orig"
"$rtvirt" host apply --root "$A" --no-check realtime-virtual-host >/dev/null 2>"$tmp/apply.err"; rc=$?
[ $rc = 2 ] && grep -q "tuned is running" "$tmp/apply.err" && grep -q "export-tuned" "$tmp/apply.err" \
    && diff -r "$tmp/apply.orig" "$A" >/dev/null \
    && ok "host apply refuses beside a running tuned (exit 2, names export-tuned), nothing changed" \
    || nok "apply beside tuned: rc=$rc $(cat "$tmp/apply.err")"
"$rtvirt" host apply --root "$A" --no-check --force realtime-virtual-host >/dev/null 2>&1; rc=$?
"$rtvirt" host revert --root "$A" >/dev/null 2>&1
[ $rc != 2 ] && ok "host apply --force goes on (rc $rc)" || nok "apply --force: rc=$rc"
echo 999999 >"$A/run/tuned/tuned.pid"
"$rtvirt" host check --root "$A" --json "$tmp/small.ini" >"$tmp/stale.json"
! has "$tmp/stale.json" NOTE tuned.running && has "$tmp/stale.json" NOTE tuned.active-profile \
    && ok "a stale PID file: not running, the active profile noted" || nok "stale pid"

# a read-only (0444) module parameter is planned as persist +
# reload/reboot, never as a runtime write
O=$tmp/ro; rm -rf "$O"; cp -a tests/data/apply-root "$O"
f=$O/sys/module/kvm/parameters/kvmclock_periodic_sync
if [ -f "$f" ] && [ "$(cat "$f")" = Y ]; then
    chmod 0444 "$f"
    "$rtvirt" host apply --root "$O" --dry-run realtime-virtual-host >"$tmp/ro.out" 2>&1
    grep -q '^skipped .*kvm.kvmclock_periodic_sync: 0 (read-only parameter (0444): persist it in /etc/modprobe.d' "$tmp/ro.out" \
        && ! grep -q 'kvmclock_periodic_sync: Y -> 0' "$tmp/ro.out" \
        && ok "read-only kvm.kvmclock_periodic_sync: planned as persist + reload, not Y -> 0" \
        || nok "read-only module parameter: $(grep kvmclock "$tmp/ro.out")"
else
    ok "apply-root has no kvmclock_periodic_sync = Y # SKIP"
fi

# a file that is no tuned profile is still an rtvirt profile name
"$rtvirt" host check --root "$R" $T >/dev/null 2>"$tmp/dir.err"; rc=$?
[ $rc = 2 ] && ok "$T (a directory without tuned.conf): exit 2" || nok "$T: rc=$rc"
exit $fail
