#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# tests/t-apply-revert.sh: `rtvirt host apply` / `host revert` on a writable
# copy of tests/data/apply-root (see its .source.txt):
#  - apply changes the tree, revert makes every file byte-identical (content
#    and mode) and removes the journal; a second revert has nothing to do;
#  - a second apply records nothing new (first original kept);
#  - SIGKILL after each single change (RV_TEST_KILL_AFTER=N, the journal's
#    test hook), then revert: identical, for every N until apply completes;
#  - a crash, a new full apply, then revert: identical (the tuned values of
#    the crashed apply are not taken as originals);
#  - a second process while the journal is locked: refused, nothing changed;
#  - damaged journals (11.): cut mid-line, a garbage line, empty: revert
#    restores what verifies, lists the rest, exits 1 and leaves the file;
#    --force ends it (bytes kept as journal.damaged); apply refuses to add
#    to it; a --journal FILE that is no journal is never written; a journal
#    of the released format (tests/data/journal/v1-apply-root.journal)
#    reverts, said to be old.
# TAP output.
set -u

RTVIRT=${RV_BUILD:?}/rtvirt
FIX=${RV_TOP:?}/tests/data/apply-root
PROFILE=$RV_TOP/profiles/host/realtime-virtual-host.ini
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
R=$tmp/root
. "${RV_TOP:?}/tests/tap.sh"


fresh() { rm -rf "$R"; cp -a "$FIX" "$R"; }
# content and mode of every file but rtvirt's state directory
listing() { (cd "$1" && find . -path ./var -prune -o -printf '%p %m\n' | sort); }
same() {
    diff -r -x var "$FIX" "$R" >"$tmp/diff" 2>&1 &&
        [ "$(listing "$FIX")" = "$(listing "$R")" ]
}
journal_gone() { [ ! -e "$R/var/lib/rtvirt/journal" ]; }
apply() { "$RTVIRT" host apply --no-check --root "$R" "$PROFILE" >"$tmp/apply.out" 2>&1; }
revert() { "$RTVIRT" host revert --root "$R" >"$tmp/revert.out" 2>&1; }

# 1. apply, revert, revert again
fresh
apply; rc=$?
check_expr '[ $rc -eq 0 ]' "apply on the fixture root exits 0 (rc=$rc)"
check_expr '! same' "apply changed the tree"
check_expr 'grep -qx -- -1 "$R/proc/sys/kernel/sched_rt_runtime_us"' "RT throttling off"
check_expr 'grep -qx 0 "$R/proc/irq/24/smp_affinity_list"' "IRQ 24 moved to housekeeping CPU 0"
check_expr 'grep -qxF "always madvise [never]" "$R/sys/kernel/mm/transparent_hugepage/enabled"' "THP never, shown as the kernel shows it"
check_expr 'grep -qx 1 "$R/sys/devices/system/cpu/cpu1/cpuidle/state2/disable"' "C6 disabled on isolated CPU 1"
check_expr 'grep -qx 0 "$R/sys/devices/system/cpu/cpu0/cpuidle/state2/disable"' "C6 kept on housekeeping CPU 0"
check_expr 'grep -qx performance "$R/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor"' "governor performance"
check_expr 'grep -qx "sched_core = \"vcpus\"" "$R/etc/libvirt/qemu.conf"' "qemu.conf sched_core set"
check_expr '! grep -q "does not exist on this host" "$tmp/apply.out"' "a knob the root lacks is 'not in this root', never 'on this host'"
changes=$(sed -n 's/^apply: \([0-9]*\) changed.*/\1/p' "$tmp/apply.out")
check_expr '[ "${changes:-0}" -gt 10 ]' "apply reports its changes (${changes:-none})"
revert; rc=$?
check_expr '[ $rc -eq 0 ] && same' "revert: every file byte-identical (rc=$rc)"
[ -s "$tmp/diff" ] && sed 's/^/# /' "$tmp/diff" | head -20
check_expr 'journal_gone' "revert removed the journal"
revert; rc=$?
check_expr '[ $rc -eq 0 ] && grep -q "nothing to revert" "$tmp/revert.out" && same' "second revert: nothing to do"

