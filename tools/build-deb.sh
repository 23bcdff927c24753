#!/usr/bin/env bash
# build-deb.sh -- the Debian package of Glance: the glance binary and the executables it runs
# git-style from /usr/lib/glance (glance-import, glance-serve, glance-mqtt: the import's and the
# network's libraries are theirs, not the panel process's) (release builds, Swift standard
# library linked in statically, so the board needs no Swift runtime), the systemd units, the
# default configuration (a conffile), the documentation, and maintainer scripts that create the
# glance user and enable the service.
#
#   tools/build-deb.sh [--arch amd64|arm64] [--binary PATH] [--out DIR] [--version VERSION]
#
#   --arch A        the package's architecture (default: this machine's). arm64 on an x86-64
#                   machine is cross-built with Debian 13's Swift 6.0.3 in the trixie build root
#                   (tools/arm64/: made once into ~/.cache/glance-arm64, nothing installed on
#                   the host), for Debian 13 / Raspberry Pi OS (64-bit)
#   --binary PATH   package this glance binary, and the glance-import, glance-serve and
#                   glance-mqtt beside it, instead of building them (they must not need the
#                   Swift runtime's shared libraries: build with --static-swift-stdlib)
#   --out DIR       where the .deb goes (default .build/deb); its path is the last line printed
#   --version V     package version (default BASE+gitN.HASH: BASE from Sources/CBuildInfo, N and
#                   HASH from the git history); `glance --version` prints the same
#
# Depends is derived from the binaries: dpkg-shlibdeps maps every shared library it links to
# the Debian package (and minimum version) that provides it (for arm64, against the trixie
# arm64 libraries of the build root); the fonts the screens use are added by name (fontconfig
# finds them at run time, so no linker can see them). On an arm64 machine (a Raspberry Pi with
# swiftlang: device/raspberry-pi/README.md) the native build is arm64.
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/.." && pwd)
say() { echo "build-deb: $*" >&2; }
die() { say "$*"; exit 1; }

BINARY="" OUT=$ROOT/.build/deb VERSION="" ARCH=""
while [ $# -gt 0 ]; do
	case "$1" in
	--arch) ARCH=$2; shift 2 ;;
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

HOST_ARCH=$(dpkg --print-architecture)
ARCH=${ARCH:-$HOST_ARCH}
case "$ARCH" in
"$HOST_ARCH") CROSS=0 ;;
arm64) CROSS=1 ;;
*) die "--arch $ARCH: this machine ($HOST_ARCH) builds $HOST_ARCH, and arm64 from x86-64 (tools/arm64)" ;;
esac
[ $CROSS = 0 ] || [ "$HOST_ARCH" = amd64 ] || die "--arch arm64 is cross-built from amd64 only (this is $HOST_ARCH)"

if [ -z "$VERSION" ]; then
	VERSION=$(sed -n 's/^#define GLANCE_BASE_VERSION "\(.*\)"$/\1/p' "$ROOT/Sources/CBuildInfo/build_info.c")
	[ -n "$VERSION" ] || die "no GLANCE_BASE_VERSION in Sources/CBuildInfo/build_info.c"
	if git -C "$ROOT" rev-parse --git-dir >/dev/null 2>&1; then
		VERSION+="+git$(git -C "$ROOT" rev-list --count HEAD).$(git -C "$ROOT" rev-parse --short=7 HEAD)"
	fi
fi

# The executables the package holds besides glance (run by it git-style from /usr/lib/glance).
HELPERS="glance-import glance-serve glance-mqtt"

