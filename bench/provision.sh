#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/provision.sh: provisioning N guests at once, rtvirt against raw
# QEMU, side by side.  "Ready" is the same event on both
# sides, as in bench/boot.sh: qemu-guest-agent inside the guest answers.
#   rtvirt: a generated matrix of N semi-idle guests (profiles/guests/
#           semi-idle.ini, count = N), `rtvirt run`, two repetitions; the
#           figure is repetition 2's boot phase from run.json (the
#           host-counters record's details.provision.boot_ms: journal,
#           image lookup, N domains defined and started and N agents
#           answering, through the provisioning pool of harness/run-pool.c).
#           Repetition 1 boots its first guest alone to learn the
#           accelerator and the host's limits; its figure is printed too.
#   raw:    N `qemu-system-x86_64 -kernel/-initrd` of the same kernel,
#           initramfs, command line, vCPUs and memory launched at once;
#           wall time until the last guest-ping is answered over its unix
#           socket chardev.
# Prints both wall times, the ratio, the per-guest amortised cost
# (wall / N) for each N of the list, and the targets: rtvirt/raw <= 1.15
# at N (default 4), rtvirt's per-guest cost at the largest N of the list
# not above its cost at N = 1.
#
# Usage: bench/provision.sh [N] [--list 1,4,8,16]    (root; libvirtd
#        running: `rtvirt setup`).  RV_BUILD=DIR picks the build (default
#        ./build).  On a shared machine run it under the live lock.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
rtvirt=${RV_BUILD:-$top/build}/rtvirt
profile=$top/profiles/guests/semi-idle.ini
main_n=4
list=1,4,8,16
while [ $# -gt 0 ]; do
    case $1 in
        --list) list=${2:?--list needs a list like 1,4,8}; shift 2 ;;
        --list=*) list=${1#--list=}; shift ;;
        -h|--help) sed -n '2,/^set -eu/p' "$0" | sed '$d'; exit 0 ;;
        *) main_n=$1; shift ;;
    esac
done
for v in $main_n ${list//,/ }; do
    case $v in ''|*[!0-9]*|0) echo "bench/provision.sh: '$v' is not a guest count >= 1" >&2; exit 2 ;; esac
done
tmp=$(mktemp -d)
qpids=()
cleanup() { for p in "${qpids[@]}"; do kill "$p" 2>/dev/null || true; done; rm -rf "$tmp"; }
trap cleanup EXIT
trap "exit 2" INT TERM

"$rtvirt" setup >/dev/null
"$rtvirt" guest build --out "$tmp/img" >/dev/null
now_ms() { echo $(( $(date +%s%N) / 1000000 )); }

# rtvirt: N semi-idle guests in one repetition; prints "rep1_ms rep2_ms virt"
rtvirt_boot() {
    local n=$1 store
    cat >"$tmp/prov-$n.ini" <<INI
[main]
name = provision-$n
duration = 1s
warmup = 0s
repetitions = 2
order = interleaved
timeout = 10m

# rtvirt measures something in every scenario: a 1 s host cyclictest
[host]
workload = cyclictest
cpus = 1

[guest:semi]
profile = $profile
role = neighbour
workload = semi-idle
count = $n

[scenario:all]
description = $n semi-idle guests provisioned at once
placement = unpinned
INI
    "$rtvirt" run --wait-lock 1800 --out "$tmp/store-$n" "$tmp/prov-$n.ini" >"$tmp/run.out" 2>"$tmp/run.err" || true
    store=$(sed -n 's/^Results: //p' "$tmp/run.out")
    perl -MJSON::PP -e '
        local $/; open my $f, "<", $ARGV[0] or die; my $d = decode_json(<$f>); my %b;
        for my $r (@{$d->{records}}) {
            next unless $r->{workload} eq "host-counters" && $r->{details}{provision};
            $b{$r->{repetition}} = $r->{details}{provision}{boot_ms};
            die "repetition $r->{repetition}: $r->{reason}\n" if $r->{status} ne "ok";
        }
        die "no provision object\n" unless defined $b{1} && defined $b{2};
        print "$b{1} $b{2}\n";' "$store/run.json" 2>"$tmp/perl.err" ||
        { echo "rtvirt run of $n guests failed: $(cat "$tmp/perl.err") $(tail -n 3 "$tmp/run.err")" >&2; exit 2; }
    # the accelerator the guests ran under, from the run's summary lines
    grep -q 'virt=tcg' "$tmp/run.err" && echo tcg || echo kvm
}

