#!/usr/bin/env bash
# instructions.sh -- instructions per full ring frame, counted by callgrind (repeatable on a
# noisy machine, unlike time), for the release build.
#
#   tools/bench/instructions.sh [SIZE ...]      (default: 480x480)
#
# Each size is run twice under callgrind, rendering 1 and 11 frames of the benchmark day
# (Move 75 %, Exercise 50 %, Stand 120 %); the difference / 10 is the cost of one frame without
# start-up. Prints one line per size:
#   instructions screen=rings size=480x480 per_frame=2803456 target=3000000 ratio_to_target=0.93
set -euo pipefail
cd "$(dirname "$0")/../.."
BIN=.build/release/glance
[ -x "$BIN" ] || swift build -c release >/dev/null
command -v valgrind >/dev/null || { echo "instructions.sh: valgrind is needed (tools/install-deps.sh installs it)" >&2; exit 1; }
TARGET=3000000
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(480x480)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
count() { # SIZE FRAMES
	valgrind --tool=callgrind --callgrind-out-file="$tmp/cg" "$BIN" bench --rings-only --size "$1" --frames "$2" --no-fill \
		2>&1 >/dev/null | sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}
for size in "${sizes[@]}"; do
	one=$(count "$size" 1)
	eleven=$(count "$size" 11)
	per=$(((eleven - one) / 10))
	ratio=$(awk -v a="$per" -v b="$TARGET" 'BEGIN { printf "%.2f", a / b }')
	echo "instructions screen=rings size=$size per_frame=$per target=$TARGET ratio_to_target=$ratio"
done
