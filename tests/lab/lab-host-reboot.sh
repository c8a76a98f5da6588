# SPDX-License-Identifier: LGPL-2.1-or-later
#
# lab-host-reboot.sh: `rtvirt run` of a matrix with a `bootargs =` scenario
# (lab-host-reboot.ini) across a real reboot of the lab host, the way a
# user's host takes it: no $RTVIRT_REBOOT_CMD, so rtvirt itself runs
# `systemctl reboot`, GRUB boots the arguments of its
# /etc/default/grub.d drop-in, and systemd starts rtvirt-run-resume.service
# at boot.  Sourced by lab-host-tests.sh (dash), which supplies $S, $n and
# tap.sh; one function per stage:
#   reboot_run       end of stage 4: snapshots (/proc/cmdline, boot_id,
#                    grub.cfg, /etc), then `rtvirt run` measures as-booted,
#                    installs isolcpus=3 nohz_full=3 and the resume unit
#                    and reboots the host into stage 5 by itself
#   reboot_resumed   stage 5: the resume unit ran and exited 0; each cell
#                    measured under the right /proc/cmdline; the run
#                    complete; the boot loader as before the run
#   reboot_restored  stage 6 (after one more `systemctl reboot`): the
#                    original /proc/cmdline, /etc as before the run
RB_R=/var/lib/rtvirt/lab-host-reboot
RB_UNIT=rtvirt-run-resume.service
RB_ARGS="isolcpus=3 nohz_full=3"

