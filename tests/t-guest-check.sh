#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/t-guest-check.sh: LIVE. `rtvirt guest check` on the guest that
# `rtvirt guest run` starts: rt-demo is booted with a long --duration in
# the background, checked by name while it runs (libvirt's live XML, the
# /proc threads), then `host capture` keeps its threads and libvirt status
# file and the same check runs on the capture.  On a host where libvirt
# cannot give vCPUs SCHED_FIFO (the RT-group trap: guest run drops
# <vcpusched>, loudly) the check must be a FAIL naming vCPU 1's thread; where
# FIFO is given, vcpu.scheduler must PASS.  Run it under the live lock
# (flock /tmp/rtvirt-live.lock).  No domain may be left behind.  Skips only
# when QEMU or libvirtd is not installed or we are not root.
set -u
rtvirt=${RV_BUILD:?}/rtvirt
top=${RV_TOP:?}
. "${RV_TOP:?}/tests/tap.sh"
# a failing point shows what the commands printed
tap_on_fail() { for f in "$tmp"/*.txt; do [ -f "$f" ] && sed "s/^/# $(basename "$f"): /" "$f" | head -40; done; }

need_cmds qemu-system-x86_64 libvirtd virsh
need_root
if ! ls /boot/vmlinuz-* >/dev/null 2>&1; then
    echo "1..0 # SKIP no packaged kernel in /boot (linux-image-amd64)"; exit 0
fi
export PATH=$PATH:/usr/sbin

echo "1..12"
tmp=$(mktemp -d)
dom=rtvirt-gcheck-$$
runpid=
leftover() { virsh -c qemu:///system list --name 2>/dev/null | grep -x "$dom" || true; }
cleanup() {
    if [ -n "$runpid" ] && kill -0 "$runpid" 2>/dev/null; then
        kill -TERM "$runpid" 2>/dev/null
        for _ in $(seq 60); do kill -0 "$runpid" 2>/dev/null || break; sleep 1; done
        kill -KILL "$runpid" 2>/dev/null
    fi
    for d in $(leftover); do virsh -c qemu:///system destroy "$d" >/dev/null 2>&1; done
    rm -rf "$tmp"
}
trap cleanup EXIT

"$rtvirt" setup >/dev/null 2>&1
# 1: boot rt-demo and keep it running (cyclictest for 10 minutes)
"$rtvirt" guest run "$top/profiles/guests/rt-demo.ini" --name "$dom" --duration 600s \
    >"$tmp/run.out" 2>"$tmp/run.err" </dev/null &
runpid=$!
for _ in $(seq 240); do
    grep -q "ready after" "$tmp/run.err" && break
    kill -0 "$runpid" 2>/dev/null || break
    sleep 1
done
check "guest run booted $dom and keeps it running ($(tail -1 "$tmp/run.err"))" \
    eval 'grep -q "ready after" "$tmp/run.err" && [ -n "$(leftover)" ]'

# Did libvirt give vCPU 1 its FIFO?  guest run strips <vcpusched> when not.
virsh -c qemu:///system dumpxml "$dom" >"$tmp/live.xml" 2>/dev/null
fifo=0; grep -q "<vcpusched" "$tmp/live.xml" && fifo=1

# 2-5: by name, while it runs
"$rtvirt" guest check "$dom" >"$tmp/check.txt" 2>"$tmp/check.err"; rc=$?
check "guest check $dom: the header says XML and live threads (rc $rc: $(head -c 300 "$tmp/check.err"))" \
    grep -Eq "^Guest check: domain $dom on this host, QEMU pid [0-9]+: XML and live threads$" "$tmp/check.txt"
if [ $fifo = 0 ]; then
    check "FIFO refused on this host: exit 1, a FAIL naming vCPU 1's thread" \
        eval '[ $rc -eq 1 ] && grep -Eq "^FAIL  vcpu.isolated-not-fifo: vCPU 1 thread [0-9]+ '"'"'CPU 1/(KVM|TCG)'"'"' runs other 0" "$tmp/check.txt"'
else
    check "FIFO given: vCPU 1's scheduler PASSes" \
        grep -Eq "^PASS  vcpu.scheduler: vCPU 1 \(tid [0-9]+\) scheduler: thread [0-9]+ 'CPU 1/(KVM|TCG)'" "$tmp/check.txt"
fi
sed 's/^/# /' "$tmp/check.txt"
check "every vCPU thread's affinity PASSes (vcpupin applied)" \
    eval '[ "$(grep -Ec "^PASS  vcpu.affinity: vCPU [01] " "$tmp/check.txt")" = 2 ]'
check "emulator threads judged, the placement and topology too" \
    eval 'grep -q "^PASS  emulator.affinity: " "$tmp/check.txt" && grep -q "^PASS  topology.vcpu-count: " "$tmp/check.txt" &&
          grep -q "  placement\." "$tmp/check.txt"'

# 6: --json agrees
"$rtvirt" guest check "$dom" --json >"$tmp/check.json" 2>/dev/null; jrc=$?
perl -MJSON::PP -e 'local $/; my $d = decode_json(<STDIN>); my $g = $d->{domains}[0];
    my $nf = grep { $_->{level} eq "FAIL" } @{$g->{findings}};
    exit !($d->{schema_version} == 1 && $d->{live} && $g->{running} && $g->{qemu_pid} > 0 &&
           $g->{name} eq $ARGV[0] && $g->{failures} == $nf && ($nf ? 1 : 0) == $ARGV[1])' \
    "$dom" "$jrc" <"$tmp/check.json" 2>/dev/null
check "--json: running, qemu_pid, failures = FAIL findings, exit status matches ($jrc)" [ $? -eq 0 ]

# 7-10: host capture, then the same check on the capture
"$rtvirt" host capture "$tmp/cap" >/dev/null 2>"$tmp/cap.err"; crc=$?
check "host capture keeps the domain's status file and QEMU threads (rc $crc)" \
    eval '[ $crc -eq 0 ] && [ -s "$tmp/cap/run/libvirt/qemu/$dom.xml" ] &&
          pid=$(cat "$tmp/cap/run/libvirt/qemu/$dom.pid") && [ -d "$tmp/cap/proc/$pid/task" ] &&
          grep -q "^VmLck:" "$tmp/cap/proc/$pid/status" && ! grep -q "passwd=" "$tmp/cap/run/libvirt/qemu/$dom.xml"'
"$rtvirt" guest check "$dom" --root "$tmp/cap" >"$tmp/cap.txt" 2>"$tmp/cap2.err"; rc2=$?
check "guest check $dom --root CAPTURE judges the captured threads (rc $rc2: $(head -c 300 "$tmp/cap2.err"))" \
    grep -Eq "^Guest check: .*/run/libvirt/qemu/$dom.xml on .*, QEMU pid [0-9]+: XML and live threads$" "$tmp/cap.txt"
strip() { sed -n 's/^\(FAIL\|WARN\|PASS\|NOTE\)  \([a-z.-]*\):.*/\1 \2/p' "$1" | sort; }
check "the capture gives the live check's findings (level and id), exit $rc2 = $rc" \
    eval '[ $rc2 -eq $rc ] && [ "$(strip "$tmp/check.txt")" = "$(strip "$tmp/cap.txt")" ]'
"$rtvirt" guest check "$tmp/live.xml" --root "$tmp/cap" >"$tmp/file.txt" 2>&1; rc3=$?
check "guest check FILE.xml --root CAPTURE: the running domain of that name is judged live (rc $rc3)" \
    eval '[ $rc3 -eq $rc ] && grep -q ": XML and live threads$" "$tmp/file.txt"'

# 11: a domain that is not there is bad input
"$rtvirt" guest check "$dom-nosuch" --root "$tmp/cap" >/dev/null 2>"$tmp/bad.err"; rc4=$?
check "a domain missing from the capture: exit 2, named" \
    eval '[ $rc4 -eq 2 ] && grep -q "No running domain '"'"'$dom-nosuch'"'"'" "$tmp/bad.err"'

# 12: stop guest run; nothing left behind
kill -TERM "$runpid" 2>/dev/null
for _ in $(seq 90); do kill -0 "$runpid" 2>/dev/null || break; sleep 1; done
for _ in $(seq 30); do [ -z "$(leftover)" ] && break; sleep 1; done
check "no $dom left running after guest run stopped" [ -z "$(leftover)" ]
