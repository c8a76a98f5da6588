#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# build-aux/demo.sh BUILD_DIR: what `make demo` runs.
#   1. `rtvirt setup`: virtlogd and libvirtd, where no service manager runs;
#   2. `rtvirt run profiles/matrix/demo.ini`: the demo matrix on the
#      embedded guest (unpinned vs pinned here; pinned-fifo, nosmt and
#      coresched run on a host that can, and are SKIPPED with the reason
#      elsewhere), results into stores/<date>-demo/ (RTVIRT_RESULTS=DIR
#      elsewhere; git ignores stores/: results/ holds the sources of the
#      results layer);
#   3. `rtvirt compare` on that store: the comparison table;
#   4. `rtvirt report` into STORE/report/ (where gnuplot is installed):
#      the HTML page with the plots, its path printed last.
# Needs root (qemu:///system).  About two minutes under TCG.
# Exit status: that of `rtvirt run` (0 every runnable repetition measured,
# even with a verification FAIL or under TCG: then the summary says
# "Trusted: no" and why; 1 a repetition failed, 2 error, 77 nothing can run
# here), or compare's when it fails.
set -u

build=${1:?usage: build-aux/demo.sh BUILD_DIR}
rtvirt=$build/rtvirt
top=${RV_TOP:-$(cd "$(dirname "$0")/.." && pwd)}
results=${RTVIRT_RESULTS:-$top/stores}
PATH=$PATH:/usr/sbin:/sbin
export PATH

if [ "$(id -u)" != 0 ]; then
    echo "demo: rtvirt runs guests through qemu:///system: run 'make demo' as root" >&2
    exit 77
fi

echo "== rtvirt setup"
"$rtvirt" setup || exit $?

echo
echo "== rtvirt run profiles/matrix/demo.ini"
log=$(mktemp) || exit 2
trap 'rm -f "$log"' EXIT
# progress goes to stderr, live; stdout is the summary with the store
# on a shared machine another matrix may be running: wait for it
"$rtvirt" run --wait-lock 1800 --out "$results" "$top/profiles/matrix/demo.ini" >"$log"
rc=$?
cat "$log"
store=$(sed -n 's/^Results: //p' "$log" | tail -n 1)
if [ -z "$store" ] || [ ! -f "$store/run.json" ]; then
    echo "demo: rtvirt run wrote no results store (exit $rc)" >&2
    exit $(( rc ? rc : 2 ))
fi

echo
echo "== rtvirt compare $store"
"$rtvirt" compare "$store" || exit $?
if command -v gnuplot >/dev/null 2>&1; then
    echo
    echo "== rtvirt report $store -o $store/report"
    "$rtvirt" report "$store" -o "$store/report" || exit $?
    echo "Open it in a browser: file://$store/report/index.html"
fi
exit $rc
