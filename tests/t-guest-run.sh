#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/t-guest-run.sh: the embedded guest, the libvirt lifecycle and
# cyclictest inside, for real: `rtvirt setup` (daemons), `rtvirt guest build`
# (built, then cached with the same hash), and `rtvirt guest run
# profiles/guests/rt-demo.ini` with a real libvirtd and QEMU, JSON and text,
# checked for consistency (virt=kvm|tcg, per-vCPU numbers, percentiles,
# verification, and "untrusted" whenever TCG or a verification FAIL says
# so).  No VM may be left behind.  Skips only when QEMU or libvirtd is not
# installed or we are not root (qemu:///system).
set -u
rtvirt=${RV_BUILD:?}/rtvirt
top=${RV_TOP:?}
profile=$top/profiles/guests/rt-demo.ini
. "${RV_TOP:?}/tests/tap.sh"

for need in qemu-system-x86_64 libvirtd virtlogd virsh; do
    if ! command -v "$need" >/dev/null 2>&1 && [ ! -x "/usr/sbin/$need" ]; then
        echo "1..0 # SKIP $need is not installed"; exit 0
    fi
done
need_root
if [ ! -e /boot/vmlinuz-* ] 2>/dev/null && ! ls /boot/vmlinuz-* >/dev/null 2>&1; then
    echo "1..0 # SKIP no packaged kernel in /boot (linux-image-amd64)"; exit 0
fi

