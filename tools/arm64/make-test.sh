#!/usr/bin/env bash
# make-test.sh -- the arm64 parts of `make test`: the arm64 package cross-built with Debian 13's
# Swift 6.0.3 (tools/build-deb.sh --arch arm64), and the pure and headless suites built for
# aarch64 with 6.0.3 and run under qemu-aarch64 (tools/arm64/test.sh).
#
#   tools/arm64/make-test.sh [package|suites [TEST.SH OPTIONS]]     (default: both, in turn)
#
# `package` prints the arm64 package's path as its last line, for `swift test`'s arm64 boot test
# (GLANCE_ARM64_DEB); empty when the arm64 parts cannot run here (said why, on stderr).
# `suites` runs the suites on the package's glance (make test runs them beside `swift test`,
# whose boots of qemu keep one core busy and the other mostly idle).
#
# GLANCE_SKIP_ARM64=1 (or true, yes, on) skips them. Exit status: 0, or 1 when the build or a
# suite failed, or when they were skipped while every part is required (GLANCE_REQUIRE_ALL_PARTS
# set to anything but an explicit no, tools/switches.sh; make test's default: a skip is a failure).
set -uo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
say() { echo "make test (arm64): $*" >&2; }

PART=${1:-both}
[ $# -gt 0 ] && shift
case "$PART" in
package | suites | both) ;;
*) say "unknown part '$PART': give package, suites or nothing (both)"; exit 2 ;;
esac

. "$HERE/../switches.sh"
why=""
if glance_switch_on GLANCE_SKIP_ARM64; then why="GLANCE_SKIP_ARM64=$GLANCE_SKIP_ARM64 is set"
elif [ "$(uname -m)" != x86_64 ]; then why="the arm64 parts cross-build on x86-64 (this is $(uname -m))"
elif [ "$(id -u)" != 0 ]; then why="the trixie build root needs root (debootstrap, chroot), as CI has"
fi
if [ -n "$why" ]; then
	if glance_required; then
		say "arm64 package, suites and boot cannot run: $why; every part is required (GLANCE_REQUIRE_ALL_PARTS=$GLANCE_REQUIRE_ALL_PARTS): failed"
		echo
		exit 1
	fi
	say "arm64 package, suites and boot skipped: $why"
	echo
	exit 0
fi

deb=""
if [ "$PART" = package ] || [ "$PART" = both ]; then
	T=$(date +%s)
	deb=$("$HERE/../build-deb.sh" --arch arm64 | tail -1)
	[ -f "$deb" ] || { say "the arm64 package was not made (tools/build-deb.sh --arch arm64)"; echo; exit 1; }
	say "arm64 package $deb in $(($(date +%s) - T)) s"
fi
rc=0
if [ "$PART" = suites ] || [ "$PART" = both ]; then
	T=$(date +%s)
	"$HERE/test.sh" --glance "$REPO/.build/arm64-release/aarch64-unknown-linux-gnu/release/glance" "$@" >&2
	rc=$?
	say "arm64 suites (build with Swift 6.0.3 and run under qemu-aarch64): status $rc in $(($(date +%s) - T)) s"
fi
[ "$PART" = suites ] || echo "$deb"
[ $rc = 0 ] || exit 1
