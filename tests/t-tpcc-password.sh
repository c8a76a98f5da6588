#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/t-tpcc-password.sh: rtvirt-tpcc never leaves the server password in
# /proc/PID/cmdline (readable by every local user, shown by ps).  Against a
# silent server (a unix socket that accepts and never greets: the client
# waits there, alive, after its options are parsed):
#  - the old --password VALUE and --password=VALUE: the value is gone from
#    /proc/PID/cmdline while it runs, and a deprecation warning is printed;
#  - --password-file FILE (0600): no warning, nothing of it in cmdline;
#  - --password with --password-file, and a missing file: exit 2, named.
# No root, no database.
set -u
tpcc=${RV_BUILD:?}/rtvirt-tpcc
. "${RV_TOP:?}/tests/tap.sh"
need_cmds python3
tmp=$(mktemp -d)
pids=()
trap 'for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done; rm -rf "$tmp"' EXIT

# one accepted connection, then silence until the client goes away
silent_server() {
    python3 -c '
import socket, sys
s = socket.socket(socket.AF_UNIX); s.bind(sys.argv[1]); s.listen(1)
open(sys.argv[2], "w").close()
c, _ = s.accept(); open(sys.argv[3], "w").close(); c.recv(1)' "$1" "$1.ready" "$1.accepted" &
    pids+=($!)
    for _ in $(seq 200); do [ -e "$1.ready" ] && break; sleep 0.05; done
}

# run rtvirt-tpcc against a fresh silent server; $cmdline gets its
# /proc/PID/cmdline (NULs as spaces) once the server has its connection
probe() {
    local sock=$tmp/s$n.sock
    silent_server "$sock"
    "$tpcc" run --socket "$sock" --duration 1 --warmup 0 "$@" >"$tmp/out" 2>"$tmp/err" &
    local pid=$!
    pids+=($pid)
    for _ in $(seq 200); do [ -e "$sock.accepted" ] && break; kill -0 $pid 2>/dev/null || break; sleep 0.05; done
    cmdline=$(tr '\0' ' ' </proc/$pid/cmdline 2>/dev/null)
    kill $pid 2>/dev/null; wait $pid 2>/dev/null
}

probe --password s3cretPW
check "--password VALUE: the running process's cmdline lacks it ($cmdline)" \
    eval '[ -n "$cmdline" ] && ! grep -q s3cretPW <<<"$cmdline" && grep -q -- "--password xxxxxxxx" <<<"$cmdline"'
check "--password warns that it is deprecated" grep -q 'warning: --password is deprecated' "$tmp/err"

probe --password=s3cretPW
check "--password=VALUE: the cmdline lacks it ($cmdline)" \
    eval '[ -n "$cmdline" ] && ! grep -q s3cretPW <<<"$cmdline"'

printf 's3cretPW\n' >"$tmp/pw"; chmod 600 "$tmp/pw"
probe --password-file "$tmp/pw"
check "--password-file: no warning ($(head -c 200 "$tmp/err"))" eval '! grep -q warning "$tmp/err"'
check "--password-file: nothing of the password in cmdline" eval '[ -n "$cmdline" ] && ! grep -q s3cretPW <<<"$cmdline"'

"$tpcc" run --password a --password-file "$tmp/pw" >/dev/null 2>"$tmp/err"; rc=$?
check "--password with --password-file: exit 2 ($(cat "$tmp/err"))" eval '[ $rc -eq 2 ] && grep -q "give one" "$tmp/err"'
"$tpcc" run --password-file "$tmp/none" >/dev/null 2>"$tmp/err"; rc=$?
check "a missing --password-file: exit 2 naming it ($(cat "$tmp/err"))" eval '[ $rc -eq 2 ] && grep -q "$tmp/none" "$tmp/err"'

tap_plan
tap_exit
