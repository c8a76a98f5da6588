#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/t-run-interrupt.sh: a matrix with boot-argument scenarios stopped
# at any point (Ctrl-C, SIGTERM, SIGKILL) can be resumed (harness/reboot.h,
# installed_boot_id).  The setting of tests/t-run-reboot.sh: a throw-away
# --root copied from the captured 2-CPU build machine with Debian 12's
# grub drop-ins, the matrix tests/data/run/boot-host.ini (boot 0: default
# and default-tm0, timer_migration 0, 2 repetitions each; boot 1: nosmt
# rtvirt.test=nosmt, 2 repetitions), a reboot command that counts its
# calls and, as a boot would, writes the root's /proc/cmdline from the
# run's drop-in and a new /proc/sys/kernel/random/boot_id.  The stops come
# from the RV_TEST_KILL_AT=PHASE:N:SIG hook of harness/cmd-run.c, which
# sends the signal to rtvirt itself at that point.  Each case:
#  1. SIGINT in boot 0's second repetition: exit 2, /etc and
#     timer_migration as before, no run journal entry, resume.json kept
#     (no installed_boot_id), the store incomplete; `rtvirt status` says
#     stopped with 1 of 6 done and the --resume command; --resume keeps
#     the first repetition (counted as done: the next is "Run 2/4"),
#     runs boot 0's rest and reboots (exit 3), the
#     next --resume ends it complete: 6 repetitions, each measured once;
#  2. SIGINT in boot 1's second repetition (after the reboot): /etc
#     restored (drop-in and unit gone), resume.json at boot 1; the host
#     still runs boot 1's command line, so --resume measures the one
#     repetition left without another reboot;
#  3. SIGTERM there, then the host rebooted into the user's own command
#     line: --resume installs boot 1 again and reboots (exit 3), the next
#     one ends it, the repetition measured before kept;
#  4. SIGINT after boot 1's arguments and the unit were installed, before
#     the reboot command: no reboot, /etc restored, exit 2; --resume
#     reboots into boot 1 and the next one ends it with boot 0's 4
#     records as they were;
#  5. SIGKILL at the same point: nothing restored (the drop-in stays);
#     --resume sees the same boot_id, installs again and reboots instead
#     of failing boot 1's repetitions; the end restores /etc exactly;
#  6. SIGINT after the reboot, before boot 1's first repetition (the
#     resume unit's run stopped early): resumable the same way;
#  7. a boot that did not take the arguments (a new boot_id, the original
#     command line): --resume fails its repetitions, no second reboot;
#  8. a --resume that finds the host lock held by another command fails
#     (exit 2) without touching the boot loader or the unit (not its to
#     touch: the next boot would resume); the next --resume ends the run;
#  9. --abort of a stopped run: resume.json gone, status quiet.
set -u
rtvirt=${RV_BUILD:?}/rtvirt
top=${RV_TOP:?}
. "${RV_TOP:?}/tests/tap.sh"
if [ "$(nproc)" -lt 2 ]; then skip_all "needs CPU 1"; fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$top" || exit 1
export RTVIRT_LOCK_FILE=$tmp/lock

echo "1..35"

R=$tmp/root
bid=$R/proc/sys/kernel/random/boot_id
mkroot() {   # a fresh root, /etc as before, no reboot counted yet
    rm -rf "$R" "$tmp/reboots" "$tmp/etc-before"
    cp -r tests/data/hosts/debian12-2cpu-nosmt-rtgroup "$R"; chmod -R u+w "$R"
    mkdir -p "$R/etc" "${bid%/*}"; cp -r tests/data/grub/debian12-dropins/etc/default "$R/etc/"
    cp -r "$R/etc" "$tmp/etc-before"
    echo 0b5e2c1e-0000-4000-8000-000000000000 >"$bid"
}
mkroot
orig=$(cat "$R/proc/cmdline")
tm=$(cat "$R/proc/sys/kernel/timer_migration")

