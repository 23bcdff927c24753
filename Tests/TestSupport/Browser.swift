import Foundation
import Testing

/// Debian's Chromium, headless, driven through its WebDriver (chromedriver, in chromium-driver):
/// the tests of the panel's web page load it, follow its links, fill and submit its forms, read
/// it, take its screenshots at a phone's and a desktop's width, and read its cookies, as a person's
/// browser would, with script on or off.
///
/// A `Browser` starts its own chromedriver (an `OwnedProcess` on a free port of 127.0.0.1) and one
/// session of Chromium with a fresh profile in a scratch folder; `close()` (or its release, or
/// `withBrowser`'s end on every path) deletes the session, ends chromedriver and whatever it left
/// (the processes with that profile on their command line), and removes the folder. Every command
/// is a blocking W3C WebDriver request within `commandSeconds` (and given up when the test's time
/// is up); a failure is a thrown `BrowserError` naming the command and chromedriver's message.
///
///     try withBrowser(script: false, size: .phone) { browser in
///         try browser.navigate("http://127.0.0.1:\(port)/")
///         try browser.find("a#next").click()
///         try browser.find("input[name=q]").type("rings")
///         try browser.submit("form#search")
///         #expect(try browser.currentURL().hasSuffix("?q=rings"))
///         try browser.screenshot(to: folder.file("search-phone.png"))
///     }
///
/// Chromium is installed from Debian by the project's dependency step (tools/debian-packages.txt:
/// chromium, chromium-driver); nothing is downloaded beyond apt. Where it is missing, `problem`
/// says so: a suite skips then, or fails while every part is required (`Browser.unavailable`).
public final class Browser: @unchecked Sendable {
    /// The programs (Debian's paths).
    public static let chromium = "/usr/bin/chromium"
    public static let chromedriver = "/usr/bin/chromedriver"

    /// Why no browser can run here, or nil.
    public static let problem: String? = {
        let missing = [chromium, chromedriver].filter { !FileManager.default.isExecutableFile(atPath: $0) }
        guard !missing.isEmpty else { return nil }
        return "\(missing.joined(separator: " and ")) missing: make deps installs Debian's chromium and chromium-driver (tools/debian-packages.txt)"
    }()

    /// Whether a browser suite runs: when Chromium is here, and also when it is not while every
    /// part is required (GLANCE_REQUIRE_ALL_PARTS, make test's default), so that its tests fail
    /// saying why (`Browser(...)` throws `problem`). For `.enabled(if: Browser.runs, Browser.skipped)`.
    public static let runs: Bool = problem == nil || RunSwitch.required()
    /// The skip's reason (a plain value: Swift 6.0 crashes on string interpolation in a trait).
    public static let skipped = Comment(rawValue: "browser tests skipped: " + (problem ?? "") + " (GLANCE_REQUIRE_ALL_PARTS is off)")

    /// The page's viewport in CSS pixels, and whether it is a phone's (a mobile viewport: the
    /// page's `<meta name="viewport">` is followed, as a phone's browser follows it; without one
    /// the page is laid out 980 wide and shrunk, as there).
    public struct Size: Sendable, Equatable, CustomStringConvertible {
        public var width: Int
        public var height: Int
        public var mobile: Bool
        public init(width: Int, height: Int, mobile: Bool = false) {
            self.width = width
            self.height = height
            self.mobile = mobile
        }
        /// A phone held upright (an iPhone 12 to 15's 390x844).
        public static let phone = Size(width: 390, height: 844, mobile: true)
        public static let desktop = Size(width: 1280, height: 900)
        public var description: String { "\(width)x\(height)\(mobile ? " (mobile)" : "")" }
    }

    /// The longest any one command waits.
    public let commandSeconds: Double
    /// chromedriver's port on 127.0.0.1.
    public let port: Int
    public let scriptEnabled: Bool
    /// The session's id.
    public let session: String
    /// The scratch folder: the profile (`profile/`) and chromedriver's log (`chromedriver.log`).
    public let folder: ScratchFolder

    private let driver: OwnedProcess
    private let lock = NSLock()
    private var closed = false

