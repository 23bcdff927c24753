#!/usr/bin/env bash
# beside-tests.sh -- what `make test` runs beside `swift test`, one after the other, on the core
# swift test's VM boots leave mostly idle: the arm64 suites (tools/arm64/make-test.sh suites: built
# with Swift 6.0.3, one job, and run under qemu-aarch64), the fuzz targets on RUNS inputs each
# (tools/fuzz/fuzz.sh --runs: their AddressSanitizer build is two minutes on a fresh checkout) and
# the instruction check of the package's build against tools/bench/recorded.txt
# (tools/bench/instructions.sh --check: callgrind counts instructions, which another process's
# load does not change).
#
#   tools/beside-tests.sh RUNS [READY]
#
# With READY (make test's file written when the packages are made), the lane starts with the
# packages still building: the arm64 suites wait for it after their build (they run the arm64
# package's glance), the instruction check before it starts (it counts the x86-64 package's build).
#
# Each part runs whatever the one before did, and says its status and time. Exit status: 0 when
# all three passed, else 1 (the failed ones named on the last line).
set -uo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
RUNS=${1:?give the number of inputs for each fuzz target (make test: FUZZ_TEST_RUNS)}
READY=${2:-}
failed=()
part() {
	local name=$1 T rc
	shift
	T=$(date +%s)
	"$@"
	rc=$?
	echo "make test (beside swift test): $name: status $rc in $(($(date +%s) - T)) s"
	[ $rc = 0 ] || failed+=("$name")
}
part "arm64 suites" "$HERE/arm64/make-test.sh" suites --jobs 1 ${READY:+--wait-for "$READY"}
part "fuzz targets" "$HERE/fuzz/fuzz.sh" --runs "$RUNS"
if [ -n "$READY" ]; then
	T=$(date +%s)
	while [ ! -f "$READY" ]; do sleep 2; done
	echo "make test (beside swift test): waited $(($(date +%s) - T)) s for the packages"
fi
part "instruction check" "$HERE/bench/instructions.sh" --check
if [ ${#failed[@]} != 0 ]; then
	echo "make test (beside swift test): failed: ${failed[*]}"
	exit 1
fi
