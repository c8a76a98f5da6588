#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# mkhostimage.sh KERNEL DEB: build (once) the lab host's disk image and print
# its path on stdout.
#
# The lab host is a Debian 12 machine as users have one: systemd, cgroup v2,
# libvirtd started by systemd, QEMU, rt-tests, GRUB (grub-pc) booting from
# an MBR disk through SeaBIOS.  Its kernel is the lab kernel KERNEL
# (build-kernel.sh: SCHED_CORE, NO_HZ_FULL, systemd and libvirt
# options), installed as /boot/vmlinuz-RELEASE so that update-grub finds
# it; linux-image-amd64 is there too, as on any Debian host (the nested
# guests boot the lab kernel instead: its modules.dep below).  rtvirt
# itself is NOT in the image: the image holds every package rtvirt's .deb
# depends on (read from DEB's Depends field) and stage 1 of
# lab-host-tests.sh installs the .deb from the test disk that lab-host-boot
# unpacks, so a new build of rtvirt costs no new image.
#
# Two cached layers under ${RV_LAB_CACHE:-/var/cache/rtvirt/lab}:
#   root-<hash>.tar   mmdebstrap's root file system (same invocation as
#                     guest/disk-image.c: root mode, the host's apt
#                     sources, no docs/man/locales), keyed by the package
#                     list, the apt sources and this script
#   host-<hash>/disk.raw  that tree plus the kernel, /etc settings, the boot
#                     unit; an MBR partition table, ext4 written by
#                     `mkfs.ext4 -d` at the partition's offset (no loop
#                     mount) and GRUB installed by the image's own
#                     grub-install inside libguestfs' appliance; keyed by
#                     the root tar's hash, the kernel and this script
# Tests boot a qcow2 overlay on disk.raw, never disk.raw itself.
# RV_LAB_HOST_ROOT_ONLY=1 builds the root layer alone (KERNEL unused).
# Needs root (mmdebstrap root mode; mkfs.ext4 -d keeps owners).  Progress on
# stderr.  Exit 2 on any failure, naming the step.
set -eu

kernel=${1:?usage: mkhostimage.sh KERNEL DEB}
deb=${2:?usage: mkhostimage.sh KERNEL DEB}
here=$(cd "$(dirname "$0")" && pwd)
cache=${RV_LAB_CACHE:-/var/cache/rtvirt/lab}
size_mb=${RV_LAB_HOST_DISK_MB:-6144}

log() { printf 'lab-host-image: %s\n' "$*" >&2; }
die() { printf 'lab-host-image: error: %s\n' "$*" >&2; exit 2; }

[ "$(id -u)" = 0 ] || die "needs root (mmdebstrap --mode=root, mkfs.ext4 -d)"
for tool in mmdebstrap mkfs.ext4 sfdisk guestfish dpkg-deb sha256sum flock; do
	command -v "$tool" >/dev/null 2>&1 || die "'$tool' not found (build-aux/debian-packages.txt)"
done
[ -s "$kernel" ] || [ "${RV_LAB_HOST_ROOT_ONLY:-0}" = 1 ] || die "no kernel '$kernel'"
[ -s "$deb" ] || die "no package '$deb' (make deb)"

# rtvirt's runtime dependencies, names only (alternatives: the first)
deb_deps=$(dpkg-deb -f "$deb" Depends | tr ',' '\n' | sed -e 's/|.*//' -e 's/(.*)//' -e 's/[[:space:]]//g' | grep . | sort -u | tr '\n' ',')
# what a Debian 12 KVM host has besides; kmod/procps/iproute2 for the
# tools rtvirt and its tests call, kexec-tools for rtvirt's reboot path
pkgs="systemd,systemd-sysv,udev,dbus,kmod,procps,iproute2,util-linux,grub-pc,linux-image-amd64,libvirt-daemon-system,libvirt-clients,qemu-system-x86,rt-tests,busybox-static,cpio,gzip,kexec-tools,jq,${deb_deps%,}"
pkgs=$(echo "$pkgs" | tr ',' '\n' | sort -u | tr '\n' ',')
pkgs=${pkgs%,}

