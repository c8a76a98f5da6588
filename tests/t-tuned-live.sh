#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# tests/t-tuned-live.sh: rtvirt beside a REAL tuned daemon on THIS machine
# (its acceptance test).  The test starts /usr/sbin/tuned itself, the
# way a host without systemd or a D-Bus system bus runs it:
#   tuned --daemon --no-dbus --log FILE --profile NAME
# (PID file /run/tuned/tuned.pid, tuned's default; profile switches by
# `tuned-adm profile` then SIGHUP, because tuned-adm without D-Bus only
# writes /etc/tuned/active_profile and tries `service tuned restart`).
# It checks that
#  (a) `rtvirt host show` (text, --json) and `rtvirt host check` name the
#      running tuned (its PID, the PID file) and its active profile;
#  (b) `rtvirt host apply` of a small host profile refuses (exit 2, naming
#      export-tuned) and changes nothing: the profile's sysctls, the kernel
#      threads' affinities, the journal (absent);
#  (c) `rtvirt host export-tuned` writes /etc/tuned/rtvirt-test, tuned
#      applies it, and `rtvirt host check /etc/tuned/rtvirt-test` passes
#      the knobs tuned set (kernel.timer_migration = 0,
#      kernel.sched_rt_runtime_us = 960000: raised, because this kernel's
#      RT group scheduling refuses a global runtime below the root cgroup's);
#  and that stopping tuned rolls its sysctls back.
#
# The host is left as it was, also on failure (trap): tuned stopped,
# /etc/tuned restored file by file from a copy (active_profile,
# profile_mode, post_loaded_profile, tuned-main.conf; the test's profile
# directories removed) and compared with the copy, /run/tuned, /var/log/tuned
# and /var/lib/tuned as they were, every sysctl touched back to its value.
# tuned-main.conf's reapply_sysctl is set to 0 while the test runs: with 1
# tuned re-applies /etc/sysctl.d and /usr/lib/sysctl.d after its profile
# (kernel.pid_max, fs.protected_* here) and never rolls those back.
#
# Runs under flock /tmp/rtvirt-live.lock (re-executes itself under it).
# Skipped (exit 77) when not root, without tuned, while a tuned runs
# already, while another rtvirt holds the host lock, or when tuned does not
# start here (the reason and tuned's log are printed).  TAP output.
set -u

if [ -z "${RV_TUNED_LIVE_LOCKED:-}" ]; then
    RV_TUNED_LIVE_LOCKED=1 exec flock /tmp/rtvirt-live.lock "$0" "$@"
fi
rtvirt=${RV_BUILD:?}/rtvirt
cd "${RV_TOP:?}" || exit 2
TUNED=/usr/sbin/tuned
PIDFILE=/run/tuned/tuned.pid
LOCK=${RTVIRT_LOCK_FILE:-/run/rtvirt.lock}
skip() { echo "1..0 # SKIP $*"; exit 77; }

[ "$(id -u)" -eq 0 ] || skip "needs root to run tuned"
{ [ -x $TUNED ] && command -v tuned-adm >/dev/null; } || skip "tuned is not installed ($TUNED)"
if [ -s $PIDFILE ] && kill -0 "$(cat $PIDFILE)" 2>/dev/null; then
    skip "a tuned runs already (PID $(cat $PIDFILE)); this test starts its own"
fi
pgrep -x tuned >/dev/null && skip "a tuned process runs already ($(pgrep -x tuned | tr '\n' ' '))"
if [ -e "$LOCK" ] && ! flock -n "$LOCK" true; then
    skip "another rtvirt holds $LOCK"
fi

tmp=$(mktemp -d /tmp/t-tuned-live.XXXXXX)
J=$tmp/journal
. "${RV_TOP:?}/tests/tap.sh"
has() { jq -e --arg l "$2" --arg i "$3" '[.findings[] | select(.level == $l and .id == $i)] | length > 0' "$1" >/dev/null; }
msg() { jq -e --arg i "$2" --arg m "$3" '[.findings[] | select(.id == $i and (.message | contains($m)))] | length > 0' "$1" >/dev/null; }

