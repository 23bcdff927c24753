import Foundation
import TestSupport
import Testing

/// TestSupport's `Browser` (Debian's headless Chromium through chromedriver) proved against three
/// small pages a server the test starts serves (python3's http.server, with a cookie set as the
/// panel's page sets its session's): it loads a page, follows a link, fills and submits a GET
/// form, reads text and cookies, takes screenshots at a phone's and a desktop's width, runs a
/// script, and with script off the page's own script does not run. Without Chromium the suite
/// skips, or fails while every part is required (make test).
@Suite("Browser: Debian's Chromium through its WebDriver", .serialized, .enabled(if: Browser.runs, Browser.skipped), .timeLimit(.minutes(20)))
struct BrowserDriverTests {
    static func step(_ text: String) { print("browser test: \(text)") }

    @Test("script off: the page's own script does not run; a link, a GET form, text, a cookie's flags, a screenshot at a phone's width")
    func scriptOff() throws {
        let server = try PageServer()
        try withBrowser(script: false, size: .phone) { browser in
            Self.step("chromedriver on port \(browser.port), session \(browser.session), script off, \(Browser.Size.phone)")
            try browser.navigate(server.url("/"))
            Self.step("loaded \(try browser.currentURL())")
            #expect(try browser.title() == "Start")
            #expect(try browser.text("#status") == "no script ran", "the page's script ran with script off")
            #expect(try browser.source().contains("<a id=\"next\""))

            try browser.follow("a#next")
            Self.step("clicked the link: \(try browser.currentURL())")
            #expect(try browser.currentURL() == server.url("/form.html"))
            #expect(try browser.find("h1").text() == "A form")

            let field = try browser.find("input[name=q]")
            #expect(try field.attribute("value") == "old")
            try browser.fill("input[name=q]", "rings & gauges")
            #expect(try field.property("value") as? String == "rings & gauges")
            try browser.submit("form#search")
            let url = try browser.currentURL()
            Self.step("submitted the form: \(url)")
            #expect(url == server.url("/result.html?q=rings+%26+gauges&lang=en"))
            #expect(try browser.text("#done") == "Result")
            #expect(try browser.findAll("li").count == 3)
            #expect(try browser.findAll("table").isEmpty)

            // The cookie result.html set, as the panel's page sets its session's.
            let cookie = try #require(try browser.cookie("session"))
            Self.step("cookie: \(cookie)")
            #expect(cookie.value == "abc123")
            #expect(cookie.httpOnly)
            #expect(cookie.sameSite == "Strict")
            #expect(cookie.path == "/")

            let shot = try browser.screenshot(to: server.folder.file("shots/result-phone.png"))
            let size = try #require(PNG.size(shot))
            Self.step("screenshot at the phone's width: \(size.width)x\(size.height), \(shot.count) bytes")
            #expect(size.width == Browser.Size.phone.width)
            #expect(size.height > 500 && size.height <= Browser.Size.phone.height)
            #expect(FileManager.default.contents(atPath: server.folder.file("shots/result-phone.png")) == shot)

            // The test's own script runs (through DevTools): the page's did not, and its viewport is the phone's.
            #expect(try browser.eval("return document.title") as? String == "Result")
            #expect(try browser.eval("return window.innerWidth + ' ' + (navigator.maxTouchPoints > 0)") as? String == "390 true")
        }
    }

    @Test("script on: the page's script runs, eval, the window resized to a desktop's and back, a whole-page screenshot")
    func scriptOn() throws {
        let server = try PageServer()
        try withBrowser(script: true, size: .desktop) { browser in
            try browser.navigate(server.url("/"))
            #expect(try browser.text("#status") == "script ran")
            #expect(try browser.eval("return document.title + ' ' + arguments[0]", [2]) as? String == "Start 2")
            let link = try browser.find("#next")
            #expect(try browser.eval("return arguments[0].getAttribute('href')", [link.reference]) as? String == "form.html")

            let desktop = try PNG.size(browser.screenshot())
            Self.step("desktop screenshot: \(desktop.map { "\($0.width)x\($0.height)" } ?? "not a PNG")")
            #expect(desktop?.width == Browser.Size.desktop.width)
            #expect(try browser.eval("return window.innerWidth") as? Int == Browser.Size.desktop.width)

            try browser.setWindowSize(.phone)
            #expect(try browser.eval("return window.innerWidth") as? Int == Browser.Size.phone.width)
            #expect(try PNG.size(browser.screenshot())?.width == Browser.Size.phone.width)
            // The tall page, whole: as wide as the phone, taller than its window.
            try browser.navigate(server.url("/result.html?q=x"))
            let whole = try PNG.size(browser.screenshot(to: server.folder.file("shots/result-phone-whole.png"), fullPage: true))
            Self.step("whole page at the phone's width: \(whole.map { "\($0.width)x\($0.height)" } ?? "not a PNG")")
            #expect(whole?.width == Browser.Size.phone.width)
            #expect((whole?.height ?? 0) > Browser.Size.phone.height)
            try browser.setWindowSize(.desktop)
            #expect(try PNG.size(browser.screenshot())?.width == Browser.Size.desktop.width)
        }
    }

