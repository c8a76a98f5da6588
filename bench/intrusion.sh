#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/intrusion.sh: does rtvirt disturb what it measures?
# One repetition of a small matrix, the RT demo guest pinned
# (profiles/guests/rt-demo.ini, its RT vCPU alone on a host CPU, as in
# tests/data/attribution/attr.ini), cyclictest in it for -d SECONDS, while
# this script traces in its own tracefs instance (instances/rtvirt-
# intrusion, trace_clock mono; tracefs mounted here if it is not, and
# unmounted again):
#   - sched_switch on the RT vCPU's host CPU only (filter "CPU == N"; N
#     from `virsh vcpupin` once libvirt pinned it, as tests/t-attribution.sh
#     finds it), switched on before the guest's workload starts;
#   - task_newtask, task_rename and sched_process_exit on every CPU: which
#     thread belongs to which process (clone_flags CLONE_THREAD from a known
#     thread), and the measured window.
# The window is the life of the run's workload thread for the RT guest
# (harness/run.c workload_thread, "rv-guest": from its start to its exit;
# it sends guest-exec and waits for cyclictest's end, so the window holds
# the whole measurement and the two agent round trips around it).
# Counted: switches-in (next_pid) on that CPU during the window of threads
# of rtvirt (the `rtvirt run` process's TIDs), libvirtd (or virtqemud),
# virtlogd and QEMU's non-vCPU threads (QEMU's threads whose name is not
# "CPU n/KVM" or "CPU n/TCG"; the vCPU threads and everything else are
# shown for reference, not counted).  Prints the count per process, its
# rate, the busiest thread names, the spike attribution's alignment error
# (run.json: how well the host knows when the measurement ran), and the
# target: 0 switches to rtvirt threads on the measured CPU.
#
# Usage: bench/intrusion.sh [-d SECONDS] [-b KB]   (root; libvirtd: `rtvirt
#        setup`; default 10 s; -b: trace buffer per CPU, default 32768 KB;
#        a trace that lost events is refused).  RV_BUILD=DIR picks the
#        build (default ./build).  It changes tracefs: run it under the
#        live lock on a shared machine.  Exit 0 when it measured (whether
#        or not the target is met), 2 on an error.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
rtvirt=${RV_BUILD:-$top/build}/rtvirt
dur=10
buf_kb=32768
while [ $# -gt 0 ]; do
    case $1 in
        -d) dur=${2:?-d needs seconds}; shift 2 ;;
        -b) buf_kb=${2:?-b needs KB}; shift 2 ;;
        -h|--help) sed -n '2,/^set -eu/p' "$0" | sed '$d'; exit 0 ;;
        *) echo "bench/intrusion.sh: unknown argument '$1'" >&2; exit 2 ;;
    esac
done
for v in "$dur" "$buf_kb"; do
    case $v in ''|*[!0-9]*|0) echo "bench/intrusion.sh: '$v' is not a number >= 1" >&2; exit 2 ;; esac
done
die() { echo "bench/intrusion.sh: $*" >&2; exit 2; }
[ "$(id -u)" = 0 ] || die "needs root (tracefs, qemu:///system)"
for need in virsh python3; do command -v "$need" >/dev/null 2>&1 || die "$need is not installed"; done
[ -x "$rtvirt" ] || die "no rtvirt at '$rtvirt' (make, or set RV_BUILD=DIR)"
grep -qw tracefs /proc/filesystems || die "no tracefs in this kernel"
export PATH=$PATH:/usr/sbin

T=/sys/kernel/tracing
I=$T/instances/rtvirt-intrusion
dom=rtvirt-intrusion-rt
tmp=$(mktemp -d)
mounted=
made=
run=
cleanup() {
    if [ -n "$run" ] && kill -0 "$run" 2>/dev/null; then
        kill -INT "$run" 2>/dev/null; wait "$run" 2>/dev/null || true
    fi
    virsh -c qemu:///system destroy "$dom" >/dev/null 2>&1 || true
    if [ -n "$made" ]; then
        echo 0 >"$I/tracing_on" 2>/dev/null || true
        rmdir "$I" 2>/dev/null || echo "bench/intrusion.sh: could not remove $I" >&2
    fi
    [ -n "$mounted" ] && umount $T
    [ -n "${RV_BENCH_KEEP:-}" ] && cp -r "$tmp" "$RV_BENCH_KEEP"
    rm -rf "$tmp"
}
trap cleanup EXIT
trap "exit 2" INT TERM

"$rtvirt" setup >/dev/null || die "rtvirt setup failed: no libvirtd"
virsh -c qemu:///system dominfo "$dom" >/dev/null 2>&1 && die "domain $dom exists already (another run of this bench?)"
if ! mountpoint -q $T; then
    mount -t tracefs nodev $T || die "cannot mount tracefs on $T"
    mounted=1
