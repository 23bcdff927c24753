#!/usr/bin/env bash
# run.sh -- what `make run` does: the app on its embedded defaults.
#
# With a display (a DRM card under /dev/dri) it runs `glance run` on it, with four weeks of demo
# days in a store of its own (out/demo.db; your real store is never touched), until Ctrl-C.
# Without one (a build machine, a container) it draws the demo screens into out/ and says how
# to see the real app anyway (make sim).
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=.build/release/glance
mkdir -p out
if compgen -G "/dev/dri/card*" >/dev/null; then
	"$BIN" demo-data --db out/demo.db >/dev/null
	echo "run: glance run on the display with demo data (Ctrl-C to stop; the console comes back)" >&2
	exec "$BIN" run --db out/demo.db --intro
fi
"$BIN" demo --output out
echo "run: no display here (/dev/dri has no card): the demo screens are in out/." >&2
echo "run: 'make sim' runs the real app on a virtual panel (qemu), in a window or over VNC." >&2
