#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# build-kernel.sh [--host]: build (once) the lab kernel and print the path
# of its bzImage on stdout.  One kernel serves both labs: the lab VM
# (lab-check.sh, busybox initramfs) and the lab host (lab-host-check.sh,
# Debian 12 from disk), so that a cold `make lab-check` builds the kernel
# the lab host needs too (about 1,370 files against 1,170 for the lab VM's
# needs alone).  --host is accepted for older callers and changes nothing.
#
# The kernel is Debian's linux-source-6.1, configured from
# `make ARCH=x86_64 tinyconfig` (plain `tinyconfig` gives a 32-bit config)
# plus tests/lab/kernel.config (SMT, core scheduling, isolation, the lab
# VM's devices) and tests/lab/host-kernel.config (disk root, systemd,
# cgroup v2, libvirt), then `olddefconfig`.  Every line of the
# fragments must survive into the final .config: olddefconfig silently drops
# an option whose dependencies are unmet, so the script compares and fails
# naming each missing option.
#
# The result is cached OUTSIDE the repository in
#   ${RV_LAB_CACHE:-/var/cache/rtvirt/lab}/<hash>/bzImage
# where <hash> covers the fragments, this script and the linux-source package
# version, so any change to the configuration builds a new kernel and an
# unchanged one costs nothing.  Concurrent callers serialise on a flock.
#
# Progress goes to stderr (and the full build log to <hash>/build.log).
set -eu

here=$(cd "$(dirname "$0")" && pwd)
frags="$here/kernel.config $here/host-kernel.config"
cache=${RV_LAB_CACHE:-/var/cache/rtvirt/lab}
tarball=/usr/src/linux-source-6.1.tar.xz
pkg=linux-source-6.1

log() { printf 'lab-kernel: %s\n' "$*" >&2; }
die() { printf 'lab-kernel: error: %s\n' "$*" >&2; exit 2; }

[ -r "$tarball" ] || die "'$tarball' missing: apt-get install $pkg (build-aux/debian-packages.txt)"
for tool in make gcc bc flex bison xz sha256sum flock; do
	command -v "$tool" >/dev/null 2>&1 || die "'$tool' not found (build-aux/debian-packages.txt)"
done
srcver=$(dpkg-query -W -f='${Version}' "$pkg" 2>/dev/null || echo unknown)
# shellcheck disable=SC2086 # frags: paths without spaces
hash=$( { cat $frags "$0"; echo "$pkg $srcver"; } | sha256sum | cut -c1-16)
out=$cache/$hash

if [ -s "$out/bzImage" ]; then
	echo "$out/bzImage"
	exit 0
fi

mkdir -p "$cache"
exec 9>"$cache/.lock"
flock 9
if [ -s "$out/bzImage" ]; then       # built by whoever held the lock
	echo "$out/bzImage"
	exit 0
fi

src=$cache/src-$srcver
if [ ! -e "$src/.extracted" ]; then
	log "extracting $tarball to $src"
	rm -rf "$src.tmp" "$src"
	mkdir -p "$src.tmp"
	tar -C "$src.tmp" --strip-components=1 -xf "$tarball"
	touch "$src.tmp/.extracted"
	mv "$src.tmp" "$src"
fi

obj=$out/build
mkdir -p "$obj"
blog=$out/build.log
: >"$blog"
mk() { make -C "$src" O="$obj" ARCH=x86_64 "$@" >>"$blog" 2>&1 || die "make $* failed, see $blog"; }

log "configuring in $obj (tinyconfig + $(for f in $frags; do basename "$f"; done | tr '\n' ' '))"
mk tinyconfig
# shellcheck disable=SC2086
wanted() { cat $frags | grep -v '^[[:space:]]*#' | grep .; }
wanted >>"$obj/.config"
mk olddefconfig

missing=$(wanted | while read -r want; do
	line=$want
	case $want in *=n) line="# ${want%=n} is not set" ;; esac
	grep -qxF "$line" "$obj/.config" || {
		name=${want%%=*}
		have=$(grep -E "^$name=|^# $name is not set" "$obj/.config" || echo "$name absent")
		echo "  want $want, have: $have"
	}
done)
if [ -n "$missing" ]; then
	printf 'lab-kernel: error: olddefconfig dropped wanted options (unmet dependencies?):\n%s\n' "$missing" >&2
	exit 2
fi

jobs=$(nproc 2>/dev/null || echo 2)
log "building bzImage with -j$jobs (about 10 min on 2 CPUs; log: $blog)"
mk -j"$jobs" bzImage
cp "$obj/arch/x86/boot/bzImage" "$out/bzImage.tmp"
cp "$obj/.config" "$out/config"
mv "$out/bzImage.tmp" "$out/bzImage"
log "built $out/bzImage"
echo "$out/bzImage"
