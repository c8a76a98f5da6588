#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/t-result-check.sh: `rtvirt result check` end to end: every
# tests/data/cases/cyclictest/ file with the verdict its .source.txt gives,
# --json read back with jq, --cmdline / --priority / --cpus, --root on a
# 4-CPU SMT fixture root written here, and the exit codes (0, 1, 2).
set -u
rtvirt=${RV_BUILD:?}/rtvirt
cases=${RV_CASES:?}/cyclictest
. "${RV_TOP:?}/tests/tap.sh"
echo "1..47"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
rc_of() { "$rtvirt" result check "$@" >"$tmp/out" 2>"$tmp/err"; echo $?; }
has() { grep -qF -- "$1" "$tmp/out"; }

# ---- the shared cases, verdicts from their .source.txt ----
rc=$(rc_of --budget 20us "$cases/kvm-guest-1thread-hist60-overflows-others.txt")
[ "$rc" = 1 ] && ok "kvm-guest: exit 1 at 20 us" || nok "kvm-guest exit $rc"
grep -q 'run 1 of 2 .*max 1475 us: FAIL' "$tmp/out" && grep -q 'run 2 of 2 .*max 12 us: NOTE' "$tmp/out" \
    && ok "kvm-guest: run 1 FAIL (1475 us), run 2 passes" || nok "kvm-guest: $(grep run "$tmp/out")"
has "WARN  histogram.beyond-range: 604 sample(s) on 1 thread(s) beyond the 60 us histogram; max 1475 us (thread 0) is from '# Max Latencies'" \
    && ok "kvm-guest: max beyond the histogram from # Max Latencies" || nok "no beyond-range: $(cat "$tmp/out")"

rc=$(rc_of --budget 100us "$cases/lava-cyclictest-2threads-prio48-linaro642.txt")
[ "$rc" = 1 ] && has "FAIL  latency.budget: max 340 us on thread 1 > budget 100 us" \
    && ok "lava: FAIL at 100 us (340 us on thread 1)" || nok "lava exit $rc: $(cat "$tmp/out")"
has "WARN  rt.priority-below-irq: measurement threads at FIFO 48" \
    && ok "lava: WARN measurement threads at FIFO 48" || nok "lava: no priority WARN"
rc=$(rc_of --priority 98 "$cases/lava-cyclictest-2threads-prio48-linaro642.txt")
[ "$rc" = 0 ] && has "WARN  rt.priority-mismatch: measurement threads at FIFO 48, asked 98 (T0 at 48, T1 at 48)" \
    && ok "lava --priority 98: mismatch WARN, exit 0 without budget" || nok "lava --priority: $rc $(cat "$tmp/out")"
rc=$(rc_of --cmdline 'cyclictest -D 540s -p 98 -i 1000 -t 2 -a 0' "$cases/lava-cyclictest-2threads-prio48-linaro642.txt")
has "rt.priority-mismatch: measurement threads at FIFO 48, asked 98" && has "smt.sibling-main-thread" \
    && ok "lava --cmdline: -p 98 asked, -a 0 shares the main thread" || nok "lava --cmdline: $(cat "$tmp/out")"

rc=$(rc_of --budget 20us "$cases/openshift-cnf-16threads-hist-bad-overflows.txt")
[ "$rc" = 1 ] && has "FAIL  latency.budget: max 619 us on thread 3 > budget 20 us" \
    && has "19 sample(s) on 15 thread(s) beyond the 30 us histogram" \
    && ok "openshift bad: FAIL, 619 us, 19 samples beyond the histogram" || nok "openshift bad $rc: $(cat "$tmp/out")"
rc=$(rc_of --budget 20us -v "$cases/openshift-cnf-16threads-hist-good.txt")
[ "$rc" = 0 ] && has "PASS  latency.budget: max 6 us on thread 8 <= budget 20 us" \
    && ok "openshift good: PASS at 20 us (6 us)" || nok "openshift good $rc: $(cat "$tmp/out")"

rc=$(rc_of --budget 100us "$cases/orangepi-smp-4threads-rt-vs-default.txt")
[ "$rc" = 1 ] && [ "$(grep -c '^FAIL  latency.budget' "$tmp/out")" = 2 ] && has "max 10533 us on thread 3" \
    && ok "orangepi: two runs, both FAIL 100 us" || nok "orangepi $rc: $(cat "$tmp/out")"

