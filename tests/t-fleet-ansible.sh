#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/t-fleet-ansible.sh: the rtvirt.fleet Ansible collection for real:
# `ansible-playbook rtvirt.fleet.site` against an inventory of
# this machine (ansible_connection=local) with two inventory hosts, each
# with its own build directory, install prefix, results directory and
# host profile.  The install role builds rtvirt from a `make dist`
# tarball; the check play fails the host whose host profile has a FAIL
# when enforcement is on and keeps the other; the second playbook run
# tunes in dry-run, runs a 2-scenario x 1-repetition matrix on each
# "host" (the two runs take turns through the host lock, --wait-lock),
# collects both stores into results/<inventory_hostname>/ on the
# controller, and `rtvirt compare` reads both.  ansible-lint passes on
# the collection.  Needs root, libvirtd, QEMU, ansible-playbook; skips
# otherwise.
set -u
rtvirt=${RV_BUILD:?}/rtvirt
top=${RV_TOP:?}
. "${RV_TOP:?}/tests/tap.sh"

need_cmds ansible-playbook ansible-lint qemu-system-x86_64 virsh python3 git
need_root
export PATH=$PATH:/usr/sbin
need_libvirt "$rtvirt"
git -C "$top" rev-parse --git-dir >/dev/null 2>&1 || skip_all "not a git checkout (make dist)"

domains() { virsh -c qemu:///system list --all --name 2>/dev/null | grep -E '^rtvirt-ci-' || true; }
tmp=$(mktemp -d /tmp/rtvirt-fleet.XXXXXX)
cleanup() {
    for d in $(domains); do virsh -c qemu:///system destroy "$d" >/dev/null 2>&1; done
    if [ -n "${RV_KEEP:-}" ]; then echo "# kept $tmp" >&2; else rm -rf "$tmp"; fi
}
trap cleanup EXIT


# ansible-lint on the collection (production profile), as `make lint`
(cd "$top/ansible" && ansible-lint --nocolor -q) >"$tmp/lint" 2>&1; rc=$?
check "ansible-lint passes on the collection ($(tail -n 2 "$tmp/lint" | tr '\n' ' ' | cut -c1-200))" [ $rc -eq 0 ]

# the release tarball the install role installs
make -s -C "$top" O="$tmp/dist" dist >"$tmp/dist.out" 2>&1; rc=$?
tarball=$tmp/dist/rtvirt-$(sed -n 's/^RV_RELEASE := //p' "$top/Makefile").tar.gz
check "make dist writes $tarball" eval '[ $rc -eq 0 ] && tar tzf "$tarball" | grep -qx "rtvirt-[0-9.]*/Makefile"'
version=$(basename "$tarball" .tar.gz); version=${version#rtvirt-}

# the collection where Ansible looks for it: COLLECTIONS_PATH/ansible_collections/rtvirt/fleet
mkdir -p "$tmp/collections/ansible_collections/rtvirt"
ln -s "$top/ansible" "$tmp/collections/ansible_collections/rtvirt/fleet"
export ANSIBLE_COLLECTIONS_PATH=$tmp/collections ANSIBLE_HOME=$tmp/ansible-home \
    ANSIBLE_LOCAL_TEMP=$tmp/ansible-tmp ANSIBLE_REMOTE_TEMP=$tmp/ansible-tmp \
    ANSIBLE_NOCOLOR=1 ANSIBLE_RETRY_FILES_ENABLED=0 ANSIBLE_HOST_KEY_CHECKING=0

# The run role alone, on the build tree's rtvirt: its time limit from the
# plan's estimate, and the exit-3 path.  boot-host.ini on a copy of the
# build machine's root (host probes only: no guest) measures the boot the
# host has, installs the next boot's arguments and "reboots" through a
# script that rewrites the root's /proc/cmdline as the boot loader would
# (as tests/t-run-reboot.sh does): the role sees exit 3, waits for the
# host, runs --resume, and reports the run resumed once.
R=$tmp/role-root
cp -r "$top/tests/data/hosts/debian12-2cpu-nosmt-rtgroup" "$R"; chmod -R u+w "$R"
mkdir -p "$R/etc"; cp -r "$top/tests/data/grub/debian12-dropins/etc/default" "$R/etc/"
cp "$R/proc/cmdline" "$tmp/cmdline.orig"
cat >"$tmp/reboot.sh" <<'SH'
#!/bin/sh
words=$(sed -n 's/^GRUB_CMDLINE_LINUX_DEFAULT="\$GRUB_CMDLINE_LINUX_DEFAULT \(.*\)"$/\1/p' "$R/etc/default/grub.d/rtvirt-run.cfg")
orig=$(cat "$ORIG_FILE")
case "$orig" in
*" -- "*) printf '%s %s -- %s\n' "${orig%% -- *}" "$words" "${orig#* -- }" ;;
*) printf '%s %s\n' "$orig" "$words" ;;
esac >"$R/proc/cmdline"
echo called >>"$REBOOTS"
SH
chmod +x "$tmp/reboot.sh"
cat >"$tmp/role-play.yml" <<PLAY
- name: The run role on one local host, a matrix with boot arguments
  hosts: localhost
  connection: local
  gather_facts: false
  environment:
    RTVIRT_REBOOT_CMD: $tmp/reboot.sh
    RTVIRT_LOCK_FILE: $tmp/role-lock
    R: $R
    ORIG_FILE: $tmp/cmdline.orig
    REBOOTS: $tmp/reboots
  vars:
    ansible_python_interpreter: /usr/bin/python3
    rtvirt_bin: $rtvirt
    rtvirt_matrix: $top/tests/data/run/boot-host.ini
    rtvirt_results_dir: $tmp/role-results
    rtvirt_run_setup: false
    rtvirt_run_poll: 2
    rtvirt_run_wait_lock: 60
    rtvirt_run_timeout_margin: 2
    rtvirt_run_timeout_slack: 30
    rtvirt_run_reboot_delay: 0
    rtvirt_run_extra_args: [--root, $R]
  roles:
    - rtvirt.fleet.run
  post_tasks:
    - name: Save what the role decided
      ansible.builtin.copy:
        dest: $tmp/role-facts.json
        mode: "0644"
        content: "{{ {'estimate': rtvirt_run_estimate_s | int, 'timeout': rtvirt_run_job_timeout | int,
                      'reboots': rtvirt_run_reboots | int, 'rc': rtvirt_run_rc | int,
                      'resumed': rtvirt_run_resumed | int, 'store': rtvirt_store} | to_json }}"