    /// Starts chromedriver and a session of headless Chromium at `size` (the window's), with
    /// script on or off. Waits at most `startSeconds` for chromedriver to be ready and as long
    /// for the session.
    public init(script: Bool = true, size: Size = .desktop, commandSeconds: Double = 30, startSeconds: Double = 20) throws {
        if let problem = Self.problem { throw BrowserError(command: "start", message: problem) }
        self.commandSeconds = commandSeconds
        scriptEnabled = script
        folder = ScratchFolder("browser")
        let profile = folder.file("profile")
        // A port free now may be taken before chromedriver binds it: then it ends at once, and
        // another is tried.
        var started: (OwnedProcess, Int)?
        var failures: [String] = []
        for attempt in 1...3 {
            guard let port = Loopback.freePort() else { throw BrowserError(command: "start", message: "no free port on 127.0.0.1") }
            let log = folder.file("chromedriver-\(attempt).log")
            _ = FileManager.default.createFile(atPath: log, contents: nil)
            let output = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
            let process = try OwnedProcess(Self.chromedriver, ["--port=\(port)"], standardOutput: output, standardError: output)
            try? output.close()
            if let why = Self.waitUntilReady(process, port: port, seconds: startSeconds) {
                process.stop(grace: 1)
                let said = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
                failures.append("port \(port): \(why); its output: \(said.suffix(600))")
                if Task.isCancelled { break }
                continue
            }
            started = (process, port)
            break
        }
        guard let (process, port) = started else {
            throw BrowserError(command: "start chromedriver", message: failures.joined(separator: "\n"))
        }
        driver = process
        self.port = port
        var arguments = [
            "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
            "--window-size=\(size.width),\(size.height)", "--user-data-dir=\(profile)",
            "--no-first-run", "--no-default-browser-check", "--disable-background-networking",
            "--disable-component-update", "--disable-sync", "--disable-extensions", "--mute-audio",
            "--force-device-scale-factor=1", "--lang=en-US",
        ]
        if !script { arguments.append("--blink-settings=scriptEnabled=false") }
        let options: [String: Any] = [
            "binary": Self.chromium,
            "args": arguments,
            // No page's script either way of turning it off (the content setting; the blink setting above).
            "prefs": script ? [:] : ["profile.managed_default_content_settings.javascript": 2],
        ]
        let timeouts = ["pageLoad": Int(commandSeconds * 1000), "script": Int(commandSeconds * 1000), "implicit": 0]
        let capabilities: [String: Any] = [
            "capabilities": ["alwaysMatch": ["browserName": "chrome", "timeouts": timeouts, "goog:chromeOptions": options]]
        ]
        do {
            let value = try Self.call(port: port, "POST", "/session", capabilities, command: "new session", seconds: max(commandSeconds, 60))
            guard let id = (value as? [String: Any])?["sessionId"] as? String else {
                throw BrowserError(command: "new session", message: "no sessionId in \(value ?? "nothing")")
            }
            session = id
            try setWindowSize(size)
        } catch {
            process.stop(grace: 1)
            Self.endLeftovers(profile: profile)
            throw error
        }
    }

    deinit { close() }

    /// Deletes the session (Chromium quits), ends chromedriver and any process still running
    /// with this browser's profile, and removes the scratch folder (with the folder's release).
    /// Safe to call again.
    public func close() {
        lock.lock()
        let was = closed
        closed = true
        lock.unlock()
        guard !was else { return }
        _ = try? Self.call(port: port, "DELETE", "/session/\(session)", nil, command: "delete session", seconds: 10)
        // chromedriver leaves at its /shutdown (SIGTERM it ignores, for seconds): then SIGTERM and SIGKILL.
        _ = try? Self.call(port: port, "GET", "/shutdown", nil, command: "shutdown", seconds: 5)
        driver.wait(seconds: 3)
        driver.stop(grace: 1)
        Self.endLeftovers(profile: folder.file("profile"))
    }

    // MARK: Pages

    /// Loads `url` and waits until it has loaded.
    public func navigate(_ url: String) throws {
        try command("POST", "url", ["url": url], "navigate to \(url)")
    }

    public func currentURL() throws -> String {
        try string(command("GET", "url", nil, "current URL"), "current URL")
    }

