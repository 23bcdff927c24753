#!/usr/bin/env bash
# soak.sh -- `make soak`: glance run in the VM for a while under everything at once, and whether
# it held: resident memory, open descriptors and CPU at the start and the end, and the last
# frame against glance render of the final state.
#
#   tools/vm/soak.sh [--minutes N] [--seed N] [--gpu virtio|std] [--res WxH] [GLANCE_BINARY]
#
# Defaults: 10 minutes, a random seed (printed; give it again to repeat the same input), virtio
# 480x480, .build/release/glance. For the whole run, at once:
#   - random keys (arrows, Home, Page Up/Down, Enter, Space, Tab, Esc) and touches (taps, swipes)
#     from the host over QMP, one every 0.1 to 0.6 s;
#   - a second process (tools/vm/e2e/soak-writer.c) committing to the store every 100 ms: a
#     gauge's metric, today's figures every second, a task every 30 s (Cancel is honoured);
#   - a gauge read from a file the guest rewrites every second;
#   - two switches to tty2 and back a minute (chvt).
# The start figures are taken after a warm-up (a fifth of the run, at most a minute) under load,
# the end figures as the load stops. Then the guest sets today's figures once more and the host
# presses Home: the monitor must equal glance render of that store, pixel for pixel.
#
# Passes when resident memory grew by at most 2 MB, the descriptors are as many, the frame
# matches and glance run exits 0 on SIGTERM; prints the figures either way. Exit status 0 passed,
# 1 failed, 2 could not run. Results stay in $TMPDIR/glance-soak.
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
MINUTES=10
SEED=$(( $(date +%s) % 100000 ))
GPU=virtio
RES=480x480
BINARY=$ROOT/.build/release/glance
while [ $# -gt 0 ]; do
	case "$1" in
	--minutes) MINUTES=$2; shift 2 ;;
	--seed) SEED=$2; shift 2 ;;
	--gpu) GPU=$2; shift 2 ;;
	--res) RES=$2; shift 2 ;;
	-h | --help) sed -n '2,24p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) BINARY=$1; shift ;;
	esac
done
[ -x "$BINARY" ] || { echo "soak: no $BINARY: build it first (make release)" >&2; exit 2; }
OUT=${TMPDIR:-/tmp}/glance-soak
rm -rf "$OUT"
mkdir -p "$OUT"
TODAY=2026-11-29
COMMON="--today $TODAY --locale en --name Soak"
SECONDS_TOTAL=$(python3 -c "print(int(float('$MINUTES') * 60))")
WARMUP=$(( SECONDS_TOTAL / 5 < 60 ? SECONDS_TOTAL / 5 : 60 ))
TOLERANCE_KB=2048

# The writer, the store (a week of days, the gauge's metric) and the configuration.
gcc -O2 -o "$OUT/soak-writer" "$HERE/e2e/soak-writer.c" -lsqlite3
STORE=$OUT/glance.db
day=0
for figures in "610 40 12" "420 25 9" "180 5 4" "505 31 12" "0 0 1" "333 12 8" "250 10 6"; do
	set -- $figures
	date=$(date -d "$TODAY - $((6 - day)) days" +%F)
	"$BINARY" log --db "$STORE" --date "$date" --move "$1" --move-goal 500 --exercise "$2" --exercise-goal 30 \
		--stand "$3" --stand-goal 12 >/dev/null
	day=$((day + 1))
done
"$BINARY" metric set soak 50 --min 0 --max 100 --unit % --db "$STORE" >/dev/null
cat >"$OUT/config.json" <<JSON
{"screens": ["rings", "gauges", "progress"],
 "gauges": [{"style": "circular", "title": "Soak", "unit": "%", "min": 0, "max": 100, "source": {"metric": "soak"}},
            {"style": "linear", "title": "File", "min": 0, "max": 100, "source": {"file": "/tmp/soak/gauge", "interval": 1}}],
 "idle": {"dimAfter": null, "blankAfter": null}}
JSON

# The final state, made the same way on both sides, and its picture.
FINAL="--date $TODAY --move 321 --move-goal 500 --move-time - --move-time-goal - --exercise 17 --exercise-goal 30 --stand 7 --stand-goal 12 --move-mode activeEnergy"
cp "$STORE" "$OUT/final.db"
"$BINARY" log --db "$OUT/final.db" $FINAL >/dev/null
"$BINARY" render --size "$RES" --db "$OUT/final.db" $COMMON --output "$OUT/expected.png" >/dev/null
python3 - "$OUT/expected.png" "$OUT/expected.ppm" <<'PY'
import struct, sys, zlib
data = open(sys.argv[1], "rb").read()
assert data[:8] == b"\x89PNG\r\n\x1a\n"
pos, idat, w = 8, b"", 0
while pos < len(data):
    n, kind = struct.unpack(">I4s", data[pos:pos + 8])
    body = data[pos + 8:pos + 8 + n]
    if kind == b"IHDR":
        w, h, depth, color = struct.unpack(">IIBB", body[:10])
        assert depth == 8 and color == 2, "8-bit RGB expected"
    elif kind == b"IDAT":
        idat += body
    pos += 12 + n
