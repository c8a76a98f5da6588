#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# bench/pert-vs-oslat.sh [CPU] [SECONDS]: `rtvirt pert` and rt-tests' oslat
# on the same CPU for the same time, one after the other, side by side:
#   loop period (ns)   the detection floor: pert's median loop iteration;
#                      oslat's duration / loop iterations
#   pert > 1 us        perturbations longer than 1 us (pert --threshold 1;
#                      oslat: iterations in its buckets above 1 us)
#   max (us)
#   stolen (%)         time lost to perturbations > 1 us; for oslat summed
#                      from its 1 us histogram at bucket midpoints, the
#                      overflow bucket (>= 1024 us) counted at 1024 us
# Targets: pert's loop period <= oslat's; stolen shares within 10 %.
# Prints the ratios; never fails on them (speed is reported, not asserted).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
rtvirt=${RTVIRT:-$top/build/rtvirt}
cpu=${1:-$(( $(nproc) - 1 ))}
secs=${2:-10}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

[ -x "$rtvirt" ] || { echo "build first: make" >&2; exit 2; }
command -v oslat >/dev/null || { echo "oslat (rt-tests) missing: make deps" >&2; exit 77; }

"$rtvirt" pert -c "$cpu" -d "${secs}s" --threshold 1 --output "$tmp/pert.json" >"$tmp/pert.out"
oslat -c "$cpu" -D "$secs" -b 1024 -z -q --json "$tmp/oslat.json" >"$tmp/oslat.out" 2>&1

read -r p_loop p_cnt p_max p_stolen < <(jq -r '[.loop_period_ns, .summary.count,
    .summary.max_us, .summary.overhead_pct] | @tsv' "$tmp/pert.json")
read -r o_loop o_cnt o_max o_stolen < <(jq -r '.thread["0"] as $t
    | ($t.histogram | to_entries | map({b: (.key|tonumber), n: .value})) as $h
    | ($h | map(.n) | add) as $iters
    | ($h | map(select(.b > 1)) | map(.n) | add // 0) as $over
    | ($h | map(select(.b > 1)) | map(.n * (if .b >= 1024 then 1024 else .b - 0.5 end)) | add // 0) as $us
    | [($t.duration * 1e9 / $iters), $over, $t.max, (100 * $us / ($t.duration * 1e6))] | @tsv' \
    "$tmp/oslat.json")

printf '# CPU %s, %s s each, one after the other (pert first)\n' "$cpu" "$secs"
printf '%-20s %14s %14s %10s\n' metric "rtvirt pert" oslat ratio
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b == 0) print "n/a"; else printf "%.3f", a / b }'; }
printf '%-20s %14.2f %14.2f %10s\n' "loop period (ns)" "$p_loop" "$o_loop" "$(ratio "$p_loop" "$o_loop")"
printf '%-20s %14d %14d %10s\n' "pert > 1 us" "$p_cnt" "$o_cnt" "$(ratio "$p_cnt" "$o_cnt")"
printf '%-20s %14.2f %14.2f %10s\n' "max (us)" "$p_max" "$o_max" "$(ratio "$p_max" "$o_max")"
printf '%-20s %14.4f %14.4f %10s\n' "stolen (%)" "$p_stolen" "$o_stolen" "$(ratio "$p_stolen" "$o_stolen")"
awk -v pl="$p_loop" -v ol="$o_loop" -v ps="$p_stolen" -v os="$o_stolen" 'BEGIN {
    printf "# target loop period <= oslat: %s\n", (pl <= ol) ? "met" : "NOT met";
    d = (os > 0) ? (ps - os) / os : 0; if (d < 0) d = -d;
    printf "# target stolen shares within 10%%: %s (%.1f%% apart)\n", (d <= 0.10) ? "met" : "NOT met", 100 * d }'
