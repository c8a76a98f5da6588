#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/t-tpcc-mariadb.sh: rtvirt-tpcc against a real mariadbd (Debian's
# mariadb-server) started here in a temporary data directory
# (mariadb-install-db) on a private socket, networking off; stopped always.
#  - load 1 warehouse --scale small: the row counts of clause 4.3.3.1 (at
#    that scale), ORIGINAL in about 10 % of I_DATA, C_LAST of the first
#    customers from the syllables, tpcc_meta;
#  - run 20 s with 2 users: exit 0, non-standard marked in every output,
#    no figure called tpmC, the JSON document (schema_version 1);
#  - the consistency conditions 1-10 of clause 3.3.2 after the load and
#    after the run; the committed New-Orders the JSON counts against those
#    in the database; the mix within 1 % (absolute) of the targets;
#  - bad input, a refused connection (exit 2, the socket named, the JSON
#    with the reason), a missing database, a database without the schema,
#    another scale, more warehouses than loaded: exit 2 with the reason;
#  - the server killed mid-run: exit 2, "lost the connection", the JSON
#    keeps what was measured until then.
set -u
tpcc=${RV_BUILD:?}/rtvirt-tpcc
. "${RV_TOP:?}/tests/tap.sh"

mariadbd=/usr/sbin/mariadbd
if [ ! -x "$mariadbd" ] || ! command -v mariadb-install-db >/dev/null || ! command -v jq >/dev/null; then
    echo "1..0 # SKIP mariadbd, mariadb-install-db or jq missing (make deps installs mariadb-server, jq)"
    exit 0
fi
tmp=$(mktemp -d)
sock=$tmp/mysqld.sock
server_pid=
stop_server() {
    if [ -n "$server_pid" ] && kill -0 "$server_pid" 2>/dev/null; then
        kill "$server_pid"
        for _ in $(seq 100); do kill -0 "$server_pid" 2>/dev/null || break; sleep 0.2; done
        kill -9 "$server_pid" 2>/dev/null
    fi
    server_pid=
}
trap 'stop_server; rm -rf "$tmp"' EXIT

echo "1..30"

me=$(id -un)
if ! mariadb-install-db --no-defaults --user="$me" --datadir="$tmp/data" --auth-root-authentication-method=normal \
        --skip-test-db >"$tmp/install.log" 2>&1; then
    echo "Bail out! mariadb-install-db failed: $(tail -3 "$tmp/install.log" | tr '\n' ' ')"
    exit 1
fi
"$mariadbd" --no-defaults --user="$me" --datadir="$tmp/data" --socket="$sock" --skip-networking \
    --pid-file="$tmp/mysqld.pid" --log-error="$tmp/mysqld.err" --skip-grant-tables \
    --innodb-buffer-pool-size=128M --innodb-log-file-size=64M --innodb-flush-log-at-trx-commit=2 \
    >"$tmp/mysqld.out" 2>&1 &
server_pid=$!
for _ in $(seq 300); do
    [ -S "$sock" ] && break
    kill -0 "$server_pid" 2>/dev/null || break
    sleep 0.2
done
if [ ! -S "$sock" ]; then
    echo "Bail out! mariadbd did not start: $(tail -5 "$tmp/mysqld.err" | tr '\n' ' ')"
    exit 1
fi
sql() { mariadb --no-defaults -S "$sock" -N -B tpcc -e "$1"; }
conn=(--socket "$sock" --scale small)

# ---- load
"$tpcc" load "${conn[@]}" --warehouses 1 --threads 2 --seed 1 >"$tmp/load.out" 2>"$tmp/load.err"; rc=$?
check "load 1 warehouse --scale small: exit 0, rows and seconds reported, NON-STANDARD ($(tail -1 "$tmp/load.out"))" \
    eval '[ $rc -eq 0 ] && grep -q "rows in [0-9.]* s" "$tmp/load.out" && [ $(grep -c NON-STANDARD "$tmp/load.out") -eq 2 ]'
