#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/cosched-trace.sh: the co-scheduling stats' own cost:
# the same repetition shape with the sched_switch trace on every
# CPU (harness/cosched.h, instances/rtvirt-cosched) and without it
# ([main] cosched_stats = no), side by side in one run of this script:
# R repetitions each of the RT demo guest pinned (cyclictest in it) next to
# one stress neighbour, order interleaved.  Prints per side the RT guest's
# cyclictest avg and max (mean over R), the trace's events per second and
# the ratios with/without: what the tracer costs the measured guest.  (The
# stress neighbour is load only: it has no metric of its own.)
#
# On a host without SMT the trace is normally skipped; this script turns it
# on with RTVIRT_TEST_SMT_PAIRS (CPU pairs 0:1, 2:3, ...): the tracing cost
# is the same, the shares themselves are no co-scheduling figure.
#
# Usage: bench/cosched-trace.sh [-r R] [-d SECONDS]   (root; libvirtd:
#        `rtvirt setup`; defaults R=3, 10 s).  RV_BUILD=DIR picks the build.
#        Under TCG (virt=tcg) the latencies are no RT figure; the ratio
#        still shows the tracer's share of the noise.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
rtvirt=${RV_BUILD:-$top/build}/rtvirt
reps=3
dur=10
while [ $# -gt 0 ]; do
    case $1 in
        -r) reps=${2:?-r needs a count}; shift 2 ;;
        -d) dur=${2:?-d needs seconds}; shift 2 ;;
        -h|--help) sed -n '2,/^set -eu/p' "$0" | sed '$d'; exit 0 ;;
        *) echo "bench/cosched-trace.sh: unknown argument '$1'" >&2; exit 2 ;;
    esac
done
for v in $reps $dur; do
    case $v in ''|*[!0-9]*|0) echo "bench/cosched-trace.sh: '$v' is not a count >= 1" >&2; exit 2 ;; esac
done
tmp=$(mktemp -d)
mounted=
T=/sys/kernel/tracing
cleanup() {
    [ -n "${RV_BENCH_KEEP:-}" ] && cp -r "$tmp" "$RV_BENCH_KEEP"
    [ -n "$mounted" ] && umount $T
    rm -rf "$tmp"
}
trap cleanup EXIT
trap "exit 2" INT TERM
"$rtvirt" setup >/dev/null
# the trace needs tracefs (unmounted again at the end if mounted here)
if ! mountpoint -q $T; then
    mount -t tracefs nodev $T || { echo "bench/cosched-trace.sh: cannot mount tracefs on $T" >&2; exit 2; }
    mounted=1
fi

pairs=
if [ "$(cat /sys/devices/system/cpu/smt/active 2>/dev/null || echo 0)" != 1 ]; then
    n=$(nproc)
    for ((c = 0; c + 1 < n; c += 2)); do pairs="${pairs:+$pairs,}$c:$((c + 1))"; done
    [ -n "$pairs" ] || { echo "bench/cosched-trace.sh: needs 2 CPUs" >&2; exit 2; }
fi

# one matrix per side: same guests, shape and order
side() {
    local name=$1 stats=$2
    cat >"$tmp/$name.ini" <<INI
[main]
name = cosched-$name
duration = ${dur}s
warmup = 0s
repetitions = $reps
order = interleaved
cosched_stats = $stats
timeout = 10m

[guest:rt]
profile = $top/profiles/guests/rt-demo.ini
role = rt

[guest:busy]
profile = $top/profiles/guests/busy-guest.ini
role = neighbour
workload = stress

[load:busy]
neighbour_workers = 2

[scenario:pinned]
description = RT vCPU pinned, a stress neighbour
vcpu_sched = other
placement = pinned
INI
    if [ "$stats" = yes ] && [ -n "$pairs" ]; then
        RTVIRT_TEST_SMT_PAIRS=$pairs "$rtvirt" run --wait-lock 1800 --out "$tmp/s-$name" "$tmp/$name.ini" >"$tmp/$name.out" 2>"$tmp/$name.err"
    else
        "$rtvirt" run --wait-lock 1800 --out "$tmp/s-$name" "$tmp/$name.ini" >"$tmp/$name.out" 2>"$tmp/$name.err"
    fi || { echo "rtvirt run ($name) failed: $(tail -n 3 "$tmp/$name.err")" >&2; exit 2; }
    sed -n 's/^Results: //p' "$tmp/$name.out"
}
on=$(side on yes)
off=$(side off no)
python3 - "$on" "$off" "$reps" <<'PY'
import json, os, sys
def load(store):
    d = json.load(open(os.path.join(store, "run.json")))
    ct = [r for r in d["records"] if r["workload"] == "cyclictest" and r["status"] == "ok"]
    hc = [r for r in d["records"] if r["workload"] == "host-counters"]
    mean = lambda xs: sum(xs) / len(xs) if xs else float("nan")
    m = lambda rs, k: mean([r["metrics"][k]["value"] for r in rs if k in r["metrics"]])
    ev = [h["details"].get("cosched", {}).get("trace", {}).get("events") for h in hc]
    win = [h["details"].get("cosched", {}).get("window_s") for h in hc]
    eps = mean([e / w for e, w in zip(ev, win) if e and w])
    virt = {r["virt"] for r in ct}
    return {"avg": m(ct, "avg_us"), "max": m(ct, "max_us"), "n": len(ct),
            "eps": eps, "virt": ",".join(sorted(virt)),
            "skip": [h["details"].get("cosched", {}).get("skipped") for h in hc][:1]}
on, off = load(sys.argv[1]), load(sys.argv[2])
print("bench/cosched-trace.sh: %s repetitions per side, virt=%s" % (sys.argv[3], on["virt"]))
print("  %-22s %12s %12s %8s" % ("", "trace on", "trace off", "on/off"))
for k, what in (("avg", "cyclictest avg us"), ("max", "cyclictest max us")):
    r = on[k] / off[k] if off[k] == off[k] and off[k] else float("nan")
    print("  %-22s %12.1f %12.1f %8.3f" % (what, on[k], off[k], r))
print("  %-22s %12.0f %12s" % ("trace events/s", on["eps"], "-"))
print("  off side: %s" % off["skip"])
if "tcg" in on["virt"]:
    print("  virt=tcg: latencies are no RT figure (untrusted); the ratio is the tracer's share")
PY
