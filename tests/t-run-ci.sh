#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/t-run-ci.sh: the short CI matrix for real:
# `rtvirt run profiles/matrix/ci.ini` -- 2 scenarios x 2 repetitions of the
# RT demo guest, one scenario changing runtime knobs through the run
# journal -- then `rtvirt compare` on its store.  Checks the store (schema,
# complete, 2 x 2 cyclictest records with raw outputs, host counter
# snapshots, virt=kvm|tcg and untrusted under TCG, the plan and seed), what
# the user reads (virt=tcg on every result line and first among the
# summary's reasons, verification FAILs on the Runs line), the
# compare table, the host knobs back as before, no domain left, the lock
# released, and a second run refused while one holds the lock.
# Needs root, libvirtd and QEMU (as tests/t-guest-run.sh); skips otherwise.
set -u
rtvirt=${RV_BUILD:?}/rtvirt
top=${RV_TOP:?}
. "${RV_TOP:?}/tests/tap.sh"

need_cmds qemu-system-x86_64 virsh python3
need_root
export PATH=$PATH:/usr/sbin
need_libvirt "$rtvirt"

files="/proc/sys/kernel/timer_migration /proc/sys/kernel/sched_rt_runtime_us"
snapshot() { for f in $files; do printf '%s=%s\n' "$f" "$(cat "$f")"; done; }
domains() { virsh -c qemu:///system list --all --name 2>/dev/null | grep -E '^rtvirt-ci-' || true; }
tmp=$(mktemp -d)
cleanup() {
    for d in $(domains); do virsh -c qemu:///system destroy "$d" >/dev/null 2>&1; done
    rm -rf "$tmp"
}
trap cleanup EXIT

echo "1..23"

# A second run while the first holds the lock is refused (exit 2), before
# it changes anything.
"$rtvirt" run --wait-lock 1800 --out "$tmp/results" "$top/profiles/matrix/ci.ini" >"$tmp/out" 2>"$tmp/err" &
pid=$!
for _ in $(seq 1 18000); do grep -q "Run 1/4" "$tmp/err" 2>/dev/null && break; sleep 0.1; done
"$rtvirt" run --out "$tmp/results2" "$top/profiles/matrix/ci.ini" >/dev/null 2>"$tmp/err2"; rc2=$?
check "a second run is refused while one runs: exit 2 ($(cat "$tmp/err2"))" \
    eval '[ $rc2 -eq 2 ] && grep -q "Another rtvirt run (pid $pid)" "$tmp/err2" && [ ! -e "$tmp/results2" ]'
wait $pid; rc=$?
check "rtvirt run ci.ini exits 0 ($(tail -n 3 "$tmp/err" | tr '\n' ' ' | cut -c1-300))" [ $rc -eq 0 ]

store=$(sed -n 's/^Results: //p' "$tmp/out")
check "the summary names the store ($store)" [ -f "$store/run.json" ]
python3 - "$store" "$tmp/err" "$tmp/out" >"$tmp/py" 2>&1 <<'PY'
import json, sys, os
store = sys.argv[1]
d = json.load(open(os.path.join(store, "run.json")))
def say(ok, what):
    print(("ok " if ok else "FAIL ") + what)
say(d["schema_version"] == 1 and d["complete"] is True, "schema 1, complete")
ct = [r for r in d["records"] if r["workload"] == "cyclictest"]
cells = sorted((r["scenario"], r["repetition"]) for r in ct)
say(cells == [("pinned-knobs", 1), ("pinned-knobs", 2), ("unpinned", 1), ("unpinned", 2)],
    "2 scenarios x 2 repetitions of cyclictest: %s" % cells)
say(all(r["status"] == "ok" and r["metrics"]["max_us"]["value"] > 0 for r in ct),
    "every cyclictest record ok with max_us")
say(all(r["raw"] and os.path.isfile(os.path.join(store, r["raw"][0])) for r in ct),
    "raw cyclictest outputs are files in the store")
virt = {r["virt"] for r in ct}
say(len(virt) == 1 and virt <= {"kvm", "tcg"}, "virt recorded: %s" % virt)
say("tcg" not in virt or (d["trusted"] is False and
    any("virt=tcg" in u for u in d["untrusted_reasons"])), "virt=tcg is never trusted")
hc = [r for r in d["records"] if r["workload"] == "host-counters"]
say(len(hc) == 4 and all("interrupts" in r["details"] and "cpus" in r["details"] for r in hc),
    "host counter snapshots for every run")
# co-scheduling stats: computed where the host has SMT,
# else skipped with the reason, in every repetition
try:
    smt = open("/sys/devices/system/cpu/smt/active").read().strip() == "1"
except OSError:
    smt = False
co = [r["details"].get("cosched", {}) for r in hc]
say(len(co) == 4 and all((len(c.get("vms", [])) == 1) if smt else
                         ("no SMT" in c.get("skipped", "") or "SMT is off" in c.get("skipped", ""))
                         for c in co),
    "details.cosched in every repetition (SMT %s): %s" % (smt, json.dumps(co[:1])[:200]))
say(any(v["what"] == "run order" and "seed 4242" in v["detail"] for v in d["verifications"]),
    "the order and its seed are recorded")
say(os.path.isfile(os.path.join(store, "raw", "plan.txt")), "raw/plan.txt")
say(sorted(s["status"] for s in d["scenarios"]) == ["ran", "ran"], "both scenarios ran")
# what the user reads must say it too (progress lines on stderr, summary)
err = open(sys.argv[2]).read()
out = open(sys.argv[3]).read()
import re
lines = [l for l in err.splitlines() if re.search(r"Run \d+/\d+: .*, repetition \d+/\d+: (ok|FAILED)", l)]
say("tcg" not in virt or (len(lines) == 4 and all("virt=tcg" in l for l in lines)),
    "every run's result line says virt=tcg under TCG: %s" % lines[:1])
first = [l for l in out.splitlines() if l.startswith("  - ")][:1]
say("tcg" not in virt or (first and first[0].startswith("  - virt=tcg")),
    "the summary lists the virt=tcg reason first: %s" % first)
vfail = {(v["scenario"], v["repetition"]) for v in d["verifications"] if v["status"] == "FAIL"}
runs = [l for l in out.splitlines() if l.startswith("Runs: ")]
say(runs and (("with verification FAIL, results untrusted" in runs[0]) == bool(vfail)),
    "the Runs line says when ok runs had a verification FAIL (%d): %s" % (len(vfail), runs))
PY
while read -r word rest; do
    check "run.json: $rest" [ "$word" = ok ]
done <"$tmp/py"

# the host context: what this machine says, read back
ctx() { jq -r "$1" "$store/run.json"; }
check "run.json context: kernel release and command line as /proc says ($(ctx .context.kernel.release))" \
    eval '[ "$(ctx .context.kernel.release)" = "$(cat /proc/sys/kernel/osrelease)" ] &&
          [ "$(ctx .context.kernel.cmdline)" = "$(tr -d "\n" </proc/cmdline)" ]'
cpu_model=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)
check "run.json context: CPU model, family and SMT state ($(ctx '.context.cpu.model_name'), family $(ctx .context.cpu.family))" \
    eval '[ "$(ctx .context.cpu.model_name)" = "${cpu_model:-null}" ] &&
          [ "$(ctx .context.smt.control)" = "$(cat /sys/devices/system/cpu/smt/control 2>/dev/null || echo null)" ] &&
          { ! grep -q "^cpu family" /proc/cpuinfo || [ "$(ctx .context.cpu.family)" -ge 0 ]; }'
