#!/usr/bin/env bash
# device-image.sh -- a bootable Debian root file system image with the glance package
# installed by dpkg, as on a board: a copy of the cached minimal Debian root
# (tools/vm/debian-root.sh) in which the package is first installed, removed and purged
# (checked: the user and the enabled unit after installing, nothing of the package left after
# purging), then installed for good; plus any test files; written to an ext4 image that
# `run-in-vm.sh --root-image` boots with systemd.
#
#   tools/vm/device-image.sh --deb FILE --image FILE [--add SRC:DEST]... [--enable UNIT]...
#                            [--run 'COMMAND']... [--package PKG]... [--size MB]
#
#   --add SRC:DEST  copy a file into the image, or a folder in place of the folder there
#   --package PKG   a Debian package the test needs besides the package's Depends (the boot
#                   test's MQTT broker, mosquitto): installed into the cached root with them,
#                   so it is downloaded once and every later image has it offline
#   --enable UNIT   systemctl enable it; --run 'COMMAND': run it in the root (sh -c) at the end
#
# An arm64 package on an x86-64 machine goes into a Debian 13 arm64 root (debian-root.sh
# --arch arm64), its programs run by qemu-aarch64 (tools/arm64/foreign-chroot.sh).
#
# Prints "PACKAGE ..." lines saying what was checked; exit 1 when a check fails, 2 on a
# setup problem. Needs root (chroot), like debian-root.sh.
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
say() { echo "device-image: $*" >&2; }
die() { say "$*"; exit 2; }
fail() { echo "PACKAGE FAILED: $*"; exit 1; }
ok() { echo "PACKAGE ok: $*"; }

DEB="" IMAGE="" SIZE=768 ADDS=() ENABLES=() RUNS=() PACKAGES=()
while [ $# -gt 0 ]; do
	case "$1" in
	--deb) DEB=$2; shift 2 ;;
	--image) IMAGE=$2; shift 2 ;;
	--add) ADDS+=("$2"); shift 2 ;;
	--enable) ENABLES+=("$2"); shift 2 ;;
	--run) RUNS+=("$2"); shift 2 ;;
	--package) PACKAGES+=("$2"); shift 2 ;;
	--size) SIZE=$2; shift 2 ;;
	-h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
	*) die "unknown option $1 (see --help)" ;;
	esac
done
[ -f "$DEB" ] || die "--deb FILE is required (tools/build-deb.sh makes it)"
[ -n "$IMAGE" ] || die "--image FILE is required"
[ "$(id -u)" = 0 ] || die "needs root (chroot into the image's root)"
command -v mke2fs >/dev/null || die "mke2fs is missing (apt-get install e2fsprogs)"

# The package's Depends, without version constraints or alternatives, go into the cached root.
mapfile -t DEPENDS < <(dpkg-deb -f "$DEB" Depends | tr ',' '\n' | sed -e 's/|.*//' -e 's/(.*)//' -e 's/[[:space:]]//g' | grep -v '^$')
DEB_ARCH=$(dpkg-deb -f "$DEB" Architecture)
ROOT_ARGS=()
FOREIGN=0
if [ "$DEB_ARCH" != all ] && [ "$DEB_ARCH" != "$(dpkg --print-architecture)" ]; then
	ROOT_ARGS=(--arch "$DEB_ARCH")
	FOREIGN=1
fi
BASE=$("$HERE/debian-root.sh" "${ROOT_ARGS[@]}" "${DEPENDS[@]}" "${PACKAGES[@]}")

WORK=$(mktemp -d "${TMPDIR:-/tmp}/glance-image.XXXXXX")
R=$WORK/root
# (a static Swift binary reads its arguments from /proc/self/cmdline: /proc is mounted in the root)
# --one-file-system: whatever may be mounted in the cached root or in the copy (a host /dev,
# /sys or /proc) is neither copied into the image nor emptied by the cleanup.
cleanup() { umount "$R/proc" 2>/dev/null || true; rm -rf --one-file-system "$WORK"; }
trap cleanup EXIT
cp -a --one-file-system "$BASE" "$R"
mount -t proc proc "$R/proc"
rm -f "$R/.ready"
cp "$DEB" "$R/tmp/glance.deb"
in_root() {
	if [ $FOREIGN = 0 ]; then chroot "$R" "$@"; else "$HERE/../arm64/foreign-chroot.sh" "$R" "$@"; fi
}
# Every file of the root (dpkg's own records, logs and the user databases' backups aside).
snapshot() {
	(cd "$R" && find . -xdev \( -path ./proc -o -path ./sys -o -path ./dev -o -path ./tmp -o -path ./var/lib/dpkg \
		-o -path ./var/log -o -path ./var/cache/debconf \) -prune -o -print | sort)
}

