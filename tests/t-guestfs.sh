#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# tests/t-guestfs.sh (LIVE: boots a guest, run it under the flock): the
# libguestfs path of `rtvirt guest image` on a real
# Debian image.  The "user's cloud image" is a copy of the disk image of
# profiles/guests/tpcc-guest.ini (mmdebstrap, qemu-guest-agent inside;
# built or found in the cache, as tests/t-guest-image.sh leaves it).  A
# profile with base_image = that copy is built through libguestfs (its C
# API, guestfs.h; TCG appliance: force_tcg) into a cache of this test:
#  - method libguestfs, root by UUID, the profile's kernel arguments; the
#    second build is a cache hit;
#  - guestfish, read-only, finds what rtvirt put in: the guest tools equal
#    to this build's, the agent enabled, /etc/rtvirt/cmdline, the grub
#    drop-in;
#  - rtvirt guest run boots it and cyclictest runs inside; the user's image
#    is byte for byte unchanged;
#  - a base_image that is no disk image fails with exit 2 naming it, and
#    nothing is left in the cache.
set -u
rtvirt=${RV_BUILD:?}/rtvirt
top=${RV_TOP:?}
. "${RV_TOP:?}/tests/tap.sh"

need_cmds qemu-system-x86_64 virsh jq mmdebstrap qemu-img guestfish sha256sum
if [ "$(id -u)" != 0 ]; then skip_all "mmdebstrap root mode and qemu:///system need root"; fi
if ! apt-get indextargets >/dev/null 2>&1; then skip_all "apt does not work here"; fi
export PATH=$PATH:/usr/sbin
need_libvirt "$rtvirt"
# this machine's -cpu host aborts in the appliance: TCG
export LIBGUESTFS_BACKEND_SETTINGS=${LIBGUESTFS_BACKEND_SETTINGS:-force_tcg}

