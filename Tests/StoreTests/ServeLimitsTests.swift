import Activity
import Foundation
import TestSupport
@testable import Store
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Issue 24: what a client can take from `glance serve` (time, memory, connections) and what a
/// damaged or locked store does to it, each with real clients (Python's socket and http.client
/// on loopback) against the real program.
@Suite("glance serve: limits a client cannot pass", .serialized, .timeLimit(.minutes(10)))
struct ServeLimitsTests {
    typealias Server = ServeTests.Server

    /// Times and memory of the server are measured on the machine's own code: under an emulator
    /// (the arm64 suites) the emulator's own time and memory are in every figure.
    static let emulated = !GlanceExecutable.emulator.isEmpty
    static let measuredNatively: Comment = "glance serve runs under an emulator: its answer times and memory are the emulator's too"

    /// A Python script run to its end: its standard output.
    static func python(_ server: Server, _ script: String, name: String = "client.py") throws -> String {
        let file = server.scratch.write(name, script)
        let result = try GlanceCLI.run([file], in: server.scratch, program: "/usr/bin/python3")
        #expect(result.status == 0, "\(name): \(result.err.suffix(800))")
        return result.out
    }

    /// A number from /proc/PID/status (kB), e.g. VmHWM or VmRSS.
    static func status(_ pid: Int32, _ field: String) -> Int {
        let text = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
        let line = text.split(separator: "\n").first { $0.hasPrefix(field + ":") } ?? ""
        return Int(line.split(separator: " ").dropFirst().first ?? "") ?? -1
    }

    @Test("slowloris: connections that send a header line now and then are cut at the request deadline, and good clients are answered meanwhile", .disabled(if: emulated, measuredNatively))
    func slowloris() throws {
        // Idle timeout 2 s: a line every 1.5 s never lets a connection go idle. The deadline is
        // three idle timeouts: 6 s. 600 slow connections (more than the server's 512) at once,
        // from three addresses (loopback has them all): 300 from the good client's own address
        // (more than an address's share of 256), 150 each from two others.
        let server = try Server(serve: ", \"timeout\": 2, \"perSecond\": 0")
        let out = try Self.python(
            server,
            """
            import http.client, json, socket, threading, time
            port = \(server.port)
            slow, opened, refused = [], 0, 0
            for i in range(600):
                source = "127.0.0.1" if i % 2 == 0 else ("127.0.0.2" if i % 4 == 1 else "127.0.0.3")
                try:
                    s = socket.create_connection(("127.0.0.1", port), timeout=5, source_address=(source, 0))
                    s.sendall(b"PUT /v1/days/2026-11-29 HTTP/1.1\\r\\nHost: x\\r\\n")
                    slow.append((s, time.time()))
                    opened += 1
                except Exception:
                    refused += 1
            cut = {}
            good = []
            def trickle():
                end = time.time() + 14
                while time.time() < end:
                    for s, t in list(slow):
                        if s in cut: continue
                        try:
                            s.sendall(b"X-Slow: 1\\r\\n")
                        except Exception:
                            cut[s] = time.time() - t
                    time.sleep(1.5)
            t = threading.Thread(target=trickle)
            t.start()
            # Good clients meanwhile, one every 0.5 s.
            while t.is_alive():
                start = time.time()
                try:
                    c = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
                    c.request("GET", "/v1/health")
                    r = c.getresponse(); r.read(); c.close()
                    good.append((r.status, round(time.time() - start, 3)))
                except Exception as e:
                    good.append((type(e).__name__, round(time.time() - start, 3)))
                time.sleep(0.5)
            t.join()
            # A socket the server shut reads as closed.
            for s, t0 in slow:
                if s in cut: continue
                s.setblocking(False)
                try:
                    if s.recv(1) == b"": cut[s] = time.time() - t0
                except BlockingIOError:
                    pass
                except Exception:
                    cut[s] = time.time() - t0
            print(json.dumps({"opened": opened, "refused": refused, "cut": len(cut), "longest": max(cut.values() or [0]), "good": good}))
            """)
        let report = try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [String: Any] ?? [:]
        print("slowloris: \(out)")
        let good = report["good"] as? [[Any]] ?? []
        #expect(!good.isEmpty)
        for answer in good {
            #expect(answer.first as? Int == 200, "a good client: \(answer)")
            #expect((answer.last as? Double ?? 99) < 6, "answered before the slow connections are cut (6 s): \(answer)")
        }
        #expect(report["cut"] as? Int == report["opened"] as? Int, "every slow connection cut: \(out)")
        #expect((report["longest"] as? Double ?? 99) < 11, "within the deadline (6 s) and a turn of the trickle: \(out)")
        server.expectAnswersAndStops()
    }

