#!/usr/bin/env bash
# test.sh -- the test suites as arm64 code: the package and its tests built for aarch64 with
# Debian 13's Swift 6.0.3 (tools/arm64/swift-build.sh, in .build/arm64-test; optimised, with
# -enable-testing for @testable imports: emulated debug code is about ten times slower), run under
# qemu-aarch64 in the trixie build root. Tests that start `glance` start an arm64 glance through
# qemu-aarch64 too (GLANCE_EXECUTABLE, GLANCE_EMULATOR): the one built beside the tests, or
# --glance PATH (make test gives the package's, .build/arm64-release).
#
#   tools/arm64/test.sh [--no-build] [--glance PATH] [--suites 'A B ...'] [--jobs N] [--wait-for FILE]
#
#   --suites   the test targets to build and run (default: the pure and headless ones below; only
#              they and the targets they need are built, and glance unless --glance is given)
#   --no-build run what was built last
#   --jobs N   build with N jobs (default: as many as cores; make test gives 1, beside swift test)
#   --wait-for FILE  after the build, wait until FILE exists before running (make test builds the
#              suites while the package whose glance they run is still being made)
#
# The fonts are the ones the goldens were drawn with (Debian 12's fonts-inter and
# fonts-wqy-microhei; trixie's Inter 4.1 draws other pixels): GLANCE_FONT_ROOT, else
# tools/test-fonts.sh's folder, bound into the root and named to the tests by GLANCE_FONT_ROOT.
# Prints swift-testing's report; exits with its status.
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
say() { echo "arm64-test: $*" >&2; }
die() { say "$*"; exit 2; }

# The suites whose results can depend on the architecture: the rings' arithmetic, the raster and
# the screens' goldens (floating point, SIMD), text (FreeType, HarfBuzz), number and JSON parsing,
# feeds and configuration (numbers in text), display choices and input decoding (the kernel's
# structures). The suites that drive processes and files -- the store and glance serve, the
# command line, the device files -- test the same Swift against the same C libraries on both
# architectures and took most of the emulated run (their glance, serve and curl under qemu: about
# 5 of its 7 minutes): they run natively in `swift test`, and the arm64 boot test installs and
# runs the arm64 package on an arm64 kernel. (RuntimeTests, PlatformTests: signalfd, timerfd,
# fork and crash handlers; VMTests: the VM boots, natively too.)
SUITES="ActivityTests RasterTests ScreensTests TextTests FeedsTests ConfigurationTests JSONTests DisplayTests InputTests"
BUILD=1 GLANCE="" JOBS=() WAIT_FOR=
while [ $# -gt 0 ]; do
	case "$1" in
	--no-build) BUILD=0; shift ;;
	--jobs) JOBS=(-j "$2"); shift 2 ;;
	--wait-for) WAIT_FOR=$2; shift 2 ;;
	--suites) SUITES=$2; shift 2 ;;
	--glance) GLANCE=$2; shift 2 ;;  # made absolute below: it may not be built yet (--wait-for)
	-h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
	*) die "unknown option $1 (see --help)" ;;
	esac
done

SCRATCH=$REPO/.build/arm64-test
if [ $BUILD = 1 ]; then
	# The test targets not built here are compiled by the host's Swift only: each test file parsed
	# by 6.0.3 at least (a trailing comma in an argument list, a 6.1 syntax, fails here).
	T=$(date +%s)
	"$HERE/in-root.sh" --bind "$REPO" -- sh -c 'cd "$0" && bad=0; for d in Tests/*/; do
		files=$(find "$d" -name "*.swift" | sort); [ -n "$files" ] || continue
		swiftc -parse $files || { echo "arm64-test: $d does not parse with Swift 6.0.3" >&2; bad=1; }
	done; exit $bad' "$REPO" || die "the tests do not parse with Swift 6.0.3 (above)"
	say "every test file parses with Swift 6.0.3 ($(($(date +%s) - T)) s)"

	T=$(date +%s)
	say "building the package and its tests for arm64 with Swift 6.0.3 (release, -enable-testing, in .build/arm64-test)"
	mkdir -p "$SCRATCH"
	built=0
	# Only the suites' targets and what they need (Package.swift's GLANCE_TEST_TARGETS), and the
	# glance executable with them when no --glance is given.
	targets=$SUITES
	[ -n "$GLANCE" ] || targets="$targets glance"
	GLANCE_TEST_TARGETS=$targets "$HERE/swift-build.sh" -c release --build-tests -Xswiftc -enable-testing --scratch-path "$SCRATCH" "${JOBS[@]}" \
		>"$SCRATCH/build.log" 2>&1 || built=$?
	# (the SDK's warnings about SDKSettings.json and -pthread say nothing; nor do the step lines)
	grep -v -e 'Could not read SDKSettings.json' -e 'prohibited flag(s): -pthread' -e '^\[[0-9]*/[0-9]*\]' \
		"$SCRATCH/build.log" >&2 || true
	[ $built = 0 ] || die "the arm64 build of the tests failed (tools/arm64/swift-build.sh --build-tests; log $SCRATCH/build.log)"
	say "built in $(($(date +%s) - T)) s"
fi
if [ -n "$WAIT_FOR" ]; then
	T=$(date +%s)
	while [ ! -f "$WAIT_FOR" ]; do sleep 2; done
	say "waited $(($(date +%s) - T)) s for $WAIT_FOR"
fi
BIN=$SCRATCH/aarch64-unknown-linux-gnu/release
BUNDLE=$BIN/GlancePackageTests.xctest
[ -f "$BUNDLE" ] || die "no $BUNDLE: build it first (without --no-build)"
GLANCE=${GLANCE:-$BIN/glance}
[ -x "$GLANCE" ] || die "no arm64 glance at $GLANCE"
GLANCE=$(cd "$(dirname "$GLANCE")" && pwd)/$(basename "$GLANCE")

FONTS=${GLANCE_FONT_ROOT:-}
[ -n "$FONTS" ] || FONTS=$("$HERE/../test-fonts.sh") || die "no pinned fonts (tools/test-fonts.sh failed)"
FONT_ARGS=(--bind "$FONTS" --env GLANCE_FONT_ROOT="$FONTS")
FILTER=$(echo "$SUITES" | tr ' ' '\n' | grep -v '^$' | paste -sd'|')
say "running $SUITES under qemu-aarch64 (glance: ${GLANCE#"$REPO"/})"
T=$(date +%s)
set +e
"$HERE/in-root.sh" "${FONT_ARGS[@]}" --env GLANCE_EXECUTABLE="$GLANCE" --env GLANCE_EMULATOR=qemu-aarch64 \
	-- qemu-aarch64 "$BUNDLE" --testing-library swift-testing --filter "^($FILTER)\\."
rc=$?
set -e
say "ran in $(($(date +%s) - T)) s: status $rc"
exit $rc