# -- install, remove, purge: the package comes and goes cleanly
snapshot >"$WORK/before"
in_root dpkg -i /tmp/glance.deb >"$WORK/install.log" 2>&1 || fail "dpkg -i: $(tail -5 "$WORK/install.log")"
ok "dpkg -i $(basename "$DEB") ($(dpkg-deb -f "$DEB" Version))"
[ -x "$R/usr/bin/glance" ] || fail "no /usr/bin/glance after installing"
in_root /usr/bin/glance config check >"$WORK/check.log" 2>&1 || fail "glance config check of the installed default: $(cat "$WORK/check.log")"
ok "the installed binary runs and accepts the installed /etc/glance/config.json"
printed=$(in_root /usr/bin/glance --version 2>&1) || fail "glance --version failed: $printed"
[ "$printed" = "glance $(dpkg-deb -f "$DEB" Version)" ] ||
	fail "glance --version printed '$printed', the package is $(dpkg-deb -f "$DEB" Version)"
ok "glance --version: $printed ($(in_root uname -m))"
groups=$(in_root id -nG glance 2>/dev/null) || fail "no glance user after installing"
case " $groups " in *" video "*) ;; *) fail "glance is not in group video ($groups)" ;; esac
case " $groups " in *" input "*) ;; *) fail "glance is not in group input ($groups)" ;; esac
shell=$(in_root getent passwd glance | cut -d: -f7)
ok "user glance (system user, shell $shell) in groups: $groups"
# glance-net: the network side's user (glance serve, glance mqtt): group glance, and none of the
# display's or the input's groups.
net=$(in_root id -nG glance-net 2>/dev/null) || fail "no glance-net user after installing"
[ "$net" = glance ] || fail "glance-net is in groups '$net'; expected glance only (no video, no input)"
ok "user glance-net in groups: $net"
[ -L "$R/etc/systemd/system/multi-user.target.wants/glance.service" ] ||
	fail "glance.service is not enabled (no multi-user.target.wants link)"
ok "glance.service enabled for multi-user.target"
# glance serve: its unit installed but off (it listens on the network), its token made for it.
[ -f "$R/lib/systemd/system/glance-serve.service" ] || fail "no glance-serve.service after installing"
[ ! -e "$R/etc/systemd/system/multi-user.target.wants/glance-serve.service" ] ||
	fail "glance-serve.service was enabled by the installation (it must stay off until enabled)"
token=$(in_root stat -c '%U:%G %a %s' /etc/glance/serve.token 2>&1) || fail "no /etc/glance/serve.token: $token"
case "$token" in "root:glance 640 "*) ;; *) fail "/etc/glance/serve.token is '$token', expected root:glance 640" ;; esac
[ "${token##* }" -ge 17 ] || fail "/etc/glance/serve.token is too short ($token)"
in_root /usr/bin/glance serve token >"$WORK/token.log" 2>&1 || fail "glance serve token: $(cat "$WORK/token.log")"
grep -qF "$(in_root cat /etc/glance/serve.token)" "$WORK/token.log" || fail "glance serve token does not show the token"
ok "glance-serve.service installed, not enabled; /etc/glance/serve.token $token, shown by glance serve token"
[ -f "$R/lib/systemd/system/glance-mqtt.service" ] || fail "no glance-mqtt.service after installing"
[ ! -e "$R/etc/systemd/system/multi-user.target.wants/glance-mqtt.service" ] ||
	fail "glance-mqtt.service was enabled by the installation (it must stay off until enabled)"
ok "glance-mqtt.service installed, not enabled"
[ -f "$R/lib/systemd/system/glance-import-watch.service" ] || fail "no glance-import-watch.service after installing"
[ ! -e "$R/etc/systemd/system/multi-user.target.wants/glance-import-watch.service" ] ||
	fail "glance-import-watch.service was enabled by the installation (it must stay off until enabled)"
