/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * util/rules.c: the rule catalogue (util/rules.h).
 *
 * One line per rule: { id, levels, commands, meaning, source, fix }.
 * Levels are P N W F (PASS NOTE WARN FAIL, or-ed); commands HOST, GUEST
 * (guest check and guest xml --check: rules on the domain XML), LIVE (guest
 * check of a running domain only), RESULT.  Sources name the document and
 * its section, or the tool's source file and function; "rtvirt" marks a
 * rule of rtvirt's own (its partition, its parsers).  A fix is the usual
 * remedy; the finding itself names the CPUs, values and profile.
 */
#include <string.h>

#include "util/rules.h"

#define P RV_RULE_LEVEL(RV_FINDING_PASS)
#define N RV_RULE_LEVEL(RV_FINDING_NOTE)
#define W RV_RULE_LEVEL(RV_FINDING_WARN)
#define F RV_RULE_LEVEL(RV_FINDING_FAIL)
#define HOST RV_RULE_HOST_CHECK
#define GUEST (RV_RULE_GUEST_CHECK | RV_RULE_GUEST_XML)
#define LIVE RV_RULE_GUEST_CHECK
#define RESULT RV_RULE_RESULT_CHECK

#define KPARAMS "Documentation/admin-guide/kernel-parameters.txt"
#define KTHREADS "Documentation/admin-guide/kernel-per-CPU-kthreads.rst"
#define SYSCTL_KERNEL "Documentation/admin-guide/sysctl/kernel.rst"
#define CORESCHED "Documentation/admin-guide/hw-vuln/core-scheduling.rst"
#define TUNED_RT "tuned profiles/realtime/tuned.conf"
#define KBASE_RT "libvirt kbase/kvm-realtime.html"
#define FORMATDOMAIN "libvirt formatdomain.html"
#define LIBVIRT_SRC "libvirt 9.0 "
#define CYCLICTEST "rt-tests src/cyclictest/cyclictest.c"