counts=$(sql "SELECT (SELECT COUNT(*) FROM item), (SELECT COUNT(*) FROM stock), (SELECT COUNT(*) FROM warehouse),
    (SELECT COUNT(*) FROM district), (SELECT COUNT(*) FROM customer), (SELECT COUNT(*) FROM history),
    (SELECT COUNT(*) FROM orders), (SELECT COUNT(*) FROM new_order), (SELECT MIN(no_o_id) FROM new_order),
    (SELECT COUNT(*) FROM orders WHERE o_carrier_id IS NULL)" | tr '\t' ' ')
check "row counts at scale small: items, stock, 1 warehouse, 10 districts, 3000 customers/history/orders, 900 new orders from O_ID 211 ($counts)" \
    [ "$counts" = "10000 10000 1 10 3000 3000 3000 900 211 900" ]
orig=$(sql "SELECT SUM(i_data LIKE '%ORIGINAL%'), SUM(s_data LIKE '%ORIGINAL%') FROM item JOIN stock ON s_i_id=i_id")
check "ORIGINAL in about 10 % of I_DATA and S_DATA ($orig of 10000)" \
    eval 'set -- $orig; [ $1 -ge 800 ] && [ $1 -le 1200 ] && [ $2 -ge 800 ] && [ $2 -le 1200 ]'
names=$(sql "SELECT c_last FROM customer WHERE c_w_id=1 AND c_d_id=3 AND c_id IN (1, 41, 100) ORDER BY c_id" | tr '\n' ' ')
check "C_LAST of customers 1, 41, 100 from the syllables ($names)" [ "$names" = "BARBARBAR BARPRESBAR BAREINGEING " ]
meta=$(sql "SELECT scale, warehouses, complete FROM tpcc_meta" | tr '\t' ' ')
check "tpcc_meta records the scale and the warehouses ($meta)" [ "$meta" = "small 1 1" ]
engines=$(sql "SELECT COUNT(*) FROM information_schema.tables WHERE table_schema='tpcc' AND engine='InnoDB'")
check "ten InnoDB tables (nine TPC-C and tpcc_meta): $engines" [ "$engines" = 10 ]

consistency() {
    local bad
    bad=$(sql "SELECT
      (SELECT COUNT(*) FROM warehouse WHERE w_ytd <> (SELECT SUM(d_ytd) FROM district WHERE d_w_id=w_id)),
      (SELECT COUNT(*) FROM district WHERE d_next_o_id - 1 <> (SELECT MAX(o_id) FROM orders WHERE o_w_id=d_w_id AND o_d_id=d_id)
           OR d_next_o_id - 1 <> (SELECT MAX(no_o_id) FROM new_order WHERE no_w_id=d_w_id AND no_d_id=d_id)),
      (SELECT COUNT(*) FROM district WHERE (SELECT COUNT(*) - (MAX(no_o_id) - MIN(no_o_id) + 1) FROM new_order
           WHERE no_w_id=d_w_id AND no_d_id=d_id) <> 0),
      (SELECT COUNT(*) FROM district WHERE (SELECT SUM(o_ol_cnt) FROM orders WHERE o_w_id=d_w_id AND o_d_id=d_id)
           <> (SELECT COUNT(*) FROM order_line WHERE ol_w_id=d_w_id AND ol_d_id=d_id))" | tr '\t' ' ')
    check "$1: clause 3.3.2 consistency conditions 1-4 hold (violations per condition: $bad)" [ "$bad" = "0 0 0 0" ]
    bad=$(sql "SELECT
      (SELECT COUNT(*) FROM district WHERE (SELECT COUNT(*) FROM orders WHERE o_w_id=d_w_id AND o_d_id=d_id AND o_carrier_id IS NULL)
           <> (SELECT COUNT(*) FROM new_order WHERE no_w_id=d_w_id AND no_d_id=d_id)),
      (SELECT COUNT(*) FROM orders WHERE o_ol_cnt <> (SELECT COUNT(*) FROM order_line WHERE ol_w_id=o_w_id AND ol_d_id=o_d_id AND ol_o_id=o_id)),
      (SELECT COUNT(*) FROM orders JOIN order_line ON ol_w_id=o_w_id AND ol_d_id=o_d_id AND ol_o_id=o_id
           WHERE (o_carrier_id IS NULL) <> (ol_delivery_d IS NULL)),
      (SELECT COUNT(*) FROM warehouse WHERE w_ytd <> (SELECT SUM(h_amount) FROM history WHERE h_w_id=w_id)),
      (SELECT COUNT(*) FROM district WHERE d_ytd <> (SELECT SUM(h_amount) FROM history WHERE h_w_id=d_w_id AND h_d_id=d_id)),
      (SELECT COUNT(*) FROM customer LEFT JOIN
           (SELECT o_w_id, o_d_id, o_c_id, SUM(ol_amount) AS delivered FROM orders JOIN order_line
            ON ol_w_id=o_w_id AND ol_d_id=o_d_id AND ol_o_id=o_id WHERE ol_delivery_d IS NOT NULL GROUP BY o_w_id, o_d_id, o_c_id) o
           ON o_w_id=c_w_id AND o_d_id=c_d_id AND o_c_id=c_id
           LEFT JOIN (SELECT h_c_w_id, h_c_d_id, h_c_id, SUM(h_amount) AS paid FROM history GROUP BY h_c_w_id, h_c_d_id, h_c_id) h
           ON h_c_w_id=c_w_id AND h_c_d_id=c_d_id AND h_c_id=c_id
           WHERE c_balance <> COALESCE(delivered, 0) - COALESCE(paid, 0))" | tr '\t' ' ')
    check "$1: clause 3.3.2 consistency conditions 5-10 hold (violations per condition: $bad)" [ "$bad" = "0 0 0 0 0 0" ]
}
consistency "after the load"
no_before=$(sql "SELECT SUM(d_next_o_id) FROM district")

# ---- run
"$tpcc" run "${conn[@]}" --users 2 --duration 20 --warmup 0 --json "$tmp/run.json" >"$tmp/run.out" 2>"$tmp/run.err"; rc=$?
check "run 2 users 20 s: exit 0 ($(tail -1 "$tmp/run.err"))" [ $rc -eq 0 ]
check "one line per second, each marked NON-STANDARD ($(grep -c '^ *[0-9]*s ' "$tmp/run.out") lines)" \
    eval '[ $(grep -c "^ *[0-9]*s .*tps .*new-orders .*errors .*NON-STANDARD" "$tmp/run.out") -ge 20 ] && ! grep "^ *[0-9]*s " "$tmp/run.out" | grep -vq NON-STANDARD'
check "the summary: NOPM, TPM, tps, five types with p50..max, deadlocks, rollbacks; test mode said; NON-STANDARD" \
    eval 'grep -q "NOPM [0-9]* *TPM [0-9]* *tps [0-9.]*" "$tmp/run.out" && grep -q "test mode" "$tmp/run.out" &&
          [ $(grep -cE "^  (New-Order|Payment|Order-Status|Delivery|Stock-Level) +[0-9]+ +[0-9.]+% +[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9.]+$" "$tmp/run.out") -eq 5 ] &&
          grep -q "deadlocks (retried) [0-9]*.*rollbacks.* [0-9]*" "$tmp/run.out" && grep -q "NOPM.*NON-STANDARD" "$tmp/run.out"'
check "no figure is called tpmC (only 'not tpmC')" eval '! grep -v "not tpmC" "$tmp/run.out" "$tmp/run.json" | grep -qi tpmc'
check "JSON: schema_version 1, completed, no error, scale small marked non-standard, 2 users, about 20 s measured ($(jq -c '[.schema_version, .completed, .measured_s]' "$tmp/run.json"))" \
    eval 'jq -e ".schema_version == 1 and .completed == true and .error == null and .scale == \"small\" and .standard_scale == false and (.note | test(\"NON-STANDARD\")) and .users == 2 and .measured_s >= 19.5 and .measured_s < 25" "$tmp/run.json" >/dev/null'
check "JSON: NOPM = new_orders per measured minute, TPM = committed per minute, latencies ordered p50 <= p90 <= p95 <= p99 <= max" \
    eval 'jq -e "(.nopm - .new_orders * 60 / .measured_s | fabs) < 0.01 and (.tpm - .committed * 60 / .measured_s | fabs) < 0.01 and
          ([.transactions[] | .latency_ms | .p50 <= .p90 and .p90 <= .p95 and .p95 <= .p99 and .p99 <= .max] | all) and
          .committed > 0 and .committed == ([.transactions[].count] | add) - .rollbacks" "$tmp/run.json" >/dev/null'
check "JSON: the run's C_LAST constant differs from the load's by an allowed delta ($(jq -c .nurand_c "$tmp/run.json"))" \
    eval 'jq -e ".nurand_c | (.c_last_run - .c_last_load | fabs) as \$d | \$d >= 65 and \$d <= 119 and \$d != 96 and \$d != 112 and .c_last_load == $(sql "SELECT c_last_load FROM tpcc_meta")" "$tmp/run.json" >/dev/null'
mix=$(jq -r '[.transactions | to_entries[] | "\(.key)=\(.value.share * 1000 | round / 10)%"] | join(" ")' "$tmp/run.json")
check "the mix over the run within 1 % of the targets ($mix of $(jq '[.transactions[].count] | add' "$tmp/run.json") transactions)" \
    eval 'jq -e "[.transactions[] | (.share - .target_share | fabs) <= 0.01] | all" "$tmp/run.json" >/dev/null'
no_db=$(( $(sql "SELECT SUM(d_next_o_id) FROM district") - no_before ))
no_json=$(jq .new_orders "$tmp/run.json")
check "committed New-Orders: $no_json counted, $no_db in the database (at most one in flight per user at the end)" \
    eval '[ $no_db -ge $no_json ] && [ $no_db -le $((no_json + 2)) ] && [ $no_json -gt 0 ]'
consistency "after the run"

# ---- bad input and failures
"$tpcc" run "${conn[@]}" --duration 5x >/dev/null 2>"$tmp/err"; rc=$?
check "--duration 5x: exit 2 naming the value ($(cat "$tmp/err"))" eval '[ $rc -eq 2 ] && grep -q "5x" "$tmp/err"'
"$tpcc" run "${conn[@]}" --users 0 >/dev/null 2>"$tmp/err"; rc=$?
check "--users 0: exit 2 ($(cat "$tmp/err"))" eval '[ $rc -eq 2 ] && grep -q "users 0" "$tmp/err"'
"$tpcc" run "${conn[@]}" --duration 20 --json "$tmp/no/such/dir/run.json" >/dev/null 2>"$tmp/err"; rc=$?
check "--json into a missing directory: exit 2 before measuring, naming it ($(cat "$tmp/err"))" \
    eval '[ $rc -eq 2 ] && grep -q "directory .*no/such/dir. does not exist" "$tmp/err" && ! grep -q "NOPM" "$tmp/err"'
"$tpcc" run --socket "$tmp/no.sock" --scale small --duration 5 --json "$tmp/refused.json" >/dev/null 2>"$tmp/err"; rc=$?
check "refused connection: exit 2 naming the socket ($(cat "$tmp/err"))" eval '[ $rc -eq 2 ] && grep -q "unix socket $tmp/no.sock" "$tmp/err"'
check "refused connection: the JSON says why, nothing measured" \
    eval 'jq -e ".completed == false and (.error | test(\"no.sock\")) and .committed == 0" "$tmp/refused.json" >/dev/null'
"$tpcc" run "${conn[@]}" --database nosuch --duration 5 >/dev/null 2>"$tmp/err"; rc=$?
check "missing database: exit 2 naming it ($(cat "$tmp/err"))" eval '[ $rc -eq 2 ] && grep -q "nosuch" "$tmp/err"'
sql "CREATE DATABASE empty_db"
"$tpcc" run "${conn[@]}" --database empty_db --duration 5 >/dev/null 2>"$tmp/err"; rc=$?
check "database without the schema: exit 2, 'run rtvirt-tpcc load first' ($(cat "$tmp/err"))" \
    eval '[ $rc -eq 2 ] && grep -q "unix socket $sock: no rtvirt-tpcc schema" "$tmp/err" && grep -q "load. first" "$tmp/err"'
"$tpcc" run --socket "$sock" --scale standard --duration 5 >/dev/null 2>"$tmp/err"; rc=$?
check "schema of another scale: exit 2 ($(cat "$tmp/err"))" eval '[ $rc -eq 2 ] && grep -q "scale .small." "$tmp/err"'
"$tpcc" run "${conn[@]}" --warehouses 2 --duration 5 >/dev/null 2>"$tmp/err"; rc=$?
check "more warehouses than loaded: exit 2 ($(cat "$tmp/err"))" eval '[ $rc -eq 2 ] && grep -q "holds 1 warehouse" "$tmp/err"'

# ---- the server goes away mid-run (last: it ends the server)
"$tpcc" run "${conn[@]}" --users 2 --duration 120 --warmup 0 --json - >"$tmp/lost.json" 2>"$tmp/lost.err" &
drv=$!
for _ in $(seq 300); do grep -q '^ *3s ' "$tmp/lost.err" && break; sleep 0.2; done
kill -9 "$server_pid"
wait "$server_pid" 2>/dev/null
server_pid=
for _ in $(seq 300); do kill -0 "$drv" 2>/dev/null || break; sleep 0.2; done
kill -0 "$drv" 2>/dev/null && kill "$drv"
wait "$drv"; rc=$?
check "server killed mid-run: exit 2, the server and the lost connection named ($(grep 'rtvirt-tpcc: Maria' "$tmp/lost.err" | cut -c1-200))" \
    eval '[ $rc -eq 2 ] && grep -q "^rtvirt-tpcc: MariaDB at unix socket $sock: .* failed: lost the connection" "$tmp/lost.err"'
check "server killed mid-run: the JSON on stdout keeps what was measured, with the reason ($(jq -c '[.completed, .measured_s, .committed]' "$tmp/lost.json"))" \
    eval 'jq -e ".completed == false and (.error | test(\"lost the connection\")) and .measured_s > 0 and .committed > 0 and (.per_second | length) >= 3" "$tmp/lost.json" >/dev/null'