ok "glance-import-watch.service installed, not enabled"
store=$(in_root stat -c '%U:%G %a' /var/lib/glance 2>&1) || fail "no /var/lib/glance: $store"
[ "$store" = "glance:glance 2770" ] || fail "/var/lib/glance is '$store', expected glance:glance 2770 (setgid)"
ok "the store's folder /var/lib/glance: $store"
# The manual page and the completions, as the program writes them.
[ -s "$R/usr/share/man/man1/glance.1.gz" ] || fail "no manual page /usr/share/man/man1/glance.1.gz"
# (into a file first: with pipefail, grep -q ending early would fail zcat with SIGPIPE)
zcat "$R/usr/share/man/man1/glance.1.gz" >"$WORK/glance.1" || fail "glance.1.gz does not decompress"
grep -q '^\.SH' "$WORK/glance.1" || fail "glance.1.gz is not a manual page"
for f in share/bash-completion/completions/glance share/zsh/vendor-completions/_glance share/fish/vendor_completions.d/glance.fish; do
	grep -q glance "$R/usr/$f" 2>/dev/null || fail "no completion /usr/$f"
done
for f in live-data.md home-assistant.md; do
	[ -s "$R/usr/share/doc/glance-panel/$f" ] || fail "no /usr/share/doc/glance-panel/$f"
done
ok "manual page, bash/zsh/fish completions, live-data.md and home-assistant.md installed"
in_root dpkg -r glance-panel >"$WORK/remove.log" 2>&1 || fail "dpkg -r: $(tail -5 "$WORK/remove.log")"
[ ! -e "$R/usr/bin/glance" ] || fail "/usr/bin/glance is still there after dpkg -r"
[ ! -e "$R/lib/systemd/system/glance.service" ] || fail "the unit is still there after dpkg -r"
[ ! -e "$R/lib/systemd/system/glance-serve.service" ] || fail "glance-serve.service is still there after dpkg -r"
[ ! -e "$R/lib/systemd/system/glance-mqtt.service" ] || fail "glance-mqtt.service is still there after dpkg -r"
[ ! -e "$R/lib/systemd/system/glance-import-watch.service" ] || fail "glance-import-watch.service is still there after dpkg -r"
[ -f "$R/etc/glance/config.json" ] || fail "dpkg -r removed the configuration (a conffile stays until purge)"
ok "dpkg -r: binary and unit gone, /etc/glance/config.json kept"
in_root dpkg -P glance-panel >"$WORK/purge.log" 2>&1 || fail "dpkg -P: $(tail -5 "$WORK/purge.log")"
snapshot >"$WORK/after"
# The glance and glance-net users and the group stay (Debian keeps system users): the user databases differ.
left=$(comm -3 "$WORK/before" "$WORK/after" | sed 's/^\t/+ /' |
	grep -vE '^(\+ )?\./etc/(passwd|group|shadow|gshadow)-?$' || true)
[ -z "$left" ] || fail "after dpkg -P the root differs from before the installation: $(echo "$left" | head -20 | tr '\n' ' ')"
ok "dpkg -P: nothing of the package is left (the glance user stays, as Debian does)"

# -- the installation for good, and the test's own files
in_root dpkg -i /tmp/glance.deb >"$WORK/install2.log" 2>&1 || fail "dpkg -i again: $(tail -5 "$WORK/install2.log")"
rm -f "$R/tmp/glance.deb"
for a in "${ADDS[@]}"; do
	src=${a%%:*} dst=${a#*:}
	mkdir -p "$R$(dirname "$dst")"
	if [ -d "$src" ]; then rm -rf "${R:?}$dst"; fi
	cp -a "$src" "$R$dst"
done
for u in "${ENABLES[@]}"; do in_root systemctl enable "$u" >/dev/null 2>&1 || die "systemctl enable $u failed"; done
for c in "${RUNS[@]}"; do in_root sh -c "$c" >"$WORK/run.log" 2>&1 || die "in the image, '$c' failed: $(tail -5 "$WORK/run.log")"; done
umount "$R/proc"
rm -f "$IMAGE"
mke2fs -q -t ext4 -L glance-root -d "$R" "$IMAGE" "${SIZE}M" || die "mke2fs -d failed"
ok "root image $(basename "$IMAGE"): $(du -sm "$R" | cut -f1) MB of files"
