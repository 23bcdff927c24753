#!/usr/bin/env python3
"""Hostile soak: glance serve and a panel (glance watch on the gauge screen) under a stream of
hostile requests, with good clients beside them (issue 24, "Done when").

    tools/bench/hostile.py [--glance PATH] [--requests 10000] [--latency 1] [--scratch DIR] [--keep]

A real Mosquitto broker and the real programs on loopback. The hostile mix, from other loopback
addresses than the good client's (127.0.0.2 to 127.0.0.9): wrong tokens (in the header, in any
case of the scheme, in the query), paths that try to forge log lines or reach the terminal
(%0A, %1B, raw bytes, the token in the path), unknown endpoints and methods, slow clients that
send a header line now and then, huge bodies (declared and sent, unauthenticated and with the
token: [0,0,…], NUL in texts, a 3,000,000-character description, years out of range), and junk
MQTT payloads on the gauges' topics (distinct text, numbers that overflow after the scale, a
1 MB message). The good client, every quarter of a second: a metric PUT with its own value,
health, a GET of the metrics.

It prints figures and checks, and exits 1 when one fails:
- memory: serve's and the panel's resident memory after the first tenth of the run and at its
  end (flat: grown by less than 8 MB), and their peaks;
- every good request answered 200 within a second (--latency; the slowest is printed);
- nothing logged that a client chose unescaped: no control character, no forged line, no token,
  no query value; refusals logged only so far (at most 100 lines);
- the store holds what the good requests wrote and nothing else.
"""
import argparse
import http.client
import json
import os
import random
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
TOKEN = "hostile-soak-token-0123456789abcdef"
MARK = "ZQXJ"  # in every hostile text: must never reach a log unescaped


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def status(pid, field):
    try:
        for line in open("/proc/%d/status" % pid):
            if line.startswith(field + ":"):
                return int(line.split()[1])
    except OSError:
        pass
    return -1


def wait_for(condition, seconds):
    end = time.time() + seconds
    while time.time() < end:
        if condition():
            return True
        time.sleep(0.05)
    return condition()


class Counter:
    def __init__(self):
        self.lock = threading.Lock()
        self.counts = {}

    def add(self, key, n=1):
        with self.lock:
            self.counts[key] = self.counts.get(key, 0) + n


def request(port, method, path, body=None, headers=None, source="127.0.0.2", timeout=30):
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout, source_address=(source, 0))
    try:
        c.putrequest(method, path, skip_accept_encoding=True)
        for k, v in (headers or {}).items():
            c.putheader(k, v)
        if body is not None:
            c.putheader("Content-Length", str(len(body)))
        c.endheaders(body)
        r = c.getresponse()
        r.read()
        return r.status
    finally:
        c.close()