domains() { virsh -c qemu:///system list --all --name 2>/dev/null | grep -E '^rtvirt-gfs-' || true; }
tmp=$(mktemp -d)
# QEMU (libvirt-qemu) reads the overlay's backing file, the user's image
chmod 755 "$tmp"
cleanup() {
    for d in $(domains); do virsh -c qemu:///system destroy "$d" >/dev/null 2>&1; done
    rm -rf "$tmp"
}
trap cleanup EXIT

"$rtvirt" guest image "$top/profiles/guests/tpcc-guest.ini" --json >"$tmp/src.json" 2>"$tmp/src.err" ||
    { echo "1..0 # SKIP the Debian source image did not build: $(tail -c 300 "$tmp/src.err")"; exit 0; }
echo "1..10"
cp "$(jq -r .base "$tmp/src.json")" "$tmp/cloud.qcow2"
sum_before=$(sha256sum "$tmp/cloud.qcow2" | cut -d' ' -f1)
cat >"$tmp/gfs.ini" <<INI
[main]
name = gfs
description = a user's base image customised by libguestfs

[cpu]
vcpus = 2
threads_per_core = 1
rt_vcpus = 1
emulator = housekeeping
mode = host-passthrough
pmu = false

[memory]
size = 1G
hugepages = false
locked = false
nosharepages = false

[placement]
require_isolated = false

[kernel]
cmdline = console=ttyS0 panic=-1 quiet rtvirt.test=gfs
isolate_rt_vcpus = false

[image]
type = disk
base_image = $tmp/cloud.qcow2
INI

t0=$(date +%s%N)
"$rtvirt" guest image --cache-dir "$tmp/cache" "$tmp/gfs.ini" --json >"$tmp/b1.json" 2>"$tmp/b1.err"; rc=$?
t1=$(date +%s%N)
check "guest image through libguestfs exits 0 in $(( (t1 - t0) / 1000000 )) ms ($(tail -c 300 "$tmp/b1.err" | tr '\n' ' '))" \
    eval '[ $rc -eq 0 ] && [ "$(jq -r .method "$tmp/b1.json")" = libguestfs ] && [ "$(jq -r .cached "$tmp/b1.json")" = false ]'
echo "# libguestfs build: $(jq -c '{seconds, disk_bytes, root}' "$tmp/b1.json")"
check "root by file-system UUID, the profile's kernel arguments on the command line ($(jq -r .cmdline "$tmp/b1.json"))" \
    eval 'jq -r .root "$tmp/b1.json" | grep -Eq "^UUID=[0-9a-f-]{36}$" &&
          [ "$(jq -r .cmdline "$tmp/b1.json")" = "root=$(jq -r .root "$tmp/b1.json") rw console=ttyS0 panic=-1 quiet rtvirt.test=gfs" ]'
"$rtvirt" guest image --cache-dir "$tmp/cache" "$tmp/gfs.ini" --json >"$tmp/b2.json" 2>/dev/null
check "the second build is a cache hit ($(jq -r .seconds "$tmp/b2.json") s)" \
    eval '[ "$(jq -r .cached "$tmp/b2.json")" = true ] && [ "$(jq -r .image "$tmp/b2.json")" = "$(jq -r .image "$tmp/b1.json")" ]'

base=$(jq -r .base "$tmp/b1.json")
guestfish --ro -a "$base" -i <<'GF' >"$tmp/gf.out" 2>"$tmp/gf.err"
checksum sha256 /usr/local/bin/rtvirt-pipe
readlink /etc/systemd/system/multi-user.target.wants/qemu-guest-agent.service
cat /etc/rtvirt/cmdline
cat /etc/default/grub.d/rtvirt.cfg
GF
want_pipe=$(sha256sum "$RV_BUILD/rtvirt-pipe" | cut -d' ' -f1)
sed 's/^/# guestfish: /' "$tmp/gf.out"
check "guestfish finds this build's rtvirt-pipe in /usr/local/bin and the agent enabled ($(head -c 200 "$tmp/gf.err"))" \
    eval '[ "$(sed -n 1p "$tmp/gf.out")" = "$want_pipe" ] && sed -n 2p "$tmp/gf.out" | grep -q "qemu-guest-agent.service$"'
check "and the kernel arguments in /etc/rtvirt/cmdline and the grub drop-in" \
    eval 'sed -n 3p "$tmp/gf.out" | grep -q "rtvirt.test=gfs" && grep -q "^GRUB_CMDLINE_LINUX_DEFAULT=.*rtvirt.test=gfs" "$tmp/gf.out"'

qlog=/var/log/libvirt/qemu/rtvirt-gfs-t.log
rm -f "$qlog"
"$rtvirt" guest run --cache-dir "$tmp/cache" --name rtvirt-gfs-t -d 3s --json "$tmp/gfs.ini" >"$tmp/run.json" 2>"$tmp/run.err"; rc=$?
# exit 1 is the untrusted verdict of this host (no FIFO vCPUs), not a failure to run
check "guest run boots it and runs cyclictest inside (exit $rc, $(jq -c '{ready_ms, virt}' "$tmp/run.json" 2>/dev/null))" \
    eval '[ $rc -le 1 ] && [ "$(jq -r .cyclictest.exit_status "$tmp/run.json")" = 0 ] &&
          [ "$(jq -r ".cyclictest.threads[0].samples" "$tmp/run.json")" -gt 0 ]'
check "QEMU booted the image's kernel with its command line: root by UUID and rtvirt.test=gfs (libvirt's log of the domain)" \
    eval 'grep -o "^-append .*" "$qlog" | tail -n 1 | grep -qF "root=$(jq -r .root "$tmp/b1.json") rw console=ttyS0 panic=-1 quiet rtvirt.test=gfs"'
check "the user's image is unchanged (sha256)" [ "$(sha256sum "$tmp/cloud.qcow2" | cut -d' ' -f1)" = "$sum_before" ]

head -c 1048576 /dev/urandom >"$tmp/garbage.qcow2"
sed "s|^base_image = .*|base_image = $tmp/garbage.qcow2|" "$tmp/gfs.ini" >"$tmp/bad.ini"
"$rtvirt" guest image --cache-dir "$tmp/cache2" "$tmp/bad.ini" >/dev/null 2>"$tmp/bad.err"; rc=$?
check "a base_image that is no disk image: exit 2 naming it ($(head -c 200 "$tmp/bad.err"))" \
    eval '[ $rc -eq 2 ] && grep -q "garbage.qcow2" "$tmp/bad.err"'
check "and nothing of it is left in the cache" \
    eval '[ -z "$(find "$tmp/cache2" -name base.qcow2 2>/dev/null)" ]'
exit 0
