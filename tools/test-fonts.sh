#!/usr/bin/env bash
# test-fonts.sh -- the fonts the tests draw with: the font packages pinned in tools/test-fonts.txt
# (Debian 12's fonts-inter and fonts-wqy-microhei, which the goldens were drawn with), fetched once
# from Debian's archive, each checked against its SHA-256, and unpacked (dpkg-deb -x, with their
# copyright files) into a folder of the cache. Prints that folder (the last line): the tests take
# it as GLANCE_FONT_ROOT (make test sets it), and open the fonts under it instead of at / — so the
# goldens are the same pixels on Debian 12, Debian 13 (Inter 4.1) and Raspberry Pi OS.
#
#   tools/test-fonts.sh        prints the folder (made on first use: about 4.5 MB downloaded)
#
# Every run checks the font files the screens draw with against their SHA-256 (the "file" lines of
# the list). The packages come from this machine's Debian mirror, else Debian's own, its archive of
# old releases or its snapshot service, whichever has them first (the SHA-256 makes any of them
# safe). Cache: $GLANCE_FONT_CACHE, else ~/.cache/glance-fonts. Needs curl and dpkg-deb, not root.
# The fonts keep their licences (Inter: SIL Open Font License 1.1; WenQuanYi Micro Hei: Apache 2.0
# or GPLv3 with the font exception): their copyright files are unpacked beside them, under
# usr/share/doc/PACKAGE/copyright in the folder. Nothing of them is in the repository.
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
LIST=$HERE/test-fonts.txt
say() { echo "test-fonts: $*" >&2; }
die() { say "$*"; exit 2; }

CACHE=${GLANCE_FONT_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/glance-fonts}
[ -f "$LIST" ] || die "no $LIST"
DEBS=$(grep '^deb ' "$LIST") || die "no 'deb' lines in $LIST"
FILES=$(grep '^file ' "$LIST") || die "no 'file' lines in $LIST"
# A folder per set of pins: changing a pin makes (and uses) another one.
ROOT=$CACHE/$(printf '%s\n' "$DEBS" | sha256sum | cut -c1-16)

# Whether every pinned file under the folder has its SHA-256; says which does not.
check() {
	local path sum got
	while read -r _ path sum; do
		[ -f "$ROOT$path" ] || { say "$ROOT$path is missing"; return 1; }
		got=$(sha256sum "$ROOT$path" | cut -d' ' -f1)
		[ "$got" = "$sum" ] || { say "$ROOT$path has SHA-256 $got, not the pinned $sum"; return 1; }
	done <<<"$FILES"
}

# The Debian mirrors of this machine's apt sources (one-line and deb822), then Debian's own, its
# archive of releases no longer in the mirrors, and its snapshot of the archive.
mirrors() {
	{
		sed -n 's/^URIs:[[:space:]]*\(http[^[:space:]]*\/debian\)\/\{0,1\}[[:space:]]*$/\1/p' /etc/apt/sources.list.d/*.sources 2>/dev/null || true
		awk '$1=="deb" && $2 ~ /^http/ && $2 ~ /\/debian\/?$/ {sub(/\/$/, "", $2); print $2}' /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null || true
		echo http://deb.debian.org/debian
		echo http://archive.debian.org/debian
		echo http://snapshot.debian.org/archive/debian/20250520T000000Z
	} | awk '!seen[$0]++'
}

mkdir -p "$CACHE"
exec 9>"$CACHE/.lock"
flock 9
if [ -f "$ROOT/.ready" ] && check; then
	echo "$ROOT"
	exit 0
fi

command -v curl >/dev/null || die "curl is needed to fetch the pinned fonts (apt-get install curl, or tools/install-deps.sh)"
command -v dpkg-deb >/dev/null || die "dpkg-deb is needed to unpack the pinned fonts"
T=$(date +%s)
say "fetching the fonts the goldens were drawn with (once, about 4.5 MB): $(awk '{printf "%s%s %s", (NR > 1 ? ", " : ""), $2, $3}' <<<"$DEBS") into $ROOT"
TMP=$ROOT.tmp
rm -rf "$TMP" "$ROOT"
mkdir -p "$TMP/.debs"
mapfile -t MIRRORS < <(mirrors)
while read -r _ package version pool sum; do
	deb=$TMP/.debs/$(basename "$pool")
	got=""
	for m in "${MIRRORS[@]}"; do
		if curl -sSfL --connect-timeout 10 --max-time 120 -o "$deb" "$m/pool/$pool" 2>/dev/null; then
			got=$(sha256sum "$deb" | cut -d' ' -f1)
			[ "$got" = "$sum" ] && break
			say "$m/pool/$pool has SHA-256 $got, not the pinned $sum: not used"
		fi
		got=""
	done
	[ -n "$got" ] || die "could not fetch $package $version (pool/$pool) with its pinned SHA-256 from ${MIRRORS[*]}"
	dpkg-deb -x "$deb" "$TMP" || die "dpkg-deb -x $deb failed"
	[ -f "$TMP/usr/share/doc/$package/copyright" ] || die "$package has no copyright file (usr/share/doc/$package/copyright)"
done <<<"$DEBS"
rm -rf "$TMP/.debs"
printf '%s\n' "$DEBS" >"$TMP/.ready"
mv "$TMP" "$ROOT"
check || die "the unpacked fonts are not the pinned files (tools/test-fonts.txt)"
say "ready in $(($(date +%s) - T)) s: $(du -sm "$ROOT" | cut -f1) MB (licences in $ROOT/usr/share/doc/*/copyright)"
echo "$ROOT"
