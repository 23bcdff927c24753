import Activity
import Foundation
import TestSupport
import Store
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `glance serve` as it runs on the board: the real program on loopback, a real HTTP client
/// (curl, and Python's http.client for the concurrent requests), a real store file.
@Suite("glance serve: the HTTP endpoint", .timeLimit(.minutes(10)))
struct ServeTests {
    /// A running `glance serve` on a free port, with its token and store. Its process is owned
    /// (`OwnedProcess`): a test that fails or throws before `expectAnswersAndStops` leaves no
    /// server behind (it ends with the Server, at the test's end).
    final class Server {
        let scratch = Scratch()
        let token = "test-token-0123456789abcdef"
        var port = 0
        let process: OwnedProcess
        let finish: () -> GlanceCLI.Result

        init(serve: String = "", environment: [String: String] = [:], extra: String = "") throws {
            let tokenFile = scratch.write("token", token + "\n")
            // As the package makes it: readable by root and group glance only.
            chmod(tokenFile, 0o640)
            // The tests' fixed dates stay within what a push may write whatever the day they run
            // (unless a test sets its own window).
            let window = serve.contains("pastDays") ? "" : ", \"pastDays\": 3652059"
            // No rate limit unless the test sets one: a test of something else sends its requests
            // as fast as curl returns, which is more than 10 a second when the wait for each
            // curl does not add Foundation's 50 ms.
            let limit = serve.contains("\"perSecond\"") ? "" : ", \"perSecond\": 0"
            let config = scratch.write(
                "config.json",
                "{\"serve\": {\"tokenFile\": \"\(tokenFile)\"\(window)\(limit)\(serve)}, \"goals\": {\"move\": 600, \"exercise\": 30, \"stand\": 12}\(extra)}")
            (process, finish) = try GlanceCLI.start(
                ["serve", "--config", config, "--db", scratch.db, "--listen", "127.0.0.1:0"], in: scratch, tag: "serve",
                environment: environment)
            let log = scratch.file("serve.err")
            let up = eventually(seconds: 30) {
                ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").contains("listening on 127.0.0.1:")
            }
            let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
            try #require(up, "glance serve did not start: \(text)")
            let after = text.components(separatedBy: "listening on 127.0.0.1:")[1]
            port = Int(after.prefix { $0.isNumber }) ?? 0
        }

        var log: String { (try? String(contentsOfFile: scratch.file("serve.err"), encoding: .utf8)) ?? "" }

        /// `curl` with the token (or another Authorization, or none), the body from a file.
        func request(
            _ method: String, _ path: String, _ body: String? = nil, authorization: String?? = .none,
            extra: [String] = []
        ) throws -> (status: Int, body: String) {
            var arguments = ["-s", "-S", "-o", "-", "-w", "\n%{http_code}", "-X", method, "http://127.0.0.1:\(port)\(path)"]
            switch authorization {
            case .none: arguments += ["-H", "Authorization: Bearer \(token)"]
            case .some(.some(let value)): arguments += ["-H", "Authorization: \(value)"]
            case .some(.none): break
            }
            if let body {
                let file = scratch.write("body-\(UUID().uuidString)", body)
                arguments += ["-H", "Content-Type: application/json", "--data-binary", "@" + file]
            }
            let result = try GlanceCLI.run(arguments + extra, in: scratch, program: "/usr/bin/curl")
            let lines = result.out.split(separator: "\n", omittingEmptySubsequences: false)
            let text = lines.dropLast().joined(separator: "\n")
            return (Int(lines.last ?? "") ?? 0, text.hasSuffix("\n") ? String(text.dropLast()) : text)
        }

        func snapshot() throws -> String { try StoreTests_snapshot(scratch.db) }

        func stop() -> GlanceCLI.Result {
            kill(process.processIdentifier, SIGTERM)
            return finish()
        }

        /// The end of every serve test: the server still answers (whatever it was sent before),
        /// then stops on SIGTERM with status 0. The log, for more checks.
        @discardableResult
        func expectAnswersAndStops(sourceLocation: SourceLocation = #_sourceLocation) -> String {
            let health = try? request("GET", "/v1/health", authorization: .some(nil))
            #expect(health?.status == 200, "the server still answers: \(String(describing: health))", sourceLocation: sourceLocation)
            let result = stop()
            #expect(result.status == 0, "glance serve's exit status: \(result.err)", sourceLocation: sourceLocation)
            return result.err
        }
    }

