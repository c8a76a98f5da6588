#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/boot.sh: boot-to-ready time of `rtvirt guest run` against a raw
# `qemu-system-x86_64 -kernel/-initrd` boot of the same kernel, initramfs,
# command line, vCPUs, memory, machine and accelerator, side by side.
# "Ready" is the same event on both sides: the first guest-ping answered by
# qemu-guest-agent inside the guest.
#   rtvirt: ready_ms from `rtvirt guest run --json` (session start -> agent
#           answers: image lookup, libvirt start, any failed start retried)
#   raw:    QEMU launched -> guest-ping answered over a unix socket chardev
# The two sides alternate, one boot each per repetition; the verdict is on
# the median of the paired ratios (robust to the machine's drift).
# Target: rtvirt/raw <= 1.05 on the 2-CPU build machine (acceptance bar: 1.10).
# What the domain keeps and why: doc/domain-xml.md.
#
# Usage: bench/boot.sh [PROFILE] [REPETITIONS]    (root; libvirtd running:
#        `rtvirt setup`).  RV_BUILD=DIR picks the build (default ./build).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
rtvirt=${RV_BUILD:-$top/build}/rtvirt
profile=${1:-$top/profiles/guests/rt-demo.ini}
reps=${2:-3}
tmp=$(mktemp -d)
qpid=
cleanup() { [ -n "$qpid" ] && kill "$qpid" 2>/dev/null; rm -rf "$tmp"; }
trap cleanup EXIT

"$rtvirt" setup >/dev/null
"$rtvirt" guest build --out "$tmp/img" >/dev/null

now_ms() { echo $(( $(date +%s%N) / 1000000 )); }

# One rtvirt run first: it settles the kvm/TCG probe (cached afterwards)
# and tells which accelerator the raw boot must use (a warm-up, not
# counted).  Then the two sides alternate, one boot each per repetition:
# on a shared or nested machine the boot time drifts by tens of percent
# over minutes, and alternating puts both sides in the same drift (the
# paired ratios' median below).
rtvirt_boot() {
    "$rtvirt" guest run "$profile" --duration 1s --json >"$tmp/run.json" 2>"$tmp/run.err" || true
    perl -MJSON::PP -e 'local $/; my $d = decode_json(<STDIN>); print "$d->{ready_ms} $d->{virt}\n"' \
         <"$tmp/run.json" 2>/dev/null || { echo "rtvirt guest run failed: $(cat "$tmp/run.err")" >&2; exit 2; }
}
ms=$(rtvirt_boot)
virt=${ms#* }

# The same guest, by hand: parameters read back from rtvirt's domain XML.
xmlvirt=$([ "$virt" = kvm ] && echo kvm || echo qemu)
"$rtvirt" guest xml "$profile" --virt "$xmlvirt" --kernel "$tmp/img/vmlinuz" \
    --initrd "$tmp/img/initramfs.img" >"$tmp/dom.xml" 2>/dev/null
cmdline=$(xmllint --xpath 'string(/domain/os/cmdline)' "$tmp/dom.xml")
vcpus=$(xmllint --xpath 'string(/domain/vcpu)' "$tmp/dom.xml")
mem_kib=$(xmllint --xpath 'string(/domain/memory)' "$tmp/dom.xml")
if [ "$virt" = kvm ]; then accel=(-accel kvm -cpu host); else accel=(-accel tcg -cpu max); fi

raw_boot() {   # sets raw_last (ms); not in a subshell, so cleanup sees qpid
    local sock=$tmp/qga$1.sock t0
    t0=$(now_ms)
    qemu-system-x86_64 -machine q35 "${accel[@]}" -smp "$vcpus" -m "$((mem_kib / 1024))" \
        -display none -serial null -monitor none -no-reboot -nodefaults \
        -kernel "$tmp/img/vmlinuz" -initrd "$tmp/img/initramfs.img" -append "$cmdline" \
        -chardev socket,path="$sock",server=on,wait=off,id=qga0 \
        -device virtio-serial-pci -device virtserialport,chardev=qga0,name=org.qemu.guest_agent.0 \
        2>/dev/null &
    qpid=$!
    perl -MIO::Socket::UNIX -MIO::Select -e '
        my ($sock) = @ARGV; my $s; my $end = time + 300;
        until ($s = IO::Socket::UNIX->new(Peer => $sock)) { die "no socket\n" if time > $end; select(undef,undef,undef,0.02) }
        my $sel = IO::Select->new($s); my $buf = "";
        while (time < $end) {
            print $s "{\"execute\":\"guest-ping\"}\n";
            if ($sel->can_read(0.1)) { sysread($s, $buf, 4096, length $buf) or die "closed\n"; exit 0 if $buf =~ /"return"/ }
        }
        die "timeout\n";' "$sock"
    raw_last=$(( $(now_ms) - t0 ))
    kill "$qpid"; wait "$qpid" 2>/dev/null || true; qpid=
}

rt_ms=()
raw_ms=()
pair=()
for i in $(seq 1 "$reps"); do
    ms=$(rtvirt_boot)
    rt_ms+=("${ms% *}")
    raw_boot "$i"
    raw_ms+=("$raw_last")
    pair+=("$(awk -v a="${rt_ms[-1]}" -v b="${raw_ms[-1]}" 'BEGIN { printf "%.3f", a / b }')")
done

median() { printf '%s\n' "$@" | sort -n | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }
rt_med=$(median "${rt_ms[@]}")
raw_med=$(median "${raw_ms[@]}")
printf 'boot-to-ready (guest-ping answered), %s, virt=%s, %d repetitions\n' "$(basename "$profile")" "$virt" "$reps"
printf '  %-22s %s ms   (median %s)\n' "rtvirt guest run" "${rt_ms[*]}" "$rt_med"
printf '  %-22s %s ms   (median %s)\n' "raw qemu -kernel" "${raw_ms[*]}" "$raw_med"
printf '  %-22s %s\n' "rtvirt/raw, each pair" "${pair[*]}"
awk -v a="$rt_med" -v b="$raw_med" -v p="$(median "${pair[@]}")" 'BEGIN { r = a / b; printf "  ratio rtvirt/raw      %.2f of the medians, %.2f median of the pairs   (target <= 1.05: %s; bar 1.10: %s)\n", r, p, p <= 1.05 ? "met" : "NOT met", p <= 1.10 ? "met" : "NOT met" }'