# ---- what the test may touch, recorded first --------------------------------
# sysctls: the two the profile sets, and those the system sysctl files name
# (what tuned's reapply_sysctl would write)
SYSCTLS="kernel.timer_migration kernel.sched_rt_runtime_us"
SYSCTLS="$SYSCTLS $(cat /etc/sysctl.conf /etc/sysctl.d/*.conf /run/sysctl.d/*.conf \
    /usr/lib/sysctl.d/*.conf /lib/sysctl.d/*.conf 2>/dev/null |
    sed -n 's/^[[:space:]]*-\{0,1\}\([a-z][a-z0-9_.]*\)[[:space:]]*=.*/\1/p' | sort -u | tr '\n' ' ')"
sysctl_snap() {
    local k
    for k in $SYSCTLS; do
        [ -r "/proc/sys/${k//.//}" ] && echo "$k = $(cat "/proc/sys/${k//.//}")"
    done
}
sysctl_snap >"$tmp/sysctl.before"
cp -a /etc/tuned "$tmp/etc-tuned"
ls -A /run/tuned >"$tmp/run-tuned.before" 2>/dev/null || echo "#absent" >"$tmp/run-tuned.before"
for d in /run/tuned /var/log/tuned /var/lib/tuned; do [ -e $d ] && echo $d; done >"$tmp/dirs.before"
tuned_pid=

stop_tuned() {
    local p=${tuned_pid:-}
    [ -n "$p" ] || return 0
    kill -TERM "$p" 2>/dev/null
    for _ in $(seq 60); do kill -0 "$p" 2>/dev/null || break; sleep 0.5; done
    if kill -0 "$p" 2>/dev/null; then
        echo "# tuned $p ignored SIGTERM for 30 s: SIGKILL (its sysctls are restored below)"
        kill -KILL "$p" 2>/dev/null
        sleep 1
    fi
    tuned_pid=
}

# put everything back; safe to run twice
restore() {
    local k v f
    stop_tuned
    [ -n "${dbus_pid:-}" ] && kill -TERM "$dbus_pid" 2>/dev/null
    dbus_pid=
    while read -r k _ v; do
        [ "$(cat "/proc/sys/${k//.//}")" = "$v" ] || echo "$v" >"/proc/sys/${k//.//}" ||
            echo "# WARNING: could not restore $k = $v"
    done <"$tmp/sysctl.before"
    for f in /etc/tuned/* /etc/tuned/.[!.]*; do
        [ -e "$f" ] || continue
        [ -e "$tmp/etc-tuned/${f#/etc/tuned/}" ] || rm -rf "$f"
    done
    for f in "$tmp"/etc-tuned/*; do
        cmp -s "$f" "/etc/tuned/${f##*/}" 2>/dev/null || [ -d "$f" ] || cp -p "$f" /etc/tuned/
    done
    if [ -d /run/tuned ]; then
        for f in /run/tuned/*; do
            [ -e "$f" ] || continue
            grep -qxF "${f##*/}" "$tmp/run-tuned.before" || rm -rf "$f"
        done
    fi
    for f in /var/log/tuned /var/lib/tuned /run/tuned; do
        [ -e $f ] && ! grep -qxF $f "$tmp/dirs.before" && rm -rf $f
    done
    return 0
}
cleanup() {
    restore
    if [ $fail = 0 ]; then rm -rf "$tmp"; else echo "# kept $tmp (tuned.log, outputs)"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# ---- start tuned --------------------------------------------------------------
# a profile that sets nothing, for (a) and (b); the one to test comes in (c)
mkdir /etc/tuned/rtvirt-test-base
printf '[main]\nsummary = rtvirt t-tuned-live: a running tuned that tunes nothing\n' \
    >/etc/tuned/rtvirt-test-base/tuned.conf
sed -i 's/^[[:space:]]*reapply_sysctl[[:space:]]*=.*/reapply_sysctl = 0/' /etc/tuned/tuned-main.conf
grep -q '^reapply_sysctl = 0$' /etc/tuned/tuned-main.conf || echo 'reapply_sysctl = 0' >>/etc/tuned/tuned-main.conf
# --daemon returns once the profile is applied (the child signals its parent)
timeout 120 $TUNED --daemon --no-dbus --log "$tmp/tuned.log" --profile rtvirt-test-base \
    >"$tmp/tuned.out" 2>&1
rc=$?
[ -s $PIDFILE ] && tuned_pid=$(cat $PIDFILE)
if [ $rc != 0 ] || [ -z "$tuned_pid" ] || ! kill -0 "$tuned_pid" 2>/dev/null; then
    echo "# tuned exit $rc, pid file '$(cat $PIDFILE 2>/dev/null)'"
    sed 's/^/# /' "$tmp/tuned.out" "$tmp/tuned.log" 2>/dev/null | tail -20
    skip "tuned does not start here (exit $rc; log above)"
fi
ok "tuned started: PID $tuned_pid ($(cat /proc/"$tuned_pid"/comm)), $($TUNED --version 2>&1), --no-dbus, profile rtvirt-test-base"

# ---- (a) host show, host check name it -------------------------------------------
cat >"$tmp/small.ini" <<'EOF'
[main]
summary = rtvirt t-tuned-live: two sysctls tuned can set on a 2-CPU VM without SMT
[sched]
timer_migration = 0
rt_runtime_us = 960000
EOF
"$rtvirt" host show >"$tmp/show.txt" 2>"$tmp/show.err"; rc=$?
grep -qxF "tuned: running: PID $tuned_pid in $PIDFILE (tuned), active profile rtvirt-test-base (manual)" "$tmp/show.txt" \
    && ok "host show: $(grep '^tuned:' "$tmp/show.txt")" \
    || nok "host show (rc=$rc): $(grep '^tuned' "$tmp/show.txt") $(cat "$tmp/show.err")"
"$rtvirt" host show --json >"$tmp/show.json" 2>"$tmp/show.err"; rc=$?
jq -e --argjson p "$tuned_pid" --arg f "$PIDFILE" '.tuned.running == true and .tuned.pid == $p
        and (.tuned.how | startswith("PID \($p) in \($f)")) and .tuned.active_profile == "rtvirt-test-base"
        and .tuned.profile_mode == "manual" and .tuned.profile_dir == "/etc/tuned/rtvirt-test-base"' \
    "$tmp/show.json" >/dev/null && ok "host show --json: .tuned running, pid $tuned_pid, profile rtvirt-test-base, /etc/tuned/rtvirt-test-base" \
    || nok "host show --json (rc=$rc): $(jq -c .tuned "$tmp/show.json" 2>&1)"
# tuned-adm without D-Bus reads the PID file and active_profile itself
jq -e '.tuned.tuned_adm == "Current active profile: rtvirt-test-base"' "$tmp/show.json" >/dev/null \
    && ok "host show --json: tuned_adm is tuned-adm active's answer ($(jq -r .tuned.tuned_adm "$tmp/show.json"))" \
    || nok "tuned_adm: $(jq -c .tuned.tuned_adm "$tmp/show.json")"
"$rtvirt" host check --json "$tmp/small.ini" >"$tmp/check.json" 2>"$tmp/check.err"; rc=$?
msg "$tmp/check.json" tuned.running "tuned runs (PID $tuned_pid in $PIDFILE (tuned)) with profile rtvirt-test-base" \
    && jq -e '[.findings[] | select(.id == "tuned.running" and .level == "NOTE" and .actual == "rtvirt-test-base")] | length == 1' "$tmp/check.json" >/dev/null \
    && ok "host check --json: NOTE tuned.running names PID $tuned_pid and rtvirt-test-base (rc $rc)" \
    || nok "host check --json tuned.running (rc=$rc): $(jq -c '.findings[] | select(.id | startswith("tuned"))' "$tmp/check.json")"
"$rtvirt" host check "$tmp/small.ini" >"$tmp/check.txt" 2>&1; rc=$?
grep -q "^NOTE  tuned.running: tuned runs (PID $tuned_pid in $PIDFILE (tuned)) with profile rtvirt-test-base" "$tmp/check.txt" \
    && grep -q 'export-tuned' "$tmp/check.txt" \
    && ok "host check: NOTE tuned.running line, fix names export-tuned (rc $rc)" \
    || nok "host check text (rc=$rc): $(grep tuned "$tmp/check.txt")"
# the base profile sets nothing: no conflict, no overlap
! has "$tmp/check.json" WARN tuned.conflict && ! has "$tmp/check.json" NOTE tuned.overlap \
    && ok "host check: no tuned.conflict/overlap with a profile that sets nothing" || nok "unexpected tuned.conflict"

# ---- (b) host apply refuses, changes nothing ------------------------------------------
kthreads() {
    local s pid
    for s in /proc/[0-9]*/status; do
        pid=${s#/proc/}; pid=${pid%/status}
        awk -v pid="$pid" '/^PPid:/ { pp = $2 } /^Cpus_allowed_list:/ { a = $2 }
            END { if (pp == 2) print pid, a }' "$s" 2>/dev/null
    done | sort
}
"$rtvirt" host apply --dry-run --journal "$J" "$tmp/small.ini" >"$tmp/dry.out" 2>&1; rc=$?
keys=$(sed -n 's/^would change sysctl \([^:]*\):.*/\1/p' "$tmp/dry.out" | sort | tr '\n' ' ')
[ $rc = 0 ] && [ "$keys" = "kernel.sched_rt_runtime_us kernel.timer_migration " ] \
    && ok "host apply --dry-run beside tuned: would change $keys(the refusal is for real applies)" \
    || nok "dry run (rc=$rc): $keys $(tail -3 "$tmp/dry.out")"
sysctl_snap >"$tmp/sysctl.pre"; kthreads >"$tmp/kt.pre"
"$rtvirt" host apply --journal "$J" "$tmp/small.ini" >"$tmp/apply.out" 2>"$tmp/apply.err"; rc=$?
sysctl_snap >"$tmp/sysctl.post"; kthreads >"$tmp/kt.post"
[ $rc = 2 ] && grep -q "tuned is running (PID $tuned_pid in $PIDFILE (tuned), profile rtvirt-test-base)" "$tmp/apply.err" \
    && grep -q "rtvirt host export-tuned $tmp/small.ini -o /etc/tuned/rtvirt-small" "$tmp/apply.err" \
    && ok "host apply: exit 2, names the running tuned and export-tuned" \
    || nok "host apply (rc=$rc): $(cat "$tmp/apply.err")"
diff "$tmp/sysctl.pre" "$tmp/sysctl.post" >"$tmp/sysctl.diff" \
    && ok "host apply refused: $(grep -c . "$tmp/sysctl.pre") sysctls unchanged ($(grep -E 'timer_migration|sched_rt_runtime' "$tmp/sysctl.post" | tr '\n' ' '))" \
    || nok "sysctls changed: $(cat "$tmp/sysctl.diff")"
kt=$(join "$tmp/kt.pre" "$tmp/kt.post" | awk '$2 != $3' | head -3)
[ -z "$kt" ] && [ -s "$tmp/kt.pre" ] \
    && ok "host apply refused: affinities of $(join "$tmp/kt.pre" "$tmp/kt.post" | grep -c .) kernel threads unchanged" \
    || nok "kernel thread affinities changed: $kt"
[ ! -s "$J" ] && ok "host apply refused: the journal is empty ($( [ -e "$J" ] && echo empty || echo absent))" \
    || nok "journal written: $(head -3 "$J")"

# ---- (c) tuned applies the exported profile; host check passes it ------------------
E=/etc/tuned/rtvirt-test
"$rtvirt" host export-tuned "$tmp/small.ini" -o $E >"$tmp/export.out" 2>&1; rc=$?
[ $rc = 0 ] && grep -qx 'kernel.timer_migration = 0' $E/tuned.conf \
    && grep -qx 'kernel.sched_rt_runtime_us = 960000' $E/tuned.conf && ! grep -q '^\[bootloader\]' $E/tuned.conf \
    && ok "export-tuned -o $E: [sysctl] timer_migration = 0, sched_rt_runtime_us = 960000, no [bootloader]" \
    || nok "export-tuned (rc=$rc): $(cat "$tmp/export.out")"
tuned-adm profile rtvirt-test >"$tmp/adm.out" 2>&1; rc=$?
[ $rc = 0 ] && [ "$(cat /etc/tuned/active_profile)" = rtvirt-test ] && [ "$(cat /etc/tuned/profile_mode)" = manual ] \
    && ok "tuned-adm profile rtvirt-test: active_profile written (without D-Bus it cannot tell the daemon)" \
    || nok "tuned-adm profile (rc=$rc): $(cat "$tmp/adm.out")"
# SIGHUP: tuned rolls back its profile and loads the one in active_profile
applied=$(grep -c "static tuning from profile 'rtvirt-test' applied" "$tmp/tuned.log")
kill -HUP "$tuned_pid"
for _ in $(seq 120); do
    [ "$(grep -c "static tuning from profile 'rtvirt-test' applied" "$tmp/tuned.log")" -gt "$applied" ] && break
    sleep 0.5
done
tm=$(cat /proc/sys/kernel/timer_migration) rt=$(cat /proc/sys/kernel/sched_rt_runtime_us)
grep -q "static tuning from profile 'rtvirt-test' applied" "$tmp/tuned.log" && [ "$tm" = 0 ] && [ "$rt" = 960000 ] \
    && kill -0 "$tuned_pid" \
    && ok "SIGHUP: tuned $tuned_pid applied rtvirt-test: timer_migration $tm, sched_rt_runtime_us $rt" \
    || nok "tuned did not apply rtvirt-test: timer_migration $tm, sched_rt_runtime_us $rt; $(tail -3 "$tmp/tuned.log")"
"$rtvirt" host check --json $E >"$tmp/c.json" 2>"$tmp/c.err"; rc=$?
jq -e '[.findings[] | select(.level == "PASS" and (.id == "timer_migration" or .id == "rt-throttling"))] | length == 2' "$tmp/c.json" >/dev/null \
    && jq -e '[.findings[] | select(.id == "timer_migration" or .id == "rt-throttling") | .actual] | sort == ["0","960000"]' "$tmp/c.json" >/dev/null \
    && ok "host check $E: PASS timer_migration (0) and rt-throttling (960000), as tuned set them" \
    || nok "host check $E (rc=$rc): $(jq -c '.findings[] | select(.id == "timer_migration" or .id == "rt-throttling")' "$tmp/c.json") $(cat "$tmp/c.err")"
# the rest of the report is this host's, not tuned's: no FAIL about a knob tuned applied
fails=$(jq -r '[.findings[] | select(.level == "FAIL") | .id] | join(" ")' "$tmp/c.json")
! jq -e '[.findings[] | select(.level == "FAIL" and (.id == "timer_migration" or .id == "rt-throttling" or (.id | startswith("tuned"))))] | length > 0' "$tmp/c.json" >/dev/null \
    && ok "host check $E: no FAIL for tuned's knobs (rc $rc; FAILs of this host: ${fails:-none})" \
    || nok "FAIL for a tuned knob: $fails"
msg "$tmp/c.json" tuned.running "with profile rtvirt-test" && ! has "$tmp/c.json" WARN tuned.conflict \
    && ok "host check $E: NOTE tuned.running with profile rtvirt-test, no conflict (the profile is tuned's own)" \
    || nok "tuned.running after the switch: $(jq -c '.findings[] | select(.id | startswith("tuned"))' "$tmp/c.json")"
"$rtvirt" host check --json $E/tuned.conf >"$tmp/c2.json" 2>/dev/null
[ "$(jq -c '[.findings[] | [.level,.id,.message]]' "$tmp/c.json")" = "$(jq -c '[.findings[] | [.level,.id,.message]]' "$tmp/c2.json")" ] \
    && ok "host check $E/tuned.conf: the same findings as the directory" || nok "tuned.conf vs directory"
"$rtvirt" host show --json >"$tmp/show2.json"
jq -e '.tuned.running and .tuned.active_profile == "rtvirt-test" and .tuned.profile_dir == "/etc/tuned/rtvirt-test"' "$tmp/show2.json" >/dev/null \
    && ok "host show --json after the switch: active profile rtvirt-test in /etc/tuned/rtvirt-test" \
    || nok "host show after switch: $(jq -c .tuned "$tmp/show2.json")"
# the small profile beside tuned running its export: both set the same values
"$rtvirt" host check --json "$tmp/small.ini" >"$tmp/c3.json" 2>/dev/null
msg "$tmp/c3.json" tuned.overlap "also sets 2 of the profile's knobs to the same values: kernel.sched_rt_runtime_us, kernel.timer_migration" \
    && ok "host check small.ini: NOTE tuned.overlap names both knobs" \
    || nok "overlap: $(jq -c '.findings[] | select(.id | startswith("tuned"))' "$tmp/c3.json")"

# ---- stop: tuned rolls back what it set ------------------------------------------------
p=$tuned_pid
stop_tuned
tm=$(cat /proc/sys/kernel/timer_migration) rt=$(cat /proc/sys/kernel/sched_rt_runtime_us)
! kill -0 "$p" 2>/dev/null && [ ! -e $PIDFILE ] \
    && ok "SIGTERM: tuned $p exited and removed $PIDFILE" || nok "tuned $p still there or PID file left"
sysctl_snap >"$tmp/sysctl.stopped"
diff "$tmp/sysctl.before" "$tmp/sysctl.stopped" >"$tmp/sysctl.diff" \
    && ok "tuned's stop restored its sysctls itself: timer_migration $tm, sched_rt_runtime_us $rt ($(grep -c . "$tmp/sysctl.before") sysctls as before)" \
    || nok "after tuned stopped: $(tr '\n' ' ' <"$tmp/sysctl.diff")"
"$rtvirt" host show --json >"$tmp/show3.json"
jq -e '.tuned.running == false' "$tmp/show3.json" >/dev/null \
    && ok "host show --json after stop: not running ($(jq -r .tuned.how "$tmp/show3.json"))" \
    || nok "host show after stop: $(jq -c .tuned "$tmp/show3.json")"

# ---- (d) the same through D-Bus -------------------------------------------------------
# A private system bus (its own socket in $tmp, DBUS_SYSTEM_BUS_ADDRESS; the
# host's /run/dbus is not touched) with the system policy, tuned's
# com.redhat.tuned.conf included.  tuned runs the way tuned.service does
# (foreground, `tuned -l -P`), its PID file in $tmp, so rtvirt can see it
# only by its bus name.  tuned-adm switches the profile through the bus;
# polkit does not run here and tuned falls back to "the caller is root".
# (With --daemon the bus names tuned's launcher, gone after the fork:
# tests/test-tuned.c /tuned/bus-owner.)
dbus_pid=
bus_owned() {
    dbus-send --system --print-reply --dest=org.freedesktop.DBus /org/freedesktop/DBus \
        org.freedesktop.DBus.NameHasOwner string:com.redhat.tuned 2>/dev/null | grep -q 'boolean true'
}
dbus_phase() {
    local conf=$tmp/bus.conf
    { command -v dbus-daemon && command -v dbus-send && [ -f /usr/share/dbus-1/system.conf ]; } >/dev/null || {
        why="no dbus-daemon, dbus-send or /usr/share/dbus-1/system.conf"; return 1; }
    sed -e '/<user>/d' -e '/<pidfile>/d' -e '/<standard_system_servicedirs\/>/d' \
        -e '/<servicehelper>/d' -e "s|<listen>.*</listen>|<listen>unix:path=$tmp/bus.socket</listen>|" \
        -e 's|<includedir>system.d</includedir>|<includedir>/usr/share/dbus-1/system.d</includedir>|' \
        /usr/share/dbus-1/system.conf >"$conf"
    dbus-daemon --config-file="$conf" --fork --print-pid=1 >"$tmp/bus.pid" 2>"$tmp/bus.err" || {
        why="dbus-daemon does not start: $(head -1 "$tmp/bus.err")"; return 1; }
    dbus_pid=$(cat "$tmp/bus.pid")
    export DBUS_SYSTEM_BUS_ADDRESS=unix:path=$tmp/bus.socket
    $TUNED --log "$tmp/tuned-dbus.log" --pid "$tmp/tuned.pid" --profile rtvirt-test-base \
        </dev/null >"$tmp/tuned-dbus.out" 2>&1 &
    tuned_pid=$!
    for _ in $(seq 240); do
        bus_owned && break
        kill -0 "$tuned_pid" 2>/dev/null || break
        sleep 0.5
    done
    bus_owned || {
        why="tuned does not take com.redhat.tuned: $(tail -1 "$tmp/tuned-dbus.log" "$tmp/tuned-dbus.out" 2>/dev/null | tr '\n' ' ')"
        return 1; }
}
why=
if dbus_phase; then
    "$rtvirt" host show --json >"$tmp/dshow.json" 2>&1
    jq -e --argjson p "$tuned_pid" '.tuned.running and .tuned.pid == $p
            and .tuned.how == "D-Bus name com.redhat.tuned owned by PID \($p) (tuned)"
            and .tuned.active_profile == "rtvirt-test-base"
            and .tuned.tuned_adm == "Current active profile: rtvirt-test-base"' "$tmp/dshow.json" >/dev/null \
        && [ ! -e $PIDFILE ] \
        && ok "D-Bus: host show --json: $(jq -r .tuned.how "$tmp/dshow.json") (no $PIDFILE), tuned-adm answers over the bus" \
        || nok "D-Bus host show: $(jq -c .tuned "$tmp/dshow.json")"
    "$rtvirt" host check --json "$tmp/small.ini" >"$tmp/dcheck.json" 2>/dev/null
    msg "$tmp/dcheck.json" tuned.running "tuned runs (D-Bus name com.redhat.tuned owned by PID $tuned_pid (tuned)) with profile rtvirt-test-base" \
        && ok "D-Bus: host check: NOTE tuned.running names the bus name, PID $tuned_pid and the profile" \
        || nok "D-Bus host check: $(jq -c '.findings[] | select(.id == "tuned.running")' "$tmp/dcheck.json")"
    sysctl_snap >"$tmp/sysctl.pre"
    "$rtvirt" host apply --journal "$J" "$tmp/small.ini" >/dev/null 2>"$tmp/dapply.err"; rc=$?
    [ $rc = 2 ] && grep -q "tuned is running (D-Bus name com.redhat.tuned owned by PID $tuned_pid (tuned), profile rtvirt-test-base)" "$tmp/dapply.err" \
        && grep -q 'export-tuned' "$tmp/dapply.err" && sysctl_snap | diff "$tmp/sysctl.pre" - >/dev/null && [ ! -s "$J" ] \
        && ok "D-Bus: host apply: exit 2 naming export-tuned; sysctls and journal unchanged" \
        || nok "D-Bus host apply (rc=$rc): $(cat "$tmp/dapply.err")"
    # over the bus tuned-adm switches the daemon itself and waits for it
    tuned-adm profile rtvirt-test >"$tmp/dadm.out" 2>&1; rc=$?
    tm=$(cat /proc/sys/kernel/timer_migration) rt=$(cat /proc/sys/kernel/sched_rt_runtime_us)
    "$rtvirt" host check --json $E >"$tmp/dc.json" 2>/dev/null
    [ $rc = 0 ] && [ "$tm" = 0 ] && [ "$rt" = 960000 ] \
        && jq -e '[.findings[] | select(.level == "PASS" and (.id == "timer_migration" or .id == "rt-throttling"))] | length == 2' "$tmp/dc.json" >/dev/null \
        && msg "$tmp/dc.json" tuned.running "with profile rtvirt-test" \
        && ok "D-Bus: tuned-adm profile rtvirt-test applied it (timer_migration $tm, sched_rt_runtime_us $rt); host check $E: PASS both" \
        || nok "D-Bus switch (rc=$rc, $tm, $rt): $(cat "$tmp/dadm.out") $(jq -c '.findings[] | select(.id == "timer_migration" or .id == "rt-throttling")' "$tmp/dc.json")"
    p=$tuned_pid
    stop_tuned
    kill -TERM "$dbus_pid" 2>/dev/null
    dbus_pid=
    unset DBUS_SYSTEM_BUS_ADDRESS
    ! kill -0 "$p" 2>/dev/null && sysctl_snap | diff "$tmp/sysctl.before" - >/dev/null \
        && ok "D-Bus: tuned $p stopped, its sysctls rolled back" || nok "D-Bus: after stop: $(sysctl_snap | diff "$tmp/sysctl.before" -)"
else
    restore
    unset DBUS_SYSTEM_BUS_ADDRESS
    for t in "host show" "host check" "host apply" "tuned-adm profile" "stop"; do
        ok "D-Bus: $t # SKIP $why"
    done
fi

# ---- the host as it was ---------------------------------------------------------------
restore
diff -r "$tmp/etc-tuned" /etc/tuned >"$tmp/etc.diff" \
    && ok "/etc/tuned as before (active_profile '$(cat /etc/tuned/active_profile)', profile_mode '$(cat /etc/tuned/profile_mode)', no rtvirt-test*)" \
    || nok "/etc/tuned differs: $(head -5 "$tmp/etc.diff")"
sysctl_snap | diff "$tmp/sysctl.before" - >/dev/null && ok "all $(grep -c . "$tmp/sysctl.before") recorded sysctls as before" \
    || nok "sysctls differ after restore"
dirs_as_before() {
    local d
    { ls -A /run/tuned 2>/dev/null || echo "#absent"; } | diff "$tmp/run-tuned.before" - >/dev/null || return 1
    for d in /run/tuned /var/log/tuned /var/lib/tuned; do [ -e $d ] && echo $d; done | diff "$tmp/dirs.before" - >/dev/null
}
dirs_as_before && ok "/run/tuned, /var/log/tuned, /var/lib/tuned as before" || nok "tuned's run/log/lib directories differ"
tm=$(cat /proc/sys/kernel/timer_migration) rt=$(cat /proc/sys/kernel/sched_rt_runtime_us)
tm0=$(sed -n 's/^kernel.timer_migration = //p' "$tmp/sysctl.before")
rt0=$(sed -n 's/^kernel.sched_rt_runtime_us = //p' "$tmp/sysctl.before")
[ "$tm" = "$tm0" ] && [ "$rt" = "$rt0" ] && [ "$tm" = 1 ] && [ "$rt" = 950000 ] \
    && ok "end: kernel.timer_migration = 1, kernel.sched_rt_runtime_us = 950000 (the kernel defaults, as before)" \
    || nok "end: timer_migration $tm (before $tm0), sched_rt_runtime_us $rt (before $rt0); the kernel defaults are 1 and 950000"
echo "1..$n"
exit $fail
