#!/usr/bin/env bash
# build-root.sh -- the Debian 13 "trixie" build root for the arm64 package: an amd64 trixie made
# with debootstrap, in which Debian's own Swift 6.0.3 (`swiftlang`) runs (it needs glibc 2.38,
# which Debian 12 does not have), with the arm64 side of every library Glance links
# (`dpkg --add-architecture arm64`, the -dev:arm64 packages: the root is the arm64 sysroot too),
# the arm64 Swift toolchain's libraries unpacked into /opt/target-swift (libswiftlang:arm64
# cannot be installed beside the amd64 toolchain), qemu-aarch64 to run arm64 code and the fonts
# the screens use. Built once into the cache and reused; nothing of it is installed on the host
# and the host's apt sources are not touched.
#
#   tools/arm64/build-root.sh            prints the path of the ready root (the last line)
#
# The first run downloads about 1.2 GB from the host's Debian mirror (measured: the amd64 Swift
# and tools 645 MB, the arm64 swiftlang 416 MB, the arm64 libraries 88 MB, debootstrap's base and
# the package lists about 60 MB) and takes a few minutes; it prints how long it took and the
# root's size (4.4 GB). Later runs print the path at once. Needs root
# (debootstrap and chroot). Cache: $GLANCE_ARM64_CACHE, else ~/.cache/glance-arm64.
# Run commands in it with tools/arm64/in-root.sh.
set -euo pipefail
say() { echo "build-root: $*" >&2; }
die() { say "$*"; exit 2; }

[ "$(id -u)" = 0 ] || die "needs root (debootstrap and chroot); run it as root or with sudo"
CACHE=${GLANCE_ARM64_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/glance-arm64}
ROOT=$CACHE/trixie-root
# Bump when the list of packages below changes: an older root is built again.
LAYOUT=1

# The amd64 side: the Swift toolchain and what it runs, dpkg-shlibdeps (dpkg-dev) and strip for
# aarch64 (binutils-aarch64-linux-gnu), qemu-user (its static qemu-aarch64 runs the arm64 tests),
# the fonts (fontconfig builds their cache), and what the tests run besides glance (python3; zsh,
# fish and mandoc for the command line's completions and man page; curl for glance serve's tests).
HOST_PACKAGES=(swiftlang libc6-dev libstdc++-14-dev pkg-config dpkg-dev binutils-aarch64-linux-gnu
	qemu-user fontconfig fonts-inter fonts-wqy-microhei python3 zsh fish mandoc curl)
