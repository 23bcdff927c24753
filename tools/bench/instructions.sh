#!/usr/bin/env bash
# instructions.sh -- instructions per full frame, counted (repeatable on a noisy machine, unlike
# time), for the release build: callgrind for this machine's build, qemu's user mode with an
# instruction-count plugin for the arm64 build.
#
#   tools/bench/instructions.sh [--arch arm64] [--goals] [SIZE ...]      (default: 480x480)
#
# --arch arm64: the arm64 release build (.build/arm64-release, cross-built with Debian 13's
# Swift 6.0.3 as for the package) run by Debian 12's qemu-aarch64 (package qemu-user, installed
# when missing; its binfmt registration is not) with tools/bench/qemu-insn-count.c as a plugin,
# the trixie build root as its library prefix (-L). Every aarch64 instruction the program
# executes is counted, as callgrind counts every x86-64 one.
# --goals: only issue 27's table (the "goal" lines below), not the per-size lines.
# --check: the table alone, counted on the package's build (.build/static, tools/build-deb.sh's),
#   each figure against the one recorded in tools/bench/recorded.txt for this architecture; exits 1 when a figure is more than 5 % worse (instruction counts are
#   exact for one build, so 5 % is a change, not noise). make test runs it.
# --record: the table alone, and its figures written into tools/bench/recorded.txt (after a
#   change that makes a figure worse on purpose, said in the commit, or better).
# --beside: the table for this machine's build and for the arm64 build (--arch arm64), each of
#   this machine's goal lines with the aarch64 figure of the same goal after it
#   (aarch64_per_frame=, aarch64_total= or aarch64_distinct=, aarch64_ratio_to_goal=, and for the spinner
#   aarch64_ratio_to_progress=): every figure with its aarch64 one, by one command
#   (make goals).
#
# Every count is taken twice, rendering 1 and 11 frames, and the difference / 10 is the cost
# of one frame without start-up. Prints, per size:
#   instructions arch=x86_64 screen=rings rings_only=1 size=480x480 per_frame=1459202 target=1500000 ratio_to_target=0.97
#     the benchmark day's rings alone (Move 75 %, Exercise 50 %, Stand 120 %): the target is
#     1.5 M on x86-64 (issue 15: twice Blend2D's speed), 3.5 M on aarch64 (not yet lowered: the
#     arm64 figure predates the row spans)
#   instructions arch=x86_64 screen=rings size=480x480 per_frame=… text_per_frame=…
#     each screen with its labels, and what the labels cost (the same frame without text subtracted)
#   instructions arch=x86_64 floor=fill size=480x480 per_frame=…
#     a full-frame colour fill of the same buffer (PixelBuffer.fill: sixteen-byte stores, not
#     memset, whose `rep stosb` callgrind counts as one instruction per byte), counted the same way
#   instructions arch=x86_64 screen=rings rings_only=1 size=480x480 per_frame=… blend2d=2900000 ratio_to_blend2d=… ratio_to_floor=…
#     the rings-only frame against Blend2D's figure as issue 15 recorded it and against the floor
#     (480x480 only)
#   instructions arch=x86_64 animated=spinner fps=30 size=480x480 per_frame=… painter_per_frame=… session_per_frame=… first_turn_per_frame=… whole_per_frame=… ratio_to_progress=… target=0.10 changed_percent=… store_reads=…
#     a spinner frame through the session glance run drives (glance bench --animated: the one
#     assembly on a recording sink that keeps no copies, a made-up clock turning the session
#     frame by frame, the task and the day in a store of the bench's own), at 30 and 60 fps,
#     frames 3 to 12 of a turn after the first (the spinner's positions repeat turn after turn,
#     and the frames drawn in the first turn are kept and copied: ProgressScreen.drawKeptSpinner;
#     first_turn_per_frame: frames 3 to 12 of the first, each drawn); of it the painter's part (FramePainter.paint,
#     callgrind's inclusive count: x86-64 only) and the rest (the controller, the loop's turn, the
#     store's data); the same frames drawn whole (by the painter, --whole); its share of a full
#     progress frame (issue 15's target: 10 %); the store's queries over the frames after the
#     first (0: nothing read while the store does not change)
#   instructions arch=x86_64 animated=intro size=480x480 total=… whole_total=… ratio_to_whole=… recorded=107000000 ratio_to_recorded=… target=0.50
#     the intro's 54 frames after the first (60 fps until the rings stop), through the session
#     (damaged) and drawn whole by the painter, and (x86-64, 480x480) against the 107 M the issue
#     recorded for it drawn whole (its target: half)
# then issue 27's table, one line per figure with its goal and ratio_to_goal (≤ 1 is met):
#   goal arch=x86_64 figure=warm size=480x480 per_frame=… goal=1200000 ratio_to_goal=… blend2d=3230000 ratio_to_blend2d=… floor=… ratio_to_floor=…
#   goal arch=x86_64 figure=cold size=480x480 per_frame=… goal=2000000 …
#   goal arch=x86_64 figure=cold size=1920x1080 per_frame=… goal=8000000 blend2d=9500000 …
#     the rings-only frame of one geometry drawn again (warm), and drawn into a new buffer with
#     nothing kept (cold: glance bench --cold); against Blend2D, which builds everything every
#     frame (3.23 M at 480x480 as issue 27 re-measured it; 9.5 M at 1920x1080, issue 27's 27.6 M
#     over its 2.9×), and against the fill floor of the same size
#   goal arch=x86_64 figure=render size=800x480 total=… goal=90000000 ratio_to_goal=… png_bytes=…
#     glance render of the ring screen (the benchmark day, text, the PNG file), the whole process
#   goal arch=x86_64 figure=start size=- total=… note="…"
#     glance run with device/config.json, the whole process up to the card (a path that has
#     none): the start before the first frame's drawing, held by the check (no goal of its own)
#   goal arch=x86_64 figure=start_code size=- distinct=… note="…"
#     the same run's distinct instructions (each run at least once), which the VM's first
#     frame follows more than the count (callgrind lists them; for arm64, the plugin)
#   goal arch=x86_64 figure=start_bare size=- total=… note="…"
#   goal arch=x86_64 figure=start_bare_code size=- distinct=… note="…"
#     the same two for glance run --report-startup on the built-in defaults, without the file
#     (what the VM's first-frame bench runs)
#   goal arch=x86_64 figure=watch size=480x480 per_frame=… goal=25000000 … note="…"
#     a glance watch frame (the store changed by glance log, the screen drawn, the PNG written),
#     frames 2 to 11
#   goal arch=x86_64 figure=spinner fps=30 size=480x480 per_frame=… painter_per_frame=… first_turn_per_frame=… progress_per_frame=… ratio_to_progress=… goal=0.10 ratio_to_goal=…
#   goal arch=x86_64 figure=spinner fps=60 …
#     the spinner line's figures at 480x480 (through the session), against issue 27's goal
#   goal arch=x86_64 figure=first_frame goal=300ms note="…"
#     milliseconds after exec in the VM: make bench-startup, not counted here
set -euo pipefail
cd "$(dirname "$0")/../.."
ARCH=""
GOALS_ONLY=""
CHECK=""
if [ "${1:-}" = --beside ]; then
	shift
	here=$(mktemp) there=$(mktemp)
	trap 'rm -f "$here" "$there"' EXIT
	"$0" --goals "$@" >"$here" || { cat "$here"; exit 1; }
	"$0" --arch arm64 --goals "$@" >"$there" || { cat "$there"; exit 1; }
	# The figures of one goal: figure, size and fps name it.
	awk 'function key(line,   i, kv, f, s, r) {
			f = s = r = ""
			for (i = 2; i <= split(line, part, " "); i++) {
				split(part[i], kv, "=")
				if (kv[1] == "figure") f = kv[2]; else if (kv[1] == "size") s = kv[2]; else if (kv[1] == "fps") r = kv[2]
			}
			return f "|" s "|" r
		}
		function field(line, name,   i, kv) {
			for (i = 2; i <= split(line, part, " "); i++) { split(part[i], kv, "="); if (kv[1] == name) return kv[2] }
			return ""
		}
		NR == FNR { if ($1 == "goal") there[key($0)] = $0; next }
		$1 != "goal" { print; next }
		{
			line = $0
			other = there[key($0)]
			if (other != "") {
				note = ""
				if (index(line, " note=")) { note = substr(line, index(line, " note=")); line = substr(line, 1, index(line, " note=") - 1) }
				if (field(other, "per_frame") != "") line = line " aarch64_per_frame=" field(other, "per_frame")
				if (field(other, "total") != "") line = line " aarch64_total=" field(other, "total")
				if (field(other, "distinct") != "") line = line " aarch64_distinct=" field(other, "distinct")
				if (field(other, "ratio_to_progress") != "") line = line " aarch64_ratio_to_progress=" field(other, "ratio_to_progress")
				if (field(other, "ratio_to_goal") != "") line = line " aarch64_ratio_to_goal=" field(other, "ratio_to_goal")
				line = line note
			}
			print line
		}' "$there" "$here"
	exit 0
