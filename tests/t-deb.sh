#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/t-deb.sh: the packages.
#  - `make deb` builds rtvirt_VERSION_amd64.deb with debhelper from the dist
#    tarball and lintian reports no error (the target fails otherwise);
#  - the package holds what `make install` installs under /usr: every
#    binary, both man pages, every profile, the bash completion, and the
#    Ansible collection as documentation;
#  - its rtvirt --version is the bare release (built inside a git
#    checkout, it must not take the checkout's `git describe`);
#  - its Depends names the runtime parts rtvirt calls (libvirt's daemon,
#    QEMU, rt-tests, busybox-static) next to the libraries dpkg-shlibdeps found;
#  - rtvirt.spec parses (rpmspec --parse), has the same version, and lists
#    the same binaries; `rpmbuild -bs` builds its source package.
# Needs a git checkout (make dist), debhelper, lintian and rpm (make deps);
# about a minute on an idle 2-CPU machine.  TAP.
set -u
top=${RV_TOP:?}
. "${RV_TOP:?}/tests/tap.sh"
for need in dpkg-buildpackage dh lintian rpmspec rpmbuild git; do
    command -v "$need" >/dev/null || { echo "1..0 # SKIP $need not installed (make deps)"; exit 0; }
done
git -C "$top" rev-parse --git-dir >/dev/null 2>&1 || { echo "1..0 # SKIP not a git checkout (make dist needs one)"; exit 0; }
echo "1..8"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
ver=$(sed -n 's/^RV_RELEASE := //p' "$top/Makefile")
deb=$tmp/o/deb/rtvirt_${ver}_amd64.deb

make -C "$top" --no-print-directory O="$tmp/o" deb >"$tmp/make.log" 2>&1; rc=$?
[ $rc = 0 ] && [ -s "$deb" ] && ok "make deb: $(basename "$deb"), lintian without errors" ||
    { nok "make deb exit $rc"; sed 's/^/#   /' "$tmp/make.log" | tail -n 30; }
grep '^W: ' "$tmp/make.log" | sed 's/^/#   lintian /'

dpkg-deb -c "$deb" 2>/dev/null | awk '{ print $6 }' | sed 's,^\./,/,' | sort >"$tmp/files"
missing=
for f in /usr/bin/rtvirt /usr/bin/rtvirt-pert /usr/bin/rtvirt-tpcc /usr/bin/rtvirt-linpack \
         /usr/bin/rtvirt-gemm /usr/bin/rtvirt-pipe /usr/share/man/man1/rtvirt.1.gz \
         /usr/share/man/man5/rtvirt-profiles.5.gz /usr/share/bash-completion/completions/rtvirt \
         /usr/share/doc/rtvirt/ansible/galaxy.yml /usr/share/doc/rtvirt/copyright; do
    grep -qx "$f" "$tmp/files" || missing="$missing $f"
done
[ -s "$tmp/files" ] && [ -z "$missing" ] && ok "the package holds the binaries, man pages, completion, collection" ||
    nok "missing from the package:$missing"

missing=
while read -r p; do
    grep -qx "/usr/share/rtvirt/$p" "$tmp/files" || missing="$missing $p"
done < <(cd "$top" && git ls-files 'profiles/*.ini')
[ -z "$missing" ] && ok "every profile git tracks is in /usr/share/rtvirt/profiles" || nok "profiles missing:$missing"

dpkg-deb -x "$deb" "$tmp/x" 2>/dev/null
v=$("$tmp/x/usr/bin/rtvirt" --version 2>&1)
[ "$v" = "rtvirt $ver" ] && ok "the packaged rtvirt says '$v': a release, no git describe" ||
    nok "the packaged rtvirt --version says '$v', want 'rtvirt $ver'"

dep=$(dpkg-deb -f "$deb" Depends 2>/dev/null)
echo "#   Depends: $dep"
missing=
for p in libvirt-daemon-system qemu-system-x86 rt-tests busybox-static libglib2.0-0 libvirt0; do
    echo "$dep" | tr ',' '\n' | grep -Eq "^ *$p( |\$)" || missing="$missing $p"
done
[ -z "$missing" ] && ok "Depends names libvirt's daemon, QEMU, rt-tests, busybox-static and the shared libraries" ||
    nok "Depends lacks:$missing"

rpmspec --parse "$top/rtvirt.spec" >"$tmp/spec" 2>"$tmp/spec.err"; rc=$?
sv=$(sed -n 's/^Version: *//p' "$tmp/spec")
[ $rc = 0 ] && [ "$sv" = "$ver" ] && ok "rtvirt.spec parses, version $sv" ||
    nok "rpmspec --parse exit $rc, version '$sv' (Makefile $ver): $(head -c 300 "$tmp/spec.err")"

sed -n '/^%files/,/^%changelog/p' "$tmp/spec" | grep '^/usr/bin/' | sort >"$tmp/spec.bins"
grep '^/usr/bin/.' "$tmp/files" | sort >"$tmp/deb.bins"
cmp -s "$tmp/spec.bins" "$tmp/deb.bins" && ok "rtvirt.spec's %files lists the deb's $(wc -l <"$tmp/deb.bins") binaries" ||
    nok "binaries differ (spec vs deb): $(diff "$tmp/spec.bins" "$tmp/deb.bins" | tr '\n' ' ')"

mkdir -p "$tmp/rpm/SOURCES"
cp "$tmp/o/rtvirt-$ver.tar.gz" "$tmp/rpm/SOURCES/"
rpmbuild -bs --define "_topdir $tmp/rpm" "$top/rtvirt.spec" >"$tmp/srpm.log" 2>&1; rc=$?
[ $rc = 0 ] && ls "$tmp/rpm/SRPMS/rtvirt-$ver-"*.src.rpm >/dev/null 2>&1 && ok "rpmbuild -bs builds the source rpm" ||
    nok "rpmbuild -bs exit $rc: $(tail -n 3 "$tmp/srpm.log")"