# 2. apply twice: the second records nothing
fresh
apply
e1=$(grep -c '"kind"' "$R/var/lib/rtvirt/journal")
apply
e2=$(grep -c '"kind"' "$R/var/lib/rtvirt/journal")
check_expr '[ "$e1" = "$e2" ] && grep -q "^apply: 0 changed" "$tmp/apply.out"' "second apply records nothing ($e1 = $e2 entries)"
revert
check_expr 'same && journal_gone' "revert after two applies: identical"

# 3. SIGKILL after each single change
k=1
killed=0
while [ $k -le 500 ]; do
    fresh
    RV_TEST_KILL_AFTER=$k "$RTVIRT" host apply --no-check --root "$R" "$PROFILE" >/dev/null 2>&1
    rc=$?
    [ $rc -ne 137 ] && break
    killed=$((killed + 1))
    revert; rrc=$?
    if [ $rrc -ne 0 ] || ! same || ! journal_gone; then
        notok "kill after change $k, revert: identical (revert rc=$rrc)"
        sed 's/^/# /' "$tmp/diff" "$tmp/revert.out" | head -20
        break
    fi
    k=$((k + 1))
done
check_expr '[ $rc -eq 0 ] && [ $killed -ge "${changes:-1}" ]' "killed after each of $killed changes, each reverted to identical; apply completes after them (rc=$rc)"

# 4. crash, full apply, revert
fresh
RV_TEST_KILL_AFTER=3 "$RTVIRT" host apply --no-check --root "$R" "$PROFILE" >/dev/null 2>&1
rc=$?
apply
revert
check_expr '[ $rc -eq 137 ] && same && journal_gone' "crash after 3 changes, apply again, revert: identical"

# 5. a locked journal: the second process is refused and changes nothing
fresh
mkdir -p "$R/var/lib/rtvirt"
flock "$R/var/lib/rtvirt/journal.lock" "$RTVIRT" host apply --no-check --root "$R" "$PROFILE" >"$tmp/lock.out" 2>&1
rc=$?
check_expr '[ $rc -eq 2 ] && grep -q "in use by another rtvirt process" "$tmp/lock.out" && same' "journal locked: apply refused (rc=$rc), nothing changed"

# 6. dry run changes nothing and writes no journal
fresh
"$RTVIRT" host apply --dry-run --root "$R" "$PROFILE" >"$tmp/dry.out" 2>&1
rc=$?
check_expr '[ $rc -eq 0 ] && same && journal_gone && grep -q "^isolated: 1$" "$tmp/dry.out"' "dry run: plan printed, nothing changed"

