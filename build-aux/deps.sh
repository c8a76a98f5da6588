#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Install the Debian 12 packages rtvirt needs that are missing.
# Idempotent: installs nothing (and needs no network) when all are present.
# On Fedora/RHEL (ID or ID_LIKE in /etc/os-release) it installs the names
# of fedora-packages.txt with dnf instead: that list and this path are NOT
# TRIED (never run on Fedora or RHEL), and it says so.
set -eu
here=$(dirname "$0")
os=$( (. /etc/os-release 2>/dev/null && echo "${ID:-} ${ID_LIKE:-}") || true)
case " $os " in
*" fedora "*|*" rhel "*|*" centos "*)
    echo "deps: Fedora/RHEL: build-aux/fedora-packages.txt is NOT TRIED (never run on Fedora or RHEL)" >&2
    list=$(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$here/fedora-packages.txt")
    missing=
    for p in $list; do
        rpm -q "$p" >/dev/null 2>&1 || missing="$missing $p"
    done
    [ -z "$missing" ] && { echo "deps: all $(echo $list | wc -w) packages present"; exit 0; }
    [ "$(id -u)" -eq 0 ] || { echo "deps: missing:$missing (run 'make deps' as root)" >&2; exit 2; }
    echo "deps: installing:$missing"
    # shellcheck disable=SC2086
    exec dnf install -y $missing
    ;;
esac
list=$(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$here/debian-packages.txt")
missing=
for p in $list; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
        missing="$missing $p"
    fi
done
if [ -z "$missing" ]; then
    echo "deps: all $(echo $list | wc -w) packages present"
    exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
    echo "deps: missing:$missing" >&2
    echo "deps: run 'make deps' as root to install them" >&2
    exit 2
fi
echo "deps: installing:$missing"
export DEBIAN_FRONTEND=noninteractive
apt-get update -q
# shellcheck disable=SC2086
apt-get install -y -q --no-install-recommends $missing
