#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/t-run-resume.sh: `rtvirt run --resume STORE` continues any run that
# did not complete, and `rtvirt status` shows its progress.
#  - host only, on a copy of the build machine's root (pert on CPU 1, no
#    guest): a run of 2 scenarios x 2 repetitions killed by SIGKILL after
#    its second repetition's measurement (RV_TEST_KILL_AT=measured:2):
#    status says it stopped with 1 of 4 done and how to resume it;
#    --resume ends it complete, exit 0, the first repetition's records
#    kept as they were (measured once), every repetition recorded once,
#    the "interrupted" reason gone, resume.json removed, status quiet;
#  - the matrix edited before --resume: refused, exit 2, naming the
#    role, the file and the first line that differs;
#  - LIVE (root, libvirt; boots guests: on a shared machine run it under
#    flock /tmp/rtvirt-live.lock): throughput-ci.ini at its shortest (1 s
#    measured, no warm-up) killed by SIGKILL in its second repetition,
#    after its guests booted; --resume ends it complete, the first
#    repetition measured once, the second measured after the host was
#    reverted (no run journal entry left, no rtvirt-throughput-ci domain).
set -u
rtvirt=${RV_BUILD:?}/rtvirt
top=${RV_TOP:?}
. "${RV_TOP:?}/tests/tap.sh"
if [ "$(nproc)" -lt 2 ]; then skip_all "needs CPU 1"; fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$top" || exit 1

echo "1..12"

# --- host only, on a fixture root -------------------------------------------
export RTVIRT_LOCK_FILE=$tmp/lock
R=$tmp/root
cp -r tests/data/hosts/debian12-2cpu-nosmt-rtgroup "$R"; chmod -R u+w "$R"
cat >"$tmp/m.ini" <<'INI'
[main]
name = resume-host
duration = 1s
repetitions = 2
order = interleaved

[host]
workload = pert
cpus = 1

[scenario:default]
guests =

[scenario:tm0]
guests =
timer_migration = 0
INI
facts() {   # store -> "CELL:REP:START" of every pert record, sorted
    python3 - "$1" <<'PY'
import json, sys
d = json.load(open(sys.argv[1] + "/run.json"))
print(" ".join(sorted("%s:%s:%s" % (r["scenario"], r["repetition"], r.get("started"))
                      for r in d["records"] if r["workload"] == "pert")))
PY
}
RV_TEST_KILL_AT=measured:2 "$rtvirt" run --root "$R" --out "$tmp/res" "$tmp/m.ini" \
    >"$tmp/out" 2>"$tmp/err"; rc=$?
