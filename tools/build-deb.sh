#!/usr/bin/env bash
# build-deb.sh -- the Debian package of Glance: the glance binary (release build, Swift standard
# library linked in statically, so the board needs no Swift runtime), the systemd unit, the
# default configuration (a conffile), the documentation, and maintainer scripts that create the
# glance user and enable the service.
#
#   tools/build-deb.sh [--binary PATH] [--out DIR] [--version VERSION]
#
#   --binary PATH   package this glance binary instead of building one (it must not need the
#                   Swift runtime's shared libraries: build with --static-swift-stdlib)
#   --out DIR       where the .deb goes (default .build/deb); its path is the last line printed
#   --version V     package version (default 0.1.0+gitN.HASH from the git history)
#
# Depends is derived from the binary: dpkg-shlibdeps maps every shared library it links to
# the Debian package (and minimum version) that provides it; the fonts the screens use are
# added by name (fontconfig finds them at run time, so no linker can see them). Works on
# amd64 and arm64 alike (a Raspberry Pi builds its own package: device/raspberry-pi/README.md).
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/.." && pwd)
say() { echo "build-deb: $*" >&2; }
die() { say "$*"; exit 1; }

BINARY="" OUT=$ROOT/.build/deb VERSION=""
while [ $# -gt 0 ]; do
	case "$1" in
	--binary) BINARY=$2; shift 2 ;;
	--out) OUT=$2; shift 2 ;;
	--version) VERSION=$2; shift 2 ;;
	-h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
	*) die "unknown option $1 (see --help)" ;;
	esac
done

# The fonts the screens use (as in tools/debian-packages.txt): Inter, WenQuanYi Micro Hei; and
# fontconfig, whose triggers keep the system's font cache built (without it the app scans every
# font file at each start: 6 s instead of 1.7 s to the first frame in the VM).
FONT_PACKAGES="fonts-inter, fonts-wqy-microhei, fontconfig"

command -v dpkg-deb >/dev/null || die "dpkg-deb is missing (Debian's dpkg)"
command -v dpkg-shlibdeps >/dev/null || die "dpkg-shlibdeps is missing: apt-get install dpkg-dev (make deps does)"

if [ -z "$BINARY" ]; then
	say "building glance (release, static Swift standard library, in .build/static)"
	# A scratch folder of its own: the same folder as `swift build -c release` (make run, make
	# sim) would relink both ways each time the other one builds.
	BUILD=(swift build -c release --static-swift-stdlib --scratch-path "$ROOT/.build/static")
	(cd "$ROOT" && "${BUILD[@]}" >&2) || die "swift build failed"
	BINARY=$(cd "$ROOT" && "${BUILD[@]}" --show-bin-path)/glance
fi
[ -x "$BINARY" ] || die "no such binary: $BINARY"
if ldd "$BINARY" 2>/dev/null | grep -q 'libswiftCore'; then
	die "$BINARY links the Swift runtime dynamically; build it with --static-swift-stdlib"
fi

if [ -z "$VERSION" ]; then
	VERSION=0.1.0
	if git -C "$ROOT" rev-parse --git-dir >/dev/null 2>&1; then
		VERSION+="+git$(git -C "$ROOT" rev-list --count HEAD).$(git -C "$ROOT" rev-parse --short=7 HEAD)"
	fi
fi
ARCH=$(dpkg --print-architecture)

WORK=$(mktemp -d "${TMPDIR:-/tmp}/glance-deb.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
PKG=$WORK/glance
install -d "$PKG/DEBIAN" "$PKG/usr/bin" "$PKG/lib/systemd/system" "$PKG/etc/glance" \
	"$PKG/usr/share/doc/glance/raspberry-pi"
install -m 755 "$BINARY" "$PKG/usr/bin/glance"
strip --strip-unneeded "$PKG/usr/bin/glance"
install -m 644 "$ROOT/device/glance.service" "$PKG/lib/systemd/system/glance.service"
install -D -m 644 "$ROOT/device/60-glance-backlight.rules" "$PKG/lib/udev/rules.d/60-glance-backlight.rules"
install -m 644 "$ROOT/device/config.json" "$PKG/etc/glance/config.json"
install -m 644 "$ROOT/device/README.md" "$ROOT/device/config.example.json" "$PKG/usr/share/doc/glance/"
for f in "$ROOT"/device/raspberry-pi/*; do
	[ -f "$f" ] && install -m 644 "$f" "$PKG/usr/share/doc/glance/raspberry-pi/"
done
cat >"$PKG/usr/share/doc/glance/copyright" <<'EOF'
Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/
Upstream-Name: glance
Comment: Glance, the glanceable display. The binary links the Swift standard library
 statically (Apache License 2.0 with Runtime Library Exception).
EOF
for script in postinst prerm postrm; do install -m 755 "$HERE/deb/$script" "$PKG/DEBIAN/$script"; done
echo /etc/glance/config.json >"$PKG/DEBIAN/conffiles"

# Depends from the libraries the binary links to (dpkg-shlibdeps wants a debian/control).
mkdir -p "$WORK/src/debian"
printf 'Source: glance\n\nPackage: glance\nArchitecture: any\n' >"$WORK/src/debian/control"
SHLIBS=$(cd "$WORK/src" && dpkg-shlibdeps -O "$PKG/usr/bin/glance" 2>"$WORK/shlibdeps.err") ||
	die "dpkg-shlibdeps failed: $(cat "$WORK/shlibdeps.err")"
DEPENDS=${SHLIBS#shlibs:Depends=}
[ -n "$DEPENDS" ] || die "dpkg-shlibdeps found no libraries in $BINARY"
DEPENDS+=", $FONT_PACKAGES"

SIZE=$(du -sk --exclude=DEBIAN "$PKG" | cut -f1)
cat >"$PKG/DEBIAN/control" <<EOF
Package: glance
Version: $VERSION
Architecture: $ARCH
Maintainer: Glance <glance@localhost>
Installed-Size: $SIZE
Depends: $DEPENDS
Recommends: systemd
Section: misc
Priority: optional
Description: glanceable display for small panels on Linux boards
 Glance shows Activity rings, gauges and progress screens on a small panel (a Raspberry Pi
 DSI, DPI or SPI display, a kiosk) straight through DRM/KMS, with buttons and touch through
 evdev. The glance.service unit starts it on tty1 at boot.
EOF

mkdir -p "$OUT"
DEB=$OUT/glance_${VERSION}_$ARCH.deb
dpkg-deb --root-owner-group -Zxz --build "$PKG" "$DEB" >/dev/null
say "Depends: $DEPENDS"
say "Installed-Size: $SIZE KiB; package $(du -k "$DEB" | cut -f1) KiB"
echo "$DEB"