fi
while [ $# -gt 0 ]; do
	case "$1" in
	--arch) ARCH=$2; shift 2 ;;
	--goals) GOALS_ONLY=1; shift ;;
	--check) GOALS_ONLY=1; CHECK=check; shift ;;
	--record) GOALS_ONLY=1; CHECK=record; shift ;;
	*) break ;;
	esac
done
[ "$ARCH" = "$(dpkg --print-architecture)" ] && ARCH=""
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(480x480)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
case "$ARCH" in
"")
	NAME=$(uname -m)
	BIN=.build/release/glance
	[ -x "$BIN" ] || [ -n "$CHECK" ] || swift build -c release >/dev/null
	# --check and --record count the package's own build (tools/build-deb.sh's: static Swift
	# standard library), which make test has just built.
	if [ -n "$CHECK" ]; then
		BIN=.build/static/release/glance
		[ -x "$BIN" ] || { echo "instructions.sh: no $BIN: tools/build-deb.sh builds it" >&2; exit 1; }
	fi
	command -v valgrind >/dev/null || { echo "instructions.sh: valgrind is needed (tools/install-deps.sh installs it)" >&2; exit 1; }
	TARGET=1500000
	# valgrind 3.19 gives up on the DWARF 5 debug information of Swift 6's release builds
	# ("Possibly corrupted debuginfo file"): count on a copy without it (the symbols stay).
	objcopy --strip-debug "$BIN" "$tmp/glance"
	RUNNER=(valgrind --tool=callgrind --callgrind-out-file="$tmp/cg" "$tmp/glance")
	PLAIN=("$tmp/glance")
	;;
