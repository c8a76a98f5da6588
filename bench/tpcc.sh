#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# bench/tpcc.sh [WAREHOUSES] [SECONDS] [USERS]: rtvirt-tpcc and Debian's
# `sysbench oltp_read_write` (the packaged OLTP peer) against the same
# private mariadbd (a temporary data directory, a unix socket, networking
# off, stopped on exit), one after the other, for the same time and the
# same number of client threads; prints side by side:
#   tps                committed transactions per second (rtvirt-tpcc: all
#                      five TPC-C types; sysbench: its oltp_read_write
#                      transactions, 18 statements each by default)
#   client CPU s       user + system CPU of the driver process
#   server CPU s       user + system CPU of mariadbd over the same interval
#   client/server      the driver's CPU as a share of the server's
#   CPU us/txn         client and server CPU per transaction
# Target: rtvirt-tpcc's CPU under 10 % of the server's.
# SCALE=small (default, CI; NON-STANDARD) or SCALE=standard.  Reports,
# never asserts: the figures depend on what else the machine runs.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
tpcc=${RTVIRT_TPCC:-$top/build/rtvirt-tpcc}
wh=${1:-1}
secs=${2:-60}
users=${3:-2}
scale=${SCALE:-small}
mariadbd=/usr/sbin/mariadbd

[ -x "$tpcc" ] || { echo "build first: make" >&2; exit 2; }
for p in "$mariadbd" mariadb-install-db sysbench /usr/bin/time; do
    command -v "$p" >/dev/null || { echo "$p missing: make deps (mariadb-server, sysbench, time)" >&2; exit 77; }
done
tmp=$(mktemp -d)
sock=$tmp/mysqld.sock
server_pid=
cleanup() {
    if [ -n "$server_pid" ]; then kill "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; fi
    rm -rf "$tmp"
}
trap cleanup EXIT

me=$(id -un)
mariadb-install-db --no-defaults --user="$me" --datadir="$tmp/data" --auth-root-authentication-method=normal \
    --skip-test-db >"$tmp/install.log" 2>&1
"$mariadbd" --no-defaults --user="$me" --datadir="$tmp/data" --socket="$sock" --skip-networking \
    --pid-file="$tmp/mysqld.pid" --log-error="$tmp/mysqld.err" --skip-grant-tables \
    --innodb-buffer-pool-size=512M --innodb-flush-log-at-trx-commit=2 --max-connections=500 >/dev/null 2>&1 &
server_pid=$!
for _ in $(seq 300); do [ -S "$sock" ] && break; sleep 0.2; done
[ -S "$sock" ] || { echo "mariadbd did not start: $(tail -3 "$tmp/mysqld.err")" >&2; exit 2; }

# user + system CPU seconds of a process so far (/proc/PID/stat fields 14, 15)
cpu_s() { awk -v hz="$(getconf CLK_TCK)" '{ sub(/^.*\) /, ""); printf "%.2f\n", ($12 + $13) / hz }' "/proc/$1/stat"; }
client_cpu() { awk '{ printf "%.2f\n", $1 + $2 }' "$1"; }

echo "bench/tpcc.sh: $wh warehouse(s), scale $scale, $users client threads, $secs s each, $(nproc) CPUs"
echo "load: $("$tpcc" load --socket "$sock" --scale "$scale" --warehouses "$wh" | tail -1)"

s0=$(cpu_s "$server_pid")
/usr/bin/time -f '%U %S' -o "$tmp/tpcc.time" "$tpcc" run --socket "$sock" --scale "$scale" --users "$users" \
    --duration "$secs" --warmup 0 --json "$tmp/tpcc.json" >"$tmp/tpcc.out"
s1=$(cpu_s "$server_pid")
t_tps=$(jq .tps "$tmp/tpcc.json")
t_nopm=$(jq .nopm "$tmp/tpcc.json")
t_cpu=$(client_cpu "$tmp/tpcc.time")
t_srv=$(echo "$s1 - $s0" | bc -l)
t_txn=$(jq .committed "$tmp/tpcc.json")

mariadb --no-defaults -S "$sock" -e "CREATE DATABASE sbtest"
sb=(sysbench oltp_read_write --db-driver=mysql --mysql-socket="$sock" --mysql-user=root --mysql-db=sbtest
    --tables=4 --table-size=25000 --threads="$users")
"${sb[@]}" prepare >"$tmp/sb-prepare.out"
s0=$(cpu_s "$server_pid")
/usr/bin/time -f '%U %S' -o "$tmp/sb.time" "${sb[@]}" --time="$secs" run >"$tmp/sb.out"
s1=$(cpu_s "$server_pid")
s_txn=$(awk '/transactions:/ { print $2 }' "$tmp/sb.out")
s_tps=$(awk '/transactions:/ { gsub(/\(/, "", $3); print $3 }' "$tmp/sb.out")
s_cpu=$(client_cpu "$tmp/sb.time")
s_srv=$(echo "$s1 - $s0" | bc -l)

printf '%-26s %10s %12s %12s %14s %16s %16s\n' driver tps "client CPU s" "server CPU s" "client/server" \
    "client us/txn" "server us/txn"
row() {
    printf '%-26s %10.1f %12.2f %12.2f %13.1f%% %16.0f %16.0f\n' "$1" "$2" "$3" "$4" \
        "$(echo "100 * $3 / $4" | bc -l)" "$(echo "1000000 * $3 / $5" | bc -l)" "$(echo "1000000 * $4 / $5" | bc -l)"
}
row "rtvirt-tpcc ($scale)" "$t_tps" "$t_cpu" "$t_srv" "$t_txn"
row "sysbench oltp_read_write" "$s_tps" "$s_cpu" "$s_srv" "$s_txn"
printf 'rtvirt-tpcc NOPM %.0f (test mode, not tpmC%s)\n' "$t_nopm" "$([ "$scale" = standard ] || echo '; NON-STANDARD scale')"
echo "target: rtvirt-tpcc under 10 % of the server's CPU"
