#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# build-aux/libvirt-corpus.sh: print the directory that holds libvirt's own
# test corpus (the tests/ of the Debian source package of the libvirt this
# machine has installed), fetching it once through apt into a cache.
#
#   build-aux/libvirt-corpus.sh [CACHE]     (CACHE: /var/cache/rtvirt)
#
# apt reads a private deb-src list made from the machine's own
# /etc/apt/sources.list.d/*.sources and sources.list "deb" lines, with its
# own lists and archives under CACHE/apt: the machine's apt configuration
# and lists are never touched.  Only the upstream tarball's tests/ is
# unpacked, into CACHE/libvirt-VERSION/tests.
#
# Exit: 0 and the tests/ path on stdout; 77 and the reason on stderr when
# libvirt is not installed, apt has no source for it, or the network is
# not there (the caller skips); 2 on a local error.
set -u
cache=${1:-/var/cache/rtvirt}
ver=$(dpkg-query -W -f '${Version}' libvirt0 2>/dev/null)
[ -n "$ver" ] || { echo "libvirt0 is not installed: no version to fetch the source of" >&2; exit 77; }
upver=${ver#*:}; upver=${upver%-*}
dest=$cache/libvirt-$upver
if [ -f "$dest/.complete" ]; then
    echo "$dest/tests"; exit 0
fi
mkdir -p "$cache/apt/lists/partial" "$cache/apt/archives/partial" "$dest" || exit 2
list=$cache/apt/sources.list
{
    for f in /etc/apt/sources.list.d/*.sources; do
        [ -f "$f" ] || continue
        # deb822: each stanza whose Types has deb becomes a deb-src stanza
        awk 'BEGIN{RS=""; ORS="\n\n"} /(^|\n)Types:[^\n]*\<deb\>/ {
                 uris=""; suites=""; comps=""; sb="";
                 n=split($0, l, "\n");
                 for (i=1;i<=n;i++) {
                     if (l[i] ~ /^URIs:/) uris=substr(l[i],6);
                     if (l[i] ~ /^Suites:/) suites=substr(l[i],8);
                     if (l[i] ~ /^Components:/) comps=substr(l[i],12);
                     if (l[i] ~ /^Signed-By:/) sb=substr(l[i],11);
                 }
                 ns=split(suites, s, " "); nu=split(uris, u, " ");
                 for (a=1;a<=nu;a++) for (b=1;b<=ns;b++)
                     printf "deb-src %s%s %s %s\n", (sb != "" ? "[signed-by=" sb "] " : ""), u[a], s[b], comps;
             }' "$f" | sed 's/\[signed-by= */[signed-by=/'
    done
    [ -f /etc/apt/sources.list ] && sed -n 's/^deb \(.*\)/deb-src \1/p' /etc/apt/sources.list
} | grep -v 'cloud.google\|nodesource' >"$list"
[ -s "$list" ] || { echo "no Debian apt source to derive a deb-src line from" >&2; exit 77; }
apt_opts=(-o "Dir::Etc::SourceList=$list" -o "Dir::Etc::SourceParts=/nonexistent"
          -o "Dir::State::Lists=$cache/apt/lists" -o "Dir::Cache::Archives=$cache/apt/archives"
          -o "Dir::Cache::pkgcache=" -o "Dir::Cache::srcpkgcache=" -o Debug::NoLocking=1
          -o Acquire::Retries=1 -o Acquire::http::Timeout=30)
work=$cache/apt/src
mkdir -p "$work" || exit 2
if ! ls "$work"/libvirt_"$upver".orig.tar.* >/dev/null 2>&1; then
    timeout 600 apt-get "${apt_opts[@]}" -qq update >"$cache/apt/update.log" 2>&1 \
        || { echo "apt-get update of the deb-src list failed (no network?): $(tail -1 "$cache/apt/update.log")" >&2; exit 77; }
    (cd "$work" && timeout 600 apt-get "${apt_opts[@]}" -qq --download-only source "libvirt=$ver") \
        >"$cache/apt/source.log" 2>&1 \
        || { echo "apt-get source libvirt=$ver failed: $(tail -1 "$cache/apt/source.log")" >&2; exit 77; }
fi
tarball=$(ls "$work"/libvirt_"$upver".orig.tar.* 2>/dev/null | head -1)
[ -n "$tarball" ] || { echo "apt gave no libvirt_$upver.orig tarball" >&2; exit 77; }
tar -xf "$tarball" -C "$dest" --strip-components=1 --wildcards '*/tests/*' \
    || { echo "cannot unpack tests/ of $tarball" >&2; exit 2; }
touch "$dest/.complete"
echo "$dest/tests"
