# Glance: the two commands a newcomer needs are `make run` and `make test` (see README.md).
SWIFT ?= swift
RELEASE := .build/release/glance

.PHONY: deps build release run test bench instructions sim vm-test bench-startup bench-import

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

# Every test: unit, golden, command-line and (where present) VM end-to-end tests.
test: deps
	$(SWIFT) build
	$(SWIFT) test

# Only the end-to-end tests on a real kernel in qemu (tools/vm; about 1.5 minutes).
vm-test: deps
	$(SWIFT) build
	$(SWIFT) test --filter VMTests

# Time from process start to the first frame on screen, in the VM (tools/vm/bench-startup.sh).
bench-startup: release
	tools/vm/bench-startup.sh $(RELEASE)

# The real app in a VM with a window (or VNC on 127.0.0.1:5900 without a display); see README.md.
sim: release
	tools/vm/sim.sh $(RELEASE) -- $(SIM_ARGS)

bench: release
	$(RELEASE) bench
	tools/bench/instructions.sh

instructions: release
	tools/bench/instructions.sh

# Import benchmark: a ~1 GB synthetic Health export in a scratch folder, glance import against
# healthkit-to-sqlite (PyPI) on the same file; prints MB/s, peak RSS and the ratio.
# Extra arguments: make bench-import BENCH_IMPORT_ARGS="--size-mb 200 --no-reference"
bench-import: release
	python3 tools/bench/import_benchmark.py $(BENCH_IMPORT_ARGS)