arm64)
	NAME=aarch64
	TARGET=3500000
	BIN=.build/arm64-release/aarch64-unknown-linux-gnu/release/glance
	if [ ! -x "$BIN" ]; then
		mkdir -p .build/version
		tools/arm64/swift-build.sh -c release --product glance --static-swift-stdlib --scratch-path .build/arm64-release \
			-Xcc -I"$PWD/.build/version" >/dev/null 2>&1 || { echo "instructions.sh: the arm64 build failed (tools/arm64/swift-build.sh)" >&2; exit 1; }
	fi
	SYSROOT=$(tools/arm64/build-root.sh | tail -1)
	if ! command -v qemu-aarch64 >/dev/null; then
		echo "instructions.sh: installing qemu-user (Debian 12's, for its plugin support; not qemu-user-binfmt)" >&2
		DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends qemu-user >/dev/null ||
			{ echo "instructions.sh: apt-get install qemu-user failed" >&2; exit 1; }
	fi
	file -L "$(command -v qemu-aarch64)" | grep -q 'dynamically linked' ||
		{ echo "instructions.sh: $(command -v qemu-aarch64) is static: it cannot load plugins (package qemu-user, not qemu-user-static)" >&2; exit 1; }
	gcc -O2 -shared -fPIC -o "$tmp/insn.so" tools/bench/qemu-insn-count.c ||
		{ echo "instructions.sh: gcc could not build tools/bench/qemu-insn-count.c" >&2; exit 1; }
	RUNNER=(qemu-aarch64 -L "$SYSROOT" -plugin "$tmp/insn.so" -d plugin -D "$tmp/insn.log" "$BIN")
	PLAIN=(qemu-aarch64 -L "$SYSROOT" "$BIN")
	;;