store=$(ls -d "$tmp"/res/*-resume-host 2>/dev/null | head -n 1)
before=$(facts "$store" 2>&1)
check "killed by SIGKILL in its second repetition: exit 137, resume.json and the first repetition in the store (rc $rc, $before)" \
    eval '[ $rc -eq 137 ] && [ -f "$store/resume.json" ] && case "$before" in "default:1:"*) [ "$(echo "$before" | wc -w)" = 1 ] ;; *) false ;; esac'
"$rtvirt" status --root "$R" >"$tmp/st" 2>&1; rc=$?
check "status: the run stopped, 1 of 4 done, how to resume it ($(grep '^run:' "$tmp/st" | cut -c1-200))" \
    eval '[ $rc -eq 0 ] && grep -q "^run: .*resume-host.*: stopped, 1 of 4 repetitions done (0 failed): .rtvirt run --resume .*. continues it (about .* left)$" "$tmp/st"'
"$rtvirt" status --json --root "$R" >"$tmp/st.json" 2>&1
st=$(python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))["run"]; print(r["running"], r["done"], r["total"], r["eta_s"] is not None)' "$tmp/st.json" 2>&1)
check "status --json: run {running false, done 1, total 4, eta_s} ($st)" [ "$st" = "False 1 4 True" ]

# the matrix edited: refused naming the line; then put back
cp "$tmp/m.ini" "$tmp/m.ini.orig"
sed -i 's/^duration = 1s/duration = 2s/' "$tmp/m.ini"
"$rtvirt" run --root "$R" --resume "$store" >"$tmp/out" 2>"$tmp/err"; rc=$?
check "--resume of a changed matrix: exit 2, the first line that differs named ($(cut -c1-240 "$tmp/err"))" \
    eval '[ $rc -eq 2 ] && grep -q "the matrix profile .*m.ini changed since the run started (line 3: .duration = 1s. is now .duration = 2s.)" "$tmp/err"'
cp "$tmp/m.ini.orig" "$tmp/m.ini"

"$rtvirt" run --root "$R" --resume "$store" >"$tmp/out" 2>"$tmp/err"; rc=$?
after=$(facts "$store" 2>&1)
check "--resume: exit 0, the first repetition kept as measured, the other three measured once each (rc $rc, $after)" \
    eval '[ $rc -eq 0 ] && [ "$(echo "$after" | wc -w)" = 4 ] && case " $after " in *" $before "*) true ;; *) false ;; esac &&
          [ "$(echo "$after" | tr " " "\n" | cut -d: -f1,2 | sort -u | wc -l)" = 4 ]'
done=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d["complete"], any("interrupted" in r for r in d["untrusted_reasons"]), [v["detail"][:7] for v in d["verifications"] if v["what"] == "resume"])' "$store/run.json" 2>&1)
check "the store complete, no 'interrupted' reason, a resume NOTE; resume.json gone ($done)" \
    eval 'case "$done" in "True False ['"'"'resumed'"'"']") [ ! -e "$store/resume.json" ] ;; *) false ;; esac'
"$rtvirt" status --root "$R" >"$tmp/st" 2>&1
check "status after the end: no run line" eval '! grep -q "^run:" "$tmp/st"'

# --- LIVE: throughput-ci.ini with guests --------------------------------------
if [ "$(id -u)" != 0 ] || ! command -v virsh >/dev/null || ! command -v qemu-system-x86_64 >/dev/null ||
   ! virsh -c qemu:///system version >/dev/null 2>&1; then
    for i in 1 2 3 4 5; do ok "# SKIP needs root, QEMU and a libvirt daemon (rtvirt setup)"; done
    exit 0
fi
unset RTVIRT_LOCK_FILE
domains() { virsh -c qemu:///system list --all --name 2>/dev/null | grep -E '^rtvirt-throughput-ci-' || true; }
trap 'for d in $(domains); do virsh -c qemu:///system destroy "$d" >/dev/null 2>&1; done; rm -rf "$tmp"' EXIT
live=(--wait-lock 1800 --duration 1s --warmup 0s)
RV_TEST_KILL_AT=booted:2 "$rtvirt" run "${live[@]}" --out "$tmp/live" profiles/matrix/throughput-ci.ini \
    >"$tmp/out" 2>"$tmp/err"; rc=$?
store=$(ls -d "$tmp"/live/*-throughput-ci 2>/dev/null | head -n 1)
lfacts() {   # store -> "CELL:REP:WORKLOAD:TARGET:START" of every measured record
    python3 - "$1" <<'PY'
import json, sys
d = json.load(open(sys.argv[1] + "/run.json"))
print(" ".join(sorted("%s:%s:%s:%s:%s" % (r["scenario"], r["repetition"], r["workload"], r["target"], r.get("started"))
                      for r in d["records"] if r["workload"] != "host-counters")))
PY
}
lbefore=$(lfacts "$store" 2>&1)
check "throughput-ci killed by SIGKILL after its second repetition booted: exit 137, the first repetition's records in the store (rc $rc, $(echo "$lbefore" | wc -w) records)" \
    eval '[ $rc -eq 137 ] && [ -f "$store/resume.json" ] && [ -n "$lbefore" ] && ! echo "$lbefore" | grep -q ":2:"'
"$rtvirt" run --wait-lock 1800 --resume "$store" >"$tmp/out" 2>"$tmp/err"; rc=$?
lafter=$(lfacts "$store" 2>&1)
check "--resume: ends (exit 0 or 1: a repetition's own failure), the store complete ($rc $(tail -n 2 "$tmp/err" | tr '\n' ' ' | cut -c1-200))" \
    eval '[ $rc -eq 0 ] || [ $rc -eq 1 ]; python3 -c "import json,sys; sys.exit(not json.load(open(sys.argv[1]))[\"complete\"])" "$store/run.json"'
check "the first repetition measured once: its records as before the kill" \
    eval 'for r in $lbefore; do case " $lafter " in *" $r "*) ;; *) exit 1 ;; esac; done; true'
check "the second repetition measured after the resume, each record once" \
    eval 'echo "$lafter" | tr " " "\n" | grep -q ":2:" && [ "$(echo "$lafter" | tr " " "\n" | cut -d: -f1-4 | sort | uniq -d | wc -l)" = 0 ]'
# the run journal is the host's: another rtvirt may hold it by now (in_use)
check "the host reverted: no rtvirt-throughput-ci domain, nothing left in the run journal but what a running command holds ($(domains | tr '\n' ' '))" \
    eval '[ -z "$(domains)" ] && "$rtvirt" status --json | python3 -c "import json,sys; d=json.load(sys.stdin); sys.exit(any(j[\"name\"] == \"run\" and j[\"entries\"] and not j[\"in_use\"] for j in d[\"journals\"]))"'
