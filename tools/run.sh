#!/usr/bin/env bash
# run.sh -- what `make run` does: the app on its embedded defaults, and something to look at
# on any machine.
#
# With a display (a DRM card under /dev/dri) it runs `glance run` on it, with four weeks of demo
# days in a store of its own (out/demo.db; your real store is never touched), until Ctrl-C.
# Where it cannot have the display (a desktop session holds it: exit 75; the user may not open
# it: 77; no connected display: 69), and without a card at all (a build machine, a container),
# it says so in one line, draws the demo screens into out/ and says how to see the real app
# anyway (make sim).
#
# GLANCE=PATH runs another build (default .build/release/glance).
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${GLANCE:-.build/release/glance}
mkdir -p out

demo() {
	"$BIN" demo --output out >/dev/null
	echo "run: $1: the demo screens are in out/ instead; 'make sim' runs the real app on a virtual panel (qemu), in a window or over VNC." >&2
}

if ! compgen -G "/dev/dri/card*" >/dev/null; then
	demo "no display here (/dev/dri has no card)"
	exit 0
fi

"$BIN" demo-data --db out/demo.db >/dev/null
log=$(mktemp)
trap 'rm -f "$log"' EXIT
"$BIN" run --db out/demo.db --intro 2>"$log" &
pid=$!
# Until it shows (its log told as it comes from then on) or gives up.
while kill -0 "$pid" 2>/dev/null && ! grep -q "first frame on screen" "$log"; do sleep 0.1; done
shown=0
if grep -q "first frame on screen" "$log"; then
	shown=1
	echo "run: glance run on the display with demo data (Ctrl-C to stop; the console comes back)" >&2
	cat "$log" >&2
	tail -n +"$(($(wc -l <"$log") + 1))" -f --pid="$pid" "$log" >&2 &
fi
status=0
wait "$pid" || status=$?
# It showed: whatever ended it is the app's to tell (it did, above).
[ "$shown" = 1 ] && exit "$status"
case $status in
0) ;;
69 | 75 | 77)
	# glance's own reason is its last line.
	reason=$(grep '^glance: ' "$log" | tail -1 | sed 's/^glance: //')
	demo "glance run cannot have the display (exit $status: $reason)"
	;;
*)
	cat "$log" >&2
	exit "$status"
	;;
esac
