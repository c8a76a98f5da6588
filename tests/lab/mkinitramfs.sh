#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# mkinitramfs.sh OUT.cpio BUILD_DIR CMDLINE: the lab VM's initramfs;
# CMDLINE, the kernel command line lab-check.sh boots, goes into the lab's
# /etc/default/grub (the lab's update-grub and lab-reboot.sh --grub).
#
# Holds busybox (static), the rtvirt binary and tests/lab's rv-lab built in
# BUILD_DIR from this tree, cyclictest, kexec (lab-reboot.sh), qemu-system-x86_64 with its TCG
# accelerator module (so that real QEMU processes run inside the lab VM and
# can be given core cookies), every shared library they load (from ldd, at
# their host paths), /init and the in-VM TAP tests (lab-tests.sh).
# Uncompressed newc cpio: the kernel unpacks it faster than it would gunzip.
set -eu

out=$1
build=$2
cmdline=$3
here=$(cd "$(dirname "$0")" && pwd)

die() { printf 'lab-initramfs: error: %s\n' "$*" >&2; exit 2; }

for f in "$build/rtvirt" "$build/tests/lab/rv-lab"; do
	[ -x "$f" ] || die "'$f' not built"
done
busybox=$(command -v busybox) || die "busybox not found (busybox-static)"
file -L "$busybox" 2>/dev/null | grep -q 'statically linked' ||
	ldd "$busybox" 2>&1 | grep -q 'not a dynamic' || die "'$busybox' is not static (busybox-static)"
qemu=$(command -v qemu-system-x86_64) || die "qemu-system-x86_64 not found (qemu-system-x86)"
cyclictest=$(command -v cyclictest) || die "cyclictest not found (rt-tests)"
kexec=$(command -v kexec || echo /usr/sbin/kexec)
[ -x "$kexec" ] || die "kexec not found (kexec-tools)"
tcg=/usr/lib/x86_64-linux-gnu/qemu/accel-tcg-x86_64.so

root=$(mktemp -d "${TMPDIR:-/tmp}/rv-lab-root.XXXXXX")
trap 'rm -rf "$root"' EXIT INT TERM

mkdir -p "$root/bin" "$root/sbin" "$root/usr/bin" "$root/usr/sbin" "$root/proc" \
	"$root/sys" "$root/dev" "$root/tmp" "$root/run" "$root/lab" "$root/etc" \
	"$root/var/lib/rtvirt" "$root/root" "$root/lab/state"
cp "$busybox" "$root/bin/busybox"
ln -s busybox "$root/bin/sh"

# copy a file to the same path inside, with the libraries it loads
copy_with_libs() {
	src=$1
	dst=${2:-$1}
	mkdir -p "$root$(dirname "$dst")"
	cp -L "$src" "$root$dst"
	ldd "$src" 2>/dev/null | awk '/=> \//{print $3} /^[[:space:]]*\//{print $1}' |
	while read -r lib; do
		[ -e "$root$lib" ] && continue
		mkdir -p "$root$(dirname "$lib")"
		cp -L "$lib" "$root$lib"
	done
}

copy_with_libs "$build/rtvirt" /usr/bin/rtvirt
copy_with_libs "$build/tests/lab/rv-lab" /usr/bin/rv-lab
copy_with_libs "$cyclictest"
copy_with_libs "$kexec" /usr/sbin/kexec
copy_with_libs "$qemu"
[ -e "$tcg" ] && copy_with_libs "$tcg"
# the pc machine looks for this option ROM (only used with KVM; silences a warning)
[ -e /usr/share/qemu/kvmvapic.bin ] && mkdir -p "$root/usr/share/qemu" &&
	cp /usr/share/qemu/kvmvapic.bin "$root/usr/share/qemu/"

install -m 0755 "$here/init" "$root/init"
install -m 0755 "$here/lab-tests.sh" "$root/lab/lab-tests.sh"
install -m 0755 "$here/lab-persist-tests.sh" "$root/lab/lab-persist-tests.sh"
install -m 0755 "$here/lab-reboot.sh" "$root/lab/lab-reboot.sh"
install -m 0755 "$here/lab-resume-tests.sh" "$root/lab/lab-resume-tests.sh"
install -m 0755 "$here/update-grub" "$root/usr/sbin/update-grub"
mkdir -p "$root/etc/default"
printf '# the lab VM: what lab-check.sh boots (grub-mkconfig sources this)\nGRUB_CMDLINE_LINUX_DEFAULT="%s"\n' \
	"$cmdline" >"$root/etc/default/grub"
cp "$here/tap.sh" "$here/kernel.config" "$here/lab-host.ini" "$here/persist.ini" \
	"$here/reboot.ini" "$root/lab/"

# Firmware for the inner QEMUs: 64 KiB of hlt with "jmp $" at the reset
# vector (0xffff0), so each inner vCPU thread spins at 100 % in TCG
# without a guest kernel.
head -c 65520 /dev/zero | tr '\0' '\364' >"$root/lab/spin.bin"
printf '\353\376' >>"$root/lab/spin.bin"
head -c 14 /dev/zero | tr '\0' '\364' >>"$root/lab/spin.bin"

(cd "$root" && find . | LC_ALL=C sort | cpio -o -H newc --quiet) >"$out.tmp"
mv "$out.tmp" "$out"