    @Test("sixteen 8 MiB bodies at once: peak memory within a small multiple of the body limit, good clients answered meanwhile", .disabled(if: emulated, measuredNatively))
    func bigBodies() throws {
        let server = try Server(serve: ", \"perSecond\": 0")
        let pid = server.process.processIdentifier
        #expect(try server.request("GET", "/v1/metrics").status == 200)
        let before = Self.status(pid, "VmHWM")
        let out = try Self.python(
            server,
            """
            import http.client, json, threading, time
            port, token = \(server.port), "\(server.token)"
            body = b'{"days": [' + b",".join([b"0"] * (4 * 1024 * 1024 - 8)) + b"]}"
            assert len(body) <= 8 << 20, len(body)
            statuses, lock = {}, threading.Lock()
            def big():
                try:
                    c = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
                    c.request("POST", "/v1/days", body, {"Authorization": "Bearer " + token, "Content-Type": "application/json"})
                    r = c.getresponse(); r.read(); c.close()
                    s = r.status
                except Exception as e:
                    s = type(e).__name__
                with lock: statuses[str(s)] = statuses.get(str(s), 0) + 1
            threads = [threading.Thread(target=big) for _ in range(16)]
            for t in threads: t.start()
            good = []
            while any(t.is_alive() for t in threads):
                start = time.time()
                c = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
                c.request("GET", "/v1/health")
                r = c.getresponse(); r.read(); c.close()
                good.append((r.status, round(time.time() - start, 3)))
                time.sleep(0.2)
            for t in threads: t.join()
            print(json.dumps({"statuses": statuses, "good": good, "bytes": len(body)}))
            """)
        let after = Self.status(pid, "VmHWM")
        print("16 bodies of 8 MiB: \(out); serve's peak memory \(before) kB before, \(after) kB after")
        let report = try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [String: Any] ?? [:]
        let statuses = report["statuses"] as? [String: Int] ?? [:]
        #expect(Set(statuses.keys).isSubset(of: ["400", "503"]), "each refused for its content (400) or told to retry (503): \(statuses)")
        #expect(statuses.values.reduce(0, +) == 16)
        for answer in report["good"] as? [[Any]] ?? [] {
            // Answered, and not held behind the uploads for as long as a request may take (6 s, the
            // request deadline): the server parses one body at a time in its loop, so a health check
            // can wait for one parse (1.09 s seen on a loaded two-core machine) but not for sixteen.
            // How long it waits is a figure printed above, not a limit of this test.
            #expect(answer.first as? Int == 200 && (answer.last as? Double ?? 99) < 6, "a good client: \(answer)")
        }
        // The body limit is 8 MiB; the stated bound is 12 times it beyond the server's own memory.
        let limit = 12 * 8 * 1024
        #expect(after - before <= limit, "peak memory grew by \(after - before) kB, more than \(limit) kB")
        server.expectAnswersAndStops()
    }

