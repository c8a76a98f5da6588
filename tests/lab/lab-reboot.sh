#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# lab-reboot.sh [--grub] [ARG...]: reboot the lab VM into its own kernel
# and initramfs with the current command line plus ARGs and
# rtvirt.lab_boot=N+1 (kexec -l / kexec -e: the lab has no boot loader);
# --grub: with the command line the lab's update-grub wrote instead
# (/lab/state/grub.cmdline: what grub would boot), so that boot arguments
# rtvirt installed as a grub.d drop-in take effect.  As RTVIRT_REBOOT_CMD
# it is the reboot of `rtvirt run` (lab-resume-tests.sh).  What a disk-backed
# host keeps across a reboot is saved first: /etc, /var/lib/rtvirt and
# /lab/state go as a tar onto the state disk (/dev/vdb), which /init
# unpacks at the next boot.  The kernel and the initramfs come from the
# boot disk (/dev/vda, a tar that lab-check.sh writes).  Returns only when
# the reboot failed (exit 1, the reason on stderr).
set -u
grub=
[ "${1:-}" = --grub ] && { grub=1; shift; }
cmdline=$(cat /proc/cmdline)
boot=$(echo "$cmdline" | sed -n 's/.*rtvirt\.lab_boot=\([0-9]*\).*/\1/p')
boot=$(( ${boot:-1} + 1 ))
[ -n "$grub" ] && { cmdline=$(cat /lab/state/grub.cmdline) || { echo "lab-reboot: no grub.cmdline (update-grub never ran)" >&2; exit 1; }; }
keep=
for w in $cmdline; do
	case $w in rtvirt.lab_boot=*) ;; *) keep="$keep $w" ;; esac
done
(cd / && tar -cf /dev/vdb etc var/lib/rtvirt lab/state) || { echo "lab-reboot: saving the state failed" >&2; exit 1; }
sync
mkdir -p /tmp/kexec
tar -xf /dev/vda -C /tmp/kexec || { echo "lab-reboot: no boot disk /dev/vda" >&2; exit 1; }
kexec -l /tmp/kexec/bzImage --initrd=/tmp/kexec/initramfs.cpio \
	--append="${keep# } $* rtvirt.lab_boot=$boot" || { echo "lab-reboot: kexec -l failed" >&2; exit 1; }
kexec -e
echo "lab-reboot: kexec -e returned" >&2
exit 1