rc=$(rc_of --budget 100us "$cases/stress-ng-271-cyclictest-v2.40-one-thread-hist-missing.txt")
[ "$rc" = 0 ] && has "WARN  output.histogram-absent: histogram requested (-h 60) but absent" \
    && has "cyclictest 2.40, 1 thread(s), max 35 us" \
    && ok "stress-ng: histogram absent WARN, max 35 us" || nok "stress-ng $rc: $(cat "$tmp/out")"

rc=$(rc_of "$cases/json-rt-tests-2.2-truncated-linaro311.json")
[ "$rc" = 2 ] && grep -q 'json-rt-tests-2.2-truncated-linaro311.json:[0-9]*:[0-9]*: .*truncated or invalid cyclictest JSON' "$tmp/err" \
    && ok "truncated JSON: exit 2 naming FILE:LINE" || nok "truncated JSON $rc: $(cat "$tmp/err")"

# ---- --json ----
"$rtvirt" result check --json --budget 100us "$cases/orangepi-smp-4threads-rt-vs-default.txt" \
    "$cases/stress-ng-271-cyclictest-v2.40-one-thread-hist-missing.txt" >"$tmp/j.json"; rc=$?
[ $rc = 1 ] && jq -e '.schema_version == 1 and .verdict == "FAIL" and (.files | length) == 2' "$tmp/j.json" >/dev/null \
    && ok "--json: two files, verdict FAIL, exit 1" || nok "--json $rc: $(head -c 300 "$tmp/j.json")"
jq -e '[.files[0].runs[].max_us] == [300, 10533] and ([.files[0].runs[].verdict] | unique) == ["FAIL"]' "$tmp/j.json" >/dev/null \
    && ok "--json: per-run max_us and verdicts" || nok "--json runs: $(jq -c '.files[0].runs[] | [.max_us, .verdict]' "$tmp/j.json")"
jq -e '.files[1].runs[0].findings[] | select(.id == "output.histogram-absent" and .level == "WARN" and (.where | test(":3$")) and (.fix | length) > 0)' \
    "$tmp/j.json" >/dev/null && ok "--json: finding with id, level, where, fix" || nok "--json finding"
# warn: the two orangepi runs measured 34.7 s and 23.3 s (run.short), the
# stress-ng one lost its histogram
jq -e '.summary.fail == 2 and .summary.warn == 3' "$tmp/j.json" >/dev/null \
    && ok "--json: summary counts" || nok "--json summary: $(jq -c .summary "$tmp/j.json")"
"$rtvirt" result check --json "$cases/json-rt-tests-2.2-truncated-linaro311.json" >"$tmp/t.json" 2>/dev/null; rc=$?
[ $rc = 2 ] && jq -e '.verdict == "ERROR" and (.files[0].error | test("truncated or invalid"))' "$tmp/t.json" >/dev/null \
    && ok "--json: a file that does not parse is an error entry, exit 2" || nok "--json error $rc"

# ---- rules on small outputs ----
printf '%s\n' '$ cyclictest -smp -p 98 -q' 'defaulting realtime priority to 2' \
    'T: 0 ( 2404) P: 2 I:1000 C:   1000 Min:      5 Act:   22 Avg:   16 Max:      75' >"$tmp/smp.txt"
rc=$(rc_of "$tmp/smp.txt")
has "WARN  rt.priority-defaulted: cyclictest printed 'defaulting realtime priority to 2'" && has "where: $tmp/smp.txt:2" \
    && ok "'-smp -p 98': the defaulting notice, with its line" || nok "defaulted: $(cat "$tmp/out")"
printf '%s\n' 'policy: other: loadavg: 0.00 0.01 0.03 1/129 2407' \
    'T: 0 ( 2404) P: 0 I:1000 C:   1000 Min:      5 Act:   22 Avg:   16 Max:      75' >"$tmp/other.txt"
rc=$(rc_of "$tmp/other.txt")
[ "$rc" = 1 ] && has "FAIL  rt.policy-other: measurement not real-time: policy other, threads at P:0" \
    && ok "policy other / P:0: FAIL, exit 1" || nok "policy other $rc: $(cat "$tmp/out")"

# ---- --root: 4 CPUs, cores {0,2} {1,3}, isolated 1,3, non-RT, timer_migration=1 ----
root=$tmp/root
put() { mkdir -p "$root$(dirname "$1")"; printf '%s\n' "$2" >"$root$1"; }
for f in possible present online; do put /sys/devices/system/cpu/$f 0-3; done
for c in 0 1 2 3; do
    sib=$([ $((c % 2)) = 0 ] && echo 0,2 || echo 1,3)
    put /sys/devices/system/cpu/cpu$c/topology/thread_siblings_list $sib
    put /sys/devices/system/cpu/cpu$c/topology/core_cpus_list $sib
    put /sys/devices/system/cpu/cpu$c/topology/core_id $((c % 2))
    put /sys/devices/system/cpu/cpu$c/topology/physical_package_id 0
