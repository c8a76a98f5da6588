# SPDX-License-Identifier: LGPL-2.1-or-later
# tap.sh: the TAP helpers of the lab's in-VM tests (sourced; busybox sh).
# $n is the number of the last test printed; a test run that spans a
# reboot carries it over in /lab/state/n (lab-persist-tests.sh).
n=${n:-0}
ok() { n=$((n + 1)); echo "ok $n - $*"; }
notok() { n=$((n + 1)); echo "not ok $n - $*"; }
skip() { n=$((n + 1)); echo "ok $n - # SKIP $*"; }
diag() { sed 's/^/#   /'; }
# check DESCRIPTION CONDITION-EXIT-STATUS
check() { if [ "$2" -eq 0 ]; then ok "$1"; else notok "$1"; fi; }
# send_file NAME PATH: a file for the host, inside the TAP stream
send_file() {
	[ -f "$2" ] || return 0
	echo "#file $1"
	gzip -c "$2" | base64 | sed 's/^/#b64 /'
	echo "#end"
}
# etc_tree: every path under /etc with its type and mode, each file's md5
# and each link's target, in name order (a tree snapshot to compare)
etc_tree() {
	find /etc | LC_ALL=C sort | while read -r f; do
		if [ -L "$f" ]; then echo "$f link $(readlink "$f")"
		elif [ -f "$f" ]; then echo "$f file $(stat -c %a "$f") $(md5sum <"$f" | cut -c1-32)"
		else echo "$f dir $(stat -c %a "$f")"; fi
	done
}