# 7. bootargs --install/--remove through the command, on the same root with
#    Debian 12's /etc/default/grub: the drop-in, update-grub in dry-run,
#    then the tree as before
fresh
mkdir -p "$R/etc/default"
cp "$RV_TOP/tests/data/grub/debian12/etc/default/grub" "$R/etc/default/grub"
cp -a "$R" "$tmp/root.grub"
# -n first: it says what it would write and writes nothing at all (not
# the drop-in, not the journal, not its lock file)
"$RTVIRT" host bootargs --install -n --root "$R" "$PROFILE" >"$tmp/ba.out" 2>&1
rc=$?
check_expr '[ $rc -eq 0 ] && grep -q "^would write /etc/default/grub.d/rtvirt.cfg" "$tmp/ba.out" && grep -qx "would run: update-grub" "$tmp/ba.out" && diff -r "$tmp/root.grub" "$R" >/dev/null' "bootargs --install -n: what it would write, and nothing written, journal included (rc=$rc)"
"$RTVIRT" host bootargs --remove -n --root "$R" >"$tmp/ba.out" 2>&1
rc=$?
check_expr '[ $rc -eq 0 ] && grep -q "nothing installed" "$tmp/ba.out" && diff -r "$tmp/root.grub" "$R" >/dev/null' "bootargs --remove -n: nothing installed, nothing written (rc=$rc)"
"$RTVIRT" host bootargs --install --root "$R" "$PROFILE" >"$tmp/ba.out" 2>&1
rc=$?
sed 's/^/# /' "$tmp/ba.out"
check_expr '[ $rc -eq 0 ] && grep -qx "dry-run: update-grub" "$tmp/ba.out" && grep -q "reboot" "$tmp/ba.out"' "bootargs --install: update-grub (dry-run), reboot needed (rc=$rc)"
check_expr 'grep -q "^GRUB_CMDLINE_LINUX_DEFAULT=\"\$GRUB_CMDLINE_LINUX_DEFAULT isolcpus=managed_irq,domain,1 nohz=on nohz_full=1 rcu_nocbs=1 irqaffinity=0 " "$R/etc/default/grub.d/rtvirt.cfg"' "drop-in holds the 2-CPU arguments"
cp -a "$R" "$tmp/root.installed"
"$RTVIRT" host bootargs --remove -n --root "$R" >"$tmp/ba.out" 2>&1
rc=$?
check_expr '[ $rc -eq 0 ] && grep -q "would restore" "$tmp/ba.out" && diff -r "$tmp/root.installed" "$R" >/dev/null' "bootargs --remove -n after --install: would restore, nothing written (rc=$rc)"
"$RTVIRT" host bootargs --remove --root "$R" >"$tmp/ba.out" 2>&1
rc=$?
check_expr '[ $rc -eq 0 ] && grep -qx "dry-run: update-grub" "$tmp/ba.out" && diff -r -x var "$tmp/root.grub" "$R" >/dev/null' "bootargs --remove: tree as before (rc=$rc)"
"$RTVIRT" host bootargs --remove --root "$R" >"$tmp/ba.out" 2>&1
check_expr 'grep -q "nothing installed" "$tmp/ba.out"' "second --remove: nothing installed"

# 8. a profile invalid for this host changes nothing: every value is checked
#    before the first write (the tester's cases: a non-integer numeric
#    sysctl, an IRQ cpulist beyond the 2 CPUs, an unknown governor)
bad=1
for knob in "[sysctl]|vm.swappiness = abc" "[kernel]|irq_affinity = 5" "[cpu]|governor = turbo"; do
    fresh
    printf '[main]\ninclude = %s\n%s\n%s\n' "$PROFILE" "${knob%%|*}" "${knob#*|}" >"$tmp/bad$bad.ini"
    "$RTVIRT" host apply --no-check --root "$R" "$tmp/bad$bad.ini" >"$tmp/bad.out" 2>&1
    rc=$?
    check_expr '[ $rc -eq 2 ] && same && journal_gone && grep -q "bad$bad.ini:4: " "$tmp/bad.out"' "apply '${knob#*|}': refused at load (rc=$rc), nothing changed"
    "$RTVIRT" host apply --dry-run --root "$R" "$tmp/bad$bad.ini" >"$tmp/bad.out" 2>&1
    rc=$?
    check_expr '[ $rc -eq 2 ]' "apply --dry-run '${knob#*|}': refused (rc=$rc)"
    "$RTVIRT" host bootargs --root "$R" "$tmp/bad$bad.ini" >"$tmp/bad.out" 2>&1
    rc=$?
    check_expr '[ $rc -eq 2 ]' "bootargs '${knob#*|}': refused (rc=$rc)"
    "$RTVIRT" host check --root "$R" "$tmp/bad$bad.ini" >"$tmp/bad.out" 2>&1
    rc=$?
    check_expr '[ $rc -eq 2 ]' "check '${knob#*|}': refused (rc=$rc)"
    bad=$((bad + 1))
done

