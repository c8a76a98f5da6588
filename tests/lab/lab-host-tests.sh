#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# lab-host-tests.sh: TAP tests run INSIDE the lab host (Debian 12, systemd,
# cgroup v2, libvirtd, GRUB; 2 cores x 2 threads; the lab kernel), started
# by rtvirt-lab.service at every boot (lab-host-boot), TAP on /dev/ttyS1.
# Everything goes through the rtvirt installed from its .deb (/usr/bin).
# One stage per boot, the stage and the test count kept in /lab/state on
# the root disk; each stage ends with a real `systemctl reboot` (stage 4's
# by rtvirt run itself, the last with poweroff): six boots, two in the
# short check:
#   1  the host as booted: GRUB, systemd, cgroup v2; install the .deb; the
#      real update-grub; rtvirt setup with systemd; host show/check;
#      qemu-guest-agent, gnuplot-nox; /etc snapshot; host bootargs
#      realtime-virtual-host --install
#   2  the arguments are in /proc/cmdline and in effect (isolated,
#      nohz_full); the lab-sized flagship matrix (flagship below); host
#      apply --persist persist.ini
#   3  the knobs hold after the reboot (systemd-sysctl, the unit); host
#      revert; host bootargs --remove
#   4  the arguments are gone; /etc is as stage 1 found it; rtvirt run
#      lab-host-reboot.ini measures as booted and reboots by itself
#      (lab-host-reboot.sh: stages 4-6)
#   5  rtvirt-run-resume.service measured the bootargs scenario and put
#      the boot loader back
#   6  the original /proc/cmdline, /etc as before the run; plan; poweroff
# /lab/no-flagship (RV_LAB_HOST_FLAGSHIP=0 in lab-host-check.sh) skips the
# flagship of stage 2.
# The short check (/lab/mode "short", lab-host-check.sh --short, what CI
# runs) ends after stage 2's flagship, run with its coresched and nosmt
# scenarios only: plan; poweroff.
# POSIX sh (dash).
S=/lab/state
mkdir -p $S
exec >/dev/ttyS1 2>&1
n=$(cat $S/n 2>/dev/null || echo 0)
mode=$(cat /lab/mode 2>/dev/null || echo full)
stage=$(cat $S/stage 2>/dev/null || echo 1)
. /lab/tap.sh
P=/lab/persist.ini
T=/proc/sys/kernel/timer_migration
export PATH=/usr/sbin:/usr/bin:/sbin:/bin

# reboot_to STAGE: the next stage after a real reboot through systemd
reboot_to() {
	echo "$1" >$S/stage
	echo $n >$S/n
	sync
	echo "# stage $stage done; systemctl reboot"
	systemctl reboot
	sleep 600
	notok "systemctl reboot returned and the host did not go down"
	exit 1
}