echo "1..19"
tmp=$(mktemp -d)
# Our own domain names: other rtvirt users on this host are left alone.
dom=rtvirt-test-$$
leftover() { virsh -c qemu:///system list --name 2>/dev/null | grep -E "^$dom-" || true; }
cleanup() {
    # Never leave a VM: destroy any of ours that survived a failed run.
    for d in $(leftover); do virsh -c qemu:///system destroy "$d" >/dev/null 2>&1; done
    rm -rf "$tmp"
}
trap cleanup EXIT
export PATH=$PATH:/usr/sbin

# 1-2: a guest this host cannot hold (64 vCPUs, 63 RT) is refused by the
# placement before anything is built or booted; nothing isolated here, so
# the message says 0 isolated CPUs (the fallback's non-isolated CPU is named
# as such).  Needs a host with fewer than 64 CPUs and nothing isolated.
RTVIRT_CACHE_DIR=$tmp/v64cache "$rtvirt" guest run "$top/tests/data/guests/v64.ini" --name "$dom-v64" \
    >"$tmp/v64.out" 2>"$tmp/v64.err" </dev/null; rc=$?
if [ "$(nproc --all)" -lt 64 ] && [ -z "$(tr -d '[:space:]' </sys/devices/system/cpu/isolated)" ]; then
    check "v64: refused, exit 77, before 'Booting' (got $rc: $(head -2 "$tmp/v64.err" | tr '\n' ' '))" \
        eval '[ $rc -eq 77 ] && ! grep -q Booting "$tmp/v64.err" && [ ! -e "$tmp/v64cache" ]'
    check "v64: the message counts 0 isolated CPUs" \
        grep -Eq "^rtvirt: v64.ini: 63 RT vCPUs need 63 isolated CPUs, host has 0 \(/sys/devices/system/cpu/isolated is empty; without isolation [0-9]+ CPUs? outside the boot CPU's core: " "$tmp/v64.err"
else
    ok "# SKIP v64 refusal needs < 64 CPUs and nothing isolated"
    ok "# SKIP v64 refusal needs < 64 CPUs and nothing isolated"
fi

# 3-4: daemons
"$rtvirt" setup >"$tmp/setup" 2>&1; rc=$?
check "rtvirt setup exits 0 ($(tr '\n' ' ' <"$tmp/setup"))" [ $rc -eq 0 ]
"$rtvirt" setup >"$tmp/setup2" 2>&1
check "rtvirt setup is idempotent: both daemons already running" \
    grep -q "libvirtd  already running" "$tmp/setup2"

# 5-7: image build, cached rebuild with the same hash
RTVIRT_CACHE_DIR=$tmp/cache "$rtvirt" guest build --out "$tmp/img" >"$tmp/b1" 2>&1; rc=$?
check "guest build into an empty cache: built" eval '[ $rc -eq 0 ] && grep -q "(built)" "$tmp/b1"'
RTVIRT_CACHE_DIR=$tmp/cache "$rtvirt" guest build >"$tmp/b2" 2>&1
h1=$(awk '/^image/{print $2}' "$tmp/b1"); h2=$(awk '/^image/{print $2}' "$tmp/b2")
check "rebuild with nothing changed: cached, same hash $h1" \
    eval '[ -n "$h1" ] && [ "$h1" = "$h2" ] && grep -q "(cached)" "$tmp/b2"'
check "--out holds a gzip initramfs and the kernel" \
    eval 'gzip -t "$tmp/img/initramfs.img" && [ -s "$tmp/img/vmlinuz" ]'

# 8-17: guest run --json, for real
"$rtvirt" guest run "$profile" --name "$dom-json" --duration 2s --json --raw-output "$tmp/raw" \
    >"$tmp/run.json" 2>"$tmp/run.err"; rc=$?
check "guest run --json exits 0 or 1 (got $rc: $(tail -1 "$tmp/run.err"))" \
    eval '[ $rc -eq 0 ] || [ $rc -eq 1 ]'
# One perl pass: prints "name=value" facts the checks below read.
perl -MJSON::PP -e '
    local $/; my $d = eval { decode_json(<STDIN>) } or do { print "parse=0\n"; exit };
    print "parse=1\n";
    print "virt=$d->{virt}\n";
    print "untrusted=", ($d->{untrusted} ? 1 : 0), "\n";
    print "fifo_dropped=", ($d->{fifo_dropped} ? 1 : 0), "\n";
    print "findings=", scalar @{$d->{findings}}, "\n";
    my $v = $d->{verification};
    print "fail=$v->{fail}\n";
    print "checks=", scalar @{$v->{checks}}, "\n";
    my $nf = grep { $_->{result} eq "FAIL" } @{$v->{checks}};
    print "fail_listed=$nf\n";
    my $schedfail = grep { $_->{result} eq "FAIL" && $_->{what} =~ /scheduler/ } @{$v->{checks}};
    print "sched_fail=$schedfail\n";
    my @t = @{$d->{cyclictest}{threads}};
    print "threads=", scalar @t, "\n";
    my $good = 0;
    for my $t (@t) {
        my $p = $t->{percentiles_us};
        $good++ if $t->{samples} > 0 && $t->{min_us} <= $t->{avg_us} && $t->{avg_us} <= $t->{max_us}
                && defined $p->{p50} && defined $p->{p99}
                && $p->{p50} <= $p->{p99} && $p->{p99} <= $t->{max_us} && $t->{vcpu} >= 0;
    }
    print "threads_consistent=$good\n";
    print "exit_status=$d->{cyclictest}{exit_status}\n";
' <"$tmp/run.json" >"$tmp/facts"
fact() { sed -n "s/^$1=//p" "$tmp/facts"; }
check "the JSON parses" [ "$(fact parse)" = 1 ]
check "virt is kvm or tcg (virt=$(fact virt))" eval '[ "$(fact virt)" = kvm ] || [ "$(fact virt)" = tcg ]'
check "one cyclictest thread per RT vCPU of rt-demo (1), exit 0" \
    eval '[ "$(fact threads)" = 1 ] && [ "$(fact exit_status)" = 0 ]'
check "per-vCPU samples > 0, min <= avg <= max, p50 <= p99 <= max" [ "$(fact threads_consistent)" = 1 ]
check "verification ran: $(fact checks) checks, fail count = FAIL lines ($(fact fail))" \
    eval '[ "$(fact checks)" -ge 4 ] && [ "$(fact fail)" = "$(fact fail_listed)" ]'
check "exit status 1 exactly when a verification check FAILs" \
    eval '{ [ "$(fact fail)" -gt 0 ] && [ $rc -eq 1 ]; } || { [ "$(fact fail)" = 0 ] && [ $rc -eq 0 ]; }'
check "untrusted under TCG or with a FAIL, with findings" \
    eval 'if [ "$(fact virt)" = tcg ] || [ "$(fact fail)" -gt 0 ]; then [ "$(fact untrusted)" = 1 ] && [ "$(fact findings)" -gt 0 ]; else true; fi'
check "vCPUs without FIFO (RT-group trap) show as a scheduler FAIL, never silently" \
    eval 'if [ "$(fact fifo_dropped)" = 1 ]; then [ "$(fact sched_fail)" -ge 1 ] && grep -q "CONFIG_RT_GROUP_SCHED" "$tmp/run.json"; else true; fi'
check "--raw-output holds cyclictest's histogram" grep -q "^# Max Latencies:" "$tmp/raw"

# 18: text output
"$rtvirt" guest run "$profile" --name "$dom-text" --duration 1s >"$tmp/run.txt" 2>"$tmp/run2.err"; rc2=$?
check "text output: virt=, verification, per-vCPU table with percentiles, result (exit $rc2)" \
    eval '{ [ $rc2 -eq 0 ] || [ $rc2 -eq 1 ]; } &&
          grep -Eq "^guest +rt-demo \(domain $dom-text\) virt=(kvm|tcg)$" "$tmp/run.txt" &&
          grep -q "^verification " "$tmp/run.txt" &&
          grep -Eq "^  vCPU +thread +samples +min +avg +max +p50 +p90 +p99 " "$tmp/run.txt" &&
          grep -Eq "^  1 +0 +[0-9]+ " "$tmp/run.txt" &&
          grep -Eq "^result +(TRUSTED|UNTRUSTED).* virt=(kvm|tcg)$" "$tmp/run.txt"'

# 19: nothing left running
check "no $dom-* domain left running" [ -z "$(leftover)" ]
