# SPDX-License-Identifier: GPL-2.0-or-later
# tests/tap.sh: the TAP helpers every shell test sources, after setting
# RV_TOP (the Makefile exports it):
#     . "${RV_TOP:?}/tests/tap.sh"
# Output is TAP version 12 as prove(1) reads it: "ok N - TEXT",
# "not ok N - TEXT", a plan "1..N" (first or last) and "1..0 # SKIP WHY"
# for a test that cannot run here.  POSIX sh (dash runs five of the
# tests); the in-VM lab tests have their own busybox tests/lab/tap.sh.
#
#   ok TEXT...            a passing test point
#   nok TEXT...           a failing one (notok: the same); sets fail=1 and
#                         calls tap_on_fail, when the test defines it, to
#                         print diagnostics ("# " lines)
#   check TEXT CMD...     ok when CMD ARGS... exits 0, else nok
#   check_expr EXPR TEXT  ok when eval EXPR exits 0 (an expression of
#                         the test's variables), else nok
#   skip TEXT...          a test point skipped: "ok N # skip TEXT"
#   skip_all WHY          the whole test cannot run here: plan 1..0, exit 0
#   need_cmds CMD...      skip_all unless every CMD is on PATH or in /usr/sbin
#   need_root [WHY]       skip_all unless root (default: qemu:///system needs it)
#   need_libvirt RTVIRT   need_root, then `RTVIRT setup` starts virtlogd and
#                         libvirtd, else skip_all
#   diag TEXT...          a "# TEXT" line
#   tap_plan              prints 1..N for the points so far (a plan at the end)
#   tap_exit              exits 1 when a point failed, else 0
n=0
fail=0
ok() { n=$((n + 1)); echo "ok $n - $*"; }
nok() {
    n=$((n + 1)); fail=1; echo "not ok $n - $*"
    if command -v tap_on_fail >/dev/null 2>&1; then tap_on_fail; fi
    return 0
}
notok() { nok "$@"; }
check() {
    _tap_what=$1; shift
    if "$@"; then ok "$_tap_what"; else nok "$_tap_what"; fi
}
check_expr() { if eval "$1"; then ok "$2"; else nok "$2"; fi; }
skip() { n=$((n + 1)); echo "ok $n # skip $*"; }
skip_all() { echo "1..0 # SKIP $*"; exit 0; }
need_cmds() {
    for _tap_c in "$@"; do
        command -v "$_tap_c" >/dev/null 2>&1 || [ -x "/usr/sbin/$_tap_c" ] ||
            skip_all "$_tap_c is not installed"
    done
}
need_root() { [ "$(id -u)" = 0 ] || skip_all "${1:-qemu:///system needs root}"; }
need_libvirt() {
    need_root
    PATH=$PATH:/usr/sbin; export PATH
    "$1" setup >/dev/null 2>&1 || skip_all "rtvirt setup failed: no libvirtd"
}
diag() { echo "# $*"; }
tap_plan() { echo "1..$n"; }
tap_exit() { exit "$fail"; }