done
put /sys/devices/system/cpu/isolated 1,3
put /sys/devices/system/cpu/cpu3/cpuidle/state2/name C6
put /sys/devices/system/cpu/cpu3/cpuidle/state2/latency 133
put /sys/devices/system/cpu/cpu3/cpuidle/state2/disable 0
put /proc/sys/kernel/osrelease 6.1.0-13-amd64
put /proc/sys/kernel/version '#1 SMP PREEMPT_DYNAMIC Debian 6.1.55-1'
put /proc/sys/kernel/timer_migration 1
put /proc/cmdline 'BOOT_IMAGE=/vmlinuz isolcpus=1,3'
put /proc/120/stat '120 (irq/24-ahci) S 2 0 0 0 -1 69238848 0 0 0 0 31 0 0 0 -51 0 1 0 21 0 0 18446744073709551615 0 0 0 0 0 0 0 2147483647 0 1 0 0 17 0 50 1 0 0 0 0 0 0 0 0 0 0 0'
printf 'Name:\tirq/24-ahci\nPid:\t120\nPPid:\t2\nKthread:\t1\nCpus_allowed_list:\t0-3\n' >"$root/proc/120/status"

printf '%s\n' '# cyclictest --smp -m -p 95 -q' \
    'T: 0 ( 2404) P:95 I:1000 C:   1000 Min:      5 Act:   22 Avg:   16 Max:      15' \
    'T: 1 ( 2405) P:95 I:1000 C:   1000 Min:      5 Act:   22 Avg:   16 Max:      14' >"$tmp/S.txt"
rc=$(rc_of --root "$root" "$tmp/S.txt")
[ "$rc" = 1 ] && has "FAIL  cpus.not-measured: the isolated CPUs 1,3 were never measured: the threads ran on CPUs 0,2 (-S:" \
    && ok "--root: -S on an isolated host never measured the isolated CPUs" || nok "-S $rc: $(cat "$tmp/out") $(cat "$tmp/err")"
has "WARN  kernel.timer-migration: non-RT kernel with timer_migration=1" \
    && ok "--root: non-RT kernel with timer_migration=1" || nok "timer_migration: $(cat "$tmp/out")"
printf '%s\n' 'cyclictest -m -a 3 -t 1 -p 48 --mainaffinity=1 -q' \
    'T: 0 ( 2404) P:48 I:1000 C:   1000 Min:      5 Act:   22 Avg:   16 Max:      15' >"$tmp/sib.txt"
rc=$(rc_of --root "$root" "$tmp/sib.txt")
has "WARN  smt.sibling-main-thread: the main thread ran on CPU(s) 1, the SMT sibling of a measured CPU" \
    && ok "--root: main thread on the measured CPU's sibling" || nok "sibling: $(cat "$tmp/out")"
has "not above the threaded IRQs (FIFO 50, irq/24-ahci)" \
    && ok "--root: below the host's threaded IRQ irq/24-ahci" || nok "irq: $(cat "$tmp/out")"
has "WARN  idle.deep-states: measured CPUs may enter idle states with a long exit latency: CPU 3 C6 (133 us)" \
    && ok "--root: idle state of the measured CPU" || nok "idle: $(cat "$tmp/out")"
rc=$(rc_of --root "$root" --cpus 1,3 "$tmp/sib.txt")
[ "$rc" = 1 ] && has "FAIL  cpus.not-measured: CPUs 1 were not measured: the threads ran on CPUs 3 (-a 3)" \
    && ok "--cpus 1,3: CPU 1 not measured, exit 1" || nok "--cpus $rc: $(cat "$tmp/out")"

# ---- a real oslat --json file (rt-tests 2.40, tests/data/result-check) ----
osl=${RV_TOP:?}/tests/data/result-check/oslat-2.40-cpu1-2s.json
rc=$(rc_of "$osl")
[ "$rc" = 0 ] && has "oslat 2.40, 1 thread(s), max 7883 us: WARN" && has "WARN  histogram.beyond-range" \
    && has "NOTE  kernel.not-rt" && ok "real oslat JSON: read as oslat 2.40, max 7883 us, beyond the histogram" \
    || nok "real oslat $rc: $(cat "$tmp/out" "$tmp/err")"