cat >"$tmp/reboot.sh" <<'SH'
#!/bin/sh
# the reboot: counted; a new boot_id; the kernel command line as the boot
# loader gives it (the kernel's own arguments end at "--")
echo called >>"$T/reboots"
echo "0b5e2c1e-0000-4000-8000-$(printf %012d "$(wc -l <"$T/reboots")")" >"$R/proc/sys/kernel/random/boot_id"
words=$(sed -n 's/^GRUB_CMDLINE_LINUX_DEFAULT="\$GRUB_CMDLINE_LINUX_DEFAULT \(.*\)"$/\1/p' "$R/etc/default/grub.d/rtvirt-run.cfg")
case "$ORIG" in
*" -- "*) printf '%s %s -- %s\n' "${ORIG%% -- *}" "$words" "${ORIG#* -- }" ;;
*) printf '%s %s\n' "$ORIG" "$words" ;;
esac >"$R/proc/cmdline"
SH
chmod +x "$tmp/reboot.sh"
export RTVIRT_REBOOT_CMD="$tmp/reboot.sh" T=$tmp R ORIG=$orig
user_reboot() {   # the user reboots with the boot loader as it is now: own arguments
    echo 0b5e2c1e-0000-4000-8000-ffffffffffff >"$bid"
    printf '%s\n' "$orig" >"$R/proc/cmdline"
}
reboots() { wc -l 2>/dev/null <"$tmp/reboots" || echo 0; }   # 2> first: bash opens the missing file after it

