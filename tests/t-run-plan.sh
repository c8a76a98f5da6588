#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/t-run-plan.sh: `rtvirt run` on bad input and `rtvirt run --plan`,
# no root, no guest.
#  - every tests/data/matrix/bad/*.ini: exit 2 with "FILE:LINE:" (or the
#    file) named on stderr, no results store, no lock taken, no journal;
#  - a matrix whose guest profile is bad: refused before anything changes;
#  - one whose guest cannot be placed on the host (too few CPUs, none
#    isolated): the scenario SKIPPED with the reason, --plan (text and
#    --json) shows the whole plan and exits 77, the run writes a store
#    that says why and exits 77; the flagship on the captured build
#    machine likewise;
#  - `--plan --root` on the captured build machine
#    (tests/data/hosts/debian12-2cpu-nosmt-rtgroup): the plan and the SKIPPED
#    reasons of profiles/matrix/demo.ini, against
#    tests/data/run/plan-debian12-demo.expected (RV_REGENERATE=1 rewrites);
#  - `--plan --root` on a synthetic SMT host with core scheduling
#    (tests/data/run/smt-2s4c2t, see its .source.txt): every scenario of
#    profiles/matrix/coresched-vs-nosmt.ini runs, RT guests on whole isolated
#    cores apart from each other, nosmt placed on the primary threads only,
#    and each scenario's neighbour CPU budget in --plan and --plan --json
#    (also on captures of real SMT hosts: the budget printed is the rule's,
#    every busy vCPU inside it);
#  - a matrix whose host_profile does not load (a bad value, a missing
#    include): --plan exits 2 naming the host profile's FILE:LINE (run does
#    too, with no store: the bad/*.ini loop);
#  - a host profile's cpulists meet the host at --plan: 1-N runs on the
#    2-CPU build machine, 1-5 is refused (exit 2, both lines named);
#  - a matrix whose baseline the captured build machine skips: --plan
#    prints a NOTE naming the scenario compare uses instead;
#  - a real run of a matrix the live host cannot run at all (no SMT): exit
#    77, and the run-order NOTE of run.json counts 0 runs of 4 planned;
#  - a matrix whose scenarios set bootargs (tests/data/run/boot-host.ini):
#    --plan prints the boots, the host's first, and the runs of each boot
#    together; --plan --json has boots[] and each run's boot; --resume of
#    a store with no reboot in progress, or with a MATRIX, exits 2
#    (tests/t-run-reboot.sh runs the reboots);
#  - --help documents how run's exit status differs from guest run's;
#  - what --plan says before anything runs, on the SMT fixture with two
#    NUMA nodes and 1 GiB huge pages reserved (4 on node 0, 2 on node 1):
#    the estimate in all and per scenario, the host changes (smt/control
#    off in nosmt, core cookies, domains) and the run journal, the host
#    profile's FAIL (results UNTRUSTED, the first reasons), the huge pages
#    per node (node 1 short), the run table's header, the seed from --seed;
#    --plan of a matrix no scenario of which can run exits 77.
set -u
rtvirt=${RV_BUILD:?}/rtvirt
top=${RV_TOP:?}
. "${RV_TOP:?}/tests/tap.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$top" || exit 1
export RTVIRT_LOCK_FILE=$tmp/lock