    /// The memory bound holds for bodies the server takes too: Health Auto Export bodies just under
    /// 8 MiB, each of 180,000 samples (the densest a real body is: 3 values in 45 bytes).
    @Test("sixteen well-formed 8 MiB Health Auto Export bodies at once: taken or told to retry, peak memory within the same multiple", .disabled(if: emulated, measuredNatively))
    func bigWellFormedBodies() throws {
        let server = try Server(serve: ", \"perSecond\": 0", environment: ["TZ": "UTC"])
        let pid = server.process.processIdentifier
        #expect(try server.request("GET", "/v1/metrics").status == 200)
        let before = Self.status(pid, "VmHWM")
        let out = try Self.python(
            server,
            """
            import http.client, json, threading, time
            port, token = \(server.port), "\(server.token)"
            sample = b'{"qty":0.1,"date":"2026-11-29 10:00:00 +0100"}'
            n = (8 * 1024 * 1024 - 200) // (len(sample) + 1)
            body = b'{"data":{"metrics":[{"name":"active_energy","units":"kcal","data":[' + b",".join([sample] * n) + b']}]}}'
            assert len(body) <= 8 << 20, len(body)
            statuses, times, lock = {}, [], threading.Lock()
            def big():
                start = time.time()
                c = http.client.HTTPConnection("127.0.0.1", port, timeout=300)
                c.request("POST", "/v1/health-auto-export", body, {"Authorization": "Bearer " + token})
                r = c.getresponse(); r.read(); c.close()
                with lock:
                    statuses[str(r.status)] = statuses.get(str(r.status), 0) + 1
                    times.append(round(time.time() - start, 2))
            threads = [threading.Thread(target=big) for _ in range(16)]
            for t in threads: t.start()
            for t in threads: t.join()
            print(json.dumps({"statuses": statuses, "samples": n, "times": sorted(times)}))
            """)
        let after = Self.status(pid, "VmHWM")
        print("16 well-formed bodies of 8 MiB: \(out); serve's peak memory \(before) kB before, \(after) kB after")
        let report = try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [String: Any] ?? [:]
        let statuses = report["statuses"] as? [String: Int] ?? [:]
        #expect(Set(statuses.keys).isSubset(of: ["200", "503"]) && (statuses["200"] ?? 0) >= 1, "\(statuses)")
        let limit = 12 * 8 * 1024
        #expect(after - before <= limit, "peak memory grew by \(after - before) kB, more than \(limit) kB")
        server.expectAnswersAndStops()
    }

    @Test("a store lock held by another process: writes answered 503 with Retry-After at once (not after the lock), health too; writes again once it is released", .disabled(if: emulated, measuredNatively))
    func lockedStore() throws {
        let server = try Server()
        #expect(try server.request("PUT", "/v1/metrics/door", "{\"value\": 1}").status == 200)
        let held = server.scratch.file("held")
        let release = server.scratch.file("release")
        let locker = server.scratch.write(
            "lock.py",
            """
            import os, sqlite3, time
            db = sqlite3.connect("\(server.scratch.db)", isolation_level=None, timeout=10)
            db.execute("BEGIN IMMEDIATE")
            open("\(held)", "w").close()
            end = time.time() + 60
            while not os.path.exists("\(release)") and time.time() < end: time.sleep(0.05)
            db.execute("ROLLBACK")
            """)
        let (lockProcess, lockDone) = try GlanceCLI.start([locker], in: server.scratch, tag: "locker", program: "/usr/bin/python3")
        _ = lockProcess
        #expect(eventually(seconds: 20) { FileManager.default.fileExists(atPath: held) }, "the lock is held")
        let out = try Self.python(
            server,
            """
            import http.client, json, threading, time
            port, token = \(server.port), "\(server.token)"
            writes, lock = [], threading.Lock()
            def write(i):
                start = time.time()
                c = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
                c.request("PUT", "/v1/metrics/m%d" % i, '{"value": 2}', {"Authorization": "Bearer " + token})
                r = c.getresponse(); r.read(); c.close()
                with lock: writes.append((r.status, r.getheader("Retry-After"), round(time.time() - start, 3)))
            threads = [threading.Thread(target=write, args=(i,)) for i in range(6)]
            for t in threads: t.start()
            time.sleep(0.05)
            start = time.time()
            c = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            c.request("GET", "/v1/health")
            r = c.getresponse(); r.read(); c.close()
            health = (r.status, round(time.time() - start, 3))
            for t in threads: t.join()
            print(json.dumps({"writes": writes, "health": health}))
            """)
        print("writes with the store locked elsewhere: \(out)")
        let report = try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [String: Any] ?? [:]
        let health = report["health"] as? [Any] ?? []
        // Not waiting for the lock (held until the test releases it): how long the answers took is
        // printed above; the bounds only tell "answered at once" from "waited for the holder".
        #expect(health.first as? Int == 200 && (health.last as? Double ?? 99) < 5, "health answered at once: \(health)")
        for write in report["writes"] as? [[Any]] ?? [] {
            #expect(write[0] as? Int == 503 && write[1] as? String == "1", "a write while locked: \(write)")
            #expect((write[2] as? Double ?? 99) < 5, "answered without waiting for the lock: \(write)")
        }
        #expect(FileManager.default.createFile(atPath: release, contents: Data()), "a file for the test")
        #expect(lockDone().status == 0)
        #expect(eventually(seconds: 10) { (try? server.request("PUT", "/v1/metrics/door", "{\"value\": 3}").status) == 200 })
        let store = try Store(path: server.scratch.db, access: .read)
        #expect(try store.metric(named: "door")?.value == 3 && store.metrics().count == 1, "nothing half written")
        server.expectAnswersAndStops()
    }