# 8b. "N" in a profile cpulist is the host's last CPU (kernel cmdline
#     semantics): 1-N on this 2-CPU fixture isolates CPU 1
fresh
printf '[main]\ninclude = %s\n[cpus]\nisolated = 1-N\n' "$PROFILE" >"$tmp/n.ini"
"$RTVIRT" host apply --dry-run --root "$R" "$tmp/n.ini" >"$tmp/n.out" 2>&1
rc=$?
check_expr '[ $rc -eq 0 ] && grep -q "^isolated: 1$" "$tmp/n.out" && same' "apply --dry-run isolated = 1-N: CPU 1 isolated (rc=$rc)"
"$RTVIRT" host bootargs --root "$R" "$tmp/n.ini" >"$tmp/n.out" 2>&1
rc=$?
check_expr '[ $rc -eq 0 ] && grep -q "nohz_full=1 " "$tmp/n.out"' "bootargs isolated = 1-N: nohz_full=1 (rc=$rc)"

# 9. help and exit texts: apply/revert/bootargs --help carry an exit-status
#    line, PROFILE is not shown optional; `rtvirt host|guest --help` lists
#    the group (exit 0); revert of a missing journal says so
for c in apply revert bootargs; do
    "$RTVIRT" host $c --help >"$tmp/help.out" 2>&1
    rc=$?
    check_expr '[ $rc -eq 0 ] && grep -q "^Exit status: 0 " "$tmp/help.out"' "host $c --help has an exit-status line (rc=$rc)"
done
check_expr '! grep -q "\[PROFILE\]" "$tmp/help.out" && grep -q "bootargs .*PROFILE" "$tmp/help.out"' "host bootargs --help: PROFILE required"
for g in host guest; do
    "$RTVIRT" $g --help >"$tmp/help.out" 2>&1
    rc=$?
    check_expr '[ $rc -eq 0 ] && grep -q "^  [a-z]" "$tmp/help.out" && ! grep -q Unknown "$tmp/help.out"' "rtvirt $g --help lists its commands (rc=$rc)"
done
fresh
"$RTVIRT" host revert --root "$R" --journal "$tmp/no-such-journal" >"$tmp/revert.out" 2>&1
rc=$?
check_expr '[ $rc -eq 0 ] && grep -qF "no journal at '"'"'$tmp/no-such-journal'"'"': nothing to revert" "$tmp/revert.out" && [ ! -e "$tmp/no-such-journal" ] && same' "revert --journal MISSING: says there is no journal (rc=$rc)"

# 10. apply with its follow-up check: a FAIL there (boot arguments are not
#     on this fixture's command line) is exit 1, as `host check`; reverted
fresh
"$RTVIRT" host apply --root "$R" "$PROFILE" >"$tmp/apply.out" 2>&1
rc=$?
check_expr '[ $rc -eq 1 ] && grep -q "^FAIL " "$tmp/apply.out"' "apply whose check has FAILs exits 1 (rc=$rc)"
revert
check_expr 'same' "reverted"

# 11. damaged journals
J=$R/var/lib/rtvirt/journal
revert_force() { "$RTVIRT" host revert --force --root "$R" >"$tmp/revert.out" 2>&1; }
ndiff() { diff -rq -x var "$FIX" "$R" 2>/dev/null | wc -l; }
# 11a. cut in the middle of line 6: entries 1-4 restored (line 1 is the header)
fresh
apply
lines=$(wc -l <"$J")
head -n 5 "$J" >"$tmp/cut" && sed -n 6p "$J" | head -c 30 >>"$tmp/cut" && cp "$tmp/cut" "$J"
revert; rc=$?
sed 's/^/# /' "$tmp/revert.out" | cut -c1-300
check_expr '[ $rc -eq 1 ] && grep -q "line 6: cut mid-line (30 bytes after the last newline)" "$tmp/revert.out" && grep -q "4 verified entries restored" "$tmp/revert.out"' "journal cut mid-line ($lines lines): revert lists the cut, restores 4, exits 1 (rc=$rc)"
check_expr 'cmp -s "$tmp/cut" "$J"' "cut journal left byte for byte"
check_expr 'grep -qx 950000 "$R/proc/sys/kernel/sched_rt_runtime_us"' "entry 1 (sched_rt_runtime_us) restored"
check_expr '[ "$(ndiff)" -gt 0 ]' "what was cut off stays tuned ($(ndiff) files differ)"
apply; rc=$?
check_expr '[ $rc -eq 2 ] && grep -q "journal damaged" "$tmp/apply.out" && cmp -s "$tmp/cut" "$J"' "apply over a damaged journal refused, journal unchanged (rc=$rc)"
revert_force; rc=$?
check_expr '[ $rc -eq 1 ] && grep -q "gone past" "$tmp/revert.out" && journal_gone && cmp -s "$tmp/cut" "$J.damaged"' "revert --force: exit 1, journal ended, bytes kept as journal.damaged (rc=$rc)"
revert; rc=$?
check_expr '[ $rc -eq 0 ] && grep -q "nothing to revert" "$tmp/revert.out"' "revert after --force: nothing to revert (rc=$rc)"