    public func title() throws -> String {
        try string(command("GET", "title", nil, "title"), "title")
    }

    /// The page's HTML as the browser has it now.
    public func source() throws -> String {
        try string(command("GET", "source", nil, "page source"), "page source")
    }

    public func back() throws { try command("POST", "back", [:], "back") }
    public func refresh() throws { try command("POST", "refresh", [:], "refresh") }

    // MARK: Elements

    /// The first element matching the CSS `selector`; throws (no such element) when none does.
    public func find(_ selector: String) throws -> Element {
        let value = try command("POST", "element", ["using": "css selector", "value": selector], "find \(selector)")
        return try Element(browser: self, value: value, selector: selector)
    }

    /// Every element matching the CSS `selector` (none: empty).
    public func findAll(_ selector: String) throws -> [Element] {
        let value = try command("POST", "elements", ["using": "css selector", "value": selector], "find all \(selector)")
        return try (value as? [Any] ?? []).map { try Element(browser: self, value: $0, selector: selector) }
    }

    /// Clicks the first element matching `selector` (a click that leads to another page: `follow`).
    public func click(_ selector: String) throws { try find(selector).click() }

    /// Clicks the first element matching `selector`, a link, and waits for the page it leads to.
    public func follow(_ selector: String) throws {
        let link = try find(selector)
        try waitForNewPage("follow \(selector)") { try link.click() }
    }

    /// Runs `action` (a click, a key) that leads to another page, and waits until the browser
    /// shows a new document, within `commandSeconds`: the page before gone (its root element
    /// stale). A click's own wait is not enough: chromedriver may answer before the navigation it
    /// started is under way, and the next command then still sees the page before (seen: the
    /// address of a form's page read after its submit button was clicked).
    public func waitForNewPage(_ what: String = "a new page", after action: () throws -> Void) throws {
        let before = try find("html")
        try action()
        let deadline = ContinuousClock.now + .milliseconds(Int(commandSeconds * 1000))
        while true {
            do {
                _ = try before.tagName()
            } catch let error as BrowserError
                where error.message.hasPrefix("stale element reference") || error.message.hasPrefix("no such element")
                // (chromedriver's words while the old document is being replaced)
                || error.message.contains("does not belong to the document")
            {
                return
            }
            if ContinuousClock.now >= deadline || Task.isCancelled {
                throw BrowserError(command: what, message: "no new page within \(Int(commandSeconds)) s: still \((try? currentURL()) ?? "?")")
            }
            usleep(20_000)
        }
    }

    /// Empties the field matching `selector` and types `text` into it.
    public func fill(_ selector: String, _ text: String) throws {
        let field = try find(selector)
        try field.clear()
        try field.type(text)
    }

    /// Submits the form matching `selector` as a person does: clicks its first submit button
    /// (`button` without a type or of type submit, `input[type=submit]`), and waits for the page
    /// it leads to (`waitForNewPage`).
    public func submit(_ selector: String) throws {
        let form = try find(selector)
        let buttons = try form.findAll("button, input[type=submit], input[type=image]")
        for button in buttons {
            let type = try button.attribute("type")?.lowercased() ?? "submit"
            if ["submit", "image"].contains(type) { return try waitForNewPage("submit \(selector)") { try button.click() } }
        }
        throw BrowserError(command: "submit \(selector)", message: "the form has no submit button")
    }

    /// The text of the first element matching `selector`, as it is rendered.
    public func text(_ selector: String) throws -> String { try find(selector).text() }

    // MARK: The window and screenshots

    /// Sets the page's viewport to `size` exactly (the width the page is laid out at, the size of
    /// a screenshot), for this page and the ones after. The window alone cannot: headless
    /// Chromium keeps a window at least 500 wide and takes a browser's toolbar off its height, so
    /// the viewport is DevTools' device metrics (scale 1), the window set about as large.
    public func setWindowSize(_ size: Size) throws {
        try command("POST", "window/rect", ["width": max(size.width, 500), "height": size.height], "set the window to \(size)")
        try cdp("Emulation.setDeviceMetricsOverride", [
            "width": size.width, "height": size.height, "deviceScaleFactor": 1, "mobile": size.mobile,
        ])
        try cdp("Emulation.setTouchEmulationEnabled", ["enabled": size.mobile, "maxTouchPoints": size.mobile ? 5 : 1])
        viewport = size
    }

