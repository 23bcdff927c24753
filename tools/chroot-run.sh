# chroot-run.sh -- sourced by the scripts that run commands in a Debian root of their own
# (tools/install-check.sh, tools/ha-current.sh):
#
#   in_root ROOT [--bind DIR]... [--env K=V]... [--] COMMAND [ARG...]
#
# runs COMMAND chrooted into ROOT in a mount namespace of its own (the mounts end with it; two
# commands side by side do not see each other's): /proc, a /dev of a few of the host's nodes bound
# into a tmpfs (nothing in the root can delete or replace one of the host's; no /dev/dri), a fresh
# /tmp and /dev/shm, each DIR at the same path inside, and the host's resolver. The environment
# is PATH, HOME=/root, LANG=C.UTF-8 and TERM=dumb, then each K=V (a later PATH replaces the first).
# Its status is the command's.
in_root() {
	local root=$1 binds=() envs=()
	shift
	while [ $# -gt 0 ]; do
		case "$1" in
		--bind) binds+=("$2"); shift 2 ;;
		--env) envs+=("$2"); shift 2 ;;
		--) shift; break ;;
		*) break ;;
		esac
	done
	cp /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null || true
	unshare --mount --propagation private -- bash -c '
		set -e
		root=$1; n=$2; shift 2
		binds=("${@:1:n}"); shift "$n"
		n=$1; shift
		envs=("${@:1:n}"); shift "$n"
		mount -t proc proc "$root/proc"
		mount -t tmpfs -o mode=755 tmpfs "$root/dev"
		for d in null zero full random urandom tty; do touch "$root/dev/$d"; mount --bind "/dev/$d" "$root/dev/$d"; done
		mkdir -p "$root/dev/pts" "$root/dev/shm"
		mount -t tmpfs -o mode=1777 tmpfs "$root/dev/shm"
		ln -s /proc/self/fd "$root/dev/fd"
		mount -t tmpfs -o mode=1777 tmpfs "$root/tmp"
		for b in "${binds[@]}"; do mkdir -p "$root$b"; mount --bind "$b" "$root$b"; done
		exec chroot "$root" /usr/bin/env -i PATH=/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin HOME=/root LANG=C.UTF-8 \
			TERM=dumb "${envs[@]}" "$@"' \
		in-root "$root" "${#binds[@]}" "${binds[@]}" "${#envs[@]}" "${envs[@]}" "$@"
}
