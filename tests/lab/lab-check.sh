#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# lab-check.sh BUILD_DIR: `make lab-check`.  Boots the lab kernel (built
# once and cached by build-kernel.sh) under QEMU TCG as a real SMT host:
#   -cpu Skylake-Client-v4 -smp 4,sockets=1,cores=2,threads=2
#   isolcpus=2-3 nohz_full=2-3 rcu_nocbs=2-3
# (AMD CPU models show no SMT under TCG), with an initramfs holding the
# rtvirt binary and rv-lab built from this tree, cyclictest and
# qemu-system-x86_64, and runs tests/lab/lab-tests.sh inside.  The TAP
# results come back on the second serial port; files sent in the stream
# (sched_switch traces and their labels) are written to BUILD_DIR/lab/files/.
#
# Environment: RV_LAB_CACHE (kernel cache, default /var/cache/rtvirt/lab),
# RV_LAB_TIMEOUT (seconds for the VM, default 600), RV_LAB_QEMU.
# Exit status: 0 all passed, 1 a test failed, 2 the lab could not run.
set -eu

build=${1:?usage: lab-check.sh BUILD_DIR}
build=$(cd "$build" && pwd)
top=${RV_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
here=$top/tests/lab
out=$build/lab
qemu=${RV_LAB_QEMU:-qemu-system-x86_64}

die() { printf 'lab-check: error: %s\n' "$*" >&2; exit 2; }
log() { printf 'lab-check: %s\n' "$*" >&2; }

kernel=$("$here/build-kernel.sh") || die "no lab kernel (see above)"
log "kernel $kernel"

# rv-lab: the Makefile's pattern rule $(O)/tests/%: links it with
# librtvirt.a; its object is rebuilt every time (its .d is not included).
rm -f "$build/tests/lab/rv-lab.o"
make -C "$top" --no-print-directory O="$build" "$build/tests/lab/rv-lab" >/dev/null ||
	die "building rv-lab failed"

rm -rf "$out"
mkdir -p "$out/files"
append="console=ttyS0 isolcpus=2-3 nohz_full=2-3 rcu_nocbs=2-3 panic=-1 loglevel=4"
"$here/mkinitramfs.sh" "$out/initramfs.cpio" "$build" "$append" || die "initramfs assembly failed"
log "initramfs $(du -h "$out/initramfs.cpio" | cut -f1), booting (QEMU TCG, 2 cores x 2 threads)"
# lab-reboot.sh kexecs into the kernel and initramfs of the boot disk
# (/dev/vda: a tar) and keeps /etc and rtvirt's state on the state disk
# (/dev/vdb: a tar written over the raw disk); no file system driver needed
tar -cf "$out/boot.tar" -C "$out" initramfs.cpio -C "$(dirname "$kernel")" "$(basename "$kernel")" ||
	die "boot disk assembly failed"
tar -tf "$out/boot.tar" | grep -qx bzImage || die "the lab kernel is not named bzImage: $kernel"
truncate -s 16M "$out/state.img"

# thread=single: with multi-threaded TCG a vCPU can still run a stale
# translation of kernel text that another vCPU has just re-patched with
# text_poke_bp() (tracepoint static calls, toggled by the sched_switch trace
# while the QEMU loads run), and dies on an unhandled int3 ("int3: 0000
# [#1] ... Fatal exception in interrupt", seen once in four lab runs).
# One TCG thread makes code modification visible to every vCPU at once;
# the guest still schedules its 4 CPUs as concurrent SMT siblings.
rc=0
timeout "${RV_LAB_TIMEOUT:-600}" "$qemu" \
	-M pc -accel tcg,thread=single -cpu Skylake-Client-v4 \
	-smp 4,sockets=1,cores=2,threads=2 -m 1024 \
	-nodefaults -display none -no-reboot \
	-kernel "$kernel" -initrd "$out/initramfs.cpio" \
	-drive file="$out/boot.tar",format=raw,if=virtio,readonly=on \
	-drive file="$out/state.img",format=raw,if=virtio \
	-append "$append" \
	-serial "file:$out/console.log" -serial "file:$out/results.raw" \
	2>"$out/qemu.err" || rc=$?
if [ $rc -eq 124 ]; then
	log "the lab VM ran past ${RV_LAB_TIMEOUT:-600} s; console: $out/console.log"
elif [ $rc -ne 0 ]; then
	log "QEMU exited with status $rc: $(head -c 500 "$out/qemu.err")"
fi
[ -s "$out/results.raw" ] || {
	tail -n 30 "$out/console.log" >&2 2>/dev/null || true
	die "no results from the lab VM (console: $out/console.log)"
}

# split the stream: TAP to results.tap, "#file" blocks to files/
tr -d '\r' <"$out/results.raw" | awk -v dir="$out/files" -v tap="$out/results.tap" '
	/^#file / { name = $2; b64 = dir "/" name ".gz.b64"; printf "" > b64; next }
	/^#b64 /  { print substr($0, 6) >> b64; next }
	/^#end$/  { close(b64); name = ""; next }
	{ print > tap }'
for f in "$out"/files/*.gz.b64; do
	[ -e "$f" ] || continue
	base64 -d "$f" | gunzip >"${f%.gz.b64}" && rm -f "$f"
done

cat "$out/results.tap"

plan=$(sed -n 's/^1\.\.\([0-9]*\)$/\1/p' "$out/results.tap")
total=$(grep -cE '^(not )?ok [0-9]' "$out/results.tap" || true)
failed=$(grep -cE '^not ok [0-9]' "$out/results.tap" || true)
[ -n "$plan" ] || die "the lab tests ended without a plan (crash?); console: $out/console.log"
[ "$plan" -eq "$total" ] || die "planned $plan tests, saw $total"
if [ "$failed" -ne 0 ]; then
	log "$failed of $total lab tests FAILED (artefacts in $out)"
	exit 1
fi
log "all $total lab tests passed (artefacts in $out)"
