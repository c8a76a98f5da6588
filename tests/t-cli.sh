#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/t-cli.sh: the command-line contract of doc/cli.md, for every command
# of the command table (from the hidden `rtvirt --list-commands`, the same
# table `rtvirt --help` prints, so a new command is covered without an edit
# here): help CMD == CMD --help, --help ends with the exit statuses, the
# common options mean one thing, a bad option is exit 2, every --json
# parses and carries schema_version; --version; plain rtvirt; and the
# installed layout (make install DESTDIR=... PREFIX=/usr, run from outside
# the source tree, relocated, make uninstall).
set -u
rtvirt=${RV_BUILD:?}/rtvirt
top=${RV_TOP:?}
. "${RV_TOP:?}/tests/tap.sh"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fixture=$top/tests/data/hosts/debian12-2cpu-nosmt-rtgroup
command -v jq >/dev/null || skip_all "jq is not installed"

mapfile -t cmds < <("$rtvirt" --list-commands)
"$rtvirt" --help >"$tmp/top-help"

# --- the top level -----------------------------------------------------
"$rtvirt" >"$tmp/out" 2>"$tmp/err"; rc=$?
check "plain rtvirt: usage on stderr, nothing on stdout, exit 2 ($rc)" \
    eval '[ $rc -eq 2 ] && [ ! -s "$tmp/out" ] && grep -q "^Usage: rtvirt" "$tmp/err"'
check "the command table lists ${#cmds[@]} commands, each in rtvirt --help" \
    eval '[ ${#cmds[@]} -ge 14 ] && for c in "${cmds[@]}"; do grep -q "^  $c  " "$tmp/top-help" || exit 1; done'
check "rtvirt --help ends with the exit statuses" eval 'tail -n1 "$tmp/top-help" | grep -q "^Exit status: 0 "'
"$rtvirt" help >"$tmp/h" 2>&1
check "rtvirt help == rtvirt --help" cmp -s "$tmp/h" "$tmp/top-help"
"$rtvirt" help help >"$tmp/h" 2>&1; rc=$?
check "rtvirt help help == rtvirt --help ($rc)" eval '[ $rc -eq 0 ] && cmp -s "$tmp/h" "$tmp/top-help"'
for a in "--help extra" "--version extra" "help run extra"; do
    # shellcheck disable=SC2086
    "$rtvirt" $a >/dev/null 2>"$tmp/err"; rc=$?
    check "rtvirt $a: an extra argument is exit 2 ($rc), named" eval '[ $rc -eq 2 ] && grep -q "extra" "$tmp/err"'
done
"$rtvirt" --no-such-option >/dev/null 2>"$tmp/err"; rc=$?
check "rtvirt --no-such-option: exit 2 ($rc)" eval '[ $rc -eq 2 ] && grep -q "no-such-option" "$tmp/err"'
release=$(sed -n 's/^RV_RELEASE := //p' "$top/Makefile")
v=$("$rtvirt" --version)
check "--version '$v': the Makefile's release ($release), plus the git hash when built from git" \
    eval '[[ $v =~ ^rtvirt\ ${release//./\\.}(\ \(git\ [0-9a-f]+(-[0-9]+-g[0-9a-f]+)?(-dirty)?\))?$ ]] && [ "$release" = 0.3.0 ]'
for g in host guest result; do
    "$rtvirt" help $g >"$tmp/a" 2>&1; "$rtvirt" $g --help >"$tmp/b" 2>&1
    check "rtvirt help $g == rtvirt $g --help, ends with exit statuses" \
        eval 'cmp -s "$tmp/a" "$tmp/b" && tail -n1 "$tmp/a" | grep -q "^Exit status:"'
done

