#!/usr/bin/env bash
# package-check.sh DEB -- the package's name and files against Debian's archive (make test runs it
# on the package it built):
#
#   1. the name is no package of Debian 12 "bookworm" or 13 "trixie" (main, contrib, non-free:
#      their Contents lists), and apt-cache policy in the Debian 13 root knows no such package;
#   2. every file of the package against both releases' Contents lists (all, amd64, arm64): a
#      path some Debian package also ships fails, unless the package is one the .deb declares
#      a conflict with (device/README.md says which and why); /lib paths are compared as /usr/lib
#      too (Debian's merged /usr);
#   3. with the package installed in the Debian 13 root (a dpkg status of its own: the root's
#      packages and ours; its Depends left out, as the minimal root has none of them) and
#      Debian's archive enabled, a simulated `apt-get dist-upgrade` proposes nothing in its
#      place, nor anything named glance. The control: the same with a package named `glance`
#      of version 0.1 installed (this project's name before) shows apt upgrading it to
#      OpenStack's, so the check can fail.
#
# Raspberry Pi OS's own archive (archive.raspberrypi.com) is asked too when it can be reached
# (its package names); when it cannot, that is said.
#
# The Contents lists (about 130 MB, the first run) are kept in ~/.cache/glance-package-check and
# fetched again when a week old (kept when the network is down). The root is install-check's
# (make test runs install-check first). Needs root (chroot); without it, or without the root, it
# says so and exits 0 -- unless every part is required (GLANCE_REQUIRE_ALL_PARTS, make test's
# default; tools/switches.sh), when that is a failure.
set -euo pipefail
say() { echo "package-check: $*" >&2; }
die() {
	say "$*"
	exit 1
}
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$HERE/switches.sh"
cannot() {
	glance_required && die "cannot run: $*; every part is required (GLANCE_REQUIRE_ALL_PARTS=${GLANCE_REQUIRE_ALL_PARTS}): failed"
	say "skipped: $*"
	exit 0
}

[ $# = 1 ] || {
	say "usage: tools/package-check.sh DEB"
	exit 64
}
DEB=$1
[ -f "$DEB" ] || die "no package at $DEB (tools/build-deb.sh makes it)"
[ "$(id -u)" = 0 ] || cannot "the Debian 13 root needs root (chroot), as CI has"
ROOT=${GLANCE_INSTALL_CHECK_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/glance-install-check}/trixie-minbase
[ -f "$ROOT/.ready" ] || cannot "no Debian 13 root at $ROOT (tools/install-check.sh makes it; make test runs it first)"
CACHE=${XDG_CACHE_HOME:-$HOME/.cache}/glance-package-check
mkdir -p "$CACHE"
START=$(date +%s)

NAME=$(dpkg-deb -f "$DEB" Package)
VERSION=$(dpkg-deb -f "$DEB" Version)
# The packages a clash is declared with, every version of them (a versioned conflict, such as the
# one with this project's earlier `glance (<< 1:0)`, does not cover Debian's `glance`).
DECLARED=$(dpkg-deb -f "$DEB" Conflicts | tr ',' '\n' | grep -v '(' | sed 's/[[:space:]]//g' | grep -v '^$' || true)

. "$HERE/debian-mirror.sh"
M=$(mirror)

# -- the Contents lists, cached
LISTS=()
for release in bookworm trixie; do
	for component in main contrib non-free; do
		for arch in all amd64 arm64; do
			file=$CACHE/$release-$component-Contents-$arch.gz
			url=$M/dists/$release/$component/Contents-$arch.gz
			if [ -z "$(find "$file" -mmin -10080 2>/dev/null)" ]; then
				say "downloading $url (kept in $CACHE)"
				if curl -fsS --max-time 600 -o "$file.tmp" "$url"; then
					mv "$file.tmp" "$file"
				elif [ -f "$file" ]; then
					rm -f "$file.tmp"
					say "could not fetch $url: the copy of $(date -r "$file" +%F) is used"
				else
					rm -f "$file.tmp"
					die "could not fetch $url (the network?); nothing to check the package against"
				fi
			fi
			LISTS+=("$file")
		done
	done
done

# -- 1 and 2: the name and the files
OURS=$(mktemp)
trap 'rm -f "$OURS" "$ROOT/tmp/package-check-status" "$ROOT/tmp/package-check-old-status"' EXIT
dpkg-deb -c "$DEB" | awk '$1 !~ /^d/ {p = $6; sub(/^\.\//, "", p); print p}' >"$OURS"
FILES=$(wc -l <"$OURS")
[ "$FILES" -gt 10 ] || die "$DEB lists only $FILES files"
# The same file list, name and conflicts against the same lists as at the last pass: said, and
# not scanned again (the scan reads about 300 MB).
KEY=$( (cat "$OURS"; echo "$NAME"; echo "$DECLARED"; ls -l --time-style=+%s "${LISTS[@]}") | sha256sum | cut -c1-32)
if [ "$(cut -d' ' -f1 "$CACHE/files-passed" 2>/dev/null)" = "$KEY" ]; then
	FOUND=$(cut -d' ' -f2- "$CACHE/files-passed" | tr '|' '\n')
	say "the files were checked against the same lists on $(date -r "$CACHE/files-passed" +%F): not scanned again"