    /// The bytes of the store's files, to tell that nothing was written.
    static func files(_ db: String) -> [Data] {
        [db, db + "-wal"].map { FileManager.default.contents(atPath: $0) ?? Data() }
    }

    @Test("a store damaged while serve runs: writes and reads refused with 503, health says damaged, nothing written; a restored file is taken")
    func damagedStore() throws {
        let server = try Server(serve: ", \"perSecond\": 0")
        var days: [String] = []
        for n in 0..<400 {
            let day = CalendarDay(year: 2024, month: 1, day: 1)!.adding(days: n)
            days.append("{\"date\": \"\(day)\", \"move\": \(n), \"exercise\": 10, \"stand\": 5}")
        }
        #expect(try server.request("POST", "/v1/days", "{\"days\": [\(days.joined(separator: ","))]}").status == 200)
        #expect(try server.request("PUT", "/v1/metrics/door", "{\"value\": 1}").status == 200)
        // Everything into the main file, a copy kept as the backup, then pages in the middle overwritten.
        // Through SQLite's library, as another writer would (the sqlite3 program is not in the
        // arm64 suites' root).
        let backup = server.scratch.file("backup.db")
        do {
            let other = try Store(path: server.scratch.db)
            try other.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            try other.db.execute("VACUUM INTO '\(backup)'")
        }
        let handle = try #require(FileHandle(forUpdatingAtPath: server.scratch.db))
        try handle.seek(toOffset: 4096 * 3)
        handle.write(Data((0..<(4096 * 4)).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 7) }))
        try handle.close()
        let damaged = Self.files(server.scratch.db)
        let put = try server.request("PUT", "/v1/metrics/door", "{\"value\": 2}")
        #expect(put.status == 503 && put.body.contains("damaged"), "\(put)")
        let day = try server.request("PUT", "/v1/days/2026-11-29", "{\"move\": 5}")
        #expect(day.status == 503 && day.body.contains("damaged") && !day.body.contains(server.scratch.db), "\(day)")
        #expect(try server.request("GET", "/v1/days?from=2024-01-01&to=2024-02-01").status == 503)
        let health = try server.request("GET", "/v1/health", authorization: .some(nil))
        #expect(health.status == 503 && health.body.contains("\"ok\":false") && health.body.contains("damaged"), "\(health)")
        #expect(Self.files(server.scratch.db) == damaged, "nothing written after the damage was found")
        // The backup restored (renamed over the store): taken, and writes go on.
        #expect(rename(backup, server.scratch.db) == 0)
        #expect(try server.request("PUT", "/v1/metrics/door", "{\"value\": 4}").status == 200)
        #expect(try server.request("GET", "/v1/health", authorization: .some(nil)).status == 200)
        let log = server.expectAnswersAndStops()
        #expect(log.contains("damaged"), "the log says why: \(log.suffix(600))")
    }

    /// The soak of issue 24's "Done when" (tools/bench/hostile.py), a fifth of its size, on the
    /// glance the tests run: memory flat, every good request answered, nothing a client chose in
    /// the logs unescaped, the store holding only what the good requests wrote. The good
    /// requests may take 2 s here (a debug build beside the other tests); the script's own run on
    /// the release build holds them to 1 s.
    @Test("2,000 hostile requests beside good ones: memory flat, good ones answered, logs clean, the store as the good ones left it",
        .disabled(if: emulated, measuredNatively))
    func hostileSoak() throws {
        let scratch = Scratch()
        let result = try GlanceCLI.run(
            [Repository.root + "/tools/bench/hostile.py", "--glance", GlanceExecutable.path, "--requests", "2000", "--latency", "2"],
            in: scratch, program: "/usr/bin/python3")
        print(result.out.split(separator: "\n").filter { $0.hasPrefix("hostile:") }.joined(separator: "\n"))
        #expect(result.status == 0 && result.out.contains("hostile: passed"), "\(result.out.suffix(1500)) \(result.err.suffix(800))")
    }
}
