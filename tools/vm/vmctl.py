#!/usr/bin/env python3
"""vmctl.py -- run one qemu guest and drive it over QMP (python3 stdlib only).

Used by run-in-vm.sh; can also be used on its own:

    vmctl.py --qmp SOCK --log GUEST_LOG --out DIR
             [--script FILE] [--res WxH] [--timeout SEC] -- qemu-system-x86_64 ARGS...

It starts qemu (argv after `--`; it must contain `-qmp unix:SOCK,server=on,wait=off`),
connects to QMP, runs the action script line by line, then waits for the
guest to power off (or kills it at --timeout).  It writes into --out:
    result.json    rc, timings, failed actions, screenshots taken
    qemu.log       qemu's own stdout/stderr
    NAME.ppm/.png  screendumps (PPM straight from qemu, PNG converted here)

Exit status: the guest program's exit code (from the "RUN-IN-VM: program-exit
rc=N" line that the generated /init prints), 124 on timeout, 3 if an action in
the script failed (expect-pixel mismatch, wait-console timeout, QMP error),
125 if the guest stopped without reporting an exit code (panic, crash).

Action script: one action per line; lines starting with '#' and blank lines are
ignored (no trailing comments: a regex or JSON may contain '#').
Coordinates are screen pixels of the --res display (mapped onto qemu's
absolute pointer range 0..32767, which the guest sees unchanged as ABS_X/ABS_Y
0..32767 of the virtio-tablet / usb-tablet; there is no abs device with
--input ps2).  The VM powers off as soon as the program exits, so screendumps
must be taken while it runs.

    wait-qmp-event EVENT DEVICE TIMEOUT_S
                                     wait until qemu reports EVENT (e.g.
                                     DEVICE_DELETED) for the device id DEVICE
    unplug DEVICE TIMEOUT_S [AGAIN_S]
                                     device_del DEVICE, then wait until qemu reports
                                     DEVICE_DELETED for it, asking again every AGAIN_S
                                     (default 15) seconds: a guest under load can lose
                                     the hotplug event of a request (seen: 60 s and the
                                     slot never given up), and qemu accepts a request
                                     again once the guest had time to act on the last
    wait-console REGEX [TIMEOUT_S]   wait until REGEX appears in the guest log,
                                     searching after the previous match
                                     (default timeout 60 s; a trailing
                                     " NUMBER" is always read as the timeout,
                                     so a REGEX ending in " 1" needs one)
    sleep MS                         pause
    key KEY[+KEY...] [HOLD_MS]       press+release a key or chord via send-key
                                     (QEMU qcodes: a, ret, spc, esc, up, f1,
                                     shift+a, ctrl+c ...; default hold 100 ms;
                                     qemu spaces the events of a chord by the
                                     hold time too).
                                     NB: ctrl+alt+delete makes the guest
                                     kernel reboot at once (= VM exits).
    keydown KEY / keyup KEY          single key edge via input-send-event
    type TEXT                        send-key for each char of [a-z0-9 ] TEXT
                                     (50 ms hold, 100 ms apart)
    move X Y                         absolute pointer to pixel X,Y
    touch X Y [HOLD_MS]              move, then left button down, hold, up
    drag X1 Y1 X2 Y2 [STEPS]         press at X1,Y1, move in STEPS, release
    button down|up [left|right|middle]
    screen DEVICE|default            later screendumps capture the display device of qemu
                                     id DEVICE (a second card: -device ...,id=DEVICE), or
                                     the first one again
    screendump NAME                  OUT/NAME.ppm (+ NAME.png)
    screendump-until NAME REF [TIMEOUT_S]
                                     screendump NAME again (every 0.1 s) until it
                                     equals screendump REF (a name, or an absolute
                                     path without .ppm) or TIMEOUT_S (default 3)
                                     has passed; never fails (compare afterwards):
                                     for pictures the guest redraws asynchronously.
                                     result.json's "matches" says when it became
                                     equal (host seconds, as "t" of the screendumps)
    screendump-until-console NAME REF MIN_LIT [TIMEOUT_S]
                                     screendump NAME again (every 0.1 s) until it
                                     differs from screendump REF and at least
                                     MIN_LIT pixels are lit (console text, not a
                                     blank frame between) or TIMEOUT_S (default 10)
                                     has passed; never fails (compare afterwards)
    screendump-until-dimmed NAME REF RATIO TOLERANCE [TIMEOUT_S]
                                     screendump NAME again (every 0.1 s) until its
                                     mean brightness is RATIO of screendump REF's
                                     (a name, or an absolute path without .ppm),
                                     within TOLERANCE, or TIMEOUT_S (default 10)
                                     has passed; never fails (compare afterwards)
    screendump-until-dark NAME MAX_LIT [TIMEOUT_S]
                                     screendump NAME again (every 0.1 s) until at
                                     most MAX_LIT pixels are lit (a panel gone
                                     dark: black, or qemu's own "not active" text
                                     once the output is off) or TIMEOUT_S (default
                                     10) has passed; never fails (compare afterwards)
    host NAME TIMEOUT_S COMMAND      run COMMAND (sh -c, in --out) on the host, e.g.
                                     curl against a port qemu forwards to the guest;
                                     its output goes to OUT/NAME.out, its status and
                                     start and end times to result.json's "host";
                                     never fails (compare afterwards; 124: timed out)
    expect-pixel NAME X Y RRGGBB [TOL]   pixel of screendump NAME must match
                                     (per-channel tolerance, default 8)
    expect-size NAME WxH             screendump NAME must have that size
    qmp JSON                         raw QMP command, e.g. {"execute":"query-status"}
    hmp TEXT                         human monitor command (info qtree, ...)
    wait-exit [TIMEOUT_S]            wait for the guest program to exit
    send TEXT                        write TEXT and a newline to the guest's control
                                     serial port (ttyS2; needs --control): the guest
                                     reads it to go on, e.g. after a screendump
    quit                             stop the VM now
"""
import argparse
import json
import os
import re
import signal
import socket
import struct
import subprocess
import sys
import time
import zlib

