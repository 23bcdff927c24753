import Foundation
import Store
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Issue 41's page end to end: a real `glance watch` panel (demo data, its control socket) and a
/// real `glance web` on loopback editing the panel's configuration file, with curl as the browser
/// (a cookie jar, the forms' fields as the pages give them). Each test has its own panel and page
/// (nothing depends on another test's saves), and ends both, checking that nothing they started is
/// left and that the page's log never held a secret it was given.
@Suite("glance web: the panel's own page, on a real panel, through curl", .serialized, .timeLimit(.minutes(10)))
struct WebPageTests {
    /// What curl got: the status, the headers (names lowercased, every Set-Cookie kept), the body.
    struct Answer: CustomStringConvertible {
        var status: Int
        var headers: [(name: String, value: String)]
        var body: Data
        var text: String { String(decoding: body, as: UTF8.self) }
        func header(_ name: String) -> String? { headers.first { $0.name == name.lowercased() }?.value }
        func all(_ name: String) -> [String] { headers.filter { $0.name == name.lowercased() }.map(\.value) }
        /// What a page says is wrong: its alerts (a field's problem, the list of problems, a notice).
        var problems: [String] {
            text.components(separatedBy: "role=\"alert\">").dropFirst().map { part in
                WebPageTests.unescape(
                    part.components(separatedBy: "</p>")[0].replacingOccurrences(
                        of: "<[^>]*>", with: " ", options: .regularExpression))
            }
        }
        var description: String {
            let type = header("content-type") ?? ""
            return "\(status) "
                + (type.hasPrefix("text/html")
                    ? "\(problems)" : type.hasPrefix("text/") ? text : "\(body.count) bytes of \(type)")
        }
    }

    /// A running panel and its page, with a browser's cookie jar.
    final class Page {
        let scratch = Scratch()
        let socketFolder = PanelQRCodeTests.SocketFolder()
        var socket: String { socketFolder.path + "/glance.sock" }
        var config: String { scratch.file("config.json") }
        var linkFile: String { scratch.file("web-login") }
        var jar: String { scratch.file("cookies") }
        let panel: OwnedProcess
        let web: OwnedProcess
        var port = 0
        /// Every secret the page was given or gave: none may be in its log.
        var secrets: [String] = []
        private var count = 0

        /// The file the panel and the page start with, given the store and the link's file: odd
        /// spacing, an escape, a number spelled as no writer would, an object on one line and one
        /// over several, as a person's hand-edited file has them, to be kept as they are. (A key
        /// the reader does not know cannot be among them: it refuses the file.)
        static func file(screens: String = "[\"rings\", \"clock\"]") -> (String, String) -> String {
            { db, linkFile in
                """
                {
                  "name":   "Gl\\u0061nce",
                    "database": "\(db)",
                  "screens": \(screens),
                  "longPressSeconds": 1.50,
                  "idle" : { "dimAfter":  600 ,
                             "blankAfter": null },
                  "serve": {"perSecond": 1000},
                  "web": {"listen": "127.0.0.1:0", "linkFile": "\(linkFile)", "sessionHours": 1}
                }

                """
            }
        }

        init(config text: (String, String) -> String = Page.file()) throws {
            let scratch = self.scratch
            let socket = socketFolder.path + "/glance.sock"
            let data = try runGlance(["demo-data", "--db", scratch.db])
            try #require(data.status == 0, "glance demo-data: \(data.output)")
            _ = scratch.write("config.json", text(scratch.db, scratch.file("web-login")))
            let (panel, _) = try GlanceCLI.start(
                [
                    "watch", "--config", scratch.file("config.json"), "--socket", socket, "-o",
                    scratch.file("watch.png"), "--size", "240x240",
                ],
                in: scratch, tag: "watch")
            self.panel = panel
            let panelUp = eventually(seconds: 30) {
                !panel.isRunning || Self.read(scratch.file("watch.err")).contains("control socket ")
            }
            guard panel.isRunning && panelUp else {
                web = panel  // (none started: the panel ends with the page)
                throw Failure("glance watch did not start: \(Self.read(scratch.file("watch.err")))")
            }
            let (web, _) = try GlanceCLI.start(
                ["web", "--config", scratch.file("config.json"), "--socket", socket], in: scratch, tag: "web")
            self.web = web
            let marker = "the panel's page on 127.0.0.1:"
            let webUp = eventually(seconds: 30) {
                !web.isRunning || Self.read(scratch.file("web.err")).contains(marker)
            }
            let log = Self.read(scratch.file("web.err"))
            try #require(web.isRunning && webUp, "glance web did not start: \(log)")
            port = Int(log.components(separatedBy: marker)[1].prefix { $0.isNumber }) ?? 0
            try #require(port > 0, "\(log)")
        }

        static func read(_ path: String) -> String { (try? String(contentsOfFile: path, encoding: .utf8)) ?? "" }
        var webLog: String { Self.read(scratch.file("web.err")) }
        var panelLog: String { Self.read(scratch.file("watch.err")) }
        var origin: String { "http://127.0.0.1:\(port)" }
        func fileBytes() -> Data? { FileManager.default.contents(atPath: config) }

