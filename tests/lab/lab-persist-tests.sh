# SPDX-License-Identifier: LGPL-2.1-or-later
#
# lab-persist-tests.sh: `rtvirt host apply --persist` across a real reboot
# of the lab VM ("after --persist a reboot of the lab VM
# comes up tuned"; and the kexec reboot).  Sourced by lab-tests.sh as its
# last step (boot 1), run by /init after the reboot (boot 2).  busybox sh.
#
# Boot 1: /etc's tree is recorded, `host apply --persist /lab/persist.ini`
#   writes /etc/sysctl.d/60-rtvirt.conf and rtvirt-host-apply.service (and
#   changes the knobs now); then lab-reboot.sh kexecs into the same kernel
#   with one more argument.  The lab has no systemd: /init plays its part
#   at boot 2 (systemd-sysctl on /etc/sysctl.d/*.conf, then ExecStart= of
#   each unit enabled in multi-user.target.wants), from the /etc that
#   lab-reboot.sh saved to the state disk, as a disk root would keep it.
# Boot 2: the kernel runs with the new argument, the knobs are as the
#   profile says without anyone applying them by hand, `host check` passes,
#   and `host revert` leaves /etc as boot 1 found it.
. /lab/tap.sh
S=/lab/state
P=/lab/persist.ini
T=/proc/sys/kernel/timer_migration
IA=/proc/irq/default_smp_affinity
# check_knobs OUTPUT-OF-host-check--verbose: the persisted sysctls PASS
# (the IRQ default affinity is read directly: host check reports where
# IRQs are delivered, not the default) and
# the only FAIL is irq.on-isolated: on x86 an IRQ's effective affinity
# follows a new smp_affinity only at its next interrupt, and the lab's
# serial and ACPI IRQs may not fire between apply and check
check_knobs() {
	echo "$1" | grep -Eq '^ *PASS +timer_migration:' &&
		echo "$1" | grep -Eq '^ *PASS +sysctl: sysctl vm.stat_interval is 10' &&
		[ -z "$(echo "$1" | grep -E '^ *FAIL +' | grep -Ev '^ *FAIL +irq.on-isolated:')" ]
}
if ! grep -q 'rtvirt\.lab_boot=' /proc/cmdline; then
	mkdir -p $S
	etc_tree >$S/etc.before
	cat $T >$S/timer_migration.before
	cat $IA >$S/irq_affinity.before
	out=$(rtvirt host apply --persist $P 2>&1); rc=$?
	echo "$out" | diag
	# exit 1 is its closing host check (see check_knobs), not a failed change
	[ $rc -le 1 ] && echo "$out" | grep -q '^apply: [0-9]* changed, .* 0 failed$'
	check "host apply --persist lab persist.ini changed the knobs, none failed (exit $rc)" $?
	grep -qx 'kernel.timer_migration = 0' /etc/sysctl.d/60-rtvirt.conf 2>/dev/null &&
		grep -qx 'vm.stat_interval = 10' /etc/sysctl.d/60-rtvirt.conf
	check "--persist wrote the sysctls to /etc/sysctl.d/60-rtvirt.conf" $?
	u=/etc/systemd/system/rtvirt-host-apply.service
	grep -qx "ExecStart=/usr/bin/rtvirt host apply $P" $u 2>/dev/null &&
		[ -L /etc/systemd/system/multi-user.target.wants/rtvirt-host-apply.service ]
	check "--persist wrote rtvirt-host-apply.service (ExecStart host apply $P) and enabled it" $?
	echo $n >$S/n
	echo "# rebooting (kexec) into the lab kernel with rtvirt.lab_extra=persist"
	sh /lab/lab-reboot.sh rtvirt.lab_extra=persist 2>&1 | diag
	notok "the lab VM rebooted with kexec (lab-reboot.sh returned)"
	# next: a run across a reboot (it reboots; boot 3 prints the plan)
. /lab/lab-resume-tests.sh
	exit 1
fi

# ---- boot 2 ------------------------------------------------------------------
n=$(cat $S/n 2>/dev/null || echo 0)
echo "# lab VM after the reboot: $(cat /proc/cmdline)"
diag <$S/boot.log
grep -q 'rtvirt\.lab_boot=2' /proc/cmdline && grep -q 'rtvirt\.lab_extra=persist' /proc/cmdline
check "the reboot took the new kernel argument (rtvirt.lab_extra=persist in /proc/cmdline)" $?
[ "$(cat $T)" = 0 ] && [ "$(cat /proc/sys/vm/stat_interval)" = 10 ]
check "came up tuned: timer_migration $(cat $T), vm.stat_interval $(cat /proc/sys/vm/stat_interval) from /etc/sysctl.d at boot" $?
grep -Eq '^unit exit [01]$' $S/boot.log && grep -q '^apply: [0-9]* changed, .* 0 failed$' $S/boot.log
check "rtvirt-host-apply.service ran at boot: host apply with no failed change ($(grep '^unit exit' $S/boot.log))" $?
# the kernel boots with every CPU in it (the lab passes no irqaffinity=)
[ "$(cat $S/irq_affinity.before)" != 3 ] && [ "$(cat $IA)" = 3 ]
check "the unit applied the IRQ affinity: default_smp_affinity $(cat $IA) (housekeeping 0-1; $(cat $S/irq_affinity.before) when the kernel booted)" $?
out=$(rtvirt host check --verbose $P 2>&1); rc=$?
echo "$out" | diag
check_knobs "$out"
check "host check after the reboot: timer_migration and vm.stat_interval PASS, no FAIL but irq.on-isolated (exit $rc)" $?
out=$(rtvirt host revert 2>&1); rc=$?
echo "$out" | diag
check "host revert exits 0" $rc
etc_tree >/tmp/etc.after
diff $S/etc.before /tmp/etc.after | diag
cmp -s $S/etc.before /tmp/etc.after
check "after host revert /etc is as boot 1 found it (paths, modes, contents)" $?
[ "$(cat $T)" = "$(cat $S/timer_migration.before)" ] && [ "$(cat $IA)" = "$(cat $S/irq_affinity.before)" ]
check "and timer_migration ($(cat $T)) and default_smp_affinity ($(cat $IA)) are back" $?
# next: a run across a reboot (it reboots; boot 3 prints the plan)
. /lab/lab-resume-tests.sh
