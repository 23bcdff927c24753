#!/usr/bin/env bash
# foreign-chroot.sh -- runs a command in an arm64 root file system from this x86-64 machine:
# chroot into it, with every arm64 program run by qemu-aarch64 (the static one of the trixie
# build root) through a binfmt_misc registration that exists only in a user namespace of the
# command's own (Linux 6.7 and later). The host's binfmt_misc is never touched, so nothing
# outside this command sees arm64 programs run.
#
#   tools/arm64/foreign-chroot.sh [--mount-proc] ROOT COMMAND [ARG...]
#
#   --mount-proc   mount /proc, /sys and /dev (bound from the host) in ROOT while it runs
#
# The user namespace maps uids and gids 0-65535 to themselves, so files keep their real owners.
# Exits with the command's status; 2 when the namespace cannot be set up.
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
say() { echo "foreign-chroot: $*" >&2; }
die() { say "$*"; exit 2; }

MOUNTS=0
[ "${1:-}" = --mount-proc ] && { MOUNTS=1; shift; }
[ $# -ge 2 ] || die "usage: foreign-chroot.sh [--mount-proc] ROOT COMMAND [ARG...]"
ROOT=$(cd "$1" && pwd)
shift
[ "$(id -u)" = 0 ] || die "needs root (it maps uids 0-65535 into the namespace and chroots)"
BUILD_ROOT=$("$HERE/build-root.sh" | tail -1)
QEMU=$BUILD_ROOT/usr/bin/qemu-aarch64
[ -x "$QEMU" ] || die "no qemu-aarch64 in the build root ($QEMU)"
case "$(file -b "$QEMU")" in *static*) ;; *) die "$QEMU is not static: it cannot run inside $ROOT" ;; esac

# aarch64 ELF executables and shared objects (as Debian's qemu-user-binfmt registers them); F:
# qemu is opened now, so it need not exist inside ROOT.
MAGIC='\x7fELF\x02\x01\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x02\x00\xb7\x00'
MASK='\xff\xff\xff\xff\xff\xff\xff\x00\xff\xff\xff\xff\xff\xff\xff\xff\xfe\xff\xff\xff'
INNER='
set -e
while [ -z "$(cat /proc/self/uid_map)" ] || [ -z "$(cat /proc/self/gid_map)" ]; do sleep 0.01; done
mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc ||
	{ echo "foreign-chroot: cannot mount binfmt_misc in a user namespace (needs Linux 6.7 or later)" >&2; exit 2; }
printf "%s" ":glance-aarch64:M::$MAGIC:$MASK:$QEMU:FOC" >/proc/sys/fs/binfmt_misc/register
root=$1; shift
if [ "$MOUNTS" = 1 ]; then
	mount --rbind /proc "$root/proc"
	mount --rbind /sys "$root/sys"
	# A /dev of its own (the host'"'"'s nodes bound one by one into a tmpfs): maintainer scripts may
	# delete or replace device files, and must not reach the host'"'"'s.
	mount -t tmpfs -o mode=755 tmpfs "$root/dev"
	for n in null zero full random urandom tty; do touch "$root/dev/$n"; mount --bind "/dev/$n" "$root/dev/$n"; done
	mkdir -p "$root/dev/pts" "$root/dev/shm"
	mount --bind /dev/pts "$root/dev/pts"
	ln -s pts/ptmx "$root/dev/ptmx"
	mount -t tmpfs -o mode=1777 tmpfs "$root/dev/shm"
fi
exec chroot "$root" "$@"
'
export MAGIC MASK QEMU MOUNTS
# The namespace is made by unshare; this shell (root of the host) writes its uid and gid maps
# once it exists, and the command waits for them.
unshare --user --mount --propagation private --fork bash -c "$INNER" foreign-chroot "$ROOT" "$@" &
pid=$!
mine=$(readlink /proc/self/ns/user)
for _ in $(seq 500); do
	theirs=$(readlink "/proc/$pid/ns/user" 2>/dev/null) || break
	[ "$theirs" != "$mine" ] && break
	sleep 0.01
done
echo "0 0 65536" >"/proc/$pid/uid_map" 2>/dev/null || { wait $pid || true; die "cannot write the uid map of the namespace"; }
echo "0 0 65536" >"/proc/$pid/gid_map" || die "cannot write the gid map of the namespace"
wait $pid