# flagship: the lab-sized coresched-vs-nosmt matrix through the installed
# rtvirt, on the host as stage 2 booted it (isolated CPUs 2-3): every
# scenario runs; the pinning, smt/control and the core cookies read back
# while the guests run (lab-flagship.py sample); the store, compare and
# report; the host as before.  The store and its report go back on ttyS1
# ("#file" blocks).  In the short check the matrix is the same file
# without its baseline and siblings-idle scenarios (nosmt the baseline,
# the guest profiles named by their installed paths).
flagship() {
	M=/usr/share/rtvirt/profiles/matrix/coresched-vs-nosmt-lab.ini
	scens=baseline,coresched,siblings-idle,nosmt
	if [ "$mode" = short ]; then
		awk '/^#/ { next }
			/^\[/ { drop = ($0 == "[scenario:baseline]" || $0 == "[scenario:siblings-idle]") }
			drop { next }
			/^baseline[[:space:]]*=/ { print "baseline = nosmt"; next }
			/^name[[:space:]]*=/ { print "name = coresched-vs-nosmt-lab-short"; next }
			/^description[[:space:]]*=/ && !sec { print "description = lab host, short check: coresched against nosmt, an RT guest beside a gemm neighbour, nested TCG"; next }
			/^\[/ { sec = ($0 != "[main]") }
			/^profile[[:space:]]*=[[:space:]]*\.\.\// { sub(/\.\.\//, "/usr/share/rtvirt/profiles/") }
			{ print }' $M >$S/coresched-vs-nosmt-lab-short.ini
		M=$S/coresched-vs-nosmt-lab-short.ini
		scens=coresched,nosmt
		grep '^\[scenario:' $M | tr '\n' ' ' | sed 's/^/# short matrix: /'; echo
	fi
	R=$S/results
	F=/lab/lab-flagship.py
	etc_tree >$S/etc.run
	smt0=$(cat /sys/devices/system/cpu/smt/control); on0=$(cat /sys/devices/system/cpu/online)
	iso=$(cat /sys/devices/system/cpu/isolated)
	sibs=
	for c in /sys/devices/system/cpu/cpu[0-9]*; do
		l=$(cat $c/topology/thread_siblings_list 2>/dev/null) || continue
		i=${c##*cpu}
		for x in $(echo "$l" | tr ',-' '  '); do [ "$x" != "$i" ] && sibs="$sibs${sibs:+,}$i:$x"; done
	done
	rtvirt run --plan $M 2>&1 | diag
	# nice -10: a sampler starved by the busy housekeeping CPUs misses the
	# seconds-long measured windows
	nice -n -10 python3 $F sample $S/samples.json rtvirt-coresched-vs-nosmt-lab- &
	spid=$!
	t0=$(date +%s)
	rtvirt run -v --wait-lock 60 -o $R $M >$S/run.out 2>$S/run.err; rc=$?
	t1=$(date +%s)
	kill $spid 2>/dev/null; wait $spid 2>/dev/null
	tail -n 40 $S/run.err | diag
	cat $S/run.out | diag
	store=$(sed -n 's/^Results: //p' $S/run.out | tail -n 1)
	[ $rc -eq 0 ] && [ -f "$store/run.json" ]
	check "rtvirt run $(basename $M) ran to its end in $((t1 - t0)) s (exit $rc; store '$store')" $?
	python3 $F check "$store" $S/samples.json "$iso" "$sibs" $scens >$S/flagship.facts 2>&1
	while read -r word rest; do
		[ "$word" = ok ]
		check "$rest" $?
	done <$S/flagship.facts
	[ -s $S/flagship.facts ] || { notok "lab-flagship.py check printed nothing"; }

	out=$(rtvirt compare "$store" 2>&1); rc=$?
	echo "$out" >$S/compare.txt
	echo "$out" | sed -n '/^== the answer/,/^marks:/p' | head -n 30 | diag
	if [ "$mode" = short ]; then
		[ $rc -eq 0 ] && echo "$out" | grep -q '^== the answer' &&
			[ "$(echo "$out" | grep -Ec '^  coresched(@one)? vs nosmt(@one)?: RT p99.99 ')" = 1 ]
	else
		[ $rc -eq 0 ] && echo "$out" | grep -q '^== the answer' &&
			echo "$out" | grep -Eq '^  coresched(@one)? vs baseline(@one)?: RT p99.99 ' &&
			echo "$out" | grep -Eq '^  siblings-idle(@one)? vs baseline(@one)?: RT p99.99 ' &&
			echo "$out" | grep -Eq '^  nosmt(@one)? vs baseline(@one)?: RT p99.99 '
	fi
	check "rtvirt compare: the answer table and one sentence per option (exit $rc)" $?
	rm -rf $S/report
	out=$(rtvirt report -o $S/report "$store" 2>&1); rc=$?
	echo "$out" | tail -n 5 | diag
	[ $rc -eq 0 ] && grep -q '<h2 id="answer">The answer</h2>' $S/report/index.html
	check "rtvirt report writes index.html opening with the answer (exit $rc)" $?

	etc_tree >/tmp/etc.after
	diff $S/etc.run /tmp/etc.after | diag
	st=$(rtvirt status 2>&1)
	echo "$st" | diag
	left=$(virsh -c qemu:///system list --all --name 2>/dev/null | grep -c '^rtvirt-')
	[ "$(cat /sys/devices/system/cpu/smt/control)" = "$smt0" ] &&
		[ "$(cat /sys/devices/system/cpu/online)" = "$on0" ] &&
		cmp -s $S/etc.run /tmp/etc.after && [ "$left" = 0 ] &&
		[ ! -s /var/lib/rtvirt/run.journal ]
	check "the host as before the run: smt/control $(cat /sys/devices/system/cpu/smt/control), online $(cat /sys/devices/system/cpu/online), /etc unchanged, $left rtvirt domain(s), run journal empty" $?

	# the store and its report back to the build machine (bounded)
	tar -czf /tmp/store.tgz -C "$(dirname "$store")" "$(basename "$store")" 2>/dev/null
	tar -czf /tmp/report.tgz -C $S report 2>/dev/null
	for f in store report; do
		sz=$(stat -c %s /tmp/$f.tgz 2>/dev/null || echo 0)
		if [ "$sz" -gt 0 ] && [ "$sz" -lt 16777216 ]; then send_file $f.tgz /tmp/$f.tgz
		else echo "# $f.tgz: $sz bytes, not sent"; fi
	done
	send_file compare.txt $S/compare.txt
	send_file samples.json $S/samples.json
	send_file run.err $S/run.err
}

# systemd has finished starting (this unit is Type=simple: no deadlock)
systemctl is-system-running --wait >/tmp/state 2>&1
echo "# lab host, stage $stage: $(uname -r) $(cat /proc/cmdline)"
echo "# systemd: $(cat /tmp/state)"

case $stage in
1)
	grep -q 'BOOT_IMAGE=/boot/vmlinuz-' /proc/cmdline && grep -q 'root=/dev/vda1' /proc/cmdline
	check "booted from disk by GRUB (BOOT_IMAGE=/boot/vmlinuz-$(uname -r), root=/dev/vda1)" $?
	[ "$(cat /proc/1/comm)" = systemd ] && grep -Eq '^(running|degraded)$' /tmp/state
	check "PID 1 is systemd and it finished starting ($(cat /tmp/state))" $?
	systemctl --failed --no-legend --plain 2>&1 | diag
	[ "$(stat -fc %T /sys/fs/cgroup)" = cgroup2fs ] &&
		grep -qw cpuset /sys/fs/cgroup/cgroup.controllers && grep -qw cpu /sys/fs/cgroup/cgroup.controllers
	check "cgroup v2 with cpuset and cpu ($(cat /sys/fs/cgroup/cgroup.controllers))" $?
	[ "$(cat /sys/devices/system/cpu/smt/active)" = 1 ] &&
		[ "$(cat /sys/devices/system/cpu/cpu0/topology/thread_siblings_list)" = 0-1 ]
	check "SMT on: 2 threads per core (cpu0 siblings $(cat /sys/devices/system/cpu/cpu0/topology/thread_siblings_list))" $?

	# ---- rtvirt from its package
	out=$(dpkg -i /lab/rtvirt_*_amd64.deb 2>&1); rc=$?
	echo "$out" | tail -n 5 | diag
	[ $rc -eq 0 ] && [ "$(command -v rtvirt)" = /usr/bin/rtvirt ] &&
		dpkg-query -W -f='${Status}' rtvirt | grep -q 'install ok installed'
	check "dpkg -i rtvirt_*_amd64.deb installed /usr/bin/rtvirt (exit $rc; $(rtvirt --version 2>&1))" $?
	# what rtvirt recommends and the flagship needs beyond its Depends, as
	# a user would apt install it (no network here: lab-host-check.sh
	# resolved and fetched the packages onto the test disk):
	# qemu-guest-agent for the embedded guests, gnuplot-nox for report
	out=$(dpkg -i /lab/debs/*.deb 2>&1); rc=$?
	echo "$out" | tail -n 3 | diag
	[ $rc -eq 0 ] && [ -x /usr/sbin/qemu-ga ] && command -v gnuplot >/dev/null
	check "dpkg -i qemu-guest-agent and gnuplot-nox with what they depend on ($(ls /lab/debs | wc -l) packages; exit $rc)" $?
	# (no man pages here: the image's dpkg excludes /usr/share/man, as
	# rtvirt's guest images do; t-deb.sh checks the package holds them)
	[ -f /usr/share/rtvirt/profiles/host/realtime-virtual-host.ini ] &&
		[ -f /usr/share/bash-completion/completions/rtvirt ] && rtvirt --version | grep -qx 'rtvirt [0-9.]*'
	check "the package's profiles and completion are in /usr/share, its version the bare release" $?

	# ---- GRUB as Debian runs it: the real update-grub, inside the host
	out=$(update-grub 2>&1); rc=$?
	echo "$out" | diag
	[ $rc -eq 0 ] && grep -q "linux[[:space:]]*/boot/vmlinuz-$(uname -r) root=/dev/vda1" /boot/grub/grub.cfg
	check "update-grub wrote grub.cfg booting /boot/vmlinuz-$(uname -r) root=/dev/vda1 (exit $rc)" $?

	# ---- rtvirt setup on a systemd host: libvirtd stays systemd's
	# stopped with its sockets, so that nothing answers on libvirt-sock and
	# rtvirt must start it: as systemd's unit, not as its own child
	systemctl stop libvirtd.service libvirtd.socket libvirtd-ro.socket libvirtd-admin.socket >/dev/null 2>&1
	out=$(rtvirt setup 2>&1); rc=$?
	echo "$out" | diag
	pid=$(systemctl show -p MainPID --value libvirtd.service)
	cg=$(cat /proc/"$pid"/cgroup 2>/dev/null)
	[ $rc -eq 0 ] && [ "${pid:-0}" -gt 0 ] && [ "$cg" = "0::/system.slice/libvirtd.service" ]
	check "rtvirt setup: libvirtd runs as systemd's libvirtd.service (pid $pid, cgroup '$cg'; exit $rc)" $?

	out=$(rtvirt host show 2>&1); rc=$?
	echo "$out" | diag
	[ $rc -eq 0 ] && echo "$out" | grep -q "2 core(s), 2 thread(s) per core"
	check "host show on cgroup v2 with systemd: 2 cores x 2 threads (exit $rc)" $?
	out=$(rtvirt host check realtime-virtual-host 2>&1); rc=$?
	echo "$out" | diag
	[ $rc -eq 1 ] || [ $rc -eq 0 ]
	check "host check realtime-virtual-host judges the untuned host (exit $rc: 0 or 1)" $?

	# ---- boot arguments through /etc/default/grub.d and update-grub
	etc_tree >$S/etc.before
	out=$(rtvirt host bootargs realtime-virtual-host --install --json 2>&1); rc=$?
	echo "$out" | diag
	echo "$out" | jq -r '.bootargs[]' >$S/bootargs 2>/dev/null
	[ $rc -eq 0 ] && [ -s $S/bootargs ] && grep -q '^isolcpus=' $S/bootargs &&
		ls /etc/default/grub.d/ | grep -q rtvirt && grep -q 'isolcpus=' /boot/grub/grub.cfg
	check "host bootargs realtime-virtual-host --install: a grub.d drop-in and grub.cfg with $(tr '\n' ' ' <$S/bootargs)(exit $rc)" $?
	reboot_to 2
	;;
2)
	missing=
	while read -r w; do
		grep -qFw -- "$w" /proc/cmdline || missing="$missing $w"
	done <$S/bootargs
	[ -s $S/bootargs ] && [ -z "$missing" ]
	check "after the reboot every installed argument is in /proc/cmdline (missing:${missing:- none})" $?
	iso=$(cat /sys/devices/system/cpu/isolated); nohz=$(cat /sys/devices/system/cpu/nohz_full)
	want=$(sed -n '/^isolcpus=/{s/^isolcpus=//; s/managed_irq,//; s/domain,//; p}' $S/bootargs)
	[ -n "$iso" ] && [ "$iso" = "$want" ] && [ "$nohz" = "$want" ]
	check "and in effect: isolated '$iso', nohz_full '$nohz' (want '$want')" $?

	if [ -e /lab/no-flagship ]; then skip "the flagship matrix (RV_LAB_HOST_FLAGSHIP=0)"; else flagship; fi
	if [ "$mode" = short ]; then
		echo "1..$n"
		echo end >$S/stage
		sync
		systemctl poweroff
		exit 0
	fi

	cat $T >$S/timer_migration.before
	cat /proc/sys/vm/stat_interval >$S/stat_interval.before
	etc_tree >$S/etc.apply
	out=$(rtvirt host apply --persist $P 2>&1); rc=$?
	echo "$out" | diag
	[ $rc -le 1 ] && echo "$out" | grep -q '^apply: [0-9]* changed, .* 0 failed$' &&
		[ -L /etc/systemd/system/multi-user.target.wants/rtvirt-host-apply.service ] &&
		grep -qx 'kernel.timer_migration = 0' /etc/sysctl.d/60-rtvirt.conf
	check "host apply --persist: sysctl.d file and rtvirt-host-apply.service enabled, none failed (exit $rc)" $?
	reboot_to 3
	;;
3)
	[ "$(cat $T)" = 0 ] && [ "$(cat /proc/sys/vm/stat_interval)" = 10 ]
	check "after the reboot the knobs hold unapplied: timer_migration $(cat $T), vm.stat_interval $(cat /proc/sys/vm/stat_interval)" $?
	res=$(systemctl show -p Result --value rtvirt-host-apply.service)
	st=$(systemctl show -p ExecMainStatus --value rtvirt-host-apply.service)
	journalctl -b -u rtvirt-host-apply.service --no-pager 2>&1 | tail -n 8 | diag
	[ "$st" = 0 ] || [ "$st" = 1 ]
	check "rtvirt-host-apply.service ran at boot under systemd (result $res, status $st)" $?
	out=$(rtvirt host revert 2>&1); rc=$?
	echo "$out" | diag
	etc_tree >/tmp/etc.after
	diff $S/etc.apply /tmp/etc.after | diag
	[ $rc -eq 0 ] && cmp -s $S/etc.apply /tmp/etc.after &&
		[ "$(cat $T)" = "$(cat $S/timer_migration.before)" ]
	check "host revert: /etc as before the apply, timer_migration back to $(cat $S/timer_migration.before) (exit $rc)" $?

	out=$(rtvirt host bootargs realtime-virtual-host --remove 2>&1); rc=$?
	echo "$out" | diag
	! grep -q 'isolcpus=' /boot/grub/grub.cfg
	check "host bootargs --remove: grub.cfg without isolcpus (exit $rc)" $?
	reboot_to 4
	;;
4)
	left=
	while read -r w; do
		grep -qFw -- "$w" /proc/cmdline && left="$left $w"
	done <$S/bootargs
	[ -z "$left" ] && [ -z "$(cat /sys/devices/system/cpu/isolated)" ]
	check "after the reboot the arguments are gone (left:${left:- none}; isolated '$(cat /sys/devices/system/cpu/isolated)')" $?
	etc_tree >/tmp/etc.after
	diff $S/etc.before /tmp/etc.after | diag
	cmp -s $S/etc.before /tmp/etc.after
	check "/etc is as before the first change (paths, modes, contents)" $?
	. /lab/lab-host-reboot.sh
	reboot_run	# rtvirt run reboots into stage 5 by itself
	;;
5)
	. /lab/lab-host-reboot.sh
	reboot_resumed
	reboot_to 6
	;;
6)
	. /lab/lab-host-reboot.sh
	reboot_restored
	echo "1..$n"
	echo 7 >$S/stage
	sync
	systemctl poweroff
	;;
*)
	echo "# stage $stage: nothing left; poweroff"
	systemctl poweroff
	;;
esac