# --- every command ------------------------------------------------------
for c in "${cmds[@]}"; do
    # shellcheck disable=SC2086
    "$rtvirt" $c --help >"$tmp/help" 2>"$tmp/err"; rc=$?
    # shellcheck disable=SC2086
    "$rtvirt" help $c >"$tmp/help2" 2>&1; rc2=$?
    check "$c: --help exit 0, rtvirt help $c prints the same" \
        eval '[ $rc -eq 0 ] && [ $rc2 -eq 0 ] && [ -s "$tmp/help" ] && cmp -s "$tmp/help" "$tmp/help2"'
    # the last paragraph is the exit statuses
    last=$(awk 'BEGIN { RS = "" } { p = $0 } END { print p }' "$tmp/help")
    check "$c: --help ends with its exit statuses (${last:0:60}...)" \
        eval '[[ $last == "Exit status: "* ]] && grep -q "[0-9]" <<<"$last"'
    # common options: one spelling, one meaning, in every command
    check "$c: -v/--verbose and -q/--quiet" \
        eval 'grep -q "^  -v, --verbose " "$tmp/help" && grep -q "^  -q, --quiet " "$tmp/help"'
    bad=""
    grep -q -- "--json=" "$tmp/help" && bad+=" --json takes an argument;"
    grep -q -- "-d, " "$tmp/help" && ! grep -q -- "^  -d, --duration=TIME " "$tmp/help" && bad+=" -d is not --duration;"
    grep -q -- "--duration" "$tmp/help" && ! grep -q -- "^  -d, --duration=TIME " "$tmp/help" && bad+=" --duration without -d;"
    grep -q -- "-H, " "$tmp/help" && ! grep -q -- "^  -H, --host-profile=PROFILE " "$tmp/help" && bad+=" -H is not --host-profile;"
    grep -q -- "--root" "$tmp/help" && ! grep -q -- "^  --root=DIR " "$tmp/help" && bad+=" --root is not --root=DIR;"
    grep -q -- "-o, " "$tmp/help" && ! grep -q -- "^  -o, --output=" "$tmp/help" && bad+=" -o is not --output;"
    grep -q -- "--out\b" "$tmp/help" && bad+=" --out shown (it is the hidden old spelling of --output);"
    check "$c: common options with their one meaning${bad:+:$bad}" [ -z "$bad" ]
    # shellcheck disable=SC2086
    "$rtvirt" $c --no-such-option >"$tmp/out" 2>"$tmp/err"; rc=$?
    check "$c: a bad option is exit 2 ($rc), named on stderr" \
        eval '[ $rc -eq 2 ] && grep -q "no-such-option" "$tmp/err"'
    # shellcheck disable=SC2086
    "$rtvirt" $c -q -v >"$tmp/out" 2>"$tmp/err"; rc=$?
    check "$c: -q with -v is exit 2 ($rc)" [ $rc -eq 2 ]
    if grep -q -- "^  --json " "$tmp/help" && [ "$c" != pert ]; then
        # shellcheck disable=SC2086
        ( cd "$tmp" && "$rtvirt" $c --json=out.json >"$tmp/out" 2>"$tmp/err" ); rc=$?
        check "$c: --json=FILE is exit 2 ($rc), no file written (--json is stdout only)" \
            eval '[ $rc -eq 2 ] && [ ! -e "$tmp/out.json" ] && grep -q "takes no value" "$tmp/err"'
    fi
    if grep -q -- "^  --root=DIR " "$tmp/help"; then
        # shellcheck disable=SC2086
        "$rtvirt" $c --root "" >"$tmp/out" 2>"$tmp/err"; rc=$?
        check "$c: --root '' (an unset variable) is exit 2 ($rc), never the live host" \
            eval '[ $rc -eq 2 ] && grep -q "empty directory name" "$tmp/err"'
    fi
    grep -q -- "^  --json " "$tmp/help" && echo "$c" >>"$tmp/json-cmds"
done

