import Activity
import Foundation
import TestSupport
import Store
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Issue 24: `glance serve` against a hostile network, each case with a real client (curl, or
/// Python's socket for bytes curl would not send) against the real program, and the server still
/// answering and ending with status 0 afterwards.
@Suite("glance serve: hostile requests", .timeLimit(.minutes(10)))
struct ServeHardeningTests {
    typealias Server = ServeTests.Server

    /// The lines of the log, without the start and stop lines.
    static func lines(_ log: String) -> [Substring] { log.split(separator: "\n") }

    @Test("a token in the query string is never logged; the query's values are not logged at all")
    func tokenInQuery() throws {
        let server = try Server()
        let r = try server.request("GET", "/v1/metrics?token=\(server.token)&from=secret-value", authorization: .some(nil))
        #expect(r.status == 401, "\(r)")
        // The token anywhere else in the target: not logged either.
        let p = try server.request("GET", "/v1/tasks/\(server.token)", authorization: .some(nil))
        #expect(p.status == 405, "\(p)")
        let log = server.expectAnswersAndStops()
        #expect(!log.contains(server.token), "the token is in the log: \(log)")
        #expect(!log.contains("secret-value"), "a query value is in the log: \(log)")
        #expect(log.contains("GET /v1/metrics?token=…&from=… 401 from 127.0.0.1"), "\(log)")
    }

    @Test("a client cannot forge log lines or put terminal escapes into the journal: the path as received, escaped")
    func forgedLogLines() throws {
        let server = try Server()
        let forged = "/v1/%0Aglance:%20PUT%20/v1/metrics/door%20200%20from%20192.168.1.20:%20forged"
        #expect(try server.request("GET", forged, authorization: .some(nil), extra: ["--path-as-is"]).status == 404)
        #expect(try server.request("GET", "/v1/%1B[31mred%1B[0m", authorization: .some(nil), extra: ["--path-as-is", "-g"]).status == 404)
        // A body's key with a line break in it, quoted in the error.
        let key = try server.request("PUT", "/v1/days/2026-11-29", "{\"x\\nglance: PUT /v1/days/2026-11-29 200 from 10.0.0.1\\u001b[2J\": 1}")
        #expect(key.status == 400, "\(key)")
        // Raw bytes outside ASCII in the request line (curl would encode them).
        let raw = try Self.rawRequest(server.port, Array("GET /v1/\u{1B}]0;owned\u{07}\u{85}x HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".utf8))
        #expect(raw.hasPrefix("HTTP/1.1 4"), "\(raw)")
        let log = server.expectAnswersAndStops()
        for line in Self.lines(log) {
            #expect(!line.hasPrefix("glance: PUT /v1/metrics/door") && !line.hasPrefix("glance: PUT /v1/days/2026-11-29 200 from 10"), "a forged line: \(line)")
            #expect(!line.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }, "a control character: \(line.debugDescription)")
        }
        #expect(log.contains("GET /v1/%0Aglance:%20PUT%20/v1/metrics/door%20200%20from%20192.168.1.20:%20forged 404 from 127.0.0.1"), "\(log)")
    }

    /// Sends `bytes` on a new connection and returns what came back until the server closed it.
    static func rawRequest(_ port: Int, _ bytes: [UInt8], seconds: Double = 10) throws -> String {
        let scratch = Scratch()
        let request = scratch.file("request")
        #expect(FileManager.default.createFile(atPath: request, contents: Data(bytes)), "a file for the test")
        let script = """
            import socket, sys
            s = socket.create_connection(("127.0.0.1", \(port)))
            s.settimeout(\(seconds))
            s.sendall(open(sys.argv[1], "rb").read())
            data = b""
            try:
                while True:
                    chunk = s.recv(65536)
                    if not chunk: break
                    data += chunk
            except Exception:
                pass
            sys.stdout.write(data.decode("latin-1"))
            """
        let file = scratch.write("raw.py", script)
        return try GlanceCLI.run([file, request], in: scratch, program: "/usr/bin/python3").out
    }

    @Test("a token file others may read or write is refused (77, how to fix it); serve token too")
    func tokenFilePermissions() throws {
        let scratch = Scratch()
        let tokenFile = scratch.write("token", "a-token-of-enough-length-0123\n")
        let config = scratch.write("config.json", "{\"serve\": {\"tokenFile\": \"\(tokenFile)\"}}")
        for mode in [0o644, 0o666, 0o602] as [mode_t] {
            chmod(tokenFile, mode)
            let serve = try GlanceCLI.run(["serve", "--config", config, "--db", scratch.db, "--listen", "127.0.0.1:0"], in: scratch, killAfter: 20)
            #expect(serve.status == 77, "mode \(String(mode, radix: 8)): \(serve.status) \(serve.err)")
            #expect(serve.err.contains("chmod 640 \(tokenFile)"), "\(serve.err)")
            let show = try GlanceCLI.run(["serve", "token", "--config", config], in: scratch, killAfter: 20)
            #expect(show.status == 77 && !show.out.contains("a-token-of"), "\(show.status) \(show.out) \(show.err)")
        }
        chmod(tokenFile, 0o640)
        let show = try GlanceCLI.run(["serve", "token", "--config", config], in: scratch, killAfter: 20)
        #expect(show.status == 0 && show.out.contains("token: a-token-of-enough-length-0123"), "\(show.err)")
    }

    @Test("metric and task names in the path are decoded once: %25 is %, + is +, %00 refused")
    func pathDecodedOnce() throws {
        let server = try Server()
        let cases: [(String, Int, String?)] = [
            ("50%25", 200, "50%"), ("%2541", 200, "%41"), ("a+b", 200, "a+b"), ("cpu%20temp", 200, "cpu temp"),
            ("caf%C3%A9", 200, "café"), ("abc%00def", 400, nil), ("bad%zz", 400, nil), ("%FF", 400, nil),
        ]
        for (name, status, stored) in cases {
            let r = try server.request("PUT", "/v1/metrics/\(name)", "{\"value\": 1}", extra: ["--path-as-is"])
            #expect(r.status == status, "\(name): \(r)")
            if let stored { #expect(r.body.contains("\"name\":\"\(stored)\""), "\(name): \(r.body)") }
        }
        let store = try Store(path: server.scratch.db, access: .read)
        #expect(Set(try store.metrics().map(\.name)) == ["50%", "%41", "a+b", "cpu temp", "café"])
        server.expectAnswersAndStops()
    }

    @Test("the Bearer scheme in any case (RFC 9110); HEAD answered as GET without a body")
    func schemeAndHead() throws {
        let server = try Server()
        for scheme in ["bearer", "BEARER", "Bearer", "bEaReR"] {
            let r = try server.request("GET", "/v1/metrics", authorization: .some("\(scheme) \(server.token)"))
            #expect(r.status == 200, "\(scheme): \(r)")
        }
        #expect(try server.request("GET", "/v1/metrics", authorization: .some("Bearer  \(server.token)")).status == 200, "spaces after the scheme")
        #expect(try server.request("GET", "/v1/metrics", authorization: .some("Bearerx \(server.token)")).status == 401)
        let head = try server.request("HEAD", "/v1/health", authorization: .some(nil), extra: ["-I"])
        #expect(head.status == 200 && !head.body.contains("\"ok\""), "\(head)")
        let metrics = try server.request("HEAD", "/v1/metrics", extra: ["-I"])
        #expect(metrics.status == 200, "\(metrics)")
        let refused = try server.request("DELETE", "/v1/metrics", extra: ["-D", "-"])
        #expect(refused.status == 405 && refused.body.contains("Allow: GET, HEAD"), "\(refused)")
        server.expectAnswersAndStops()
    }

    @Test("401s are rate-limited like any request, and refusals fill the log only so far")
    func refusalsBounded() throws {
        let server = try Server(serve: ", \"perSecond\": 5")
        let url = "http://127.0.0.1:\(server.port)/v1/metrics"
        let codes = try GlanceCLI.run(
            ["-s", "-o", "/dev/null", "-w", "%{http_code}\n", "-H", "Authorization: Bearer wrong-token-0123456789"]
                + Array(repeating: url, count: 300), in: server.scratch, program: "/usr/bin/curl")
        let statuses = codes.out.split(separator: "\n").compactMap { Int($0) }
        #expect(statuses.count == 300)
        #expect(statuses.contains(429) && statuses.contains(401), "\(Set(statuses))")
        #expect(Set(statuses).isSubset(of: [401, 429]))
        usleep(1_100_000)
        let log = server.expectAnswersAndStops()
        let refusals = Self.lines(log).filter { $0.contains(" 401 ") || $0.contains(" 429 ") }
        #expect(refusals.count <= 30, "\(refusals.count) lines for 300 refused requests")
        #expect(log.contains("more refused requests not logged"), "the rest is counted: \(log)")
    }

    @Test("a NUL or another control character inside a text is refused with its JSON path, not stored cut short")
    func controlCharactersInTexts() throws {
        let server = try Server()
        #expect(try server.request("POST", "/v1/tasks", "{\"name\": \"backup\", \"description\": \"Starting\"}").status == 200)
        let before = try server.snapshot()
        let cases: [(String, String, String, String)] = [
            ("PATCH", "/v1/tasks/backup", "{\"description\": \"Backing up\\u0000 photos\"}", "$.description"),
            ("POST", "/v1/tasks", "{\"name\": \"b2\", \"description\": \"a\\u001b[2Jb\"}", "$.description"),
            ("POST", "/v1/tasks", "{\"name\": \"b\\u0000c\"}", "$.name"),
            ("PUT", "/v1/metrics/t", "{\"value\": 1, \"unit\": \"C\\u0000F\"}", "$.unit"),
            ("PUT", "/v1/metrics/t", "{\"value\": 1, \"unit\": \"C\\u0085F\"}", "$.unit"),
        ]
        for (method, path, body, field) in cases {
            let r = try server.request(method, path, body)
            #expect(r.status == 400 && r.body.contains(field) && r.body.contains("control character"), "\(body): \(r)")
        }
        #expect(try server.snapshot() == before, "nothing stored")
        let store = try Store(path: server.scratch.db, access: .read)
        #expect(try store.task(named: "backup")?.description == "Starting")
        server.expectAnswersAndStops()
    }

    @Test("a 3,000,000-character description is refused with its limit, within the body limit")
    func hugeDescription() throws {
        let server = try Server()
        let long = String(repeating: "W", count: 3_000_000)
        let r = try server.request("POST", "/v1/tasks", "{\"name\": \"sync\", \"description\": \"\(long)\"}")
        #expect(r.status == 400 && r.body.contains("$.description: at most"), "\(r.status) \(r.body.prefix(200))")
        #expect(try server.request("POST", "/v1/tasks", "{\"name\": \"sync\", \"description\": \"Syncing\"}").status == 200)
        let p = try server.request("PATCH", "/v1/tasks/sync", "{\"description\": \"\(long)\"}")
        #expect(p.status == 400 && p.body.contains("$.description: at most"), "\(p.status) \(p.body.prefix(200))")
        let store = try Store(path: server.scratch.db, access: .read)
        #expect(try store.task(named: "sync")?.description == "Syncing")
        server.expectAnswersAndStops()
    }

    @Test("a Health Auto Export sample on a day outside the years 1 to 9999 is named by its JSON path, not by SQLite")
    func sampleOutOfRange() throws {
        let server = try Server(environment: ["TZ": "UTC"])
        let before = try server.snapshot()
        for date in ["9999-12-31 23:59:59 -1400", "0001-01-01 00:00:00 +1400"] {
            let body = """
                {"data": {"metrics": [{"name": "active_energy", "units": "kcal", "data": [{"qty": 5, "date": "2026-11-29 10:00:00 +0100"}, {"qty": 5, "date": "\(date)"}]}]}}
                """
            let r = try server.request("POST", "/v1/health-auto-export", body)
            #expect(r.status == 400 && r.body.contains("$.data.metrics[0].data[1].date"), "\(date): \(r)")
            #expect(!r.body.contains("CHECK") && !r.body.contains(server.scratch.db), "\(r.body)")
        }
        #expect(try server.snapshot() == before)
        server.expectAnswersAndStops()
    }

    @Test("a port already taken is named in the message (69), not port 0")
    func portTaken() throws {
        let server = try Server()
        let scratch = Scratch()
        let tokenFile = scratch.write("token", server.token + "\n")
        chmod(tokenFile, 0o600)
        let config = scratch.write("config.json", "{\"serve\": {\"tokenFile\": \"\(tokenFile)\"}}")
        let second = try GlanceCLI.run(
            ["serve", "--config", config, "--db", scratch.db, "--listen", "127.0.0.1:\(server.port)"], in: scratch, killAfter: 20)
        #expect(second.status == 69, "\(second.err)")
        #expect(second.err.contains("127.0.0.1:\(server.port)") && second.err.contains("in use"), "\(second.err)")
        #expect(!second.err.contains("port 0"), "\(second.err)")
        server.expectAnswersAndStops()
    }

    @Test("the store serve creates is its group's and nobody else's, whatever the umask it was started with")
    func storeMode() throws {
        let scratch = Scratch()
        let tokenFile = scratch.write("token", "a-token-of-enough-length-0123\n")
        chmod(tokenFile, 0o600)
        let config = scratch.write("config.json", "{\"serve\": {\"tokenFile\": \"\(tokenFile)\"}}")
        let db = scratch.file("new/glance.db")
        let words = GlanceExecutable.words(["serve", "--config", config, "--db", db, "--listen", "127.0.0.1:0"])
        let (process, finish) = try GlanceCLI.start(
            ["-c", "umask 022; exec \"$@\"", "sh"] + words, in: scratch, tag: "serve", program: "/bin/sh")
        #expect(eventually(seconds: 30) { ((try? String(contentsOfFile: scratch.file("serve.err"), encoding: .utf8)) ?? "").contains("listening on") })
        var st = stat()
        #expect(stat(db, &st) == 0)
        #expect(st.st_mode & 0o007 == 0, "mode \(String(st.st_mode & 0o777, radix: 8))")
        kill(process.processIdentifier, SIGTERM)
        #expect(finish().status == 0)
    }

    @Test("serve token on loopback gives the loopback URL, not the network's addresses")
    func tokenOnLoopback() throws {
        let scratch = Scratch()
        let tokenFile = scratch.write("token", "a-token-of-enough-length-0123\n")
        chmod(tokenFile, 0o600)
        let config = scratch.write("config.json", "{\"serve\": {\"tokenFile\": \"\(tokenFile)\", \"listen\": \"127.0.0.1:8127\"}}")
        let show = try GlanceCLI.run(["serve", "token", "--config", config], in: scratch, killAfter: 20)
        #expect(show.status == 0, "\(show.err)")
        let urls = show.out.split(separator: "\n").filter { $0.hasPrefix("URL: ") }
        #expect(urls == ["URL: http://127.0.0.1:8127/v1/health-auto-export"], "\(show.out)")
        let wide = scratch.write("wide.json", "{\"serve\": {\"tokenFile\": \"\(tokenFile)\", \"listen\": \"0.0.0.0:8127\"}}")
        let all = try GlanceCLI.run(["serve", "token", "--config", wide], in: scratch, killAfter: 20)
        #expect(all.status == 0 && !all.out.contains("127.0.0.1"), "\(all.out)")
    }
}