raw, stride, rows, prev = zlib.decompress(idat), w * 3, [], bytearray(w * 3)
for y in range(h):
    f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
    for i in range(stride):
        a = line[i - 3] if i >= 3 else 0
        b = prev[i]
        c = prev[i - 3] if i >= 3 else 0
        if f == 1: line[i] = (line[i] + a) & 255
        elif f == 2: line[i] = (line[i] + b) & 255
        elif f == 3: line[i] = (line[i] + (a + b) // 2) & 255
        elif f == 4:
            p = a + b - c
            pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
    rows.append(bytes(line))
    prev = line
open(sys.argv[2], "wb").write(b"P6\n%d %d\n255\n" % (w, h) + b"".join(rows))
PY

# The guest: the app, the writer, the gauge file, the console switches; the figures.
cat >"$OUT/steps.sh" <<STEPS
. /app/guest-lib.sh
cp /app/glance.db /tmp/glance.db
mkdir -p /tmp/soak
echo 50 >/tmp/soak/gauge
printf '\033[2J\033[H\n  SECOND CONSOLE (tty2)\n' >/dev/tty2
\$G run --db /tmp/glance.db --config /app/config.json $COMMON >/tmp/run.log 2>&1 &
pid=\$!
wait_log /tmp/run.log "first frame on screen" || { cat /tmp/run.log; step "soak failed to start"; exit 1; }
/app/soak-writer /tmp/glance.db $TODAY $SEED >/tmp/writer.log 2>&1 &
writer=\$!
( i=0; while :; do echo \$(( (i * 37) % 101 )) >/tmp/soak/gauge.new; mv /tmp/soak/gauge.new /tmp/soak/gauge; i=\$((i + 1)); sleep 1; done ) &
gauge=\$!
( while :; do sleep 27; chvt 2; sleep 3; chvt 1; echo "SOAK vt-switch"; done ) &
switches=\$!
step "soak ready"
sleep $WARMUP
figures() {
	echo "SOAK \$1 rss_kb=\$(awk '/^VmRSS:/ { print \$2 }' /proc/\$pid/status) fds=\$(ls /proc/\$pid/fd | wc -l) cpu_ms=\$(cpu_ms \$pid) uptime=\$(cut -d' ' -f1 /proc/uptime)"
}
figures start
read -r _ <&3
figures end
kill \$switches \$gauge 2>/dev/null
kill -TERM \$writer; wait \$writer
cat /tmp/writer.log
chvt 1
sleep 2
\$G log --db /tmp/glance.db $FINAL >/dev/null
sleep 1
step "soak final"
read -r _ <&3
kill -TERM \$pid; wait \$pid; rc=\$?
echo "SOAK display-retakes=\$(grep -c 'display taken again' /tmp/run.log)"
tail -5 /tmp/run.log | sed 's/^/[run] /'
step "soak exited rc=\$rc"
STEPS

# The host: random input for the whole run, then the final look.
python3 - "$SEED" "$SECONDS_TOTAL" "$RES" "$OUT/expected" >"$OUT/host.qmp" <<'PY'
import random, sys
seed, total, res, expected = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], sys.argv[4]
w, h = map(int, res.split("x"))
rng = random.Random(seed)
keys = ["left", "right", "up", "down", "home", "pgup", "pgdn", "ret", "spc", "tab", "esc"]
print("wait-console STEP soak ready 120")
t, counts = 0.0, {"key": 0, "touch": 0, "drag": 0}
while t < total:
    r = rng.random()
    # What each action takes on the host (qemu releases a key by itself; a touch is held, a swipe
    # moves in 6 steps 30 ms apart), so the input lasts about the run's length.
    if r < 0.6:
        print("key %s %d" % (rng.choice(keys), rng.randint(40, 120)))
        counts["key"] += 1
        t += 0.01
    elif r < 0.85:
        hold = rng.randint(30, 150)
        print("touch %d %d %d" % (rng.randrange(w), rng.randrange(h), hold))
        counts["touch"] += 1
        t += hold / 1000 + 0.02
    else:
        x1, y1, x2, y2 = (rng.randrange(w), rng.randrange(h), rng.randrange(w), rng.randrange(h))
        print("drag %d %d %d %d 6" % (x1, y1, x2, y2))
        counts["drag"] += 1
        t += 0.22
    pause = rng.randint(100, 600)
    print("sleep %d" % pause)
    t += pause / 1000
