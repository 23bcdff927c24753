#!/usr/bin/env bash
# install-check.sh -- the README's set-up on the Debian release people now install, checked here:
# a minimal Debian 13 "trixie" root (debootstrap --variant=minbase: nothing of a machine image),
# the project cloned into it, and its install step run there as a newcomer's `make run` and
# `make test` would run it: tools/install-deps.sh (and --build, the board's build), simulated
# (apt-get install --simulate) for amd64 and for arm64 (Raspberry Pi OS). It fails when a package
# of tools/debian-packages.txt is not in Debian 13, when the list cannot be installed together, or
# when the Swift toolchain (swiftlang) would not be installed with it.
#
#   tools/install-check.sh          the simulated install (make test runs it): about 20 s, and
#                                   a second when nothing it depends on changed since it passed
#   tools/install-check.sh --full   also the real thing, in a copy of the root: install-deps.sh
#                                   installs everything (about 1 GB downloaded), then `make run`
#                                   builds and draws the demo screens (minutes; not in make test)
#
# The root is made once into the cache (about a minute; 190 MB, 500 MB with apt's lists) and kept
# minimal: the simulations change nothing in it but apt's package lists (read again when a day
# old). A pass is remembered with what it depended on (install-deps.sh, the package list, apt's
# lists): while they are the same, the check says when it passed and is not run again. The clone
# is the checkout's committed tree with its install-deps.sh and package list as they are now,
# committed or not. arm64 is simulated natively: apt of the same root told that its architecture
# is arm64, with the arm64 package lists and the root's installed packages as arm64 ones (the same
# minimal set), so no emulation is needed.
#
# Needs root (debootstrap and chroot); without root it says so and does nothing (exit 0), as do
# the arm64 parts of make test. GLANCE_SKIP_INSTALL_CHECK=1 (or true, yes, on) skips it, saying
# so. Either skip is a failure (exit 1, said) while every part is required (GLANCE_REQUIRE_ALL_PARTS
# set to anything but an explicit no: make test's default; tools/switches.sh).
# Cache: $GLANCE_INSTALL_CHECK_CACHE, else ~/.cache/glance-install-check.
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$HERE/.." && pwd)
say() { echo "install-check: $*" >&2; }
die() { say "$*"; exit 1; }

FULL=0
case "${1:-}" in
"") ;;
--full) FULL=1 ;;
*) say "unknown option $1 (--full: the real install and make run too)"; exit 64 ;;
esac
. "$HERE/switches.sh"
# A part that does not run: said; a failure while every part is required.
skipped() {
	if glance_required; then
		say "cannot run: $1; every part is required (GLANCE_REQUIRE_ALL_PARTS=$GLANCE_REQUIRE_ALL_PARTS): failed"
		exit 1
	fi
	say "skipped: $1"
	exit 0
}
if glance_switch_on GLANCE_SKIP_INSTALL_CHECK; then skipped "GLANCE_SKIP_INSTALL_CHECK=$GLANCE_SKIP_INSTALL_CHECK is set"; fi
if [ "$(id -u)" != 0 ]; then skipped "the Debian 13 root needs root (debootstrap, chroot), as CI has"; fi

CACHE=${GLANCE_INSTALL_CHECK_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/glance-install-check}
ROOT=$CACHE/trixie-minbase
LOG=$CACHE/install-check.log
START=$(date +%s)

. "$HERE/debian-mirror.sh"

# in_root ROOT COMMAND...: the command in the root, in a mount namespace of its own (no /dev/dri:
# `make run` there draws into out/).
. "$HERE/chroot-run.sh"

mkdir -p "$CACHE"
exec 8>"$CACHE/.lock"
flock 8

# The minimal root, once.
if [ ! -f "$ROOT/.ready" ]; then
	command -v debootstrap >/dev/null || die "debootstrap is needed (tools/install-deps.sh installs it)"
	M=$(mirror)
	say "making a minimal Debian 13 root in $ROOT from $M (once: about a minute, 214 MB; log $LOG)"
	rm -rf --one-file-system "$ROOT" "$ROOT.tmp"
	T=$(date +%s)
	debootstrap --variant=minbase trixie "$ROOT.tmp" "$M" >"$LOG" 2>&1 || die "debootstrap trixie failed; see $LOG"
	echo "deb $M trixie main" >"$ROOT.tmp/etc/apt/sources.list"
	# The same root as arm64, for apt alone: its own lists, cache and status (the installed
	# packages, marked arm64), read through APT_CONFIG.
	mkdir -p "$ROOT.tmp/var/lib/glance-check/arm64/lists/partial" "$ROOT.tmp/var/cache/glance-check/arm64/archives/partial"
	sed 's/^Architecture: amd64$/Architecture: arm64/' "$ROOT.tmp/var/lib/dpkg/status" >"$ROOT.tmp/var/lib/glance-check/arm64/status"
	cat >"$ROOT.tmp/etc/glance-check-arm64.conf" <<-'EOF'
		APT::Architecture "arm64";
		APT::Architectures { "arm64"; };
		Dir::State::Lists "/var/lib/glance-check/arm64/lists";
		Dir::State::status "/var/lib/glance-check/arm64/status";
		Dir::Cache "/var/cache/glance-check/arm64";
	EOF
	in_root "$ROOT.tmp" apt-get clean >>"$LOG" 2>&1
	touch "$ROOT.tmp/.ready"
	mv "$ROOT.tmp" "$ROOT"
	say "root made in $(($(date +%s) - T)) s: $(du -sm --one-file-system "$ROOT" | cut -f1) MB"