*) echo "instructions.sh: --arch $ARCH: only arm64 besides this machine's own" >&2; exit 1 ;;
esac
# The count of the run that just ended (callgrind's summary on its standard error, in
# $tmp/run.log; the plugin's line in $tmp/insn.log).
counted() { # WHAT
	local n
	if [ -z "$ARCH" ]; then
		n=$(sed -n 's/.*Collected : \([0-9]*\).*/\1/p' "$tmp/run.log")
	else
		n=$(sed -n 's/^insns \([0-9]*\)$/\1/p' "$tmp/insn.log" 2>/dev/null)
	fi
	if [ -z "$n" ]; then
		echo "instructions.sh: nothing counted for: glance $1 (${RUNNER[0]})" >&2
		tail -5 "$tmp/run.log" >&2
		exit 1
	fi
	echo "$n"
}
count() { # FRAMES ARGS...
	local frames=$1
	shift
	rm -f "$tmp/insn.log"
	"${RUNNER[@]}" bench --frames "$frames" "$@" 2>"$tmp/run.log" >"$tmp/out" || true
	counted "bench --frames $frames $*"
}
per_frame() { # ARGS...
	local one eleven
	one=$(count 1 "$@")
	eleven=$(count 11 "$@")
	echo $(((eleven - one) / 10))
}
# The inclusive count of the function whose (mangled) name holds $2 in callgrind's file $1: 0
# where there is none (the qemu plugin counts the whole program only).
inclusive() { # FILE NAME
	[ -z "$ARCH" ] && [ -f "$1" ] || { echo 0; return; }
	callgrind_annotate --inclusive=yes --threshold=100 "$1" 2>/dev/null |
		awk -v n="$2" '!found && index($0, n) { gsub(",", "", $1); found = $1 } END { print found + 0 }'
}
# A spinner frame through the session at FPS and SIZE: sets spin (per frame), spin_painter (its
# FramePainter.paint part), spin_whole (drawn whole), spin_changed and spin_reads. Counted over a
# turn after the first (frames FPS+3 to FPS+12: the spinner's positions repeat each turn, and the
# frames of the first turn are kept and copied after), and spin_first over frames 3 to 12 (the
# first turn, each position drawn).
spinner() { # FPS SIZE
	local two twelve p2 p12 turn
	turn=$(awk -v f="$1" 'BEGIN { printf "%d", f }')
	two=$(count 2 --no-fill --animated --animation spinner --fps "$1" --size "$2")
	twelve=$(count 12 --no-fill --animated --animation spinner --fps "$1" --size "$2")
	spin_first=$(((twelve - two) / 10))
	two=$(count $((turn + 2)) --no-fill --animated --animation spinner --fps "$1" --size "$2")
	p2=$(inclusive "$tmp/cg" FramePainterV5paint_2at4into)
	twelve=$(count $((turn + 12)) --no-fill --animated --animation spinner --fps "$1" --size "$2")
	p12=$(inclusive "$tmp/cg" FramePainterV5paint_2at4into)
	spin=$(((twelve - two) / 10))
	spin_painter=$(((p12 - p2) / 10))
	spin_changed=$(sed -n 's/.* changed_percent=\([0-9.]*\).*/\1/p' "$tmp/out")   # over the frames after the first
	spin_reads=$(sed -n 's/.* store_reads=\([0-9]*\).*/\1/p' "$tmp/out")
	spin_whole=$((($(count 12 --no-fill --animated --animation spinner --fps "$1" --whole --size "$2") -
		$(count 2 --no-fill --animated --animation spinner --fps "$1" --whole --size "$2")) / 10))
}
# The painter's part of the spinner frame and the rest (x86-64: callgrind names functions).
parts() { [ -n "$ARCH" ] || echo " painter_per_frame=$spin_painter session_per_frame=$((spin - spin_painter))"; }
[ -n "$GOALS_ONLY" ] && sizes=()
for size in "${sizes[@]}"; do
	per=$(per_frame --rings-only --size "$size" --no-fill)
	ratio=$(awk -v a="$per" -v b="$TARGET" 'BEGIN { printf "%.2f", a / b }')
	echo "instructions arch=$NAME screen=rings rings_only=1 size=$size per_frame=$per target=$TARGET ratio_to_target=$ratio"
	for screen in rings gauge progress; do
		both=$(per_frame --screen "$screen" --size "$size" --no-fill)        # a frame with text + the same without
		bare=$(per_frame --screen "$screen" --size "$size" --no-text --no-fill)
		echo "instructions arch=$NAME screen=$screen size=$size per_frame=$((both - bare)) text_per_frame=$((both - 2 * bare))"
		if [ "$screen" = progress ]; then progress=$((both - bare)); fi
	done
	# The fill runs once per frame after the frames: what it adds is the floor.
	filled=$(per_frame --rings-only --size "$size")
	floor=$((filled - per))
	echo "instructions arch=$NAME floor=fill size=$size per_frame=$floor"
	# The rings-only frame against Blend2D's figure as issue 15 recorded it (2.9 M at 480x480,
	# x86-64) and against the floor: how many full-frame fills one ring frame costs.
	if [ "$size" = 480x480 ]; then
		echo "instructions arch=$NAME screen=rings rings_only=1 size=$size per_frame=$per blend2d=2900000" \
			"ratio_to_blend2d=$(awk -v a="$per" 'BEGIN { printf "%.2f", a / 2900000 }')" \
			"ratio_to_floor=$(awk -v a="$per" -v b="$floor" 'BEGIN { printf "%.1f", (b > 0 ? a / b : 0) }')"
	fi
	# Animation through the session: a spinner frame once both buffers hold a frame.
	for fps in 30 60; do
		spinner "$fps" "$size"
		echo "instructions arch=$NAME animated=spinner fps=$fps size=$size per_frame=$spin$(parts)" \
			"first_turn_per_frame=$spin_first whole_per_frame=$spin_whole" \
			"ratio_to_progress=$(awk -v a="$spin" -v b="$progress" 'BEGIN { printf "%.3f", a / b }') target=0.10" \
			"changed_percent=$spin_changed store_reads=$spin_reads"
	done
	# The intro: its frames after the first (the bench stops when the rings do).
	first=$(count 1 --no-fill --animated --animation intro --size "$size")
	damaged=$(($(count 55 --no-fill --animated --animation intro --size "$size") - first))
	whole=$(($(count 55 --no-fill --animated --animation intro --whole --size "$size") - first))
	ratio=$(awk -v a="$damaged" -v b="$whole" 'BEGIN { printf "%.2f", a / b }')
	line="instructions arch=$NAME animated=intro size=$size total=$damaged whole_total=$whole ratio_to_whole=$ratio"
	# Issue 15's target is half the intro's cost when it was filed (107 M at 480x480 on x86-64,
	# drawn whole before the row spans): the ratio to that recorded figure, as for Blend2D's.
	if [ "$size" = 480x480 ] && [ -z "$ARCH" ]; then
		line+=" recorded=107000000 ratio_to_recorded=$(awk -v a="$damaged" 'BEGIN { printf "%.2f", a / 107000000 }')"
	fi
	echo "$line target=0.50"
