#!/usr/bin/env bash
# sim.sh -- the real app on a real kernel for people without the board: boots glance in a
# qemu VM (Debian's kernel, bochs or virtio-gpu DRM, virtio keyboard + tablet) and shows the
# virtual panel in a window when there is a display ($DISPLAY or $WAYLAND_DISPLAY), else over
# VNC on 127.0.0.1:5900+N. Closing the window, or Ctrl-C here, ends it.
#
#   tools/vm/sim.sh [GLANCE_BINARY] [-- GLANCE_RUN_ARGS...]
#
# The guest has the binary's architecture: an arm64 machine (a Pi 5, an arm64 server) boots an
# arm64 guest (qemu-system-aarch64, virt, Debian's arm64 kernel, virtio-gpu), with KVM where it
# works; an x86-64 machine an x86-64 one. (An arm64 binary on an x86-64 machine is refused: the
# guest is booted from the host's own files; the arm64 boot test shows the arm64 package instead.)
#
# Environment: SIM_GPU=std|virtio|cirrus (default std: bochs keeps the panel at SIM_RES,
# while virtio-gpu takes the window's size as its preferred mode; arm64: virtio only), SIM_RES=WxH (default 480x480),
# SIM_DISPLAY=window|vnc (default: window when a display is available), SIM_VNC=N (default 0),
# RUN_IN_VM_CACHE (kernel cache, default ~/.cache/run-in-vm).
# Example: SIM_RES=800x480 tools/vm/sim.sh .build/release/glance -- --rotate 90
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
BINARY=$ROOT/.build/release/glance
if [ $# -gt 0 ] && [ "$1" != -- ]; then BINARY=$1; shift; fi
[ "${1:-}" = -- ] && shift
[ -x "$BINARY" ] || { echo "sim: no $BINARY: build it first (make sim does)" >&2; exit 2; }

case "$(file -b "$BINARY")" in
*aarch64*) ARCH=arm64 DEFAULT_GPU=virtio QEMU_BIN=qemu-system-aarch64 ;;
*x86-64*) ARCH=amd64 DEFAULT_GPU=std QEMU_BIN=qemu-system-x86_64 ;;
*) echo "sim: $BINARY is neither an x86-64 nor an aarch64 program" >&2; exit 2 ;;
esac
if [ "$ARCH" != "$(dpkg --print-architecture)" ]; then
	echo "sim: $BINARY is an $ARCH program and this machine is $(dpkg --print-architecture): make sim runs this machine's own build" >&2
	exit 2
fi
GPU=${SIM_GPU:-$DEFAULT_GPU} RES=${SIM_RES:-480x480} VNC=${SIM_VNC:-0}
MODE=${SIM_DISPLAY:-}
if [ -z "$MODE" ]; then
	if [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ]; then MODE=window; else MODE=vnc; fi
fi
if [ "$MODE" = window ] && ! $QEMU_BIN -display help 2>/dev/null | grep -qxE 'gtk|sdl'; then
	# Debian puts qemu's GTK and SDL front ends in qemu-system-gui
	SUDO=""; [ "$(id -u)" = 0 ] || SUDO=sudo
	echo "sim: installing qemu-system-gui for the window" >&2
	$SUDO apt-get install -y --no-install-recommends qemu-system-gui >/dev/null ||
		{ echo "sim: no qemu window available; using VNC" >&2; MODE=vnc; }
fi
if [ "$MODE" = vnc ]; then
	echo "sim: connect a VNC viewer to 127.0.0.1:$((5900 + VNC)) (display :$VNC) to see the panel" >&2
fi
OUT=${TMPDIR:-/tmp}/glance-sim
echo "sim: glance run --intro${*:+ $*} on $GPU at $RES, with four weeks of demo data; logs in $OUT" >&2
# The store gets the demo days first, so there is something to browse (Left/Right, swipes).
# (none given: nothing, not printf's lone ` ''`, which glance run would refuse with exit 64)
ARGS=""
[ $# -eq 0 ] || ARGS=$(printf ' %q' "$@")
exec "$HERE/run-in-vm.sh" --arch "$ARCH" --gpu "$GPU" --res "$RES" --display "$MODE" --vnc "$VNC" \
	--binary "$BINARY" --fonts "fonts-inter fonts-wqy-microhei" --out "$OUT" --timeout 86400 \
	--cmd "/app/glance demo-data --db /tmp/glance.db >/dev/null; exec /app/glance run --db /tmp/glance.db --intro$ARGS"