if [ -z "$BINARY" ]; then
	# The version the binary prints: a header only Sources/CBuildInfo includes, on an include
	# path that stays the same (a new version relinks; it does not rebuild every module).
	VERSION_DIR=$ROOT/.build/version
	mkdir -p "$VERSION_DIR"
	header="#define GLANCE_VERSION \"$VERSION\""
	# Written whole, by a rename: make test builds the x86-64 and arm64 packages at the same time.
	if [ "$(cat "$VERSION_DIR/glance_version.h" 2>/dev/null)" != "$header" ]; then
		echo "$header" >"$VERSION_DIR/glance_version.h.$$" && mv -f "$VERSION_DIR/glance_version.h.$$" "$VERSION_DIR/glance_version.h"
	fi
	# The C++ library the Swift runtime uses, linked in statically too: the static Swift standard
	# library's link asks for -lstdc++, which finds the archive in this folder (holding only it)
	# before the shared library (every -L applies to every -l; the folders in their order). The
	# loader's symbol lookups for libstdc++'s own relocations were a third of what runs before
	# `main` (1,667 of them: docs/speed.md, the first frame); no other library glance loads needs
	# it. (GCC's runtime library exception covers the static link; debian/copyright says so.)
	CXX_DIR=$ROOT/.build/static-libstdc++/$ARCH
	mkdir -p "$CXX_DIR"
	if [ $CROSS = 0 ]; then
		cxx=$(gcc -print-file-name=libstdc++.a)
	else
		# A path in the build root, where the link runs (the root sees .build at the same path).
		cxx=$(cd "$("$HERE/arm64/build-root.sh" | tail -1)" && ls usr/lib/gcc/aarch64-linux-gnu/*/libstdc++.a 2>/dev/null | sort -V | tail -1)
		[ -z "$cxx" ] || cxx=/$cxx
	fi
	case "$cxx" in /*libstdc++.a) ;; *) die "no libstdc++.a for $ARCH (the release's libstdc++-NN-dev)" ;; esac
	ln -sfn "$cxx" "$CXX_DIR/libstdc++.a"
	if [ $CROSS = 0 ]; then
		[ -e "$CXX_DIR/libstdc++.a" ] || die "no $cxx (the release's libstdc++-NN-dev)"
		say "building glance $VERSION (release, static Swift standard library, in .build/static)"
		# A scratch folder of its own: the same folder as `swift build -c release` (make run, make
		# sim) would relink both ways each time the other one builds.
		BUILD=(swift build -c release --static-swift-stdlib --scratch-path "$ROOT/.build/static"
			-Xcc "-I$VERSION_DIR" -Xlinker "-L$CXX_DIR")
		# Product by product: a build of everything would take in the tests' support library,
		# which needs Swift Testing, which has no static library.
		for product in glance $HELPERS; do
			(cd "$ROOT" && "${BUILD[@]}" --product "$product" >&2) || die "swift build --product $product failed"
		done
		BINARY=$(cd "$ROOT" && "${BUILD[@]}" --show-bin-path)/glance
	else
		say "cross-building glance $VERSION for arm64 (Swift 6.0.3 of Debian 13, release, static Swift standard library, in .build/arm64-release)"
		BUILD=("$HERE/arm64/swift-build.sh" -c release --static-swift-stdlib
			--scratch-path "$ROOT/.build/arm64-release" -Xcc "-I$VERSION_DIR" -Xlinker "-L$CXX_DIR")
		mkdir -p "$ROOT/.build/arm64-release"
		built=0
		: >"$ROOT/.build/arm64-release/build.log"
		for product in glance $HELPERS; do
			[ $built = 0 ] || break
			"${BUILD[@]}" --product "$product" >>"$ROOT/.build/arm64-release/build.log" 2>&1 || built=$?
		done
		# (the SDK's warnings about SDKSettings.json and -pthread are left out: they say nothing)
		grep -v -e 'Could not read SDKSettings.json' -e 'prohibited flag(s): -pthread' \
			"$ROOT/.build/arm64-release/build.log" >&2 || true
		[ $built = 0 ] || die "the arm64 build failed (log .build/arm64-release/build.log): ${BUILD[*]}"
		BINARY=$("${BUILD[@]}" --show-bin-path 2>/dev/null | tail -1)/glance
	fi
fi
[ -x "$BINARY" ] || die "no such binary: $BINARY"
for helper in $HELPERS; do
	[ -x "$(dirname "$BINARY")/$helper" ] || die "no $helper beside $BINARY (swift build builds it with glance)"
done
case "$(file -b "$BINARY" 2>/dev/null)" in
*aarch64*) BIN_ARCH=arm64 ;;
*x86-64*) BIN_ARCH=amd64 ;;
*) BIN_ARCH=unknown ;;
esac
[ "$BIN_ARCH" = "$ARCH" ] || [ "$BIN_ARCH" = unknown ] || die "$BINARY is an $BIN_ARCH program, not $ARCH"
if [ $CROSS = 0 ] && ldd "$BINARY" 2>/dev/null | grep -q 'libswiftCore'; then
	die "$BINARY links the Swift runtime dynamically; build it with --static-swift-stdlib"
fi
if [ $CROSS = 1 ] && "$HERE/arm64/in-root.sh" --bind "$(dirname "$BINARY")" aarch64-linux-gnu-readelf -d "$BINARY" |
	grep -q 'libswiftCore'; then
	die "$BINARY links the Swift runtime dynamically; build it with --static-swift-stdlib"
fi
# (only a build of this script's own: a binary given with --binary is packaged as it is)
if [ -n "${CXX_DIR:-}" ]; then
	if [ $CROSS = 0 ]; then needed=$(readelf -d "$BINARY"); else
		needed=$("$HERE/arm64/in-root.sh" --bind "$(dirname "$BINARY")" aarch64-linux-gnu-readelf -d "$BINARY"); fi
	! grep -q 'libstdc++' <<<"$needed" || die "$BINARY links libstdc++ dynamically: the static link did not find $CXX_DIR/libstdc++.a"
fi

# In .build (the build root sees the repository at the same path, not the host's /tmp).
mkdir -p "$ROOT/.build"
# The package's name and the Debian packages it cannot be installed beside (the control file below
# says why; tools/package-check.sh checks both against Debian's archive).
PACKAGE=glance-panel
CONFLICTS="python3-glanceclient, python-glanceclient-doc, glance-common"
WORK=$(mktemp -d "$ROOT/.build/deb-work.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
PKG=$WORK/glance
install -d "$PKG/DEBIAN" "$PKG/usr/bin" "$PKG/usr/lib/glance" "$PKG/lib/systemd/system" "$PKG/etc/glance" \
	"$PKG/usr/share/doc/glance-panel/raspberry-pi" "$PKG/usr/share/glance/raspberry-pi"
install -m 755 "$BINARY" "$PKG/usr/bin/glance"
for helper in $HELPERS; do install -m 755 "$(dirname "$BINARY")/$helper" "$PKG/usr/lib/glance/$helper"; done
EXECUTABLES="$PKG/usr/bin/glance $(for helper in $HELPERS; do printf '%s ' "$PKG/usr/lib/glance/$helper"; done)"
if [ $CROSS = 0 ]; then
	# shellcheck disable=SC2086
	strip --strip-unneeded $EXECUTABLES
else
	# shellcheck disable=SC2086
	"$HERE/arm64/in-root.sh" aarch64-linux-gnu-strip --strip-unneeded $EXECUTABLES ||
		die "aarch64-linux-gnu-strip failed in the build root"
fi
install -m 644 "$ROOT/device/glance.service" "$PKG/lib/systemd/system/glance.service"
# glance serve's unit: installed, off until enabled (docs/live-data.md).
install -m 644 "$ROOT/device/glance-serve.service" "$PKG/lib/systemd/system/glance-serve.service"
install -m 644 "$ROOT/device/glance-mqtt.service" "$PKG/lib/systemd/system/glance-mqtt.service"
# The watched folder (glance import --watch): installed, off until enabled (docs/live-data.md).
install -m 644 "$ROOT/device/glance-import-watch.service" "$PKG/lib/systemd/system/glance-import-watch.service"
# The panel's web page (glance web): installed, off until enabled (docs/web.md).
install -m 644 "$ROOT/device/glance-web.service" "$PKG/lib/systemd/system/glance-web.service"
install -D -m 644 "$ROOT/device/60-glance-backlight.rules" "$PKG/lib/udev/rules.d/60-glance-backlight.rules"
install -m 644 "$ROOT/device/config.json" "$PKG/etc/glance/config.json"
install -m 644 "$ROOT/device/README.md" "$ROOT/device/config.example.json" "$PKG/usr/share/doc/glance-panel/"
# The Raspberry Pi guide with the documentation; the files it has the board use (the panels'
# initialisation files, their converter to /lib/firmware/panel.bin, the buttons' key map) in
# /usr/share/glance/raspberry-pi: nothing may need /usr/share/doc to work (Debian Policy 12.3),
# and images that leave it out (dpkg path-exclude) exist.
install -m 644 "$ROOT/device/raspberry-pi/README.md" "$PKG/usr/share/doc/glance-panel/raspberry-pi/"
for f in "$ROOT"/device/raspberry-pi/*; do
	[ -f "$f" ] && [ "${f##*/}" != README.md ] && install -m 644 "$f" "$PKG/usr/share/glance/raspberry-pi/"
