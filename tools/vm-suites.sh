#!/usr/bin/env bash
# vm-suites.sh READY -- make test's VM boots as one chain, started as soon as the test bundle is
# built: the boots of `glance run` (VMEndToEndTests with the kiosk's, and VMInputTests) need only
# the debug build, so they run while the packages are still being made; then, once READY exists
# (make test writes it when both packages are made: GLANCE_DEB=… and GLANCE_ARM64_DEB=…, either
# empty when its package failed, and the boot then fails saying so), the device boot and the
# arm64 boot (tests of VMEndToEndTests too: deviceBootToApp, arm64DeviceBoot). The boots take one lock (tools/vm/run-in-vm.sh: one headless VM at a time), so they
# are a chain whatever runs them; run from here, the chain starts some six minutes earlier than
# under `swift test`, which builds first and then waits for the packages.
#
# The test bundle is run directly (swift-testing's own runner, as `swift test --skip-build` runs
# it): `swift test` holds .build's lock for as long as it runs, so a second one would wait for the
# first. Exit status: 0 when both halves passed, else 1. Each half says its status and time.
set -uo pipefail
READY=${1:?give the file make test writes when the packages are made}
cd "$(dirname "${BASH_SOURCE[0]}")/.." || exit 1
BUNDLE=.build/debug/GlancePackageTests.xctest
[ -x "$BUNDLE" ] || { echo "vm-suites: no $BUNDLE (swift build --build-tests makes it)"; exit 1; }
T=$(date +%s)
"$BUNDLE" --testing-library swift-testing --filter VMEndToEndTests --filter VMInputTests \
	--skip VMEndToEndTests/deviceBootToApp --skip VMEndToEndTests/arm64DeviceBoot
first=$?
echo "make test (VM suites): glance run's boots: status $first in $(($(date +%s) - T)) s"
T=$(date +%s)
while [ ! -f "$READY" ]; do sleep 2; done
echo "make test (VM suites): waited $(($(date +%s) - T)) s for the packages"
set -a
# shellcheck disable=SC1090
. "$READY"
set +a
T=$(date +%s)
"$BUNDLE" --testing-library swift-testing --filter VMEndToEndTests/deviceBootToApp \
	--filter VMEndToEndTests/arm64DeviceBoot
second=$?
echo "make test (VM suites): the device boot and the arm64 boot: status $second in $(($(date +%s) - T)) s"
[ $first = 0 ] && [ $second = 0 ]