    /// The viewport the page has now (`setWindowSize`).
    public private(set) var viewport: Size = .desktop

    /// A PNG of what the window shows (the viewport); with `fullPage`, of the whole page at the
    /// window's width (taller when the page is; wider only when something sticks out of it).
    public func screenshot(fullPage: Bool = false) throws -> Data {
        let encoded: String
        if fullPage {
            let metrics = try cdp("Page.getLayoutMetrics")
            let content = (metrics["cssContentSize"] ?? metrics["contentSize"]) as? [String: Any] ?? [:]
            let width = (content["width"] as? NSNumber)?.doubleValue ?? 0
            let height = (content["height"] as? NSNumber)?.doubleValue ?? 0
            let shot = try cdp("Page.captureScreenshot", [
                "format": "png", "captureBeyondViewport": true,
                "clip": ["x": 0, "y": 0, "width": width, "height": height, "scale": 1],
            ])
            encoded = shot["data"] as? String ?? ""
        } else {
            encoded = try string(command("GET", "screenshot", nil, "screenshot"), "screenshot")
        }
        guard let data = Data(base64Encoded: encoded), PNG.size(data) != nil else {
            throw BrowserError(command: "screenshot", message: "not a PNG (\(encoded.prefix(40))…)")
        }
        return data
    }

    /// Takes a screenshot (`screenshot(fullPage:)`) and writes it to `path` (its folder made).
    @discardableResult
    public func screenshot(to path: String, fullPage: Bool = false) throws -> Data {
        let data = try screenshot(fullPage: fullPage)
        let url = URL(fileURLWithPath: path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: url)
        return data
    }

    // MARK: Cookies

    /// A cookie as the browser keeps it.
    public struct Cookie: Sendable, Equatable {
        public var name: String
        public var value: String
        public var path: String?
        public var domain: String?
        public var secure: Bool
        public var httpOnly: Bool
        /// "Strict", "Lax" or "None" (as chromedriver reports it).
        public var sameSite: String?
        /// Seconds since 1970; nil for a session cookie.
        public var expiry: Int?
    }

    /// The cookies the current page's address gets.
    public func cookies() throws -> [Cookie] {
        let list = try command("GET", "cookie", nil, "cookies") as? [[String: Any]] ?? []
        return list.map { c in
            Cookie(
                name: c["name"] as? String ?? "", value: c["value"] as? String ?? "", path: c["path"] as? String,
                domain: c["domain"] as? String, secure: c["secure"] as? Bool ?? false, httpOnly: c["httpOnly"] as? Bool ?? false,
                sameSite: c["sameSite"] as? String, expiry: (c["expiry"] as? NSNumber)?.intValue)
        }
    }

    public func cookie(_ name: String) throws -> Cookie? { try cookies().first { $0.name == name } }

    public func deleteCookies() throws { try command("DELETE", "cookie", nil, "delete cookies") }

    // MARK: Script and DevTools

    /// Runs `script` (a function body: `return document.title`) in the page with `arguments`
    /// (`arguments[0]`, …; JSON values, or an `Element`'s `reference`); its result as JSON
    /// values. It runs with script off too (through DevTools, as the WebDriver's own finding
    /// does): script off is the page's scripts not running.
    @discardableResult
    public func eval(_ script: String, _ arguments: [Any] = []) throws -> Any? {
        try command("POST", "execute/sync", ["script": script, "args": arguments], "eval \(script.prefix(60))")
    }

    /// A Chrome DevTools protocol command (`Page.captureScreenshot`, …) through chromedriver;
    /// its result.
    @discardableResult
    public func cdp(_ method: String, _ parameters: [String: Any] = [:]) throws -> [String: Any] {
        try command("POST", "goog/cdp/execute", ["cmd": method, "params": parameters], "DevTools \(method)") as? [String: Any] ?? [:]
    }

    // MARK: The wire

