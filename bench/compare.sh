#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# bench/compare.sh: time and peak memory of `rtvirt compare` on a synthetic
# store of 3 scenarios x 10 repetitions x 10^7 samples each (cyclictest -q
# -h histograms of 2 threads, as cyclictest writes them, parsed and recorded
# through the run-store API by bench/gen-store.c), next to a peer doing the
# same statistics in Python's standard library (bench/compare-peer.py).
# A second store with 10^5 samples per repetition shows that memory grows
# with buckets, not samples.
#
#   bench/compare.sh [BUILD_DIR]        (default: build; needs `make` first)
#
# Environment: RV_BENCH_SAMPLES (10000000), RV_BENCH_BUCKETS (1000),
# RV_BENCH_DIR (a temporary directory, removed at the end).
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$top/build}" && pwd)
samples=${RV_BENCH_SAMPLES:-10000000}
buckets=${RV_BENCH_BUCKETS:-1000}
work=${RV_BENCH_DIR:-$(mktemp -d /tmp/rv-bench-compare.XXXXXX)}
trap 'rm -rf "$work"' EXIT INT TERM

if [ ! -x "$build/rtvirt" ] || [ ! -f "$build/librtvirt.a" ]; then
    echo "bench/compare.sh: build first: make O=$build" >&2; exit 2
fi
[ -x /usr/bin/time ] || { echo "bench/compare.sh: /usr/bin/time missing (apt-get install time)" >&2; exit 77; }

pkgs="glib-2.0 json-glib-1.0 gsl"
# shellcheck disable=SC2046,SC2086
cc -O2 -std=gnu11 -I"$top" $(pkg-config --cflags $pkgs) -o "$work/gen-store" \
    "$top/bench/gen-store.c" "$build/librtvirt.a" \
    $(pkg-config --libs glib-2.0 gio-2.0 json-glib-1.0 libxml-2.0 hwloc gsl libvirt libvirt-qemu) -lm

gen() { "$work/gen-store" "$work/$1" 3 10 "$2" "$buckets"; }
big=$(gen big "$samples")
small=$(gen small 100000)

# measure LABEL CMD...: best wall time of 5 runs, peak RSS of the last
measure() {
    label=$1; shift
    best=
    for _ in 1 2 3 4 5; do
        /usr/bin/time -f '%e %M' -o "$work/time.out" "$@" > "$work/out.$label" 2> "$work/err.$label" || {
            echo "bench/compare.sh: $label failed:" >&2; cat "$work/err.$label" >&2; exit 2; }
        t=$(cut -d' ' -f1 "$work/time.out")
        best=$(awk -v a="$t" -v b="$best" 'BEGIN { print (b == "" || a < b) ? a : b }')
    done
    rss=$(cut -d' ' -f2 "$work/time.out")
    printf '%-34s %8.3f s %10d KiB\n' "$label" "$best" "$rss"
    eval "t_$label=$best; m_$label=$rss"
}

store_kib=$(du -sk "$big/run.json" | cut -f1)
raw_kib=$(du -sk "$big/raw" | cut -f1)
echo "store: 3 scenarios x 10 repetitions x $samples samples, $buckets-us histograms, 2 threads"
echo "       run.json $store_kib KiB, raw cyclictest outputs $raw_kib KiB"
echo
printf '%-34s %10s %14s\n' "command" "wall(best/5)" "peak RSS"
measure rtvirt_floor "$build/rtvirt" compare --help
measure rtvirt_big "$build/rtvirt" compare "$big"
measure rtvirt_json "$build/rtvirt" compare --json "$big"
measure rtvirt_small "$build/rtvirt" compare "$small"
peer=
# the interpreter itself, not a version-manager shim that adds its own start-up
py=$(python3 -c 'import sys; print(sys.executable)' 2> /dev/null || true)
if [ -n "$py" ]; then
    measure python_floor "$py" -c pass
    measure python_peer "$py" "$top/bench/compare-peer.py" "$big"
    peer=1
fi
echo "(*_floor: the program starting and exiting with no data, for scale)"
echo
# m_* and t_* are set by measure() through eval
# shellcheck disable=SC2154
awk -v a="$m_rtvirt_big" -v b="$m_rtvirt_small" -v s="$samples" \
    'BEGIN { printf "memory vs samples: %d KiB at %d samples/repetition, %d KiB at 100000 (ratio %.2f)\n", a, s, b, a / b }'
if [ -n "$peer" ]; then
    # shellcheck disable=SC2154
    awk -v a="$t_rtvirt_big" -v b="$t_python_peer" -v ma="$m_rtvirt_big" -v mb="$m_python_peer" \
        'BEGIN { printf "ratio rtvirt/python peer: time %.2f, peak memory %.2f\n", (b > 0 ? a / b : 0), ma / mb }'
fi
echo
echo "rtvirt compare output (first lines):"
sed -n '1,16p' "$work/out.rtvirt_big"