done
# Live data and the home (the units' Documentation= name live-data.md and home-assistant.md).
install -m 644 "$ROOT/docs/live-data.md" "$ROOT/docs/home-assistant.md" "$ROOT/docs/web.md" "$PKG/usr/share/doc/glance-panel/"

# The manual page and the shells' completions, written by the program from its declared
# options (glance help --man, glance completion SHELL): an arm64 binary is run by the build
# root's qemu-aarch64.
run_glance() {
	if [ $CROSS = 0 ]; then
		"$PKG/usr/bin/glance" "$@"
	else
		"$HERE/arm64/in-root.sh" --bind "$PKG/usr/bin" qemu-aarch64 "$PKG/usr/bin/glance" "$@"
	fi
}
install -d "$PKG/usr/share/man/man1"
run_glance help --man >"$WORK/glance.1" || die "glance help --man failed"
grep -q '^\.TH' "$WORK/glance.1" || die "glance help --man wrote no manual page"
gzip -9n <"$WORK/glance.1" >"$PKG/usr/share/man/man1/glance.1.gz"
# Where each shell looks for a package's completions (CompletionScript.installPath; a test
# compares the two lists).
COMPLETIONS="bash:share/bash-completion/completions/glance zsh:share/zsh/vendor-completions/_glance fish:share/fish/vendor_completions.d/glance.fish"
for entry in $COMPLETIONS; do
	shell=${entry%%:*} target=${entry#*:}
	install -d "$PKG/usr/$(dirname "$target")"
	run_glance completion "$shell" >"$PKG/usr/$target" || die "glance completion $shell failed"
	[ -s "$PKG/usr/$target" ] || die "glance completion $shell wrote nothing"
done
cat >"$PKG/usr/share/doc/glance-panel/copyright" <<'EOF'
Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/
Upstream-Name: glance-panel
Comment: Glance, the glanceable display. The binary links the Swift standard library
 statically (Apache License 2.0 with Runtime Library Exception), and GCC's C++ library
 (GPL 3 with the GCC Runtime Library Exception, version 3.1).
EOF
for script in postinst prerm postrm; do install -m 755 "$HERE/deb/$script" "$PKG/DEBIAN/$script"; done
echo /etc/glance/config.json >"$PKG/DEBIAN/conffiles"

# Depends from the libraries the executables link to (dpkg-shlibdeps wants a debian/control), and
# from those glance opens on first use (Sources/CDeferred: their sonames in its section
# glance_deferred), added as NEEDED to a copy that only dpkg-shlibdeps reads.
mkdir -p "$WORK/src/debian"
printf 'Source: %s\n\nPackage: %s\nArchitecture: any\n' "$PACKAGE" "$PACKAGE" >"$WORK/src/debian/control"
DEFERRED=$(readelf -p glance_deferred "$PKG/usr/bin/glance" 2>/dev/null | sed -n 's/^ *\[ *[0-9a-f]*\] *//p')
[ -n "$DEFERRED" ] || die "$BINARY has no section glance_deferred (the libraries it opens on first use)"
command -v patchelf >/dev/null || die "patchelf is missing: apt-get install patchelf (make deps does)"
cp "$PKG/usr/bin/glance" "$WORK/src/glance"
for soname in $DEFERRED; do patchelf --add-needed "$soname" "$WORK/src/glance"; done
SCANNED=("$WORK/src/glance")
for helper in $HELPERS; do
	cp "$PKG/usr/lib/glance/$helper" "$WORK/src/$helper"
	SCANNED+=("$WORK/src/$helper")
done
if [ $CROSS = 0 ]; then
	SHLIBS=$(cd "$WORK/src" && dpkg-shlibdeps -O "${SCANNED[@]}" 2>"$WORK/shlibdeps.err") ||
		die "dpkg-shlibdeps failed: $(cat "$WORK/shlibdeps.err")"
else
	# In the build root, against its trixie arm64 libraries (aarch64-linux-gnu-objdump reads the binary).
	SHLIBS=$(cd "$WORK/src" && "$HERE/arm64/in-root.sh" dpkg-architecture -aarm64 -c \
		dpkg-shlibdeps -O "${SCANNED[@]}" 2>"$WORK/shlibdeps.err") ||
		die "dpkg-shlibdeps (arm64, in the build root) failed: $(cat "$WORK/shlibdeps.err")"
fi
DEPENDS=${SHLIBS#shlibs:Depends=}
[ -n "$DEPENDS" ] || die "dpkg-shlibdeps found no libraries in $BINARY"
DEPENDS+=", $FONT_PACKAGES"

SIZE=$(du -sk --exclude=DEBIAN "$PKG" | cut -f1)
# The package's name is glance-panel: Debian 12 and 13 ship OpenStack's image service as `glance`
# (epoch 2), which apt would take for a newer version of a package of ours named so. The command
# stays `glance`; where Debian ships the same paths the clash is declared (docs/setup.md):
# python3-glanceclient's /usr/bin/glance and python-glanceclient-doc's glance(1), and glance-common's
# user glance, /etc/glance and /var/lib/glance (OpenStack's services run as that user there).
# Conflicts and Replaces on this project's own earlier package `glance` (versions with no epoch,
# below 1:0; Debian's is 2:…) have dpkg take its files over and remove it, so an installed panel
# moves to the new name with its configuration and store.
cat >"$PKG/DEBIAN/control" <<EOF
Package: $PACKAGE
Version: $VERSION
Architecture: $ARCH
Maintainer: Glance <glance@localhost>
Installed-Size: $SIZE
Depends: $DEPENDS
Recommends: systemd
Conflicts: $CONFLICTS, glance (<< 1:0)
Replaces: glance (<< 1:0)
Section: misc
Priority: optional
Description: glanceable display for small panels on Linux boards
 Glance shows Activity rings, gauges and progress screens on a small panel (a Raspberry Pi
 DSI, DPI or SPI display, a kiosk) straight through DRM/KMS, with buttons and touch through
 evdev. The glance.service unit starts it on tty1 at boot.
EOF

mkdir -p "$OUT"
DEB=$OUT/${PACKAGE}_${VERSION}_$ARCH.deb
dpkg-deb --root-owner-group -Zxz --build "$PKG" "$DEB" >/dev/null
say "Depends: $DEPENDS"
say "Installed-Size: $SIZE KiB; package $(du -k "$DEB" | cut -f1) KiB"
echo "$DEB"