    /// A command of this session: `method` /session/ID/`path` with `body`; its `value`.
    @discardableResult
    public func command(_ method: String, _ path: String, _ body: [String: Any]?, _ what: String) throws -> Any? {
        lock.lock()
        let isClosed = closed
        lock.unlock()
        if isClosed { throw BrowserError(command: what, message: "the browser is closed") }
        // A navigation that times out is reported by chromedriver at `pageLoad`: a little longer here.
        return try Self.call(port: port, method, "/session/\(session)/\(path)", body, command: what, seconds: commandSeconds + 5)
    }

    private func string(_ value: Any?, _ what: String) throws -> String {
        guard let text = value as? String else { throw BrowserError(command: what, message: "not a string: \(value ?? "null")") }
        return text
    }

    static func call(port: Int, _ method: String, _ path: String, _ body: [String: Any]?, command: String, seconds: Double) throws -> Any? {
        let data = try body.map { try JSONSerialization.data(withJSONObject: $0) }
        let response: Loopback.Response
        do {
            response = try Loopback.request(port: port, method, path, body: data, contentType: "application/json; charset=utf-8", seconds: seconds)
        } catch {
            throw BrowserError(command: command, message: "chromedriver: \(error)")
        }
        let json = try? JSONSerialization.jsonObject(with: response.body, options: [.fragmentsAllowed])
        let value = (json as? [String: Any])?["value"]
        guard response.status == 200 else {
            let error = value as? [String: Any]
            let name = error?["error"] as? String ?? "HTTP \(response.status)"
            let message = (error?["message"] as? String).map { String($0.prefix(1200)) } ?? String(response.text.prefix(600))
            throw BrowserError(command: command, message: "\(name): \(message)")
        }
        return value is NSNull ? nil : value
    }

    /// Waits until chromedriver's /status says ready: nil, else why not.
    private static func waitUntilReady(_ process: OwnedProcess, port: Int, seconds: Double) -> String? {
        let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
        var last = "no answer"
        while ContinuousClock.now < deadline {
            if Task.isCancelled { return "the test's time is up" }
            if !process.isRunning { return "chromedriver ended (status \(process.terminationStatus))" }
            do {
                let value = try call(port: port, "GET", "/status", nil, command: "status", seconds: 2) as? [String: Any]
                if value?["ready"] as? Bool == true { return nil }
                last = "not ready: \(value?["message"] ?? "")"
            } catch {
                last = "\(error)"
            }
            usleep(100_000)
        }
        return "not ready within \(Int(seconds)) s (\(last))"
    }

    /// Ends (SIGKILL, by process id) every process whose command line names `profile`: Chromium's
    /// processes that outlived chromedriver; waits (10 s at most) until they are gone.
    static func endLeftovers(profile: String) {
        let deadline = ContinuousClock.now + .seconds(10)
        var left = processes(naming: profile)
        while !left.isEmpty && ContinuousClock.now < deadline {
            for pid in left { kill(pid, SIGKILL) }
            usleep(20_000)
            left = processes(naming: profile)
        }
        if !left.isEmpty { Issue.record("Chromium's processes \(left) (profile \(profile)) did not end after SIGKILL") }
    }

    /// The running processes (zombies aside) whose command line contains `text`.
    public static func processes(naming text: String) -> [Int32] {
        var found: [Int32] = []
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
            guard let pid = Int32(entry), pid != getpid(),
                let command = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline"),
                String(decoding: command, as: UTF8.self).contains(text)
            else { continue }
            let stat = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
            if let close = stat.lastIndex(of: ")"), stat[stat.index(after: close)...].hasPrefix(" Z") { continue }
            found.append(pid)
        }
        return found
    }
}

/// An element of the page (a WebDriver element reference): stale once its page is left.
public struct Element: Sendable {
    public let browser: Browser
    /// chromedriver's id for it.
    public let id: String
    /// The selector it was found by, for messages.
    public let selector: String

    /// The W3C key of an element reference.
    static let key = "element-6066-11e4-a52e-4f735466cecf"

    init(browser: Browser, value: Any?, selector: String) throws {
        guard let id = (value as? [String: Any])?[Self.key] as? String else {
            throw BrowserError(command: "find \(selector)", message: "no element reference in \(value ?? "null")")
        }
        self.browser = browser
        self.id = id
        self.selector = selector
    }

