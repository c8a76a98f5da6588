# SPDX-License-Identifier: LGPL-2.1-or-later
#
# lab-resume-tests.sh: `rtvirt run` of a matrix whose scenarios differ in
# boot arguments, across a real reboot of the lab VM.
# Sourced at the end of boot 2 (lab-persist-tests.sh), run by /init at
# boot 3.  busybox sh.
#
# Boot 2: the lab plays grub: /etc/default/grub holds the lab's command
#   line and the lab's update-grub writes what a boot would use to
#   /lab/state/grub.cmdline.  `rtvirt run reboot.ini` measures as-booted,
#   installs rtvirt.lab_scenario=b as its grub.d drop-in (update-grub) and
#   its resume unit, and is stopped there by SIGINT (RV_TEST_KILL_AT=
#   installed:1:INT, before the reboot command): the boot loader as before,
#   resumable; `run --resume` installs them again and is killed there
#   (SIGKILL: the drop-in stays, resume.json names this boot's boot_id);
#   the next `run --resume`, under the same boot_id, keeps as-booted,
#   installs them again and reboots through RTVIRT_REBOOT_CMD =
#   lab-reboot.sh --grub (kexec with grub.cmdline).
# Boot 3: /init runs the enabled rtvirt-run-resume.service (ExecStart=
#   rtvirt run --resume STORE), which measures scenario rebooted and puts
#   the boot arguments back; then the checks below.
. /lab/tap.sh
S=/lab/state
R=/var/lib/rtvirt/lab-results
# one JSON object of run.json's verifications per line (json-glib prints
# each member on its own line; busybox has no JSON tool)
verifications() {
	tr -d '\n' <"$1/run.json" | sed 's/"verifications" *: *\[/\n/' | sed -n '2p' |
		sed 's/} *, *{/}\n{/g'
}

if ! grep -q 'rtvirt\.lab_boot=3' /proc/cmdline; then
	update-grub 2>&1 | diag
	cp $S/grub.cmdline $S/grub.cmdline.orig
	etc_tree >$S/etc.before-run
	export RTVIRT_REBOOT_CMD="sh /lab/lab-reboot.sh --grub"
	echo "# rtvirt run reboot.ini: as-booted now, then stopped by SIGINT after installing rtvirt.lab_scenario=b"
	RV_TEST_KILL_AT=installed:1:INT rtvirt run --out $R /lab/reboot.ini >$S/run0.out 2>&1
	rc=$?
	diag <$S/run0.out
	store=$(ls -d $R/*-lab-reboot 2>/dev/null | head -n 1)
	[ $rc -eq 2 ] && [ -n "$store" ] && [ -e "$store/resume.json" ] && cmp -s $S/grub.cmdline $S/grub.cmdline.orig &&
		[ ! -e /etc/default/grub.d/rtvirt-run.cfg ] && [ ! -e /etc/systemd/system/rtvirt-run-resume.service ]
	check "SIGINT after the install, before the reboot: exit 2 ($rc), no reboot, the boot loader as before, resume.json kept" $?
	rtvirt status 2>&1 | grep "^run:" | diag
	rtvirt status 2>&1 | grep -q "^run: $store (.*): stopped, 1 of 2 repetitions done (0 failed): 'rtvirt run --resume $store' continues it"
	check "rtvirt status: the run stopped, 1 of 2 done, the command that continues it" $?
	RV_TEST_KILL_AT=installed:1:KILL rtvirt run --resume $store >$S/run1.out 2>&1
	rc=$?
	diag <$S/run1.out
	[ $rc -eq 137 ] && [ -e /etc/default/grub.d/rtvirt-run.cfg ] &&
		grep -q "\"installed_boot_id\" *: *\"$(cat /proc/sys/kernel/random/boot_id)\"" $store/resume.json
	check "--resume installs rtvirt.lab_scenario=b again; SIGKILL there ($rc) leaves it, resume.json names this boot's boot_id" $?
	echo $n >$S/n
	echo "# rtvirt run --resume: the same boot_id, so install again and reboot"
	rtvirt run --resume $store >$S/run2.out 2>&1
	rc=$?
	diag <$S/run2.out
	notok "rtvirt run --resume rebooted the lab VM (it returned, exit $rc)"
	echo "1..$n"
	exit 1
fi

# ---- boot 3 ------------------------------------------------------------------
n=$(cat $S/n 2>/dev/null || echo 0)
echo "# lab VM after the run's reboot: $(cat /proc/cmdline)"
diag <$S/boot.log
store=$(ls -d $R/*-lab-reboot 2>/dev/null | head -n 1)
grep -q 'rtvirt\.lab_scenario=b' /proc/cmdline && [ "$(sed 's/ rtvirt.lab_scenario=b//' $S/grub.cmdline.orig)" = "$(cat $S/grub.cmdline.orig)" ]
check "the run rebooted through the boot loader with its scenario's argument (rtvirt.lab_scenario=b in /proc/cmdline)" $?
grep -q '^unit .*rtvirt-run-resume.service: .*rtvirt run --resume ' $S/boot.log &&
	grep -A1000 'rtvirt-run-resume.service' $S/boot.log | grep -q '^unit exit 0$'
check "rtvirt-run-resume.service ran rtvirt run --resume at boot and exited 0" $?
[ -n "$store" ] && grep -q '"complete" *: *true' "$store/run.json"
check "the run is complete (${store:-no store})" $?
v=$(verifications "$store" 2>/dev/null | grep '"what" *: *"boot"')
echo "$v" | diag
echo "$v" | grep '"scenario" *: *"as-booted"' | grep -v 'rtvirt.lab_scenario=b' | grep -q '"status" *: *"PASS\|"status" *: *"NOTE'
check "as-booted measured under the lab's own command line" $?
echo "$v" | grep '"scenario" *: *"rebooted"' | grep 'proc/cmdline: .*rtvirt.lab_scenario=b' | grep -q '"status" *: *"PASS\|"status" *: *"NOTE'
check "rebooted measured under the command line with rtvirt.lab_scenario=b" $?
out=$(rtvirt compare $store 2>&1); rc=$?
echo "$out" | diag
[ $rc -eq 0 ] && echo "$out" | grep -Eq '^ +as-booted +1 ' && echo "$out" | grep -Eq '^ +rebooted +1 '
check "compare shows both cells, one repetition each (pert on CPU 3)" $?
cmp -s $S/grub.cmdline $S/grub.cmdline.orig && [ ! -e /etc/default/grub.d/rtvirt-run.cfg ] &&
	[ ! -e /etc/systemd/system/rtvirt-run-resume.service ] && [ ! -e $store/resume.json ]
check "the original boot arguments are back ($(cat $S/grub.cmdline)), the drop-in, the unit and resume.json gone" $?
etc_tree >/tmp/etc.after-run
diff $S/etc.before-run /tmp/etc.after-run | diag
cmp -s $S/etc.before-run /tmp/etc.after-run
check "/etc is as it was before the run" $?
echo "1..$n"