# The arm64 side: the C library and C++ runtime Swift links, and the -dev package of every system
# library in Package.swift (its `.apt([...])` providers: their .pc files and headers; the runtime
# libraries come with them). A system library added to Package.swift is added here by itself.
PACKAGE_SWIFT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)/Package.swift
mapfile -t DEV_PACKAGES < <(grep -o '\.apt(\[[^]]*\])' "$PACKAGE_SWIFT" | grep -o '"[^"]*"' | tr -d '"' | sort -u)
[ ${#DEV_PACKAGES[@]} -gt 0 ] || die "no .apt([...]) providers found in $PACKAGE_SWIFT"
ARM64_PACKAGES=(libc6-dev:arm64 libstdc++-14-dev:arm64 libgcc-14-dev:arm64 "${DEV_PACKAGES[@]/%/:arm64}")

mirror() {
	local m
	m=$(sed -n 's/^URIs:[[:space:]]*\(http[^[:space:]]*\/debian\)[[:space:]]*$/\1/p' /etc/apt/sources.list.d/*.sources 2>/dev/null | head -1)
	[ -n "$m" ] || m=$(awk '$1=="deb" && $2 ~ /^http/ && $2 ~ /\/debian\/?$/ {print $2; exit}' /etc/apt/sources.list 2>/dev/null || true)
	echo "${m:-http://deb.debian.org/debian}"
}

# Unmounts whatever is mounted at or under a folder, deepest first.
umount_under() {
	local dir raw m
	dir=$(realpath -m "$1")
	while read -r _ _ _ _ raw _; do
		printf -v m '%b' "$raw"
		if [ "$m" = "$dir" ] || [ "${m#"$dir"/}" != "$m" ]; then echo "$m"; fi
	done </proc/self/mountinfo | sort -r | while read -r m; do
		umount "$m" 2>/dev/null || umount -l "$m" || die "cannot unmount $m"
	done
}

mkdir -p "$CACHE"
exec 8>"$CACHE/.build-root.lock"
flock 8
if [ -f "$ROOT/.ready" ] && [ "$(cat "$ROOT/.ready")" = "$LAYOUT" ]; then
	# Packages added to the lists since the root was made.
	missing=()
	for p in "${HOST_PACKAGES[@]}" "${ARM64_PACKAGES[@]}"; do
		chroot "$ROOT" dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
	done
	if [ ${#missing[@]} -gt 0 ]; then
		say "installing ${missing[*]} into $ROOT"
		unshare --mount --propagation private -- sh -c '
			for d in proc sys dev dev/pts; do mount --bind "/$d" "$1/$d"; done
			cp /etc/resolv.conf "$1/etc/resolv.conf" 2>/dev/null || true
			shift; root=$1; shift
			chroot "$root" env DEBIAN_FRONTEND=noninteractive apt-get update &&
				chroot "$root" env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "$@" &&
				chroot "$root" apt-get clean && rm -rf "$root"/var/lib/apt/lists/*' \
			sh "$ROOT" "$ROOT" "${missing[@]}" >>"$CACHE/build-root.log" 2>&1 ||
			die "apt-get install ${missing[*]} in $ROOT failed; see $CACHE/build-root.log"
	fi
	echo "$ROOT"
	exit 0
fi

command -v debootstrap >/dev/null || {
	say "installing debootstrap (Debian 12's, on the host)"
	DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends debootstrap >/dev/null ||
		{ apt-get update >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends debootstrap >/dev/null; } ||
		die "apt-get install debootstrap failed"
}
START=$(date +%s)
M=$(mirror)
TMP=$ROOT.tmp
LOG=$CACHE/build-root.log
umount_under "$TMP"
umount_under "$ROOT"
rm -rf --one-file-system "$TMP" "$ROOT" || die "cannot remove the old root $ROOT"
say "building the trixie build root in $ROOT from $M (once; a few minutes, about 1.2 GB downloaded; log $LOG)"
: >"$LOG"
debootstrap --variant=minbase trixie "$TMP" "$M" >>"$LOG" 2>&1 || die "debootstrap trixie failed; see $LOG"
echo "deb $M trixie main" >"$TMP/etc/apt/sources.list"
cp /etc/resolv.conf "$TMP/etc/resolv.conf" 2>/dev/null || true
trap 'umount_under "$TMP"' EXIT
for d in proc sys dev dev/pts; do mount --bind "/$d" "$TMP/$d"; done
in_tmp() { chroot "$TMP" env DEBIAN_FRONTEND=noninteractive LC_ALL=C.UTF-8 "$@" >>"$LOG" 2>&1; }
T=$(date +%s)
in_tmp dpkg --add-architecture arm64 || die "dpkg --add-architecture arm64 failed; see $LOG"
in_tmp apt-get update || die "apt-get update in the root failed; see $LOG"
in_tmp apt-get install -y --no-install-recommends "${HOST_PACKAGES[@]}" ||
	die "apt-get install ${HOST_PACKAGES[*]} in the root failed; see $LOG"
say "amd64 toolchain installed ($(($(date +%s) - T)) s)"
T=$(date +%s)
in_tmp apt-get install -y --no-install-recommends "${ARM64_PACKAGES[@]}" ||
	die "apt-get install of the arm64 libraries in the root failed; see $LOG"
# The arm64 Swift: its modules, runtime and static standard library, unpacked beside (never
# installed: apt would remove the amd64 toolchain).
in_tmp sh -c 'rm -rf /var/tmp/target-swift && mkdir -p /var/tmp/target-swift && cd /var/tmp/target-swift &&
	apt-get download swiftlang:arm64 libswiftlang:arm64 && mkdir -p /opt/target-swift &&
	for deb in *.deb; do dpkg -x "$deb" /opt/target-swift; done && rm -rf /var/tmp/target-swift' ||
	die "unpacking the arm64 swiftlang into /opt/target-swift failed; see $LOG"
[ -d "$TMP/opt/target-swift/usr/libexec/swift/lib/swift_static/linux" ] ||
	die "the arm64 swiftlang has no static standard library at usr/libexec/swift/lib/swift_static/linux"
# Only its libraries are used (modules, runtime, static library): not its arm64 programs.
rm -rf "$TMP"/opt/target-swift/usr/libexec/swift/bin "$TMP"/opt/target-swift/usr/libexec/swift/lib/lib*.so*
say "arm64 libraries and Swift installed ($(($(date +%s) - T)) s)"
in_tmp apt-get clean
rm -rf "$TMP"/var/lib/apt/lists/*
# The sysroot of the Swift SDK: the root itself, under a path of its own (a sysroot of / makes
# SwiftPM take the package's own modules for the SDK's: "loaded from SDK" warnings).
ln -sfn / "$TMP/opt/arm64-sysroot"
umount_under "$TMP"
trap - EXIT
echo "$LAYOUT" >"$TMP/.ready"
mv "$TMP" "$ROOT"
say "ready in $(($(date +%s) - START)) s: $(du -sm --one-file-system "$ROOT" | cut -f1) MB at $ROOT"
echo "$ROOT"