def hostile_requests(port, n, counter, stop):
    sources = ["127.0.0.%d" % i for i in range(2, 10)]
    paths = [
        "/v1/metrics?token=" + TOKEN + "&q=" + MARK,
        "/v1/%0Aglance:%20PUT%20/v1/metrics/door%20200%20from%20192.168.1.20:%20" + MARK,
        "/v1/%1B[31m" + MARK + "%1B[0m",
        "/v1/tasks/" + TOKEN,
        "/v1/metrics/" + MARK + "%00x",
        "/v1/nothing/" + MARK,
        "/" + MARK,
        "/v1/days?from=" + MARK,
    ]
    schemes = ["Bearer wrong-" + MARK, "bearer " + TOKEN[:-1] + "X", "Basic " + MARK, "BEARER", "Bearer  " + MARK * 10]
    for i in range(n):
        if stop.is_set():
            break
        source = random.choice(sources)
        kind = i % 4
        try:
            if kind == 0:
                s = request(port, "GET", random.choice(paths), source=source)
            elif kind == 1:
                s = request(port, "PUT", "/v1/metrics/m-" + MARK, b'{"value": 1}',
                            {"Authorization": random.choice(schemes)}, source=source)
            elif kind == 2:
                s = request(port, random.choice(["DELETE", "OPTIONS", "TRACE", "PATCH"]), random.choice(paths),
                            source=source)
            else:
                # Raw bytes in the request line, which no library would send.
                sock = socket.create_connection(("127.0.0.1", port), timeout=10, source_address=(source, 0))
                sock.sendall(b"GET /v1/\x1b]0;" + MARK.encode() + b"\x07\x85\xff HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                data = sock.recv(100)
                sock.close()
                s = int(data.split(b" ")[1]) if data.startswith(b"HTTP/") else "closed"
            counter.add(str(s))
        except Exception as e:
            counter.add(type(e).__name__)


def huge_bodies(port, n, counter, stop):
    days = b'{"days": [' + b",".join([b"0"] * (4 * 1024 * 1024 - 8)) + b"]}"
    nul = ('{"name": "t-%s", "description": "Backing up\\u0000 photos"}' % MARK).encode()
    desc = b'{"name": "d", "description": "' + b"W" * 3_000_000 + b'"}'
    year = ('{"data": {"metrics": [{"name": "active_energy", "units": "kcal", "data": '
            '[{"qty": 5, "date": "9999-12-31 23:59:59 -1400"}]}]}}').encode()
    cases = [
        ("POST", "/v1/days", days, {"Authorization": "Bearer wrong-" + MARK}),  # refused at its headers
        ("POST", "/v1/days", days, {"Authorization": "Bearer " + TOKEN}),
        ("POST", "/v1/tasks", nul, {"Authorization": "Bearer " + TOKEN}),
        ("POST", "/v1/tasks", desc, {"Authorization": "Bearer " + TOKEN}),
        ("POST", "/v1/health-auto-export", year, {"Authorization": "Bearer " + TOKEN}),
    ]
    for i in range(n):
        if stop.is_set():
            break
        method, path, body, headers = cases[i % len(cases)]
        try:
            s = request(port, method, path, body, headers, source="127.0.0.%d" % (2 + i % 8), timeout=120)
        except Exception as e:
            s = type(e).__name__
        counter.add(str(s))


def slow_clients(port, n, counter, stop, trickle=1.5):
    """n connections that each send a header line every `trickle` seconds, 100 at a time."""
    done = 0
    while done < n and not stop.is_set():
        batch = []
        for i in range(min(100, n - done)):
            try:
                s = socket.create_connection(("127.0.0.1", port), timeout=5,
                                             source_address=("127.0.0.%d" % (2 + i % 8), 0))
                s.sendall(("PUT /v1/metrics/" + MARK + " HTTP/1.1\r\nHost: x\r\n").encode())
                batch.append(s)
            except Exception as e:
                counter.add(type(e).__name__)
        end = time.time() + 40
        alive = list(batch)
        while alive and time.time() < end and not stop.is_set():
            time.sleep(trickle)
            for s in list(alive):
                try:
                    s.sendall(("X-" + MARK + ": 1\r\n").encode())
                except Exception:
                    alive.remove(s)
                    counter.add("cut")
        for s in alive:
            counter.add("never cut")
        for s in batch:
            s.close()
        done += len(batch)


def junk_mqtt(port, n, counter, folder):
    lines = []
    for i in range(n):
        kind = i % 3
        if kind == 0:
            lines.append("junk-%s-%d-\x1b[2J" % (MARK, i))
        elif kind == 1:
            lines.append("1e308")  # times the scale of 10: infinite
        else:
            lines.append('{"v": "%s-%d"}' % (MARK, i))
    path = os.path.join(folder, "junk.txt")
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")
    big = os.path.join(folder, "big.bin")
    with open(big, "wb") as f:
        f.write(b"7" * (1 << 20))
    for topic in ["home/t", "home/scaled"]:
        with open(path) as stdin:
            rc = subprocess.run(["mosquitto_pub", "-h", "127.0.0.1", "-p", str(port), "-t", topic, "-l"],
                                stdin=stdin).returncode
        counter.add("published" if rc == 0 else "publish failed", len(lines))
    rc = subprocess.run(["mosquitto_pub", "-h", "127.0.0.1", "-p", str(port), "-t", "home/t", "-f", big]).returncode
    counter.add("1 MB published" if rc == 0 else "publish failed")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--glance", default=os.path.join(ROOT, ".build/release/glance"))
    ap.add_argument("--requests", type=int, default=10000)
    ap.add_argument("--latency", type=float, default=1.0, help="seconds a good request may take (default 1)")
    ap.add_argument("--scratch")
    ap.add_argument("--keep", action="store_true")
    a = ap.parse_args()
    if not os.access(a.glance, os.X_OK):
        sys.exit("hostile: no %s (swift build -c release, or give --glance)" % a.glance)
    if not shutil.which("mosquitto") and not os.access("/usr/sbin/mosquitto", os.X_OK):
        sys.exit("hostile: mosquitto is not installed (tools/install-deps.sh)")
    folder = a.scratch or tempfile.mkdtemp(prefix="glance-hostile-")
    os.makedirs(folder, exist_ok=True)
    procs = []
    failures = []
    try:
        mqtt_port, http_port = free_port(), free_port()
        with open(os.path.join(folder, "mosquitto.conf"), "w") as f:
            f.write("listener %d 127.0.0.1\nallow_anonymous true\npersistence false\n" % mqtt_port)
        broker = subprocess.Popen(["/usr/sbin/mosquitto", "-c", os.path.join(folder, "mosquitto.conf")],
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        procs.append(broker)
        token = os.path.join(folder, "token")
        with open(token, "w") as f:
            f.write(TOKEN + "\n")
        os.chmod(token, 0o640)
        db = os.path.join(folder, "glance.db")
        config = os.path.join(folder, "config.json")
        with open(config, "w") as f:
            f.write(json.dumps({
                "screens": ["gauges"],
                "gauges": [
                    {"style": "accessoryCircular", "title": "Outside", "source": {"mqtt": "home/t"}},
                    {"style": "accessoryCircular", "title": "Scaled", "source": {"mqtt": "home/scaled", "scale": 10}},
                    {"style": "accessoryCircular", "title": "Good", "source": {"metric": "good"}},
                ],
                "mqtt": {"broker": "mqtt://127.0.0.1:%d" % mqtt_port, "keepAlive": 60},
                "serve": {"listen": "127.0.0.1:%d" % http_port, "tokenFile": token, "perSecond": 0, "timeout": 2},
            }))
        serve_log = open(os.path.join(folder, "serve.log"), "w")
        serve = subprocess.Popen([a.glance, "serve", "--config", config, "--db", db], stdout=serve_log, stderr=serve_log)
        procs.append(serve)
        if not wait_for(lambda: "listening on" in open(os.path.join(folder, "serve.log")).read(), 30):
            sys.exit("hostile: glance serve did not start: " + open(os.path.join(folder, "serve.log")).read())
        watch_log = open(os.path.join(folder, "watch.log"), "w")
        watch = subprocess.Popen([a.glance, "watch", "--config", config, "--db", db, "--screen", "gauges", "--size", "240x240",
                                  "--render-to", os.path.join(folder, "panel.png")], stdout=watch_log, stderr=watch_log)
        procs.append(watch)
        subprocess.run(["mosquitto_pub", "-h", "127.0.0.1", "-p", str(mqtt_port), "-t", "home/t", "-m", "5", "-r"])
        wait_for(lambda: os.path.exists(os.path.join(folder, "panel.png")), 30)

        # The mix: 10,000 in all (HTTP requests, slow connections, huge bodies, MQTT messages).
        n = a.requests
        slow_n, huge_n = n // 20, n // 100
        mqtt_n = n // 4
        http_n = n - slow_n - huge_n - 2 * mqtt_n
        counters = {k: Counter() for k in ["http", "huge", "slow", "mqtt"]}
        stop = threading.Event()
        good, good_lock = [], threading.Lock()
        written = {}

        def good_client():
            i = 0
            while not stop.is_set():
                i += 1
                for method, path, body in [("PUT", "/v1/metrics/good", ('{"value": %d}' % i).encode()),
                                           ("GET", "/v1/health", None), ("GET", "/v1/metrics", None)]:
                    start = time.time()
                    try:
                        s = request(http_port, method, path, body, {"Authorization": "Bearer " + TOKEN},
                                    source="127.0.0.1", timeout=30)
                    except Exception as e:
                        s = type(e).__name__
                    with good_lock:
                        good.append((s, time.time() - start))
                        if s == 200 and method == "PUT":
                            written["good"] = i
                time.sleep(0.25)

        # A warm-up of each hostile kind, so the memory taken at a tenth of the run is the memory
        # of a server that has met them all (a freed 8 MiB body stays in the allocator's arenas).
        warm = Counter()
        huge_bodies(http_port, 5, warm, stop)
        hostile_requests(http_port, 40, warm, stop)
        started = time.time()
        threads = [threading.Thread(target=good_client)]
        workers = 4
        for w in range(workers):
            threads.append(threading.Thread(target=hostile_requests, args=(http_port, http_n // workers, counters["http"], stop)))
        threads.append(threading.Thread(target=huge_bodies, args=(http_port, huge_n, counters["huge"], stop)))
        threads.append(threading.Thread(target=slow_clients, args=(http_port, slow_n, counters["slow"], stop)))
        threads.append(threading.Thread(target=junk_mqtt, args=(mqtt_port, mqtt_n, counters["mqtt"], folder)))
        for t in threads:
            t.start()
        # Memory once the run is under way (the first tenth of the hostile requests), then at its end.
        wait_for(lambda: sum(counters["http"].counts.values()) >= http_n // 10, 600)
        early = {name: (status(p.pid, "VmRSS"), status(p.pid, "VmHWM")) for name, p in [("serve", serve), ("watch", watch)]}
        for t in threads[1:]:
            t.join()
        seconds = time.time() - started
        time.sleep(1)
        late = {name: (status(p.pid, "VmRSS"), status(p.pid, "VmHWM")) for name, p in [("serve", serve), ("watch", watch)]}
        stop.set()
        threads[0].join()
        for p in [serve, watch]:
            p.terminate()
        codes = {name: p.wait(30) for name, p in [("serve", serve), ("watch", watch)]}

        # Figures.
        print("hostile: %d hostile requests in %.0f s: %d HTTP, %d huge bodies, %d slow connections, %d MQTT messages"
              % (http_n + huge_n + slow_n + 2 * mqtt_n, seconds, http_n, huge_n, slow_n, 2 * mqtt_n))
        for name, c in counters.items():
            print("hostile: %-5s %s" % (name, json.dumps(dict(sorted(c.counts.items())))))
        for name in ["serve", "watch"]:
            (rss0, hwm0), (rss1, hwm1) = early[name], late[name]
            print("hostile: %s resident %d kB after a tenth, %d kB at the end (%+d kB); peak %d kB, then %d kB"
                  % (name, rss0, rss1, rss1 - rss0, hwm0, hwm1))
            if rss1 - rss0 > 8 * 1024:
                failures.append("%s's memory grew by %d kB" % (name, rss1 - rss0))
            if codes[name] != 0:
                failures.append("glance %s ended with %d" % (name, codes[name]))
        slowest = max((t for _, t in good), default=0)
        bad = [(s, round(t, 3)) for s, t in good if s != 200 or t >= a.latency]
        print("hostile: good requests %d, all 200: %s, slowest %.3f s" % (len(good), not bad, slowest))
        if bad or not good:
            failures.append("good requests not answered 200 within %g s: %s" % (a.latency, bad[:10]))
        if counters["slow"].counts.get("never cut"):
            failures.append("%d slow connections were never cut" % counters["slow"].counts["never cut"])

        # The logs: nothing a client chose, unescaped.
        for name in ["serve", "watch"]:
            text = open(os.path.join(folder, name + ".log"), "rb").read().decode("utf-8", "replace")
            lines = text.split("\n")
            controls = [l for l in lines if any(ord(ch) < 0x20 or 0x7F <= ord(ch) <= 0x9F for ch in l)]
            forged = [l for l in lines if l.startswith("glance: PUT /v1/metrics/door")]
            tokens = [l for l in lines if TOKEN in l]
            # Refusals and libmicrohttpd's messages (a good request's line is its own, always said).
            refusals = [l for l in lines if l and " 200 from 127.0.0.1" not in l and not l.startswith("drew ")]
            print("hostile: %s log %d lines (%d of them not a good request's), %d bytes; control characters %d, forged %d, token %d"
                  % (name, len(lines) - 1, len(refusals), len(text), len(controls), len(forged), len(tokens)))
            if controls or forged or tokens:
                failures.append("%s's log: %s" % (name, (controls + forged + tokens)[:3]))
            queries = [l for l in lines if "q=" + MARK in l or "from=" + MARK in l]
            if queries:
                failures.append("%s's log holds a query value: %s" % (name, queries[:2]))
            if len(refusals) > 100:
                failures.append("%s's log has %d lines of refusals" % (name, len(refusals)))

        # The store: the good metric, nothing else.
        import sqlite3
        con = sqlite3.connect(db)
        metrics = con.execute("SELECT name, value FROM metrics").fetchall()
        days = con.execute("SELECT count(*) FROM day_summaries").fetchone()[0]
        tasks = con.execute("SELECT count(*) FROM tasks").fetchone()[0]
        con.close()
        print("hostile: the store holds %s, %d days, %d tasks; the good client's last value %s"
              % (metrics, days, tasks, written.get("good")))
        if metrics != [("good", float(written.get("good", -1)))] or days or tasks:
            failures.append("the store holds more than the good requests wrote")
    finally:
        for p in procs:
            if p.poll() is None:
                p.terminate()
                try:
                    p.wait(10)
                except subprocess.TimeoutExpired:
                    p.kill()
        if not a.keep and not a.scratch:
            shutil.rmtree(folder, ignore_errors=True)
    for f in failures:
        print("hostile: FAILED: " + f)
    print("hostile: %s" % ("passed" if not failures else "%d checks failed" % len(failures)))
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