        /// A request as a browser makes it: `cookies` sends the jar (and keeps what is set in it).
        func curl(
            _ method: String = "GET", _ path: String, form: [(String, String)]? = nil, raw: Data? = nil,
            cookies: Bool = true,
            headers: [String] = []
        ) throws -> Answer {
            count += 1
            let head = scratch.file("answer-\(count).head")
            let body = scratch.file("answer-\(count).body")
            var arguments = [
                "-s", "-S", "--max-time", "30", "-X", method, "-D", head, "-o", body, "-w", "%{http_code}",
            ]
            if cookies { arguments += ["-b", jar, "-c", jar] }
            for h in headers { arguments += ["-H", h] }
            if let data = raw ?? form.map({ Data(WebPageTests.encode($0).utf8) }) {
                let file = scratch.file("request-\(count)")
                _ = FileManager.default.createFile(atPath: file, contents: data)
                // (curl's own Content-Type for --data-binary is the form's; a header given replaces it)
                arguments += ["--data-binary", "@" + file]
            }
            arguments.append(path.hasPrefix("http") ? path : origin + path)
            let r = try runProcess("/usr/bin/curl", arguments, seconds: 40)
            try #require(r.status == 0, "curl \(method) \(path): \(r.output)")
            var found: [(String, String)] = []
            for line in Self.read(head).split(separator: "\r\n") {
                guard let colon = line.firstIndex(of: ":") else { continue }
                found.append(
                    (
                        line[..<colon].lowercased(),
                        line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                    ))
            }
            return Answer(
                status: Int(r.stdout) ?? 0, headers: found, body: FileManager.default.contents(atPath: body) ?? Data())
        }

        /// A new one-time link (`glance web link`): its secret and the link.
        func newLink() throws -> (secret: String, link: String) {
            let r = try runGlance(["web", "link", "--config", config, "--url", origin])
            try #require(r.status == 0, "glance web link: \(r.output)")
            let link = String(r.stdout.split(separator: "\n").first ?? "")
            let secret = String(link.components(separatedBy: "/login?t=").last ?? "")
            try #require(link == origin + "/login?t=" + secret && secret.count >= 16, "\(r.stdout)")
            secrets.append(secret)
            return (secret, link)
        }

        /// Signs in with a new link: the session cookie in the jar.
        @discardableResult
        func signIn() throws -> Answer {
            let answer = try curl("GET", try newLink().link)
            try #require(answer.status == 303, "\(answer)")
            if let cookie = sessionCookie() { secrets.append(cookie) }
            return answer
        }

        /// The session cookie's value in the jar.
        func sessionCookie() -> String? {
            for line in Self.read(jar).split(separator: "\n") where line.contains("\tglance_session\t") {
                let value = String(line.split(separator: "\t", omittingEmptySubsequences: false).last ?? "")
                return value.isEmpty ? nil : value
            }
            return nil
        }

        /// The CSRF token of the forms of `path`.
        func csrf(_ path: String = "/about") throws -> String {
            let page = try curl("GET", path)
            try #require(page.status == 200, "\(page)")
            let token = try #require(
                WebPageTests.attribute("value", after: "name=\"csrf\"", in: page.text), "no CSRF field: \(page)")
            if !secrets.contains(token) { secrets.append(token) }
            return token
        }

        func state() throws -> String {
            let answer = try curl("GET", "/state")
            try #require(answer.status == 200, "\(answer)")
            return answer.text.trimmingCharacters(in: .newlines)
        }

        /// `glance screenshot` of the panel: the PNG's bytes.
        func screenshot() throws -> Data {
            let file = scratch.file("shot-\(count).png")
            count += 1
            let r = try runGlance(["screenshot", "--socket", socket, "-o", file])
            try #require(r.status == 0, "glance screenshot: \(r.output)")
            return try #require(FileManager.default.contents(atPath: file))
        }

