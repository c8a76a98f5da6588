#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/t-run-reboot.sh: reboot-resume (harness/reboot.h)
# on a throw-away --root: a copy of the captured 2-CPU build machine
# (tests/data/hosts/debian12-2cpu-nosmt-rtgroup) with Debian 12's
# /etc/default/grub and its drop-ins, one of them host bootargs' own
# rtvirt.cfg (tests/data/grub/debian12-dropins).  The matrix
# tests/data/run/boot-host.ini measures on the host only (`rtvirt pert` on
# CPU 1 of this machine): 2 scenarios under the host's boot, then nosmt
# rtvirt.test=nosmt.  $RTVIRT_REBOOT_CMD is a script that counts its calls
# and, as the boot would, writes the root's /proc/cmdline: the original
# line plus the words of the run's drop-in (or, FAKE_BOOT=ignore, leaves
# it: a boot that did not take them).  update-grub runs in the runner's
# dry-run mode (not the live host).
#  - the first invocation measures boot 0 (4 runs), installs the drop-in
#    rtvirt-run.cfg beside host bootargs' rtvirt.cfg (unchanged), the unit
#    rtvirt-run-resume.service (ExecStart=RTVIRT run --resume STORE) and its
#    enable link, writes resume.json, calls the reboot command once and
#    exits 3 saying "Rebooting"; `rtvirt status` names the run's two
#    journals with their entries (none after the end);
#  - --resume after the simulated boot: the nosmt runs measured, every
#    repetition's boot verification names the /proc/cmdline it measured
#    under, the end restores /etc exactly (diff -r against a copy taken
#    before), removes resume.json, the store complete with 6 ok runs;
#  - a boot that did not take the arguments: its runs FAIL with the reason,
#    the run ends (exit 1), /etc restored;
#  - --abort between the boots: /etc restored, resume.json gone, the store
#    notes it; --resume after that exits 2; a second --abort too;
#  - --resume of a store whose matrix changed is refused (exit 2);
#  - a --resume killed after its first repetition (RV_TEST_KILL_AT), then
#    resumed again: the repetition measured is kept, not run twice.
set -u
rtvirt=${RV_BUILD:?}/rtvirt
top=${RV_TOP:?}
. "${RV_TOP:?}/tests/tap.sh"
if [ "$(nproc)" -lt 2 ]; then skip_all "needs CPU 1"; fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$top" || exit 1
export RTVIRT_LOCK_FILE=$tmp/lock

echo "1..31"

# the root: the build machine's /proc and /sys, Debian 12's grub
mkroot() {
    rm -rf "$R"; cp -r tests/data/hosts/debian12-2cpu-nosmt-rtgroup "$R"; chmod -R u+w "$R"
    mkdir -p "$R/etc"; cp -r tests/data/grub/debian12-dropins/etc/default "$R/etc/"
    rm -rf "$tmp/etc-before"; cp -r "$R/etc" "$tmp/etc-before"
}
R=$tmp/root
mkroot
orig=$(cat "$R/proc/cmdline")

cat >"$tmp/reboot.sh" <<'SH'
#!/bin/sh
# the reboot: counted, and the kernel command line as the boot loader gives it
echo called >>"$T/reboots"
[ "${FAKE_BOOT:-}" = ignore ] && exit 0
words=$(sed -n 's/^GRUB_CMDLINE_LINUX_DEFAULT="\$GRUB_CMDLINE_LINUX_DEFAULT \(.*\)"$/\1/p' "$R/etc/default/grub.d/rtvirt-run.cfg")
# the kernel's own arguments end at "--" (the rest is init's)
case "$ORIG" in
*" -- "*) printf '%s %s -- %s\n' "${ORIG%% -- *}" "$words" "${ORIG#* -- }" ;;
*) printf '%s %s\n' "$ORIG" "$words" ;;
esac >"$R/proc/cmdline"
SH
chmod +x "$tmp/reboot.sh"
export RTVIRT_REBOOT_CMD="$tmp/reboot.sh" T=$tmp R ORIG=$orig
booted="${orig%% -- *} nosmt rtvirt.test=nosmt -- ${orig#* -- }"   # the captured line has "--"

