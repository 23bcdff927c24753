# Glance: the two commands a newcomer needs are `make run` and `make test` (see README.md).
SWIFT ?= swift
RELEASE := .build/release/glance

.PHONY: deps build release run test bench instructions goals sim vm-test bench-startup bench-import deb footprint security install-check

deps:
	@tools/install-deps.sh

build: deps
	$(SWIFT) build

release: deps
	$(SWIFT) build -c release

# Builds and runs the app on its embedded defaults: on the display when there is one (with demo
# data in out/demo.db), else the demo screens drawn into out/ (see tools/run.sh).
run: release
	tools/run.sh

# Every test: unit, golden, command-line and VM end-to-end tests. First the install step on a
# minimal Debian 13 (install-check), and the fonts the goldens were drawn with (tools/test-fonts.sh:
# fetched once into ~/.cache/glance-fonts; GLANCE_FONT_ROOT, so the tests draw the same pixels on
# Debian 12 and 13). The debug build is made with its tests first; then four things at once:
# - the VM boots (tools/vm-suites.sh: one headless VM at a time, so a chain, the longest part):
#   glance run's boots straight away, then, once the packages are made, the device boot (the
#   x86-64 package installed into a Debian image and booted) and the arm64 boot;
# - tools/beside-tests.sh: the suites as arm64 code built with Swift 6.0.3 (one build job; run
#   once the arm64 package is made), the fuzz targets on FUZZ_TEST_RUNS inputs each and the
#   instruction counts of the package's build against tools/bench/recorded.txt
#   (tools/bench/instructions.sh --check: a figure more than 5 % worse fails);
# - the x86-64 package and its check against Debian's names and files;
# - the arm64 package (tools/arm64/make-test.sh package: Swift 6.0.3 in a trixie build root).
# Their release builds compile a module at a time, each keeping about one core busy. Then swift
# test, without the VM suites (kept in .build/swift-test.txt too); the reports of the other two
# follow it. A part that failed is said again on the last lines with what failed in it (its
# failed tests, figures or targets), where a short tail of the output still shows them. A
# failed x86-64 package or arm64 part still lets the rest run, then fails make test, each said
# as what it is. The packages of an earlier run are removed first: a failed build leaves the
# boots no package (they fail, saying so), never a stale one.
#
# swift test, the VM chain and the parts beside them run under tools/bounded.sh (50, 50 and 45 minutes): a test
# blocked where no wait of its own is bounded is ended with everything it started, said, and fails
# the run long before CI's 90 minutes.
#
# Every part must run: with GLANCE_REQUIRE_ALL_PARTS=1 (the default here, and .ci/run's) a part
# that cannot run (the VM suites, the device boot, the arm64 package, suites or boot: off with
# GLANCE_SKIP_VM=1 or GLANCE_SKIP_ARM64=1, on a host that is not x86-64, for a user who is not
# root) fails make test, saying why. GLANCE_REQUIRE_ALL_PARTS=0 make test lets them be skipped
# (said, and not a pass of the whole).
GLANCE_REQUIRE_ALL_PARTS ?= 1
export GLANCE_REQUIRE_ALL_PARTS
test: deps install-check
	$(SWIFT) build --build-tests
	GLANCE_FONT_ROOT="$$(tools/test-fonts.sh)" || exit 1; export GLANCE_FONT_ROOT; \
	mkdir -p .build && rm -f .build/deb/glance_*_amd64.deb .build/deb/glance_*_arm64.deb .build/deb/glance-panel_*.deb; \
	ready=.build/packages-made.env; rm -f $$ready; \
	tools/bounded.sh 3000 tools/vm-suites.sh $$ready >.build/vm-suites.txt 2>&1 & vm=$$!; \
	tools/bounded.sh 2700 tools/beside-tests.sh $(FUZZ_TEST_RUNS) $$ready >.build/beside-tests.txt 2>&1 & beside=$$!; \
	tools/arm64/make-test.sh package >.build/arm64-deb.txt 2>.build/arm64-deb.log & armpkg=$$!; \
	deb="$$(tools/build-deb.sh)"; debrc=$$?; GLANCE_DEB="$$(echo "$$deb" | tail -1)"; \
	if [ $$debrc != 0 ] || [ ! -f "$$GLANCE_DEB" ]; then \
		echo "make test: the x86-64 package was not made (tools/build-deb.sh, status $$debrc): the device boot has no package"; \
		debrc=1; GLANCE_DEB=""; \
	fi; \
	pkgrc=0; if [ -n "$$GLANCE_DEB" ]; then tools/package-check.sh "$$GLANCE_DEB" || pkgrc=1; fi; \
	wait $$armpkg; arm=$$?; cat .build/arm64-deb.log; GLANCE_ARM64_DEB="$$(tail -1 .build/arm64-deb.txt)"; \
	[ $$arm = 0 ] && [ -f "$$GLANCE_ARM64_DEB" ] || GLANCE_ARM64_DEB=""; \
	{ echo "GLANCE_DEB='$$GLANCE_DEB'"; echo "GLANCE_ARM64_DEB='$$GLANCE_ARM64_DEB'"; } >$$ready.new; mv $$ready.new $$ready; \
	export GLANCE_DEB GLANCE_ARM64_DEB; \
	rm -f .build/swift-test.rc; { tools/bounded.sh 3000 $(SWIFT) test --skip-build $(VM_CHAIN:%=--skip %); echo $$? >.build/swift-test.rc; } 2>&1 | tee .build/swift-test.txt; \
	rc=$$(cat .build/swift-test.rc 2>/dev/null || echo 1); \
	wait $$vm; vmrc=$$?; cat .build/vm-suites.txt; \
	wait $$beside; besiderc=$$?; cat .build/beside-tests.txt; \
	[ $$debrc = 0 ] || echo "make test: the x86-64 package failed (see above)"; \
	[ $$pkgrc = 0 ] || echo "make test: the package's name or files clash with Debian's (tools/package-check.sh, above)"; \
	[ $$arm = 0 ] || echo "make test: the arm64 package failed (see above)"; \
	[ $$vmrc = 0 ] || { echo "make test: the VM boots failed (tools/vm-suites.sh, above); what failed:"; \
		grep -a -E '^.{0,4}✘ |ran past|status [1-9][0-9]* in' .build/vm-suites.txt | cut -c1-240 | head -6; }; \
	[ $$besiderc = 0 ] || { echo "make test: the arm64 suites, the fuzz targets or the instruction check failed (above); what failed:"; \
		grep -a -E '^.{0,4}✘ |ran past|status [1-9][0-9]* in|^fuzz .*fail| worse$$' .build/beside-tests.txt | cut -c1-240 | head -6; }; \
	[ $$rc = 0 ] || { echo "make test: swift test failed (status $$rc; all it printed is in .build/swift-test.txt); what failed:"; \
		grep -a -E '^.{0,4}✘ |error:|ran past|Fatal error' .build/swift-test.txt | cut -c1-240 | head -12; }; \
	[ $$debrc = 0 ] && [ $$pkgrc = 0 ] && [ $$arm = 0 ] && [ $$vmrc = 0 ] && [ $$besiderc = 0 ] && [ $$rc = 0 ] || exit 1

