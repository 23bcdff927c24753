#!/usr/bin/env bash
# ha-current.sh -- Home Assistant's current release (homeassistant 2026.2.3; it needs Python 3.13,
# which Debian 12 does not have) in a Debian 13 root of its own, and a command run there:
#
#   tools/ha-current.sh [--bind DIR]... COMMAND [ARG...]
#
# runs COMMAND in the root (standard input and output passed through) with the venv's bin first in
# PATH: `python` is the venv's, with homeassistant and what it imports to run with its MQTT
# integration (tools/ha-requirements.py --bootstrap mqtt). --bind makes the host's folder DIR the
# same path in the root (a Home Assistant config folder). The root shares the host's network (a
# broker on 127.0.0.1 is reachable) and has a /tmp of its own; nothing run there writes to it but
# its /etc/resolv.conf (the host's) and a --bind folder's mount point outside /tmp.
#
# The first run makes the root (a copy of tools/install-check.sh's minimal Debian 13 root when it
# is there, else debootstrap --variant=minbase), installs python3-venv, python3-dev and gcc with
# apt (a few pinned requirements have no wheel for Python 3.13), then homeassistant and what it
# imports from PyPI into a venv in it (3 to 6 minutes, 1.4 GB on disk) and says so; later runs use it
# as it is. This machine's CA bundle is copied in for pip (a proxy's CA too).
#
# Needs root (debootstrap, chroot, mounts). Exit status: COMMAND's, or 69 when the root cannot be
# made or used (not root, no debootstrap, no network): said on standard error. While every part
# is required (GLANCE_REQUIRE_ALL_PARTS, make test's default; tools/switches.sh) that is a failure:
# 1, said on standard output too.
# Cache: $GLANCE_HA_CURRENT_CACHE, else ~/.cache/glance-ha-current (the root in root/).
set -euo pipefail
VERSION=2026.2.3
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
CACHE=${GLANCE_HA_CURRENT_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/glance-ha-current}
ROOT=$CACHE/root
LOG=$CACHE/install.log
VENV=/opt/homeassistant
say() { echo "ha-current: $*" >&2; }
. "$HERE/switches.sh"
. "$HERE/debian-mirror.sh"

# The release cannot be had here: 69, or a failure while every part is required.
unavailable() {
	say "Home Assistant $VERSION cannot be used: $1"
	if glance_required; then
		echo "unavailable: Home Assistant $VERSION in a Debian 13 root ($ROOT): $1; every part is required (GLANCE_REQUIRE_ALL_PARTS=$GLANCE_REQUIRE_ALL_PARTS)"
		exit 1
	fi
	exit 69
}

BINDS=()
while [ $# -gt 0 ]; do
	case "$1" in
	--bind) [ $# -ge 2 ] || { say "--bind needs a folder"; exit 64; }; BINDS+=("$(cd "$2" && pwd)"); shift 2 ;;
	--version) echo "$VERSION"; exit 0 ;;
	-*) say "unknown option $1 (--bind DIR, --version)"; exit 64 ;;
	*) break ;;
	esac
