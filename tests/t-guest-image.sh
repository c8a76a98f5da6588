#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# tests/t-guest-image.sh (LIVE: boots guests, run it under the flock): the
# disk guest of profiles/guests/tpcc-guest.ini end to end.
#  - rtvirt guest image builds it (mmdebstrap from this host's apt sources,
#    the TPC-C database loaded; cold, this is the one heavy build of make
#    check) or finds it; the second call is a cache hit;
#  - a failed build (a stub mmdebstrap that fails) leaves nothing in a
#    fresh cache and names the failing step;
#  - rtvirt guest run boots it (direct kernel boot from a fresh overlay)
#    and runs cyclictest inside; the base image is unchanged afterwards;
#  - a one-cell matrix runs the tpcc workload over the guest agent for a
#    few seconds: NOPM > 0, TPM, tps and latency in the store, with their
#    better/aggregate attributes, the raw JSON kept.
set -u
rtvirt=${RV_BUILD:?}/rtvirt
top=${RV_TOP:?}
. "${RV_TOP:?}/tests/tap.sh"

need_cmds qemu-system-x86_64 virsh jq mmdebstrap mkfs.ext4 qemu-img
if [ "$(id -u)" != 0 ]; then skip_all "mmdebstrap root mode and qemu:///system need root"; fi
if ! apt-get indextargets >/dev/null 2>&1; then skip_all "apt does not work here"; fi
export PATH=$PATH:/usr/sbin
need_libvirt "$rtvirt"