done

# Issue 27's table. Ratios: x / y to two decimals.
goals_table() {
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }'; }
# The rings-only frame warm and cold, its floor, against the goal and Blend2D.
rings_goal() { # FIGURE SIZE GOAL BLEND2D [--cold]
	local figure=$1 size=$2 goal=$3 blend=$4 per filled floor
	shift 4
	per=$(per_frame --rings-only --size "$size" --no-fill "$@")
	filled=$(per_frame --rings-only --size "$size")
	floor=$((filled - $(per_frame --rings-only --size "$size" --no-fill)))
	echo "goal arch=$NAME figure=$figure size=$size per_frame=$per goal=$goal ratio_to_goal=$(ratio "$per" "$goal")" \
		"blend2d=$blend ratio_to_blend2d=$(ratio "$per" "$blend") floor=$floor ratio_to_floor=$(ratio "$per" "$floor")"
}
rings_goal warm 480x480 1200000 3230000
rings_goal cold 480x480 2000000 3230000 --cold
rings_goal cold 1920x1080 8000000 9500000 --cold
# glance render of the ring screen, the whole process (start, fonts, the frame, the PNG file).
DAY=(--move 450/600 --exercise 15/30 --stand 12/10 --name Karan --date 2026-11-01 --today 2026-11-01 --time 10:09)
rm -f "$tmp/insn.log"
"${RUNNER[@]}" render --size 800x480 "${DAY[@]}" -o "$tmp/render.png" 2>"$tmp/run.log" >"$tmp/out" ||
	{ echo "instructions.sh: glance render failed" >&2; tail -5 "$tmp/run.log" >&2; exit 1; }