PLAY
ansible-playbook -i localhost, "$tmp/role-play.yml" >"$tmp/role-play" 2>&1; rc=$?
est=$("$rtvirt" run --plan --json --root "$R" "$top/tests/data/run/boot-host.ini" 2>/dev/null |
      python3 -c 'import json,sys; print(json.load(sys.stdin)["estimate"]["total_s"])' 2>&1)
facts=$(cat "$tmp/role-facts.json" 2>&1)
check "run role: its time limit is the plan's estimate x 2 + the lock wait + the slack ($est x 2 + 60 + 30; $facts)" \
    python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); sys.exit(not (d["estimate"] == int(sys.argv[2]) > 0 and d["timeout"] == 2 * d["estimate"] + 90))' "$tmp/role-facts.json" "$est"
check "run role: exit 3 from the reboot into boot 1, --resume after the host came back, the play ends ok (rc $rc $(grep -E '^localhost' "$tmp/role-play" | tr -s ' '))" \
    eval '[ $rc -eq 0 ] && [ "$(wc -l <"$tmp/reboots")" = 1 ] && grep -q "TASK \[rtvirt.fleet.run : Continue the run (rtvirt run --resume STORE)\]" "$tmp/role-play"'
check "run role: the run reported resumed once, exit 0, its store complete" \
    python3 -c 'import json,sys
d = json.load(open(sys.argv[1]))
s = json.load(open(d["store"] + "/run.json"))
sys.exit(not (d["rc"] == 0 and d["resumed"] == 1 and d["reboots"] == 1 and s["complete"] and
              "exit 0, resumed 1 time(s) after a reboot; time limit" in open(sys.argv[2]).read()))' "$tmp/role-facts.json" "$tmp/role-play"

# two inventory hosts on this machine; fleet-b's profile (two-cpu: isolated
# CPU 1, not isolated here) has FAILs on this host, fleet-a's enforcement is off
cat >"$tmp/inventory.yml" <<EOF
rtvirt_hosts:
  vars:
    ansible_connection: local
    ansible_python_interpreter: /usr/bin/python3
    rtvirt_tarball: $tarball
    rtvirt_version: "$version"
    rtvirt_install_deps: true
    rtvirt_matrix: ci
    rtvirt_run_timeout: 1800
    rtvirt_run_poll: 5
    rtvirt_run_wait_lock: 1800
    rtvirt_run_extra_args: [--repetitions, "1", --duration, 2s]
    rtvirt_collect_dest: $tmp/results
    rtvirt_host_check_save_dir: $tmp/results
    rtvirt_tune_enabled: true
    rtvirt_tune_dry_run: true
  hosts:
    fleet-a:
      rtvirt_build_dir: $tmp/build-a
      rtvirt_prefix: $tmp/prefix-a
      rtvirt_bin: $tmp/prefix-a/bin/rtvirt
      rtvirt_results_dir: $tmp/host-a/results
      rtvirt_host_profile: realtime-virtual-host
      rtvirt_host_check_enforce: false
    fleet-b:
      rtvirt_build_dir: $tmp/build-b
      rtvirt_prefix: $tmp/prefix-b
      rtvirt_bin: $tmp/prefix-b/bin/rtvirt
      rtvirt_results_dir: $tmp/host-b/results
      rtvirt_host_profile: two-cpu
      rtvirt_host_check_enforce: true
