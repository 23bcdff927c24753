#!/usr/bin/env bash
# install-deps.sh [--build] -- install the Debian packages listed in tools/debian-packages.txt that
# are missing (with --build only those marked "# build": what building the package takes), and
# check that the Swift toolchain is there. Safe to run again: does nothing when everything is
# installed.
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

if ! command -v swift >/dev/null 2>&1; then
	for d in /opt/swift/usr/bin /usr/share/swift/usr/bin; do
		[ -x "$d/swift" ] && { echo "install-deps: swift is in $d: add it to PATH (export PATH=\$PATH:$d)" >&2; exit 1; }
	done
	echo "install-deps: the Swift 6 toolchain is needed and Debian 12 has no package for it." >&2
	echo "install-deps: get it from https://www.swift.org/install/linux/ (Debian 12, x86_64 or aarch64)." >&2
	exit 1
fi

# --build: only the packages building the package takes (marked "# build" in the list).
case "${1:-}" in
--build) only='#[[:space:]]*build[[:space:]]*$' ;;
"") only='' ;;
*) echo "install-deps: unknown option $1 (--build: only what building the package takes)" >&2; exit 64 ;;
esac
mapfile -t wanted < <(grep -e "$only" "$HERE/debian-packages.txt" | sed -e 's/#.*//' -e 's/[[:space:]]//g' | grep -v '^$')
missing=()
for p in "${wanted[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

SUDO=""
[ "$(id -u)" = 0 ] || SUDO=sudo
echo "install-deps: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get -o DPkg::Lock::Timeout=300 install -y --no-install-recommends "${missing[@]}" >/dev/null 2>&1 ||
	{ $SUDO apt-get -o DPkg::Lock::Timeout=300 update >/dev/null && $SUDO apt-get -o DPkg::Lock::Timeout=300 install -y --no-install-recommends "${missing[@]}" >/dev/null; } ||
	{ echo "install-deps: apt-get install ${missing[*]} failed" >&2; exit 1; }