total=$(counted "render --size 800x480")
echo "goal arch=$NAME figure=render size=800x480 total=$total goal=90000000 ratio_to_goal=$(ratio "$total" 90000000)" \
	"png_bytes=$(stat -c %s "$tmp/render.png")"
# glance run's start up to opening the card (there is none to open: it ends there,
# unavailable): the loader, the command line, the configuration, the fonts. No goal of its own
# (the first frame's is in milliseconds, in the VM); kept by the 5 % check, it holds what was
# taken out of the first frame's start (docs/speed.md). On this machine's build callgrind also
# lists each instruction it counted (--dump-instr), so the same run gives the code run before
# the card: the instructions executed at least once (FIGURE_code). What the VM's first frame
# follows: qemu's TCG translates code the first time it runs, about 1.4 us an instruction here,
# and again at every start because ASLR puts the code elsewhere each time, while running an
# instruction already translated costs about 3 ns (docs/speed.md). For the arm64 build the
# plugin counts the same (the addresses of the blocks qemu translated).
start_figures() { # FIGURE NOTE OPTIONS...
	local figure=$1 note=$2 status=0 total code
	shift 2
	rm -f "$tmp/insn.log"
	local start=("${RUNNER[@]}")
	[ -n "$ARCH" ] || start=(valgrind --tool=callgrind --dump-instr=yes --compress-strings=no --compress-pos=no
		--callgrind-out-file="$tmp/cg-$figure" "$tmp/glance")
	"${start[@]}" run "$@" --card /nonexistent/card0 --no-input 2>"$tmp/run.log" >"$tmp/out" || status=$?
	grep -q "no DRM card" "$tmp/run.log" ||
		{ echo "instructions.sh: glance run $* did not stop at the card (status $status)" >&2; tail -5 "$tmp/run.log" >&2; exit 1; }
	total=$(counted "run $*")
	echo "goal arch=$NAME figure=$figure size=- total=$total note=\"$note, the whole process up to the card it cannot open\""
	# An instruction's address in its object, each counted once (a call's line in callgrind's
	# file is the call, not an instruction).
	if [ -z "$ARCH" ]; then
		code=$(awk '/^ob=/ { ob = substr($0, 4); next } /^calls=/ { skip = 1; next }
			/^0x/ { if (skip) { skip = 0; next } k = ob " " $1; if (!(k in seen)) { seen[k] = 1; n++ } }
			END { print n + 0 }' "$tmp/cg-$figure")
	else
		code=$(sed -n 's/^distinct \([0-9]*\)$/\1/p' "$tmp/insn.log")
	fi
	[ "${code:-0}" -gt 0 ] || { echo "instructions.sh: no distinct instructions counted for glance run $*" >&2; exit 1; }
	echo "goal arch=$NAME figure=${figure}_code size=- distinct=$code" \
		'note="the same run'"'"'s instructions run at least once: code the VM translates at each start"'
}
# As a device starts: the package's configuration file read (every section's settings made).
start_figures start "glance run with the package's configuration file" --config device/config.json
# As the packaged unit starts it (--report-startup) on the built-in defaults, no file: make run,
# and the VM's first-frame bench (make bench-startup), whose path this is up to the card.
# (Where the package is installed its file is read at the default path: not the defaults, said.)
if [ -e /etc/glance/config.json ]; then
	echo "instructions.sh: figure=start_bare skipped: /etc/glance/config.json is here, and glance run reads it" \
		"(the figure counts the start without a file)" >&2
else
	start_figures start_bare "glance run --report-startup on the built-in defaults (no file)" --report-startup
fi
# A glance watch frame: the store changed by glance log (run without counting), glance watch's
# picture drawn and written; frames 2 to 11 (the first waits for nothing: it is start-up).
"${PLAIN[@]}" log --db "$tmp/watch.db" --date 2026-11-01 --move 300 --move-goal 600 --exercise 10 --exercise-goal 30 \
	--stand 5 --stand-goal 12 >/dev/null
watch_count() { # CHANGES
	local dir=$tmp/watch-$1 pid line i
	mkdir "$dir"
	cp "$tmp/watch.db" "$dir/w.db"
	mkfifo "$dir/out"
	rm -f "$tmp/insn.log"
	"${RUNNER[@]}" watch --db "$dir/w.db" --date 2026-11-01 --size 480x480 --render-to "$dir/o.png" \
		>"$dir/out" 2>"$tmp/run.log" &
	pid=$!
	exec 7<"$dir/out"
	# One line per picture: the first, then one after each change.
	read -r -t 600 line <&7 || { echo "instructions.sh: glance watch drew nothing" >&2; tail -5 "$tmp/run.log" >&2; exit 1; }
	for i in $(seq 1 "$1"); do
		"${PLAIN[@]}" log --db "$dir/w.db" --date 2026-11-01 --move $((300 + i)) >/dev/null
		read -r -t 600 line <&7 || { echo "instructions.sh: glance watch stopped" >&2; tail -5 "$tmp/run.log" >&2; exit 1; }
	done
	kill -TERM "$pid"
	wait "$pid" || true
	exec 7<&-
	counted "watch (+$1 changes)"
}
one=$(watch_count 0)
per=$((($(watch_count 10) - one) / 10))
echo "goal arch=$NAME figure=watch size=480x480 per_frame=$per goal=25000000 ratio_to_goal=$(ratio "$per" 25000000)" \
	'note="through the session glance run drives; its own work per frame is the spinner line session_per_frame"'
# The spinner through the session, at 30 and 60 fps, against a full progress frame.
progress=$(($(per_frame --screen progress --size 480x480 --no-fill) - $(per_frame --screen progress --size 480x480 --no-text --no-fill)))
for fps in 30 60; do
	spinner "$fps" 480x480
	share=$(awk -v a="$spin" -v b="$progress" 'BEGIN { printf "%.3f", a / b }')
	echo "goal arch=$NAME figure=spinner fps=$fps size=480x480 per_frame=$spin$(parts) first_turn_per_frame=$spin_first progress_per_frame=$progress" \
		"ratio_to_progress=$share goal=0.10 ratio_to_goal=$(awk -v a="$share" 'BEGIN { printf "%.2f", a / 0.10 }') store_reads=$spin_reads" \
		'note="through the session glance run drives (glance bench --animated), a turn after the first"'
done
echo "goal arch=$NAME figure=first_frame goal=300ms" 'note="milliseconds after exec in the VM: make bench-startup (not an instruction count)"'
}
goals_table | tee "$tmp/goals.txt"
[ -n "$CHECK" ] || exit 0