# raw: N QEMUs at once; prints the wall ms until the last agent answered
raw_boot() {
    local n=$1 t0 waiters=()
    t0=$(now_ms)
    for i in $(seq 1 "$n"); do
        qemu-system-x86_64 -machine q35 "${accel[@]}" -smp "$vcpus" -m "$((mem_kib / 1024))" \
            -display none -serial null -monitor none -no-reboot -nodefaults \
            -kernel "$tmp/img/vmlinuz" -initrd "$tmp/img/initramfs.img" -append "$cmdline" \
            -chardev socket,path="$tmp/qga-$n-$i.sock",server=on,wait=off,id=qga0 \
            -device virtio-serial-pci -device virtserialport,chardev=qga0,name=org.qemu.guest_agent.0 \
            2>/dev/null &
        qpids+=($!)
    done
    for i in $(seq 1 "$n"); do
        perl -MIO::Socket::UNIX -MIO::Select -e '
            my ($sock) = @ARGV; my $s; my $end = time + 600;
            until ($s = IO::Socket::UNIX->new(Peer => $sock)) { die "no socket\n" if time > $end; select(undef,undef,undef,0.02) }
            my $sel = IO::Select->new($s); my $buf = "";
            while (time < $end) {
                print $s "{\"execute\":\"guest-ping\"}\n";
                if ($sel->can_read(0.1)) { sysread($s, $buf, 4096, length $buf) or die "closed\n"; exit 0 if $buf =~ /"return"/ }
            }
            die "timeout\n";' "$tmp/qga-$n-$i.sock" &
        waiters+=($!)
    done
    for w in "${waiters[@]}"; do wait "$w" || { echo "raw QEMU guest did not answer" >&2; kill "${qpids[@]}" 2>/dev/null; exit 2; }; done
    echo $(( $(now_ms) - t0 ))
    for p in "${qpids[@]}"; do kill "$p" 2>/dev/null || true; done
    for p in "${qpids[@]}"; do wait "$p" 2>/dev/null || true; done
    qpids=()
}

ns=$(printf '%s\n' "$main_n" ${list//,/ } | sort -n -u)
declare -A rt1 rt2 raw
virt=
for n in $ns; do
    out=$(rtvirt_boot "$n")
    read -r a b <<<"${out%$'\n'*}"
    v=${out##*$'\n'}
    rt1[$n]=$a; rt2[$n]=$b; virt=$v
    if [ -z "${cmdline:-}" ]; then
        # the raw guest, by hand: parameters read back from rtvirt's domain XML
        xmlvirt=$([ "$virt" = kvm ] && echo kvm || echo qemu)
        "$rtvirt" guest xml "$profile" --virt "$xmlvirt" --kernel "$tmp/img/vmlinuz" \
            --initrd "$tmp/img/initramfs.img" >"$tmp/dom.xml" 2>/dev/null
        cmdline=$(xmllint --xpath 'string(/domain/os/cmdline)' "$tmp/dom.xml")
        vcpus=$(xmllint --xpath 'string(/domain/vcpu)' "$tmp/dom.xml")
        mem_kib=$(xmllint --xpath 'string(/domain/memory)' "$tmp/dom.xml")
        if [ "$virt" = kvm ]; then accel=(-accel kvm -cpu host); else accel=(-accel tcg -cpu max); fi
    fi
    raw[$n]=$(raw_boot "$n")
done

printf "provisioning N guests at once (ready = guest agent answers), semi-idle.ini (%s MiB), virt=%s, %s CPUs, load %s\\n" "$((mem_kib / 1024))" \
    "$virt" "$(nproc)" "$(cut -d' ' -f1-3 /proc/loadavg)"
printf '  %4s  %12s  %12s  %9s  %6s  %16s  %13s\n' N "rtvirt ms" "(1st rep)" "raw ms" ratio "rtvirt ms/guest" "raw ms/guest"
for n in $ns; do
    awk -v n="$n" -v a="${rt2[$n]}" -v a1="${rt1[$n]}" -v b="${raw[$n]}" 'BEGIN {
        printf "  %4d  %12d  %12d  %9d  %6.2f  %16.0f  %13.0f\n", n, a, a1, b, a / b, a / n, b / n }'
done
first=$(printf '%s\n' $ns | head -n 1); last=$(printf '%s\n' $ns | tail -n 1)
awk -v n="$main_n" -v a="${rt2[$main_n]}" -v b="${raw[$main_n]}" 'BEGIN { r = a / b
    printf "  ratio rtvirt/raw at N=%d  %.2f   (target <= 1.15: %s)\n", n, r, r <= 1.15 ? "met" : "NOT met" }'
awk -v f="$first" -v l="$last" -v a="${rt2[$first]}" -v b="${rt2[$last]}" 'BEGIN {
    pf = a / f; pl = b / l
    printf "  rtvirt per guest at N=%d %.0f ms vs N=%d %.0f ms   (target: not above: %s)\n", l, pl, f, pf, pl <= pf ? "met" : "NOT met" }'
