#!/usr/bin/env bash
# bench-startup.sh -- time from the exec to the first frame on screen (`glance run
# --report-startup`), measured in the VM on a real kernel DRM driver: one boot, N runs each
# stopped with SIGTERM once its first frame is up. Prints one line per run, the median against
# issue 15's target (300 ms after exec), and the median of each phase before the first frame
# (what stands in the way), and the shared libraries mapped when the first frame is up:
#   bench startup vm=virtio res=480x480 binary=… runs=5 median_ms_after_exec=… target_ms=300 ratio_to_target=… app_median_ms_after_process_start=…
#   bench startup libraries binary=… mapped_at_first_frame=N names=libc.so.6,…
#   bench startup phases binary=… before_main=… fonts_and_setup=… open_card_choose_buffers=… store=… … (ms)
#
#   tools/vm/bench-startup.sh [GLANCE_BINARY] [N] [OTHER_BINARY]
#
# Defaults .build/release/glance, 5. With OTHER_BINARY (another build to compare with), both are
# in the same boot and started in turn, N runs each: the machine's load, which spreads the runs
# by ±30 % here, then weighs on both alike; a median for each.
# Environment: BENCH_GPU=virtio|std (default virtio), BENCH_RES=WxH (default 480x480),
# BENCH_SETTLE=SECONDS (the shell's sleep after each start before it looks; default 1.5),
# BENCH_CONFIG=FILE: a configuration file put at /etc/glance/config.json in the guest, which the
# app then reads at each start as on a device (device/config.json is what the package installs;
# without it, the app runs on its built-in defaults and reads no file).
# Under TCG (no KVM) the guest CPU is emulated: figures are several times what the same
# binary takes on real hardware; compare builds with each other, not with a board.
# The guest has one CPU: whatever the shell runs while the app starts is taken from the app. So
# the shell sleeps for BENCH_SETTLE seconds (default 1.5) before it first looks for the first
# frame's line, then looks every 0.25 s. (It looked at once and every 0.25 s: one boot, the same
# binary started 11 times each way in turn, 361 ms after exec looking at once, 333 ms sleeping
# first; every 0.02 s its greps had taken more still.)
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
BINARY=${1:-$ROOT/.build/release/glance}
N=${2:-5}
OTHER=${3:-}
[[ ${BENCH_SETTLE:-1.5} =~ ^[0-9]+([.][0-9]+)?$ ]] || { echo "bench-startup: BENCH_SETTLE=$BENCH_SETTLE: give seconds, e.g. 1.5" >&2; exit 2; }
[ -x "$BINARY" ] || { echo "bench-startup: no $BINARY: build it first" >&2; exit 2; }
[ -z "$OTHER" ] || [ -x "$OTHER" ] || { echo "bench-startup: no $OTHER" >&2; exit 2; }
OUT=${TMPDIR:-/tmp}/glance-bench-startup
NAME=$(basename "$BINARY") # run-in-vm.sh's /app/NAME
NAMES=$NAME
REVERSED=$NAME
ADD=()
TIMEOUT=300
if [ -n "${BENCH_CONFIG:-}" ]; then
	[ -r "$BENCH_CONFIG" ] || { echo "bench-startup: no $BENCH_CONFIG" >&2; exit 2; }
	ADD+=(--add "$BENCH_CONFIG:/etc/glance/config.json")
fi
if [ -n "$OTHER" ]; then
	NAMES="other $NAME"
	REVERSED="$NAME other"
	ADD+=(--add "$OTHER:/app/other")
	TIMEOUT=600
fi
# The exec's own mark (tools/vm/e2e/exec-clock.c): the app's "ms after exec" counts from the
# process's start in /proc/self/stat, the fork, in whole clock ticks (10 ms): 0-10 ms early, and
# earlier by the shell's work between fork and exec. exec-clock reads CLOCK_BOOTTIME just before
# it execs the app, and the app says its first frame's CLOCK_BOOTTIME ("ms after kernel start"):
# the difference is the time after the exec itself, the figure the median is of. The app's own
# figure is printed beside it (app_median_ms_after_process_start).
command -v gcc >/dev/null || { echo "bench-startup: gcc is missing (apt-get install gcc)" >&2; exit 2; }
gcc -O2 -static -o "$OUT.exec-clock" "$HERE/e2e/exec-clock.c" ||
	{ echo "bench-startup: could not build tools/vm/e2e/exec-clock.c" >&2; exit 2; }
