#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""bench/compare-peer.py: the peer of `rtvirt compare` in bench/compare.sh.

Does the same work on the same run.json with Python's standard library:
load the JSON, per scenario the n/mean/stddev/SEM/min/max of every metric
over repetitions, the merged "latency" histogram and its nearest-rank
p50/p99/p99.9/p99.99.  No significance test (the stdlib has no t
distribution), so it does slightly less than rtvirt.
"""
import json
import math
import statistics
import sys


def main(path):
    with open(path + "/run.json") as f:
        store = json.load(f)
    vals = {}
    hists = {}
    for r in store["records"]:
        if r["status"] != "ok":
            continue
        key = (r["workload"], r["target"], r["scenario"])
        for name, m in r["metrics"].items():
            if m["value"] is not None:
                vals.setdefault(key + (name,), []).append(m["value"])
        h = r["histograms"].get("latency")
        if h:
            acc = hists.setdefault(key, {"overflows": 0, "counts": {}})
            acc["overflows"] += h["overflows"]
            for us, c in h["counts"]:
                acc["counts"][us] = acc["counts"].get(us, 0) + c
    for key, v in sorted(vals.items()):
        sd = statistics.stdev(v) if len(v) > 1 else float("nan")
        print(key, len(v), statistics.fmean(v), sd, sd / math.sqrt(len(v)), min(v), max(v))
    for key, h in sorted(hists.items()):
        items = sorted(h["counts"].items())
        total = sum(c for _, c in items) + h["overflows"]
        out = []
        for p in (50, 99, 99.9, 99.99):
            rank = max(1, math.ceil(round(p / 100 * total, 6)))
            cum = 0
            val = None
            for us, c in items:
                cum += c
                if cum >= rank:
                    val = us
                    break
            out.append(val)
        print(key, total, out)


if __name__ == "__main__":
    main(sys.argv[1])