EOF

play() { ansible-playbook -i "$tmp/inventory.yml" rtvirt.fleet.site "$@"; }
recap() { sed -n "s/^$1 *: //p" "$2" | tail -n 1; }

# 1: install on both, check: fleet-b fails on its FAIL findings, fleet-a is kept
play --tags install,check >"$tmp/play1" 2>&1; rc=$?
check "first playbook run exits 2 (a host failed) ($(grep -E '^fleet-' "$tmp/play1" | tr -s ' ' | tr '\n' ';'))" [ $rc -eq 2 ]
check "fleet-a: installed and checked, not failed ($(recap fleet-a "$tmp/play1"))" \
    eval 'recap fleet-a "$tmp/play1" | grep -q "failed=0" && "$tmp/prefix-a/bin/rtvirt" --version | grep -q "$version"'
check "fleet-b: failed by the check, naming the FAIL ids" \
    eval 'recap fleet-b "$tmp/play1" | grep -q "failed=1" && grep -q "host check two-cpu: [0-9]* FAIL (" "$tmp/play1"'
check "the findings of both hosts are saved on the controller (host-check.json, schema_version 1)" \
    eval '(for h in fleet-a fleet-b; do jq -e ".schema_version == 1 and (.findings | length) > 0" "$tmp/results/$h/host-check.json" >/dev/null || exit 1; done)'
check "the installed rtvirt finds its profiles by name (rtvirt profiles lists ci)" \
    eval '"$tmp/prefix-b/bin/rtvirt" profiles 2>/dev/null | grep -qw ci'

# 2: check (report only), tune in dry-run, run, collect
play --tags check,tune,run,collect -e rtvirt_host_check_enforce=false >"$tmp/play2" 2>&1; rc=$?
check "second playbook run exits 0 ($(grep -E '^fleet-' "$tmp/play2" | tr -s ' ' | tr '\n' ';'))" [ $rc -eq 0 ]
check "tune ran host apply --dry-run on both hosts" \
    eval '[ "$(grep -c "TASK \[rtvirt.fleet.tune : Apply the host profile" "$tmp/play2")" -ge 1 ] && grep -A3 "Apply the host profile" "$tmp/play2" | grep -q "fleet-b"'
store_a=$(ls -d "$tmp/results/fleet-a"/*-ci 2>/dev/null | head -n 1)
store_b=$(ls -d "$tmp/results/fleet-b"/*-ci 2>/dev/null | head -n 1)
check "both stores are collected into results/<inventory_hostname>/ ($store_a, $store_b)" \
    eval '[ -f "$store_a/run.json" ] && [ -f "$store_b/run.json" ]'
check "each store is complete with 2 ok cyclictest records and their raw outputs" \
    eval '(for s in "$store_a" "$store_b"; do jq -e ".complete and ([.records[] | select(.workload == \"cyclictest\" and .status == \"ok\")] | length) == 2" "$s/run.json" >/dev/null && [ -n "$(ls "$s/raw")" ] || exit 1; done)'
check "each host's store stayed in its own results directory on the host" \
    eval '[ -d "$tmp/host-a/results/$(basename "$store_a")" ] && [ -d "$tmp/host-b/results/$(basename "$store_b")" ]'
check "no store archive is left on the controller or the host" \
    eval '[ -z "$(find "$tmp/results" -name "*.tar.gz")" ] && [ -z "$(find /tmp -maxdepth 1 -name "*.rtvirt-store.tar.gz" -newer "$tmp/inventory.yml")" ]'

# rtvirt compare --by host: one table with both hosts; the two stores come
# from one machine (one hostname), so the host is the directory the collect
# role put each store in: the inventory host name
"$rtvirt" compare --by host "$store_a" "$store_b" >"$tmp/compare" 2>"$tmp/compare.err"; rc=$?
check "rtvirt compare --by host reads both collected stores (exit $rc)" \
    eval '{ [ $rc -eq 0 ] || [ $rc -eq 1 ]; } && grep -q "unpinned" "$tmp/compare"'
check "its table has a row for each inventory host" \
    eval 'grep -q "fleet-a/unpinned" "$tmp/compare" && grep -q "fleet-b/unpinned" "$tmp/compare"'
# rtvirt report: one page for both hosts
"$rtvirt" report -o "$tmp/report" "$store_a" "$store_b" >"$tmp/report.out" 2>&1; rc=$?
check "rtvirt report makes one page for both stores (exit $rc)" \
    eval '{ [ $rc -eq 0 ] || [ $rc -eq 1 ]; } && grep -q "$(basename "$store_a")" "$tmp/report/index.html" && grep -q "$(basename "$store_b")" "$tmp/report/index.html"'
check "no rtvirt-ci domain is left" eval '[ -z "$(domains)" ]'
echo "1..$n"