recs() {   # store -> "SCENARIO:REP:STARTED" of every ok pert record, sorted
    python3 - "$1" <<'PY'
import json, sys
d = json.load(open(sys.argv[1] + "/run.json"))
print(" ".join(sorted("%s:%s:%s" % (r["scenario"], r["repetition"], r.get("started"))
                      for r in d["records"] if r.get("status") == "ok" and r["target"] == "host:cpu1")))
PY
}
# every (scenario, repetition) of the matrix once, and each record of
# @2 (before the stop) still there as it was
whole() {
    local after=$1 before=$2 r
    [ "$(echo "$after" | wc -w)" = 6 ] || return 1
    [ "$(echo "$after" | tr ' ' '\n' | cut -d: -f1,2 | sort -u | wc -l)" = 6 ] || return 1
    for r in $before; do case " $after " in *" $r "*) ;; *) return 1 ;; esac; done
}
complete() { python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["complete"])' "$1/run.json"; }
state() {   # resume.json -> "boot N installed|none"
    python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print("boot", d["boot"], "installed" if "installed_boot_id" in d else "none")' "$1/resume.json" 2>&1
}
run_entries() {
    "$rtvirt" status --root "$R" --json | python3 -c 'import json,sys; print(sum(j["entries"] for j in json.load(sys.stdin)["journals"]))'
}
first() {   # the first invocation -> $store; its exit status in $rc
    "$rtvirt" run --root "$R" --out "$tmp/res$1" tests/data/run/boot-host.ini >"$tmp/out" 2>"$tmp/err"; rc=$?
    store=$(ls -d "$tmp"/res"$1"/*-boot-host 2>/dev/null | head -n 1)
}
resume() {   # --resume $store; its exit status in $rc
    "$rtvirt" run --root "$R" --resume "$store" >"$tmp/out" 2>"$tmp/err"; rc=$?
}
why() { echo "rc $rc, $(tail -n 1 "$tmp/err" | cut -c1-200)"; }

# --- 1: Ctrl-C in boot 0 ----------------------------------------------------
mkroot
RV_TEST_KILL_AT=applied:2:INT first 1
before=$(recs "$store")
check "1: SIGINT in boot 0's second repetition: exit 2, one repetition in the store ($(why))" \
    eval '[ $rc -eq 2 ] && [ "$(echo "$before" | wc -w)" = 1 ]'
check "1: /etc and timer_migration as before, no journal entry left, no reboot" \
    eval 'diff -r "$tmp/etc-before" "$R/etc" && [ "$(cat "$R/proc/sys/kernel/timer_migration")" = "$tm" ] && [ "$(run_entries)" = 0 ] && [ "$(reboots)" = 0 ]'
check "1: resume.json kept at boot 0, the store incomplete ($(state "$store"), $(complete "$store"))" \
    eval '[ "$(state "$store")" = "boot 0 none" ] && [ "$(complete "$store")" = False ]'
"$rtvirt" status --root "$R" >"$tmp/st" 2>&1
check "1: status: stopped, 1 of 6 done, the --resume command ($(grep '^run:' "$tmp/st" | cut -c1-220))" \
    grep -q "^run: $store (.*boot-host.ini): stopped, 1 of 6 repetitions done (0 failed): 'rtvirt run --resume $store' continues it" "$tmp/st"
resume
check "1: --resume keeps the first repetition, runs boot 0's rest, reboots: exit 3 ($(why))" \
    eval '[ $rc -eq 3 ] && [ "$(reboots)" = 1 ] && grep -q "repetition 1: measured before the run stopped: kept" "$tmp/err"'
check "1: the kept repetition counts as done: the next is Run 2/4, none is numbered 1/4 again ($(grep -o 'Run [0-9]*/[0-9]*' "$tmp/err" | sort -u | tr '\n' ' '))" \
    eval 'grep -q "Run 2/4: " "$tmp/err" && ! grep -q "Run 1/4" "$tmp/err"'
resume
after=$(recs "$store")
check "1: the next --resume ends it: exit 0, complete, 6 repetitions each once, the first as measured ($(why))" \
    eval '[ $rc -eq 0 ] && [ "$(complete "$store")" = True ] && whole "$after" "$before"'
check "1: /etc as before, resume.json gone" eval 'diff -r "$tmp/etc-before" "$R/etc" && [ ! -e "$store/resume.json" ]'

# --- 2: Ctrl-C in boot 1, the host not rebooted since ------------------------
mkroot
first 2
RV_TEST_KILL_AT=applied:2:INT resume
before=$(recs "$store")
check "2: SIGINT in boot 1's second repetition: exit 2, 5 repetitions in the store ($(why))" \
    eval '[ $rc -eq 2 ] && [ "$(echo "$before" | wc -w)" = 5 ]'
check "2: the boot loader restored (drop-in, unit, link gone), no journal entry, resume.json at boot 1" \
    eval 'diff -r "$tmp/etc-before" "$R/etc" && [ "$(run_entries)" = 0 ] && [ "$(state "$store")" = "boot 1 none" ]'
check "2: the store notes the stop and how to resume" \
    eval 'grep -q "interrupted at boot 1 of 2 (reboot with nosmt rtvirt.test=nosmt): the boot loader.s arguments and rtvirt-run-resume.service restored.*.rtvirt run --resume $store. continues" "$store/run.json"'
"$rtvirt" status --root "$R" >"$tmp/st" 2>&1
check "2: status: stopped, 5 of 6 done, the --resume command" \
    grep -q "^run: $store (.*): stopped, 5 of 6 repetitions done (0 failed): 'rtvirt run --resume $store' continues it" "$tmp/st"
resume
after=$(recs "$store")
check "2: --resume under boot 1's command line: the last repetition only, no reboot, exit 0 ($(why))" \
    eval '[ $rc -eq 0 ] && [ "$(reboots)" = 1 ] && [ "$(complete "$store")" = True ] && whole "$after" "$before"'
check "2: /etc as before at the end" diff -r "$tmp/etc-before" "$R/etc"

# --- 3: SIGTERM in boot 1, then the user rebooted --------------------------
mkroot
first 3
RV_TEST_KILL_AT=applied:2:TERM resume
before=$(recs "$store")
check "3: SIGTERM in boot 1's second repetition: exit 2, /etc restored ($(why))" \
    eval '[ $rc -eq 2 ] && diff -r "$tmp/etc-before" "$R/etc" && [ "$(state "$store")" = "boot 1 none" ]'
user_reboot
resume
check "3: after a reboot into the user's arguments, --resume installs boot 1 again and reboots: exit 3 ($(why))" \
    eval '[ $rc -eq 3 ] && [ "$(reboots)" = 2 ] && grep -q "^Rebooting: boot 1 of 2" "$tmp/out" && [ "$(state "$store")" = "boot 1 installed" ]'
check "3: nothing measured under the wrong boot, no FAIL" \
    eval '[ "$(recs "$store")" = "$before" ] && ! grep -q "did not take" "$store/run.json"'
resume
after=$(recs "$store")
check "3: the next --resume ends it: exit 0, the repetition before the stop kept ($(why))" \
    eval '[ $rc -eq 0 ] && [ "$(complete "$store")" = True ] && whole "$after" "$before" && diff -r "$tmp/etc-before" "$R/etc"'

# --- 4: Ctrl-C after the install, before the reboot command ----------------
mkroot
RV_TEST_KILL_AT=installed:1:INT first 4
before=$(recs "$store")
check "4: SIGINT after boot 1 was installed: exit 2, no reboot, 4 repetitions ($(why))" \
    eval '[ $rc -eq 2 ] && [ "$(reboots)" = 0 ] && [ "$(echo "$before" | wc -w)" = 4 ] && ! grep -q "^Rebooting" "$tmp/out"'
check "4: /etc restored, resume.json at boot 1 not installed, incomplete" \
    eval 'diff -r "$tmp/etc-before" "$R/etc" && [ "$(state "$store")" = "boot 1 none" ] && [ "$(complete "$store")" = False ]'
resume
check "4: --resume reboots into boot 1: exit 3, the reboot command once ($(why))" \
    eval '[ $rc -eq 3 ] && [ "$(reboots)" = 1 ] && [ "$(recs "$store")" = "$before" ]'
resume
after=$(recs "$store")
check "4: the next --resume ends it: exit 0, boot 0's records as they were ($(why))" \
    eval '[ $rc -eq 0 ] && whole "$after" "$before" && diff -r "$tmp/etc-before" "$R/etc"'

# --- 5: SIGKILL after the install, before the reboot command ---------------
mkroot
RV_TEST_KILL_AT=installed:1:KILL first 5
before=$(recs "$store")
check "5: SIGKILL after boot 1 was installed: exit 137, the drop-in left, resume.json installed ($(why))" \
    eval '[ $rc -eq 137 ] && [ "$(reboots)" = 0 ] && [ -e "$R/etc/default/grub.d/rtvirt-run.cfg" ] && [ "$(state "$store")" = "boot 1 installed" ]'
resume
check "5: --resume under the same boot_id installs again and reboots (exit 3), fails nothing ($(why))" \
    eval '[ $rc -eq 3 ] && [ "$(reboots)" = 1 ] && ! grep -q "did not take" "$store/run.json"'
resume
after=$(recs "$store")
check "5: the next --resume ends it: exit 0, complete, each repetition once ($(why))" \
    eval '[ $rc -eq 0 ] && [ "$(complete "$store")" = True ] && whole "$after" "$before"'
check "5: /etc restored exactly at the end" diff -r "$tmp/etc-before" "$R/etc"

# --- 6: Ctrl-C after the reboot, before boot 1's first repetition -----------
mkroot
first 6
before=$(recs "$store")
RV_TEST_KILL_AT=locked:1:INT "$rtvirt" run --wait-lock 5 --root "$R" --resume "$store" >"$tmp/out" 2>"$tmp/err"; rc=$?
check "6: SIGINT in the resume before its first repetition: exit 2, nothing measured, /etc restored ($(why))" \
    eval '[ $rc -eq 2 ] && [ "$(recs "$store")" = "$before" ] && diff -r "$tmp/etc-before" "$R/etc" && [ "$(state "$store")" = "boot 1 none" ]'
resume
after=$(recs "$store")
check "6: --resume ends it under boot 1's command line: exit 0, no second reboot ($(why))" \
    eval '[ $rc -eq 0 ] && [ "$(reboots)" = 1 ] && whole "$after" "$before" && diff -r "$tmp/etc-before" "$R/etc"'

# --- 7: a boot that did not take the arguments -------------------------------
mkroot
first 7
check "7: exit 3, a new boot_id ($(why))" eval '[ $rc -eq 3 ] && [ "$(reboots)" = 1 ]'
printf '%s\n' "$orig" >"$R/proc/cmdline"   # the boot ignored the drop-in
resume
check "7: --resume after a reboot that ignored them: its repetitions FAIL, no second reboot: exit 1 ($(why))" \
    eval '[ $rc -eq 1 ] && [ "$(reboots)" = 1 ] && grep -qx "Runs: 4 ok, 2 failed" "$tmp/out"'
check "7: /etc as before, resume.json gone" eval 'diff -r "$tmp/etc-before" "$R/etc" && [ ! -e "$store/resume.json" ]'

# --- a --resume that finds the host lock held -------------------------------
mkroot
first 9
flock "$RTVIRT_LOCK_FILE" "$rtvirt" run --root "$R" --resume "$store" >"$tmp/out" 2>"$tmp/err"; rc=$?
check "--resume while another command holds the host lock: exit 2, the boot loader and the unit left to the run ($(why))" \
    eval '[ $rc -eq 2 ] && [ -e "$R/etc/default/grub.d/rtvirt-run.cfg" ] && [ -e "$R/etc/systemd/system/rtvirt-run-resume.service" ] && [ "$(state "$store")" = "boot 1 installed" ]'
resume
check "then --resume ends it: exit 0, complete, /etc as before ($(why))" \
    eval '[ $rc -eq 0 ] && [ "$(complete "$store")" = True ] && [ "$(reboots)" = 1 ] && diff -r "$tmp/etc-before" "$R/etc"'

# --- --abort of an interrupted run ------------------------------------------
mkroot
RV_TEST_KILL_AT=applied:2:INT first 8
"$rtvirt" run --root "$R" --abort "$store" >"$tmp/out" 2>"$tmp/err"; rc=$?
check "--abort of an interrupted run: exit 0, resume.json gone, the store incomplete ($(why))" \
    eval '[ $rc -eq 0 ] && [ ! -e "$store/resume.json" ] && [ "$(complete "$store")" = False ] && diff -r "$tmp/etc-before" "$R/etc"'
"$rtvirt" status --root "$R" >"$tmp/st" 2>&1
check "--abort: status has no run line left ($(grep '^run:' "$tmp/st" | cut -c1-160))" eval '! grep -q "^run:" "$tmp/st"'