profile=$top/profiles/guests/tpcc-guest.ini
domains() { virsh -c qemu:///system list --all --name 2>/dev/null | grep -E '^rtvirt-(tpcc-guest-img|imgtpcc-)' || true; }
tmp=$(mktemp -d)
cleanup() {
    for d in $(domains); do virsh -c qemu:///system destroy "$d" >/dev/null 2>&1; done
    rm -rf "$tmp"
}
trap cleanup EXIT

echo "1..17"

# --- build (or find) the image, then the cache hit ------------------------
"$rtvirt" guest image "$profile" --json >"$tmp/b1.json" 2>"$tmp/b1.err"; rc=$?
check "guest image tpcc-guest exits 0 ($(tail -c 400 "$tmp/b1.err" | tr '\n' ' '))" [ $rc -eq 0 ]
base=$(jq -r .base "$tmp/b1.json" 2>/dev/null)
check "the image is complete: base.qcow2, vmlinuz, initrd.img ($base)" \
    eval '[ -f "$base" ] && [ -f "$(jq -r .kernel "$tmp/b1.json")" ] && [ -f "$(jq -r .initrd "$tmp/b1.json")" ]'
echo "# first build: cached=$(jq -r .cached "$tmp/b1.json") seconds=$(jq -r .seconds "$tmp/b1.json") build_ms=$(jq -r .build_ms "$tmp/b1.json")"
"$rtvirt" guest image "$profile" --json >"$tmp/b2.json" 2>"$tmp/b2.err"; rc=$?
check "the second build is a cache hit with the same hash" \
    eval '[ $rc -eq 0 ] && [ "$(jq -r .cached "$tmp/b2.json")" = true ] && [ "$(jq -r .image "$tmp/b2.json")" = "$(jq -r .image "$tmp/b1.json")" ]'
echo "# cache hit: seconds=$(jq -r .seconds "$tmp/b2.json")"
check "direct boot command line: root=/dev/vda rw, a serial console, the profile's arguments" \
    eval '[ "$(jq -r .cmdline "$tmp/b2.json")" = "root=/dev/vda rw console=ttyS0 panic=-1 quiet" ]'
qemu-img info --output=json "$base" >"$tmp/info.json" 2>/dev/null
check "the base is a standalone qcow2 (no backing file)" \
    eval '[ "$(jq -r .format "$tmp/info.json")" = qcow2 ] && [ "$(jq -r '"'"'."backing-filename" // "none"'"'"' "$tmp/info.json")" = none ]'
sum_before=$(sha256sum "$base" | cut -d' ' -f1)

# --- a failed build leaves nothing in the cache ----------------------------
printf '#!/bin/sh\necho "E: stub mmdebstrap: no network" >&2\nexit 1\n' >"$tmp/mmdebstrap"
chmod +x "$tmp/mmdebstrap"
RTVIRT_MMDEBSTRAP=$tmp/mmdebstrap "$rtvirt" guest image "$profile" --cache-dir "$tmp/cache" >"$tmp/f.out" 2>"$tmp/f.err"; rc=$?
check "a failed build: exit 2 naming the step and mmdebstrap's message ($(head -c 300 "$tmp/f.err"))" \
    eval '[ $rc -eq 2 ] && grep -q "Building the root file system failed" "$tmp/f.err" && grep -q "no network" "$tmp/f.err"'
check "a failed build leaves no image and no temporary directory" \
    eval '[ -z "$(ls -A "$tmp/cache/disk-images" 2>/dev/null)" ]'
"$rtvirt" guest image "$top/profiles/guests/rt-demo.ini" >/dev/null 2>"$tmp/e.err"; rc=$?
check "an embedded profile builds no disk image: exit 2 ($(cat "$tmp/e.err"))" \
    eval '[ $rc -eq 2 ] && grep -q "builds no disk image" "$tmp/e.err"'

# --- boot it: guest run (cyclictest inside) --------------------------------
"$rtvirt" guest run "$profile" --name rtvirt-tpcc-guest-img --duration 2s --json \
    >"$tmp/run.json" 2>"$tmp/run.err"; rc=$?
check "guest run boots the disk guest and runs cyclictest (exit $rc: $(tail -c 300 "$tmp/run.err" | tr '\n' ' '))" \
    eval '[ $rc -eq 0 ] || [ $rc -eq 1 ]'
check "guest run reports a boot time and cyclictest samples" \
    eval '[ "$(jq -r ".boot_ms > 0" "$tmp/run.json")" = true ]'
echo "# disk guest boot: boot_ms=$(jq -r .boot_ms "$tmp/run.json") virt=$(jq -r .virt "$tmp/run.json")"
check "no overlay left behind" eval '[ -z "$(ls "$(dirname "$(dirname "$base")")/../overlays/" 2>/dev/null | grep tpcc-guest-img)" ]'
check "the base image is unchanged by the boot" [ "$(sha256sum "$base" | cut -d' ' -f1)" = "$sum_before" ]

# --- the tpcc workload in a one-cell matrix --------------------------------
cat >"$tmp/m.ini" <<EOM
[main]
name = imgtpcc
description = t-guest-image: the TPC-C neighbour alone, a few seconds
duration = 5s
warmup = 0s
repetitions = 1
baseline = base
timeout = 10m

[guest:db]
profile = $profile
role = neighbour
workload = tpcc

[scenario:base]
description = as it comes
placement = unpinned
EOM
"$rtvirt" run --wait-lock 1800 --output "$tmp/results" "$tmp/m.ini" >"$tmp/m.out" 2>"$tmp/m.err"; rc=$?
check "rtvirt run of the tpcc cell exits 0 ($(tail -n 3 "$tmp/m.err" | tr '\n' ' ' | cut -c1-400))" [ $rc -eq 0 ]
store=$(sed -n 's/^Results: //p' "$tmp/m.out")
rec() { jq -r "[.records[] | select(.workload == \"tpcc\")][0] | $1" "$store/run.json" 2>/dev/null; }
check "the tpcc record is ok with NOPM > 0 ($(rec .metrics.nopm.value))" \
    eval '[ "$(rec .status)" = ok ] && [ "$(rec ".metrics.nopm.value > 0")" = true ]'
check "TPM >= NOPM, tps and the New-Order p99 recorded" \
    eval '[ "$(rec "(.metrics.tpm.value >= .metrics.nopm.value) and .metrics.tps.value > 0 and .metrics.new_order_p99_ms.value > 0")" = true ]'
check "rates are better=higher, aggregate=hmean (contract 1)" \
    eval '[ "$(rec "[.metrics.nopm.better, .metrics.nopm.aggregate, .metrics.tps.aggregate] | join(\",\")")" = "higher,hmean,hmean" ]'
raw=$(rec '.raw[0]')
check "the driver's raw JSON is kept in the store ($raw)" \
    eval '[ -n "$raw" ] && [ "$(jq -r .tool "$store/$raw" 2>/dev/null)" = rtvirt-tpcc ]'