print("send done")
print("wait-console STEP soak final 120")
print("key home")
print("screendump-until final %s 20" % expected)
print("send stop")
print("wait-console STEP soak exited 60")
sys.stderr.write("soak: input planned: %d keys, %d touches, %d swipes (seed %d)\n" % (counts["key"], counts["touch"], counts["drag"], seed))
PY

echo "soak: $MINUTES min of glance run in the VM ($GPU $RES, seed $SEED); results in $OUT" >&2
status=0
"$HERE/run-in-vm.sh" --gpu "$GPU" --res "$RES" --binary "$BINARY" \
	--add "$HERE/e2e/guest-lib.sh:/app/guest-lib.sh" --add "$OUT/steps.sh:/app/steps.sh" \
	--add "$STORE:/app/glance.db" --add "$OUT/config.json:/app/config.json" --add "$OUT/soak-writer:/app/soak-writer" \
	--fonts "fonts-inter fonts-wqy-microhei" --cmd "sh /app/steps.sh" --qmp-script "$OUT/host.qmp" \
	--out "$OUT/vm" --timeout $((SECONDS_TOTAL + 400)) >"$OUT/harness.log" 2>&1 || status=$?

python3 - "$OUT" "$TOLERANCE_KB" "$status" <<'PY'
import json, os, re, sys
out, tolerance, harness = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
log = open(os.path.join(out, "vm", "console.log"), errors="replace").read() if os.path.exists(os.path.join(out, "vm", "console.log")) else ""
def figures(name):
    m = re.search(r"SOAK %s rss_kb=(\d+) fds=(\d+) cpu_ms=(\d+) uptime=([\d.]+)" % name, log)
    return tuple(float(x) for x in m.groups()) if m else None
start, end = figures("start"), figures("end")
writer = re.search(r"soak-writer: commits=(\d+) busy=(\d+)", log)
rc = re.search(r"STEP soak exited rc=(\d+)", log)
switches = log.count("SOAK vt-switch")
def ppm(path):
    try:
        data = open(path, "rb").read()
        header = data.split(b"\n", 3)
        return header[1], header[3]
    except OSError:
        return None
final, expected = ppm(os.path.join(out, "vm", "final.ppm")), ppm(os.path.join(out, "expected.ppm"))
failed = []
if not start or not end:
    failed.append("no figures from the guest (see %s/vm/console.log)" % out)
else:
    minutes = (end[3] - start[3]) / 60
    growth = end[0] - start[0]
    cpu = (end[2] - start[2]) / 1000
    retakes = re.search(r"SOAK display-retakes=(\d+)", log)
    print("soak: measured over %.1f min after a warm-up under load; store commits %s (busy %s); %d console switches, "
          "the display taken back %s times"
          % (minutes, writer.group(1) if writer else "?", writer.group(2) if writer else "?", switches,
             retakes.group(1) if retakes else "?"))
    print("soak: resident memory %.1f MB at the start, %.1f MB at the end (%+.2f MB; tolerance %.1f MB)"
          % (start[0] / 1024, end[0] / 1024, growth / 1024, tolerance / 1024))
    print("soak: open descriptors %d at the start, %d at the end" % (start[1], end[1]))
    print("soak: CPU %.1f s over %.1f min (%.1f %% of one emulated CPU)" % (cpu, minutes, 100 * cpu / max(1, end[3] - start[3])))
    if growth > tolerance: failed.append("resident memory grew by %.2f MB" % (growth / 1024))
    if end[1] != start[1]: failed.append("open descriptors went from %d to %d" % (start[1], end[1]))
same = final is not None and expected is not None and final == expected
print("soak: the last frame equals glance render of the final state: %s" % ("yes" if same else "no"))
if not same: failed.append("the last frame differs from glance render (%s/vm/final.png, %s/expected.png)" % (out, out))
if not rc or rc.group(1) != "0": failed.append("glance run ended with %s" % (rc.group(1) if rc else "no exit status"))
if harness not in (0,): failed.append("the VM harness exited %d (see %s/harness.log)" % (harness, out))
print("soak: " + ("passed" if not failed else "FAILED: " + "; ".join(failed)))
sys.exit(1 if failed else 0)
PY