ADD+=(--add "$OUT.exec-clock:/app/exec-clock")
# Two binaries go in turn, the first of each pair alternating: the runs early in a boot are
# slower, and always starting with the same one counted that against it.
CMD='i=0; while [ $i -lt '"$N"' ]; do i=$((i+1)); order="'"$NAMES"'"; [ $((i % 2)) = 0 ] && order="'"$REVERSED"'";
  for name in $order; do log=/tmp/run$i-$name.log;
  /app/exec-clock /app/$name run --report-startup >$log 2>&1 & pid=$!; sleep '"${BENCH_SETTLE:-1.5}"';
  until grep -q "^startup: fonts" $log 2>/dev/null; do kill -0 $pid 2>/dev/null || break; sleep 0.25; done;
  libs=$(grep -o "/[^ ]*[.]so[^ /]*$" /proc/$pid/maps 2>/dev/null | sed "s#.*/##" | sort -u);
  kill -TERM $pid; wait $pid; echo "BENCH $name run $i: $(grep "^startup: first" $log) $(grep "^exec-clock: exec at" $log)";
  echo "LIBS $name $(echo "$libs" | grep -c .) $(echo $libs)";
  echo "PHASES $name $(grep "^startup: fonts" $log)"; done; done'
"$HERE/run-in-vm.sh" --gpu "${BENCH_GPU:-virtio}" --res "${BENCH_RES:-480x480}" --binary "$BINARY" "${ADD[@]}" \
	--fonts "fonts-inter fonts-wqy-microhei" \
	--cmd "$CMD" --out "$OUT" --timeout $TIMEOUT >"$OUT.log" 2>&1 ||
	{ echo "bench-startup: VM run failed; see $OUT and $OUT.log" >&2; exit 1; }
for name in $NAMES; do
	bin=$BINARY
	[ "$name" = other ] && bin=$OTHER
	# Each run: the app's line, then the time after the exec itself (its first frame's "ms after
	# kernel start" less exec-clock's mark); "after exec itself" below is that time.
	runs=$(grep "^BENCH $name " "$OUT/console.log" |
		sed -E 's/^BENCH [^ ]+ (run [0-9]+): .* ([0-9.]+) ms after exec, ([0-9.]+) ms after main, ([0-9.]+) ms after kernel start.*exec-clock: exec at ([0-9.]+) ms.*/\1 \2 \3 \4 \5/' |
		awk '$2 ~ /^[0-9]/ && NF == 6 {printf "%s %s %.3f %s %s\n", $1, $2, $5 - $6, $3, $4; next} {print "unparsed"}')
	grep "^BENCH $name " "$OUT/console.log" | sed "s/^BENCH $name /$name: /"
	echo "$runs" | awk -v name="$name" 'NF == 5 {printf "%s: %s %s: first frame %s ms after the exec itself (the app says %s ms after its process start)\n", name, $1, $2, $3, $4}'
	if echo "$runs" | grep -q unparsed; then
		echo "bench-startup: a run of $name has no first frame or no exec-clock mark (see $OUT/console.log)" >&2
	fi
	app=$(echo "$runs" | awk 'NF == 5 {print $4}' | sort -n | awk '{a[NR] = $1} END {if (NR) print a[int((NR + 1) / 2)]}')
	echo "$runs" | awk 'NF == 5 {print $3}' | sort -n |
		awk -v gpu="${BENCH_GPU:-virtio}" -v res="${BENCH_RES:-480x480}" -v bin="$bin" -v app="$app" \
			'{e[NR]=$1} END {if (NR) printf "bench startup vm=%s res=%s binary=%s runs=%d median_ms_after_exec=%s target_ms=300 ratio_to_target=%.2f app_median_ms_after_process_start=%s\n", gpu, res, bin, NR, e[int((NR+1)/2)], e[int((NR+1)/2)] / 300, app}'
	# The shared libraries mapped once the first frame was up (from /proc/PID/maps, the first run's:
	# every run maps the same ones).
	grep "^LIBS $name " "$OUT/console.log" | head -1 |
		awk -v bin="$bin" '{line = "bench startup libraries binary=" bin " mapped_at_first_frame=" $3; for (i = 4; i <= NF; i++) line = line (i == 4 ? " names=" : ",") $i; print line}'
	# Each phase's median: "before main" from the exec itself to main, the rest from
	# "startup: fonts and setup 86.7 ms (804 page faults), open card + choose + buffers …; after it: …".
	{
		echo "$runs" | awk 'NF == 5 {print 0, "before_main", $3 - $5}'
		grep "^PHASES $name " "$OUT/console.log" | sed -E "s/^PHASES $name startup: //; s/;.*//" |
			awk -F', ' '{for (i = 1; i <= NF; i++) {f = $i; sub(/ ms \(.*/, "", f); v = f; sub(/.* /, "", v); sub(/ [0-9.]+$/, "", f)
				gsub(/[^a-z0-9]+/, "_", f); print i, f, v}}'
	} | sort -k1,1n -k3,3n | awk -v bin="$bin" '
		{v[$1, ++n[$1]] = $3; name[$1] = $2; if ($1 > last) last = $1}
		END {line = "bench startup phases binary=" bin; for (i = 0; i <= last; i++) if (n[i]) line = line " " name[i] "=" v[i, int((n[i] + 1) / 2)]; print line " (ms, medians)"}'
done