    @Test("a failed command names itself and chromedriver's message; a throw ends chromedriver and Chromium and removes the profile")
    func failuresAndClosing() throws {
        struct Thrown: Error {}
        let server = try PageServer()
        var profile = ""
        #expect(throws: Thrown.self) {
            try withBrowser(script: true, size: .phone) { browser in
                profile = browser.folder.file("profile")
                try browser.navigate(server.url("/"))
                #expect(!Browser.processes(naming: profile).isEmpty, "no Chromium process runs with the profile \(profile)")
                do {
                    _ = try browser.find("#nothing-like-this")
                    Issue.record("found an element that is not there")
                } catch let error as BrowserError {
                    Self.step("a missing element: \(error)")
                    #expect(error.command.contains("find #nothing-like-this"))
                    #expect(error.message.contains("no such element"))
                }
                throw Thrown()
            }
        }
        #expect(!profile.isEmpty)
        #expect(Browser.processes(naming: profile).isEmpty, "Chromium's processes outlived the browser: \(Browser.processes(naming: profile))")
        #expect(!FileManager.default.fileExists(atPath: profile), "the profile \(profile) is still there")
        Self.step("after the throw: no process with the profile, the profile removed")

        // A closed browser refuses commands, saying so.
        var clock = ContinuousClock.now
        let browser = try Browser(script: false, size: .phone)
        Self.step("started in \(ContinuousClock.now - clock)")
        clock = ContinuousClock.now
        browser.close()
        Self.step("closed in \(ContinuousClock.now - clock)")
        #expect(throws: BrowserError.self) { try browser.navigate(server.url("/")) }
    }
}

/// Three pages and a cookie, served by python3's http.server from a scratch folder on a free port
/// of 127.0.0.1 (an owned process, ended when the server is released).
final class PageServer: @unchecked Sendable {
    let folder = ScratchFolder("browser-pages")
    let port: Int
    private let process: OwnedProcess

    static let start = """
        <!doctype html>
        <html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
        <title>Start</title></head>
        <body><h1>Start</h1><p id="status">no script ran</p><a id="next" href="form.html">Next</a>
        <script>document.getElementById("status").textContent = "script ran"</script></body></html>
        """
    static let form = """
        <!doctype html>
        <html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
        <title>Form</title></head>
        <body><h1>A form</h1>
        <form id="search" action="result.html" method="get">
        <label>Search <input name="q" value="old"></label><input type="hidden" name="lang" value="en">
        <button type="button">Not this one</button><button>Search</button></form></body></html>
        """
    static let result = """
        <!doctype html>
        <html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
        <title>Result</title><style>body { margin: 0; font: 16px sans-serif } .tall { height: 1500px; background: #3a6 }</style></head>
        <body><p id="done">Result</p><ul><li>Move</li><li>Exercise</li><li>Stand</li></ul><div class="tall"></div></body></html>
        """
    /// http.server, with result.html's answer setting a session cookie as the panel's page does.
    static let script = """
        import functools, http.server, sys
        class Handler(http.server.SimpleHTTPRequestHandler):
            def end_headers(self):
                if self.path.startswith("/result.html"):
                    self.send_header("Set-Cookie", "session=abc123; Path=/; HttpOnly; SameSite=Strict")
                self.send_header("Cache-Control", "no-store")
                super().end_headers()
        handler = functools.partial(Handler, directory=sys.argv[2])
        http.server.ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), handler).serve_forever()
        """

    init() throws {
        folder.write("index.html", Self.start)
        folder.write("form.html", Self.form)
        folder.write("result.html", Self.result)
        let script = folder.write("server.py", Self.script)
        var failures: [String] = []
        for _ in 1...3 {
            guard let port = Loopback.freePort() else { break }
            let log = folder.file("server-\(port).log")
            _ = FileManager.default.createFile(atPath: log, contents: nil)
            let output = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
            let process = try OwnedProcess("/usr/bin/python3", [script, String(port), folder.path], standardOutput: output, standardError: output)
            try? output.close()
            if Loopback.waitForListener(port: port, seconds: 10), process.isRunning {
                self.port = port
                self.process = process
                return
            }
            process.stop(grace: 1)
            failures.append("port \(port): \((try? String(contentsOfFile: log, encoding: .utf8)) ?? "")")
        }
        throw Loopback.Failure(description: "the test's page server did not start: \(failures)")
    }

    /// SIGKILL at once: the test process's children start with SIGTERM blocked (the mask of the
    /// thread that started them), so a SIGTERM would only cost `stop`'s grace.
    deinit { process.stop(grace: 0) }

    func url(_ path: String) -> String { "http://127.0.0.1:\(port)\(path)" }
}