rc=$(rc_of --budget 100us "$osl")
[ "$rc" = 1 ] && has "FAIL  latency.budget" && ok "real oslat JSON: --budget 100us broken, exit 1" \
    || nok "real oslat budget $rc: $(cat "$tmp/out")"

# ---- the other tools' readers, on real outputs (tests/data/result-check) ----
rc_dir=${RV_TOP:?}/tests/data/result-check
rc=$(rc_of "$rc_dir/oslat-2.4-cpu1-2s.txt")
[ "$rc" = 0 ] && has "oslat 2.40, 1 thread(s), max 16376 us: WARN" && has "WARN  run.short: oslat measured 2.0 s" \
    && ok "oslat text: 2.40, CPU 1, max 16376 us, 2 s is too short" || nok "oslat text $rc: $(cat "$tmp/out" "$tmp/err")"
rc=$(rc_of --json "$rc_dir/oslat-2.4-fifo1-cpu0-1.txt")
jq -e '.files[0].runs[0].threads == 2 and .files[0].runs[0].max_us == 52026 and .files[0].runs[0].tool == "oslat"' "$tmp/out" >/dev/null \
    && ok "oslat text, two cores, --json: 2 threads, max 52026 us" || nok "oslat two cores: $(head -c 400 "$tmp/out")"
rc=$(rc_of "$rc_dir/oslat-2.4-q-z-b16.txt")
has "oslat 2.40, 1 thread(s), max 20058 us" && ok "oslat -q -z -b 16: the summary alone" || nok "oslat -q: $(cat "$tmp/out" "$tmp/err")"
rc=$(rc_of "$rc_dir/oslat-2.4-sigint.txt")
has "WARN  run.stopped: oslat measured 1 s of the 10 s asked" && ok "oslat interrupted: 1 s of 10 s is a cut run" \
    || nok "oslat sigint: $(cat "$tmp/out")"
rc=$(rc_of "$rc_dir/oslat-2.4-T1000.txt")
[ "$rc" = 1 ] && has "FAIL  run.stopped: no result: oslat ended before printing its statistics (oslat -T: Trace threshold (1000 us) triggered on cpu 1 with 2744 us!)" \
    && ok "oslat -T stop before the summary: no result, FAIL" || nok "oslat -T $rc: $(cat "$tmp/out")"
rc=$(rc_of "$rc_dir/rtla-timerlat-top-aa40-doc.txt")
has "rtla, 23 thread(s), max 41 us" && has "WARN  run.stopped: the run ended early: rtla: ## CPU 23 hit stop tracing" \
    && has "NOTE  input.note: rtla auto-analysis: Thread latency: 41.96 us (100%)" \
    && ok "rtla timerlat top + auto-analysis: 23 CPUs, max 41 us, stopped at the -a threshold" || nok "timerlat top: $(cat "$tmp/out" "$tmp/err")"
rc=$(rc_of --cmdline 'timerlat hist -d 10m -c 0-4 -P d:100us:1ms -p 1000 --no-aa' "$rc_dir/rtla-timerlat-hist-doc.txt")
has "rtla, 5 thread(s), max 58 us" && ! has "run.short" && ! has "rt.policy-other" \
    && ok "rtla timerlat hist: Thr columns of 5 CPUs, max 58 us, 600 s, SCHED_DEADLINE not flagged" || nok "timerlat hist: $(cat "$tmp/out" "$tmp/err")"
rc=$(rc_of --cmdline 'rtla timerlat top -P o:0 -c 1-23' "$rc_dir/rtla-timerlat-top-aa40-doc.txt")
[ "$rc" = 1 ] && has "FAIL  rt.policy-other" && ok "rtla timerlat -P o:0: SCHED_OTHER measurement, FAIL" || nok "timerlat -P o: $rc $(cat "$tmp/out")"
rc=$(rc_of "$rc_dir/rtla-osnoise-top-doc.txt")
has "rtla, 4 thread(s), max 56 us" && has "NOTE  stats.partial: osnoise sampled 88% of the run's time" \
    && ok "rtla osnoise top: 4 CPUs, max single noise 56 us, runtime 88% of the period" || nok "osnoise top: $(cat "$tmp/out" "$tmp/err")"
rc=$(rc_of "$rc_dir/rtla-osnoise-hist-doc.txt")
[ "$rc" = 0 ] && has "rtla, 12 thread(s), max 50 us: PASS" && ok "rtla osnoise hist: 12 CPUs, max 50 us, clean" \
    || nok "osnoise hist $rc: $(cat "$tmp/out" "$tmp/err")"