fi

# apt's lists for both architectures, read again when a day old (Debian 13 is a stable release:
# they change with its point releases); kept when the network is down but they are there.
for arch in amd64 arm64; do
	conf=() stamp=$ROOT/var/lib/glance-check/updated-$arch
	[ $arch = arm64 ] && conf=(APT_CONFIG=/etc/glance-check-arm64.conf)
	if [ -z "$(find "$stamp" -mmin -1440 2>/dev/null)" ]; then
		if in_root "$ROOT" "${conf[@]}" apt-get -q update >>"$LOG" 2>&1; then
			touch "$stamp"
		elif [ -f "$stamp" ]; then
			say "apt-get update ($arch) failed (see $LOG): the lists of $(date -r "$stamp" +%F) are used"
		else
			die "apt-get update ($arch) in the root failed; see $LOG"
		fi
	fi
done

# What the result depends on: the install step and its list, and apt's lists for both
# architectures. The same as at the last pass: said, and not run again (--full always runs).
KEY=$( (cat "$HERE/install-deps.sh" "$HERE/debian-packages.txt"
	cat "$ROOT"/var/lib/apt/lists/*InRelease "$ROOT"/var/lib/glance-check/arm64/lists/*InRelease 2>/dev/null) | sha256sum | cut -c1-32)
PASSED=$CACHE/passed
if [ $FULL = 0 ] && [ "$(cat "$PASSED" 2>/dev/null | cut -d' ' -f1)" = "$KEY" ]; then
	say "passed on $(cut -d' ' -f2- "$PASSED") with this install-deps.sh, package list and Debian 13's current lists: not run again ($(($(date +%s) - START)) s; root cached in $ROOT)"
	exit 0
fi

# The project, as a newcomer has it: a clone (with this checkout's install step, as it is now).
CLONE=/root/glance
rm -rf --one-file-system "$ROOT$CLONE"
if git -C "$REPO" rev-parse --git-dir >/dev/null 2>&1; then
	git clone -q --depth 1 "file://$REPO" "$ROOT$CLONE" || die "git clone of $REPO failed"
else
	mkdir -p "$ROOT$CLONE" && tar -C "$REPO" --exclude=./.build --exclude=./out -cf - . | tar -C "$ROOT$CLONE" -xf -
fi
cp "$HERE/install-deps.sh" "$HERE/debian-packages.txt" "$ROOT$CLONE/tools/"

# One simulated install: install-deps.sh's own choice of packages, resolved by apt.
failed=0 summary=()
simulate() {
	local arch=$1 mode=$2 out rc=0 conf=()
	[ "$arch" = arm64 ] && conf=(APT_CONFIG=/etc/glance-check-arm64.conf)
	out=$(in_root "$ROOT" "${conf[@]}" bash -c 'cd "$1" && shift && tools/install-deps.sh "$@"' sh "$CLONE" $mode --simulate 2>&1) || rc=$?
	{ echo "== $arch install-deps.sh $mode --simulate: status $rc"; echo "$out"; } >>"$LOG"
	local inst swift
	inst=$(grep -c '^Inst ' <<<"$out" || true)
	swift=$(sed -n 's/^Inst swiftlang (\([^ ]*\) .*/\1/p' <<<"$out")
	if [ $rc != 0 ]; then
		say "$arch${mode:+ $mode}: install-deps.sh --simulate failed (status $rc):"
		grep -E '^(E:|install-deps:)|Unable to locate|unmet|Depends:' <<<"$out" | head -20 >&2
		failed=1
	elif [ -z "$swift" ]; then
		say "$arch${mode:+ $mode}: the install would not bring the Swift toolchain (no swiftlang among $inst packages); see $LOG"
		failed=1
	else
		summary+=("$arch${mode:+ $mode}: $inst packages")
	fi
	SWIFTLANG=${swift:-$SWIFTLANG}
}
SWIFTLANG=""
T=$(date +%s)
for arch in amd64 arm64; do
	simulate $arch ""
	simulate $arch --build
done
[ $failed = 0 ] || die "tools/debian-packages.txt does not install on a minimal Debian 13 (details in $LOG)"
say "a fresh clone's install step on a minimal Debian 13 resolves: $(IFS=';'; echo "${summary[*]}" | sed 's/;/, /g'), swiftlang $SWIFTLANG among them ($(($(date +%s) - T)) s; root cached in $ROOT)"
echo "$KEY $(date '+%F %R')" >"$PASSED"

if [ $FULL = 1 ]; then
	# A copy of the root (the minimal one stays minimal), in which the install is real and
	# `make run` builds the release and draws the demo screens (no display in the root).
	WORK=$CACHE/trixie-full
	rm -rf --one-file-system "$WORK"
	cp -a "$ROOT" "$WORK"
	rm -f "$WORK/.ready"
	T=$(date +%s)
	say "--full: apt-get install of make, then make run in a copy of the root ($WORK; log $LOG)"
	in_root "$WORK" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends make >>"$LOG" 2>&1 ||
		die "apt-get install make failed; see $LOG"
	if in_root "$WORK" bash -c 'cd "$1" && make run' sh "$CLONE" >>"$LOG" 2>&1; then
		say "--full: make run passed in $(($(date +%s) - T)) s: $(ls "$WORK$CLONE/out" | wc -l) files in out/; swift: $(readlink "$WORK/usr/bin/swift")"
	else
		die "--full: make run failed in the Debian 13 root; see $LOG (the root stays in $WORK)"
	fi
fi
say "done in $(($(date +%s) - START)) s"
