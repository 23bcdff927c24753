#!/usr/bin/env bash
# instructions.sh -- instructions per full frame, counted by callgrind (repeatable on a noisy
# machine, unlike time), for the release build.
#
#   tools/bench/instructions.sh [SIZE ...]      (default: 480x480)
#
# Every count is taken twice, rendering 1 and 11 frames, and the difference / 10 is the cost
# of one frame without start-up. Prints, per size:
#   instructions screen=rings rings_only=1 size=480x480 per_frame=2798771 target=3000000 ratio_to_target=0.93
#     the benchmark day's rings alone (Move 75 %, Exercise 50 %, Stand 120 %): the 3.0 M target
#   instructions screen=rings size=480x480 per_frame=… text_per_frame=…
#     each screen with its labels, and what the labels cost (the same frame without text subtracted)
#   instructions animated=spinner size=480x480 per_frame=… whole_per_frame=… ratio_to_progress=… target=0.10 changed_percent=…
#     a spinner frame through the damage path (glance bench --animated, two buffers in turn,
#     frames 3 to 12: both buffers drawn once before), the same frames drawn whole, and its
#     share of a full progress frame (issue 15's target: 10 %)
#   instructions animated=intro size=480x480 total=… whole_total=… ratio_to_whole=… target=0.50
#     the intro's 54 frames after the first (60 fps until the rings stop), damaged and whole
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
# valgrind 3.19 gives up on the DWARF 5 debug information of Swift 6's release builds
# ("Possibly corrupted debuginfo file"): count on a copy without it (the symbols stay).
objcopy --strip-debug "$BIN" "$tmp/glance"
count() { # FRAMES ARGS...
	local frames=$1 n
	shift
	valgrind --tool=callgrind --callgrind-out-file="$tmp/cg" "$tmp/glance" bench --frames "$frames" --no-fill "$@" \
		2>"$tmp/valgrind.log" >"$tmp/out" || true
	n=$(sed -n 's/.*Collected : \([0-9]*\).*/\1/p' "$tmp/valgrind.log")
	if [ -z "$n" ]; then
		echo "instructions.sh: callgrind counted nothing for: glance bench --frames $frames $*" >&2
		tail -5 "$tmp/valgrind.log" >&2
		exit 1
	fi
	echo "$n"
}
per_frame() { # ARGS...
	local one eleven
	one=$(count 1 "$@")
	eleven=$(count 11 "$@")
	echo $(((eleven - one) / 10))
}
for size in "${sizes[@]}"; do
	per=$(per_frame --rings-only --size "$size")
	ratio=$(awk -v a="$per" -v b="$TARGET" 'BEGIN { printf "%.2f", a / b }')
	echo "instructions screen=rings rings_only=1 size=$size per_frame=$per target=$TARGET ratio_to_target=$ratio"
	for screen in rings gauge progress; do
		both=$(per_frame --screen "$screen" --size "$size")        # a frame with text + the same without
		bare=$(per_frame --screen "$screen" --size "$size" --no-text)
		echo "instructions screen=$screen size=$size per_frame=$((both - bare)) text_per_frame=$((both - 2 * bare))"
		if [ "$screen" = progress ]; then progress=$((both - bare)); fi
	done
	# Animation through the damage path: a spinner frame once both buffers hold a frame.
	two=$(count 2 --animated --animation spinner --size "$size")
	spin=$((($(count 12 --animated --animation spinner --size "$size") - two) / 10))
	changed=$(sed -n 's/.* changed_percent=\([0-9.]*\).*/\1/p' "$tmp/out")   # over the 11 frames after the first
	spin_whole=$(( ($(count 12 --animated --animation spinner --whole --size "$size") - $(count 2 --animated --animation spinner --whole --size "$size")) / 10 ))
	ratio=$(awk -v a="$spin" -v b="$progress" 'BEGIN { printf "%.3f", a / b }')
	echo "instructions animated=spinner size=$size per_frame=$spin whole_per_frame=$spin_whole ratio_to_progress=$ratio target=0.10 changed_percent=$changed"
	# The intro: its frames after the first (the bench stops when the rings do).
	first=$(count 1 --animated --animation intro --size "$size")
	damaged=$(($(count 55 --animated --animation intro --size "$size") - first))
	whole=$(($(count 55 --animated --animation intro --whole --size "$size") - first))
	ratio=$(awk -v a="$damaged" -v b="$whole" 'BEGIN { printf "%.2f", a / b }')
	echo "instructions animated=intro size=$size total=$damaged whole_total=$whole ratio_to_whole=$ratio target=0.50"
done
