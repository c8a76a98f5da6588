#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/stress/guest-check-captures.sh BUILD [N]: `guest check DOMAIN --root
# CAPTURE` on captures taken about every second while a guest boots, runs
# and ends, so that libvirt's status files and QEMU's threads change under
# `host capture` (a domain still starting has a status file without its
# vCPUs' thread ids).  Run it with a sanitizer build (make SANITIZE=1
# O=build-san) as root, under flock /tmp/rtvirt-live.lock; it boots the
# rt-demo guest for 40 s under libvirt.  Prints the exit-code histogram and
# copies every sanitizer report or signal death to /tmp/capstress/bad.N;
# exits 1 when there is one.  Not part of make check (it needs a guest and
# a minute); it found the SIGSEGV that test-guest-check's status-file test
# now covers.
set -u
build=${1:?usage: tests/stress/guest-check-captures.sh BUILD [N]}
n=${2:-60}
rt=$build/rtvirt
out=/tmp/capstress; rm -rf $out; mkdir -p $out
"$rt" guest run rt-demo --duration 40s --name rtvirt-capstress >$out/run.log 2>&1 &
g=$!
i=0; bad=0
declare -A rcs
while kill -0 $g 2>/dev/null && [ $i -lt "$n" ]; do
    i=$((i + 1)); c=$out/cap$i
    "$rt" host capture "$c" >/dev/null 2>&1
    for d in $(ls "$c/run/libvirt/qemu/" 2>/dev/null | sed -n 's/\.xml$//p'); do
        ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
            "$rt" guest check "$d" --root "$c" >/dev/null 2>$out/err; rc=$?
        rcs[$rc]=$(( ${rcs[$rc]:-0} + 1 ))
        if [ $rc -ge 128 ] || grep -q 'Sanitizer\|runtime error' $out/err; then
            bad=$((bad + 1)); cp $out/err $out/bad.$bad; echo "bad: $d $c rc=$rc"
        fi
    done
    rm -rf "$c"
done
wait $g
echo "captures: $i"
for k in "${!rcs[@]}"; do echo "exit $k: ${rcs[$k]}"; done
echo "sanitizer reports or signals: $bad"
[ $bad -eq 0 ]