# --- --json: one document with schema_version, per command --------------
# Every command whose --help lists --json needs a case here (or a SKIP that
# says why), else the test fails: a new --json is covered or noticed.
cpu=$(( $(nproc) - 1 ))
mkdir -p "$tmp/rwroot" && cp -a "$fixture/." "$tmp/rwroot/"
"$rtvirt" guest xml rt-demo --root "$fixture" --kernel /k --initrd /i >"$tmp/dom.xml" 2>/dev/null
json_case() {
    case $1 in
    "host show") "$rtvirt" host show --root "$fixture" --json ;;
    "host check") "$rtvirt" host check realtime-virtual-host --root "$fixture" --json ;;
    "host capture") "$rtvirt" host capture --root "$fixture" "$tmp/cap" --json ;;
    "host apply") "$rtvirt" host apply two-cpu --dry-run --root "$fixture" --json ;;
    "host revert") "$rtvirt" host revert --root "$tmp/rwroot" --json ;;
    "host bootargs") "$rtvirt" host bootargs realtime-virtual-host --root "$fixture" --json ;;
    "guest xml") "$rtvirt" guest xml rt-demo --root "$fixture" --kernel /k --initrd /i --json ;;
    "guest xml --check") "$rtvirt" guest xml --check "$tmp/dom.xml" --root "$fixture" --json ;;
    "guest check") "$rtvirt" guest check "$tmp/dom.xml" --root "$fixture" --json ;;
    "run") "$rtvirt" run demo --plan --root "$fixture" --json ;;
    "compare") "$rtvirt" compare "$top"/tests/data/compare/welch/*/ --json ;;
    "result check") "$rtvirt" result check --root "$fixture" --budget 100us --json \
        "${RV_CASES:-$top/tests/data/cases}"/cyclictest/lava-cyclictest-2threads-prio48-linaro642.txt ;;
    "pert") "$rtvirt" pert -c "$cpu" -d 1s --json ;;
    "profiles") "$rtvirt" profiles --json ;;
    "rules") "$rtvirt" rules --json ;;
    "status") "$rtvirt" status --root "$fixture" --json ;;
    *) return 200 ;;
    esac
}
# needs libvirt, root or a kernel image: covered by their own live tests
declare -A json_skip=(
    ["guest build"]="builds an image from /boot (t-guest-run.sh)"
    ["guest image"]="builds a disk image with mmdebstrap (t-guest-image.sh)"
    ["guest run"]="boots a guest (t-guest-run.sh)"
    ["setup"]="starts libvirtd (t-guest-run.sh)"
)
mapfile -t jcmds <"$tmp/json-cmds"
for c in "${jcmds[@]}" "guest xml --check"; do
    if [ -n "${json_skip[$c]:-}" ]; then
        ok "# SKIP $c --json: ${json_skip[$c]}"
        continue
    fi
    json_case "$c" >"$tmp/j.json" 2>"$tmp/err"; rc=$?
    if [ $rc -eq 200 ]; then
        nok "$c has --json but no case in tests/t-cli.sh"
        continue
    fi
    sv=$(jq -r 'if type == "object" then .schema_version else "not an object" end' "$tmp/j.json" 2>&1)
    check "$c --json: exit $rc, one JSON object with schema_version ($sv)" \
        eval '[ $rc -le 1 ] && [ "$sv" = 1 ] && [ "$(jq -s length "$tmp/j.json")" = 1 ]'
done
# --json is stdout only: never a file named after the next word
( cd "$tmp" && "$rtvirt" host show --root "$fixture" --json - >/dev/null 2>&1 ); rc=$?
check "host show --json -: '-' is an argument (exit 2), no file '-' written" \
    eval '[ $rc -eq 2 ] && [ ! -e "$tmp/-" ]'

# --- profiles by name ----------------------------------------------------
( cd "$top" && "$rtvirt" profiles ) >"$tmp/prof" 2>&1
check "rtvirt profiles in the source tree lists host, guest and matrix profiles with their source" \
    eval 'grep -q "^host  *realtime-virtual-host .*(source tree)" "$tmp/prof" && grep -q "^guest  *rt-demo " "$tmp/prof" && grep -q "^matrix  *demo " "$tmp/prof"'
check "rtvirt profiles prints each profile's description under it" \
    eval 'grep -A1 "^host  *realtime-virtual-host " "$tmp/prof" | grep -q "^       KVM host for real-time guests" && [ "$("$rtvirt" profiles --json | jq "[.profiles[] | select(.description == null)] | length")" = 0 ]'
# "did you mean", GLib's wording replaced, one prefix
"$rtvirt" hots show >/dev/null 2>"$tmp/err"; rc=$?
check "a mistyped group: exit 2, did you mean 'host'? ($(head -c 120 "$tmp/err"))" \
    eval '[ $rc -eq 2 ] && grep -q "(did you mean .host.?)" "$tmp/err"'
"$rtvirt" host chek >/dev/null 2>"$tmp/err"; rc=$?
check "a mistyped command: did you mean 'check'?" eval '[ $rc -eq 2 ] && grep -q "(did you mean .check.?)" "$tmp/err"'
"$rtvirt" run --plna >/dev/null 2>"$tmp/err"; rc=$?
check "a mistyped option: one prefix, did you mean '--plan'? ($(head -c 120 "$tmp/err"))" \
    eval '[ $rc -eq 2 ] && grep -qx "rtvirt run: unknown option --plna (did you mean .--plan.?); see --help" "$tmp/err"'
( cd "$top" && "$rtvirt" host check realtime-virtual-hots --root "$fixture" ) >/dev/null 2>"$tmp/err"; rc=$?
check "a mistyped profile name: did you mean 'realtime-virtual-host'?" \
    eval '[ $rc -eq 2 ] && grep -q "(did you mean .realtime-virtual-host.?)" "$tmp/err"'
printf '[main]\nsummary = x\nsumary = typo\n' >"$tmp/typo.ini"
( cd "$top/profiles/host" && "$rtvirt" host check "$tmp/typo.ini" --root "$fixture" ) >/dev/null 2>"$tmp/err"; rc=$?
check "a mistyped profile key: file:line, did you mean 'summary'? ($(head -c 160 "$tmp/err"))" \
    eval '[ $rc -eq 2 ] && grep -q "typo.ini:3: unknown key .sumary. in \[main\] (did you mean .summary.?)" "$tmp/err"'
"$rtvirt" pert -c 1-x >/dev/null 2>"$tmp/err"; rc=$?
check "a bad integer: rtvirt's words, not GLib's ($(head -c 120 "$tmp/err"))" \
    eval '[ $rc -eq 2 ] && grep -qx "rtvirt pert: invalid value .1-x. for -c: expected an integer" "$tmp/err"'
( cd "$tmp" && "$rtvirt" host check no-such-profile --root "$fixture" ) >/dev/null 2>"$tmp/err"; rc=$?
check "an unknown profile name: exit 2, the directories searched named" \
    eval '[ $rc -eq 2 ] && grep -q "No host profile named .no-such-profile.* /etc/rtvirt/host" "$tmp/err"'
( cd "$tmp" && "$rtvirt" run no-such-matrix.ini --plan ) >/dev/null 2>"$tmp/err"; rc=$?
check "an unknown profile name with .ini: exit 2, no 'NAME.ini.ini' searched for ($(head -c 200 "$tmp/err"))" \
    eval '[ $rc -eq 2 ] && grep -q "No matrix profile named .no-such-matrix.ini.: not a file, and no no-such-matrix.ini in " "$tmp/err"'
mkdir -p "$tmp/xdg/rtvirt/host"
cp "$top"/profiles/host/*.ini "$tmp/xdg/rtvirt/host/"   # two-cpu includes the others
cp "$top/profiles/host/two-cpu.ini" "$tmp/xdg/rtvirt/host/mine.ini"
( cd "$tmp" && XDG_CONFIG_HOME=$tmp/xdg "$rtvirt" host bootargs mine --root "$fixture" ) >"$tmp/out" 2>"$tmp/err"; rc=$?
check "a profile name found in \$XDG_CONFIG_HOME/rtvirt ($rc: $(head -c 80 "$tmp/out"))" \
    eval '[ $rc -eq 0 ] && grep -q "isolcpus=" "$tmp/out"'

# --- the man page names every RTVIRT_* variable the code reads -----------
undoc=""
for v in $(grep -rho 'getenv *("RTVIRT_[A-Z_]*")' --include=*.c "$top"/util "$top"/host "$top"/guest \
           "$top"/results "$top"/harness | grep -o 'RTVIRT_[A-Z_]*' | sort -u); do
    sed -n '/^\.SH ENVIRONMENT/,/^\.SH /p' "$top/doc/rtvirt.1" | grep -q "^\.B $v\$" || undoc+=" $v"
done
check "rtvirt(1) ENVIRONMENT names every RTVIRT_* variable read${undoc:+ (missing:$undoc)}" [ -z "$undoc" ]
for s in ENVIRONMENT EXAMPLES FILES; do
    check "rtvirt(1) has a $s section" grep -q "^\.SH $s\$" "$top/doc/rtvirt.1"
done

# --- the installed layout -------------------------------------------------
stage=$tmp/stage
make -s -C "$top" O="$RV_BUILD" install DESTDIR="$stage" PREFIX=/usr >"$tmp/inst" 2>&1; rc=$?
check "make install DESTDIR=stage PREFIX=/usr: exit $rc" [ $rc -eq 0 ]
missing=""
for f in usr/bin/rtvirt usr/bin/rtvirt-pert usr/share/man/man1/rtvirt.1 \
         usr/share/man/man5/rtvirt-profiles.5 usr/share/bash-completion/completions/rtvirt \
         usr/share/rtvirt/profiles/host/realtime-virtual-host.ini \
         usr/share/rtvirt/profiles/guests/rt-demo.ini usr/share/rtvirt/profiles/matrix/demo.ini; do
    [ -e "$stage/$f" ] || missing+=" $f"
done
check "installed: binaries, man pages, completion, profiles${missing:+ (missing:$missing)}" [ -z "$missing" ]
inst_run() { ( cd "$tmp" && env -u XDG_CONFIG_HOME HOME="$tmp/home" "$@" ); }
for bin in "$stage/usr/bin/rtvirt" "$tmp/moved/bin/rtvirt"; do
    if [ "$bin" = "$tmp/moved/bin/rtvirt" ]; then
        mkdir -p "$tmp/moved" && cp -a "$stage/usr/." "$tmp/moved/"
        where="relocated to $tmp/moved"
    else
        where="staged"
    fi
    inst_run "$bin" host check realtime-virtual-host --root "$fixture" >"$tmp/out" 2>"$tmp/err"; rc=$?
    check "$where binary, run outside the source tree, finds host profile realtime-virtual-host by name (exit $rc)" \
        eval '[ $rc -le 1 ] && grep -q "FAIL\|PASS" "$tmp/out"'
    inst_run "$bin" guest xml rt-demo --root "$fixture" --kernel /k --initrd /i >"$tmp/out" 2>"$tmp/err"; rc=$?
    check "$where: guest xml rt-demo by name (exit $rc)" eval '[ $rc -eq 0 ] && grep -q "<domain" "$tmp/out"'
    inst_run "$bin" run demo --plan --root "$fixture" >"$tmp/out" 2>"$tmp/err"; rc=$?
    check "$where: run demo --plan by name, its guests found beside it (exit $rc)" \
        eval '[ $rc -eq 0 ] && grep -q "^# matrix demo" "$tmp/out"'
    inst_run "$bin" profiles >"$tmp/out" 2>&1
    check "$where: rtvirt profiles says 'installed' and the directory" \
        eval 'grep -q "^host  *realtime-virtual-host  *$(dirname "$(dirname "$bin")")/share/rtvirt/profiles/host/realtime-virtual-host.ini (installed)" "$tmp/out"'
done
make -s -C "$top" O="$RV_BUILD" uninstall DESTDIR="$stage" PREFIX=/usr >/dev/null 2>&1; rc=$?
left=$(find "$stage" -type f | head -3)
check "make uninstall removes every installed file (exit $rc)${left:+: left $left}" \
    eval '[ $rc -eq 0 ] && [ -z "$left" ]'

# --- bash completion: a group's command before a top-level one -----------
comp() {
    bash -c 'PATH=$1:$PATH; source "$2"; shift 2; COMP_WORDS=("$@")
             COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); _rtvirt; echo "${COMPREPLY[*]}"' \
        _ "$(dirname "$rtvirt")" "$top/build-aux/rtvirt.bash-completion" "$@"
}
c1=$(comp rtvirt guest run --); c2=$(comp rtvirt host apply --); c3=$(comp rtvirt run --)
check "completion: 'guest run --' offers guest run's options (--virt), not run's (--plan)" \
    eval '[[ " $c1 " == *" --virt "* && " $c1 " != *" --plan "* ]]'
check "completion: 'host apply --' offers only its option lines (--dry-run, not --install from a description)" \
    eval '[[ " $c2 " == *" --dry-run "* && " $c2 " != *" --install "* ]]'
check "completion: 'run --' offers --plan" eval '[[ " $c3 " == *" --plan "* ]]'
c4=$(comp rtvirt rules smt.s)
check "completion: 'rules smt.s' offers the rule ids of that prefix" \
    eval '[[ " $c4 " == *" smt.shared-cores "* && " $c4 " == *" smt.sibling-load "* && " $c4 " != *" smt.off "* ]]'

echo "1..$n"
exit $fail
