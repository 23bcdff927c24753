#!/usr/bin/env bash
# debian-root.sh -- a minimal Debian root file system with systemd, built once with debootstrap
# into the VM cache and reused: the boot test installs the real glance package into a copy of
# it (tools/vm/device-image.sh) and boots it under qemu with Debian's kernel
# (tools/vm/run-in-vm.sh --root-image), so the unit, the package and the app are proven together.
#
#   tools/vm/debian-root.sh [--arch arm64] [PACKAGE...]     prints the path of the cached root
#
# --arch arm64: a Debian 13 "trixie" arm64 root (what Raspberry Pi OS 64-bit is based on), for
# the arm64 boot test: debootstrapped with --foreign here, its second stage and every install run
# as arm64 code by qemu-aarch64 in a namespace of their own (tools/arm64/foreign-chroot.sh: the
# host's binfmt_misc is not touched). The first run takes several minutes (emulated dpkg).
#
# PACKAGEs are installed into the cached root too when missing (the glance package's Depends,
# so `dpkg -i` of the package works offline). The first run downloads about 60 MB from the
# host's Debian mirror (the suite and mirror of the host's apt sources) and takes a few
# minutes; later runs print the path at once. Needs root (debootstrap and chroot); installs
# debootstrap when missing. Cache: $RUN_IN_VM_CACHE or ~/.cache/run-in-vm (as run-in-vm.sh).
set -euo pipefail
say() { echo "debian-root: $*" >&2; }
die() { say "$*"; exit 2; }

[ "$(id -u)" = 0 ] || die "needs root (debootstrap and chroot); run it as root or with sudo"
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
CACHE=${RUN_IN_VM_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/run-in-vm}
. /etc/os-release
SUITE=${VERSION_CODENAME:-bookworm}
ARCH=""
if [ "${1:-}" = --arch ]; then ARCH=$2; shift 2; fi
[ "$ARCH" = "$(dpkg --print-architecture)" ] && ARCH=""
case "$ARCH" in
"") ROOT=$CACHE/debian-root-$SUITE ;;
arm64) SUITE=trixie; ROOT=$CACHE/debian-root-$SUITE-arm64 ;;
*) die "--arch $ARCH: only arm64 (or this machine's own architecture)" ;;
esac
# chroot into the root: arm64 programs through qemu-aarch64 (binfmt_misc of a namespace of its own)
in_root() {
	if [ -z "$ARCH" ]; then chroot "$@"; else "$HERE/../arm64/foreign-chroot.sh" "$@"; fi
}
# What every boot needs besides the package: systemd as init, udev for /dev and the groups
# (video, input), procps for the footprint (ps), the fonts and libraries of the package are
# added through the arguments.
BASE=systemd-sysv,udev,procps