# The suites of VM boots tools/vm-suites.sh runs (swift test skips them; the device boot and the
# arm64 boot are tests of VMEndToEndTests).
VM_CHAIN = VMEndToEndTests VMInputTests

# Only the end-to-end tests on a real kernel in qemu (tools/vm; about 4 minutes with the boot of
# the package in Debian, which needs the package built).
vm-test: deps
	$(SWIFT) build
	GLANCE_FONT_ROOT="$$(tools/test-fonts.sh)" || exit 1; export GLANCE_FONT_ROOT; \
	deb="$$(tools/build-deb.sh)" && GLANCE_DEB="$$(echo "$$deb" | tail -1)" && export GLANCE_DEB && $(SWIFT) test --filter VMTests

# The install step of a fresh clone on a minimal Debian 13 (amd64 and arm64), simulated: the
# package list and swiftlang resolve there (tools/install-check.sh: its root is made once into
# ~/.cache/glance-install-check; a pass is remembered until the list, the script or Debian's lists
# change). INSTALL_CHECK_ARGS=--full installs for real in a copy of the root and runs make run there.
install-check: deps
	tools/install-check.sh $(INSTALL_CHECK_ARGS)

# Time from the exec to the first frame on screen, in the VM (tools/vm/bench-startup.sh).
bench-startup: release
	tools/vm/bench-startup.sh $(RELEASE)

# The real app in a VM with a window (or VNC on 127.0.0.1:5900 without a display); see README.md.
sim: release
	tools/vm/sim.sh $(RELEASE) -- $(SIM_ARGS)

bench: release
	$(RELEASE) bench
	tools/bench/instructions.sh

# ARCH=arm64: the arm64 build's instructions, counted by qemu-aarch64 with a plugin.
instructions: $(if $(filter arm64,$(ARCH)),deps,release)
	tools/bench/instructions.sh $(if $(ARCH),--arch $(ARCH))

# Every goal's figure on this machine with its aarch64 figure beside it.
goals: release
	tools/bench/instructions.sh --beside

# Import benchmark: a ~1 GB synthetic Health export in a scratch folder, glance import against
# healthkit-to-sqlite (PyPI) on the same file; prints MB/s, peak RSS and the ratio.
# Extra arguments: make bench-import BENCH_IMPORT_ARGS="--size-mb 200 --no-reference"
bench-import: release
	python3 tools/bench/import_benchmark.py $(BENCH_IMPORT_ARGS)

# The Debian package (release build, static Swift standard library) in .build/deb; ARCH=arm64
# cross-builds the Raspberry Pi OS / Debian 13 arm64 package with Debian 13's Swift in a trixie
# build root (tools/arm64; made once into ~/.cache/glance-arm64).
deb: deps
	tools/build-deb.sh $(if $(ARCH),--arch $(ARCH))

# Installed size, shared libraries, resident memory in the VM at 480x480 and 720x1280.
footprint: deps
	tools/footprint.sh

# systemd-analyze security's rating of device/glance.service (target 2.0 or lower).
security:
	systemd-analyze security --offline=yes --no-pager device/glance.service | tail -1

# Fuzzing (tools/fuzz): libFuzzer with AddressSanitizer on the XML and CSV importers, the import of
# any file (zip included), the configuration reader, glance serve's request bodies and MQTT
# payloads; FUZZ_SECONDS each (make test runs each on
# FUZZ_TEST_RUNS inputs). Prints runs, coverage and crashes; a crash's input is kept in
# tools/fuzz/regressions/. Extra: make fuzz FUZZ_SECONDS=60 FUZZ_TARGETS=import-xml
.PHONY: fuzz soak
FUZZ_SECONDS ?= 600
FUZZ_TEST_RUNS ?= 2000
fuzz: deps
	tools/fuzz/fuzz.sh --seconds $(FUZZ_SECONDS) $(FUZZ_TARGETS)

# Soak (tools/vm/soak.sh): glance run in the VM for SOAK_MINUTES (10) under random keys and
# touches, store writes every 100 ms, gauge-file changes and VT switches; prints RSS, open
# descriptors and CPU at the start and the end, and checks the last frame against glance render.
SOAK_MINUTES ?= 10
soak: release
	tools/vm/soak.sh --minutes $(SOAK_MINUTES) $(RELEASE)