fi
[ -e "$I" ] && die "$I exists already (another run of this bench?)"
mkdir "$I" || die "cannot create $I"
made=1
echo 0 >"$I/tracing_on"
echo mono >"$I/trace_clock"
echo "$buf_kb" >"$I/buffer_size_kb"
for e in task/task_newtask task/task_rename sched/sched_process_exit; do
    echo 1 >"$I/events/$e/enable"
done

# the daemons' threads now; later ones come from task_newtask
lv=$(pgrep -x virtqemud | head -n 1 || true)
lvname=virtqemud
if [ -z "$lv" ]; then lv=$(pgrep -x libvirtd | head -n 1 || true); lvname=libvirtd; fi
[ -n "$lv" ] || die "neither libvirtd nor virtqemud runs"
vl=$(pgrep -x virtlogd | head -n 1 || true)
tasks() { [ -n "$1" ] && ls "/proc/$1/task" 2>/dev/null | tr '\n' ' '; true; }
echo "$lvname $lv $(tasks "$lv")" >"$tmp/roots"
echo "virtlogd ${vl:-0} $(tasks "$vl")" >>"$tmp/roots"

cat >"$tmp/intrusion.ini" <<INI
[main]
name = intrusion
description = bench/intrusion.sh: one pinned RT guest, 1 x ${dur} s
duration = ${dur}s
warmup = 0s
repetitions = 1
timeout = 10m

[cyclictest]
interval = 1000us
histogram = 200

[guest:rt]
profile = $top/profiles/guests/rt-demo.ini
role = rt

[scenario:pinned]
description = RT vCPU pinned (SCHED_OTHER: a host without RT groups cannot give libvirt FIFO vCPUs)
vcpu_sched = other
placement = pinned
INI

echo 1 >"$I/tracing_on"
"$rtvirt" run --wait-lock 1800 --out "$tmp/results" "$tmp/intrusion.ini" >"$tmp/run.out" 2>"$tmp/run.err" &
run=$!
echo "rtvirt $run" >>"$tmp/roots"
# the RT vCPU (vCPU 1 of rt-demo) once libvirt pinned it, and its QEMU
cpu=
qemu=
for _ in $(seq 1 6000); do
    if [ -z "$cpu" ]; then
        cpu=$(virsh -c qemu:///system vcpupin "$dom" 1 2>/dev/null | awk '$1 == "1" {print $2}')
        case $cpu in *[!0-9]*|'') cpu= ;; esac
        if [ -n "$cpu" ]; then
            echo "CPU == $cpu" >"$I/events/sched/sched_switch/filter"
            echo 1 >"$I/events/sched/sched_switch/enable"
            echo "intrusion: sched_switch on CPU $cpu" >"$I/trace_marker"
        fi
    fi
    [ -z "$qemu" ] && qemu=$(cat "/run/libvirt/qemu/$dom.pid" 2>/dev/null || true)
    [ -n "$cpu" ] && [ -n "$qemu" ] && break
    kill -0 $run 2>/dev/null || break
    sleep 0.1
done
[ -n "$qemu" ] && echo "qemu $qemu $(tasks "$qemu")" >>"$tmp/roots"
rc=0
wait $run || rc=$?
run=
echo 0 >"$I/tracing_on"
[ $rc -eq 0 ] || die "rtvirt run exited $rc: $(tail -n 3 "$tmp/run.err" | tr '\n' ' ')"
[ -n "$cpu" ] || die "the RT vCPU of $dom was never pinned (virsh vcpupin)"
[ -n "$qemu" ] || die "no QEMU pid for $dom (/run/libvirt/qemu/$dom.pid)"
lost=$(awk '/^(overrun|dropped events):/ {n += $NF} END {print n + 0}' "$I"/per_cpu/cpu*/stats)
[ "$lost" = 0 ] || die "the trace lost $lost events: rerun with a larger -b (now $buf_kb KB per CPU)"
cat "$I/trace" >"$tmp/trace"
store=$(sed -n 's/^Results: //p' "$tmp/run.out")
virt=$(grep -o 'virt=[a-z]*' "$tmp/run.err" | head -n 1 || true)

python3 - "$tmp/trace" "$tmp/roots" "$cpu" "$dur" "${virt#virt=}" "$(nproc)" "$store" <<'PY'
import json, os, re, sys
trace, roots_file, cpu, dur, virt, ncpu, store = sys.argv[1:8]
cpu = int(cpu)
LINE = re.compile(r"^\s*(.*)-(\d+)\s+\[(\d+)\]\s+\S+\s+(\d+\.\d+): (\w+): (.*)$")
SW = re.compile(r"next_comm=(.*) next_pid=(\d+) next_prio=")
NEW = re.compile(r"pid=(\d+) comm=.* clone_flags=([0-9a-f]+) ")
REN = re.compile(r"pid=(\d+) oldcomm=.* newcomm=(.*) oom_score_adj=")
EXIT = re.compile(r"comm=.* pid=(\d+) prio=")
CLONE_THREAD = 0x10000
VCPU = re.compile(r"^CPU \d+/(KVM|TCG)$")