# a glob, not `ls`: a fixture name may hold spaces and shell syntax
bad=(tests/data/matrix/bad/*.ini)
echo "1..$(( ${#bad[@]} * 2 + 60 ))"

for f in "${bad[@]}"; do
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

# impossible placement: 64 RT vCPUs on this host.  The scenario is SKIPPED
# with the reason, as for any capability the host lacks: --plan (text and
# --json) shows the whole plan and exits 77, the run writes a store whose
# scenario says why and exits 77, no guest, nothing changed
sed -e 's/^vcpus = .*/vcpus = 64/' profiles/guests/rt-demo.ini >"$tmp/m/big.ini"
printf '[guest:rt]\nprofile = big.ini\n[scenario:a]\nsmt = keep\n' >"$tmp/m/big-matrix.ini"
"$rtvirt" run --plan "$tmp/m/big-matrix.ini" >"$tmp/out" 2>"$tmp/err"; rc=$?
check "impossible placement, --plan: the whole plan, the scenario SKIPPED with the reason, exit 77 ($rc: $(grep '^# scenario' "$tmp/out" | cut -c1-200))" \
    eval '[ $rc -eq 77 ] && grep -q "^# scenario a (.*): SKIPPED: guest .rt. cannot be placed on this host: big.ini: " "$tmp/out" &&
          grep -q "^# matrix big-matrix: " "$tmp/out" && grep -q "^# host changes" "$tmp/out" &&
          grep -q "^# resources (the largest SKIPPED scenario.s guests against this host):" "$tmp/out" &&
          grep -q "^#   vCPUs: 64 needed (a), [0-9]* online CPUs: overcommitted" "$tmp/out" &&
          grep -q "^# run table: " "$tmp/out" && grep -q "No scenario of big-matrix can run" "$tmp/err"'
"$rtvirt" run --plan --json "$tmp/m/big-matrix.ini" >"$tmp/out" 2>"$tmp/err"; rc=$?
placed=$(python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
s = d["scenarios"][0]
print(s["skipped"] == s["not_placed"] and s["skipped"].startswith("guest \x27rt\x27 cannot be placed"),
      s["placements"] == {}, all(r["skipped"] for r in d["runs"]), d["resources_of"])' "$tmp/out" 2>&1)
check "impossible placement, --plan --json: skipped = not_placed, no placement, every run skipped, exit 77 ($rc: $placed)" \
    eval '[ $rc -eq 77 ] && [ "$placed" = "True True True skipped" ]'
"$rtvirt" run --out "$tmp/results" "$tmp/m/big-matrix.ini" >"$tmp/out" 2>"$tmp/err"; rc=$?
why=$(python3 -c '
import json, glob, sys
d = json.load(open(glob.glob(sys.argv[1] + "/*/run.json")[0]))
s = d["scenarios"][0]
print(s["status"] == "skipped" and s["reason"].startswith("guest \x27rt\x27 cannot be placed on this host: big.ini: ")
      and not d["records"], s["reason"])' "$tmp/results" 2>&1)
check "impossible placement, run: exit 77, the store says why, no record ($rc: $why)" \
    eval '[ $rc -eq 77 ] && [ "${why%% *}" = True ]'
rm -rf "$tmp/results" "$tmp/lock"

# the flagship on the captured 2-CPU build machine (no SMT, no isolated
# CPU): every scenario SKIPPED, the first reason and, where another comes
# first, why its guests cannot be placed; the whole plan still shown
"$rtvirt" run --plan --seed 1 --root tests/data/hosts/debian12-2cpu-nosmt-rtgroup profiles/matrix/coresched-vs-nosmt.ini \
    >"$tmp/out" 2>"$tmp/err"; rc=$?
check "flagship --plan on a host without SMT or isolated CPUs: 5 scenarios SKIPPED, each also not placed, the run table, exit 77 ($rc: $(cut -c1-200 "$tmp/err"))" \
    eval '[ $rc -eq 77 ] && [ "$(grep -c "^# scenario .*: SKIPPED: smt = " "$tmp/out")" = 5 ] &&
          [ "$(grep -c "^#   also: guest .rt1. cannot be placed on this host: rt-guest.ini: 3 RT vCPUs need 3 isolated CPUs, host has 0" "$tmp/out")" = 5 ] &&
          [ "$(grep -c "^[0-9]* [0-9]* " "$tmp/out")" = 100 ]'
# a scenario that lacks two things says both: coresched and coresched-vcpu
# need SMT and core scheduling, and that kernel has no CONFIG_SCHED_CORE
check "flagship --plan: the coresched scenarios also name the missing core scheduling ($(grep '^# scenario coresched' "$tmp/out" | cut -c1-300 | tr '\n' '|'))" \
    eval '[ "$(grep -c "^# scenario coresched.*: SKIPPED: smt = on: the CPU has no SMT (smt/control = notsupported); also coresched = v[a-z]*: Core scheduling unavailable: kernel without CONFIG_SCHED_CORE" "$tmp/out")" = 2 ]'

# a [host] workload on CPUs this host does not have: SKIPPED by the plan
# (the run would FAIL every repetition: rtvirt pert refuses an offline CPU)
sed 's/^cpus = .*/cpus = 1,5-6/' tests/data/run/host-pert.ini >"$tmp/host-cpus.ini"
"$rtvirt" run --plan --root tests/data/hosts/debian12-2cpu-nosmt-rtgroup "$tmp/host-cpus.ini" >"$tmp/out" 2>"$tmp/err"; rc=$?
check "[host] cpus = 1,5-6 on a 2-CPU host: every scenario SKIPPED naming the CPUs, exit 77 ($rc: $(grep -m1 '^# scenario' "$tmp/out" | cut -c1-200))" \
    eval '[ $rc -eq 77 ] && [ "$(grep -c "^# scenario .*: SKIPPED: \[host\] cpus = 1,5-6: not online on this host: 5-6 (online CPUs: 0-1)$" "$tmp/out")" = 2 ]'
# the plan names the [host] workload and its CPUs (text and --json)
"$rtvirt" run --plan --root tests/data/hosts/debian12-2cpu-nosmt-rtgroup tests/data/run/host-pert.ini >"$tmp/out" 2>"$tmp/err"; rc=$?
hw=$("$rtvirt" run --plan --json --root tests/data/hosts/debian12-2cpu-nosmt-rtgroup tests/data/run/host-pert.ini 2>/dev/null |
     python3 -c 'import json,sys; h = json.load(sys.stdin)["host_workload"]; print(h["workload"] + "/" + h["cpus"])' 2>&1)
check "--plan names the [host] workload and its CPUs ($rc: $(grep '^# host workload' "$tmp/out"); $hw)" \
    eval '[ $rc -eq 0 ] && grep -qx "# host workload: pert on CPUs 1 in every scenario" "$tmp/out" &&
          [ "$hw" = pert/1 ]'
sed 's/^cpus = .*/cpus = isolated/' tests/data/run/host-pert.ini >"$tmp/host-iso.ini"
"$rtvirt" run --plan --root tests/data/hosts/debian12-2cpu-nosmt-rtgroup "$tmp/host-iso.ini" >"$tmp/out" 2>"$tmp/err"; rc=$?
check "--plan: [host] cpus = isolated on a host without isolated CPUs says the workload does not run ($rc: $(grep '^# host workload' "$tmp/out"))" \
    eval 'grep -qx "# host workload: pert: not run: no isolated CPU on this host (set \[host\] cpus = LIST)" "$tmp/out"'

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
    eval '[ $rc -eq 0 ] && [ "$(grep -c "^# scenario .*: runs$" "$tmp/smt")" = 5 ]'
check "coresched-vs-nosmt on an SMT host matches $exp ($(diff "$exp" "$tmp/smt" | head -5 | tr '\n' ' '))" \
    diff -q "$exp" "$tmp/smt"
# the neighbours' CPU budget per scenario in --plan --json: all but the RT
# vCPUs' CPUs 1-3,5-7, with their siblings 9-11,13-15 where shared, without
# them where idle, the primary threads only with SMT off
"$rtvirt" run --plan --json --seed 1 --root "$smt" profiles/matrix/coresched-vs-nosmt.ini \
    >"$tmp/smt.json" 2>"$tmp/err"; rc=$?
budgets=$(python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
print(" ".join("%s=%s/%d/%s/%s" % (s["name"], b["cpus"], b["count"], b["rt_siblings_given"], b["primaries_only"])
               for s in d["scenarios"] for b in [s["neighbour_budget"]]))' "$tmp/smt.json" 2>&1)
check "coresched-vs-nosmt --plan --json: each scenario's neighbour budget ($budgets)" \
    eval '[ $rc -eq 0 ] && [ "$budgets" = "baseline=0,4,8-15/10/True/False siblings-idle=0,4,8,12/4/False/False nosmt=0,4/2/False/True coresched=0,4,8-15/10/True/False coresched-vcpu=0,4,8-15/10/True/False" ]'
# the matrix names its host profile as ../host/...: shown as a user reads
# it, not as profiles/matrix/../host/... (the text plan: the expected file)
check "coresched-vs-nosmt --plan --json names profiles/host/realtime-virtual-host.ini ($(grep -o '"[^"]*/\.\./[^"]*"' "$tmp/smt.json" | head -3 | tr '\n' ' '))" \
    eval 'grep -q "\"profiles/host/realtime-virtual-host.ini\"" "$tmp/smt.json" && ! grep -q "/\.\./" "$tmp/smt.json"'

# the flagship's CI version on the captured build machine (no SMT): what
# the plan says of the scenarios that run is true there: no description
# claims SMT on, each says host_sibling changes nothing, and a NOTE that
# baseline and siblings-idle differ only in name (text and --json)
"$rtvirt" run --plan --root tests/data/hosts/debian12-2cpu-nosmt-rtgroup profiles/matrix/coresched-vs-nosmt-ci.ini \
    >"$tmp/ci" 2>"$tmp/err"; rc=$?
"$rtvirt" run --plan --json --root tests/data/hosts/debian12-2cpu-nosmt-rtgroup profiles/matrix/coresched-vs-nosmt-ci.ini \
    >"$tmp/ci.json" 2>/dev/null
cij=$(python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
print(d["host_note"], ",".join(s["name"] for s in d["scenarios"] if s["on_this_host"]))' "$tmp/ci.json" 2>&1)
check "flagship-ci --plan without SMT: runnable scenarios' descriptions true there, host_sibling said to change nothing, baseline and siblings-idle alike ($rc: $(sed -n "/: runs$/{n;p}" "$tmp/ci" | tr "\n" "|" | cut -c1-240); $cij)" \
    eval '[ $rc -eq 0 ] && ! sed -n "/: runs$/{n;p}" "$tmp/ci" | grep -q "SMT on" &&
          [ "$(grep -c "^#   on this host: no core has an SMT sibling online, so host_sibling = \(idle\|shared\) changes nothing" "$tmp/ci")" = 2 ] &&
          grep -q "^# NOTE: this host has no SMT: baseline and siblings-idle differ only in name here$" "$tmp/ci" &&
          [ "$cij" = "NOTE: this host has no SMT: baseline and siblings-idle differ only in name here baseline,siblings-idle" ]'

# the estimate's boot time follows the accelerator the run will use:
# KVM on a capture taken as a hardware-KVM host, TCG where the host has
# only PVM (a copy with /sys/module/kvm_pvm) or $RTVIRT_VIRT=tcg says so;
# under TCG per guest (3 guests here).  Structure only: no time is judged.
pvm=$tmp/pvm; mkdir -p "$pvm"; cp -r tests/data/hosts/debian12-2cpu-nosmt-rtgroup/. "$pvm"
mkdir -p "$pvm/sys/module/kvm_pvm" "$pvm/sys/module/kvm"
virts=""
for how in "kvm:tests/data/hosts/debian12-2cpu-nosmt-rtgroup:" "tcg:$pvm:" "tcg:tests/data/hosts/debian12-2cpu-nosmt-rtgroup:tcg"; do
    IFS=: read -r want root env <<<"$how"
    RTVIRT_VIRT=$env "$rtvirt" run --plan --json --root "$root" profiles/matrix/coresched-vs-nosmt-ci.ini >"$tmp/v.json" 2>/dev/null
    RTVIRT_VIRT=$env "$rtvirt" run --plan --root "$root" profiles/matrix/coresched-vs-nosmt-ci.ini 2>/dev/null | grep "^# estimate" >"$tmp/v.txt"
    got=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["estimate"]["virt"])' "$tmp/v.json" 2>&1)
    case $want in
    kvm) grep -q " s boot assumed under KVM; " "$tmp/v.txt" || got="$got (text: $(cat "$tmp/v.txt"))";;
    tcg) grep -q " s boot assumed under TCG: [0-9]* s per guest, 3 guest(s); " "$tmp/v.txt" || got="$got (text: $(cat "$tmp/v.txt"))";;
    esac
    virts="$virts $got"
done
check "--plan estimate: the boot scaled to the accelerator: KVM, TCG under PVM, TCG from \$RTVIRT_VIRT (${virts# })" \
    [ "${virts# }" = "kvm tcg tcg" ]

# host_profile that does not load: --plan refuses it like the run does
for hp in timer-migration-7:6 missing-include:5; do
    f=tests/data/matrix/bad/host-profile-${hp%%:*}.ini
    "$rtvirt" run --plan "$f" >"$tmp/out" 2>"$tmp/err"; rc=$?
    check "--plan $(basename "$f"): exit 2 naming the host profile's line ($(cut -c1-200 "$tmp/err"))" \
        eval '[ $rc -eq 2 ] && grep -q "^rtvirt: $f:4: host_profile .*/host/${hp%%:*}.ini:${hp#*:}: " "$tmp/err" && [ ! -s "$tmp/out" ]'
done

# the host profile against the host's CPUs: N resolves there, 5 is beyond
"$rtvirt" run --plan --root tests/data/hosts/debian12-2cpu-nosmt-rtgroup tests/data/run/host-profile-n.ini \
    >"$tmp/out" 2>"$tmp/err"; rc=$?
check "--plan, host profile isolated = 1-N on a 2-CPU host: runs ($(cut -c1-200 "$tmp/err"))" [ $rc -eq 0 ]
f=tests/data/run/host-profile-cpus-1-5.ini
"$rtvirt" run --plan --root tests/data/hosts/debian12-2cpu-nosmt-rtgroup "$f" >"$tmp/out" 2>"$tmp/err"; rc=$?
check "--plan, host profile isolated = 1-5 on a 2-CPU host: exit 2 naming both lines ($(cut -c1-200 "$tmp/err"))" \
    eval '[ $rc -eq 2 ] && grep -q "^rtvirt: $f:12: host_profile: .*/host/cpus-1-5.ini:7: " "$tmp/err" && [ ! -s "$tmp/out" ]'

# a skipped baseline: said, with the scenario compare falls back to
"$rtvirt" run --plan --root tests/data/hosts/debian12-2cpu-nosmt-rtgroup tests/data/run/baseline-skipped.ini \
    >"$tmp/bs" 2>"$tmp/err"; rc=$?
check "--plan with the baseline skipped: NOTE naming the fallback ($(grep NOTE: "$tmp/bs" | grep baseline | cut -c1-200))" \
    eval '[ $rc -eq 0 ] && grep -q "^# NOTE: baseline scenario .nosmt. is SKIPPED on this host: rtvirt compare will use .pinned." "$tmp/bs"'
"$rtvirt" run --plan --root tests/data/hosts/debian12-2cpu-nosmt-rtgroup profiles/matrix/demo.ini 2>/dev/null |
    grep -q "NOTE: baseline"; rc=$?
check "--plan with the baseline running: no baseline NOTE" [ $rc -ne 0 ]

# a real run that skips every scenario: no guest, exit 77, store written
smt_control=$(cat /sys/devices/system/cpu/smt/control 2>/dev/null || echo notsupported)
if [ "$smt_control" = notsupported ] && [ "$(id -u)" = 0 ]; then
    "$rtvirt" run --out "$tmp/skipres" tests/data/run/all-skipped.ini >"$tmp/out" 2>"$tmp/err"; rc=$?
    note=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print([v["detail"] for v in d["verifications"] if v["what"] == "run order"][0])' "$tmp"/skipres/*/run.json 2>&1)
    check "all scenarios skipped: exit 77 ($rc), run order NOTE counts runnable runs ($note), no compare suggested ($(grep '^Compare:' "$tmp/out"))" \
        eval '[ $rc -eq 77 ] && case "$note" in *", 0 runs (4 planned, 4 skipped): raw/plan.txt") true;; *) false;; esac &&
              grep -qx "Compare: nothing to compare: no repetition was measured (every scenario SKIPPED)" "$tmp/out"'
else
    ok "# SKIP live host has SMT ($smt_control) or no root: all-skipped.ini would run guests"
fi

"$rtvirt" run --help >"$tmp/help" 2>&1
check "run --help: a verification FAIL leaves a repetition ok (untrusted), unlike guest run's exit 1" \
    eval 'tr "\n" " " <"$tmp/help" | grep -q "verification FAIL .*untrusted.*rtvirt guest run.*exits 1 on any verification FAIL"'

# $RTVIRT_VIRT is spelled as guest run's --virt; a typo is an error (it was
# silently 'auto' before), named, exit 2, before any guest starts
RTVIRT_VIRT=kmv "$rtvirt" run --out "$tmp/virtres" profiles/matrix/ci.ini >"$tmp/out" 2>"$tmp/err"; rc=$?
check "RTVIRT_VIRT=kmv: exit 2 naming the value ($rc)" \
    eval '[ $rc -eq 2 ] && grep -q "\$RTVIRT_VIRT: invalid virt .kmv.: expected auto, kvm, tcg (alias qemu)" "$tmp/err"'
RTVIRT_VIRT=kmv "$rtvirt" run --plan profiles/matrix/ci.ini >"$tmp/out" 2>"$tmp/err"; rc=$?
check "RTVIRT_VIRT=kmv with --plan: exit 2 as the run ($rc)" \
    eval '[ $rc -eq 2 ] && grep -q "\$RTVIRT_VIRT: invalid virt .kmv." "$tmp/err"'

# host_sibling on SMT hosts: on the synthetic fixture and on real
# sysfs captures and hwloc exports (2x24x2 EPYC 7451, 2x18x2 Skylake) of
# tests/data/cases/topology turned into trees (isolated =
# every online CPU but the first core of each package; smt/control = on and
# a usable core-scheduling record added), every scenario of
# coresched-vs-nosmt.ini is checked on the CPU lists its --plan prints:
# baseline / coresched*: a busy vCPU alone on each SMT sibling of the RT
# vCPUs, as far as the busy vCPUs go round (host_sibling = shared), siblings-idle: the siblings idle and no busy vCPU
# there, nosmt: primary threads only
hwloc_to_dump() {   # an hwloc XML export -> "grep -H" lines of its cores
    python3 - "$1" <<'PY'
import sys, xml.etree.ElementTree as ET
def walk(o, pkg):
    t = o.get("type")
    if t == "Package":
        pkg = o.get("os_index")
    if t == "Core":
        pus = sorted(int(p.get("os_index")) for p in o.iter("object") if p.get("type") == "PU")
        for cpu in pus:
            d = "/sys/devices/system/cpu/cpu%d" % cpu
            print("%s/online:1" % d)
            print("%s/topology/physical_package_id:%s" % (d, pkg))
            print("%s/topology/core_id:%s" % (d, o.get("os_index")))
            print("%s/topology/thread_siblings_list:%s" % (d, ",".join(map(str, pus))))
        return
    for c in o.findall("object"):
        walk(c, pkg)
walk(ET.parse(sys.argv[1]).getroot().find("object"), "0")
PY
}

tree_from_dump() {   # DUMP DIR: "grep -H" lines "/sys/...:value" -> files
    local line path
    while IFS= read -r line; do
        path=${line%%:*}
        mkdir -p "$2$(dirname "$path")"
        printf '%s\n' "${line#*:}" >"$2$path"
    done <"$1"
    python3 - "$2" <<'PY'
import glob, os, sys
root = sys.argv[1]
cpu = root + "/sys/devices/system/cpu"
first = {}
online = set()
for d in glob.glob(cpu + "/cpu[0-9]*"):
    n = int(os.path.basename(d)[3:])
    on = d + "/online"
    if os.path.exists(on) and open(on).read().strip() == "0":
        continue
    try:
        pkg = open(d + "/topology/physical_package_id").read().strip()
        sib = open(d + "/topology/thread_siblings_list").read().strip()
    except OSError:
        continue
    online.add(n)
    lo = min(int(x.split("-")[0]) for x in sib.split(","))
    first.setdefault(pkg, lo)
    first[pkg] = min(first[pkg], lo)
hk = set()
for d in glob.glob(cpu + "/cpu[0-9]*"):
    n = int(os.path.basename(d)[3:])
    if n not in online:
        continue
    sib = open(d + "/topology/thread_siblings_list").read().strip()
    if min(int(x.split("-")[0]) for x in sib.split(",")) in first.values():
        hk.add(n)
open(cpu + "/isolated", "w").write(",".join(str(c) for c in sorted(online - hk)) + "\n")
for f in ("possible", "present", "online"):   # old dumps have none
    if not os.path.exists(cpu + "/" + f):
        open(cpu + "/" + f, "w").write(",".join(str(c) for c in sorted(online)) + "\n")
os.makedirs(cpu + "/smt", exist_ok=True)
open(cpu + "/smt/control", "w").write("on\n")
open(cpu + "/smt/active", "w").write("1\n")
os.makedirs(root + "/rtvirt", exist_ok=True)
open(root + "/rtvirt/coresched", "w").write("usable\n")
PY
}

check_siblings() {   # ROOT PLAN [any]: prints what is wrong, nothing when right
    # (any: SKIPPED scenarios are checked too); neighbours = guests without
    # RT vCPUs, "NAME..NAME (N guests)" blocks count N times
    python3 - "$1" "$2" "${3:-}" <<'PY'
import glob, os, re, sys
root, plan, any_runs = sys.argv[1], sys.argv[2], sys.argv[3] == "any"
def parse(l):
    s = set()
    for p in l.split(","):
        a, _, b = p.partition("-")
        s.update(range(int(a), int(b or a) + 1))
    return s
core = {}
for d in glob.glob(root + "/sys/devices/system/cpu/cpu[0-9]*"):
    f = d + "/topology/thread_siblings_list"
    if os.path.exists(f):
        core[int(os.path.basename(d)[3:])] = parse(open(f).read().strip())
lines = []
cur = None
runs = {}
printed = {}
for line in open(plan):
    m = re.match(r"# scenario (\S+) .*: (runs|SKIPPED)", line)
    if m:
        cur = m.group(1)
        runs[cur] = m.group(2) == "runs"
        continue
    m = re.match(r"#   neighbours' CPU budget: CPUs? ([0-9,-]+|none) \((\d+)\)", line)
    if m and cur is not None:
        printed[cur] = set() if m.group(1) == "none" else parse(m.group(1))
        continue
    m = re.match(r"#   (\S+)(?: \((\d+) guests\))?: (vCPU\d+|emulator|idle siblings|shared siblings) -> CPUs? ([0-9,-]+)(.*)", line)
    if m and cur is not None:
        lines.append((cur, m.group(1), int(m.group(2) or 1), m.group(3), parse(m.group(4)), m.group(5)))
rtg = {(sc, g) for sc, g, n, what, cpus, rest in lines if rest.endswith(" RT")}
scen = {}
for sc in runs:
    scen[sc] = {"rt": set(), "busy": [], "idle": set(), "shared": set(), "all": set(), "runs": runs[sc] or any_runs}
for sc, g, n, what, cpus, rest in lines:
    cur = scen[sc]
    if what == "idle siblings":
        cur["idle"] |= cpus
    elif what == "shared siblings":
        cur["shared"] |= cpus
    else:
        cur["all"] |= cpus
        if rest.endswith(" RT"):
            cur["rt"] |= cpus
        elif (sc, g) not in rtg and what.startswith("vCPU"):
            cur["busy"] += [cpus] * n
bad = ["%s: not in the plan" % n for n in ("baseline", "siblings-idle", "nosmt", "coresched")
       if n not in scen]
def read_set(path):
    try:
        t = open(root + path).read().strip()
    except OSError:
        return set()
    return parse(t) if t else set()
online = read_set("/sys/devices/system/cpu/online") or set(core)
isolated = read_set("/sys/devices/system/cpu/isolated")
for name, s in sorted(scen.items()):
    sib = set()
    for c in s["rt"]:
        sib |= core[c] - {c}
    # the neighbours' budget as in production under the option: all but
    # the RT vCPUs' CPUs, with their siblings where shared, without them
    # where idle, the primary threads only with SMT off
    on = {c for c in online if c == min(core.get(c, {c}))} if name == "nosmt" else online
    shared = name in ("baseline", "coresched", "coresched-vcpu")
    budget = on - s["rt"] - (set() if shared else sib)
    pool = budget & (isolated | (sib if shared else set()))
    singles = [next(iter(b)) for b in s["busy"] if len(b) == 1]
    one = set(singles)
    busy = set().union(*s["busy"]) if s["busy"] else set()
    if not s["runs"] or not s["rt"]:
        bad.append("%s: does not run or has no RT vCPU" % name)
        continue
    if printed.get(name) != budget:
        bad.append("%s: --plan prints the budget %s, the rule gives %s" % (name, sorted(printed.get(name, [])), sorted(budget)))
    if not busy <= budget:
        bad.append("%s: busy vCPUs on %s outside the budget %s" % (name, sorted(busy - budget), sorted(budget)))
    if len(one) != len(singles) or not one <= pool:
        bad.append("%s: busy vCPUs alone on %s, not one each on the budget's CPUs outside load balancing %s" % (name, sorted(singles), sorted(pool)))
    if len(one) != min(len(pool), len(s["busy"])):
        bad.append("%s: %u busy vCPUs alone, the pool %s has %u CPUs for %u vCPUs" % (name, len(one), sorted(pool), len(pool), len(s["busy"])))
    if any(len(b) > 1 and b != budget - pool for b in s["busy"]):
        bad.append("%s: floating busy vCPUs on %s, not on the rest of the budget %s" % (name, sorted(set().union(*[b for b in s["busy"] if len(b) > 1])), sorted(budget - pool)))
    if shared:
        # one busy vCPU alone on each sibling first, as far as they go round
        if s["shared"] != sib or len(one & sib) != min(len(sib), len(s["busy"])):
            bad.append("%s: siblings %s, shared %s, busy vCPUs alone on %s" % (name, sorted(sib), sorted(s["shared"]), sorted(one)))
    elif name == "siblings-idle":
        if s["idle"] != sib or busy & (sib | s["rt"]):
            bad.append("%s: siblings %s, idle %s, busy on %s" % (name, sorted(sib), sorted(s["idle"]), sorted(busy)))
    elif name == "nosmt":
        sec = {c for c in s["all"] if c != min(core[c])}
        if sec or s["idle"] or s["shared"]:
            bad.append("%s: secondary threads used %s" % (name, sorted(sec)))
print("; ".join(bad))
PY
}

for src in smt:tests/data/run/smt-2s4c2t cases:sysfs-2socket-intel-ht-n-n16-offline32-111.txt \
           cases:sysfs-power-smt4-256cpu.txt hwloc:hwloc-AMD-Zen-2xEpyc-7451.xml \
           hwloc:hwloc-Intel-Skylake-2xXeon6140.xml; do
    if [ "${src%%:*}" = smt ]; then
        r=${src#smt:}
    elif [ "${src%%:*}" = hwloc ]; then
        r=$tmp/tree-${src#hwloc:}
        hwloc_to_dump "${RV_CASES:-$top/tests/data/cases}/topology/${src#hwloc:}" >"$tmp/dump"
        tree_from_dump "$tmp/dump" "$r"
    else
        r=$tmp/tree-${src#cases:}
        tree_from_dump "${RV_CASES:-$top/tests/data/cases}/topology/${src#cases:}" "$r"
    fi
    "$rtvirt" run --plan --seed 1 --root "$r" profiles/matrix/coresched-vs-nosmt.ini \
        >"$tmp/sib" 2>"$tmp/err"; rc=$?
    why=$(check_siblings "$r" "$tmp/sib" 2>&1)
    check "host_sibling on ${src#*:}: shared siblings run busy vCPUs, idle ones none, nosmt primaries only (rc $rc $(cut -c1-200 "$tmp/err") $why)" \
        eval '[ $rc -eq 0 ] && [ -z "$why" ] && [ "$(grep -c "^# scenario .*: runs$" "$tmp/sib")" = 5 ]'
done

# count = N: 96 semi-idle VMs beside an RT guest, named
# semi-01..semi-96, placed by the planner, one block per run of alike
# placements; host_sibling = shared deals the first three onto the RT
# vCPUs' siblings, the next six onto the isolated CPUs no RT vCPU owns
# (5-7, 13-15: the neighbours' budget is all the RT vCPUs do not own);
# 512 MiB each shrinks to fit half the fixture's 64 GiB
f=tests/data/run/semi-idle-count.ini
"$rtvirt" run --plan --root "$smt" "$f" >"$tmp/semi" 2>"$tmp/err"; rc=$?
check "count = 96: semi-01..03 alone on the RT siblings 9-11, semi-04..09 on the free isolated CPUs, semi-10..semi-96 one block on housekeeping ($(cut -c1-200 "$tmp/err"))" \
    eval '[ $rc -eq 0 ] && grep -q "^#   semi-01: vCPU0 -> CPU 9 other$" "$tmp/semi" &&
          grep -q "^#   semi-03: vCPU0 -> CPU 11 other$" "$tmp/semi" &&
          grep -q "^#   semi-04: vCPU0 -> CPU 5 other$" "$tmp/semi" &&
          grep -q "^#   semi-09: vCPU0 -> CPU 15 other$" "$tmp/semi" &&
          grep -q "^#   semi-10..semi-96 (87 guests): vCPU0 -> CPUs 0,4,8,12 other$" "$tmp/semi"'
check "count = 96, siblings idle: semi-01..06 on the free isolated CPUs, a block of 90, no semi vCPU on 9-11; guests = semi-01, semi-02 takes two" \
    eval 'grep -q "^#   semi-07..semi-96 (90 guests): vCPU0 -> CPUs 0,4,8,12 other$" "$tmp/semi" &&
          [ "$(sed -n "/^# scenario siblings-idle/,/^# scenario few/p" "$tmp/semi" | grep -c "semi-0[1-6]: vCPU0 -> CPU \(5\|6\|7\|13\|14\|15\) other$")" = 6 ] &&
          ! sed -n "/^# scenario siblings-idle/,\$p" "$tmp/semi" | grep -q "vCPU0 -> CPU \(9\|10\|11\) " &&
          [ "$(sed -n "/^# scenario few/,\$p" "$tmp/semi" | grep -c "semi-0[12]: vCPU0 -> CPU [56] other$")" = 2 ]'
check "count = 96: memory shrunk to fit, said ($(grep 'guest memory' "$tmp/semi" | cut -c1-160))" \
    grep -q "^# NOTE guest memory: \[guest:semi\] 96 x 288 MiB instead of 512 MiB" "$tmp/semi"
"$rtvirt" run --plan --json --root "$smt" "$f" >"$tmp/semi.json" 2>/dev/null
nsemi=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(len([g for g in d["scenarios"][0]["placements"] if g.startswith("semi-")]))' "$tmp/semi.json" 2>&1)
check "count = 96: --plan --json names every guest ($nsemi)" [ "$nsemi" = 96 ]
# a host too small for 96 x 128 MiB: refused with the reason, nothing run
mkdir -p "$tmp/small"; cp -r "$smt"/. "$tmp/small"
printf 'MemTotal:       8388608 kB\n' >"$tmp/small/proc/meminfo"
"$rtvirt" run --plan --root "$tmp/small" "$f" >"$tmp/out" 2>"$tmp/err"; rc=$?
check "count = 96 on 8 GiB: each scenario SKIPPED short of memory naming the section, the plan shown, exit 77 ($rc $(grep -m1 "^# scenario baseline" "$tmp/out" | cut -c1-260))" \
    eval '[ $rc -eq 77 ] && grep -q "^# scenario baseline (.*): SKIPPED: short of memory: \[guest:semi\] count = 96 (.*semi-idle-count.ini:[0-9]*): the 96 count guests need 128 MiB each at least" "$tmp/out" &&
          grep -q "^# run table: " "$tmp/out" && grep -q "No scenario of semi-idle-count can run" "$tmp/err"'

# the reference matrices on the SMT fixture with 256 GiB:
# every one plans; all four tpcc-semi-idle scenarios run (the tpcc workload
# is built in: workloads/tpcc.c), and its CPU lists show neighbours on the RT
# vCPUs' siblings in baseline and coresched, idle siblings, nosmt on
# primaries; the throughput-only ones size their VMs node/3 or node/2 (the
# fixture's package 0 has 8 CPUs) and are refused on the 2-CPU build machine
big=$tmp/big; mkdir -p "$big"; cp -r "$smt"/. "$big"
printf 'MemTotal:       268435456 kB\n' >"$big/proc/meminfo"
"$rtvirt" run --plan --seed 1 --root "$big" profiles/matrix/tpcc-semi-idle.ini >"$tmp/ref" 2>"$tmp/err"; rc=$?
why=$(check_siblings "$big" "$tmp/ref" any 2>&1)
check "tpcc-semi-idle on an SMT fixture: all 4 scenarios run, siblings as the scenario says (rc $rc $(cut -c1-200 "$tmp/err") $why)" \
    eval '[ $rc -eq 0 ] && [ -z "$why" ] && [ "$(grep -c "^# scenario .*: runs$" "$tmp/ref")" = 4 ] &&
          grep -q "^#   semi-08..semi-21 (14 guests): vCPU0 -> CPUs 0,4,8,12 other$" "$tmp/ref" &&
          grep -q "^#   tpcc: vCPU1 -> CPU 10 other$" "$tmp/ref" &&
          grep -q "^# NOTE guest count: \[guest:semi\] count = node\*8/3: 21 guests (package 0 of this host: 8 online CPUs)$" "$tmp/ref"'
# on the reference's own topology (2 x Xeon Gold 6140, 18 cores x 2
# threads per package, hwloc's capture), booted as its host profile
# rt-beside-throughput says (`host bootargs` on that root: the last 3 cores
# of each socket isolated): the server is 12 vCPUs, node*8/3 makes the
# reference's 96 semi-idle VMs, and they float over the 60 housekeeping
# CPUs beside the RT vCPUs' shared siblings, not over one core per socket
sky=$tmp/sky; mkdir -p "$sky/proc"; cp -r "$tmp/tree-hwloc-Intel-Skylake-2xXeon6140.xml"/. "$sky"
printf 'MemTotal:       268435456 kB\n' >"$sky/proc/meminfo"
args=$("$rtvirt" host bootargs --root "$sky" rt-beside-throughput 2>"$tmp/err")
iso=$(printf '%s\n' $args | sed -n 's/^isolcpus=managed_irq,domain,//p')
printf '%s\n' "$iso" >"$sky/sys/devices/system/cpu/isolated"
"$rtvirt" run --plan --seed 1 --root "$sky" profiles/matrix/tpcc-semi-idle.ini >"$tmp/ref" 2>>"$tmp/err"; rc=$?
nt=$(awk '/^# scenario baseline/ {on=1; next} /^# scenario/ {on=0} on && /^#   tpcc: vCPU[0-9]+ ->/ {n++} END {print n+0}' "$tmp/ref")
check "tpcc-semi-idle on the reference's 2 x 18 x 2 Skylake isolated $iso: 96 semi-idle VMs and a $nt-vCPU server on the housekeeping CPUs and the RT siblings, all 4 scenarios run (rc $rc $(cut -c1-200 "$tmp/err"))" \
    eval '[ $rc -eq 0 ] && [ "$iso" = 30-35,66-71 ] && [ "$nt" = 12 ] && [ "$(grep -c "^# scenario .*: runs$" "$tmp/ref")" = 4 ] &&
          grep -q "^#   semi-01..semi-96 (96 guests): vCPU0 -> CPUs 0-29,36-65 other$" "$tmp/ref" && ! grep -q "semi-97" "$tmp/ref" &&
          grep -q "^#   tpcc: vCPU0 -> CPU 66 other$" "$tmp/ref" && grep -q "^#   tpcc: vCPU11 -> CPUs 0-29,36-65 other$" "$tmp/ref" &&
          grep -q "^# NOTE guest count: \[guest:semi\] count = node\*8/3: 96 guests (package 0 of this host: 36 online CPUs)$" "$tmp/ref"'
for m in linpack-2vm:linpack-01:2 linpack-3vm:linpack-01:2 sysbench-gemm-levels:gemm:4; do
    f=profiles/matrix/${m%%:*}.ini; g=${m#*:}; g=${g%:*}
    "$rtvirt" run --plan --seed 1 --root "$big" "$f" >"$tmp/ref" 2>"$tmp/err"; rc=$?
    nv=$(awk -v g="$g" '/^# scenario baseline/ {on=1; next} /^# scenario/ {on=0} on && index($0, "#   " g) == 1 && / vCPU[0-9]+ ->/ {n++} END {print n+0}' "$tmp/ref")
    prim=$(awk '/^# scenario nosmt/ {on=1; next} /^# scenario/ {on=0} on && / -> /' "$tmp/ref" | grep -c -E 'CPUs? [^ ]*(8|9|1[0-5])')
    # no RT vCPU: the budget is every online CPU, the primary threads in nosmt
    bud=$(sed -n "s/^#   neighbours' CPU budget: CPUs \([^ ]*\) .*/\1/p" "$tmp/ref" | tr '\n' ' ')
    check "${m%%:*} on an SMT fixture: baseline/nosmt/coresched run, $g sized to ${m##*:} vCPUs ($nv), nosmt on primaries ($prim lines off them), budgets $bud(rc $rc $(cut -c1-160 "$tmp/err"))" \
        eval '[ $rc -eq 0 ] && [ "$(grep -c "^# scenario \(baseline\|nosmt\|coresched\) .*: runs$" "$tmp/ref")" = 3 ] && [ "$nv" = "${m##*:}" ] && [ "$prim" = 0 ] &&
              [ "$bud" = "0-15 0-7 0-15 " ]'
done
# a guest sized node/3 on a 2-CPU host: every scenario that runs it
# SKIPPED with that reason (here after the SMT one), the whole plan shown
"$rtvirt" run --plan --root tests/data/hosts/debian12-2cpu-nosmt-rtgroup profiles/matrix/linpack-3vm.ini >"$tmp/out" 2>"$tmp/err"; rc=$?
nps=$("$rtvirt" run --plan --json --root tests/data/hosts/debian12-2cpu-nosmt-rtgroup profiles/matrix/linpack-3vm.ini 2>/dev/null |
      python3 -c 'import json,sys; print(sum(1 for s in json.load(sys.stdin)["scenarios"] if s["skipped"] and "2 / 3 is no vCPU" in (s["not_placed"] or "")))' 2>&1)
check "linpack-3vm on the 2-CPU build machine: every scenario SKIPPED naming the guest too large, the plan shown ($rc $(grep -m1 '^#   also' "$tmp/out" | cut -c1-200); --json not_placed $nps)" \
    eval '[ $rc -eq 77 ] && [ "$(grep -c "^#   also: profiles/matrix/linpack-3vm.ini:[0-9]*: \[guest:linpack\] vcpus = node/3: package 0 of this host has 2 online CPUs, 2 / 3 is no vCPU (the guest needs at least 1)$" "$tmp/out")" = 3 ] &&
          [ "$nps" = 3 ] && grep -q "^0 0 " "$tmp/out"'
# a guest the matrix sizes to a fixed vcpus = 8 on that 2-CPU machine: its
# scenario SKIPPED (exit 77, as every capability the host lacks) with the
# vCPUs asked against the CPUs there, the matrix file and the value named
printf '[guest:b]\nprofile = %s/profiles/guests/busy-guest.ini\nvcpus = 8\n[scenario:a]\nsmt = keep\n' "$PWD" >"$tmp/m/fixed-vcpus.ini"
"$rtvirt" run --plan --root tests/data/hosts/debian12-2cpu-nosmt-rtgroup "$tmp/m/fixed-vcpus.ini" >"$tmp/out" 2>"$tmp/err"; rc=$?
check "[guest:b] vcpus = 8 on 2 CPUs: SKIPPED saying the guest asks 8 vCPUs of 2 CPUs, exit 77 ($rc: $(grep -m1 '^# scenario a' "$tmp/out" | cut -c1-240))" \
    eval '[ $rc -eq 77 ] && grep -q "^# scenario a (.*): SKIPPED: $tmp/m/fixed-vcpus.ini:3: \[guest:b\] vcpus = 8: the guest asks 8 vCPUs, package 0 of this host has 2 online CPUs (a guest the matrix sizes gets at most one vCPU per CPU)$" "$tmp/out"'
"$rtvirt" run --plan --root "$smt" profiles/matrix/tpcc-semi-idle.ini >"$tmp/out" 2>"$tmp/err"; rc=$?
check "tpcc-semi-idle on 64 GiB: every scenario SKIPPED, the 32 GiB server and the RT guest need more than half, the plan shown ($rc $(grep -m1 "^# scenario" "$tmp/out" | cut -c1-200))" \
    eval '[ $rc -eq 77 ] && [ "$(grep -c "^# scenario .*: SKIPPED: short of memory: its guests need 36864 MiB without the count guests, more than half of this host.s 65536 MiB$" "$tmp/out")" = 4 ] &&
          grep -q "^#   memory (MiB): [0-9]* needed (baseline), 32768 MiB (half of MemTotal): SHORT$" "$tmp/out"'

# what --plan says before anything runs (text and --json): a copy of the
# SMT fixture with NUMA nodes 0 (CPUs 0-3,8-11) and 1 (4-7,12-15) and 1 GiB
# huge pages reserved, 4 on each node; the RT guests need 4 each
# (rt-guest.ini: 4 GiB of 1 GiB pages), rt1 on node 0, rt2 on node 1
deb0=tests/data/hosts/debian12-2cpu-nosmt-rtgroup
numa=$tmp/numa; mkdir -p "$numa"; cp -r "$smt"/. "$numa"
nd=$numa/sys/devices/system/node; mkdir -p "$nd"; echo 0-1 >"$nd/online"
mkdir -p "$nd/node0" "$nd/node1"; echo 0-3,8-11 >"$nd/node0/cpulist"
echo 4-7,12-15 >"$nd/node1/cpulist"
for p in 0:4 1:4; do
    d=$nd/node${p%%:*}/hugepages/hugepages-1048576kB; mkdir -p "$d"
    echo "${p#*:}" >"$d/nr_hugepages"; echo "${p#*:}" >"$d/free_hugepages"
done
d=$numa/sys/kernel/mm/hugepages/hugepages-1048576kB; mkdir -p "$d"; echo 8 >"$d/nr_hugepages"; echo 8 >"$d/free_hugepages"
"$rtvirt" run --plan --seed 7 --root "$numa" profiles/matrix/coresched-vs-nosmt.ini >"$tmp/truth" 2>"$tmp/err"; rc=$?
"$rtvirt" run --plan --json --seed 7 --root "$numa" profiles/matrix/coresched-vs-nosmt.ini >"$tmp/truth.json" 2>>"$tmp/err"; rcj=$?
truth=$(python3 - "$tmp/truth.json" <<'PY' 2>&1
import json, sys
d = json.load(open(sys.argv[1]))
bad = []
e = d["estimate"]
# 100 repetitions of 20 s boot + 10 s warm-up + 60 s + 2 s teardown
if (e["repetitions"], e["repetition_s"], e["total_s"]) != (100, 92, 9200):
    bad.append("estimate %s" % e)
sc = {s["name"]: s for s in d["scenarios"]}
if any(s["estimate_s"] != 1840 or s["repetitions"] != 20 for s in sc.values()):
    bad.append("per scenario %s" % [(s["name"], s["estimate_s"]) for s in sc.values()])
if not any("smt/control = off in nosmt" in c for c in d["host_changes"]):
    bad.append("no smt/control change: %s" % d["host_changes"])
if not any(c.startswith("core cookies") and "coresched (vm)" in c for c in d["host_changes"]):
    bad.append("no cookies")
if not any(j.endswith("/var/lib/rtvirt/run.journal") for j in d["journals"]):
    bad.append("journals %s" % d["journals"])
hp = d["host_profile"]
if hp["verdict"] != "FAIL" or hp["trusted"] or hp["fail"] < 1 or not hp["reasons"]:
    bad.append("host profile %s" % hp)
hpg = {(r["what"], r["node"]): r for r in d["resources"] if r["what"].startswith("huge pages")}
n0, n1 = hpg.get(("huge pages 1 GiB", 0)), hpg.get(("huge pages 1 GiB", 1))
if not n0 or not n1 or (n0["need"], n0["have"], n0["ok"]) != (4, 4, True) or (n1["need"], n1["have"], n1["ok"]) != (4, 4, True):
    bad.append("huge pages %s" % hpg)
if d["seed"] != "7" or d["seed_source"] != "--seed" or "'rtvirt run --seed 7 " not in d["seed_note"]:
    bad.append("seed %s %s" % (d["seed"], d["seed_note"]))
if "neighbour_budget" not in sc["nosmt"] or sc["nosmt"]["description"] is None:
    bad.append("scenario members")
print("; ".join(bad))
PY
)
check "--plan --json on the NUMA SMT fixture: estimate 9200 s (1840 s per scenario), smt/control and cookies, the run journal, host profile FAIL with reasons, 1 GiB pages per node, seed 7 from --seed (rc $rc/$rcj $truth $(cut -c1-160 "$tmp/err"))" \
    eval '[ $rc -eq 0 ] && [ $rcj -eq 0 ] && [ -z "$truth" ]'
check "--plan text: the estimate in all and per scenario" \
    eval 'grep -q "^# estimate: 2h33m in all: 100 repetition(s) of about 1m32s" "$tmp/truth" &&
          [ "$(grep -c "^#   estimate: 20 repetition(s), about 30m40s$" "$tmp/truth")" = 5 ]'
check "--plan text: host changes with what they restore, and the journal" \
    eval 'grep -q "^#   /sys/devices/system/cpu/smt/control = off in nosmt (now on; restored after each repetition)$" "$tmp/truth" &&
          grep -q "^# journal: .*/var/lib/rtvirt/run.journal$" "$tmp/truth" &&
          grep -q "^#   IRQ affinities.*not changed" "$tmp/truth"'
check "--plan text: the host profile fails, results UNTRUSTED, first reasons" \
    eval 'grep -q "^# host profile .*realtime-virtual-host.ini: FAIL ([0-9]* FAIL, [0-9]* WARN): results will be UNTRUSTED$" "$tmp/truth" &&
          grep -q "^#   - kernel.sched_rt_runtime_us is 950000" "$tmp/truth"'
check "--plan text: huge pages per size and node" \
    eval 'grep -q "^#   huge pages 1 GiB on node 0: 4 needed (baseline), 4 free pages: ok$" "$tmp/truth" &&
          grep -q "^#   huge pages 1 GiB on node 1: 4 needed (baseline), 4 free pages: ok$" "$tmp/truth"'
# node 1 with 2 free pages: rt2 cannot start (libvirt fails to back its
# memory), so every scenario is SKIPPED for it, as the run would: exit 77,
# the resources of the SKIPPED scenarios show the shortage
for f in nr_hugepages free_hugepages; do echo 2 >"$nd/node1/hugepages/hugepages-1048576kB/$f"; done
"$rtvirt" run --plan --seed 7 --root "$numa" profiles/matrix/coresched-vs-nosmt.ini >"$tmp/short" 2>"$tmp/err"; rc=$?
"$rtvirt" run --plan --json --seed 7 --root "$numa" profiles/matrix/coresched-vs-nosmt.ini >"$tmp/short.json" 2>/dev/null; rcj=$?
short=$(python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
why = sorted(set(s["skipped"] for s in d["scenarios"]))
hp = [(r["node"], r["need"], r["have"], r["ok"]) for r in d["resources"] if r["what"] == "huge pages 1 GiB"]
print(len(why) == 1 and why[0].startswith("short of huge pages 1 GiB on node 1: ")
      and hp == [(0, 4, 4, True), (1, 4, 2, False)], why, hp)' "$tmp/short.json" 2>&1)
check "--plan, 1 GiB pages short on node 1: every scenario SKIPPED short of them, node 1 SHORT, exit 77, text and --json ($rc/$rcj $(echo "$short" | cut -c1-300))" \
    eval '[ $rc -eq 77 ] && [ $rcj -eq 77 ] &&
          [ "$(grep -c "^# scenario .*: SKIPPED: short of huge pages 1 GiB on node 1: its guests need 4, 2 free (libvirt could not start them; reserve them in /sys/devices/system/node/node1/hugepages/hugepages-1048576kB/nr_hugepages or with hugepages= at boot)$" "$tmp/short")" = 5 ] &&
          grep -q "^#   huge pages 1 GiB on node 1: 4 needed (baseline), 2 free pages: SHORT$" "$tmp/short" &&
          [ "${short%% *}" = True ]'
check "--plan text: the seed from --seed and the run table's header" \
    eval 'grep -q "^# seed 7 (from --seed): .rtvirt run --seed 7 profiles/matrix/coresched-vs-nosmt.ini. runs this order$" "$tmp/truth" &&
          grep -B1 "^0 0 " "$tmp/truth" | head -1 | grep -q "^# run table: INDEX"'
"$rtvirt" run --plan --root "$numa" profiles/matrix/coresched-vs-nosmt.ini 2>/dev/null | grep "^# seed" >"$tmp/seed"
check "--plan without --seed says the seed is drawn anew at each run ($(cat "$tmp/seed"))" \
    grep -q "drawn now, another at each run without --seed" "$tmp/seed"
"$rtvirt" run --plan --root "$deb0" tests/data/run/all-skipped.ini >"$tmp/out" 2>"$tmp/err"; rc=$?
"$rtvirt" run --plan --json --root "$deb0" tests/data/run/all-skipped.ini >/dev/null 2>&1; rcj=$?
check "--plan of a matrix no scenario of which can run here: exit 77, text and --json ($rc/$rcj)" \
    eval '[ $rc -eq 77 ] && [ $rcj -eq 77 ] && grep -q "No scenario of all-skipped can run" "$tmp/err"'

# bootargs scenarios: the boots in order, each boot's runs together
deb=tests/data/hosts/debian12-2cpu-nosmt-rtgroup
"$rtvirt" run --plan --root "$deb" tests/data/run/boot-host.ini >"$tmp/out" 2>"$tmp/err"; rc=$?
boots=$(grep '^# boot' "$tmp/out" | tr '\n' '|')
check "boot-host --plan: boot 0 as booted (4 runs: default, default-tm0), boot 1 reboot with nosmt rtvirt.test=nosmt (2 runs), 1 reboot (rc $rc $boots $(cut -c1-160 "$tmp/err"))" \
    eval '[ $rc -eq 0 ] && [ "$boots" = "# boot 0: as booted (4 runs)|# boot 1: reboot with nosmt rtvirt.test=nosmt (2 runs)|" ] &&
          grep -q "^# 2 boot(s), 1 reboot(s)" "$tmp/out" &&
          grep -q "^# scenario nosmt (.* bootargs=nosmt rtvirt.test=nosmt): runs$" "$tmp/out" &&
          [ "$(sed -n "/^# boot 0/,/^# boot 1/p" "$tmp/out" | grep -c "^[0-3] [01] default\(-tm0\)\?$")" = 4 ] &&
          [ "$(sed -n "/^# boot 1/,\$p" "$tmp/out" | grep -c "^[45] [01] nosmt$")" = 2 ]'
"$rtvirt" run --plan --json --root "$deb" tests/data/run/boot-host.ini >"$tmp/json" 2>"$tmp/err"; rc=$?
why=$(python3 - "$tmp/json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
b = d["boots"]
want = [{"index": 0, "bootargs": None, "first_run": 0, "runs": 4},
        {"index": 1, "bootargs": ["nosmt", "rtvirt.test=nosmt"], "first_run": 4, "runs": 2}]
if b != want: print("boots", b)
for r in d["runs"]:
    if r["boot"] != (1 if r["cell"] == "nosmt" else 0): print("run", r)
PY
)
check "boot-host --plan --json: boots[] and each run's boot (rc $rc $why)" eval '[ $rc -eq 0 ] && [ -z "$why" ]'
mkdir -p "$tmp/nostore"
RTVIRT_LOCK_FILE=$tmp/lock-resume "$rtvirt" run --resume "$tmp/nostore" >"$tmp/out" 2>"$tmp/err"; rc=$?
"$rtvirt" run --resume "$tmp/nostore" tests/data/run/boot-host.ini >"$tmp/out" 2>"$tmp/err2"; rc2=$?
check "--resume of a store without resume.json, and with a MATRIX: exit 2, no lock taken (rc $rc/$rc2 $(cut -c1-160 "$tmp/err"))" \
    eval '[ $rc -eq 2 ] && [ $rc2 -eq 2 ] && grep -q "no resume.json: no stopped or rebooting .rtvirt run. to resume" "$tmp/err" && grep -q "take no MATRIX" "$tmp/err2" && [ ! -e "$tmp/lock-resume" ]'