    /// It as a script's argument (`Browser.eval`).
    public var reference: [String: String] { [Self.key: id] }

    @discardableResult
    private func command(_ method: String, _ path: String, _ body: [String: Any]?, _ what: String) throws -> Any? {
        try browser.command(method, "element/\(id)" + (path.isEmpty ? "" : "/" + path), body, "\(what) (\(selector))")
    }

    /// Clicks it (scrolled into view; fails when something covers it), and waits for a page it
    /// leads to.
    public func click() throws { try command("POST", "click", [:], "click") }

    /// Empties a field.
    public func clear() throws { try command("POST", "clear", [:], "clear") }

    /// Types `text` into it (focused first), after what it holds.
    public func type(_ text: String) throws { try command("POST", "value", ["text": text], "type") }

    /// Its rendered text.
    public func text() throws -> String { try command("GET", "text", nil, "text") as? String ?? "" }

    /// Its attribute `name` as the HTML has it, nil when it has none.
    public func attribute(_ name: String) throws -> String? { try command("GET", "attribute/\(name)", nil, "attribute \(name)") as? String }

    /// Its DOM property `name` (a field's current `value`, `checked`, …).
    public func property(_ name: String) throws -> Any? { try command("GET", "property/\(name)", nil, "property \(name)") }

    public func tagName() throws -> String { try command("GET", "name", nil, "tag name") as? String ?? "" }
    public func isSelected() throws -> Bool { try command("GET", "selected", nil, "selected") as? Bool ?? false }
    public func isEnabled() throws -> Bool { try command("GET", "enabled", nil, "enabled") as? Bool ?? false }
    public func isDisplayed() throws -> Bool { try command("GET", "displayed", nil, "displayed") as? Bool ?? false }

    /// Its position and size in CSS pixels.
    public func rect() throws -> (x: Double, y: Double, width: Double, height: Double) {
        let r = try command("GET", "rect", nil, "rect") as? [String: Any] ?? [:]
        func number(_ key: String) -> Double { (r[key] as? NSNumber)?.doubleValue ?? 0 }
        return (number("x"), number("y"), number("width"), number("height"))
    }

    /// The first element inside it matching `selector`.
    public func find(_ selector: String) throws -> Element {
        let value = try command("POST", "element", ["using": "css selector", "value": selector], "find \(selector) in")
        return try Element(browser: browser, value: value, selector: self.selector + " " + selector)
    }

    /// Every element inside it matching `selector`.
    public func findAll(_ selector: String) throws -> [Element] {
        let value = try command("POST", "elements", ["using": "css selector", "value": selector], "find all \(selector) in")
        return try (value as? [Any] ?? []).map { try Element(browser: browser, value: $0, selector: self.selector + " " + selector) }
    }

    /// A PNG of it alone.
    public func screenshot() throws -> Data {
        let encoded = try command("GET", "screenshot", nil, "screenshot") as? String ?? ""
        guard let data = Data(base64Encoded: encoded) else { throw BrowserError(command: "screenshot (\(selector))", message: "not base64") }
        return data
    }
}

/// A browser command that failed: which, and what chromedriver (or the connection) said.
public struct BrowserError: Error, CustomStringConvertible {
    public var command: String
    public var message: String
    public var description: String { "browser: \(command): \(message)" }
}

/// Runs `body` with a new `Browser` and closes it on every path (returned, thrown, or the test
/// failed).
public func withBrowser<T>(
    script: Bool = true, size: Browser.Size = .desktop, commandSeconds: Double = 30, _ body: (Browser) throws -> T
) throws -> T {
    let browser = try Browser(script: script, size: size, commandSeconds: commandSeconds)
    defer { browser.close() }
    return try body(browser)
}

/// What a PNG file's header says.
public enum PNG {
    /// The width and height in its IHDR chunk, or nil when `data` is not a PNG.
    public static func size(_ data: Data) -> (width: Int, height: Int)? {
        let bytes = [UInt8](data.prefix(24))
        guard bytes.count == 24, bytes[0..<8] == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], Array(bytes[12..<16]) == Array("IHDR".utf8) else {
            return nil
        }
        func big(_ at: Int) -> Int { bytes[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
        return (big(16), big(20))
    }
}