def fail(why):
    sys.stderr.write("bench/intrusion.sh: %s\n" % why)
    sys.exit(2)

newtask, renames, exits, switches, marker = [], [], {}, [], None
for line in open(trace, errors="replace"):
    m = LINE.match(line)
    if not m:
        continue
    pid, c, ts, ev, body = int(m.group(2)), int(m.group(3)), float(m.group(4)), m.group(5), m.group(6)
    if ev == "sched_switch" and c == cpu:
        s = SW.search(body)
        if s:
            switches.append((ts, int(s.group(2)), s.group(1)))
    elif ev == "task_newtask":
        s = NEW.search(body)
        if s:
            newtask.append((pid, int(s.group(1)), int(s.group(2), 16)))
    elif ev == "task_rename":
        s = REN.search(body)
        if s:
            renames.append((ts, int(s.group(1)), s.group(2)))
    elif ev == "sched_process_exit":
        s = EXIT.search(body)
        if s:
            exits.setdefault(int(s.group(1)), ts)
    elif "intrusion: sched_switch on" in body and marker is None:
        marker = ts

# each process's threads: those in /proc when it was seen, and the
# closure over the CLONE_THREAD children of its threads
procs = {}
for l in open(roots_file):
    f = l.split()
    if len(f) >= 2 and f[1] != "0":
        procs[f[0]] = {int(f[1])} | {int(t) for t in f[2:]}
for name, s in procs.items():
    while True:
        add = {ch for parent, ch, fl in newtask if parent in s and fl & CLONE_THREAD} - s
        if not add:
            break
        s |= add

# the window: the RT guest's workload thread, start to exit
rvg = [(ts, pid) for ts, pid, new in renames if new == "rv-guest" and pid in procs["rtvirt"]]
if len(rvg) != 1:
    fail("expected one rv-guest thread of the run, found %d" % len(rvg))
w0, wpid = rvg[0]
w1 = exits.get(wpid)
if w1 is None:
    fail("the rv-guest thread %d never exited in the trace" % wpid)
if marker is None or marker > w0:
    fail("sched_switch was switched on after the window began")

order = [n for n in ("rtvirt", "libvirtd", "virtqemud", "virtlogd", "qemu") if n in procs]
count = {n: 0 for n in order}
names = {n: {} for n in order}
vcpu = other = 0
for ts, pid, comm in switches:
    if not (w0 <= ts <= w1):
        continue
    owner = next((n for n in order if pid in procs[n]), None)
    if owner == "qemu" and VCPU.match(comm):
        vcpu += 1
    elif owner:
        count[owner] += 1
        names[owner][comm] = names[owner].get(comm, 0) + 1
    else:
        other += 1
win = w1 - w0
print("bench/intrusion.sh: one repetition of rt-demo pinned, cyclictest %s s, virt=%s, %s CPUs, load %s"
      % (dur, virt or "?", ncpu, open("/proc/loadavg").read().split()[0]))
print("  window %.3f s (rv-guest thread %d, start to exit); RT vCPU on host CPU %d" % (win, wpid, cpu))
print("  %-22s %10s %8s  %s" % ("switches-in on CPU %d" % cpu, "count", "per s", "busiest threads"))
for n in order:
    label = "qemu (non-vCPU)" if n == "qemu" else n
    top = ", ".join("%s %d" % kv for kv in sorted(names[n].items(), key=lambda kv: -kv[1])[:3])
    print("  %-22s %10d %8.1f  %s" % (label, count[n], count[n] / win, top))
print("  %-22s %10d %8.1f  (not counted)" % ("qemu vCPU threads", vcpu, vcpu / win))
print("  %-22s %10d %8.1f  (not counted: idle, kernel threads, other processes)" % ("everything else", other, other / win))
# what the host's view of the window does to the spike attribution
try:
    recs = json.load(open(os.path.join(store, "run.json")))["records"]
    att = [r.get("details", {}).get("attribution", {}) for r in recs if r["workload"] == "cyclictest"]
    print("  spike attribution alignment error: %s us (half the exec window's slack)"
          % (att[0].get("alignment_error_us", att[0].get("skipped", "?")) if att else "?"))
except (OSError, ValueError, KeyError):
    print("  spike attribution alignment error: ? (no run.json in '%s')" % store)
ok = count["rtvirt"] == 0
print("  target: 0 switches to rtvirt threads on the measured CPU: %s (%d)"
      % ("met" if ok else "NOT met", count["rtvirt"]))
PY