        /// Ends the page and the panel (SIGTERM: each says so and exits 0), then checks that no
        /// process of theirs is left and that the page's log holds no secret.
        func finish(sourceLocation: SourceLocation = #_sourceLocation) {
            let pids = [web.processIdentifier, panel.processIdentifier]
            for process in [web, panel] {
                kill(process.processIdentifier, SIGTERM)
                process.waitUntilExit(seconds: 20, sourceLocation: sourceLocation)
                #expect(
                    process.terminationReason == .exit && process.terminationStatus == 0,
                    "\(process.name): \(process.terminationReason == .exit ? "status" : "signal") \(process.terminationStatus)",
                    sourceLocation: sourceLocation)
            }
            #expect(webLog.contains("SIGTERM: stopped"), "\(webLog)", sourceLocation: sourceLocation)
            // Nothing they started is left: no process in their process groups (each leads one),
            // none of them among the tests' running processes.
            let left = SpawnedProcesses.left().filter { pids.contains($0.pid) }
            #expect(left.isEmpty, "still running: \(left)", sourceLocation: sourceLocation)
            let groups = WebPageTests.processes(inGroups: pids)
            #expect(groups.isEmpty, "left in their process groups: \(groups)", sourceLocation: sourceLocation)
            let log = webLog
            for secret in secrets where log.contains(secret) {
                Issue.record(
                    "glance web's log holds a secret (\(secret.prefix(4))…): \(log)", sourceLocation: sourceLocation)
            }
        }
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    // MARK: Helpers

    /// `name=value&…` as a browser encodes a form (every byte but the unreserved ones as %XX, a
    /// space as +).
    static func encode(_ fields: [(String, String)]) -> String {
        func escape(_ s: String) -> String {
            var out = ""
            for b in s.utf8 {
                switch b {
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                    UInt8(ascii: "0")...UInt8(ascii: "9"),
                    UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "*"):
                    out.unicodeScalars.append(Unicode.Scalar(b))
                case UInt8(ascii: " "): out += "+"
                default: out += String(format: "%%%02X", b)
                }
            }
            return out
        }
        return fields.map { escape($0.0) + "=" + escape($0.1) }.joined(separator: "&")
    }

    /// The value of the first `name="…"` attribute after `marker` in `text`.
    static func attribute(_ name: String, after marker: String, in text: String) -> String? {
        guard let at = text.range(of: marker) else { return nil }
        let rest = text[at.upperBound...]
        guard let start = rest.range(of: name + "=\""), let end = rest[start.upperBound...].firstIndex(of: "\"") else {
            return nil
        }
        return unescape(String(rest[start.upperBound..<end]))
    }

    static func unescape(_ s: String) -> String {
        s.replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&#39;", with: "'")
            .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&amp;", with: "&")
    }

    /// The fields a browser sends for the `number`th form posting to `action` in `page`: every
    /// named input with its value, every textarea's text, every select's chosen option (the
    /// first when none is), in order; buttons are not sent (the caller adds the one pressed).
    static func formFields(_ page: String, action: String, number: Int = 0) throws -> [(String, String)] {
        let forms = page.components(separatedBy: "<form method=\"post\" action=\"\(action)\"").dropFirst()
        try #require(forms.count > number, "no form \(number) to \(action)")
        let form = forms[forms.startIndex + number].components(separatedBy: "</form>")[0]
        let pattern = try NSRegularExpression(
            pattern: "<input\\b[^>]*>|<textarea\\b([^>]*)>(.*?)</textarea>|<select\\b([^>]*)>(.*?)</select>",
            options: [.dotMatchesLineSeparators])
        var fields: [(String, String)] = []
        let ns = form as NSString
        for match in pattern.matches(in: form, range: NSRange(location: 0, length: ns.length)) {
            let whole = ns.substring(with: match.range)
            guard let name = attribute("name", after: "<", in: whole) else { continue }
            if whole.hasPrefix("<input") {
                fields.append((name, attribute("value", after: "<", in: whole) ?? ""))
            } else if whole.hasPrefix("<textarea") {
                var text = ns.substring(with: match.range(at: 2))
                if text.hasPrefix("\n") { text.removeFirst() }  // as HTML reads a textarea
                fields.append((name, unescape(text)))
            } else {
                let options = ns.substring(with: match.range(at: 4)).components(separatedBy: "<option").dropFirst()
                let chosen = options.first { $0.contains(" selected") } ?? options.first
                fields.append((name, chosen.flatMap { attribute("value", after: "<", in: "<" + $0) } ?? ""))
            }
        }
        return fields
    }

    /// `fields` with `name` set to `value` (added when it is not there).
    static func setting(_ fields: [(String, String)], _ name: String, _ value: String) -> [(String, String)] {
        var out = fields
        if let i = out.firstIndex(where: { $0.0 == name }) { out[i].1 = value } else { out.append((name, value)) }
        return out
    }

    /// The processes (pid and command) whose process group is one of `groups`.
    static func processes(inGroups groups: [Int32]) -> [String] {
        var found: [String] = []
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
            guard let pid = Int32(entry), let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                let close = text.lastIndex(of: ")")
            else { continue }
            let fields = text[text.index(after: close)...].split(separator: " ")
            // state ppid pgrp
            guard fields.count > 2, fields[0] != "Z", let group = Int32(fields[2]), groups.contains(group) else {
                continue
            }
            found.append("\(pid) \(text[..<close])")
        }
        return found
    }

    /// The config file as JSON.
    static func json(_ data: Data?) throws -> [String: Any] {
        let data = try #require(data)
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    static func screen(_ state: String) -> String? {
        state.split(separator: " ").first { $0.hasPrefix("screen=") }.map { String($0.dropFirst(7)) }
    }

    static func screens(_ state: String) -> String? {
        state.split(separator: " ").first { $0.hasPrefix("screens=") }.map { String($0.dropFirst(8)) }
    }

    // MARK: Signing in

    @Test(
        "sign-in: only by a fresh one-time link, once; the cookie HttpOnly and SameSite=Strict; signed out, the old cookie is refused"
    )
    func signingIn() throws {
        let page = try Page()
        defer { page.finish() }
        // Nobody signed in: the sign-in page for a page, 403 for a form, nothing set.
        var r = try page.curl("GET", "/")
        #expect(r.status == 401 && r.text.contains("Sign in"), "\(r)")
        r = try page.curl("GET", "/frame.png")
        #expect(
            r.status == 401 && r.header("content-type")?.hasPrefix("text/html") == true, "no frame for nobody: \(r)")
        r = try page.curl("POST", "/do", form: [("action", "next")])
        #expect(r.status == 403, "\(r)")
        r = try page.curl("POST", "/settings", form: [("group", "top"), ("screens", "[\"clock\"]")])
        #expect(r.status == 403, "\(r)")

        // A wrong secret, while a link is out: refused, and the right one still opens.
        let (secret, link) = try page.newLink()
        let wrong = String(secret.reversed())
        page.secrets.append(wrong)
        r = try page.curl("GET", "/login?t=" + wrong)
        #expect(r.status == 403 && r.all("set-cookie").isEmpty, "\(r)")
        r = try page.curl("GET", "/login")
        #expect(r.status == 403 && r.all("set-cookie").isEmpty, "no secret: \(r)")
        r = try page.curl("GET", link)
        #expect(r.status == 303 && r.header("location") == "/", "\(r)")
        let cookie = try #require(r.all("set-cookie").first { $0.hasPrefix("glance_session=") }, "\(r.headers)")
        let attributes = cookie.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(
            attributes.contains("HttpOnly") && attributes.contains("SameSite=Strict") && attributes.contains("Path=/"),
            "\(cookie)")
        let session = try #require(page.sessionCookie())
        page.secrets.append(session)
        #expect(cookie.hasPrefix("glance_session=\(session);") && session.count >= 16)
        #expect(!FileManager.default.fileExists(atPath: page.linkFile), "the link's file is gone once it opened")
        r = try page.curl("GET", "/")
        #expect(r.status == 200 && r.text.contains("name=\"csrf\""), "signed in: \(r)")

        // The same link again (in another browser: no cookie): refused.
        r = try page.curl("GET", link, cookies: false)
        #expect(r.status == 403 && r.all("set-cookie").isEmpty, "a link opens once: \(r)")

        // A link past its time, as glance web link leaves it ("SECRET EXPIRES\n"): refused, though
        // the secret is right.
        let stale = "Zq3" + String(repeating: "x7", count: 14)
        page.secrets.append(stale)
        let past = Int(Date().timeIntervalSince1970) - 5
        try "\(stale) \(past)\n".write(toFile: page.linkFile, atomically: true, encoding: .utf8)
        r = try page.curl("GET", "/login?t=" + stale, cookies: false)
        #expect(r.status == 403 && r.all("set-cookie").isEmpty, "expired: \(r)")
        // The same secret with its time still to come opens (the refusal was the time's).
        try "\(stale) \(past + 600)\n".write(toFile: page.linkFile, atomically: true, encoding: .utf8)
        r = try page.curl("GET", "/login?t=" + stale, cookies: false)
        #expect(r.status == 303 && r.all("set-cookie").contains { $0.hasPrefix("glance_session=") }, "\(r)")
        for c in r.all("set-cookie") {
            page.secrets.append(String(c.prefix { $0 != ";" }.dropFirst("glance_session=".count)))
        }

        // Signing out: the old cookie opens nothing.
        let token = try page.csrf()
        r = try page.curl("POST", "/signout", form: [("csrf", token)])
        #expect(r.status == 303 && r.header("location")?.hasPrefix("/") == true, "\(r)")
        #expect(
            r.all("set-cookie").contains { $0.hasPrefix("glance_session=;") && $0.contains("Max-Age=0") },
            "\(r.headers)")
        let old = "Cookie: glance_session=\(session)"
        r = try page.curl("GET", "/", cookies: false, headers: [old])
        #expect(r.status == 401 && r.text.contains("Sign in"), "\(r)")
        r = try page.curl("GET", "/state", cookies: false, headers: [old])
        #expect(r.status == 401, "\(r)")
        r = try page.curl("POST", "/do", form: [("csrf", token), ("action", "next")], cookies: false, headers: [old])
        #expect(r.status == 403, "\(r)")
        #expect(page.webLog.contains("signed in from 127.0.0.1 with the one-time link"), "\(page.webLog)")
    }

    // MARK: The live view

    @Test(
        "the live view: frame.png is glance screenshot's PNG; its ETag answers 304; next changes the frame and the state"
    )
    func liveView() throws {
        let page = try Page()
        defer { page.finish() }
        try page.signIn()
        // The page's frame and the panel's screenshot, of the same moment: one taken between two
        // screenshots that are the same (the clock's minute may turn between them: taken again).
        var same = false
        var last = ""
        let framed = eventually(seconds: 20) {
            guard let before = try? page.screenshot(), let frame = try? page.curl("GET", "/frame.png"),
                let after = try? page.screenshot()
            else { return false }
            last = "\(frame.status) \(frame.body.count) bytes, screenshots \(before.count) and \(after.count) bytes"
            guard before == after else { return false }
            same = frame.status == 200 && frame.body == before
            return same
        }
        #expect(framed && same, "the page's frame is the screenshot's PNG: \(last)")

        // Its ETag: 304 with no body (asked again while the frame changes under it, within bounds).
        var notModified: Answer?
        let answered = eventually(seconds: 20) {
            guard let frame = try? page.curl("GET", "/frame.png"), frame.status == 200, let tag = frame.header("etag"),
                let again = try? page.curl("GET", "/frame.png", headers: ["If-None-Match: \(tag)"])
            else { return false }
            notModified = again
            return again.status == 304
        }
        #expect(
            answered && notModified?.body.isEmpty == true && notModified?.header("etag") != nil,
            "\(String(describing: notModified))")
        var r = try page.curl("GET", "/frame.png", headers: ["If-None-Match: \"0000000000000000\""])
        #expect(
            r.status == 200 && r.body.starts(with: [0x89, 0x50, 0x4E, 0x47]), "another ETag: the frame: \(r.status)")

        // The clock, then next: the rings (the screens are rings, clock), a frame of their own.
        // (The state changes at once; the frame when the panel has drawn it: waited for.)
        let ringsTag = try page.curl("GET", "/frame.png").header("etag")
        let token = try page.csrf("/")
        r = try page.curl("POST", "/do", form: [("csrf", token), ("action", "show"), ("screen", "clock")])
        #expect(r.status == 303 && r.header("location") == "/", "\(r)")
        let onClock = eventually(seconds: 10) { (try? page.state()).flatMap(Self.screen) == "clock" }
        #expect(onClock, "\(String(describing: try? page.state()))")
        var clockTag: String?
        let clockFrame = eventually(seconds: 10) {
            guard let frame = try? page.curl("GET", "/frame.png"), frame.status == 200,
                frame.header("etag") != ringsTag,
                let shot = try? page.screenshot(), shot == frame.body
            else { return false }
            clockTag = frame.header("etag")
            return true
        }
        #expect(clockFrame, "the clock's frame, as the panel's screenshot")
        r = try page.curl("POST", "/do", form: [("csrf", token), ("action", "next")])
        #expect(r.status == 303, "\(r)")
        var newTag: String?
        let changed = eventually(seconds: 10) {
            newTag = try? page.curl("GET", "/frame.png").header("etag")
            return newTag != nil && newTag != clockTag
        }
        #expect(changed, "the frame's ETag changed from \(String(describing: clockTag))")
        let state = try page.state()
        #expect(Self.screen(state) == "rings" && Self.screens(state) == "rings,clock", "\(state)")
        // A control out of range: refused, the panel as it was.
        r = try page.curl("POST", "/do", form: [("csrf", token), ("action", "brightness"), ("value", "101")])
        #expect(r.status == 400, "\(r)")
        r = try page.curl("POST", "/do", form: [("csrf", token), ("action", "brightness"), ("value", "40")])
        #expect(r.status == 303, "\(r)")
        let dimmed = eventually(seconds: 10) { (try? page.state())?.contains(" brightness=40 ") == true }
        #expect(dimmed, "\(String(describing: try? page.state()))")
    }

    // MARK: Hostile saves

    @Test("hostile or broken forms: refused with the right status, the file untouched and no .previous")
    func hostileSaves() throws {
        let page = try Page()
        defer { page.finish() }
        try page.signIn()
        let token = try page.csrf("/settings")
        let before = try #require(page.fileBytes())
        let stateBefore = try page.state()
        let change: [(String, String)] = [("group", "top"), ("screens", "[\"clock\"]"), ("do", "save")]
        let form = "Content-Type: application/x-www-form-urlencoded"
        var big = Data("csrf=\(token)&group=top&name=".utf8)
        big.append(Data(repeating: UInt8(ascii: "a"), count: 600 * 1024))
        // Each refused with its status (and what the page says), the file and the panel as they were.
        func refused(
            _ what: String, to path: String = "/settings", _ fields: [(String, String)]? = nil, raw: Data? = nil,
            headers: [String] = [], status: Int, says: String? = nil, sourceLocation: SourceLocation = #_sourceLocation
        ) throws {
            let r = try page.curl("POST", path, form: fields, raw: raw, headers: headers)
            #expect(r.status == status, "\(what): \(r)", sourceLocation: sourceLocation)
            if let says { #expect(r.text.contains(says), "\(what): \(r)", sourceLocation: sourceLocation) }
            #expect(page.fileBytes() == before, "\(what): the file changed", sourceLocation: sourceLocation)
            #expect(
                !FileManager.default.fileExists(atPath: page.config + ".previous"), "\(what): a .previous was written",
                sourceLocation: sourceLocation)
        }
        let ok = [("csrf", token)]
        try refused("no CSRF token", change, status: 403, says: "out of date")
        try refused(
            "a wrong CSRF token", [("csrf", String(token.reversed()))] + change, status: 403, says: "out of date")
        try refused("an empty CSRF token", [("csrf", "")] + change, status: 403)
        try refused(
            "another site's Origin", ok + change, headers: ["Origin: http://evil.example"], status: 403,
            says: "another origin")
        try refused(
            "another site's Origin, a control", to: "/do", ok + [("action", "next")],
            headers: ["Origin: http://evil.example"], status: 403)
        try refused("Origin: null", ok + change, headers: ["Origin: null"], status: 403)
        try refused(
            "Sec-Fetch-Site: cross-site", ok + change, headers: ["Sec-Fetch-Site: cross-site"], status: 403,
            says: "another site")
        try refused("Sec-Fetch-Site: same-site", ok + change, headers: ["Sec-Fetch-Site: same-site"], status: 403)
        try refused("a body over 512 KiB", raw: big, headers: [form], status: 413)
        let encoded = Data(Self.encode(ok + change).utf8)
        try refused("text/plain", raw: encoded, headers: ["Content-Type: text/plain"], status: 415)
        try refused("multipart", raw: encoded, headers: ["Content-Type: multipart/form-data; boundary=x"], status: 415)
        try refused(
            "a broken escape", raw: Data("csrf=\(token)&group=top&screens=%zz&do=save".utf8), headers: [form],
            status: 400, says: "not URL-encoded")
        try refused(
            "a name not UTF-8", raw: Data("csrf=\(token)&group=top&%FF=1&do=save".utf8), headers: [form], status: 400)
        try refused(
            "idle.dimAfter -5", ok + [("group", "idle"), ("idle.dimAfter", "-5"), ("do", "save")], status: 422,
            says: "from 1 to 86400")
        try refused(
            "display.rotate 45", ok + [("group", "display"), ("display.rotate", "45"), ("do", "save")], status: 422,
            says: "expected one of 0, 90, 180, 270")
        try refused(
            "grabInput maybe", ok + [("group", "top"), ("grabInput", "maybe"), ("do", "save")], status: 422,
            says: "expected true or false")
        try refused(
            "screens not JSON", ok + [("group", "top"), ("screens", "notjson"), ("do", "save")], status: 422,
            says: "not JSON")
        try refused(
            "a screen that is none", ok + [("group", "top"), ("screens", "[\"nope\"]"), ("do", "save")], status: 422,
            says: "nope")
        try refused(
            "an unknown group", ok + [("group", "nope"), ("screens", "[\"clock\"]"), ("do", "save")], status: 400,
            says: "no such group")
        try refused("brightness 101", to: "/do", ok + [("action", "brightness"), ("value", "101")], status: 400)
        try refused("brightness 0", to: "/do", ok + [("action", "brightness"), ("value", "0")], status: 400)
        try refused(
            "show a screen that is none", to: "/do", ok + [("action", "show"), ("screen", "nope")], status: 400)
        try refused("a gauge that is none", to: "/gauges", ok + [("do", "remove"), ("index", "7")], status: 400)
        try refused(
            "a schedule not JSON", to: "/schedule", ok + [("schedule", "[{"), ("do", "save")], status: 422,
            says: "not JSON"
        )
        // The problem named beside its field, the value typed kept for the person to correct.
        let r = try page.curl(
            "POST", "/settings", form: [("csrf", token), ("group", "idle"), ("idle.dimAfter", "-5"), ("do", "save")])
        #expect(r.text.contains("id=\"e-f-idle.dimAfter\"") && r.text.contains("value=\"-5\""), "\(r)")
        #expect(try page.curl("GET", "/settings?group=nope").status == 404)
        // The panel as it was (the refused brightness and screen changed nothing), and the page
        // still signed in: the same token works.
        #expect(try page.state() == stateBefore)
        #expect(
            try page.curl(
                "POST", "/do", form: [("csrf", token), ("action", "refresh")],
                headers: ["Origin: \(page.origin)", "Sec-Fetch-Site: same-origin"]
            ).status == 303)
    }

    // MARK: Saves

    @Test(
        "a save of the top group as a browser sends it: that key changed, the rest of the file byte for byte; the panel shows it"
    )
    func goodSave() throws {
        let page = try Page()
        defer { page.finish() }
        try page.signIn()
        let before = try #require(page.fileBytes())
        let settings = try page.curl("GET", "/settings?group=top")
        try #require(settings.status == 200, "\(settings)")
        // Every field of the group, as the page gives it, but the screens.
        var fields = try Self.formFields(settings.text, action: "/settings")
        #expect(
            fields.contains { $0.0 == "name" && $0.1 == "Glance" }
                && fields.contains { $0.0 == "longPressSeconds" && $0.1 == "1.5" }, "\(fields)")
        fields = Self.setting(fields, "screens", "[\"clock\"]")
        fields.append(("do", "save"))
        // As a browser sends a form of the page itself.
        let r = try page.curl(
            "POST", "/settings", form: fields, headers: ["Origin: \(page.origin)", "Sec-Fetch-Site: same-origin"])
        #expect(r.status == 303 && r.header("location") == "/settings?group=top", "\(r)")
        let after = String(decoding: try #require(page.fileBytes()), as: UTF8.self)
        let expected = String(decoding: before, as: UTF8.self).replacingOccurrences(
            of: "\"screens\": [\"rings\", \"clock\"],", with: "\"screens\": [\"clock\"],")
        #expect(after == expected, "only the screens changed:\n\(after)")
        #expect(FileManager.default.contents(atPath: page.config + ".previous") == before, "the file before, kept")
        // The panel took it (the save waits for its answer).
        let state = try page.state()
        #expect(Self.screens(state) == "clock" && Self.screen(state) == "clock", "\(state)")
        #expect(page.panelLog.contains("reading \(page.config) again"), "\(page.panelLog)")
        // The page says so once (a request of the live view between does not take it).
        _ = try page.curl("GET", "/state")
        _ = try page.curl("GET", "/frame.png")
        let shown = try page.curl("GET", "/settings?group=top")
        #expect(shown.text.contains("Saved: the panel shows the new settings."), "the save's notice: \(shown)")
        #expect(!(try page.curl("GET", "/settings?group=top").text.contains("Saved:")), "said once")
    }

    @Test(
        "every group's form and the schedule's, sent back as the page gives them: saved, the file unchanged byte for byte"
    )
    func formsAsGiven() throws {
        let page = try Page()
        defer { page.finish() }
        try page.signIn()
        let before = try #require(page.fileBytes())
        let groups = try page.curl("GET", "/settings").text.components(separatedBy: "href=\"/settings?group=")
            .dropFirst()
            .map { String($0.prefix { $0 != "\"" }) }
        #expect(groups.count > 5 && groups.contains("top") && groups.contains("display"), "\(groups)")
        for group in groups {
            let form = try Self.formFields(try page.curl("GET", "/settings?group=\(group)").text, action: "/settings")
            let r = try page.curl("POST", "/settings", form: form + [("do", "save")])
            #expect(r.status == 303, "\(group): \(r)")
            #expect(page.fileBytes() == before, "\(group): the file changed")
        }
        let schedule = try Self.formFields(try page.curl("GET", "/schedule").text, action: "/schedule")
        let r = try page.curl("POST", "/schedule", form: schedule + [("do", "save")])
        #expect(r.status == 303 && page.fileBytes() == before, "the schedule: \(r)")
    }

    @Test(
        "a save the panel refuses (a key it has no name for): the file put back, the page says why, the panel still answers"
    )
    func refusedSave() throws {
        let page = try Page()
        defer { page.finish() }
        try page.signIn()
        let before = try #require(page.fileBytes())
        let stateBefore = try page.state()
        let settings = try page.curl("GET", "/settings?group=top")
        var fields = try Self.formFields(settings.text, action: "/settings")
        fields = Self.setting(fields, "keys", "{\"KEY_NOPE\": \"nextScreen\"}")
        fields = Self.setting(fields, "screens", "[\"clock\"]")
        fields.append(("do", "save"))
        let r = try page.curl("POST", "/settings", form: fields)
        #expect(r.status == 422, "\(r)")
        #expect(
            r.text.contains("the panel refused the new file") && r.text.contains("KEY_NOPE"), "the page says why: \(r)")
        #expect(page.fileBytes() == before, "the file before, put back byte for byte")
        // The panel: still answering, with the settings it had, and a frame.
        #expect(try page.state() == stateBefore)
        let frame = try page.curl("GET", "/frame.png")
        #expect(frame.status == 200 && frame.body.starts(with: [0x89, 0x50, 0x4E, 0x47]), "\(frame.status)")
        #expect(
            page.panelLog.contains("KEY_NOPE") && page.panelLog.contains("keeping the running configuration"),
            "\(page.panelLog)")
        #expect(page.webLog.contains("the panel refused the new file"), "\(page.webLog)")
        // Still working: a good save after it.
        let again = try Self.formFields(try page.curl("GET", "/settings?group=top").text, action: "/settings")
        let good = try page.curl(
            "POST", "/settings", form: Self.setting(again, "screens", "[\"clock\"]") + [("do", "save")])
        #expect(good.status == 303, "\(good)")
        let took = eventually(seconds: 10) { (try? page.state()).flatMap(Self.screens) == "clock" }
        #expect(took, "\(String(describing: try? page.state()))")
    }

    // MARK: Gauges

    @Test("a configuration the page cannot read (not UTF-8, or larger than a configuration may be) is never taken for an empty one: the pages say why, a save writes nothing")
    func unreadableFileNotOverwritten() throws {
        let page = try Page()
        defer { page.finish() }
        try page.signIn()
        let token = try page.csrf()
        for (name, bytes) in [
            ("not UTF-8", Data("{\"name\": \"caf\u{E9}\"}".utf8.map { $0 == 0xA9 ? 0xFF : $0 })),
            ("too large", Data(repeating: 0x20, count: (4 << 20) + 1)),
        ] {
            #expect(FileManager.default.createFile(atPath: page.config, contents: bytes))
            let shown = try page.curl("GET", "/settings")
            #expect(shown.status == 503 && shown.text.contains("nothing is changed until it can be read"), "\(name): \(shown)")
            let saved = try page.curl(
                "POST", "/settings", form: [("csrf", token), ("group", "top"), ("name", "Hall"), ("do", "save")])
            #expect(saved.status == 503, "\(name): \(saved)")
            #expect(page.fileBytes() == bytes, "\(name): the file was written over")
            #expect(!FileManager.default.fileExists(atPath: page.config + ".previous"), "\(name)")
        }
    }

    @Test("glance web link --panel: the link printed and shown on the panel as a QR code (a screenshot refused while it shows: it carries the secret); the link signs in once")
    func linkOnThePanel() throws {
        let page = try Page()
        defer { page.finish() }
        let r = try runGlance(["web", "link", "--panel", "--socket", page.socket, "--config", page.config, "--url", page.origin])
        #expect(r.status == 0, "glance web link --panel: \(r.output)")
        let link = String(r.stdout.split(separator: "\n").first ?? "")
        let secret = String(link.components(separatedBy: "/login?t=").last ?? "")
        page.secrets.append(secret)
        #expect(link == page.origin + "/login?t=" + secret && secret.count >= 16, "\(r.stdout)")
        #expect(r.stdout.contains("on the panel as a QR code"), "\(r.stdout)")
        // The panel shows it: its frame is not given away while it does (the code holds the secret).
        let shot = try runGlance(["screenshot", "--socket", page.socket, "-o", page.scratch.file("qr.png")])
        #expect(shot.status == 75 && shot.output.contains("QR code"), "glance screenshot while the link shows: \(shot.output)")
        #expect(!page.panelLog.contains(secret), "the panel's log holds the link's secret")
        // The link it shows signs in, once.
        let first = try page.curl("GET", link)
        #expect(first.status == 303, "\(first)")
        if let cookie = page.sessionCookie() { page.secrets.append(cookie) }
        let again = try page.curl("GET", link, cookies: false)
        #expect(again.status == 403, "a link opened twice: \(again)")
    }

    @Test("goals: set from today through the page (the store's history with them, shown on the page); a bad value refused with the store unchanged")
    func goals() throws {
        let page = try Page()
        defer { page.finish() }
        try page.signIn()
        let token = try page.csrf("/goals")
        func history() throws -> String { try StoreTests_snapshot(page.scratch.db) }
        let before = try history()
        // A value no day can reach: refused, named, and nothing written.
        var r = try page.curl("POST", "/goals", form: [("csrf", token), ("move", "5e9"), ("exercise", "30"), ("do", "save")])
        #expect(r.status == 422 && r.text.contains("move: expected a number from 1 to 10000"), "\(r)")
        #expect(try history() == before, "a refused goal changed the store")
        // Good goals: the store's period from today, and the page shows it as in force.
        r = try page.curl(
            "POST", "/goals", form: [("csrf", token), ("move", "640"), ("exercise", "45"), ("stand", "10"), ("steps", "9000"), ("do", "save")])
        #expect(r.status == 303 && r.header("location") == "/goals", "\(r)")
        let store = try Store(path: page.scratch.db)
        let periods = try store.goalHistory()
        let last = try #require(periods.last, "no goals in the store")
        #expect(last.goals.move?.value == 640 && last.goals.exercise == 45 && last.goals.stand == 10 && last.goals.steps == 9000, "\(last)")
        let shown = try page.curl("GET", "/goals")
        #expect(shown.text.contains("value=\"640\"") && shown.text.contains("value=\"45\""), "\(shown)")
        #expect(shown.text.contains("<th scope=\"row\">\(last.start)</th>"), "the history does not list the period")
    }

    @Test("gauges: added, edited and removed through the page's forms; the file and the panel follow")
    func gauges() throws {
        let page = try Page(config: Page.file(screens: "[\"rings\", \"gauges\"]"))
        defer { page.finish() }
        try page.signIn()
        let token = try page.csrf("/gauges")
        // No gauge yet: the gauges screen (in the file's screens) has nothing to show, and is not.
        _ = try page.curl("POST", "/do", form: [("csrf", token), ("action", "show"), ("screen", "gauges")])
        let stateBefore = try page.state()
        #expect(Self.screen(stateBefore) == "rings", "\(stateBefore)")

        // Added with the new gauge's form.
        var fields = try Self.formFields(try page.curl("GET", "/gauges").text, action: "/gauges")
        fields = Self.setting(fields, "title", "Heat")
        fields = Self.setting(fields, "unit", "°C")
        fields = Self.setting(fields, "source", "{\"metric\": \"cpu-temperature\"}")
        // (min and decimals left empty, as the form gives them: the metric's own)
        fields = Self.setting(fields, "max", "90")
        var r = try page.curl("POST", "/gauges", form: fields + [("do", "add")])
        #expect(r.status == 303 && r.header("location") == "/gauges", "\(r)")
        var file = try Self.json(page.fileBytes())
        var list = try #require(file["gauges"] as? [[String: Any]], "\(file)")
        #expect(
            list.count == 1 && list.first?["title"] as? String == "Heat" && list.first?["unit"] as? String == "°C",
            "\(list)")
        #expect((list.first?["source"] as? [String: Any])?["metric"] as? String == "cpu-temperature", "\(list)")
        #expect(
            list.first?["max"] as? Int == 90 && list.first?["min"] == nil && list.first?["decimals"] == nil, "\(list)")
        #expect(file["name"] as? String == "Glance" && file["screens"] as? [String] == ["rings", "gauges"])
        // The panel has it: its gauges screen shows now, the screens as they were.
        let shown = eventually(seconds: 10) {
            _ = try? page.curl("POST", "/do", form: [("csrf", token), ("action", "show"), ("screen", "gauges")])
            return (try? page.state()).flatMap(Self.screen) == "gauges"
        }
        let withGauge = try page.state()
        #expect(shown && Self.screens(withGauge) == Self.screens(stateBefore), "\(withGauge)")

        // Edited with its own form (the first on the page): the title only.
        let gaugesPage = try page.curl("GET", "/gauges?edit=0")
        fields = try Self.formFields(gaugesPage.text, action: "/gauges", number: 0)
        #expect(fields.contains { $0.0 == "index" && $0.1 == "0" }, "\(fields)")
        let beforeEdit = try #require(page.fileBytes())
        r = try page.curl("POST", "/gauges", form: Self.setting(fields, "title", "Warmth") + [("do", "edit")])
        #expect(r.status == 303, "\(r)")
        file = try Self.json(page.fileBytes())
        list = try #require(file["gauges"] as? [[String: Any]], "\(file)")
        #expect(
            list.count == 1 && list.first?["title"] as? String == "Warmth" && list.first?["unit"] as? String == "°C",
            "\(list)")
        let editText = String(decoding: try #require(page.fileBytes()), as: UTF8.self)
        #expect(
            editText
                == String(decoding: beforeEdit, as: UTF8.self).replacingOccurrences(of: "\"Heat\"", with: "\"Warmth\""),
            "only the title: \(editText)")

        // A bad edit: the problem named, the file as it was.
        r = try page.curl("POST", "/gauges", form: Self.setting(fields, "source", "{\"metric\": ") + [("do", "edit")])
        #expect(r.status == 422 && r.text.contains("not JSON"), "\(r)")
        #expect(String(decoding: try #require(page.fileBytes()), as: UTF8.self) == editText)

        // The range's end cleared: out of the gauge (the metric's own again), the rest kept.
        fields = try Self.formFields(try page.curl("GET", "/gauges?edit=0").text, action: "/gauges", number: 0)
        #expect(
            fields.contains { $0.0 == "max" && $0.1 == "90" } && fields.contains { $0.0 == "min" && $0.1 == "" },
            "\(fields)")
        r = try page.curl("POST", "/gauges", form: Self.setting(fields, "max", "") + [("do", "edit")])
        #expect(r.status == 303, "\(r)")
        list = try #require(try Self.json(page.fileBytes())["gauges"] as? [[String: Any]])
        #expect(list.count == 1 && list.first?["max"] == nil && list.first?["title"] as? String == "Warmth", "\(list)")

        // Removed.
        r = try page.curl("POST", "/gauges", form: [("csrf", token), ("do", "remove"), ("index", "0")])
        #expect(r.status == 303, "\(r)")
        file = try Self.json(page.fileBytes())
        #expect((file["gauges"] as? [Any])?.isEmpty ?? true, "\(file)")
        #expect(
            file["screens"] as? [String] == ["rings", "gauges"]
                && (file["idle"] as? [String: Any])?["dimAfter"] as? Int == 600)
        // The panel without it: off the gauges screen, which cannot be shown again.
        let gone = eventually(seconds: 10) { (try? page.state()).flatMap(Self.screen) == "rings" }
        _ = try page.curl("POST", "/do", form: [("csrf", token), ("action", "show"), ("screen", "gauges")])
        let after = try page.state()
        #expect(gone && Self.screen(after) == "rings", "\(after)")
    }

    // MARK: The log

    @Test("the page's log: each request said, never a link's secret, a session cookie or a CSRF token")
    func logKeepsNoSecrets() throws {
        let page = try Page()
        defer { page.finish() }
        // Secrets in every place a request carries them: queries, cookies, forms.
        let (secret, link) = try page.newLink()
        _ = try page.curl("GET", "/login?t=\(secret)x")
        #expect(try page.curl("GET", link).status == 303)
        _ = try page.curl("GET", "/login?t=\(secret)&t=\(secret)", cookies: false)
        let session = try #require(page.sessionCookie())
        page.secrets.append(session)
        let token = try page.csrf("/")
        _ = try page.curl("POST", "/do", form: [("csrf", token), ("action", "refresh")])
        _ = try page.curl("POST", "/do", form: [("csrf", token + "x"), ("action", "refresh")])
        _ = try page.curl("GET", "/nowhere?t=\(secret)&session=\(session)")
        _ = try page.curl("GET", "/", cookies: false, headers: ["Cookie: glance_session=\(session)x"])
        _ = try page.curl(
            "POST", "/settings",
            form: [("csrf", token), ("group", "top"), ("screens", "[\"\(secret)\"]"), ("do", "save")])
        _ = try page.curl("GET", "/language?to=\(session)")
        let log = page.webLog
        #expect(
            log.contains("signed in from 127.0.0.1") && log.contains("POST /do 303 from 127.0.0.1"),
            "the requests are said: \(log)")
        #expect(log.contains("GET /login"), "\(log)")
        // (finish checks every secret against the whole log)
    }
}
