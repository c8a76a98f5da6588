#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/t-attribution.sh (LIVE): spike attribution:
# one short repetition of the pinned RT demo guest
# (tests/data/attribution/attr.ini) while this test spins a SCHED_FIFO 50
# loop (tests/rv-busy.c: 20 ms busy, 300 ms asleep) pinned with taskset to
# the host CPU of the guest's RT vCPU.  The cyclictest record's
# details.attribution must tell the worst spike with that thread (comm/pid)
# and its FIFO priority, on that CPU, from the trace taken in
# instances/rtvirt-attr; the instance is gone afterwards and tracefs is
# unmounted again if this test mounted it.  While it measures, every
# rtvirt thread must run off that CPU(/proc and
# details.confinement).  The co-scheduling stats' pipeline
#(trace in instances/rtvirt-cosched, the VM's threads, the shares)
# runs with CPUs 0 and 1 pretended siblings (RTVIRT_TEST_SMT_PAIRS: this
# host has no SMT): the VM's running time splits into same / idle /
# foreign and rv-busy's bursts beside it are foreign.  Needs root, libvirtd, QEMU,
# tracefs in the kernel; skips otherwise.  Run under the live lock.
set -u
rtvirt=${RV_BUILD:?}/rtvirt
top=${RV_TOP:?}
. "${RV_TOP:?}/tests/tap.sh"

need_cmds qemu-system-x86_64 virsh python3 chrt taskset cc
need_root
export PATH=$PATH:/usr/sbin
if ! grep -qw tracefs /proc/filesystems; then skip_all "no tracefs in this kernel"; fi
need_libvirt "$rtvirt"