qemu_ver=$(qemu-system-x86_64 --version | sed -n '1s/^QEMU emulator version \([^ ]*\).*/\1/p')
cyc_ver=$(cyclictest --help 2>&1 | sed -n '1s/^cyclictest V \([^ ]*\).*/\1/p')
check "run.json context: versions qemu $(ctx .context.versions.qemu), libvirt $(ctx .context.versions.libvirt), rt-tests $(ctx .context.versions.rt_tests), cyclictest $(ctx .context.versions.cyclictest), rtvirt = tool.version" \
    eval '[ "$(ctx .context.versions.qemu)" = "$qemu_ver" ] &&
          [ "$(ctx .context.versions.cyclictest)" = "${cyc_ver:-null}" ] &&
          [ "$(ctx .context.versions.libvirt)" != null ] &&
          [ "$(ctx .context.versions.rtvirt)" = "$(ctx .tool.version)" ]'

"$rtvirt" compare "$store" >"$tmp/cmp" 2>&1; rc=$?
check "rtvirt compare exits 0 and shows both scenarios with n=2 against the baseline" \
    eval '[ $rc -eq 0 ] && grep -qE "^  unpinned +2 " "$tmp/cmp" && grep -qE "^  pinned-knobs +2 " "$tmp/cmp" && grep -q "baseline: unpinned" "$tmp/cmp"'

# as the run found them under the host lock (run.json host facts): another
# rtvirt run (another `make check`) may have held the host when we started
python3 -c "
import json, sys
h = json.load(open(sys.argv[1] + '/run.json'))['host']
print('/proc/sys/kernel/timer_migration=%s' % h['timer_migration'])
print('/proc/sys/kernel/sched_rt_runtime_us=%s' % h['sched_rt_runtime_us'])" "$store" >"$tmp/before"
snapshot >"$tmp/after"
check "runtime knobs are as the run found them ($(diff "$tmp/before" "$tmp/after" | tr '\n' ' '))" \
    cmp -s "$tmp/before" "$tmp/after"
check "no domain of the run remains" [ -z "$(domains)" ]