# The figures against the recorded ones: one line each, "figure arch size fps value", the value
# the line's per_frame (or total for the whole process).
RECORDED=tools/bench/recorded.txt
figures() { # GOAL-LINES
	awk '$1 == "goal" {
		arch = figure = size = fps = value = ""
		for (i = 2; i <= NF; i++) {
			split($i, kv, "=")
			if (kv[1] == "arch") arch = kv[2]; else if (kv[1] == "figure") figure = kv[2]
			else if (kv[1] == "size") size = kv[2]; else if (kv[1] == "fps") fps = kv[2]
			else if ((kv[1] == "per_frame" || kv[1] == "total" || kv[1] == "distinct") && value == "") value = kv[2]
		}
		if (value != "") print figure, arch, size, (fps == "" ? "-" : fps), value
	}' "$1"
}
figures "$tmp/goals.txt" >"$tmp/now.txt"
if [ "$CHECK" = record ]; then
	{
		grep -v "^[^#]* $NAME " "$RECORDED" 2>/dev/null | grep -v '^#' || true
		cat "$tmp/now.txt"
	} | sort >"$tmp/all.txt"
	{
		echo "# The instruction counts tools/bench/instructions.sh --check holds each figure to (5 % worse fails"
		echo "# make test): figure, architecture, size, fps (- where none), instructions (per frame; render: the"
		echo "# whole process; start_code, start_bare_code: distinct instructions). Written by tools/bench/instructions.sh --record."
		cat "$tmp/all.txt"
	} >"$RECORDED"
	echo "instructions.sh: recorded $(wc -l <"$tmp/now.txt") figures for $NAME in $RECORDED"
	exit 0
