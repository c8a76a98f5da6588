#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# lab-host-check.sh [--short] BUILD_DIR: `make lab-host-check` (and with
# --short `make lab-host-check-short`, what CI runs).  Boots the lab host --
# Debian 12 with systemd, cgroup v2, libvirtd and GRUB on the lab kernel
# (mkhostimage.sh, cached) -- under QEMU TCG with an SMT topology
# (-smp 4,sockets=1,cores=2,threads=2), from its disk through SeaBIOS and
# GRUB.  rtvirt's .deb (BUILD_DIR/deb, `make deb`) and the tests travel on
# a second disk (a tar); rtvirt-lab.service runs lab-host-tests.sh at
# every boot, one stage a boot (the first installs the .deb), across real
# reboots (`systemctl reboot`: QEMU keeps running on the same disk, an
# overlay on the cached image).  TAP comes back on the second serial port.
#
# --short: two boots instead of six.  The first as in the full check
# (package, GRUB, setup, host show/check, boot arguments installed), the
# second runs the lab flagship's coresched and nosmt scenarios only (the
# two options the flagship compares; baseline and siblings-idle left out)
# with the same read-backs, then powers off: no apply --persist, revert,
# --remove or rebooting `rtvirt run` (the end of stage 2 and stages 3-6 of
# lab-host-tests.sh).
# The mode travels on the test disk (/lab/mode).
#
# Environment: RV_LAB_CACHE (default /var/cache/rtvirt/lab),
# RV_LAB_HOST_TIMEOUT (seconds for the whole VM, default 5400, 2700 with
# --short: the flagship stage runs nested guests),
# RV_LAB_HOST_MEM (MiB, default 4096), RV_LAB_QEMU,
# RV_LAB_HOST_FLAGSHIP (default 1; 0 skips stage 2's flagship matrix, about
# 23 minutes, through /lab/no-flagship on the test disk: for development,
# the full check runs it).
# Exit status: 0 all passed, 1 a test failed (or fewer ran than planned),
# 2 the lab host could not run or its TAP stopped before the plan.
set -eu