mirror() {
	local m
	m=$(sed -n 's/^URIs:[[:space:]]*\(http[^[:space:]]*\/debian\)[[:space:]]*$/\1/p' /etc/apt/sources.list.d/*.sources 2>/dev/null | head -1)
	[ -n "$m" ] || m=$(awk '$1=="deb" && $2 ~ /^http/ && $2 ~ /\/debian\/?$/ {print $2; exit}' /etc/apt/sources.list 2>/dev/null || true)
	echo "${m:-http://deb.debian.org/debian}"
}

# The mount points at or under folder $1 (canonical), deepest first.
mounts_under() {
	local raw m
	while read -r _ _ _ _ raw _; do
		printf -v m '%b' "$raw" # mountinfo writes a space as \040
		if [ "$m" = "$1" ] || [ "${m#"$1"/}" != "$m" ]; then echo "$m"; fi
	done </proc/self/mountinfo | sort -r
}
# Unmounts everything mounted at or under a folder: umount, else a lazy umount -l once, else
# an error. A host /dev, /sys or /proc left bound in the root would be copied into every image
# (device-image.sh), or emptied by an rm -rf of the root.
umount_under() {
	local dir m left
	dir=$(realpath -m "$1")
	while read -r m; do
		umount "$m" 2>/dev/null || umount -l "$m" || die "cannot unmount $m (the cached root must not keep host folders)"
	done < <(mounts_under "$dir")
	left=$(mounts_under "$dir")
	[ -z "$left" ] || die "still mounted under $dir: $(echo "$left" | tr '\n' ' ')"
}

mkdir -p "$CACHE"
exec 8>"$CACHE/.debian-root${ARCH:+-$ARCH}.lock"
LOG=$CACHE/debian-root${ARCH:+-$ARCH}.log
flock 8
# (holding the lock: anything still mounted there is left over from a run that was killed)
umount_under "$ROOT"
umount_under "$ROOT.tmp"
if [ ! -f "$ROOT/.ready" ]; then
	command -v debootstrap >/dev/null || {
		say "installing debootstrap"
		DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends debootstrap >/dev/null ||
			{ apt-get update >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends debootstrap >/dev/null; } ||
			die "apt-get install debootstrap failed"
	}
	M=$(mirror)
	say "building a minimal $SUITE root with systemd into $ROOT from $M (once; a few minutes)"
	rm -rf --one-file-system "$ROOT" "$ROOT.tmp" || die "cannot remove the old root $ROOT"
	if [ -z "$ARCH" ]; then
		debootstrap --variant=minbase --include="$BASE" "$SUITE" "$ROOT.tmp" "$M" >"$LOG" 2>&1 ||
			die "debootstrap failed; see $LOG"
	else
		T=$(date +%s)
		debootstrap --arch="$ARCH" --foreign --variant=minbase --include="$BASE" "$SUITE" "$ROOT.tmp" "$M" \
			>"$LOG" 2>&1 || die "debootstrap --foreign failed; see $LOG"
		say "second stage as $ARCH code under qemu-aarch64 (emulated: several minutes)"
		# (container=lxc: debootstrap then neither makes device nodes nor tests mknod, which a user
		# namespace may not do; /dev is the host's, bound in)
		in_root --mount-proc "$ROOT.tmp" /usr/bin/env container=lxc /debootstrap/debootstrap --second-stage \
			>>"$LOG" 2>&1 ||
			die "debootstrap --second-stage failed; see $LOG"
		say "$SUITE $ARCH root made in $(($(date +%s) - T)) s"
	fi
	echo "deb $M $SUITE main" >"$ROOT.tmp/etc/apt/sources.list"
	# A machine of its own: a name, no root password needed on the console (a test VM only).
	echo glance-vm >"$ROOT.tmp/etc/hostname"
	echo "127.0.1.1 glance-vm" >>"$ROOT.tmp/etc/hosts"
	printf '/dev/vda / ext4 rw,noatime 0 1\n' >"$ROOT.tmp/etc/fstab"
	in_root "$ROOT.tmp" passwd -d root >/dev/null
	in_root "$ROOT.tmp" apt-get clean
	mv "$ROOT.tmp" "$ROOT"
	touch "$ROOT/.ready"
fi

# Packages asked for that the root does not have yet (new dependencies of the package).
missing=()
for p in "$@"; do
	dpkg-query --admindir="$ROOT/var/lib/dpkg" -W -f='${Status}' "$p" 2>/dev/null |
		grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
	say "installing ${missing[*]} into $ROOT"
	mount_all() { for d in proc sys dev; do mount --bind "/$d" "$ROOT/$d"; done; }
	umount_all() { umount_under "$ROOT"; }
	trap umount_all EXIT
	mount_all
	cp /etc/resolv.conf "$ROOT/etc/resolv.conf" 2>/dev/null || true
	{ in_root "$ROOT" apt-get update && DEBIAN_FRONTEND=noninteractive in_root "$ROOT" apt-get install -y \
		--no-install-recommends "${missing[@]}"; } >>"$LOG" 2>&1 ||
		die "apt-get install ${missing[*]} in the root failed; see $LOG"
	in_root "$ROOT" apt-get clean
	rm -rf "$ROOT"/var/lib/apt/lists/*
	umount_all
	trap - EXIT
fi
echo "$ROOT"
