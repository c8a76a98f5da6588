#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/t-guest-xml.sh: `rtvirt guest xml` end to end on a fixture root made
# from this build machine's captured sysfs (tests/data/domainxml/topology/
# sysfs-build-2cpu-nosmt.txt): output = the golden domain of test-domainxml,
# valid for virt-xml-validate, NOTEs and refusals on stderr, exit codes.
set -u
rtvirt=${RV_BUILD:?}/rtvirt
top=${RV_TOP:?}
data=$top/tests/data/domainxml
. "${RV_TOP:?}/tests/tap.sh"
echo "1..26"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

# grep -H dump -> fixture tree ("path:value", "path:" for an empty file)
root=$tmp/root
while IFS= read -r line; do
    path=${line%%:*} value=${line#*:}
    mkdir -p "$root$(dirname "$path")"
    printf '%s\n' "$value" >"$root$path"
done <"$data/topology/sysfs-build-2cpu-nosmt.txt"
img=(--kernel /var/cache/rtvirt/images/TEST/vmlinuz --initrd /var/cache/rtvirt/images/TEST/initramfs.img)

"$rtvirt" guest xml "$top/profiles/guests/rt-demo.ini" --root "$root" --virt qemu "${img[@]}" \
    >"$tmp/demo.xml" 2>"$tmp/err"; rc=$?
[ $rc -eq 0 ] && ok "rt-demo places on the 2-CPU host, exit 0" || nok "rt-demo exit $rc: $(cat "$tmp/err")"
cmp -s "$tmp/demo.xml" "$data/build-2cpu-rt-demo-tcg.xml" \
    && ok "stdout is the golden build-2cpu-rt-demo-tcg.xml" || nok "stdout differs: $(diff "$tmp/demo.xml" "$data/build-2cpu-rt-demo-tcg.xml" | head -5)"
virt-xml-validate "$tmp/demo.xml" domain >/dev/null 2>&1 && ok "virt-xml-validate accepts it" || nok "virt-xml-validate rejects it"
grep -qx "rtvirt: NOTE vCPU1 on CPU 1: the CPU is not isolated (/sys/devices/system/cpu/isolated is empty); its latency includes host housekeeping noise" "$tmp/err" \
    && ok "NOTE: CPU 1 not isolated" || nok "no NOTE: $(cat "$tmp/err")"

"$rtvirt" guest xml "$top/profiles/guests/rt-demo.ini" --root "$root" "${img[@]}" >"$tmp/kvm.xml" 2>/dev/null
grep -q '^<domain type="kvm">' "$tmp/kvm.xml" && ok "--virt auto on a fixture root: type kvm" || nok "auto virt: $(head -1 "$tmp/kvm.xml")"

"$rtvirt" guest xml "$top/profiles/guests/rt-guest.ini" --root "$root" "${img[@]}" >"$tmp/out" 2>"$tmp/err"; rc=$?
{ [ $rc -eq 77 ] && [ ! -s "$tmp/out" ] && \
  grep -qx "rtvirt: rt-guest.ini: 3 RT vCPUs need 3 isolated CPUs, host has 0 (/sys/devices/system/cpu/isolated is empty)" "$tmp/err"; } \
    && ok "rt-guest refused with the reason, exit 77, no XML" || nok "rt-guest: rc=$rc $(cat "$tmp/err")"

"$rtvirt" guest xml "$top/profiles/guests/rt-demo.ini" --root "$root" --host-profile "$top/profiles/host/two-cpu.ini" \
    --virt qemu "${img[@]}" >"$tmp/hp.xml" 2>"$tmp/err"; rc=$?
{ [ $rc -eq 0 ] && cmp -s "$tmp/hp.xml" "$data/build-2cpu-two-cpu-profile-rt-demo.xml"; } \
    && ok "--host-profile two-cpu.ini: the golden domain" || nok "host profile: rc=$rc $(cat "$tmp/err")"
grep -qF "NOTE two-cpu.ini isolates CPUs 1, the host has none isolated now (rtvirt host bootargs $top/profiles/host/two-cpu.ini --install, then reboot)" "$tmp/err" \
    && ok "NOTE: host not booted with the profile's isolation yet" || nok "no intent NOTE: $(cat "$tmp/err")"

echo 1 >"$root/sys/devices/system/cpu/isolated"
"$rtvirt" guest xml "$top/profiles/guests/rt-demo.ini" --root "$root" --virt qemu "${img[@]}" >"$tmp/iso.xml" 2>"$tmp/err"; rc=$?
{ [ $rc -eq 0 ] && [ ! -s "$tmp/err" ] && grep -q '<vcpupin vcpu="1" cpuset="1"/>' "$tmp/iso.xml"; } \
    && ok "isolcpus=1 on the host: vCPU1 on CPU 1, no NOTE" || nok "isolated: rc=$rc $(cat "$tmp/err")"

"$rtvirt" guest xml "$top/tests/data/guests/bad/rt-all.ini" --root "$root" "${img[@]}" >/dev/null 2>"$tmp/err"; rc=$?
{ [ $rc -eq 2 ] && grep -q "rt-all.ini:4: invalid rt_vcpus 'all' in \[cpu\]" "$tmp/err"; } \
    && ok "bad profile: FILE:LINE message, exit 2" || nok "bad profile: rc=$rc $(cat "$tmp/err")"
"$rtvirt" guest xml "$top/profiles/guests/rt-demo.ini" --root "$root" --kernel /x >/dev/null 2>"$tmp/err"; rc=$?
{ [ $rc -eq 2 ] && grep -q -- "--kernel and --initrd go together" "$tmp/err"; } \
    && ok "--kernel without --initrd: exit 2" || nok "kernel alone: rc=$rc $(cat "$tmp/err")"
"$rtvirt" guest xml "$top/profiles/guests/rt-demo.ini" --root "$root" --virt xen "${img[@]}" >/dev/null 2>"$tmp/err"; rc=$?
{ [ $rc -eq 2 ] && grep -q "invalid --virt 'xen': expected auto, kvm, tcg (alias qemu)" "$tmp/err"; } \
    && ok "--virt xen refused, exit 2, the spellings listed" || nok "--virt xen: rc=$rc $(cat "$tmp/err")"
# --virt: both spellings of TCG documented the same way by guest xml and guest run
for cmd in xml run; do
    "$rtvirt" guest $cmd --help >"$tmp/help" 2>&1
    grep -- "--virt" "$tmp/help" | grep -q "auto, kvm, tcg (alias qemu)" \
        && ok "guest $cmd --help: --virt auto, kvm, tcg (alias qemu)" \
        || nok "guest $cmd --help: $(grep -- --virt "$tmp/help")"
done
# --check: judge an existing domain against the host (exit 1 on FAIL)
"$rtvirt" guest xml --check "$tmp/iso.xml" --root "$root" >"$tmp/out" 2>"$tmp/err"; rc=$?
{ [ $rc -eq 0 ] && grep -qx "PASS  placement.isolated: RT vCPUs on isolated CPU 1" "$tmp/out"; } \
    && ok "--check of our own domain on the isolated host: OK, exit 0" || nok "--check: rc=$rc $(cat "$tmp/out" "$tmp/err")"
"$rtvirt" guest xml --check "${RV_CASES:?}/libvirt/libvirt-formatdomain-cputune-example.xml" --root "$root" >"$tmp/out" 2>"$tmp/err"; rc=$?
{ [ $rc -eq 1 ] && grep -qx "FAIL  placement.emulator-on-rt: emulator threads on CPUs 1-3, which RT vCPUs use (0-4)" "$tmp/out" && \
  grep -qx "      fix: move <emulatorpin> to housekeeping CPUs, apart from the RT vCPUs" "$tmp/out"; } \
    && ok "--check of the formatdomain example: FAIL, exit 1" || nok "--check formatdomain: rc=$rc $(cat "$tmp/out" "$tmp/err")"
# a pin to a CPU this 2-CPU host does not have (99): FAIL, never "OK pinned 1:1"
sed 's/<vcpupin vcpu="1" cpuset="1"\/>/<vcpupin vcpu="1" cpuset="99"\/>/' "$tmp/iso.xml" >"$tmp/pin99.xml"
"$rtvirt" guest xml --check "$tmp/pin99.xml" --root "$root" >"$tmp/out" 2>"$tmp/err"; rc=$?
{ [ $rc -eq 1 ] && grep -q 'cpuset="99"' "$tmp/pin99.xml" && \
  grep -qx "FAIL  placement.offline-cpu: vCPU1 pinned to CPU 99, which this host does not have online (online CPUs: 0-1)" "$tmp/out"; } \
    && ok "--check of a pin to CPU 99 on a 2-CPU host: FAIL, exit 1" || nok "--check pin 99: rc=$rc $(cat "$tmp/out" "$tmp/err")"
{ grep -q "^PASS  placement.emulator-apart" "$tmp/out" && ! grep -q "^PASS  placement.rt-pinned" "$tmp/out"; } \
    && ok "--check pin 99: PASS lines listed, none for the RT vCPU" || nok "--check pin 99 says PASS: $(grep ^PASS "$tmp/out")"
# --check - reads stdin; --json carries ids and fixes (host check's members)
"$rtvirt" guest xml --check - --root "$root" --json <"$tmp/pin99.xml" >"$tmp/out.json" 2>"$tmp/err"; rc=$?
perl -MJSON::PP -e 'local $/; my $d = decode_json(<STDIN>);
    my @f = @{$d->{findings}}; my ($off) = grep { $_->{id} eq "placement.offline-cpu" } @f;
    exit !($d->{schema_version} == 1 && $d->{domain_xml} eq "<stdin>" && $d->{verdict} eq "FAIL"
           && $d->{failures} == 1 && $d->{summary}{fail} == 1 && $off && $off->{level} eq "FAIL"
           && $off->{fix} =~ /online/ && (grep { $_->{level} eq "PASS" && !defined $_->{fix} } @f) == @f - 1)' \
    <"$tmp/out.json" 2>/dev/null
[ $? -eq 0 ] && [ $rc -eq 1 ] && ok "--check - --json: stdin, verdict FAIL, ids, fix only on the FAIL, exit 1" \
    || nok "--check - --json: rc=$rc $(head -c 400 "$tmp/out.json") $(cat "$tmp/err")"
# part 3: topology for every guest, RT or not
sed 's/cores="2" threads="1"/cores="2" threads="2"/' "$tmp/iso.xml" >"$tmp/topo4.xml"
"$rtvirt" guest xml --check "$tmp/topo4.xml" --root "$root" >"$tmp/out" 2>"$tmp/err"; rc=$?
{ [ $rc -eq 1 ] && grep -q 'threads="2"' "$tmp/topo4.xml" && \
  grep -qx "FAIL  topology.vcpu-count: <topology> sockets 1 x dies 1 x clusters 1 x cores 2 x threads 2 = 4 vCPUs, <vcpu> is 2" "$tmp/out"; } \
    && ok "--check: <topology> of 4 vCPUs for <vcpu> 2 is a FAIL" || nok "topology count: rc=$rc $(cat "$tmp/out" "$tmp/err")"
sed 's/cores="2" threads="1"/cores="1" threads="2"/' "$tmp/iso.xml" >"$tmp/smt.xml"
"$rtvirt" guest xml --check "$tmp/smt.xml" --root "$root" >"$tmp/out" 2>"$tmp/err"; rc=$?
{ [ $rc -eq 1 ] && grep -q "^FAIL  topology.smt-siblings: vCPUs 0-1 are SMT siblings of one guest core (threads=2), pinned to host CPUs 0-1 on 2 different host cores" "$tmp/out"; } \
    && ok "--check: guest SMT siblings on two host cores (no SMT here) is a FAIL" || nok "smt siblings: rc=$rc $(cat "$tmp/out" "$tmp/err")"
"$rtvirt" guest xml --check "$data/build-2cpu-tp-disk.xml" --root "$root" >"$tmp/out" 2>"$tmp/err"; rc=$?
{ [ $rc -eq 0 ] && grep -q "^PASS  placement.no-rt: no RT vCPU" "$tmp/out" && \
  grep -q "^PASS  topology.vcpu-count: " "$tmp/out"; } \
    && ok "--check of a guest without RT vCPUs: the topology is judged too" || nok "tp-disk: rc=$rc $(cat "$tmp/out" "$tmp/err")"
sed 's/sockets="1"/sockets="x"/' "$tmp/iso.xml" >"$tmp/badtopo.xml"
"$rtvirt" guest xml --check "$tmp/badtopo.xml" --root "$root" >/dev/null 2>"$tmp/err"; rc=$?
{ [ $rc -eq 2 ] && grep -q "badtopo.xml: line [0-9]*: " "$tmp/err"; } \
    && ok "--check: a bad <topology> attribute is exit 2, named" || nok "bad topology: rc=$rc $(cat "$tmp/err")"
# the guest isolates vCPU1 (isolcpus= in <os><cmdline>) without <vcpusched>: WARN
sed '/<vcpusched/d' "$tmp/iso.xml" >"$tmp/nofifo.xml"
"$rtvirt" guest xml --check "$tmp/nofifo.xml" --root "$root" >"$tmp/out" 2>"$tmp/err"; rc=$?
{ [ $rc -eq 0 ] && grep -q "^WARN  vcpu.isolated-not-rt: vCPU1 is isolated by the guest kernel" "$tmp/out"; } \
    && ok "--check: a vCPU the guest isolates without FIFO is a WARN" || nok "isolated-not-rt: rc=$rc $(cat "$tmp/out" "$tmp/err")"
echo '<domain><vcpu>x</vcpu></domain>' >"$tmp/bad.xml"
"$rtvirt" guest xml --check "$tmp/bad.xml" --root "$root" >/dev/null 2>"$tmp/err"; rc=$?
{ [ $rc -eq 2 ] && grep -q "bad.xml: line 1: invalid <vcpu> 'x'" "$tmp/err"; } \
    && ok "--check of a bad domain: named error, exit 2" || nok "--check bad: rc=$rc $(cat "$tmp/err")"
"$rtvirt" guest xml "$top/profiles/guests/rt-demo.ini" --root "$root" "${img[@]}" --name 'a b' >/dev/null 2>"$tmp/err"; rc=$?
{ [ $rc -eq 2 ] && grep -q "invalid --name 'a b'" "$tmp/err"; } \
    && ok "--name outside the [main] name rule: exit 2, named" || nok "--name 'a b': rc=$rc $(cat "$tmp/err")"
exit $fail