sources=$(ls /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources 2>/dev/null || true)
[ -n "$sources" ] || die "the build machine has no apt sources: mmdebstrap installs from them"
suite=$(. /etc/os-release && echo "${VERSION_CODENAME:-}")
[ -n "$suite" ] || die "/etc/os-release names no VERSION_CODENAME"

# shellcheck disable=SC2086
root_hash=$( { echo "$pkgs $suite"; cat $sources; sed -n '/^# ---- root/,/^# ---- end root/p' "$0"; } |
	sha256sum | cut -c1-16)
root_tar=$cache/root-$root_hash.tar
kernel_sum=$(sha256sum "$kernel" | cut -c1-64)
host_hash=$( { echo "$root_hash $kernel_sum $size_mb"; cat "$0" "$here/lab-host-boot"; } | sha256sum | cut -c1-16)
out=$cache/host-$host_hash
if [ -s "$out/disk.raw" ]; then
	echo "$out/disk.raw"
	exit 0
fi
mkdir -p "$cache"
exec 9>"$cache/.host-lock"
flock 9
if [ -s "$out/disk.raw" ]; then
	echo "$out/disk.raw"
	exit 0
fi

tmp=$(mktemp -d "$cache/.host-tmp-XXXXXX")
trap 'rm -rf --one-file-system "$tmp"' EXIT

# ---- root: mmdebstrap (the part of this script root_hash covers)
if [ ! -s "$root_tar" ]; then
	log "mmdebstrap $suite ($(echo "$pkgs" | tr ',' '\n' | wc -l) packages asked; several minutes)"
	# shellcheck disable=SC2086
	DEBIAN_FRONTEND=noninteractive mmdebstrap --mode=root --variant=apt \
		--include="$pkgs" \
		--dpkgopt='path-exclude=/usr/share/doc/*' \
		--dpkgopt='path-exclude=/usr/share/man/*' \
		--dpkgopt='path-exclude=/usr/share/locale/*' \
		"$suite" "$tmp/root.tar" $sources >"$tmp/mmdebstrap.log" 2>&1 ||
		{ tail -n 20 "$tmp/mmdebstrap.log" >&2; die "mmdebstrap failed (log above)"; }
	mv "$tmp/root.tar" "$root_tar"
fi
# ---- end root
if [ "${RV_LAB_HOST_ROOT_ONLY:-0}" = 1 ]; then    # prefetch: the root layer alone
	echo "$root_tar"
	exit 0
fi

log "root $root_tar; customising"
tree=$tmp/tree
mkdir "$tree"
tar -C "$tree" -xpf "$root_tar" || die "unpacking $root_tar failed"