ABS_MAX = 0x7FFF


class ActionFailed(Exception):
    pass


class Guest:
    def __init__(self, a):
        self.a = a
        self.t0 = time.monotonic()
        self.marks = {}  # marker name -> host seconds since qemu start
        self.sock = None
        self.control = None  # socket to the guest's ttyS2
        self.buf = b""
        self.log_pos = 0  # wait-console search position
        self.events = []
        self.failures = []
        self.shots = []
        self.screen = None  # the display device screendumps capture (None: the first)
        self.matches = []  # screendump-until: when each became equal to its reference
        self.host_runs = []  # host actions: status and times
        self.exit_rc = None
        self.res = None
        if a.res:
            w, h = a.res.lower().split("x")
            self.res = (int(w), int(h))

    # ---------------- time / logs ----------------
    def now(self):
        return round(time.monotonic() - self.t0, 3)

    def read_log(self):
        try:
            with open(self.a.log, "rb") as f:
                return f.read().decode("utf-8", "replace").replace("\r", "")
        except FileNotFoundError:
            return ""

    def scan_markers(self):
        """note host-side times of the RUN-IN-VM markers printed by /init"""
        text = self.read_log()
        # only whole lines: a marker read while it is being written would lose its rc=N
        for m in re.finditer(r"RUN-IN-VM: (\S+)(.*)\n", text):
            name = m.group(1)
            if name not in self.marks:
                self.marks[name] = self.now()
                if name == "program-exit":
                    r = re.search(r"rc=(\d+)", m.group(2))
                    if r:
                        self.exit_rc = int(r.group(1))
        return text

    # ---------------- QMP ----------------
    def alive(self):
        return self.proc.poll() is None

    def was_told(self, event, device):
        """qemu has reported EVENT for the device id DEVICE (among the events replies brought)."""
        return any(e["event"] == event and (e.get("data") or {}).get("device") == device for e in self.events)

    def connect(self):
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if not self.alive():
                raise RuntimeError("qemu exited before QMP came up (see qemu.log)")
            try:
                s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                s.connect(self.a.qmp)
                self.sock = s
                break
            except OSError:
                time.sleep(0.05)
        else:
            raise RuntimeError("could not connect to QMP socket " + self.a.qmp)
        self._recv()  # greeting
        self.cmd("qmp_capabilities")

    def _recv(self, timeout=30):
        deadline = time.monotonic() + timeout
        while b"\n" not in self.buf:
            self.sock.settimeout(max(0.05, deadline - time.monotonic()))
            try:
                chunk = self.sock.recv(65536)
            except socket.timeout:
                raise ActionFailed("QMP timeout")
            except OSError as e:
                raise ActionFailed("QMP connection lost (qemu exited?): %s" % e)
            if not chunk:
                raise ActionFailed("QMP connection closed (qemu gone)")
            self.buf += chunk
        line, self.buf = self.buf.split(b"\n", 1)
        return json.loads(line)

    def cmd(self, execute, args=None, timeout=30):
        msg = {"execute": execute}
        if args is not None:
            msg["arguments"] = args
        try:
            self.sock.sendall(json.dumps(msg).encode() + b"\n")
        except OSError as e:
            raise ActionFailed("QMP connection lost (qemu exited?): %s" % e)
        while True:
            r = self._recv(timeout)
            if "event" in r:
                self.events.append({"t": self.now(), "event": r["event"],
                                    "data": r.get("data")})
                continue
            if "error" in r:
                raise ActionFailed("QMP %s: %s" % (execute, r["error"]))
            return r.get("return")

    # ---------------- actions ----------------
    def abs_of(self, x, y):
        if not self.res:
            raise ActionFailed("pointer actions need --res WxH")
        w, h = self.res
        return (round(int(x) * ABS_MAX / max(1, w - 1)),
                round(int(y) * ABS_MAX / max(1, h - 1)))

    def send_events(self, evs):
        self.cmd("input-send-event", {"events": evs})

    def move(self, x, y):
        ax, ay = self.abs_of(x, y)
        self.send_events([{"type": "abs", "data": {"axis": "x", "value": ax}},
                          {"type": "abs", "data": {"axis": "y", "value": ay}}])

    def button(self, down, which="left"):
        self.send_events([{"type": "btn", "data": {"down": down, "button": which}}])

    def wait_for(self, cond, timeout, what):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if cond():
                return
            if not self.alive():
                if cond():
                    return
                raise ActionFailed("%s: guest stopped first" % what)
            time.sleep(0.02)
        raise ActionFailed("%s: timed out after %ss" % (what, timeout))

    def screendump(self, name):
        """the picture on the monitor now: OUT/NAME.ppm and .png; returns the host time at
        which qemu had written it (before the PNG's conversion)"""
        ppm = os.path.join(self.a.out, name + ".ppm")
        args = {"filename": os.path.abspath(ppm)}
        if self.screen:
            args["device"] = self.screen
        self.cmd("screendump", args)
        taken = self.now()
        w, h, px = read_ppm(ppm)
        write_png(os.path.join(self.a.out, name + ".png"), w, h, px)
        self.shots.append({"name": name, "t": taken, "size": [w, h]})
        return taken

    def screendump_until(self, op, name, ref, tmo, done, said):
        """screendump NAME again (every 0.1 s) until done(picture) or TMO seconds have passed;
        result.json's "matches" says when done became true (never fails: compare afterwards)"""
        started = self.now()
        deadline = time.monotonic() + tmo
        dumps = 0
        while True:
            taken = self.screendump(name)
            dumps += 1
            ok = done(read_ppm(os.path.join(self.a.out, name + ".ppm")))
            if ok or time.monotonic() > deadline:
                break
            time.sleep(0.1)
        self.matches.append({"name": name, "ref": ref, "equal": ok, "started": started,
                             "t": taken if ok else None, "dumps": dumps})
        print("vmctl: %s %s: %s after %d dump(s), %.3f s" % (op, name, said[ok], dumps, taken - started), flush=True)

    def run_action(self, words, raw):
        op = words[0]
        if op == "sleep":
            time.sleep(int(words[1]) / 1000.0)
        elif op == "wait-console":
            # REGEX is everything after the op, minus an optional trailing number
            rest = raw.split(None, 1)[1]
            m = re.match(r"(.*?)\s+(\d+(?:\.\d+)?)$", rest)
            pat, tmo = (m.group(1), float(m.group(2))) if m else (rest, 60.0)
            rx = re.compile(pat)
            found = {}

            def cond():
                t = self.scan_markers()
                mm = rx.search(t, self.log_pos)
                if mm:
                    found["end"] = mm.end()
                    return True
                return False
            self.wait_for(cond, tmo, "wait-console %r" % pat)
            self.log_pos = found["end"]
        elif op == "key":
            keys = [{"type": "qcode", "data": k} for k in words[1].split("+")]
            hold = int(words[2]) if len(words) > 2 else 100
            self.cmd("send-key", {"keys": keys, "hold-time": hold})
        elif op in ("keydown", "keyup"):
            self.send_events([{"type": "key", "data": {
                "down": op == "keydown",
                "key": {"type": "qcode", "data": words[1]}}}])
        elif op == "type":
            text = raw.split(None, 1)[1]
            for ch in text:
                q = "spc" if ch == " " else ch
                self.cmd("send-key", {"keys": [{"type": "qcode", "data": q}],
                                      "hold-time": 50})
                time.sleep(0.1)
        elif op == "move":
            self.move(words[1], words[2])
        elif op == "touch":
            self.move(words[1], words[2])
            self.button(True)
            time.sleep((int(words[3]) if len(words) > 3 else 100) / 1000.0)
            self.button(False)
        elif op == "drag":
            x1, y1, x2, y2 = map(int, words[1:5])
            steps = int(words[5]) if len(words) > 5 else 10
            self.move(x1, y1)
            self.button(True)
            for i in range(1, steps + 1):
                time.sleep(0.03)
                self.move(x1 + (x2 - x1) * i // steps, y1 + (y2 - y1) * i // steps)
            self.button(False)
        elif op == "button":
            self.button(words[1] == "down", words[2] if len(words) > 2 else "left")
        elif op == "screen":
            self.screen = None if words[1] == "default" else words[1]
        elif op == "screendump":
            self.screendump(words[1])
        elif op == "screendump-until":
            name, ref = words[1], words[2]
            tmo = float(words[3]) if len(words) > 3 else 3.0
            want = read_ppm(os.path.join(self.a.out, ref + ".ppm"))
            self.screendump_until(op, name, ref, tmo, lambda now: now == want, ("NOT equal", "equal"))
        elif op == "screendump-until-console":
            name, ref, least = words[1], words[2], int(words[3])
            tmo = float(words[4]) if len(words) > 4 else 10.0
            app = read_ppm(os.path.join(self.a.out, ref + ".ppm"))
            self.screendump_until(op, name, ref, tmo, lambda now: now != app and lit_pixels(now) >= least,
                                  ("NOT shown", "console shown"))
        elif op == "screendump-until-dimmed":
            name, ref, ratio, tolerance = words[1], words[2], float(words[3]), float(words[4])
            tmo = float(words[5]) if len(words) > 5 else 10.0
            base = brightness(read_ppm(os.path.join(self.a.out, ref + ".ppm"))) or 1.0
            self.screendump_until(op, name, ref, tmo, lambda now: abs(brightness(now) / base - ratio) <= tolerance,
                                  ("NOT dimmed", "dimmed"))
        elif op == "screendump-until-dark":
            name, most = words[1], int(words[2])
            tmo = float(words[3]) if len(words) > 3 else 10.0
            self.screendump_until(op, name, "dark", tmo, lambda now: lit_pixels(now) <= most, ("NOT dark", "dark"))
        elif op == "host":
            name, tmo = words[1], float(words[2])
            command = raw.split(None, 3)[3]
            started = self.now()
            with open(os.path.join(self.a.out, name + ".out"), "wb") as out:
                try:
                    rc = subprocess.run(["sh", "-c", command], cwd=self.a.out, stdin=subprocess.DEVNULL,
                                        stdout=out, stderr=subprocess.STDOUT, timeout=tmo).returncode
                except subprocess.TimeoutExpired:
                    rc = 124
            ended = self.now()
            self.host_runs.append({"name": name, "rc": rc, "start": started, "end": ended})
            print("vmctl: host %s: rc=%d in %.3f s" % (name, rc, ended - started), flush=True)
        elif op == "expect-pixel":
            name, x, y, want = words[1], int(words[2]), int(words[3]), words[4]
            tol = int(words[5]) if len(words) > 5 else 8
            w, h, px = read_ppm(os.path.join(self.a.out, name + ".ppm"))
            if not (0 <= x < w and 0 <= y < h):
                raise ActionFailed("expect-pixel %s: %d,%d outside %dx%d" % (name, x, y, w, h))
            i = (y * w + x) * 3
            got = px[i:i + 3]
            exp = bytes.fromhex(want)
            if any(abs(g - e) > tol for g, e in zip(got, exp)):
                raise ActionFailed("expect-pixel %s %d,%d: got %s want %s" %
                                   (name, x, y, got.hex(), want.lower()))
        elif op == "expect-size":
            w, h, _ = read_ppm(os.path.join(self.a.out, words[1] + ".ppm"))
            if "%dx%d" % (w, h) != words[2]:
                raise ActionFailed("expect-size %s: got %dx%d want %s" % (words[1], w, h, words[2]))
        elif op == "qmp":
            msg = json.loads(raw.split(None, 1)[1])
            r = self.cmd(msg["execute"], msg.get("arguments"))
            print("vmctl: qmp %s -> %s" % (msg["execute"], json.dumps(r)[:2000]))
        elif op == "wait-qmp-event":
            # wait-qmp-event EVENT DEVICE TIMEOUT_S: until qemu told EVENT for DEVICE (qemu's
            # events arrive with command replies: a cheap query asks for them meanwhile)
            event, device, tmo = words[1], words[2], float(words[3])

            def told():
                time.sleep(0.1)
                self.cmd("query-status")
                return self.was_told(event, device)
            self.wait_for(told, tmo, "wait-qmp-event %s %s" % (event, device))
        elif op == "unplug":
            device, tmo = words[1], float(words[2])
            again = float(words[3]) if len(words) > 3 else 15.0
            deadline = time.monotonic() + tmo
            requests = 0

            def gone():
                return self.was_told("DEVICE_DELETED", device)
            while not gone():
                if time.monotonic() >= deadline:
                    raise ActionFailed("unplug %s: no DEVICE_DELETED after %d request(s) in %ss" % (device, requests, tmo))
                try:
                    self.cmd("device_del", {"id": device})
                    requests += 1
                    print("vmctl: [%7.3fs] unplug %s: request %d" % (self.now(), device, requests), flush=True)
                except ActionFailed as e:
                    # the last request still pending in qemu's eyes, or the device gone meanwhile
                    # (its event then arrives with the next reply)
                    print("vmctl: unplug %s: %s" % (device, e), flush=True)
                asked = time.monotonic()
                while not gone() and time.monotonic() - asked < again and time.monotonic() < deadline:
                    if not self.alive():
                        raise ActionFailed("unplug %s: guest stopped first" % device)
                    time.sleep(0.1)
                    self.cmd("query-status")
        elif op == "hmp":
            r = self.cmd("human-monitor-command", {"command-line": raw.split(None, 1)[1]})
            print("vmctl: hmp -> %s" % r)
        elif op == "wait-exit":
            tmo = float(words[1]) if len(words) > 1 else 60
            self.wait_for(lambda: (self.scan_markers() or True) and
                          ("program-exit" in self.marks or not self.alive()),
                          tmo, "wait-exit")
        elif op == "send":
            if not self.a.control:
                raise ActionFailed("send needs --control SOCK")
            if self.control is None:
                c = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                c.connect(self.a.control)
                self.control = c
            text = raw.split(None, 1)[1] if len(words) > 1 else ""
            self.control.sendall(text.encode() + b"\n")
        elif op == "quit":
            self.cmd("quit")
        else:
            raise ActionFailed("unknown action %r" % op)

    # ---------------- main ----------------
    def run(self):
        a = self.a
        os.makedirs(a.out, exist_ok=True)
        for p in (a.qmp,):
            if os.path.exists(p):
                os.unlink(p)
        with open(os.path.join(a.out, "qemu.log"), "wb") as qlog:
            self.proc = subprocess.Popen(a.qemu, stdout=qlog, stderr=subprocess.STDOUT,
                                         stdin=subprocess.DEVNULL)
        # Whatever ends this run early (SIGTERM, Ctrl-C, an unexpected exception), qemu does
        # not outlive it.
        try:
            return self.supervise()
        finally:
            self.stop_qemu()

    def stop_qemu(self):
        if self.proc.poll() is not None:
            return
        # a second signal must not cut the cleanup short: it ends within 5 s anyway
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        print("vmctl: stopping qemu (pid %d)" % self.proc.pid, flush=True)
        self.proc.terminate()
        try:
            self.proc.wait(5)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()

    def supervise(self):
        a = self.a
        deadline = self.t0 + a.timeout
        timed_out = False
        script_ok = True
        try:
            self.connect()
            lines = []
            if a.script:
                with open(a.script) as f:
                    lines = f.read().splitlines()
            for n, line in enumerate(lines, 1):
                raw = line.strip()
                if not raw or raw.startswith("#"):  # only whole-line comments
                    continue
                if time.monotonic() > deadline:
                    timed_out = True
                    raise ActionFailed("hard timeout during script")
                t = self.now()
                try:
                    self.run_action(raw.split(), raw)
                    print("vmctl: [%7.3fs] ok   %s" % (t, raw), flush=True)
                except (ActionFailed, ValueError, IndexError, OSError) as e:
                    print("vmctl: [%7.3fs] FAIL %s -- %s" % (t, raw, e), flush=True)
                    self.failures.append({"line": n, "action": raw, "error": str(e)})
                    script_ok = False
                    break
        except (ActionFailed, RuntimeError) as e:
            print("vmctl: %s" % e, flush=True)
            self.failures.append({"error": str(e)})
            script_ok = False

        # a failed action makes the rest of the run pointless: stop the VM now
        if not script_ok and self.alive():
            print("vmctl: stopping the VM after the failed action", flush=True)
            try:
                self.cmd("quit", timeout=5)
            except Exception:
                pass
        # else wait for the guest to power off by itself
        while self.alive() and time.monotonic() < deadline:
            self.scan_markers()
            time.sleep(0.05)
        if self.alive():
            timed_out = True
            print("vmctl: hard timeout (%ss), stopping qemu" % a.timeout, flush=True)
            try:
                self.cmd("quit", timeout=5)
            except Exception:
                pass
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
        self.proc.wait()
        self.marks["qemu-exit"] = self.now()
        self.scan_markers()

        if timed_out:
            rc = 124
        elif not script_ok:
            rc = 3
        elif self.exit_rc is not None:
            rc = self.exit_rc
        else:
            rc = 125
        m = self.marks
        result = {
            "rc": rc,
            "program_rc": self.exit_rc,
            "timed_out": timed_out,
            "script_ok": script_ok,
            "failures": self.failures,
            "host_times_s": m,
            "boot_to_program_start_s": m.get("program-start"),
            "program_runtime_s": (round(m["program-exit"] - m["program-start"], 3)
                                  if "program-exit" in m and "program-start" in m else None),
            "total_s": m["qemu-exit"],
            "qemu_rc": self.proc.returncode,
            "screendumps": self.shots,
            "matches": self.matches,
            "host": self.host_runs,
            "qmp_events": self.events,
        }
        with open(os.path.join(a.out, "result.json"), "w") as f:
            json.dump(result, f, indent=2)
        return rc


# ---------------- image helpers (PPM in, PNG out) ----------------
def lit_pixels(picture):
    """the pixels of a read_ppm picture that are not black"""
    rgb = picture[2]
    return sum(1 for i in range(0, len(rgb), 3) if rgb[i] or rgb[i + 1] or rgb[i + 2])


def brightness(picture):
    """the mean of R+G+B over the pixels of a read_ppm picture"""
    w, h, rgb = picture
    return sum(rgb) / float(max(1, w * h))


def read_ppm(path):
    with open(path, "rb") as f:
        data = f.read()
    # P6\n<w> <h>\n<max>\n<binary>
    parts = re.match(rb"P6\s+(\d+)\s+(\d+)\s+(\d+)\s", data)
    if not parts:
        raise ActionFailed("not a P6 PPM: " + path)
    w, h = int(parts.group(1)), int(parts.group(2))
    return w, h, data[parts.end():parts.end() + w * h * 3]


def write_png(path, w, h, rgb):
    def chunk(tag, body):
        return (struct.pack(">I", len(body)) + tag + body +
                struct.pack(">I", zlib.crc32(tag + body) & 0xFFFFFFFF))
    raw = b"".join(b"\x00" + rgb[y * w * 3:(y + 1) * w * 3] for y in range(h))
    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" +
                chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0)) +
                chunk(b"IDAT", zlib.compress(raw, 6)) + chunk(b"IEND", b""))


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--qmp", required=True, help="QMP unix socket path qemu listens on")
    ap.add_argument("--log", required=True, help="guest program log (serial file)")
    ap.add_argument("--out", required=True)
    ap.add_argument("--script")
    ap.add_argument("--res", help="WxH of the display, for pointer coordinates")
    ap.add_argument("--timeout", type=float, default=120)
    ap.add_argument("--control", help="unix socket of the guest's control serial port (ttyS2)")
    ap.add_argument("qemu", nargs=argparse.REMAINDER)
    a = ap.parse_args()
    if a.qemu and a.qemu[0] == "--":
        a.qemu = a.qemu[1:]
    if not a.qemu:
        ap.error("missing qemu command after --")
    # SIGTERM raises SystemExit(143), so that run()'s finally stops qemu on the way out
    def on_term(*_):
        raise SystemExit(143)
    signal.signal(signal.SIGTERM, on_term)
    sys.exit(Guest(a).run())


if __name__ == "__main__":
    main()