facts() {   # store -> one line per repetition's boot verification, and the records
    python3 - "$1" <<'PY'
import json, sys
d = json.load(open(sys.argv[1] + "/run.json"))
for v in d.get("verifications", []):
    if v.get("what") == "boot":
        print("boot", v["scenario"], v["repetition"], v["status"], v["detail"])
    if v.get("what") == "reboot":
        print("reboot", v["detail"])
print("complete", d["complete"])
# repetitions with an ok record of the probe on CPU 1
print("records", len({(r["scenario"], r["repetition"]) for r in d["records"] if r.get("status") == "ok" and r["target"] == "host:cpu1"}))
PY
}

# --- 1: boot 0 measured, boot 1 installed, the reboot called
"$rtvirt" run --root "$R" --out "$tmp/res" tests/data/run/boot-host.ini >"$tmp/out" 2>"$tmp/err"; rc=$?
store=$(ls -d "$tmp"/res/*-boot-host 2>/dev/null | head -n 1)
check "first invocation exits 3 saying Rebooting (rc $rc $(tail -n 2 "$tmp/err" | tr '\n' ' ' | cut -c1-200))" \
    eval '[ $rc -eq 3 ] && grep -q "^Rebooting: boot 1 of 2 (reboot with nosmt rtvirt.test=nosmt)" "$tmp/out"'
check "the reboot command ran once" [ "$(wc -l <"$tmp/reboots" 2>/dev/null)" = 1 ]
check "resume.json says boot 1 of 2, 4 ok runs so far" \
    python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); sys.exit(not (d["boot"] == 1 and d["boots"] == 2 and d["ok_runs"] == 4 and d["failed_runs"] == 0 and d["cmdline_before"] == sys.argv[2]))' "$store/resume.json" "$orig"
check "the run's drop-in holds the boot's words" \
    grep -q '^GRUB_CMDLINE_LINUX_DEFAULT="$GRUB_CMDLINE_LINUX_DEFAULT nosmt rtvirt.test=nosmt"$' "$R/etc/default/grub.d/rtvirt-run.cfg"
check "host bootargs' drop-in rtvirt.cfg is left as it was" \
    cmp -s "$R/etc/default/grub.d/rtvirt.cfg" "$tmp/etc-before/default/grub.d/rtvirt.cfg"
unit=$R/etc/systemd/system/rtvirt-run-resume.service
check "the resume unit runs 'rtvirt run --resume STORE', oneshot, no start timeout" \
    eval 'grep -qx "ExecStart=$(readlink -f "$rtvirt") run --resume $store" "$unit" && grep -qx "Type=oneshot" "$unit" && grep -qx "TimeoutStartSec=infinity" "$unit" && grep -qx "WantedBy=multi-user.target" "$unit"'
check "its enable link" \
    [ "$(readlink "$R/etc/systemd/system/multi-user.target.wants/rtvirt-run-resume.service")" = /etc/systemd/system/rtvirt-run-resume.service ]
facts "$store" >"$tmp/f1"
check "boot 0's 4 repetitions: boot verification PASS naming the original /proc/cmdline; not complete ($(grep -c '^boot' "$tmp/f1"))" \
    eval '[ "$(grep -c "^boot default\(-tm0\)\? [12] PASS boot 0 of 2 (as booted): /proc/cmdline: $orig$" "$tmp/f1")" = 4 ] && grep -qx "complete False" "$tmp/f1" && grep -q "^reboot boot 1 of 2 (reboot with nosmt rtvirt.test=nosmt) installed (grub.d drop-in + update-grub)" "$tmp/f1"'

"$rtvirt" status --root "$R" --json >"$tmp/status.json" 2>"$tmp/err"; rc=$?
check "status between the boots: the run's two journals hold their entries (rc $rc)" \
    python3 -c 'import json,sys; j={x["name"]: x for x in json.load(open(sys.argv[1]))["journals"]}; sys.exit(not (j["run-bootargs"]["entries"] >= 1 and j["run-resume"]["entries"] >= 2 and j["bootargs"]["entries"] == 0))' "$tmp/status.json"

# --- 2: the simulated boot took the words; --resume measures boot 1 and ends
check "the simulated boot wrote /proc/cmdline" grep -qxF "$booted" "$R/proc/cmdline"
"$rtvirt" run --root "$R" --resume "$store" >"$tmp/out" 2>"$tmp/err"; rc=$?
check "--resume exits 0 after the last boot (rc $rc $(tail -n 2 "$tmp/err" | tr '\n' ' ' | cut -c1-200))" \
    eval '[ $rc -eq 0 ] && grep -qx "Runs: 6 ok, 0 failed" "$tmp/out"'
facts "$store" >"$tmp/f2"
check "boot 1's 2 repetitions: PASS naming the /proc/cmdline with nosmt; 6 records; complete" \
    eval '[ "$(grep -c "^boot nosmt [12] PASS boot 1 of 2 (reboot with nosmt rtvirt.test=nosmt): /proc/cmdline: $booted$" "$tmp/f2")" = 2 ] && grep -qx "records 6" "$tmp/f2" && grep -qx "complete True" "$tmp/f2"'
check "the end restores /etc exactly (drop-in, unit, link gone; grub.d as before)" \
    diff -r "$tmp/etc-before" "$R/etc"
check "resume.json removed, the store notes the restore" \
    eval '[ ! -e "$store/resume.json" ] && grep -q "^reboot the last boot measured: the boot loader.s arguments and rtvirt-run-resume.service restored" "$tmp/f2"'
check "no second reboot" [ "$(wc -l <"$tmp/reboots")" = 1 ]
"$rtvirt" status --root "$R" --json >"$tmp/status.json" 2>"$tmp/err"; rc=$?
check "status after the end: nothing left to revert in the run's journals (rc $rc)" \
    python3 -c 'import json,sys; j={x["name"]: x for x in json.load(open(sys.argv[1]))["journals"]}; sys.exit(not (j["run-bootargs"]["entries"] == 0 and j["run-resume"]["entries"] == 0))' "$tmp/status.json"
"$rtvirt" compare "$store" >"$tmp/cmp" 2>&1; rc=$?
check "compare reads the resumed store (rc $rc)" eval '[ $rc -eq 0 ] && grep -q nosmt "$tmp/cmp"'

# --- 3: a boot that did not take the arguments
mkroot; rm -f "$tmp/reboots"
"$rtvirt" run --root "$R" --out "$tmp/res3" tests/data/run/boot-host.ini >"$tmp/out" 2>"$tmp/err"; rc=$?
store=$(ls -d "$tmp"/res3/*-boot-host | head -n 1)
check "again: exit 3 (rc $rc)" [ $rc -eq 3 ]
cp tests/data/hosts/debian12-2cpu-nosmt-rtgroup/proc/cmdline "$R/proc/cmdline"   # the boot ignored the drop-in
"$rtvirt" run --root "$R" --resume "$store" >"$tmp/out" 2>"$tmp/err"; rc=$?
facts "$store" >"$tmp/f3"
check "--resume on a boot without the words: exit 1, 4 ok and 2 failed (rc $rc $(grep Runs: "$tmp/out"))" \
    eval '[ $rc -eq 1 ] && grep -qx "Runs: 4 ok, 2 failed" "$tmp/out"'
check "the nosmt cells FAIL naming the missing words and the /proc/cmdline" \
    eval '[ "$(grep -c "^boot nosmt [12] FAIL boot 1 of 2 (reboot with nosmt rtvirt.test=nosmt): the kernel did not take the arguments: .nosmt. is not in /proc/cmdline; .rtvirt.test=nosmt. is not in /proc/cmdline; /proc/cmdline: $orig$" "$tmp/f3")" = 2 ] && grep -qx "records 4" "$tmp/f3"'
check "/etc restored after it" diff -r "$tmp/etc-before" "$R/etc"

# --- 4: the words there, the kernel's sysfs says otherwise
mkroot; rm -f "$tmp/reboots"
"$rtvirt" run --root "$R" --out "$tmp/res4" tests/data/run/boot-host.ini >/dev/null 2>"$tmp/err"; rc=$?
store=$(ls -d "$tmp"/res4/*-boot-host | head -n 1)
echo 1 >"$R/sys/devices/system/cpu/smt/active"
"$rtvirt" run --root "$R" --resume "$store" >"$tmp/out" 2>"$tmp/err"; rc2=$?
facts "$store" >"$tmp/f4"
check "nosmt in /proc/cmdline but smt/active 1: the cells FAIL with the sysfs state (rc $rc/$rc2)" \
    eval '[ $rc -eq 3 ] && [ $rc2 -eq 1 ] && [ "$(grep -c "^boot nosmt [12] FAIL .*did not take the arguments: nosmt: /sys/devices/system/cpu/smt/active is .1.; /proc/cmdline:" "$tmp/f4")" = 2 ]'

# --- 5: --abort between the boots
mkroot; rm -f "$tmp/reboots"
"$rtvirt" run --root "$R" --out "$tmp/res5" tests/data/run/boot-host.ini >/dev/null 2>"$tmp/err"; rc=$?
store=$(ls -d "$tmp"/res5/*-boot-host | head -n 1)
check "again: exit 3, the unit installed (rc $rc)" eval '[ $rc -eq 3 ] && [ -e "$unit" ]'
"$rtvirt" run --root "$R" --abort "$store" >"$tmp/out" 2>"$tmp/err"; rc=$?
check "--abort exits 0 saying what it restored (rc $rc $(cut -c1-200 "$tmp/out"))" \
    eval '[ $rc -eq 0 ] && grep -q "^Aborted: aborted by .rtvirt run --abort. before boot 1 of 2" "$tmp/out"'
check "--abort restores /etc exactly and removes resume.json" \
    eval 'diff -r "$tmp/etc-before" "$R/etc" && [ ! -e "$store/resume.json" ]'
facts "$store" >"$tmp/f5"
check "the store notes the abort, stays incomplete with boot 0's 4 records" \
    eval 'grep -q "^reboot aborted by" "$tmp/f5" && grep -qx "complete False" "$tmp/f5" && grep -qx "records 4" "$tmp/f5"'
"$rtvirt" run --root "$R" --resume "$store" >/dev/null 2>"$tmp/err"; rc=$?
"$rtvirt" run --root "$R" --abort "$store" >/dev/null 2>"$tmp/err2"; rc2=$?
check "--resume and --abort after the abort: exit 2, no resume.json named (rc $rc/$rc2 $(cut -c1-160 "$tmp/err"))" \
    eval '[ $rc -eq 2 ] && [ $rc2 -eq 2 ] && grep -q "no resume.json: no stopped or rebooting .rtvirt run. to resume" "$tmp/err" "$tmp/err2"'

# --- 6: the matrix changed between the boots
mkroot; rm -f "$tmp/reboots"
cp tests/data/run/boot-host.ini "$tmp/m.ini"
"$rtvirt" run --root "$R" --out "$tmp/res6" "$tmp/m.ini" >/dev/null 2>"$tmp/err"; rc=$?
store=$(ls -d "$tmp"/res6/*-boot-host | head -n 1)
echo "# edited" >>"$tmp/m.ini"
"$rtvirt" run --root "$R" --resume "$store" >/dev/null 2>"$tmp/err"; rc2=$?
check "--resume refuses a changed matrix, naming --abort (rc $rc/$rc2 $(cut -c1-200 "$tmp/err"))" \
    eval '[ $rc -eq 3 ] && [ $rc2 -eq 2 ] && grep -q "m.ini changed since the run started.*rtvirt run --abort" "$tmp/err"'
"$rtvirt" run --root "$R" --abort "$store" >/dev/null 2>&1
check "and --abort then restores /etc" diff -r "$tmp/etc-before" "$R/etc"

# --- 7: the host went down during a boot's runs: the next --resume keeps
# what that boot measured and runs the rest only
mkroot; rm -f "$tmp/reboots"
"$rtvirt" run --root "$R" --out "$tmp/res7" tests/data/run/boot-host.ini >/dev/null 2>"$tmp/err"; rc=$?
store=$(ls -d "$tmp"/res7/*-boot-host | head -n 1)
RV_TEST_KILL_AT=committed:1 "$rtvirt" run --root "$R" --resume "$store" >/dev/null 2>"$tmp/err"; rc2=$?
"$rtvirt" run --root "$R" --resume "$store" >"$tmp/out" 2>"$tmp/err"; rc3=$?
n1=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(len([r for r in d["records"] if r["target"] == "host:cpu1" and r["scenario"] == "nosmt"]))' "$store/run.json")
check "killed after boot 1's first repetition, resumed again: exit 0, that repetition kept, nosmt measured twice in all (rc $rc/$rc2/$rc3, $n1 records)" \
    eval '[ $rc -eq 3 ] && [ $rc2 -eq 137 ] && [ $rc3 -eq 0 ] && [ "$n1" = 2 ] && grep -q "repetition [12]: measured before the run stopped: kept" "$tmp/err"'
check "and /etc is restored at its end" diff -r "$tmp/etc-before" "$R/etc"