rb_store() { ls -d $RB_R/*-lab-host-reboot 2>/dev/null | head -n 1; }
# rb_boot_verification CELL: the "boot" verifications of the cell, one
# JSON object a line
rb_boot_verification() {
	jq -c --arg c "$1" '.verifications[] | select(.what == "boot" and .scenario == $c)' \
		"$(rb_store)/run.json" 2>/dev/null
}

reboot_run() {
	rm -rf $RB_R
	# the matrix off /lab: lab-host-boot unpacks the test disk into /lab
	# at every boot while the resume unit may be reading it
	cp /lab/lab-host-reboot.ini $S/lab-host-reboot.ini
	cat /proc/cmdline >$S/cmdline.before-run
	cat /proc/sys/kernel/random/boot_id >$S/boot_id.before-run
	cp /boot/grub/grub.cfg $S/grub.cfg.before-run
	etc_tree >$S/etc.before-run
	rtvirt run --plan $S/lab-host-reboot.ini 2>&1 | diag
	rm -f $S/run-reboot.rc
	echo 5 >$S/stage
	echo $n >$S/n
	sync
	echo "# stage $stage done; rtvirt run reboots the host itself (systemctl reboot)"
	rtvirt run -v --wait-lock 60 -o $RB_R $S/lab-host-reboot.ini >$S/run-reboot.out 2>&1
	rc=$?
	# exit 3 is "rebooting" (harness/reboot.h): systemd takes the host
	# down and this unit with it; anything else, or no shutdown in 10
	# minutes, is a run that returned instead of rebooting
	echo $rc >$S/run-reboot.rc
	sync
	[ $rc -eq 3 ] && sleep 600
	tail -n 30 $S/run-reboot.out | diag
	notok "rtvirt run measured as-booted, installed its arguments and rebooted the host (it returned, exit $rc)"
	echo "1..$n"
	echo 7 >$S/stage
	sync
	systemctl poweroff
	exit 1
}

# rb_wait_unit: until the resume unit's main process exited (both it and
# rtvirt-lab.service start at boot; bounded: 20 minutes)
rb_wait_unit() {
	i=0
	while [ $i -lt 1200 ]; do
		[ "$(systemctl show -p LoadState --value $RB_UNIT)" = loaded ] || return 1
		t=$(systemctl show -p ExecMainExitTimestampMonotonic --value $RB_UNIT)
		[ -n "$t" ] && [ "$t" != 0 ] && return 0
		sleep 5
		i=$((i + 5))
	done
	return 1
}

reboot_resumed() {
	store=$(rb_store)
	rb_wait_unit
	waited=$?
	tail -n 30 $S/run-reboot.out | diag
	rc=$(cat $S/run-reboot.rc 2>/dev/null)
	note=$(jq -r '.verifications[] | select(.what == "reboot") | .detail' "$store/run.json" 2>/dev/null)
	echo "$note" | diag
	v=$(rb_boot_verification as-booted)
	echo "$v" | diag
	# the test did not reboot: rtvirt did (its NOTE names systemctl
	# reboot, no $RTVIRT_REBOOT_CMD); a new boot_id; rtvirt returned 3 or
	# was ended by the shutdown before the test could write its status
	[ "$(cat /proc/sys/kernel/random/boot_id)" != "$(cat $S/boot_id.before-run)" ] &&
		{ [ -z "$rc" ] || [ "$rc" = 3 ]; } &&
		echo "$note" | grep -q "^boot 1 of 2 (.*) installed (.*) with /etc/default/grub.d/rtvirt-run.cfg; rebooting with 'systemctl reboot'"
	check "rtvirt run installed its arguments and rebooted the host itself through systemctl reboot (a new boot_id; exit ${rc:-none: ended by the shutdown})" $?
	c0=$(cat $S/cmdline.before-run)
	[ "$(echo "$v" | jq -r .status 2>/dev/null)" = PASS ] &&
		[ "$(echo "$v" | jq -r .detail 2>/dev/null)" = "boot 0 of 2 (as booted): /proc/cmdline: $c0" ]
	check "as-booted measured before the reboot under the host's own /proc/cmdline" $?

	res=$(systemctl show -p Result --value $RB_UNIT)
	code=$(systemctl show -p ExecMainCode --value $RB_UNIT)
	st=$(systemctl show -p ExecMainStatus --value $RB_UNIT)
	ex=$(systemctl show -p ExecStart --value $RB_UNIT)
	journalctl -b -u $RB_UNIT --no-pager 2>&1 | tail -n 15 | diag
	[ $waited -eq 0 ] && [ "$res" = success ] && [ "$code" = 1 ] && [ "$st" = 0 ] &&
		echo "$ex" | grep -q "argv\[\]=/usr/bin/rtvirt run --resume $store ;" &&
		journalctl -b -u $RB_UNIT --no-pager 2>/dev/null | grep -q "$RB_UNIT: Deactivated successfully"
	check "$RB_UNIT ran 'rtvirt run --resume' at boot under systemd and exited 0 (result $res, code $code, status $st; the journal says so)" $?

	iso=$(cat /sys/devices/system/cpu/isolated); nohz=$(cat /sys/devices/system/cpu/nohz_full)
	missing=
	for w in $RB_ARGS; do grep -qFw -- "$w" /proc/cmdline || missing="$missing $w"; done
	[ -z "$missing" ] && [ "$iso" = 3 ] && [ "$nohz" = 3 ]
	check "GRUB booted the drop-in's $RB_ARGS (missing:${missing:- none}; isolated '$iso', nohz_full '$nohz')" $?
	v=$(rb_boot_verification isolated)
	echo "$v" | diag
	d=$(echo "$v" | jq -r .detail 2>/dev/null)
	[ "$(echo "$v" | jq -r .status 2>/dev/null)" = PASS ] &&
		[ "$d" = "boot 1 of 2 (reboot with $RB_ARGS): /proc/cmdline: $(cat /proc/cmdline)" ] &&
		[ "$d" != "boot 1 of 2 (reboot with $RB_ARGS): /proc/cmdline: $c0" ]
	check "isolated measured after the reboot under the /proc/cmdline with $RB_ARGS" $?
	sc=$(jq -r '[.scenarios[] | "\(.name)=\(.status)"] | join(" ")' "$store/run.json" 2>/dev/null)
	out=$(rtvirt compare "$store" 2>&1); crc=$?
	echo "$out" | head -n 20 | diag
	[ "$(jq -r .complete "$store/run.json" 2>/dev/null)" = true ] &&
		[ "$sc" = "as-booted=ran isolated=ran" ] && [ $crc -eq 0 ] &&
		echo "$out" | grep -Eq '^ +as-booted +1 ' && echo "$out" | grep -Eq '^ +isolated +1 '
	check "the run is complete: $sc, compare shows one repetition each (exit $crc)" $?

	rtvirt status 2>&1 | diag
	ls /etc/default/grub.d/ | diag
	diff $S/grub.cfg.before-run /boot/grub/grub.cfg | diag
	[ ! -e /etc/default/grub.d/rtvirt-run.cfg ] && [ ! -e /etc/systemd/system/$RB_UNIT ] &&
		[ ! -e /etc/systemd/system/multi-user.target.wants/$RB_UNIT ] &&
		[ -d "$store" ] && [ ! -e "$store/resume.json" ] &&
		cmp -s $S/grub.cfg.before-run /boot/grub/grub.cfg
	check "the boot loader as before the run: the drop-in, the resume unit and resume.json gone, grub.cfg as before" $?
}

reboot_restored() {
	c0=$(cat $S/cmdline.before-run)
	echo "# before the run: $c0"
	[ "$(cat /proc/cmdline)" = "$c0" ] && [ -z "$(cat /sys/devices/system/cpu/isolated)" ]
	check "after one more reboot /proc/cmdline is the one before the run, CPU 3 not isolated" $?
	etc_tree >/tmp/etc.after-run
	diff $S/etc.before-run /tmp/etc.after-run | diag
	cmp -s $S/etc.before-run /tmp/etc.after-run
	check "/etc is as it was before the run (paths, modes, contents)" $?
}