# 11b. a garbage line: every other entry restored; --force past it
fresh
apply
sed -i '4s/.*/garbage/' "$J"
cp "$J" "$tmp/garbage"
revert; rc=$?
check_expr '[ $rc -eq 1 ] && grep -q "line 4: not a JSON object" "$tmp/revert.out" && cmp -s "$tmp/garbage" "$J"' "garbage line 4: listed, exit 1, journal kept (rc=$rc)"
check_expr '[ "$(ndiff)" -eq 1 ]' "every other entry restored: one file differs ($(ndiff))"
revert_force; rc=$?
check_expr '[ $rc -eq 1 ] && journal_gone && [ "$(ndiff)" -eq 1 ]' "revert --force past the garbage line: journal ended (rc=$rc)"

# 11c. an empty journal is not "0 entries restored"
fresh
mkdir -p "$R/var/lib/rtvirt"
: >"$J"
revert; rc=$?
check_expr '[ $rc -eq 1 ] && grep -q "the file is empty" "$tmp/revert.out" && [ -e "$J" ] && ! grep -q "0 entries restored" "$tmp/revert.out"' "empty journal: exit 1, said empty, file kept (rc=$rc)"
revert_force; rc=$?
check_expr '[ $rc -eq 1 ] && journal_gone' "empty journal, --force: removed (rc=$rc)"

# 11d. --journal FILE that is no journal: never written to
fresh
printf 'precious line 1\nprecious last line, no newline' >"$tmp/notes"
cp "$tmp/notes" "$tmp/notes.orig"
for f in "" --force; do
    "$RTVIRT" host revert $f --root "$R" --journal "$tmp/notes" >"$tmp/revert.out" 2>&1
    rc=$?
    check_expr '[ $rc -eq 2 ] && grep -q "is not an rtvirt journal" "$tmp/revert.out" && cmp -s "$tmp/notes" "$tmp/notes.orig" && [ ! -e "$tmp/notes.lock" ] && [ ! -e "$tmp/notes.damaged" ]' "revert $f --journal NOT-A-JOURNAL: refused, file untouched (rc=$rc)"
done

# 11e. a journal of the released format reverts, said to be old
fresh
apply
cp "$RV_TOP/tests/data/journal/v1-apply-root.journal" "$J"
revert; rc=$?
check_expr '[ $rc -eq 0 ] && grep -q "old journal format (version 1)" "$tmp/revert.out" && same && journal_gone' "old-format journal: reverted to identical, said old (rc=$rc)"

# 11f. --force on an intact journal is a plain revert; apply commits
fresh
apply
check_expr 'tail -n 1 "$J" | grep -q "\"kind\":\"commit\""' "apply ends its journal with a commit marker"
revert_force; rc=$?
check_expr '[ $rc -eq 0 ] && same && journal_gone && [ ! -e "$J.damaged" ]' "revert --force on an intact journal: identical, exit 0 (rc=$rc)"

# 12. --journal in a directory that does not exist: refused, nothing created or changed
fresh
"$RTVIRT" host apply --no-check --root "$R" --journal "$tmp/no/such/dir/j" "$PROFILE" >"$tmp/apply.out" 2>&1
rc=$?
check_expr '[ $rc -eq 2 ] && grep -q "directory .*no/such/dir. does not exist" "$tmp/apply.out" && [ ! -e "$tmp/no" ] && same' "apply --journal in a missing directory: exit 2, nothing created, tree unchanged (rc=$rc)"

echo "1..$n"