# the kernel, named by its release as a packaged one would be
release=$(cat "$(dirname "$kernel")/build/include/config/kernel.release" 2>/dev/null || echo 6.1-rtvirt-lab)
cp "$kernel" "$tree/boot/vmlinuz-$release"
[ -r "$(dirname "$kernel")/config" ] && cp "$(dirname "$kernel")/config" "$tree/boot/config-$release"
# and its /lib/modules/RELEASE as depmod leaves it for a kernel without
# loadable modules (CONFIG_MODULES=n): an empty modules.dep and the build's
# modules.builtin, so that rtvirt's embedded guest (guest/image.c: the
# newest /boot/vmlinuz-* with modules.dep) boots this small kernel, whose
# virtio_pci and virtio_console are built in, not Debian's packaged one:
# nested under TCG the packaged kernel boots for many minutes
builtin=$(dirname "$kernel")/build/modules.builtin
[ -s "$builtin" ] || die "no $builtin (build-kernel.sh keeps the build tree)"
mkdir -p "$tree/usr/lib/modules/$release"
cp "$builtin" "$tree/usr/lib/modules/$release/modules.builtin"
: >"$tree/usr/lib/modules/$release/modules.dep"
printf '/dev/vda1 / ext4 defaults,errors=remount-ro 0 1\n' >"$tree/etc/fstab"
echo labhost >"$tree/etc/hostname"
printf '127.0.0.1 localhost\n127.0.1.1 labhost\n' >"$tree/etc/hosts"
chroot "$tree" passwd -d root >/dev/null
# GRUB as on any Debian host; the lab's settings in a drop-in (grub.d), no
# initramfs for the lab kernel, so root= names the device, not a UUID
mkdir -p "$tree/etc/default/grub.d"
cat >"$tree/etc/default/grub.d/00-rtvirt-lab.cfg" <<EOF
# rtvirt lab host (tests/lab/mkhostimage.sh)
GRUB_DEFAULT=0
GRUB_TIMEOUT=0
GRUB_TERMINAL=console
GRUB_DISABLE_LINUX_UUID=true
GRUB_DISABLE_RECOVERY=true
GRUB_DISABLE_OS_PROBER=true
GRUB_CMDLINE_LINUX_DEFAULT="console=ttyS0 loglevel=4 panic=-1"
EOF
# the first boot's grub.cfg, written here because update-grub inside the
# appliance would name the appliance's disk; stage 1 of lab-host-tests.sh
# runs the real update-grub
mkdir -p "$tree/boot/grub"
cat >"$tree/boot/grub/grub.cfg" <<EOF
set default=0
set timeout=0
insmod part_msdos
insmod ext2
set root=(hd0,msdos1)
menuentry 'rtvirt lab host, first boot' {
	linux /boot/vmlinuz-$release root=/dev/vda1 ro console=ttyS0 loglevel=4 panic=-1
}
EOF
install -m 755 "$here/lab-host-boot" "$tree/usr/local/sbin/lab-host-boot"
cat >"$tree/etc/systemd/system/rtvirt-lab.service" <<'EOF'
[Unit]
Description=rtvirt lab host tests (TAP on ttyS1)
After=libvirtd.service systemd-sysctl.service
Wants=libvirtd.service

[Service]
Type=simple
ExecStart=/usr/local/sbin/lab-host-boot
StandardOutput=journal+console
StandardError=journal+console

[Install]
WantedBy=multi-user.target
EOF
ln -sf /etc/systemd/system/rtvirt-lab.service "$tree/etc/systemd/system/multi-user.target.wants/rtvirt-lab.service"
# no getty on the console: the lab is driven by the unit
ln -sf /dev/null "$tree/etc/systemd/system/serial-getty@ttyS0.service"
# apt inside the lab host: no network there
rm -f "$tree/etc/apt/sources.list" "$tree/etc/apt/sources.list.d/"* 2>/dev/null || true

log "disk image ${size_mb} MiB: MBR, ext4 at 1 MiB (mkfs.ext4 -d), GRUB (guestfish)"
img=$tmp/disk.raw
truncate -s "${size_mb}M" "$img"
echo 'start=2048, type=83, bootable' | sfdisk -q "$img" >/dev/null || die "sfdisk failed"
mkfs.ext4 -q -F -L labroot -E offset=1048576 -d "$tree" "$img" "$((size_mb - 1))M" ||
	die "mkfs.ext4 -d failed"
cp "$tree/var/lib/dpkg/status" "$tmp/dpkg-status"
rm -rf --one-file-system "$tree"
# force_tcg: the appliance must not try KVM (as guest/guestfs.c)
LIBGUESTFS_BACKEND=direct LIBGUESTFS_BACKEND_SETTINGS=${LIBGUESTFS_BACKEND_SETTINGS:-force_tcg} guestfish --rw --format=raw -a "$img" >"$tmp/guestfish.log" 2>&1 <<'EOF' ||
run
mount /dev/sda1 /
command "grub-install --target=i386-pc /dev/sda"
EOF
	{ tail -n 20 "$tmp/guestfish.log" >&2; die "grub-install in the guestfish appliance failed"; }
mkdir -p "$out"
echo "$release" >"$out/release"
# what the image has installed: lab-host-check.sh resolves against it the
# packages the tests add (apt-get -s with Dir::State::status)
cp "$tmp/dpkg-status" "$out/dpkg-status"
mv "$img" "$out/disk.raw"
log "built $out/disk.raw"
echo "$out/disk.raw"