printf '%s\n' '                                     Timer Latency' \
    '  0 00:05:00   |          IRQ Timer Latency (ns)        |         Thread Timer Latency (ns)' \
    'CPU COUNT      |      cur       min       avg       max |      cur       min       avg       max' \
    '  3 #300000    |      800       120      1500     12001 |     2100       900      3000     41001' >"$tmp/ns.txt"
rc=$(rc_of --budget 41us "$tmp/ns.txt")
[ "$rc" = 1 ] && has "max 42 us" && ok "rtla -n (ns): 41001 ns is 42 us rounded up, over a 41 us budget" || nok "ns $rc: $(cat "$tmp/out")"
printf '%s\n' '# RTLA osnoise histogram' '# Duration:   0 00:10:00' 'Index   CPU-000' '0  5' \
    'count: 99999999999999999999' >"$tmp/big.txt"
rc=$(rc_of "$tmp/big.txt"); [ "$rc" = 2 ] && grep -q "big.txt:5: rtla hist: value out of range" "$tmp/err" \
    && ok "an out-of-range value: exit 2 naming FILE:LINE" || nok "big $rc: $(cat "$tmp/out" "$tmp/err")"
vmroot=$tmp/vmroot; cp -r "$root" "$vmroot"
printf 'processor\t: 0\nflags\t\t: fpu vme de pse tsc msr hypervisor lahf_lm\n' >"$vmroot/proc/cpuinfo"
rc=$(rc_of --root "$vmroot" "${RV_TOP}/tests/data/result-check/field/ovirt-rt-host-hwlatdetect-19us/corrected.txt")
has "WARN  vm.guest: hwlatdetect ran inside a virtual machine" && ok "--root of a guest: hwlatdetect in a VM measures the host" \
    || nok "vm.guest: $(cat "$tmp/out" "$tmp/err")"

# ---- the text rule: a control byte from the file is escaped (util/escape.h) ----
printf '%s\n' '{"file_version": 1, "cmdline:": "cyclictest -q -p 95 -a 0 -t 1",' \
    '"rt_test_version:": "2.50\u001b[2J", "num_threads": 1, "thread": {' \
    '"0": {"histogram": {}, "cycles": 100, "min": 2, "max": 9, "avg": 3.00, "cpu": 0, "node": 0}}}' \
    >"$tmp/esc.json"
rc=$(rc_of "$tmp/esc.json")
has 'cyclictest 2.50\033[2J, 1 thread(s)' && ! grep -q $'\e' "$tmp/out" \
    && ok "a control byte in the file's version is escaped" || nok "escape $rc: $(od -c "$tmp/out" | head)"

# ---- bad input: exit 2 ----
rc=$(rc_of "$tmp/missing.txt"); [ "$rc" = 2 ] && grep -q "missing.txt" "$tmp/err" \
    && ok "missing file: exit 2 naming it" || nok "missing file $rc"
rc=$(rc_of --budget soon "$tmp/S.txt"); [ "$rc" = 2 ] && grep -q -- "--budget 'soon'" "$tmp/err" \
    && ok "bad --budget: exit 2" || nok "bad budget $rc: $(cat "$tmp/err")"
rc=$(rc_of --cmdline 'ls -l' "$tmp/S.txt"); [ "$rc" = 2 ] && grep -q "not a cyclictest, oslat, rtla, hwlatdetect or stress-ng command line" "$tmp/err" \
    && ok "bad --cmdline: exit 2" || nok "bad cmdline $rc: $(cat "$tmp/err")"
rc=$(rc_of --cpus 1-0 "$tmp/S.txt"); [ "$rc" = 2 ] && grep -q "^rtvirt: --cpus: Invalid cpulist '1-0'" "$tmp/err" \
    && ok "bad --cpus: exit 2 naming the option and the list" || nok "bad cpus $rc: $(cat "$tmp/err")"
rc=$(rc_of); [ "$rc" = 2 ] && ok "no FILE: exit 2" || nok "no FILE: $rc"
echo 'hello' >"$tmp/none.txt"
rc=$(rc_of "$tmp/none.txt"); [ "$rc" = 2 ] && grep -q "none.txt: no cyclictest output" "$tmp/err" \
    && ok "not cyclictest output: exit 2" || nok "none $rc: $(cat "$tmp/err")"
exit $fail