done
[ $# -gt 0 ] || { say "usage: tools/ha-current.sh [--bind DIR]... COMMAND [ARG...]"; exit 64; }
[ "$(id -u)" = 0 ] || unavailable "the Debian 13 root needs root (chroot, mounts), as CI has"

# in_root ROOT COMMAND...: the command in the root (tools/chroot-run.sh) with the folders to
# bind, the venv first on the PATH and pip told of the CA bundle.
. "$HERE/chroot-run.sh"
ha_root() {
	local root=$1 binds=()
	shift
	for b in "${BINDS[@]}"; do binds+=(--bind "$b"); done
	in_root "$root" "${binds[@]}" --env "PATH=$VENV/bin:/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin" \
		--env PIP_CERT=/etc/glance-ca.crt --env PIP_DISABLE_PIP_VERSION_CHECK=1 --env PYTHONDONTWRITEBYTECODE=1 -- "$@"
}

ready() { [ -f "$ROOT/.installed-$VERSION" ] && [ -f "$ROOT/.core-requirements-$VERSION" ]; }
mkdir -p "$CACHE"
exec 8>"$CACHE/.lock"
ready || flock 8
if [ ! -f "$ROOT/.installed-$VERSION" ]; then
	say "first run: making a Debian 13 root with homeassistant $VERSION in $ROOT (cached for later runs; 3 to 6 minutes, 1.4 GB; log $LOG)"
	: >"$LOG"
	T=$(date +%s)
	NEW=$ROOT.tmp
	rm -rf --one-file-system "$NEW"
	BASE=${GLANCE_INSTALL_CHECK_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/glance-install-check}/trixie-minbase
	if [ -f "$BASE/.ready" ]; then
		# install-check's minimal root, copied (it is not changed): its clone and arm64 lists left out.
		say "from a copy of $BASE"
		cp -a "$BASE" "$NEW" && rm -rf --one-file-system "$NEW/root/glance" "$NEW/var/lib/glance-check" "$NEW/var/cache/glance-check" \
			"$NEW/etc/glance-check-arm64.conf" "$NEW/.ready" || { rm -rf --one-file-system "$NEW"; unavailable "copying $BASE failed"; }
	else
		command -v debootstrap >/dev/null || unavailable "debootstrap is needed (tools/install-deps.sh installs it)"
		M=$(mirror)
		say "debootstrap --variant=minbase trixie from $M"
		if ! debootstrap --variant=minbase trixie "$NEW" "$M" >>"$LOG" 2>&1; then
			rm -rf --one-file-system "$NEW"
			unavailable "debootstrap trixie from $M failed (no network?); see $LOG"
		fi
		echo "deb $M trixie main" >"$NEW/etc/apt/sources.list"
	fi
	# pip's trust: this machine's CA bundle (a proxy's CA too), else Debian's.
	HOSTCA=/etc/ssl/certs/ca-certificates.crt
	# A C compiler and Python's headers: a few of homeassistant's pinned requirements (lru-dict)
	# have no wheel for Python 3.13 and are built.
	PACKAGES="python3-venv python3-dev gcc"
	if [ -f "$HOSTCA" ]; then cp "$HOSTCA" "$NEW/etc/glance-ca.crt"; else PACKAGES="$PACKAGES ca-certificates"; fi
	if ! ha_root "$NEW" apt-get -q update >>"$LOG" 2>&1 ||
		! ha_root "$NEW" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $PACKAGES >>"$LOG" 2>&1; then
		rm -rf --one-file-system "$NEW"
		unavailable "apt-get install $PACKAGES in the root failed (no network?); see $LOG"
	fi
	[ -f "$HOSTCA" ] || ln -s /etc/ssl/certs/ca-certificates.crt "$NEW/etc/glance-ca.crt"
	ha_root "$NEW" apt-get clean >>"$LOG" 2>&1 || true
	if ! ha_root "$NEW" sh -c "python3 -m venv $VENV && $VENV/bin/pip install -q 'homeassistant==$VERSION'" >>"$LOG" 2>&1; then
		rm -rf --one-file-system "$NEW"
		unavailable "pip install homeassistant==$VERSION in the root failed; see $LOG"
	fi
	touch "$NEW/.installed-$VERSION"
	rm -rf --one-file-system "$ROOT"
	mv "$NEW" "$ROOT"
	say "root made in $(($(date +%s) - T)) s: $(du -sm --one-file-system "$ROOT" | cut -f1) MB"
fi
# What the integrations Home Assistant sets up with the MQTT integration import (the MQTT client,
# the frontend, ...), which the homeassistant package does not install (tools/ha-requirements.py).
if [ ! -f "$ROOT/.core-requirements-$VERSION" ]; then
	say "installing what Home Assistant's MQTT integration and its default integrations import into $ROOT (once; log $LOG)"
	if ! ha_root "$ROOT" sh -c 'python -c "$1" --bootstrap mqtt >/tmp/requirements.txt && cat /tmp/requirements.txt && pip install -q -r /tmp/requirements.txt' \
		sh "$(cat "$HERE/ha-requirements.py")" >>"$LOG" 2>&1; then
		unavailable "pip install of what the MQTT integration and the default integrations import failed in the root; see $LOG"
	fi
	touch "$ROOT/.core-requirements-$VERSION"
fi
flock -u 8
# Used, not changed: a shared lock, so that no first run replaces it meanwhile.
flock -s 8
ha_root "$ROOT" "$@"