    @Test("every endpoint, with the store as the reply says")
    func endpoints() throws {
        let server = try Server()
        #expect(try server.request("GET", "/v1/health", authorization: .some(nil)) == (200, "{\"ok\":true,\"schema\":\(Schema.currentVersion)}"))
        // A day of Glance's own form: the goals it does not give come from the configuration.
        var r = try server.request("PUT", "/v1/days/2026-11-29", "{\"move\": \"1460kJ\", \"exercise\": 25, \"stand\": 9}")
        #expect(r == (200, "{\"days\":{\"new\":1,\"changed\":0,\"unchanged\":0}}"))
        r = try server.request("PUT", "/v1/days/2026-11-29", "{\"exercise\": 25}")
        #expect(r.body == "{\"days\":{\"new\":0,\"changed\":0,\"unchanged\":1}}", "the same again changes nothing")
        r = try server.request("POST", "/v1/days", "{\"days\": [{\"date\": \"2026-11-29\", \"standGoal\": 10}, {\"date\": \"2026-11-30\", \"move\": 100}]}")
        #expect(r.body == "{\"days\":{\"new\":1,\"changed\":1,\"unchanged\":0}}")
        let store = try Store(path: server.scratch.db, access: .write)  // it presses Cancel below
        let own = try #require(try store.summary(for: CalendarDay(year: 2026, month: 11, day: 29)!))
        #expect(own.activeEnergyBurnedGoal == nil, "the configuration's goals are not copied into the day: it follows them")
        let day = try #require(try store.shownSummary(for: CalendarDay(year: 2026, month: 11, day: 29)!, defaults: Self.configured))
        #expect(day.activeEnergyBurned == Energy(1460, .kilojoule))
        #expect(day.activeEnergyBurnedGoal == .kilocalories(600) && day.exerciseTimeGoal == 30)
        #expect(day.standHours == 9 && day.standHoursGoal == 10, "a goal given later is kept")
        r = try server.request("GET", "/v1/days?from=2026-11-29&to=2026-11-30")
        #expect(r.status == 200 && r.body.contains("\"date\":\"2026-11-29\"") && r.body.contains("\"date\":\"2026-11-30\""))
        #expect(r.body.contains("\"standGoal\":10") && r.body.contains("\"moveGoal\":600"), "shown with the configuration's goals")
        // Metrics and tasks.
        r = try server.request("PUT", "/v1/metrics/cpu-temperature", "{\"value\": 47.5, \"min\": 20, \"max\": 90, \"unit\": \"°C\"}")
        #expect(r == (200, "{\"name\":\"cpu-temperature\",\"value\":47.5,\"min\":20,\"max\":90,\"unit\":\"°C\"}"))
        #expect(try server.request("GET", "/v1/metrics").body.contains("\"cpu-temperature\""))
        #expect(try store.metric(named: "cpu-temperature")?.value == 47.5)
        r = try server.request("POST", "/v1/tasks", "{\"name\": \"sync\", \"total\": 200, \"description\": \"Syncing\", \"cancellable\": true}")
        #expect(r.status == 200 && r.body.contains("\"state\":\"running\""))
        _ = try store.requestCancel("sync")
        r = try server.request("PATCH", "/v1/tasks/sync", "{\"done\": 82}")
        #expect(r.status == 200 && r.body.contains("\"done\":82") && r.body.contains("\"cancelRequested\":true"),
            "the reply tells the client a cancel was asked for: \(r.body)")
        r = try server.request("PATCH", "/v1/tasks/sync", "{\"state\": \"failed\"}")
        #expect(r.body.contains("\"state\":\"failed\""))
        #expect(try server.request("GET", "/v1/tasks").body.contains("\"name\":\"sync\""))
        let log = server.expectAnswersAndStops()
        #expect(log.contains("PUT /v1/days/2026-11-29 200 from 127.0.0.1: days 1 new, 0 changed, 0 unchanged"))
    }

    /// The goals of the server's configuration.
    static let configured = Goals(move: .kilocalories(600), exercise: 30, stand: 12)

    /// A realistic Health Auto Export body: per-minute samples over two days, the first in Berlin
    /// (+0100, kJ), the second in New York (-0500, kcal), per-hour stand, and metrics that are not
    /// for the rings.
    static func healthAutoExportBody() -> (String, move29: Double, move30: Double, exercise29: Double, stand29: Double) {
        func clock(_ minute: Int) -> String {
            let h = minute / 60, m = minute % 60
            return (h < 10 ? "0\(h)" : "\(h)") + ":" + (m < 10 ? "0\(m)" : "\(m)") + ":00"
        }
        var kj: [String] = [], kcal: [String] = [], exercise: [String] = [], steps: [String] = []
        for minute in stride(from: 7 * 60, to: 22 * 60, by: 1) {  // 07:00–21:59 in Berlin on the 29th
            kj.append("{\"qty\":2.092,\"date\":\"2026-11-29 \(clock(minute)) +0100\",\"source\":\"Watch\"}")
            steps.append("{\"qty\":12,\"date\":\"2026-11-29 \(clock(minute)) +0100\"}")
            if minute % 3 == 0 { exercise.append("{\"qty\":1,\"date\":\"2026-11-29 \(clock(minute)) +0100\"}") }
        }
        // 09:00–12:59 in New York on the 30th: 15:00–18:59 in Berlin, the 30th.
        for minute in stride(from: 9 * 60, to: 13 * 60, by: 1) {
            kcal.append("{\"qty\":1.5,\"date\":\"2026-11-30 \(clock(minute)) -0500\"}")
        }
        var stand: [String] = []
        for hour in 7..<22 where hour % 2 == 1 { stand.append("{\"qty\":1,\"date\":\"2026-11-29 \(clock(hour * 60)) +0100\"}") }
        let body = """
            {"data":{"metrics":[
            {"name":"active_energy","units":"kJ","data":[\(kj.joined(separator: ","))]},
            {"name":"active_energy","units":"kcal","data":[\(kcal.joined(separator: ","))]},
            {"name":"apple_exercise_time","units":"min","data":[\(exercise.joined(separator: ","))]},
            {"name":"apple_stand_hour","units":"count","data":[\(stand.joined(separator: ","))]},
            {"name":"step_count","units":"count","data":[\(steps.joined(separator: ","))]},
            {"name":"heart_rate","units":"count/min","data":[{"Min":52,"Avg":71,"Max":130,"date":"2026-11-29 10:00:00 +0100"}]}
            ],"workouts":[]}}
            """
        return (body, 900 * 0.5, 240 * 1.5, 300, Double(stand.count))
    }

    @Test("a Health Auto Export body: summed into the board's days (Europe/Berlin), kJ converted, other metrics listed")
    func healthAutoExport() throws {
        let server = try Server(environment: ["TZ": "Europe/Berlin"])
        // A day already in the store keeps its goals.
        #expect(try server.request("PUT", "/v1/days/2026-11-29", "{\"moveGoal\": 450, \"exerciseGoal\": 45}").status == 200)
        let (body, move29, move30, exercise29, stand29) = Self.healthAutoExportBody()
        let r = try server.request("POST", "/v1/health-auto-export", body)
        #expect(
            r == (
                200,
                "{\"days\":{\"new\":1,\"changed\":1,\"unchanged\":0},\"samples\":{\"new\":1448,\"changed\":0,\"unchanged\":0},"
                    + "\"ignored\":[\"heart_rate\",\"step_count\"]}"
            ))
        let store = try Store(path: server.scratch.db, access: .read)
        let first = try #require(try store.shownSummary(for: CalendarDay(year: 2026, month: 11, day: 29)!, defaults: Self.configured))
        #expect(abs((first.activeEnergyBurned?.kilocalories ?? 0) - move29) < 1e-6)
        #expect(first.exerciseTime == exercise29 && first.standHours == stand29)
        #expect(first.activeEnergyBurnedGoal == .kilocalories(450) && first.exerciseTimeGoal == 45, "goals kept")
        let second = try #require(try store.shownSummary(for: CalendarDay(year: 2026, month: 11, day: 30)!, defaults: Self.configured))
        #expect(second.activeEnergyBurned?.kilocalories == move30)
        #expect(second.activeEnergyBurnedGoal == .kilocalories(600), "a new day gets the configuration's goals")
        // Posting it again is harmless.
        #expect(try server.request("POST", "/v1/health-auto-export", body).body.hasPrefix("{\"days\":{\"new\":0,\"changed\":0,\"unchanged\":2}"))
        server.expectAnswersAndStops()
    }

    @Test("every bad request is answered as documented, and leaves the store as it was")
    func badRequests() throws {
        let server = try Server(serve: ", \"maxBody\": 4096, \"perSecond\": 1000")
        #expect(try server.request("PUT", "/v1/days/2026-11-29", "{\"move\": 300}").status == 200)
        let before = try server.snapshot()
        let cases: [(String, String, String?, String??, Int, String)] = [
            ("PUT", "/v1/days/2026-11-29", "{\"move\": 1}", .some(nil), 401, "a token is needed"),
            ("PUT", "/v1/days/2026-11-29", "{\"move\": 1}", .some("Bearer wrong-token-0123456789abc"), 401, "wrong token"),
            ("PUT", "/v1/days/2026-11-29", "{\"move\": 1}", .some("Basic dGVzdA=="), 401, "wrong token"),
            ("PUT", "/v1/days/2026-11-29", "{\"move\": ", .none, 400, "$: malformed JSON: line 1, column"),
            ("PUT", "/v1/days/2026-11-29", "{\"move\": -1}", .none, 400, "$.move: expected"),
            ("PUT", "/v1/days/2026-11-29", "{\"walk\": 1}", .none, 400, "$.walk: unknown field"),
            ("POST", "/v1/days", "{\"days\": [{\"date\": \"2026-11-30\", \"move\": 5}, {\"date\": \"2026-11-31\", \"move\": 5}]}", .none, 400, "$.days[1].date: expected a date"),
            ("PUT", "/v1/days/2026-13-01", "{\"move\": 1}", .none, 400, "expected a date"),
            ("DELETE", "/v1/days/2026-11-29", nil, .none, 405, "takes PUT"),
            ("GET", "/v2/days", nil, .none, 404, "no such endpoint"),
            ("POST", "/v1/health-auto-export", "{\"data\": {\"metrics\": [{\"name\": \"active_energy\", \"units\": \"kcal\", \"data\": [{\"qty\": 5, \"date\": \"2026-11-29 10:00:00 +0100\"}, {\"qty\": \"x\", \"date\": \"2026-11-29 10:01:00 +0100\"}]}]}}", .none, 400, "$.data.metrics[0].data[1].qty"),
            ("POST", "/v1/health-auto-export", String(repeating: " ", count: 5000) + "{}", .none, 413, "larger than 4096 bytes"),
            ("PUT", "/v1/metrics/cpu", "{\"value\": 5, \"min\": 9, \"max\": 1}", .none, 400, "min"),
            ("PATCH", "/v1/tasks/nothing", "{\"done\": 1}", .none, 404, "no task nothing"),
        ]
        for (method, path, body, authorization, status, message) in cases {
            let r = try server.request(method, path, body, authorization: authorization)
            #expect(r.status == status, "\(method) \(path): \(r)")
            #expect(r.body.contains(message), "\(method) \(path): \(r.body)")
            #expect(try server.snapshot() == before, "\(method) \(path) changed the store")
        }
        // Bytes that are not UTF-8.
        let latin1 = server.scratch.file("latin1")
        #expect(FileManager.default.createFile(atPath: latin1, contents: Data([0x7B, 0xFF, 0x7D])), "a file for the test")
        let notText = try server.request("PUT", "/v1/days/2026-11-29", nil, extra: ["--data-binary", "@" + latin1])
        #expect(notText.status == 400 && notText.body.contains("not UTF-8"), "\(notText)")
        // A body declared larger than the limit is refused before it is sent: curl is told 413 at
        // once (it waits for "100 Continue" before sending, and gets the refusal instead).
        let big = try server.request(
            "POST", "/v1/days", nil, extra: ["-H", "Content-Length: 100000000", "-H", "Expect: 100-continue", "--data-binary", "x"])
        #expect(big.status == 413 && big.body.contains("larger than 4096 bytes"), "\(big)")
        // And without waiting for "100 Continue": the refusal is still the answer, not a closed connection.
        let sent = try server.request("POST", "/v1/days", nil, extra: ["-H", "Content-Length: 100000000", "--data-binary", "x"])
        #expect(sent.status == 413, "\(sent)")
        #expect(try server.snapshot() == before)
        let log = server.expectAnswersAndStops()
        #expect(!log.contains("wrong-token") && !log.contains(server.token), "no token in the log")
    }

    @Test(
        "more requests a second than allowed from one address are answered 429 with Retry-After",
        .disabled(
            if: !GlanceExecutable.emulator.isEmpty,
            "glance serve runs under an emulator, too slowly for the requests to come within one second"))
    func rateLimit() throws {
        let server = try Server(serve: ", \"perSecond\": 3")
        // One curl for the eight (one process, back to back on its connection): eight curls one
        // after another could take longer than the limit's second on a loaded machine.
        let url = "http://127.0.0.1:\(server.port)/v1/metrics"
        let codes = try GlanceCLI.run(
            ["-s", "-o", "/dev/null", "-w", "%{http_code}\n", "-H", "Authorization: Bearer \(server.token)"]
                + Array(repeating: url, count: 8), in: server.scratch, program: "/usr/bin/curl")
        let statuses = codes.out.split(separator: "\n").compactMap { Int($0) }
        #expect(statuses.count == 8, "\(codes.out) \(codes.err)")
        #expect(statuses.prefix(3).allSatisfy { $0 == 200 }, "\(statuses)")
        #expect(statuses.contains(429), "\(statuses)")
        let headers = try server.request("GET", "/v1/metrics", extra: ["-D", "-"])
        #expect(headers.body.contains("Retry-After: 1"))
        usleep(1_100_000)  // the bucket fills again
        server.expectAnswersAndStops()
    }

    @Test("a client that sends nothing is cut off after the timeout; the server goes on answering others")
    func slowClient() throws {
        let server = try Server(serve: ", \"timeout\": 2")
        let script = """
            import socket, time
            s = socket.create_connection(("127.0.0.1", \(server.port)))
            s.sendall(b"PUT /v1/days/2026-11-29 HTTP/1.1\\r\\nHost: x\\r\\n")
            start = time.time()
            s.settimeout(20)
            try:
                data = s.recv(100)
            except Exception as e:
                data = b""
            print(round(time.time() - start, 1), len(data))
            """
        let file = server.scratch.write("slow.py", script)
        let result = try GlanceCLI.run([file], in: server.scratch, program: "/usr/bin/python3")
        let seconds = Double(result.out.split(separator: " ").first ?? "") ?? 99
        #expect(seconds < 15, "cut off after \(seconds) s: \(result.out) \(result.err)")
        server.expectAnswersAndStops()
    }

    @Test("concurrent writes, 200 at a time, for as long as glance import runs: none lost, none a 500; a busy store says retry")
    func concurrentWritesDuringImport() throws {
        let server = try Server(serve: ", \"perSecond\": 0")
        writeLargeExport(to: server.scratch.file("big.xml"), megabytes: 120)
        let stop = server.scratch.file("stop")
        // 200 writers, each setting its own metric to 1, 2, 3 … until told to stop; a 503 with
        // Retry-After is tried again; anything else is counted.
        let script = """
            import http.client, json, os, threading
            statuses, last, lock = {}, {}, threading.Lock()
            def writer(i):
                n = 0
                while not os.path.exists("\(stop)"):
                    n += 1
                    try:
                        c = http.client.HTTPConnection("127.0.0.1", \(server.port), timeout=60)
                        c.request("PUT", "/v1/metrics/m%d" % i, json.dumps({"value": n}),
                                  {"Authorization": "Bearer \(server.token)", "Content-Type": "application/json"})
                        r = c.getresponse(); r.read(); c.close()
                        status = r.status if r.status != 503 or r.getheader("Retry-After") else -503
                    except Exception as e:
                        status = type(e).__name__
                    with lock:
                        statuses[str(status)] = statuses.get(str(status), 0) + 1
                        if status == 200: last["m%d" % i] = n
            threads = [threading.Thread(target=writer, args=(i,)) for i in range(200)]
            for t in threads: t.start()
            for t in threads: t.join()
            print(json.dumps({"statuses": statuses, "last": last}))
            """
        let file = server.scratch.write("many_writers.py", script)
        let (writers, writersDone) = try GlanceCLI.start([file], in: server.scratch, tag: "writers", program: "/usr/bin/python3")
        let imported = try GlanceCLI.run(["import", server.scratch.file("big.xml"), "--db", server.scratch.db], in: server.scratch)
        #expect(imported.status == 0, "\(imported.err)")
        #expect(FileManager.default.createFile(atPath: stop, contents: Data()), "a file for the test")
        let result = writersDone()
        _ = writers
        let report = try JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [String: Any] ?? [:]
        let statuses = report["statuses"] as? [String: Int] ?? [:]
        let last = report["last"] as? [String: Int] ?? [:]
        print("writes during the import: \(statuses)")
        #expect(Set(statuses.keys).isSubset(of: ["200", "503"]), "only successes and retries: \(statuses) \(result.err)")
        #expect((statuses["200"] ?? 0) > 200, "the writers ran through the import")
        #expect(last.count == 200)
        let store = try Store(path: server.scratch.db, access: .read)
        let metrics = try store.metrics()
        #expect(metrics.count == 200, "every writer's metric is in the store")
        for metric in metrics {
            #expect(metric.value == last[metric.name].map(Double.init), "\(metric.name): the last acknowledged write is kept")
        }
        #expect(try store.dayCount() == 3, "and the import's days")
        let log = server.expectAnswersAndStops()
        #expect(!log.contains(" 500 "))
    }
}

/// The store's content as text (StoreTests' snapshot).
func StoreTests_snapshot(_ path: String) throws -> String { try snapshot(path) }
