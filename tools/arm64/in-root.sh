#!/usr/bin/env bash
# in-root.sh -- runs a command inside the trixie build root (tools/arm64/build-root.sh), with the
# repository at the same path as on the host (so paths in messages, #filePath in the tests and
# the build's own paths are the host's), /proc, /dev and /sys of the host, and a fresh /tmp.
# The mounts live in a mount namespace of the command's own: they end with it, and commands
# running side by side do not see each other's.
#
#   tools/arm64/in-root.sh [--env K=V]... [--bind DIR]... [--] COMMAND [ARG...]
#
#   --env K=V   an environment variable for the command (repeatable); PATH, HOME, LANG and
#               TMPDIR are set for the root
#   --bind DIR  another host folder at the same path inside (repeatable)
#
# Exits with the command's status; 2 when the root cannot be made or entered.
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
say() { echo "in-root: $*" >&2; }

ENVS=() BINDS=("$REPO")
while [ $# -gt 0 ]; do
	case "$1" in
	--env) ENVS+=("$2"); shift 2 ;;
	--bind) BINDS+=("$(cd "$2" && pwd)"); shift 2 ;;
	--) shift; break ;;
	-h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
	*) break ;;
	esac
done
[ $# -gt 0 ] || { say "no command given (see --help)"; exit 2; }
[ "$(id -u)" = 0 ] || { say "needs root (chroot); run it as root or with sudo"; exit 2; }
ROOT=$("$HERE/build-root.sh" | tail -1) || { say "no build root (tools/arm64/build-root.sh failed)"; exit 2; }

# The part that runs in the new mount namespace: mount, then chroot. Its arguments: ROOT, the
# number of binds, the binds, the number of env settings, the settings, the command.
INNER='
set -e
root=$1; shift
for d in proc sys; do mount --bind "/$d" "$root/$d"; done
# A /dev of its own: the host'"'"'s device nodes bound one by one into a tmpfs, so nothing run in
# the root can delete or replace one of the host'"'"'s (a bound /dev would let it).
mount -t tmpfs -o mode=755 tmpfs "$root/dev"
for n in null zero full random urandom tty; do touch "$root/dev/$n"; mount --bind "/dev/$n" "$root/dev/$n"; done
mkdir -p "$root/dev/pts" "$root/dev/shm"
mount --bind /dev/pts "$root/dev/pts"
ln -s pts/ptmx "$root/dev/ptmx"
mount -t tmpfs -o mode=1777 tmpfs "$root/dev/shm"
ln -s /proc/self/fd "$root/dev/fd"
mount -t tmpfs -o mode=1777 tmpfs "$root/tmp"
n=$1; shift
while [ "$n" -gt 0 ]; do
	mkdir -p "$root$1"
	mount --bind "$1" "$root$1"
	shift; n=$((n - 1))
done
n=$1; shift
envs=()
while [ "$n" -gt 0 ]; do envs+=("$1"); shift; n=$((n - 1)); done
cp /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null || true
exec chroot "$root" /usr/bin/env -i PATH=/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin HOME=/root \
	LANG=C.UTF-8 TMPDIR=/tmp TERM="${TERM:-dumb}" "${envs[@]}" sh -c "cd \"\$0\" 2>/dev/null || cd /; exec \"\$@\"" "$PWD" "$@"
'
exec unshare --mount --propagation private -- bash -c "$INNER" in-root "$ROOT" \
	"${#BINDS[@]}" "${BINDS[@]}" "${#ENVS[@]}" "${ENVS[@]}" "$@"
