#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/t-guest-cases.sh: `rtvirt guest check FILE.xml --root DIR` on the
# domains of tests/data/guest-check/cases/CASE/, each judged on a fixture
# host built from its host.conf.  A case directory holds:
#   domain.xml  the domain as the report shows it (or its corrected variant)
#   host.conf   "cpus = N" (one package, N cores, no SMT) and
#               "isolated = LIST" (/sys/devices/system/cpu/isolated),
#               optionally "hugepages = SIZEkB:NR ..." (the host's pools,
#               /sys/kernel/mm/hugepages/hugepages-SIZEkB/nr_hugepages),
#               optionally "nodes = LIST LIST ..." (NUMA node N's CPUs,
#               /sys/devices/system/node/nodeN/cpulist) and
#               "node-hugepages = N:SIZEkB:NR ..." (node N's pools)
#   verdict     the worst level the report must reach (PASS NOTE WARN FAIL)
#   must        "LEVEL ID" lines that must be among the findings, "NONE ID"
#               lines for ids that must not appear at all
#   source.txt  where the case comes from (a field case's note)
#   files.dump  optional: `grep -H` lines "/path:value" written into the
#               root after host.conf (a path repeated appends a line): a
#               libvirt status file /run/libvirt/qemu/NAME.xml and the
#               /proc of its threads make the domain a running one
# TAP.
set -u
rtvirt=${RV_BUILD:?}/rtvirt
top=${RV_TOP:?}
. "${RV_TOP:?}/tests/tap.sh"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cases=$(find "$top/tests/data/guest-check/cases" -mindepth 1 -maxdepth 1 -type d | LC_ALL=C sort)
total=0
for d in $cases; do total=$((total + 1 + $(grep -c . "$d/must"))); done
echo "1..$total"

# host.conf -> a sysfs root: CPUs 0..N-1, one package, one thread per core
make_root() {
    local conf=$1 root=$2 cpus iso last c
    cpus=$(sed -n 's/^cpus *= *//p' "$conf")
    iso=$(sed -n 's/^isolated *= *//p' "$conf")
    last=$((cpus - 1))
    mkdir -p "$root/sys/devices/system/cpu/smt"
    for f in online possible present; do echo "0-$last" >"$root/sys/devices/system/cpu/$f"; done
    echo >"$root/sys/devices/system/cpu/offline"
    echo "$iso" >"$root/sys/devices/system/cpu/isolated"
    for hp in $(sed -n 's/^hugepages *= *//p' "$conf"); do
        mkdir -p "$root/sys/kernel/mm/hugepages/hugepages-${hp%%:*}"
        echo "${hp#*:}" >"$root/sys/kernel/mm/hugepages/hugepages-${hp%%:*}/nr_hugepages"
        echo "${hp#*:}" >"$root/sys/kernel/mm/hugepages/hugepages-${hp%%:*}/free_hugepages"
    done
    local node=0 nodes=() list
    for list in $(sed -n 's/^nodes *= *//p' "$conf"); do
        mkdir -p "$root/sys/devices/system/node/node$node"
        echo "$list" >"$root/sys/devices/system/node/node$node/cpulist"
        nodes+=("$node"); node=$((node + 1))
    done
    [ ${#nodes[@]} -gt 0 ] && echo "0-$((node - 1))" >"$root/sys/devices/system/node/online"
    for hp in $(sed -n 's/^node-hugepages *= *//p' "$conf"); do
        local nd=${hp%%:*} rest=${hp#*:}
        local dir=$root/sys/devices/system/node/node$nd/hugepages/hugepages-${rest%%:*}
        mkdir -p "$dir"
        echo "${rest#*:}" >"$dir/nr_hugepages"; echo "${rest#*:}" >"$dir/free_hugepages"
    done
    echo notsupported >"$root/sys/devices/system/cpu/smt/control"
    echo 0 >"$root/sys/devices/system/cpu/smt/active"
    for c in $(seq 0 "$last"); do
        local t=$root/sys/devices/system/cpu/cpu$c/topology
        mkdir -p "$t"
        echo 0 >"$t/physical_package_id"; echo 0 >"$t/die_id"; echo "$c" >"$t/core_id"
        echo "$c" >"$t/thread_siblings_list"; echo "0-$last" >"$t/core_siblings_list"
    done
}

# files.dump -> files under the root, a repeated path appending
apply_dump() {
    local dump=$1 root=$2 line path value
    declare -A seen=()
    while IFS= read -r line; do
        case $line in '#'*|'') continue ;; esac
        path=${line%%:*} value=${line#*:}
        mkdir -p "$root$(dirname "$path")"
        if [ -n "${seen[$path]:-}" ]; then printf '%s\n' "$value" >>"$root$path"
        else printf '%s\n' "$value" >"$root$path"; seen[$path]=1; fi
    done <"$dump"
}

for d in $cases; do
    name=$(basename "$d")
    root=$tmp/$name
    make_root "$d/host.conf" "$root"
    [ -f "$d/files.dump" ] && apply_dump "$d/files.dump" "$root"
    "$rtvirt" guest check "$d/domain.xml" --root "$root" >"$tmp/out" 2>"$tmp/err"
    got=$(tail -n1 "$tmp/out" | sed -n 's/^\([A-Z]*\): .*/\1/p')
    want=$(cat "$d/verdict")
    [ "$got" = "$want" ] && ok "$name: verdict $want" || nok "$name: verdict '$got', wanted '$want': $(cat "$tmp/out" "$tmp/err")"
    while read -r level id; do
        [ -n "$level" ] || continue
        if [ "$level" = NONE ]; then
            grep -q "^[A-Z]*  $id: " "$tmp/out" && nok "$name: $id must not appear: $(grep "  $id: " "$tmp/out")" \
                || ok "$name: no $id"
        else
            grep -q "^$level  $id: " "$tmp/out" && ok "$name: $level $id" \
                || nok "$name: no $level $id in: $(cat "$tmp/out")"
        fi
    done <"$d/must"
done
exit $fail