static const RvRule rules[] = {
    /* ---- host check: the partition and isolation (host/check/check-boot.c) ---- */
    { "partition.plan", P, HOST, "the CPU partition the check used: the profile's explicit lists, or its whole-core plan on this topology", "rtvirt host/profile/partition.h (whole cores, housekeeping cores per package); " KTHREADS " (housekeeping CPUs)", NULL },
    { "partition.housekeeping-cores", P, HOST, "the isolation in effect is made of whole cores and keeps the profile's per-socket housekeeping (or isolated) cores, so it is the partition checked", "rtvirt host/profile/partition.h ([cpus] housekeeping_cores_per_socket, isolated_cores_per_socket)", NULL },
    { "partition.invalid", F, HOST, "the profile's CPU partition does not fit this host's topology", "rtvirt host/profile/partition.h; rtvirt-profiles(5) [cpus]", "correct [cpus] in the profile for this host (rtvirt host show lists its cores)" },
    { "isolation.none", F, HOST, "the profile wants isolated CPUs and none is isolated: /sys/devices/system/cpu/isolated and nohz_full are empty", KPARAMS " (isolcpus=, nohz_full=); drivers/base/cpu.c print_cpus_isolated()", "install the profile's boot arguments (rtvirt host bootargs PROFILE --install) and reboot" },
    { "isolation.mismatch", F, HOST, "the CPUs isolated in effect are not the ones the profile wants, or break its per-socket rule", KPARAMS " (isolcpus=, nohz_full=); drivers/base/cpu.c print_cpus_isolated()", "install the profile's boot arguments (rtvirt host bootargs PROFILE --install) and reboot" },
    { "isolation.unknown", N, HOST, "neither /sys/devices/system/cpu/isolated nor nohz_full could be read: the isolation is unknown", "drivers/base/cpu.c print_cpus_isolated(); " KPARAMS " (nohz_full=)", NULL },
    { "isolation.sibling-housekeeping", W, HOST, "an isolated CPU shares its core with a housekeeping CPU (SMT siblings): interrupts and kernel threads on the sibling steal the core's pipeline and caches", CORESCHED " (siblings share a core's execution units); tuned profiles/realtime/realtime-variables.conf (isolated_cores: isolate whole cores)", "isolate whole cores: both siblings isolated, or both housekeeping (rtvirt host bootargs computes whole-core lists)" },
    { "isolation.smt-clean", P, HOST, "every isolated CPU's SMT siblings are isolated too (whole cores)", CORESCHED, NULL },
    { "isolation.stray-tasks", W, HOST, "user threads last ran on isolated CPUs although their affinity also allows housekeeping CPUs: they were not placed there on purpose", KPARAMS " (isolcpus=domain); tuned profiles/cpu-partitioning/tuned.conf ([scheduler] isolated_cores moves threads off)", "restrict their affinity to housekeeping CPUs (taskset -a -p), or boot with isolcpus=domain" },
    { "isolation.stray-kthreads", W, HOST, "unbound kernel threads last ran on isolated CPUs", KTHREADS " (kworker, unbound workqueues); " KPARAMS " (isolcpus=domain,managed_irq)", "keep unbound kernel threads on housekeeping CPUs: isolcpus=domain,managed_irq, /sys/devices/virtual/workqueue/cpumask, taskset where a kthread allows it" },
    { "isolation.threads-stacked", F, HOST, "threads whose affinity spans several isolated CPUs ran stacked on one: isolated CPUs are not load-balanced", KPARAMS " (isolcpus=domain: isolated from the SMP balancing and scheduling algorithms)", "pin each thread 1:1 to its own isolated CPU (libvirt <vcpupin> per vCPU, taskset -p CPU TID)" },
    /* ---- host check: SMT and core scheduling ---- */
    { "smt.absent", N, HOST, "the host has no SMT: sibling rules do not apply", "Documentation/ABI/testing/sysfs-devices-system-cpu (smt/control)", NULL },
    { "smt.active", F, HOST, "SMT is active but the profile wants it off", "Documentation/ABI/testing/sysfs-devices-system-cpu (smt/control); " KPARAMS " (nosmt)", "rtvirt host apply PROFILE (writes off to /sys/devices/system/cpu/smt/control), or boot with nosmt" },
    { "smt.off", P, HOST, "SMT is off as the profile wants", "Documentation/ABI/testing/sysfs-devices-system-cpu (smt/control)", NULL },
    { "smt.nosmt-missing", F, HOST, "the profile wants SMT off at boot and the command line has no nosmt", KPARAMS " (nosmt)", "install the profile's boot arguments (rtvirt host bootargs PROFILE --install) and reboot" },
    { "smt.idle-siblings", P, HOST, "SMT is on and the profile keeps the siblings of RT vCPUs idle", "rtvirt guest/placement.h (host_sibling = idle); " CORESCHED, NULL },
    { "smt.shared-cores", N, HOST, "SMT is on and vCPUs may use both siblings of a core: one vCPU's load shows in the other's latency", CORESCHED, NULL },
    { "coresched.available", P, HOST, "core scheduling works (prctl PR_SCHED_CORE)", CORESCHED, NULL },
    { "coresched.no-smt", N, HOST, "the kernel has core scheduling but no SMT sibling is online (prctl: ENODEV): nothing to protect", CORESCHED, NULL },
    { "coresched.unavailable", N | W | F, HOST, "the kernel has no core scheduling (older than 5.14, or CONFIG_SCHED_CORE off: prctl PR_SCHED_CORE fails with EINVAL); a FAIL when the profile requires it on an SMT host", CORESCHED " (Linux 5.14+, CONFIG_SCHED_CORE)", "boot a kernel >= 5.14 built with CONFIG_SCHED_CORE, or turn SMT off" },
    { "coresched.unknown", N, HOST, "whether core scheduling works is unknown (no probe, e.g. on a fixture root)", CORESCHED, NULL },
    /* ---- host check: the kernel command line ---- */
    { "cmdline.unknown", N, HOST, "/proc/cmdline is unreadable: boot arguments not checked", "Documentation/filesystems/proc.rst (/proc/cmdline)", NULL },
    { "cmdline.problem", W, HOST, "the kernel command line has an argument the kernel ignores or reads otherwise than written (a malformed cpulist, an unknown isolcpus= flag, a second list that differs)", KPARAMS " (cpu lists, isolcpus=, rcu_nocbs=); kernel/sched/isolation.c housekeeping_setup(); lib/bitmap-str.c bitmap_parselist()", "correct the kernel command line" },
    { "bootarg.ok", P, HOST, "a boot argument the profile wants is on the command line as wanted (cpulists compared as sets)", KPARAMS, NULL },
    { "bootarg.missing", N | F, HOST, "a boot argument the profile wants is not on the command line (NOTE for the governor, a runtime knob)", KPARAMS " (isolcpus=, nohz_full=, rcu_nocbs=, irqaffinity=, skew_tick=, nosmt)", "install the profile's boot arguments (rtvirt host bootargs PROFILE --install) and reboot" },
    { "bootarg.mismatch", F, HOST, "a boot argument has another value than the profile wants (other CPUs, isolcpus= flags missing)", KPARAMS " (isolcpus= flags domain, managed_irq, nohz)", "install the profile's boot arguments (rtvirt host bootargs PROFILE --install) and reboot" },
    { "bootarg.ignored", F, HOST, "a boot argument is on the command line but the kernel ignores it (a cpulist it cannot parse)", KPARAMS " (cpu lists); kernel/sched/isolation.c housekeeping_setup()", "write the argument as the kernel parses it, then reboot" },
    { "bootarg.not-in-effect", N | F, HOST, "a boot argument is on the command line but not in effect in sysfs (isolated, nohz_full)", "drivers/base/cpu.c print_cpus_isolated(); Documentation/timers/no_hz.rst (nohz_full=)", "check dmesg for the kernel's reason; boot a kernel that supports the argument" },
    { "bootarg.boot-cpu", W, HOST, "isolcpus=/nohz_full= names the boot CPU, which the kernel keeps as a housekeeping CPU", "kernel/sched/isolation.c housekeeping_setup(); kernel/time/tick-sched.c tick_nohz_init() ('Clearing N from nohz_full range for timekeeping'); Documentation/timers/no_hz.rst", "leave the boot CPU out of isolcpus=/nohz_full= and isolate another CPU instead" },
    { "nohz_full.mismatch-isolcpus", W, HOST, "nohz_full= and isolcpus= name different CPUs", KPARAMS " (isolcpus=, nohz_full=); Documentation/timers/no_hz.rst", "use the same cpulist for isolcpus=, nohz_full= and rcu_nocbs=" },
    { "nohz_full.unsupported", F, HOST, "nohz_full= is on the command line but the kernel was built without CONFIG_NO_HZ_FULL (no /sys/devices/system/cpu/nohz_full)", "Documentation/timers/no_hz.rst (CONFIG_NO_HZ_FULL)", "boot a kernel built with CONFIG_NO_HZ_FULL" },
    { "rcu_nocbs.mismatch-nohz_full", W, HOST, "nohz_full CPUs are not RCU-offloaded: their RCU callbacks run locally", KPARAMS " (rcu_nocbs=); " KTHREADS " (rcuc, rcuo); Documentation/timers/no_hz.rst", "add the nohz_full CPUs to rcu_nocbs=" },
    { "irqaffinity.missing", N | W, HOST, "CPUs are isolated and the command line has no irqaffinity=: device IRQs may land on isolated CPUs (NOTE when the profile moves IRQs at runtime)", KPARAMS " (irqaffinity=); Documentation/core-api/irq/irq-affinity.rst", "add irqaffinity=<housekeeping CPUs>, or move IRQs at runtime ([kernel] irq_affinity = housekeeping)" },
    { "irqaffinity.overlaps-isolated", F, HOST, "irqaffinity= includes isolated CPUs", KPARAMS " (irqaffinity=)", "set irqaffinity= to the housekeeping CPUs only" },
    /* ---- host check: what the running kernel does (host/check/check-runtime.c) ---- */
    { "irq.default-affinity", W | F, HOST, "/proc/irq/default_smp_affinity includes isolated CPUs: new IRQs start there (FAIL when the profile sets [kernel] irq_affinity)", "Documentation/core-api/irq/irq-affinity.rst (default_smp_affinity)", "rtvirt host apply PROFILE ([kernel] irq_affinity = housekeeping), or boot with irqaffinity=" },
    { "irq.on-isolated", W | F, HOST, "IRQs are delivered to isolated CPUs (effective_affinity_list, else smp_affinity_list); FAIL when the profile sets [kernel] irq_affinity", "Documentation/core-api/irq/irq-affinity.rst; " KPARAMS " (isolcpus=managed_irq)", "rtvirt host apply PROFILE moves them; managed IRQs stay unless isolcpus=managed_irq is booted" },
    { "irq.ok", P, HOST, "no IRQ is delivered to an isolated CPU", "Documentation/core-api/irq/irq-affinity.rst", NULL },
    { "rps.on-isolated", P | W, HOST, "receive packet steering masks (net rx queues' rps_cpus, net.core.rps_default_mask) include isolated CPUs: those queues' packets are processed there in softirq", "Documentation/networking/scaling.rst (RPS Configuration); OpenShift cluster-node-tuning-operator assets/performanceprofile/configs/99-default-rps-mask.conf, scripts/set-rps-mask.sh (RPS to the reserved CPUs)", "write a mask of housekeeping CPUs (or 0) to each rps_cpus and to net.core.rps_default_mask" },
    { "irq.irqbalance", N | W, HOST, "irqbalance runs: NOTE when it bans the isolated CPUs (by itself, or with a banned-CPU variable that covers them); WARN when its IRQBALANCE_BANNED_CPULIST/_CPUS replaces its own ban and leaves isolated CPUs out, or its environment cannot be read", "irqbalance cputree.c setup_banned_cpus() (a banned-CPU variable replaces the ban of /sys/devices/system/cpu/isolated and nohz_full); irqbalance.1 (IRQBALANCE_BANNED_CPULIST); tuned tuned/plugins/plugin_irqbalance.py ([irqbalance] banned_cpus)", "list every isolated CPU in IRQBALANCE_BANNED_CPULIST, or remove the variable, and restart irqbalance; or stop irqbalance" },
    { "kernel.preempt-rt", P, HOST, "the kernel is PREEMPT_RT", "kernel/ksysfs.c (/sys/kernel/realtime, CONFIG_PREEMPT_RT); init/version-timestamp.c (UTS_VERSION \"PREEMPT_RT\")", NULL },
    { "kernel.not-preempt-rt", W, HOST, "the kernel is not PREEMPT_RT: worst-case latencies of RT guests are not bounded", KBASE_RT " (a real-time host kernel); kernel/ksysfs.c (/sys/kernel/realtime)", "boot a PREEMPT_RT kernel (Debian: linux-image-rt-amd64)" },
    { "rt-throttling", P | N | F, HOST, "kernel.sched_rt_runtime_us against the profile ([sched] rt_runtime_us)", "Documentation/scheduler/sched-rt-group.rst (sched_rt_runtime_us); " TUNED_RT " ([sysctl])", "rtvirt host apply PROFILE" },
    { "timer_migration", P | N | F, HOST, "kernel.timer_migration against the profile", SYSCTL_KERNEL " (timer_migration); " TUNED_RT, "rtvirt host apply PROFILE" },
    { "numa_balancing", P | N | F, HOST, "kernel.numa_balancing against the profile", SYSCTL_KERNEL " (numa_balancing)", "rtvirt host apply PROFILE" },
    { "nmi_watchdog", P | N | F, HOST, "kernel.nmi_watchdog against the profile", SYSCTL_KERNEL " (nmi_watchdog); " KTHREADS, "rtvirt host apply PROFILE" },
    { "ksm", P | N | F, HOST, "/sys/kernel/mm/ksm/run against the profile", "Documentation/admin-guide/mm/ksm.rst (run)", "rtvirt host apply PROFILE" },
    { "mce.ignore_ce", P | N | F, HOST, "machine-check ignore_ce of every CPU against the profile: corrected-error polling timers fire on isolated CPUs otherwise", "Documentation/arch/x86/x86_64/machinecheck.rst (ignore_ce); " TUNED_RT " ([sysfs] machinecheck*/ignore_ce)", "rtvirt host apply PROFILE" },
    { "thp", P | N | F, HOST, "transparent_hugepage/enabled against the profile (khugepaged and compaction stalls)", "Documentation/admin-guide/mm/transhuge.rst (enabled)", "rtvirt host apply PROFILE" },
    { "workqueue.cpumask", P | N | F, HOST, "the unbound workqueue cpumask against the profile's housekeeping CPUs", KTHREADS " (kworker); Documentation/core-api/workqueue.rst (unbound cpumask); " TUNED_RT " ([sysfs] workqueue/cpumask)", "rtvirt host apply PROFILE" },
    { "governor", P | F, HOST, "the cpufreq scaling_governor of every CPU against the profile", "Documentation/admin-guide/pm/cpufreq.rst (scaling_governor)", "rtvirt host apply PROFILE" },
    { "governor.no-cpufreq", N, HOST, "no cpufreq on the host (or in the root): the governor cannot be set or checked", "Documentation/admin-guide/pm/cpufreq.rst", NULL },
    { "idle.deep-states", P | N | W | F, HOST | RESULT, "measured or isolated CPUs may enter idle states slower to leave than the profile allows (host check), or than a measurement should include (result check)", "Documentation/admin-guide/pm/cpuidle.rst (state latency, disable); Documentation/power/pm_qos_interface.rst (/dev/cpu_dma_latency)", "disable the deep idle states of the isolated CPUs ([cpu] idle_max_latency_us, rtvirt host apply PROFILE)" },
    { "idle.no-cpuidle", N, HOST, "no cpuidle states for the checked CPUs (or not in the root)", "Documentation/admin-guide/pm/cpuidle.rst", NULL },
    { "sysctl", P | N | F, HOST, "a [sysctl] key of the profile against the running kernel", "Documentation/admin-guide/sysctl/ (the key's file)", "rtvirt host apply PROFILE" },
    { "sysctl.absent", N, HOST, "a [sysctl] key of the profile does not exist on this kernel", "Documentation/admin-guide/sysctl/", NULL },
    { "module.param", P | N | F, HOST, "a [modules] parameter of the profile against /sys/module/M/parameters/P", "Documentation/ABI/stable/sysfs-module (/sys/module/M/parameters/P)", "set it in /etc/modprobe.d and reload the module (or reboot)" },
    { "module.absent", N, HOST, "the module of a [modules] parameter is not loaded, or has no such parameter", "/sys/module/M/parameters (Documentation/ABI/stable/sysfs-module)", NULL },
    { "state.problem", W, HOST, "a sysfs or proc value is malformed: the host could not be read as it is (exit 2)", "rtvirt host/facts/state.c (the value named)", "check the file named; a capture may be truncated" },
    /* ---- host check: per-CPU jitter and arguments that do not do what they seem (host/check/check-jitter.c) ---- */
    { "nohz_full.missing", N | W, HOST, "isolated CPUs are not nohz_full: the scheduling-clock tick keeps interrupting them at HZ (under a running vCPU, each tick is a VM exit); NOTE when the profile asks for isolcpus= and leaves nohz_full unset", "Documentation/timers/no_hz.rst (Omit Scheduling-Clock Ticks For CPUs With Only One Runnable Task); " KTHREADS " (ksoftirqd: SCHED_SOFTIRQ, RCU_SOFTIRQ); " KPARAMS " (nohz_full=)", "add nohz_full= and rcu_nocbs= with the isolated CPUs (a kernel with CONFIG_NO_HZ_FULL), then reboot" },
    { "skew_tick.missing", N, HOST, "nohz_full CPUs are booted without skew_tick=1: the housekeeping CPUs' ticks fire together and contend on timekeeping and RCU locks", KPARAMS " (skew_tick=: for jitter-sensitive RT/HPC loads)", NULL },
    { "rcu_nocb_poll.missing", N, HOST, "rcu_nocbs= without rcu_nocb_poll: offloaded CPUs still wake their rcuog kthreads themselves", KPARAMS " (rcu_nocb_poll: offloaded CPUs no longer wake the rcuo kthreads)", NULL },
    { "watchdog.on-isolated", W, HOST, "the lockup watchdog's per-CPU hrtimer (and NMI check) runs on isolated CPUs: watchdog_cpumask includes them while the soft or hard lockup detector is on", SYSCTL_KERNEL " (watchdog, soft_watchdog, nmi_watchdog, watchdog_cpumask); Documentation/admin-guide/lockup-watchdogs.rst; " KPARAMS " (nowatchdog, nosoftlockup)", "boot with nowatchdog (or nosoftlockup and nmi_watchdog=0), or write the housekeeping CPUs to /proc/sys/kernel/watchdog_cpumask" },
    { "idle.max-cstate-ignored", W, HOST, "a C-state limit on the command line binds another idle driver than the one in charge: processor.max_cstate= under intel_idle, or intel_idle.max_cstate=0 (acpi_idle takes over) without processor.max_cstate=: deep C-states stay in use", KPARAMS " (processor.max_cstate=, intel_idle.max_cstate=); Documentation/admin-guide/pm/cpuidle.rst (intel_idle and acpi_idle drivers); Documentation/admin-guide/pm/intel_idle.rst (max_cstate)", "give the limit of the driver in charge (intel_idle.max_cstate=N under intel_idle, processor.max_cstate=N under acpi_idle), or disable the deep states of the isolated CPUs ([cpu] idle_max_latency_us)" },
    { "idle.poll-smt", W, HOST, "idle=poll with SMT on: idle threads spin on the core their RT sibling uses", KPARAMS " (idle=); Documentation/arch/x86/x86_64/boot-options.rst (Idle loop: idle=poll and hyperthreading)", "drop idle=poll while SMT is on: limit C-states with [cpu] idle_max_latency_us or /dev/cpu_dma_latency, or turn SMT off" },
    { "clocksource.slow", W, HOST, "the clocksource is hpet, acpi_pm or jiffies instead of the TSC: every clock read is a slow device access, usually because the kernel marked the TSC unstable", KPARAMS " (clocksource=, tsc=reliable); Documentation/ABI/testing/sysfs-devices-system-clocksource (current_clocksource); kernel/time/clocksource.c (the clocksource watchdog)", "find why the TSC was refused (dmesg); with an invariant TSC the firmware leaves alone, boot with tsc=reliable" },
    /* ---- host check: threads (host/check/check-threads.c) ---- */
    { "kthread.priority", P | N | F, HOST, "kernel threads named in [kthreads] against the policy and priority the profile wants", KTHREADS " (ksoftirqd, rcuc, ktimers); " TUNED_RT " ([scheduler])", "rtvirt host apply PROFILE" },
    { "kthread.absent", N, HOST, "no kernel threads of a [kthreads] name on this kernel (ktimers: PREEMPT_RT only; rcuc: rcu_nocbs)", KTHREADS, NULL },
    /* ---- host check: libvirt (host/check/check-libvirt.c) ---- */
    { "rtgroup.trap", F, HOST, "CONFIG_RT_GROUP_SCHED with a cgroup v1 cpu hierarchy: the groups libvirt creates get cpu.rt_runtime_us = 0, so vCPUs cannot be made SCHED_FIFO", "Documentation/scheduler/sched-rt-group.rst (cpu.rt_runtime_us of new groups); libvirt src/qemu/qemu.conf (cgroup_controllers)", "leave \"cpu\" out of qemu.conf cgroup_controllers, or boot with cgroup v2 or a kernel without CONFIG_RT_GROUP_SCHED" },
    { "rtgroup.cgroup2", F, HOST, "CONFIG_RT_GROUP_SCHED with the cpu controller enabled on cgroup v2: groups it reaches have no RT runtime and v2 cannot give them any, so SCHED_FIFO vCPUs fail with EPERM", "Documentation/admin-guide/cgroup-v2.rst (CPU: with CONFIG_RT_GROUP_SCHED the controller needs every RT task in the root cgroup); __sched_setscheduler() in kernel/sched/core.c, kernel/sched/syscalls.c since 6.10 (EPERM for a group without RT runtime while sched_rt_runtime_us >= 0)", "boot a kernel without CONFIG_RT_GROUP_SCHED, keep the cpu controller out of the cgroup v2 hierarchy, or set kernel.sched_rt_runtime_us = -1" },
    { "rtgroup.avoided", P, HOST, "RT group scheduling on cgroup v1, but qemu.conf leaves \"cpu\" out of cgroup_controllers", "Documentation/scheduler/sched-rt-group.rst; libvirt src/qemu/qemu.conf (cgroup_controllers)", NULL },
    { "rtgroup.none", P, HOST, "no RT-group trap: libvirt can give vCPUs SCHED_FIFO", "Documentation/scheduler/sched-rt-group.rst", NULL },
    { "rtgroup.unknown", N, HOST, "whether RT group scheduling blocks SCHED_FIFO vCPUs is unknown", "Documentation/scheduler/sched-rt-group.rst", NULL },
    { "libvirt.sched-core", P | N | F, HOST, "qemu.conf sched_core against the profile's [libvirt] sched_core", "libvirt src/qemu/qemu.conf (sched_core); " CORESCHED, "rtvirt host apply PROFILE (writes qemu.conf and restarts libvirtd)" },
    { "libvirt.sched-core-unsupported", F, HOST, "qemu.conf sets sched_core but the kernel has no core scheduling: libvirt's QEMU driver refuses the file", "libvirt src/qemu/qemu_conf.c ('SCHED_CORE not supported by kernel')", "set sched_core = \"none\" in qemu.conf, or boot a kernel with CONFIG_SCHED_CORE" },
    { "libvirt.cgroup-controllers", P | F, HOST, "qemu.conf cgroup_controllers against the profile's [libvirt] cgroup_controllers", "libvirt src/qemu/qemu.conf (cgroup_controllers)", "rtvirt host apply PROFILE" },
    { "libvirt.qemu-conf-unknown", N, HOST, "libvirt's qemu.conf could not be read or parsed as libvirt does: its settings not checked", "libvirt src/util/virconf.c (the qemu.conf syntax)", NULL },
    /* ---- host check: tuned (host/tuned/) ---- */
    { "tuned.profile", N, HOST, "the profile checked is a tuned profile, read as tuned reads it (includes merged, variables expanded)", "tuned tuned/profiles/loader.py, merger.py, variables.py", NULL },
    { "tuned.unmapped", N, HOST, "a setting of the tuned profile that rtvirt does not judge", "tuned tuned/profiles/loader.py; the plugin of the setting (tuned/plugins/)", NULL },
    { "tuned.approximated", N, HOST, "a setting of the tuned profile that rtvirt judges only approximately", "tuned tuned/plugins/plugin_bootloader.py, plugin_scheduler.py", NULL },
    { "tuned.running", N, HOST, "tuned runs on the host (rtvirt host apply refuses to run beside it without --force)", "tuned tuned-adm.8 (active)", NULL },
    { "tuned.active-profile", N, HOST, "tuned does not run, but has an active profile (applied when it starts), or it could not be read", "tuned tuned-adm.8 (active); /etc/tuned/active_profile", NULL },
    { "tuned.conflict", W, HOST, "tuned's active profile sets a knob of the profile to another value: the two tools fight", "tuned tuned/plugins/ (the plugin of the knob)", "leave the knob to one tool: drop it from one profile, or run the rtvirt profile through tuned (rtvirt host export-tuned)" },
    { "tuned.overlap", N, HOST, "tuned's active profile sets some of the profile's knobs to the same values", "tuned tuned/plugins/", NULL },
    /* ---- guest check, guest xml --check: the domain XML (guest/check.c) ---- */
    { "placement.offline-cpu", F, GUEST, "a vCPU or the emulator threads are pinned to a CPU this host does not have online", FORMATDOMAIN " (CPU Tuning: vcpupin, emulatorpin)", "pin to CPUs this host has online (lscpu -e)" },
    { "placement.rt-unpinned", F, GUEST, "an RT vCPU (FIFO/RR <vcpusched>) is not pinned", KBASE_RT " (vcpupin of each RT vCPU); " FORMATDOMAIN " (CPU Tuning)", "give every RT vCPU <vcpupin vcpu='N' cpuset='CPU'/> with one isolated CPU of its own" },
    { "placement.rt-multi-cpu", F, GUEST, "an RT vCPU is pinned to more than one host CPU", KBASE_RT " (one host CPU per RT vCPU)", "pin each RT vCPU to exactly one isolated host CPU" },
    { "placement.cpu-shared", F, GUEST, "a host CPU of an RT vCPU is shared with another vCPU", KBASE_RT " (one host CPU per RT vCPU)", "give each RT vCPU a host CPU that no other vCPU may use" },
    { "placement.emulator-unpinned", F, GUEST, "the emulator threads are not pinned while RT vCPUs are: they may run on the RT vCPUs' CPUs", KBASE_RT " (emulatorpin); " FORMATDOMAIN " (emulatorpin)", "add <emulatorpin cpuset='HOUSEKEEPING CPUS'/> to <cputune>" },
    { "placement.emulator-on-rt", F, GUEST, "the emulator threads are pinned to CPUs that RT vCPUs use", KBASE_RT " (emulatorpin apart from the RT vCPUs)", "move <emulatorpin> to housekeeping CPUs, apart from the RT vCPUs" },
    { "placement.not-isolated", F, GUEST, "an RT vCPU is pinned to a host CPU that is not isolated", KBASE_RT " (isolcpus= for the RT vCPUs' CPUs); " KPARAMS " (isolcpus=)", "isolate the CPU at boot (rtvirt host bootargs) or pin the RT vCPU to an isolated CPU" },
    { "placement.sibling-busy", W, GUEST, "an RT vCPU's SMT sibling runs other work", CORESCHED "; rtvirt guest/placement.h (host_sibling = idle)", "keep the sibling idle, give the guest the whole core (threads='2'), or tag the VM with core scheduling" },
    { "placement.note", N, GUEST, "a placement remark: RT vCPUs spread over nodes, a core shared with non-isolated CPUs, emulator threads on isolated CPUs", "rtvirt guest/placement.h; OpenStack Nova hw:emulator_threads_policy", NULL },
    { "placement.emulator-housekeeping", P, GUEST, "the emulator threads are on housekeeping CPUs", KBASE_RT, NULL },
    { "placement.emulator-apart", P, GUEST, "the emulator threads are pinned apart from the RT vCPUs", KBASE_RT, NULL },
    { "placement.isolated", P, GUEST, "the RT vCPUs are on isolated CPUs", KBASE_RT, NULL },
    { "placement.rt-pinned", P, GUEST, "the RT vCPUs are pinned 1:1", KBASE_RT, NULL },
    { "placement.no-rt", P, GUEST, "the domain has no RT vCPU (no FIFO/RR <vcpusched>)", FORMATDOMAIN " (vcpusched)", NULL },
    { "placement.rule", P | W | F, GUEST, "a placement rule of guest/placement.h without an id of its own (each has one: this id means a new rule needs its line)", "rtvirt guest/placement.h", NULL },
    { "topology.vcpu-count", P | F, GUEST, "<topology> sockets x dies x clusters x cores x threads against <vcpu>", FORMATDOMAIN " (CPU model and topology: the product is the maximum vCPU count)", "make the <topology> product equal to <vcpu>" },
    { "topology.smt-siblings", P | W | F, GUEST, "the vCPUs of one guest core (threads > 1) against the host cores they are pinned to", FORMATDOMAIN " (CPU model and topology); QEMU hw/core/machine.c (vCPUs numbered thread-first)", "pin the vCPUs of each guest core to the SMT siblings of one host core, or set <topology threads='1'>" },
    { "topology.hidden-siblings", N, GUEST, "two vCPUs are SMT siblings on the host but separate cores in the guest (threads=1)", FORMATDOMAIN " (CPU model and topology); " CORESCHED, "set <topology threads='2'> with these vCPUs adjacent" },
    { "topology.foreign-vcpu-cpu", F, GUEST, "an RT vCPU's host CPU is pinned for another domain's vCPU as well", KBASE_RT " (one host CPU per RT vCPU)", "give the RT vCPU a host CPU that no other guest's vCPU is pinned to" },
    { "topology.foreign-vcpu-sibling", W, GUEST, "an RT vCPU's SMT sibling carries another domain's vCPU", CORESCHED " (siblings share a core's execution units)", "keep the RT vCPU's sibling idle or for this guest, or give the VMs core-scheduling cookies of their own" },
    { "vcpu.isolated-not-rt", W, GUEST, "the guest kernel isolates a vCPU (isolcpus=/nohz_full= in <os><cmdline>) that has no FIFO/RR <vcpusched>", KBASE_RT " (vcpusched fifo for the RT vCPUs); " KPARAMS " (isolcpus=, nohz_full=)", "add <vcpusched vcpus='N' scheduler='fifo' priority='P'/>, or drop the vCPU from the guest's isolcpus=/nohz_full=" },
    { "features.pmu-rt", P | W, GUEST, "a domain with RT vCPUs keeps the virtual PMU on (no <features><pmu state='off'/>)", "KubeVirt pkg/virt-launcher/virtwrap/converter/vcpu/vcpu.go (realtime: PMU off); OpenStack Nova hw:pmu (nova/api/validation/extra_specs/hw.py); " FORMATDOMAIN " (Hypervisor features: pmu)", "add <pmu state='off'/> to <features>" },
    { "memory.rt-shared-pages", P | W, GUEST, "a domain with RT vCPUs has memory KSM may merge: no <memoryBacking><nosharepages/> and no hugepages", "OpenStack Nova nova/virt/libvirt/driver.py _get_guest_memory_backing_config() (real-time: locked, no shared pages); KubeVirt vcpu.go (realtime: NoSharePages); Documentation/admin-guide/mm/ksm.rst; " FORMATDOMAIN " (Memory Backing: nosharepages)", "add <memoryBacking><nosharepages/>, back the guest with hugepages, or stop KSM (/sys/kernel/mm/ksm/run = 2)" },
    /* ---- guest check: the running domain's threads (guest/verify.c) ---- */
    { "vcpu.pin-past", W, GUEST, "a <vcpupin> names a vCPU past <vcpu>: libvirt ignores it (a log warning), so the pin is never applied; rtvirt warns", LIBVIRT_SRC "src/conf/domain_conf.c virDomainVcpuPinDefParseXML() (\"Ignoring vcpupin for missing vcpus\")", "drop the <vcpupin> or raise <vcpu>" },
    { "vcpu.priority-range", F, GUEST, "a FIFO/RR <vcpusched> priority outside 1-99: libvirt reads any integer but cannot start the domain; rtvirt is stricter and says so before the start", LIBVIRT_SRC "src/util/virprocess.c virProcessSetScheduler() (\"Scheduler priority out of range\"); sched(7)", "give <vcpusched> a priority of 1-99" },
    { "iothread.rt-cpu", P | F, GUEST, "an I/O thread may run on an RT vCPU's host CPU: pinned there, or unpinned (libvirt 9.0 gives an unpinned I/O thread <vcpu cpuset>, else every online CPU, not the emulator's CPUs)", LIBVIRT_SRC "src/qemu/qemu_process.c qemuProcessSetupPid(), qemuProcessGetAllCpuAffinity(); " FORMATDOMAIN " (iothreadpin)", "pin every I/O thread to housekeeping CPUs: <iothreadpin iothread='N' cpuset='CPUS'/>" },
    { "memory.numa-node", F, GUEST, "<numatune> binds the guest memory to a NUMA node this host does not have: the domain cannot start", FORMATDOMAIN " (NUMA Node Tuning); Documentation/ABI/stable/sysfs-devices-node (node/online)", "bind the memory to nodes this host has (numactl -H)" },
    { "memory.numa-rt-node", P | W, GUEST, "<numatune> binds the guest memory to other nodes than the RT vCPUs' node, or interleaves it, or (several host nodes, the RT vCPUs on one) there is no <numatune>", KBASE_RT " (memory on the RT vCPUs' node); " FORMATDOMAIN " (NUMA Node Tuning); Documentation/admin-guide/mm/numa_memory_policy.rst (the default policy: local to the allocating thread)", "bind the memory to the RT vCPUs' node: <numatune><memory mode='strict' nodeset='N'/>" },
    { "memory.hugepage-size", P | F, GUEST, "a <hugepages> page size the host has no pool of, or fewer pages reserved (on the bound node) than <memory> needs", FORMATDOMAIN " (Memory Backing: hugepages); Documentation/admin-guide/mm/hugetlbpage.rst", "use a page size the host has, and reserve the pages before starting the domain" },
    { "memory.not-locked", P | W, GUEST, "a domain with RT vCPUs without <memoryBacking><locked/>", KBASE_RT " (<locked/>); " FORMATDOMAIN " (Memory Backing: locked)", "add <memoryBacking><locked/></memoryBacking>" },
    { "cputune.resctrl", N, GUEST, "<cachetune>/<memorytune> (resctrl cache and memory bandwidth allocation): noted, not judged", FORMATDOMAIN " (CPU Tuning: cachetune, memorytune)", NULL },
    { "vcpu.isolated-not-fifo", F, LIVE, "a vCPU the guest isolates runs a thread that is not FIFO/RR on the host", KBASE_RT "; Documentation/scheduler/sched-rt-group.rst (the RT-group trap)", "give the vCPU <vcpusched scheduler='fifo'>; when libvirt refuses it, fix the host first (host check rtgroup.trap)" },
    { "vcpu.threads", F, LIVE, "the domain's vCPU thread count differs from its XML", "QEMU QMP query-cpus-fast; libvirt status XML <vcpus>", "check that this is the right domain" },
    { "vcpu.affinity", P | F, LIVE, "a vCPU thread's CPU affinity against <vcpupin>", FORMATDOMAIN " (vcpupin); proc(5) /proc/PID/status Cpus_allowed_list", "virsh vcpupin DOMAIN N CPU, or restart the domain" },
    { "vcpu.scheduler", P | F, LIVE, "a vCPU thread's policy and priority against <vcpusched>", FORMATDOMAIN " (vcpusched); proc(5) /proc/PID/stat policy, rt_priority", "restart the domain once the host lets libvirt set FIFO (host check rtgroup.trap)" },
    { "emulator.affinity", P | F, LIVE, "an emulator thread's CPU affinity against <emulatorpin>", FORMATDOMAIN " (emulatorpin)", "virsh emulatorpin DOMAIN CPUS, or restart the domain" },
    { "iothread.affinity", P | F, LIVE, "an I/O thread's CPU affinity against <iothreadpin>", FORMATDOMAIN " (iothreadpin)", "virsh iothreadpin DOMAIN ID CPUS, or restart the domain" },
    { "kthread.placement", P | W, LIVE, "a KVM helper thread (kvm-pit, vhost) runs on housekeeping CPUs, or on the vCPUs' CPUs above the RT vCPUs' priority", "arch/x86/kvm/i8254.c (the kvm-pit/PID worker); drivers/vhost/vhost.c (vhost-PID workers); " KBASE_RT, "pin it to housekeeping CPUs (taskset -pc), or raise it above the RT vCPUs (chrt -f -p)" },
    { "memory.locked", P | F, LIVE, "the QEMU process's locked memory (VmLck) against <memoryBacking><locked/>", FORMATDOMAIN " (Memory Backing: locked); Documentation/filesystems/proc.rst (VmLck)", "let libvirt raise RLIMIT_MEMLOCK for <locked/> (CAP_SYS_RESOURCE)" },
    { "memory.hugepages", P | F, LIVE, "the QEMU process's hugepage memory (HugetlbPages) against <memoryBacking><hugepages/>", FORMATDOMAIN " (Memory Backing: hugepages); Documentation/filesystems/proc.rst (HugetlbPages)", "reserve hugepages on the host (vm.nr_hugepages, hugepages= at boot) before starting the domain" },
    /* ---- result check (results/judge.c) ---- */
    { "input.multiple-runs", N, RESULT, "several result sets in one file: each is judged on its own", "rtvirt results/cyclictest.c (one run per invocation)", NULL },
    { "input.note", N, RESULT, "what the parser noticed: rows elided, a histogram that does not add up, a probe's warning", "rtvirt results/cyclictest.c", NULL },
    { "output.histogram-absent", W, RESULT, "-h N was asked but no histogram is in the output: the output was cut or the run interrupted", CYCLICTEST " (the histogram is printed when the run ends)", "keep the whole output; with -h the histogram is printed at the end (-D or SIGINT)" },
    { "rt.policy-other", F, RESULT, "the measurement ran SCHED_OTHER (P:0, policy other): its latencies say nothing about RT latency", CYCLICTEST " process_options() (-p N gives SCHED_FIFO)", "run cyclictest with -p N (SCHED_FIFO, above the threaded IRQs, e.g. 95)" },
    { "rt.priority-defaulted", W, RESULT, "cyclictest printed 'defaulting realtime priority to N': -p was missing, 0 or not a number (e.g. '-smp -p 98')", CYCLICTEST " process_options()", "give -p N as its own word ('-S -m -p 98', not '-smp -p 98')" },
    { "rt.priority-mismatch", P | W, RESULT, "the threads' P: priority against the one asked (--priority, or -p of the command line)", CYCLICTEST " (P: of the status line)", "check the priority the wrapper passes to cyclictest -p" },
    { "rt.priority-below-irq", W, RESULT, "the measurement ran at or below the threaded IRQs (FIFO 50 by default): every interrupt on a measured CPU preempts it", "kernel/irq/manage.c setup_irq_thread() (sched_set_fifo: MAX_RT_PRIO / 2)", "run the measurement above the threaded IRQs (cyclictest -p 95)" },
    { "rt.priority-unknown", N, RESULT, "the output shows no P: priority (quiet histogram, JSON, oslat): the priority is not verified", CYCLICTEST, NULL },
    { "rt.kthread-above", W, RESULT, "RT kernel threads above the measurement's priority may run on the measured CPUs", KTHREADS "; kernel/irq/manage.c", "raise the measurement's priority or move/lower those kthreads (host profile [kthreads])" },
    { "cpus.not-measured", P | N | F, RESULT, "CPUs that should have been measured (--cpus, or the isolated CPUs with --root) against the CPUs the threads ran on", CYCLICTEST " (-a LIST round robin; -S uses the affinity mask, which isolcpus= shrinks); " KPARAMS " (isolcpus=)", "pin one thread to each CPU to measure: cyclictest -a LIST -t N" },
    { "cpus.outside", W, RESULT, "threads also ran on CPUs outside the ones to measure", CYCLICTEST " (-a LIST)", "pin the threads to the CPUs to measure only" },
    { "cpus.unpinned", W, RESULT, "the threads were not pinned (no -a, no -S): the measured CPUs are unknown", CYCLICTEST " (-a, -S)", "pin the threads: cyclictest -a LIST -t N" },
    { "cpus.unknown", N, RESULT, "the output does not tell which CPUs were measured (only --json, or -a in the command line, does)", CYCLICTEST " (--json \"cpu\")", NULL },
    { "smt.sibling-main-thread", W, RESULT, "cyclictest's main thread may run on a measured CPU or its SMT sibling (-a without --mainaffinity restricts it to the -a mask)", CYCLICTEST " main() (--mainaffinity, rt-tests >= 2.2)", "put the main thread on a housekeeping CPU of another core: --mainaffinity=CPU" },
    { "smt.sibling-load", W, RESULT, "an SMT sibling of a measured CPU is a housekeeping CPU: any load there shared the measured core", CORESCHED, "isolate whole cores (both siblings), or switch SMT off (nosmt)" },
    { "histogram.beyond-range", W, RESULT, "samples fell beyond the histogram: the max comes from '# Max Latencies', the percentiles beyond the range are unknown", CYCLICTEST " (-h N: overflows)", "size the histogram past the budget (-h 1000)" },
    { "kernel.timer-migration", W, RESULT, "measured on a non-RT kernel with timer_migration=1: timers of a measured CPU can expire elsewhere and be pulled back", SYSCTL_KERNEL " (timer_migration)", "sysctl kernel.timer_migration=0, or a PREEMPT_RT kernel" },
    { "kernel.not-rt", N, RESULT, "measured on a kernel without PREEMPT_RT", CYCLICTEST " (--json sysinfo \"realtime\"); kernel/ksysfs.c (/sys/kernel/realtime)", NULL },
    { "run.stopped", W | F, RESULT, "the run ended early (a stop threshold: cyclictest -b, oslat -T, rtla -a/-T/-s; an interruption) or printed no result: its statistics cover part of the run", CYCLICTEST " (-b: '# Break thread'); rt-tests src/oslat/oslat.c (-T: 'Stopping the test'); Documentation/tools/rtla/common_timerlat_aa.rst ('hit stop tracing'); rt-tests src/hwlatdetect/hwlatdetect.py ('test finished', 'interrupted')", "measure without a stop threshold and let the run reach its duration; keep the whole output" },
    { "run.short", W, RESULT, "the run measured (or was asked to run) under a minute: too short to meet the rare events a worst case is made of", "rtvirt results/judge.c (RUN_SHORT_S); OpenShift cnf-tests latency tests (LATENCY_TEST_RUNTIME, minutes to hours)", "measure for minutes at least (cyclictest/oslat -D 10m, rtla -d 10m), hours for a release figure" },
    { "mem.not-locked", W, RESULT, "cyclictest ran without -m/--mlockall: page faults and reclaim during the run are in its latencies", CYCLICTEST " main() (mlockall() only with -m)", "add -m (--mlockall) to the cyclictest command line" },
    { "threshold.raised", W, RESULT, "hwlatdetect's threshold (or --hardlimit) is above the budget, or without one above 20 us (the kernel's default is 10 us, OpenShift's runner 20 us): gaps below it were not recorded, 'Below threshold' proves little", "kernel/trace/trace_hwlat.c (DEFAULT_LAT_THRESHOLD); rt-tests src/hwlatdetect/hwlatdetect.py (--threshold, --hardlimit); OpenShift cnf-tests hwlatdetect-runner (20 us)", "run hwlatdetect with the default threshold, or the budget, and no --hardlimit above it" },
    { "hwlat.exceeded", F, RESULT, "hwlatdetect recorded gaps above its threshold: firmware (SMIs) or hardware stalled the CPUs with interrupts off", "Documentation/trace/hwlat_detector.rst; rt-tests src/hwlatdetect/hwlatdetect.py (exit status)", "find the firmware or hardware source (BIOS power and thermal settings, SMIs: cyclictest --smi)" },
    { "stats.partial", N | W, RESULT, "the statistics sampled part of the run: hwlatdetect width/window, osnoise runtime/period, stress-ng cyclic's sample cap (first --cyclic-samples wakeups only)", "Documentation/trace/hwlat_detector.rst (width, window); Documentation/trace/osnoise-tracer.rst (runtime_us, period_us); stress-ng stress-cyclic.c (DEFAULT_SAMPLES)", "raise stress-ng --cyclic-samples to the run's wakeups; widen hwlat width / osnoise runtime where the whole time matters" },
    { "vm.guest", N | W, RESULT, "measured inside a virtual machine (--root's /proc/cpuinfo 'hypervisor' flag): hwlatdetect there measures the host's preemption of the vCPU, not the hardware", "Documentation/trace/hwlat_detector.rst; arch/x86/include/asm/cpufeatures.h (X86_FEATURE_HYPERVISOR)", "run hwlatdetect on the host; compare guest measurements with guest runs only" },
    { "latency.budget", P | F, RESULT, "the largest max latency against --budget (a budget without a max in the output is a FAIL)", "rtvirt result check --budget", "find what ran on the CPU: rtvirt host check, tracing (rtla timerlat)" },
};

const RvRule *
rv_rules(guint *ret_n)
{
    *ret_n = G_N_ELEMENTS(rules);
    return rules;
}

const RvRule *
rv_rule_find(const char *id)
{
    for (size_t i = 0; id && i < G_N_ELEMENTS(rules); i++)
        if (strcmp(rules[i].id, id) == 0)
            return &rules[i];
    return NULL;
}

const char *
rv_rule_command_name(RvRuleCommand command)
{
    switch (command) {
    case RV_RULE_HOST_CHECK: return "host check";
    case RV_RULE_GUEST_CHECK: return "guest check";
    case RV_RULE_GUEST_XML: return "guest xml --check";
    case RV_RULE_RESULT_CHECK: return "result check";
    }
    return NULL;
}

bool
rv_rule_check(const char *id, RvFindingLevel level)
{
    const RvRule *r = rv_rule_find(id);

    return r && (unsigned) level < RV_FINDING_N_LEVELS && (r->levels & RV_RULE_LEVEL(level));
}