mode=full
[ "${1:-}" = --short ] && { mode=short; shift; }
build=${1:?usage: lab-host-check.sh [--short] BUILD_DIR}
timeout_s=${RV_LAB_HOST_TIMEOUT:-$([ $mode = short ] && echo 2700 || echo 5400)}
build=$(cd "$build" && pwd)
top=${RV_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
here=$top/tests/lab
out=$build/lab-host
qemu=${RV_LAB_QEMU:-qemu-system-x86_64}
RV_LAB_EXTRA="qemu-guest-agent gnuplot-nox"

die() { printf 'lab-host-check: error: %s\n' "$*" >&2; exit 2; }
log() { printf 'lab-host-check: %s\n' "$*" >&2; }

deb=$(ls "$build"/deb/rtvirt_*_amd64.deb 2>/dev/null | head -n 1)
[ -n "$deb" ] || die "no $build/deb/rtvirt_*_amd64.deb (make deb)"
kernel=$("$here/build-kernel.sh") || die "no lab kernel (see above)"
log "kernel $kernel"
image=$("$here/mkhostimage.sh" "$kernel" "$deb") || die "no lab host image (see above)"
log "image $image"

rm -rf "$out"
mkdir -p "$out"
qemu-img create -q -f qcow2 -F raw -b "$image" "$out/disk.qcow2" || die "qemu-img create failed"
# the test disk: what lab-host-boot unpacks into /lab
mkdir "$out/lab"
cp "$deb" "$here/lab-host-tests.sh" "$here/tap.sh" "$here/persist.ini" "$here/lab-flagship.py" \
	"$here/lab-host-reboot.sh" "$here/lab-host-reboot.ini" "$out/lab/"
echo $mode >"$out/lab/mode"
[ "${RV_LAB_HOST_FLAGSHIP:-1}" = 0 ] && : >"$out/lab/no-flagship"
# what rtvirt recommends and the flagship stage needs beyond the .deb's
# Depends, as a user would `apt install` it: qemu-guest-agent (the embedded
# guests' agent) and gnuplot-nox (`rtvirt report`); resolved against the
# image's dpkg status (apt-get -s), fetched once with apt-get download into
# the cache, installed by the lab host's first stage (dpkg -i)
cache=${RV_LAB_CACHE:-/var/cache/rtvirt/lab}
status=$(dirname "$image")/dpkg-status
[ -s "$status" ] || die "no $status (mkhostimage.sh keeps the image's dpkg status)"
debs=$cache/debs-$( { echo "$RV_LAB_EXTRA"; cat "$status"; } | sha256sum | cut -c1-16)
if [ ! -d "$debs" ]; then
	rm -rf "$debs.tmp" && mkdir -p "$debs.tmp"
	# shellcheck disable=SC2086
	list=$(apt-get -s -o Dir::State::status="$status" -o APT::Install-Recommends=false \
		install $RV_LAB_EXTRA 2>&1 | sed -n 's/^Inst \([^ ]*\) .*/\1/p')
	[ -n "$list" ] || die "apt-get -s install $RV_LAB_EXTRA against $status resolved nothing"
	# shellcheck disable=SC2086
	(cd "$debs.tmp" && apt-get download -q -o APT::Sandbox::User=root $list >/dev/null) ||
		die "apt-get download failed: $list"
	mv "$debs.tmp" "$debs"
fi
mkdir "$out/lab/debs"
cp "$debs"/*.deb "$out/lab/debs/"
tar -cf "$out/lab.tar" -C "$out/lab" . || die "test disk assembly failed"
truncate -s %1M "$out/lab.tar"

log "booting the lab host (QEMU TCG, 2 cores x 2 threads, SeaBIOS + GRUB; $mode check)"
rc=0
timeout "$timeout_s" "$qemu" \
	-M pc -accel tcg,thread=single -cpu Skylake-Client-v4 \
	-smp 4,sockets=1,cores=2,threads=2 -m "${RV_LAB_HOST_MEM:-4096}" \
	-nodefaults -display none \
	-drive file="$out/disk.qcow2",format=qcow2,if=virtio \
	-drive file="$out/lab.tar",format=raw,if=virtio,readonly=on \
	-serial "file:$out/console.log" -serial "file:$out/results.raw" \
	2>"$out/qemu.err" || rc=$?
if [ $rc -eq 124 ]; then
	log "the lab host ran past $timeout_s s; console: $out/console.log"
elif [ $rc -ne 0 ]; then
	log "QEMU exited with status $rc: $(head -c 500 "$out/qemu.err")"
fi
[ -s "$out/results.raw" ] || {
	tail -n 30 "$out/console.log" >&2 2>/dev/null || true
	die "no results from the lab host (console: $out/console.log)"
}
# TAP to results.tap, "#file" blocks to files/ (as lab-check.sh)
mkdir -p "$out/files"
tr -d '\r' <"$out/results.raw" | awk -v dir="$out/files" -v tap="$out/results.tap" '
	/^#file / { f = dir "/" $2 ".gz.b64"; printf "" >f; next }
	/^#b64 / && f { print substr($0, 6) >>f; next }
	/^#end/ { close(f); f = ""; next }
	{ print >tap }'
for f in "$out"/files/*.gz.b64; do
	[ -e "$f" ] || continue
	base64 -d <"$f" | gunzip >"${f%.gz.b64}" && rm -f "$f"
done
cat "$out/results.tap"
# the plan is printed last (the test count is known only after the reboots)
grep -q '^1\.\.[0-9]' "$out/results.tap" || die "the lab host's TAP has no plan: it stopped early (console: $out/console.log)"
plan=$(sed -n 's/^1\.\.\([0-9]*\).*/\1/p' "$out/results.tap" | tail -n 1)
ran=$(grep -Ec '^(not )?ok ' "$out/results.tap" || true)
[ "$plan" = "$ran" ] || { log "plan $plan, ran $ran"; exit 1; }
if grep -q '^not ok ' "$out/results.tap"; then exit 1; fi
exit 0