else
FOUND=$(for f in "${LISTS[@]}"; do zcat "$f"; done | awk -v name="$NAME" -v ours="$OURS" '
	BEGIN {
		while ((getline p < ours) > 0) {
			mine[p] = p
			if (p ~ /^lib\//) mine["usr/" p] = p
		}
	}
	{
		packages = $NF
		path = $0
		sub(/[[:space:]]+[^[:space:]]+$/, "", path)
		n = split(packages, list, ",")
		for (i = 1; i <= n; i++) {
			q = list[i]
			sub(/.*\//, "", q)
			if (q == name) print "name " q
			if (path in mine) print "file " mine[path] " " q
		}
	}' | sort -u)
fi
if grep -q '^name ' <<<"$FOUND"; then
	die "the name $NAME is a Debian package's: choose another (tools/build-deb.sh PACKAGE)"
fi
UNDECLARED=$(echo "$FOUND" | awk '$1 == "file"' | while read -r _ path package; do
	grep -qx "$package" <<<"$DECLARED" || echo "/$path ($package)"
done)
[ -z "$UNDECLARED" ] || die "files Debian ships too, from packages with no declared conflict: $(echo "$UNDECLARED" | tr '\n' ' ')"
echo "$KEY $(tr '\n' '|' <<<"$FOUND")" >"$CACHE/files-passed"
CLASHES=$(echo "$FOUND" | awk '$1 == "file" {print "/" $2 " (" $3 ")"}' | tr '\n' ' ')
say "the name $NAME is no Debian 12 or 13 package's; of its $FILES files, those Debian ships too come from declared conflicts only: ${CLASHES:-none}"

# -- in the Debian 13 root: apt's own view
in_root() { chroot "$ROOT" /usr/bin/env -i PATH=/usr/bin:/bin:/usr/sbin:/sbin LANG=C.UTF-8 "$@"; }
POLICY=$(in_root apt-cache policy "$NAME" 2>&1)
if grep -q 'Candidate: [^(]' <<<"$POLICY"; then die "apt-cache policy $NAME in Debian 13 finds a package: $POLICY"; fi
say "apt-cache policy $NAME in Debian 13: no such package in the archive"

# A status with the package installed (its fields but Depends and Recommends).
stanza() {
	echo "Package: $1"
	echo "Status: install ok installed"
	echo "Version: $2"
	dpkg-deb -f "$DEB" Architecture Maintainer Conflicts Replaces Description | sed -n '/^\(Architecture\|Maintainer\|Conflicts\|Replaces\|Description\):/,$p'
	echo
}
{
	cat "$ROOT/var/lib/dpkg/status"
	echo
	stanza "$NAME" "$VERSION"
} >"$ROOT/tmp/package-check-status"
UPGRADE=$(in_root apt-get -s -o Dir::State::status=/tmp/package-check-status dist-upgrade 2>&1) ||
	die "apt-get -s dist-upgrade with $NAME installed failed: $(echo "$UPGRADE" | tail -5)"
TOUCHED=$(echo "$UPGRADE" | grep -E "^(Inst|Remv|Conf|Purg) ($NAME|glance)( |$)" || true)
[ -z "$TOUCHED" ] || die "with $NAME installed, apt-get dist-upgrade in Debian 13 proposes: $TOUCHED"
say "with $NAME $VERSION installed in Debian 13, apt-get dist-upgrade proposes nothing in its place ($(echo "$UPGRADE" | grep -c '^Inst ' || true) other upgrades)"

# The control: the old name, installed, is taken for OpenStack's.
{
	cat "$ROOT/var/lib/dpkg/status"
	echo
	stanza glance 0.1
} | sed '/^Conflicts:\|^Replaces:/d' >"$ROOT/tmp/package-check-old-status"
OLD=$(in_root apt-get -s -o Dir::State::status=/tmp/package-check-old-status dist-upgrade 2>&1 || true)
grep -qE '^Inst glance \[0\.1\]' <<<"$OLD" ||
	die "the control failed: a package named glance 0.1 was not shown upgraded to Debian's ($(echo "$OLD" | tail -3 | tr '\n' ' ')); the check above proves nothing"
say "the control: a package named glance 0.1 would be upgraded to Debian's $(echo "$OLD" | sed -n 's/^Inst glance \[0\.1\] (\([^ ]*\).*/\1/p')"

# Raspberry Pi OS's own archive, when it can be reached.
RPI=http://archive.raspberrypi.com/debian/dists/trixie/main/binary-arm64/Packages.gz
if curl -fsS --max-time 20 -o "$CACHE/rpi-trixie-arm64-Packages.gz.tmp" "$RPI" 2>/dev/null; then
	mv "$CACHE/rpi-trixie-arm64-Packages.gz.tmp" "$CACHE/rpi-trixie-arm64-Packages.gz"
fi
rm -f "$CACHE/rpi-trixie-arm64-Packages.gz.tmp"
if [ -f "$CACHE/rpi-trixie-arm64-Packages.gz" ]; then
	if zcat "$CACHE/rpi-trixie-arm64-Packages.gz" | grep -x "Package: $NAME" >/dev/null; then
		die "the name $NAME is a Raspberry Pi OS package's"
	fi
	say "the name is no Raspberry Pi OS (trixie) package's either (its list of $(date -r "$CACHE/rpi-trixie-arm64-Packages.gz" +%F))"
else
	say "Raspberry Pi OS's archive ($RPI) cannot be reached from here: its own packages not checked (Debian's are its base)"
fi
say "passed in $(($(date +%s) - START)) s"
