#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/t-run-plan.sh: `rtvirt run` on bad input and `rtvirt run --plan`,
# no root, no guest.
#  - every tests/data/matrix/bad/*.ini: exit 2 with "FILE:LINE:" (or the
#    file) named on stderr, no results store, no lock taken, no journal;
#  - a matrix whose guest profile is bad, and one whose guest cannot be
#    placed on the host: refused before anything changes;
#  - `--plan --root` on the captured build machine
#    (tests/data/hosts/debian12-2cpu-nosmt-rtgroup): the plan and the SKIPPED
#    reasons of profiles/matrix/demo.ini, against
#    tests/data/run/plan-debian12-demo.expected (RV_REGENERATE=1 rewrites);
#  - `--plan --root` on a synthetic SMT host with core scheduling
#    (tests/data/run/smt-2s4c2t, see its .source.txt): every scenario of
#    profiles/matrix/coresched-vs-nosmt.ini runs, RT guests on whole isolated
#    cores apart from each other, nosmt placed on the primary threads only.
set -u
rtvirt=${RV_BUILD:?}/rtvirt
top=${RV_TOP:?}
n=0
ok() { n=$((n + 1)); echo "ok $n - $*"; }
nok() { n=$((n + 1)); echo "not ok $n - $*"; }
check() { local what=$1; shift; if "$@"; then ok "$what"; else nok "$what"; fi; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$top" || exit 1
export RTVIRT_LOCK_FILE=$tmp/lock

bad=$(ls tests/data/matrix/bad/*.ini)
echo "1..$(( $(echo "$bad" | wc -l) * 2 + 9 ))"

for f in $bad; do
    "$rtvirt" run --out "$tmp/results" "$f" >"$tmp/out" 2>"$tmp/err"; rc=$?
    check "$(basename "$f"): exit 2 naming the file ($(cut -c1-160 "$tmp/err"))" \
        eval '[ $rc -eq 2 ] && grep -q "^rtvirt: $f" "$tmp/err"'
    check "$(basename "$f"): nothing written (no store, no lock file)" \
        eval '[ ! -e "$tmp/results" ] && [ ! -e "$tmp/lock" ]'
done

# a guest profile with a bad value: named with the matrix line of the guest
mkdir -p "$tmp/m"
printf '[main]\nname = g\n[cpu]\nvcpus = 0\n[memory]\nsize = 256M\n' >"$tmp/m/badguest.ini"
printf '[guest:rt]\nprofile = badguest.ini\n[scenario:a]\nsmt = keep\n' >"$tmp/m/matrix.ini"
"$rtvirt" run --out "$tmp/results" "$tmp/m/matrix.ini" >"$tmp/out" 2>"$tmp/err"; rc=$?
check "bad guest profile: exit 2, matrix line and guest profile line named ($(cut -c1-200 "$tmp/err"))" \
    eval '[ $rc -eq 2 ] && grep -q "matrix.ini:2: \[guest:rt\]: .*badguest.ini:4" "$tmp/err"'

# impossible placement: 64 RT vCPUs on this host
sed -e 's/^vcpus = .*/vcpus = 64/' profiles/guests/rt-demo.ini >"$tmp/m/big.ini"
printf '[guest:rt]\nprofile = big.ini\n[scenario:a]\nsmt = keep\n' >"$tmp/m/big-matrix.ini"
"$rtvirt" run --out "$tmp/results" "$tmp/m/big-matrix.ini" >"$tmp/out" 2>"$tmp/err"; rc=$?
check "impossible placement: refused with the reason, before any change ($(cut -c1-200 "$tmp/err"))" \
    eval '[ $rc -eq 2 ] || [ $rc -eq 77 ]; grep -q "big-matrix.ini:4: \[scenario:a\]: guest .rt. cannot be placed" "$tmp/err" && [ ! -e "$tmp/results" ] && [ ! -e "$tmp/lock" ]'

"$rtvirt" run "$tmp/m/none.ini" >/dev/null 2>"$tmp/err"; rc=$?
check "missing matrix file: exit 2 ($(cat "$tmp/err"))" [ $rc -eq 2 ]
"$rtvirt" run --repetitions 0 profiles/matrix/ci.ini >/dev/null 2>"$tmp/err"; rc=$?
check "--repetitions 0: exit 2" eval '[ $rc -eq 2 ] && grep -q "repetitions 0" "$tmp/err"'
"$rtvirt" run --root tests/data/hosts/debian12-2cpu-nosmt-rtgroup profiles/matrix/ci.ini >/dev/null 2>"$tmp/err"; rc=$?
check "--root without --plan is refused (guests run on the live host only)" \
    eval '[ $rc -eq 2 ] && grep -q "use --root only with --plan" "$tmp/err"'

"$rtvirt" run --plan --root tests/data/hosts/debian12-2cpu-nosmt-rtgroup profiles/matrix/demo.ini \
    >"$tmp/plan" 2>"$tmp/err"; rc=$?
exp=tests/data/run/plan-debian12-demo.expected
[ "${RV_REGENERATE:-}" = 1 ] && cp "$tmp/plan" "$exp"
check "--plan on the captured build machine matches $exp ($(diff "$exp" "$tmp/plan" | head -5 | tr '\n' ' '))" \
    eval '[ $rc -eq 0 ] && diff -q "$exp" "$tmp/plan" >/dev/null'
"$rtvirt" run --plan --seed 1 --root tests/data/hosts/debian12-2cpu-nosmt-rtgroup profiles/matrix/demo.ini \
    >"$tmp/plan1" 2>/dev/null
check "--seed changes the order, not the runs" \
    eval '! cmp -s <(grep -v "^#" "$tmp/plan") <(grep -v "^#" "$tmp/plan1") &&
          cmp -s <(grep -v "^#" "$tmp/plan" | cut -d" " -f2- | sort) <(grep -v "^#" "$tmp/plan1" | cut -d" " -f2- | sort)'

smt=tests/data/run/smt-2s4c2t
"$rtvirt" run --plan --seed 1 --root "$smt" profiles/matrix/coresched-vs-nosmt.ini \
    >"$tmp/smt" 2>"$tmp/err"; rc=$?
exp=tests/data/run/plan-smt-coresched-vs-nosmt.expected
[ "${RV_REGENERATE:-}" = 1 ] && cp "$tmp/smt" "$exp"
check "coresched-vs-nosmt on an SMT host: every scenario runs ($(grep '^# scenario' "$tmp/smt" | grep -v ': runs' | cut -c1-200))" \
    eval '[ $rc -eq 0 ] && [ "$(grep -c "^# scenario .*: runs$" "$tmp/smt")" = 4 ]'
check "coresched-vs-nosmt on an SMT host matches $exp ($(diff "$exp" "$tmp/smt" | head -5 | tr '\n' ' '))" \
    diff -q "$exp" "$tmp/smt"