fi
[ -f "$RECORDED" ] || { echo "instructions.sh: no $RECORDED (tools/bench/instructions.sh --record makes it)" >&2; exit 1; }
worse=0
while read -r figure arch size fps value; do
	recorded=$(awk -v f="$figure" -v a="$arch" -v s="$size" -v p="$fps" '$1 == f && $2 == a && $3 == s && $4 == p { print $5 }' "$RECORDED")
	if [ -z "$recorded" ]; then
		echo "check figure=$figure arch=$arch size=$size fps=$fps now=$value recorded=none (tools/bench/instructions.sh --record)"
		worse=1
		continue
	fi
	r=$(awk -v a="$value" -v b="$recorded" 'BEGIN { printf "%.3f", a / b }')
	verdict=$(awk -v r="$r" 'BEGIN { print (r > 1.05 ? "worse" : "kept") }')
	echo "check figure=$figure arch=$arch size=$size fps=$fps now=$value recorded=$recorded ratio_to_recorded=$r $verdict"
	[ "$verdict" = kept ] || worse=1
done <"$tmp/now.txt"
if [ "$worse" != 0 ]; then
	echo "instructions.sh: a figure is more than 5 % worse than recorded (or not recorded): find what made it so;" \
		"tools/bench/instructions.sh --record only when the change is wanted, and say why in the commit" >&2
	exit 1
fi
echo "instructions.sh: every figure within 5 % of the one recorded"