T=/sys/kernel/tracing
tmp=$(mktemp -d)
mounted=
busy=
domains() { virsh -c qemu:///system list --all --name 2>/dev/null | grep -E '^rtvirt-attr-' || true; }
cleanup() {
    [ -n "$busy" ] && kill "$busy" 2>/dev/null && wait "$busy" 2>/dev/null
    for d in $(domains); do virsh -c qemu:///system destroy "$d" >/dev/null 2>&1; done
    [ -d $T/instances/rtvirt-attr ] && rmdir $T/instances/rtvirt-attr
    [ -d $T/instances/rtvirt-cosched ] && rmdir $T/instances/rtvirt-cosched
    [ -n "$mounted" ] && umount $T
    rm -rf "$tmp"
}
trap cleanup EXIT
rt_runtime=$(cat /proc/sys/kernel/sched_rt_runtime_us)

if ! mountpoint -q $T; then
    mount -t tracefs nodev $T || skip_all "cannot mount tracefs"
    mounted=1
fi
cc -O2 -o "$tmp/rv-busy" "$top/tests/rv-busy.c" || skip_all "cannot build rv-busy"

echo "1..15"
RTVIRT_TEST_SMT_PAIRS=0:1 "$rtvirt" run --wait-lock 1800 --output "$tmp/results" "$top/tests/data/attribution/attr.ini" >"$tmp/out" 2>"$tmp/err" &
run=$!
# the RT vCPU (vCPU1 of rt-demo) once libvirt pinned it
cpu=
for _ in $(seq 1 1800); do
    d=$(domains | head -n 1)
    if [ -n "$d" ]; then
        cpu=$(virsh -c qemu:///system vcpupin "$d" 1 2>/dev/null | awk '$1 == "1" {print $2}')
        [ -n "$cpu" ] && break
    fi
    kill -0 $run 2>/dev/null || break
    sleep 0.1
done
case $cpu in *[!0-9]*|'') cpu= ;; esac
if [ -n "$cpu" ]; then
    chrt -f 50 taskset -c "$cpu" "$tmp/rv-busy" 20 300 0 >"$tmp/busy.out" &
    busy=$!
fi
# while it measures, every rtvirt thread is kept off the
# RT vCPU's CPU (sampled from /proc; seen = all tasks' masks without it)
confined_seen=
while kill -0 $run 2>/dev/null; do
    if [ -n "$cpu" ] && [ -z "$confined_seen" ]; then
        masks=$(cat /proc/$run/task/*/status 2>/dev/null | sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' | sort -u)
        if [ -n "$masks" ] && [ "$(echo "$masks" | wc -l)" = 1 ] &&
            ! python3 -c 'import sys
c = int(sys.argv[2]); s = set()
for p in sys.argv[1].split(","):
    a, _, b = p.partition("-"); s.update(range(int(a), int(b or a) + 1))
sys.exit(0 if c in s else 1)' "$masks" "$cpu"; then
            confined_seen="$masks"
        fi
    fi
    sleep 0.2
done
wait $run; rc=$?
check "rtvirt run attr.ini exits 0 ($(tail -n 2 "$tmp/err" | tr '\n' ' ' | cut -c1-300))" [ $rc -eq 0 ]
check "the RT vCPU was pinned to one host CPU ($cpu) and rv-busy ran there (pid $busy)" \
    eval '[ -n "$cpu" ] && [ -n "$busy" ] && grep -q "burst 3" "$tmp/busy.out"'
kill "$busy" 2>/dev/null; wait "$busy" 2>/dev/null

store=$(sed -n 's/^Results: //p' "$tmp/out")
python3 - "$store" "$busy" "$cpu" >"$tmp/py" 2>&1 <<'PY'
import json, sys, os
store, busy, cpu = sys.argv[1], sys.argv[2], sys.argv[3]
d = json.load(open(os.path.join(store, "run.json")))
def say(ok, what):
    print(("ok " if ok else "FAIL ") + what)
ct = [r for r in d["records"] if r["workload"] == "cyclictest"]
a = ct[0].get("details", {}).get("attribution", {}) if ct else {}
say(len(ct) == 1 and ct[0]["status"] == "ok" and "spikes" in a,
    "the cyclictest record is ok and has an attribution: %s" % json.dumps(a)[:300])
sp = a.get("spikes", [])
say(len(sp) == 5 and all(s["latency_us"] >= sp[-1]["latency_us"] for s in sp)
    and isinstance(a.get("alignment_error_us"), int),
    "5 worst spikes, worst first, alignment error %s us" % a.get("alignment_error_us"))
top = sp[0] if sp else {}
want = "rv-busy/%s (FIFO 50)" % busy
say(want in top.get("story", "") and str(top.get("cpu")) == cpu,
    "the worst spike (%s us) names %s on CPU %s: %s" % (top.get("latency_us"), want, cpu,
                                                       top.get("story")))
say(top.get("latency_us", 0) >= 15000,
    "the worst spike is the 20 ms preemption: %s us" % top.get("latency_us"))
say(any("rv-busy/%s" % busy in e for e in top.get("events", [])),
    "its events show the switches to rv-busy: %s" % top.get("events", [])[:4])
PY
sed -n "/^\(ok\|FAIL\) /!s/^/# /p" "$tmp/py"
while read -r st what; do
    if [ "$st" = ok ]; then ok "$what"; else nok "$what"; fi
done < <(grep -E '^(ok|FAIL) ' "$tmp/py")
check "during the measurement all rtvirt threads ran on CPUs ${confined_seen:-?}, not on the RT vCPU's CPU $cpu" \
    [ -n "$confined_seen" ]
check "run.json says so: host-counters details.confinement ok, housekeeping without CPU $cpu" \
    python3 -c '
import json, os, sys
def cpus(l):
    s = set()
    for p in filter(None, l.split(",")):
        a, _, b = p.partition("-"); s.update(range(int(a), int(b or a) + 1))
    return s
d = json.load(open(os.path.join(sys.argv[1], "run.json")))
hc = [r for r in d["records"] if r["workload"] == "host-counters"]
c = hc[0].get("details", {}).get("confinement", {}) if hc else {}
print("# confinement: %s" % json.dumps(c))
sys.exit(0 if c.get("ok") is True and c.get("threads", 0) >= 2
         and c.get("confined", 0) + c.get("gone", 0) == c.get("threads")
         and int(sys.argv[2]) not in cpus(c.get("housekeeping", ""))
         and int(sys.argv[2]) in cpus(c.get("measured", "")) else 1)' "$store" "$cpu"
check "run.json: details.cosched of the VM from instances/rtvirt-cosched, shares summing to 100 %, something foreign beside it" \
    python3 -c '
import json, os, sys
d = json.load(open(os.path.join(sys.argv[1], "run.json")))
hc = [r for r in d["records"] if r["workload"] == "host-counters"]
c = hc[0].get("details", {}).get("cosched", {}) if hc else {}
print("# cosched: %s" % json.dumps(c))
v = c.get("vms", [{}])[0]
tot = sum(v.get(k, 0) for k in ("same_pct", "idle_pct", "foreign_pct", "unknown_pct"))
sys.exit(0 if len(c.get("vms", [])) == 1 and v.get("run_s", 0) > 0 and abs(tot - 100) < 0.01
         and v.get("unknown_pct") == 0 and v.get("foreign_pct", 0) > 0 and v.get("threads", 0) >= 3
         and c["trace"]["events"] > 0 and c["trace"]["cpus"] == "0-1"
         and "RTVIRT_TEST_SMT_PAIRS" in c.get("siblings", "") else 1)' "$store"
# the RT threads of the RT vCPU's CPU after boot, read
# again here from /proc: every kernel thread at FIFO/RR allowed on that CPU
# is listed, and the threaded IRQ handlers and rcuc/ktimers among them
# outrank the SCHED_OTHER vCPU: each an "above" inversion
check "run.json: details.rt_vcpus lists CPU $cpu's RT kernel threads beside the vCPU, irq/rcuc/ktimers ones as inversions above it" \
    python3 -c '
import json, os, sys
store, cpu = sys.argv[1], int(sys.argv[2])
def cpus(l):
    s = set()
    for p in filter(None, l.split(",")):
        a, _, b = p.partition("-"); s.update(range(int(a), int(b or a) + 1))
    return s
want, spin = set(), set()
for pid in filter(str.isdigit, os.listdir("/proc")):
    try:
        st = open("/proc/%s/stat" % pid).read()
        status = open("/proc/%s/status" % pid).read()
    except OSError:
        continue
    comm = st[st.index("(") + 1:st.rindex(")")]
    f = st[st.rindex(")") + 2:].split()
    flags, prio, pol = int(f[6]), int(f[37]), int(f[38])
    allowed = [l.split(":", 1)[1].strip() for l in status.splitlines() if l.startswith("Cpus_allowed_list:")]
    if not (flags & 0x00200000) or pol not in (1, 2) or not allowed or cpu not in cpus(allowed[0]):
        continue
    want.add(comm)
    if comm.startswith(("irq/", "rcuc/", "ktimers/", "rcub/")):
        spin.add(comm)
d = json.load(open(os.path.join(store, "run.json")))
hc = [r for r in d["records"] if r["workload"] == "host-counters"][0]
rv = hc["details"].get("rt_vcpus", [])
v = rv[0] if len(rv) == 1 else {}
got = {t["comm"] for t in v.get("threads", [])}
above = {i["comm"] for i in v.get("inversions", []) if i["kind"] == "above"}
print("# rt_vcpus: cpu %s vm %s vcpu %s, threads %s, above %s (from /proc: %s)" % (
    v.get("cpu"), v.get("vm"), v.get("vcpu"), sorted(got), sorted(above), sorted(want)))
sys.exit(0 if v.get("cpu") == cpu and v.get("vm") == "rtvirt-attr-rt" and v.get("pinned") is True
         and v["vcpu"]["comm"].startswith("CPU 1/") and v["vcpu"]["policy"] == "OTHER"
         and want <= got and spin <= above and want else 1)' "$store" "$cpu"
"$rtvirt" compare --json "$store" >"$tmp/cmp.json" 2>"$tmp/cmp.err"
check "compare --json lists the worst spike's story with rv-busy/$busy ($(head -c 200 "$tmp/cmp.err"))" \
    python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
a = d.get("attribution", [])
sys.exit(0 if a and "rv-busy/%s (FIFO 50)" % sys.argv[2] in a[0].get("story", "")
         and isinstance(a[0].get("latency_us"), int) else 1)' "$tmp/cmp.json" "$busy"
"$rtvirt" compare "$store" >"$tmp/cmp.txt" 2>&1
check "compare shows the co-scheduling shares of rtvirt-attr-rt, --json the same foreign share" \
    python3 -c '
import json, os, sys
d = json.load(open(sys.argv[1]))
run = json.load(open(os.path.join(sys.argv[3], "run.json")))
hc = [r for r in run["records"] if r["workload"] == "host-counters"][0]
want = hc["details"]["cosched"]["vms"][0]["foreign_pct"]
co = [c for c in d.get("cosched", []) if c.get("vm") == "rtvirt-attr-rt"]
txt = open(sys.argv[2]).read()
print("# " + "".join(l for l in txt.splitlines(True) if "co-scheduling" in l or "rtvirt-attr-rt n=" in l).replace("\n", "\n# "))
sys.exit(0 if len(co) == 1 and co[0]["n"] == 1 and abs(co[0]["foreign_pct"] - want) < 1e-9
         and "== co-scheduling" in txt and ("rtvirt-attr-rt n=1: same VM" in txt)
         and ("foreign %.2f %%" % want) in txt else 1)' "$tmp/cmp.json" "$tmp/cmp.txt" "$store"
"$rtvirt" report "$store" -o "$tmp/report" >"$tmp/report.out" 2>&1
check "report: a Co-scheduling table with rtvirt-attr-rt and its foreign share ($(tail -n 1 "$tmp/report.out" | cut -c1-150))" \
    python3 -c '
import json, os, re, sys
run = json.load(open(os.path.join(sys.argv[2], "run.json")))
hc = [r for r in run["records"] if r["workload"] == "host-counters"][0]
want = hc["details"]["cosched"]["vms"][0]["foreign_pct"]
page = open(os.path.join(sys.argv[1], "index.html")).read()
i = page.find("<h2 id=\"cosched\">")
row = re.search(r"<tr><td>1</td><td>pinned</td><td>rtvirt-attr-rt</td>(.*?)</tr>", page[i:]) if i >= 0 else None
vals = [float(v) for v in re.findall(r"data-v=\"([^\"]+)\"", row.group(1))] if row else []
# n = 1: no sd (its cell is "-", no data-v): same, idle, foreign, unknown
sys.exit(0 if len(vals) == 4 and abs(vals[2] - want) < 1e-9 and "<td class=\"n\">-</td>" in row.group(1) else 1)' "$tmp/report" "$store"
check "host restored: instances gone, sched_rt_runtime_us $rt_runtime, no domain" \
    eval '[ ! -e $T/instances/rtvirt-attr ] && [ ! -e $T/instances/rtvirt-cosched ] && [ "$(cat /proc/sys/kernel/sched_rt_runtime_us)" = "$rt_runtime" ] && [ -z "$(domains)" ]'
[ -n "${RV_ATTR_KEEP:-}" ] && cp -r "$store" "$RV_ATTR_KEEP"
exit 0
