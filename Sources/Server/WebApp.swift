import Activity
import Configuration
import ConfigurationFile
import ControlSocket
import Controls
import Feeds
import HTTP
import ImageFile
import JSON
import Platform
import QRCode
import Raster
import Store
import Web

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// `glance web`: the panel's own web page (docs/web.md), glance-serve's, never the panel's
/// process. What the glass shows (the control socket's `screenshot`, the same PNG as `glance
/// screenshot`), the panel's controls, the settings made from their declarations and saved so
/// that a save cannot blank the panel, the goals, the household's QR codes, the journal and the
/// board. Signed in by a one-time link (`glance web link`), a session cookie and a CSRF token on
/// every form; the same limits as `glance serve`.
public final class WebApp {
    let configuration: Configuration
    /// The configuration file the page edits (the one the panel reads).
    let configPath: String
    /// The panel's control socket (nil: where clients look).
    let socket: String?
    /// `glance`, for previews (`glance render`).
    let glance: String?
    let version: String
    var sessions: WebSessions
    var limiter: RateLimiter
    var refusals = LogBudget()
    /// The last frame asked of the panel: asked again at most every 250 ms.
    var frame: (png: [UInt8], etag: String, width: Int, height: Int, at: Duration)?
    /// The last preview drawn, by the session that asked for it.
    var previews: [String: [UInt8]] = [:]
    let log: (String) -> Void

    /// The largest form (a gauge's or the schedule's JSON with the rest of a group).
    static let maxBody = 512 * 1024

    public init(configuration: Configuration, configPath: String?, socket: String?, glance: String?, version: String, log: @escaping (String) -> Void) {
        self.configuration = configuration
        self.configPath = configPath ?? Configuration.defaultPath
        self.socket = socket
        self.glance = glance
        self.version = version
        sessions = WebSessions(hours: configuration.web.sessionHours)
        limiter = RateLimiter(perSecond: max(configuration.serve.perSecond, 20))
        self.log = log
    }

    // MARK: The one-time link

    /// `glance web link`: a new one-time link's secret left in `web.linkFile` (0640, replacing the
    /// last), and the link, good for `LoginLink.seconds`.
    public static func makeLink(_ configuration: Configuration, url given: String?) -> Result<String, OutputFailure> {
        let secret: String
        do throws(OutputFailure) {
            secret = try TokenFiles.newToken()
        } catch {
            return .failure(error)
        }
        let link = LoginLink(secret: secret, expires: Int64(time(nil)) + LoginLink.seconds)
        let file = configuration.web.linkFile
        // Made 0640 from the start (a secret), as the folder's group reads it.
        let mask = umask(0o027)
        defer { umask(mask) }
        do throws(OutputFile.Failure) {
            try OutputFile.write(Array(link.text.utf8), to: file)
        } catch {
            return .failure(OutputFailure("\(file): cannot leave the link there: \(error.reason)", status: error.outcome))
        }
        // Made by root (sudo glance web link), it is the page's: the folder's owner and group.
        var folder = stat()
        let parent = file.lastIndex(of: "/").map { String(file[..<$0]) }.flatMap { $0.isEmpty ? "/" : $0 } ?? "."
        if geteuid() == 0, stat(parent, &folder) == 0, chown(file, folder.st_uid, folder.st_gid) != 0 {
            return .failure(OutputFailure("\(file): cannot give the link to the page's user: \(String(cString: strerror(errno)))", status: .noPermission))
        }
        guard let base = given ?? configuration.web.url ?? defaultURL(configuration.web.listen) else {
            return .failure(OutputFailure("web.listen is null: glance web is off (set \"web\": {\"listen\": \"0.0.0.0:8128\"})", status: .config))
        }
        return .success(base.trimmingSuffix("/") + "/login?t=" + secret)
    }

    /// `http://HOST.local:PORT` of the board's host name, or the listen address where it names one.
    static func defaultURL(_ listen: String?) -> String? {
        guard let listen, let address = HTTPServer.Address(listen) else { return nil }
        if address.host != "0.0.0.0" && address.host != "::" { return "http://\(address)" }
        var name = [CChar](repeating: 0, count: 256)
        gethostname(&name, name.count - 1)
        let host = String(cString: name)
        return "http://\(host.isEmpty ? "localhost" : host + ".local"):\(address.port)"
    }

    // MARK: Running

    /// Serves until SIGINT, SIGTERM or SIGHUP (0), or `stop` becomes readable (a test), or fails.
    public func run(stop: FileDescriptor? = nil, onReady: (Int) -> Void = { _ in }) -> Outcome {
        guard let listen = configuration.web.listen else {
            log("web.listen is null: the page is off (set \"web\": {\"listen\": \"0.0.0.0:8128\"} in \(configPath))")
            return Outcome.ok
        }
        guard let address = HTTPServer.Address(listen) else {
            log("web.listen \"\(Quote.clip(listen))\": expected HOST:PORT")
            return Outcome.config
        }
        var limits = HTTPServer.Limits(maxBody: Self.maxBody)
        limits.timeoutSeconds = 10
        limits.requestSeconds = 30
        limits.connections = 64
        limits.connectionsPerAddress = 16
        return HTTPService.run(
            address: address, tls: nil, limits: limits, stop: stop, status: "listening on \(listen)",
            taken: " (is another glance web running?)", log: log, flush: { [unowned self] in self.refusals.flush() },
            head: { [unowned self] in self.head($0) }, complete: { [unowned self] in self.complete($0, $1) },
            library: { [unowned self] in self.libraryMessage($0) },
            announce: { port in
                log("the panel's page on \(address.host):\(port), editing \(configPath)")
                onReady(port)
            })
    }

    func libraryMessage(_ text: String) {
        let (allowed, unsaid) = refusals.take(now: monotonicNow().inSeconds)
        if let unsaid { log(unsaid) }
        if allowed { log("libmicrohttpd: " + Quote.clip(text, 200)) }
    }

    // MARK: Requests

    func head(_ request: HTTPServer.Request) -> HTTPServer.Response? {
        guard limiter.allow(request.address, now: monotonicNow().inSeconds) else {
            return logged(request, text(429, "too many requests: slow down", headers: [("Retry-After", "1")]))
        }
        switch request.method {
        case "GET", "HEAD":
            guard request.contentLength ?? 0 == 0 else { return logged(request, text(400, "a GET has no body")) }
        case "POST":
            guard let length = request.contentLength else { return logged(request, text(411, "a form needs its Content-Length")) }
            guard length <= Self.maxBody else { return logged(request, text(413, "the form is larger than \(Self.maxBody) bytes")) }
            guard request.header("Content-Type")?.lowercased().hasPrefix("application/x-www-form-urlencoded") == true else {
                return logged(request, text(415, "a form is application/x-www-form-urlencoded"))
            }
            if let refusal = crossSite(request) { return logged(request, refusal) }
        default:
            return logged(request, text(405, "GET or POST", headers: [("Allow", "GET, HEAD, POST")]))
        }
        return nil
    }

    /// A POST another site's page made (its Origin another than this page's, or the browser
    /// saying it is cross-site): refused before anything else.
    func crossSite(_ request: HTTPServer.Request) -> HTTPServer.Response? {
        if let site = request.header("Sec-Fetch-Site"), site != "same-origin", site != "none" {
            return text(403, "a form of another site (Sec-Fetch-Site: \(Quote.clip(site, 20)))")
        }
        if let origin = request.header("Origin") {
            guard let host = request.header("Host"), origin == "http://" + host || origin == "https://" + host else {
                return text(403, "a form of another origin")
            }
        }
        return nil
    }

    func complete(_ request: HTTPServer.Request, _ body: [UInt8]) -> HTTPServer.Response {
        let path = String(request.path.prefix { $0 != "?" })
        let language = WebLanguage.choose(
            acceptLanguage: request.header("Accept-Language"), cookie: WebSessions.cookieValue(request.header("Cookie"), name: "glance_lang"))
        let now = Int64(time(nil))
        // What needs no session.
        switch (request.method, path) {
        case ("GET", "/style.css"), ("HEAD", "/style.css"):
            return file(WebPages.stylesheet, "text/css; charset=utf-8")
        case ("GET", "/live.js"), ("HEAD", "/live.js"):
            return file(WebPages.script, "text/javascript; charset=utf-8")
        case ("GET", "/login"):
            return logged(request, login(request, language: language, now: now))
        case ("GET", "/language"):
            let to = query(request, "to").flatMap(WebLanguage.init(rawValue:)) ?? .english
            return redirect("/", cookies: ["glance_lang=\(to.tag); Path=/; Max-Age=31536000; SameSite=Strict"])
        default: break
        }
        guard let session = sessions.find(WebSessions.cookieValue(request.header("Cookie")), now: now) else {
            if request.method == "POST" { return logged(request, text(403, "not signed in: open a new link from glance web link")) }
            guard WebSection(rawValue: path) != nil || path == "/frame.png" || path == "/state" else {
                return logged(request, text(404, "no such page"))
            }
            let page = WebPages.signIn(expired: false, signedOut: query(request, "bye") != nil, language: language)
            return logged(request, htmlPage(401, page))
        }
        var form = FormBody(fields: [])
        if request.method == "POST" {
            switch FormBody.parse(body) {
            case .failure(let problem): return logged(request, text(400, "the form: \(problem.message)"))
            case .success(let f): form = f
            }
            guard WebSessions.csrfMatches(form["csrf"], session) else {
                return logged(request, htmlPage(403, WebPages.page(nil, title: Phrase.badCSRF.text(language), body: "", context: PageContext(language: language, csrf: ""))))
            }
        }
        // A save's notice is said by the next page, not taken by a request of the live view
        // (/state, /frame.png, polled every second by an open Now page) or of a preview.
        let page = request.method == "GET" && WebSection(rawValue: path) != nil
        let context = PageContext(language: language, csrf: session.csrf, notice: page ? sessions.takeNotice(session.id) : nil)
        let response: HTTPServer.Response
        switch (request.method, path) {
        case ("GET", "/"): response = nowPage(context)
        case ("GET", "/frame.png"), ("HEAD", "/frame.png"): response = framePNG(request)
        case ("GET", "/state"): response = stateText()
        case ("GET", "/preview.png"):
            response = previews[session.id].map { HTTPServer.Response(status: 200, bytes: $0, contentType: "image/png") } ?? text(404, "no preview")
        case ("POST", "/do"): response = action(form, session: session, language: language)
        case ("GET", "/settings"): response = settingsPage(query(request, "group"), context: context)
        case ("POST", "/settings"): response = saveSettings(form, session: session, context: context)
        case ("GET", "/gauges"):
            response = withFile { htmlPage(200, WebPages.gauges(file: $0.text, editing: query(request, "edit").flatMap { Int($0) }, context: context)) }
        case ("POST", "/gauges"): response = saveGauge(form, session: session, context: context)
        case ("GET", "/schedule"): response = withFile { htmlPage(200, WebPages.schedule(file: $0.text, context: context)) }
        case ("POST", "/schedule"): response = saveSchedule(form, session: session, context: context)
        case ("GET", "/goals"): response = goalsPage(context: context)
        case ("POST", "/goals"): response = saveGoals(form, session: session, context: context)
        case ("GET", "/people"): response = peoplePage(context: context)
        case ("POST", "/people"): response = showQR(form, session: session, language: language)
        case ("GET", "/log"): response = logPage(context: context)
        case ("GET", "/about"): response = aboutPage(context: context)
        case ("POST", "/signout"):
            sessions.end(session.id)
            previews[session.id] = nil
            response = redirect("/?bye=1", cookies: [WebSessions.clearCookie])
        default: response = text(404, "no such page")
        }
        return logged(request, response)
    }

    /// The one-time link: its secret taken from `web.linkFile` (the file removed: a link opens
    /// once), a session started.
    func login(_ request: HTTPServer.Request, language: WebLanguage, now: Int64) -> HTTPServer.Response {
        let file = configuration.web.linkFile
        let link = readSmallFile(file, limit: 256).flatMap { LoginLink(text: $0) }
        guard let link, link.opens(query(request, "t"), now: now) else {
            return htmlPage(403, WebPages.signIn(expired: true, signedOut: false, language: language))
        }
        unlink(file)
        guard let id = try? TokenFiles.newToken(), let csrf = try? TokenFiles.newToken() else {
            return text(503, "no random bytes from the kernel: try again")
        }
        let session = sessions.start(id: id, csrf: csrf, now: now)
        log("signed in from \(request.address) with the one-time link")
        return redirect("/", cookies: [sessions.setCookie(session, secure: false)])
    }

    // MARK: Now

    func nowPage(_ context: PageContext) -> HTTPServer.Response {
        let stateLine: String?
        var problem: String?
        switch PanelClient.ask("state", socket: socket, timeout: .seconds(2)) {
        case .success(let line): stateLine = line
        case .failure(let failure):
            stateLine = nil
            problem = failure.message
        }
        let state = stateLine.flatMap { PanelState(text: $0) }
        var shown: WebPages.Frame?
        if state != nil, case .success(let f) = currentFrame() { shown = WebPages.Frame(width: f.width, height: f.height, etag: f.etag) }
        return htmlPage(200, WebPages.now(state: state, stateLine: stateLine, frame: shown, problem: problem, context: context))
    }

    /// The frame on the glass as a PNG (the same bytes `glance screenshot` writes), asked again
    /// when the last is older than 250 ms.
    func currentFrame() -> Result<(png: [UInt8], etag: String, width: Int, height: Int), OutputFailure> {
        let now = monotonicNow()
        if let f = frame, now - f.at < .milliseconds(250) { return .success((f.png, f.etag, f.width, f.height)) }
        let connection: PacketSocket
        switch PanelClient.connect(socket) {
        case .success(let c): connection = c
        case .failure(let failure): return .failure(failure)
        }
        do throws(OutputFailure) {
            let picture = try PanelClient.screenshot(connection, timeout: .seconds(2))
            let png: [UInt8]
            do throws(PNGError) {
                png = try PNGFile.encode(picture, name: "the panel's frame")
            } catch {
                return .failure(OutputFailure("the frame as a PNG: \(error)", status: .software))
            }
            let etag = "\"" + hex(fnv1a(png)) + "\""
            frame = (png, etag, picture.width, picture.height, now)
            return .success((png, etag, picture.width, picture.height))
        } catch {
            return .failure(error)
        }
    }

    func framePNG(_ request: HTTPServer.Request) -> HTTPServer.Response {
        switch currentFrame() {
        case .failure(let failure): return text(503, failure.message)
        case .success(let f):
            if let given = request.header("If-None-Match"), given == f.etag {
                var unchanged = HTTPServer.Response(status: 304, body: "", contentType: "image/png", headers: [("ETag", f.etag)])
                unchanged.cacheControl = "no-cache"
                return unchanged
            }
            var response = HTTPServer.Response(status: 200, bytes: request.method == "HEAD" ? [] : f.png, contentType: "image/png", headers: [("ETag", f.etag)])
            response.cacheControl = "no-cache"
            return response
        }
    }

    func stateText() -> HTTPServer.Response {
        switch PanelClient.ask("state", socket: socket, timeout: .seconds(2)) {
        case .success(let line): return text(200, line)
        case .failure(let failure): return text(503, failure.message)
        }
    }

    /// A control of the Now page: the control socket's request for it, then back to the page.
    func action(_ form: FormBody, session: WebSession, language: WebLanguage) -> HTTPServer.Response {
        let request: PanelRequest?
        switch form["action"] {
        case "show": request = form["screen"].flatMap(ScreenKind.init(rawValue:)).map { .show($0) }
        case "next": request = .next
        case "today": request = .today
        case "refresh": request = .refresh
        case "light": request = form["to"] == "on" ? .light(on: true) : form["to"] == "off" ? .light(on: false) : nil
        case "cycle": request = form["to"] == "on" ? .cycle(on: true) : form["to"] == "off" ? .cycle(on: false) : nil
        case "brightness": request = form["value"].flatMap { Int($0) }.flatMap { (1...100).contains($0) ? .brightness($0) : nil }
        default: request = nil
        }
        guard let request else { return text(400, "not a control of the page (action, screen, to or value out of range)") }
        // Said back to the page, like the panel's refusal.
        if case .failure(let failure) = PanelClient.command(request.text, socket: socket, what: "glance web") {
            sessions.say(.init(good: false, text: failure.message), to: session.id)
        }
        frame = nil
        return redirect("/")
    }

    // MARK: Settings

    func settingsPage(_ id: String?, context: PageContext) -> HTTPServer.Response {
        guard let group = SettingGroup.named(id ?? "top") else { return text(404, "no such group of settings") }
        return withFile { htmlPage(200, WebPages.settings(group: group, file: $0.text, context: context)) }
    }

    func saveSettings(_ form: FormBody, session: WebSession, context: PageContext) -> HTTPServer.Response {
        guard let group = SettingGroup.named(form["group"] ?? "") else { return text(400, "no such group of settings") }
        return withFile { saveSettings(form, group: group, current: $0, session: session, context: context) }
    }

    func saveSettings(
        _ form: FormBody, group: SettingGroup, current: CurrentFile, session: WebSession, context: PageContext
    ) -> HTTPServer.Response {
        var typed: [String: String] = [:]
        var problems: [String: String] = [:]
        var edited = current.text
        for field in group.fields {
            guard let input = form[field.name] else { continue }
            typed[field.key] = input
            let path = field.steps.map { ConfigText.Step.key($0) }
            switch field.entry(input) {
            case .failure(let problem): problems[field.key] = problem.message
            case .success(nil):
                // Left empty: out of the file (when it is there).
                guard current.text.value(at: path) != nil else { continue }
                do throws(ConfigTextError) {
                    edited = try edited.removing(path)
                } catch {
                    problems[field.key] = error.message
                }
            case .success(let value?):
                let before = current.text.value(at: path).flatMap { try? JSONParser.parse($0) } ?? field.defaultValue
                guard value != before else { continue }
                do throws(ConfigTextError) {
                    edited = try edited.setting(path, to: value.settingText)
                } catch {
                    problems[field.key] = error.message
                }
            }
        }
        let again = { (general: [String], problems: [String: String], preview: String?) in
            self.htmlPage(
                general.isEmpty && problems.isEmpty ? 200 : 422,
                WebPages.settings(group: group, file: edited, typed: typed, problems: problems, general: general, preview: preview, context: context))
        }
        if !problems.isEmpty { return again([], problems, nil) }
        return commit(edited, current: current, form: form, session: session, language: context.language, back: "/settings?group=\(urlQueryValue(group.id))") { general, problems, preview in
            again(general, problems, preview)
        }
    }

    /// A new file's text checked as `glance config check` checks it; previewed (`do=preview`) or
    /// saved so that the panel cannot be left blank (`save`); `again` makes the page once more
    /// with the problems (by field key) or the preview.
    func commit(
        _ edited: ConfigText, current: CurrentFile, form: FormBody, session: WebSession, language: WebLanguage, back: String,
        again: ([String], [String: String], String?) -> HTTPServer.Response
    ) -> HTTPServer.Response {
        let issues: [ConfigurationIssue]
        switch Configuration.read(edited.text, patternProblem: ConfigurationFile.regexProblem) {
        case .success: issues = []
        case .failure(let found): issues = found.issues
        }
        if !issues.isEmpty {
            var problems: [String: String] = [:]
            var general: [String] = []
            for issue in issues {
                let key = String(issue.path.dropFirst(issue.path.hasPrefix("$.") ? 2 : 1))
                if problems[key] == nil && !key.isEmpty { problems[key] = issue.message }
                general.append("\(issue.path): \(issue.message)")
            }
            return again(general, problems, nil)
        }
        if form["do"] == "preview" {
            switch preview(edited.text) {
            case .success(let png):
                // One preview kept (the last asked for): a few MB at most whatever the sessions.
                previews = [session.id: png]
                return again([], [:], "/preview.png?n=\(hex(fnv1a(png)))")
            case .failure(let failure): return again([failure.message], [:], nil)
            }
        }
        let outcome = save(edited, previous: current.bytes, language: language)
        guard outcome.good else { return again([outcome.text], [:], nil) }
        sessions.say(outcome, to: session.id)
        return redirect(back)
    }

    /// The configuration file as it is now: its text (`{}` when there is none) and its bytes (nil:
    /// none).
    struct CurrentFile {
        var text: ConfigText
        var bytes: [UInt8]?
    }

    /// The file read, or why it cannot be: one that is there but unreadable, too large or not
    /// UTF-8 is never taken for an empty one (a save would write the changed settings alone and
    /// lose the rest).
    func readFile() -> Result<CurrentFile, OutputFailure> {
        guard let bytes = readSmallFileBytes(configPath, limit: ConfigText.maxSize) else {
            if errno == ENOENT { return .success(CurrentFile(text: ConfigText("{}"), bytes: nil)) }
            let why = errno == EINVAL ? "not a regular file of at most \(ConfigText.maxSize >> 20) MiB" : String(cString: strerror(errno))
            return .failure(OutputFailure("\(configPath): cannot read the configuration: \(why)", status: .noInput))
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            return .failure(OutputFailure("\(configPath): not UTF-8 text (glance config check says where)", status: .config))
        }
        return .success(CurrentFile(text: ConfigText(text), bytes: bytes))
    }

    /// `page` made with the file as it is now, or 503 saying why it cannot be read (and nothing
    /// written).
    func withFile(_ page: (CurrentFile) -> HTTPServer.Response) -> HTTPServer.Response {
        switch readFile() {
        case .success(let current): return page(current)
        case .failure(let failure):
            log(failure.message)
            return text(503, failure.message + "; nothing is changed until it can be read")
        }
    }

    /// Writes `edited` whole (the file before it kept beside it as `.previous`), has the panel
    /// read it again, and puts the previous file back when the panel refuses it or does not come
    /// back showing a screen within a few seconds.
    func save(_ edited: ConfigText, previous: [UInt8]?, language: WebLanguage) -> WebSession.Notice {
        let backup = configPath + ".previous"
        do throws(OutputFile.Failure) {
            if let previous { try OutputFile.write(previous, to: backup) }
            try OutputFile.write(Array(edited.text.utf8), to: configPath)
        } catch {
            log("saving \(configPath): \(error.reason)")
            return .init(good: false, text: SaveNotice.notWritten(error.reason, language))
        }
        switch PanelClient.command("reload", socket: socket, what: "glance web", refused: "the panel said", timeout: .seconds(10)) {
        case .success:
            if case .success(let line) = PanelClient.ask("state", socket: socket, timeout: .seconds(5)), PanelState(text: line) != nil {
                log("saved \(configPath): the panel took it")
                frame = nil
                return .init(good: true, text: SaveNotice.saved(language))
            }
            return restore(previous, why: "the panel did not answer after reading it", language: language)
        case .failure(let failure) where failure.status == Outcome.unavailable || failure.status == Outcome.noPermission:
            log("saved \(configPath); no running panel answered")
            return .init(good: true, text: SaveNotice.savedWithoutPanel(failure.message, language))
        case .failure(let failure):
            return restore(previous, why: failure.message, language: language)
        }
    }

    func restore(_ previous: [UInt8]?, why: String, language: WebLanguage) -> WebSession.Notice {
        do throws(OutputFile.Failure) {
            if let previous { try OutputFile.write(previous, to: configPath) } else { unlink(configPath) }
        } catch {
            log("\(configPath): the previous file could not be put back: \(error.reason)")
            return .init(good: false, text: SaveNotice.notPutBack(why, error.reason, language))
        }
        _ = PanelClient.command("reload", socket: socket, what: "glance web", refused: "the panel said", timeout: .seconds(10))
        log("\(configPath): the panel refused the new file (\(Quote.clip(why, 200))): the previous one is back")
        return .init(good: false, text: SaveNotice.rolledBack(why, language))
    }

    /// The screen drawn with `text` as the configuration (`glance render` in a process of its own,
    /// at most 20 s), as PNG bytes.
    func preview(_ text: String) -> Result<[UInt8], OutputFailure> {
        guard let glance else { return .failure(OutputFailure("no glance program to draw the preview with", status: .unavailable)) }
        let folder: String
        do throws(SystemError) {
            folder = try Folders.scratch("glance-web-preview")
        } catch {
            return .failure(OutputFailure("a scratch folder for the preview: \(error)", status: .cannotCreate))
        }
        defer { Folders.remove(folder, files: ["config.json", "preview.png"]) }
        let config = folder + "/config.json", picture = folder + "/preview.png"
        do throws(OutputFile.Failure) {
            try OutputFile.write(Array(text.utf8), to: config)
        } catch {
            return .failure(OutputFailure(error.reason, status: error.outcome))
        }
        // At the panel's size, on the screen it shows (when a panel answers).
        var arguments = [glance, "render", "--config", config, "--output", picture]
        if case .success(let line) = PanelClient.ask("panel", socket: socket, timeout: .seconds(2)), let facts = PanelFacts(text: line) {
            arguments += ["--size", "\(facts.width)x\(facts.height)"]
        }
        if case .success(let line) = PanelClient.ask("state", socket: socket, timeout: .seconds(2)), let state = PanelState(text: line) {
            arguments += ["--screen", state.screen.rawValue]
        }
        let status = runBounded(arguments, seconds: 20)
        guard status?.succeeded == true, let png = readSmallFileBytes(picture, limit: 32 << 20) else {
            return .failure(OutputFailure("glance render could not draw the preview (\(status?.description ?? "stopped after 20 s"))", status: .software))
        }
        return .success(png)
    }

    // MARK: Gauges and the schedule

    func saveGauge(_ form: FormBody, session: WebSession, context: PageContext) -> HTTPServer.Response {
        withFile { saveGauge(form, current: $0, session: session, context: context) }
    }

    func saveGauge(_ form: FormBody, current: CurrentFile, session: WebSession, context: PageContext) -> HTTPServer.Response {
        var gaugeCount = 0
        if let list = current.text.value(at: [.key("gauges")]), case .array(let items)? = try? JSONParser.parse(list) { gaugeCount = items.count }
        let index = form["index"].flatMap { Int($0) }
        var edited = current.text
        var typed: [String: String] = [:]
        var problems: [String: String] = [:]
        let again = { (general: [String], problems: [String: String], editing: Int?) in
            self.htmlPage(
                422, WebPages.gauges(file: current.text, editing: editing, typed: typed, problems: problems, general: general, context: context))
        }
        switch form["do"] {
        case "remove":
            guard let index, (0..<gaugeCount).contains(index) else { return text(400, "no such gauge") }
            do throws(ConfigTextError) {
                edited = try edited.removing([.key("gauges"), .index(index)])
            } catch {
                return again([error.message], [:], nil)
            }
        case "add", "edit":
            let adding = form["do"] == "add"
            if !adding { guard let index, (0..<gaugeCount).contains(index) else { return text(400, "no such gauge") } }
            var members: [(String, JSON)] = []
            // Fields left empty whose settings are then out of the gauge (min, max, decimals).
            var leftOut: [String] = []
            for field in GaugeFields.all {
                guard let input = form[field.name] else { continue }
                typed[field.key] = input
                switch field.entry(input) {
                case .failure(let problem): problems[field.key] = problem.message
                case .success(nil): leftOut.append(field.key)
                case .success(let value?):
                    // A new gauge says what differs from the defaults, and its source.
                    if adding && value == field.defaultValue && field.key != "source" { continue }
                    if adding && value == .null { continue }
                    members.append((field.key, value))
                }
            }
            if !problems.isEmpty { return again([], problems, adding ? gaugeCount : index) }
            do throws(ConfigTextError) {
                if adding {
                    edited = try edited.appending(JSON.object(members.map { (key: $0.0, value: $0.1) }).settingText, to: [.key("gauges")])
                } else if let index {
                    let item = current.text.value(at: [.key("gauges"), .index(index)]).flatMap { try? JSONParser.parse($0) }
                    for (key, value) in members where item?[key] ?? GaugeFields.all.first(where: { $0.key == key })?.defaultValue != value {
                        edited = try edited.setting([.key("gauges"), .index(index), .key(key)], to: value.settingText)
                    }
                    for key in leftOut where item?[key] != nil {
                        edited = try edited.removing([.key("gauges"), .index(index), .key(key)])
                    }
                }
            } catch {
                return again([error.message], [:], adding ? gaugeCount : index)
            }
        default: return text(400, "do: add, edit or remove")
        }
        let editing = form["do"] == "add" ? gaugeCount : index
        return commit(edited, current: current, form: form, session: session, language: context.language, back: "/gauges") { general, problems, _ in
            var byMember: [String: String] = [:]
            for (key, message) in problems {
                // gauges[2].unit → unit
                if let dot = key.lastIndex(of: "."), key.hasPrefix("gauges[") { byMember[String(key[key.index(after: dot)...])] = message }
            }
            return again(general, byMember, editing)
        }
    }

    func saveSchedule(_ form: FormBody, session: WebSession, context: PageContext) -> HTTPServer.Response {
        withFile { saveSchedule(form, current: $0, session: session, context: context) }
    }

    func saveSchedule(_ form: FormBody, current: CurrentFile, session: WebSession, context: PageContext) -> HTTPServer.Response {
        var edited = current.text
        var typed: [String: String] = [:]
        var problems: [String: String] = [:]
        for field in WebPages.scheduleFields {
            guard let input = form[field.name] else { continue }
            typed[field.key] = input
            switch field.value(input) {
            case .failure(let problem): problems[field.key] = problem.message
            case .success(let value):
                let before = current.text.value(at: [.key(field.key)]).flatMap { try? JSONParser.parse($0) } ?? field.defaultValue
                guard value != before else { continue }
                do throws(ConfigTextError) {
                    edited = try edited.setting([.key(field.key)], to: value.settingText)
                } catch {
                    problems[field.key] = error.message
                }
            }
        }
        let again = { (general: [String], problems: [String: String], preview: String?) in
            self.htmlPage(
                general.isEmpty && problems.isEmpty ? 200 : 422,
                WebPages.schedule(file: edited, typed: typed, problems: problems, general: general, preview: preview, context: context))
        }
        if !problems.isEmpty { return again([], problems, nil) }
        return commit(edited, current: current, form: form, session: session, language: context.language, back: "/schedule") { general, problems, preview in
            var top: [String: String] = [:]
            for (key, message) in problems { top[String(key.prefix { $0 != "." && $0 != "[" })] = message }
            return again(general, top, preview)
        }
    }

    // MARK: Goals and people

    func openStore() -> Result<Store, OutputFailure> {
        var said: [String] = []
        switch Service.openStore(configuration.database, log: { said.append($0) }) {
        case .success(let opened): return .success(opened.store)
        case .failure(let status):
            return .failure(OutputFailure(said.last ?? "the store cannot be opened", status: status.code))
        }
    }

    static func goalRow(_ start: String, _ goals: Goals) -> WebPages.GoalRow {
        func n(_ x: Double?) -> String { x.map { NumberText.plain($0) } ?? "" }
        return WebPages.GoalRow(
            start: start, move: n(goals.move?.value), exercise: n(goals.exercise), stand: n(goals.stand), steps: n(goals.steps))
    }

    func goalsPage(problems: [String] = [], context: PageContext) -> HTTPServer.Response {
        let history: [Store.GoalPeriod]
        switch openStore() {
        case .failure(let failure): return htmlPage(503, WebPages.goals(now: Self.goalRow("", configuration.goals.standing), history: [], problems: [failure.message], context: context))
        case .success(let store):
            do throws(StoreError) {
                history = try store.goalHistory()
            } catch {
                return htmlPage(503, WebPages.goals(now: Self.goalRow("", configuration.goals.standing), history: [], problems: [error.message], context: context))
            }
        }
        let today = ServeApp.localDay(Int64(time(nil))) ?? CalendarDay(daysSinceEpoch: Int(time(nil) / 86400))
        let now = (Store.goals(on: today, in: history) ?? Goals()).over(configuration.goals.standing)
        return htmlPage(
            problems.isEmpty ? 200 : 422,
            WebPages.goals(now: Self.goalRow(today.description, now), history: history.map { Self.goalRow($0.start.description, $0.goals) },
                problems: problems, context: context))
    }

    func saveGoals(_ form: FormBody, session: WebSession, context: PageContext) -> HTTPServer.Response {
        var problems: [String] = []
        func number(_ name: String, _ range: ClosedRange<Double>) -> Double? {
            guard let text = form[name], !text.isEmpty else { return nil }
            guard let x = Double(text), x.isFinite, range.contains(x) else {
                problems.append("\(name): expected a number from \(NumberText.plain(range.lowerBound)) to \(NumberText.plain(range.upperBound))")
                return nil
            }
            return x
        }
        let move = number("move", 1...10_000), exercise = number("exercise", 1...1440), stand = number("stand", 1...24)
        let steps = number("steps", 1...200_000)
        guard problems.isEmpty else { return goalsPage(problems: problems, context: context) }
        switch openStore() {
        case .failure(let failure): return goalsPage(problems: [failure.message], context: context)
        case .success(let store):
            let today = ServeApp.localDay(Int64(time(nil))) ?? CalendarDay(daysSinceEpoch: Int(time(nil) / 86400))
            do throws(StoreError) {
                try store.setGoals(Goals(move: move.map { Energy.kilocalories($0) }, exercise: exercise, stand: stand, steps: steps), from: today)
            } catch {
                return goalsPage(problems: [error.message], context: context)
            }
            log("goals set from \(today) on the page")
            sessions.say(.init(good: true, text: Phrase.saved.text(context.language)), to: session.id)
            return redirect("/goals")
        }
    }

    func peoplePage(problem: String? = nil, context: PageContext) -> HTTPServer.Response {
        switch openStore() {
        case .failure(let failure): return htmlPage(503, WebPages.people([], problem: failure.message, context: context))
        case .success(let store):
            do throws(StoreError) {
                let people = try store.people().map { WebPages.PersonRow(id: $0.id, name: $0.name, colour: $0.colour) }
                return htmlPage(200, WebPages.people(people, problem: problem, context: context))
            } catch {
                return htmlPage(503, WebPages.people([], problem: error.message, context: context))
            }
        }
    }

    /// A person's phone's QR code shown on the panel (as `glance people token NAME --panel`).
    func showQR(_ form: FormBody, session: WebSession, language: WebLanguage) -> HTTPServer.Response {
        guard form["do"] == "qr", let id = form["person"].flatMap({ Int($0) }) else { return text(400, "do=qr and a person's id") }
        let person: Person
        switch openStore() {
        case .failure(let failure):
            sessions.say(.init(good: false, text: failure.message), to: session.id)
            return redirect("/people")
        case .success(let store):
            guard let found = try? store.people().first(where: { $0.id == id }) else { return text(404, "no such person") }
            person = found
        }
        let loaded = TokenFiles(tokenFile: configuration.serve.tokenFile).load()
        guard let token = loaded.tokens.first(where: { $0.person == id })?.token else {
            sessions.say(.init(good: false, text: "\(person.name) has no token: glance people token \(id)"), to: session.id)
            return redirect("/people")
        }
        let serve = configuration.serve
        let (urls, _) = ServeApp.endpoints(
            listen: serve.listen, scheme: serve.tlsCertificate == nil ? "http" : "https", local: ServeApp.localAddresses())
        guard let url = urls.first else {
            sessions.say(.init(good: false, text: "no address to give the phone (serve.listen \"\(serve.listen)\")"), to: session.id)
            return redirect("/people")
        }
        let setup = PhoneSetup(person: person.name, url: url, token: String(decoding: token, as: UTF8.self))
        let outcome = setup.panelCode().flatMap { code in
            PanelClient.command(PanelRequest.qrCode(code).text, socket: socket, what: "glance web")
        }
        switch outcome {
        case .success:
            log("\(Quote.clip(person.name))'s QR code shown on the panel from the page")
            sessions.say(.init(good: true, text: Phrase.qrShown.text(language)), to: session.id)
        case .failure(let failure): sessions.say(.init(good: false, text: failure.message), to: session.id)
        }
        return redirect("/people")
    }

    // MARK: Log and About

    func logPage(context: PageContext) -> HTTPServer.Response {
        guard let journalctl = ["/usr/bin/journalctl", "/bin/journalctl"].first(where: { (path: String) in access(path, X_OK) == 0 }) else {
            return htmlPage(200, WebPages.log([], problem: "journalctl is not on this system", context: context))
        }
        let (status, output) = runCapturing(
            [journalctl, "--no-pager", "--quiet", "-o", "short-iso", "-n", "200", "-u", "glance", "-u", "glance-serve", "-u", "glance-mqtt",
                "-u", "glance-web"], seconds: 10)
        let lines = String(decoding: output, as: UTF8.self).split(separator: "\n").suffix(200).map { String($0.prefix(1000)) }
        let problem = status?.succeeded == true ? nil : "journalctl \(status?.description ?? "stopped after 10 s")"
        return htmlPage(200, WebPages.log(lines, problem: problem, context: context))
    }

    func aboutPage(context: PageContext) -> HTTPServer.Response {
        let t = { (p: Phrase) in p.text(context.language) }
        var rows: [(Phrase, String)] = [(.version, version)]
        let (status, output) = runCapturing(["/usr/bin/dpkg-query", "-W", "-f", "${Package} ${Version} ${Architecture}\n", "glance-panel"], seconds: 5)
        rows.append((.package, status?.succeeded == true ? String(decoding: output, as: UTF8.self).trimmingSuffix("\n") : t(.unknown)))
        let model = readKernelFile("/proc/device-tree/model", limit: 256) ?? readKernelFile("/sys/class/dmi/id/product_name", limit: 256)
        rows.append((.board, model.map { String($0.filter { $0 != "\0" && $0 != "\n" }) } ?? t(.unknown)))
        if case .success(let line) = PanelClient.ask("panel", socket: socket, timeout: .seconds(2)), let facts = PanelFacts(text: line) {
            let millimetres = facts.diagonal * 25.4
            rows.append(
                (.size, "\(facts.width) × \(facts.height) \(t(.pixels)), \(NumberText.plain(facts.diagonal)) \(t(.inches)) "
                    + "(\(NumberText.plain((millimetres).rounded())) mm)\(facts.round ? ", round" : "")"))
            rows.append((.measured, facts.measured.rawValue))
            rows.append((.distance, "\(facts.distance) cm"))
            let output = [facts.connector, facts.format].compactMap { $0 }.joined(separator: " ")
            rows.append((.thePanel, output.isEmpty ? t(.unknown) : output))
        } else {
            rows.append((.thePanel, t(.noPanel)))
        }
        return htmlPage(200, WebPages.about(rows, context: context))
    }

    // MARK: Answers

    func htmlPage(_ status: Int, _ page: String) -> HTTPServer.Response {
        HTTPServer.Response(status: status, body: page, contentType: "text/html; charset=utf-8", headers: pageHeaders)
    }

    func text(_ status: Int, _ message: String, headers: [(String, String)] = []) -> HTTPServer.Response {
        HTTPServer.Response(status: status, body: message + "\n", contentType: "text/plain; charset=utf-8", headers: pageHeaders + headers)
    }

    func file(_ text: String, _ type: String) -> HTTPServer.Response {
        var response = HTTPServer.Response(status: 200, body: text, contentType: type, headers: pageHeaders)
        response.cacheControl = "no-cache"
        return response
    }

    /// 303 to `location` (a form's answer: the page is asked for again, never the POST).
    func redirect(_ location: String, cookies: [String] = []) -> HTTPServer.Response {
        HTTPServer.Response(
            status: 303, body: "", contentType: "text/plain; charset=utf-8",
            headers: pageHeaders + [("Location", location)] + cookies.map { ("Set-Cookie", $0) })
    }

    func query(_ request: HTTPServer.Request, _ name: String) -> String? {
        request.query.first { $0.0 == name }.flatMap { FormBody.decode(Array($0.1.utf8)) }
    }

    /// One line a request: the method, the path without its query's values, the status, the
    /// address; refusals within their budget. Never a secret: the query's values are not logged.
    func logged(_ request: HTTPServer.Request, _ response: HTTPServer.Response) -> HTTPServer.Response {
        var say = request.method == "POST" || response.status >= 400
        if (400..<500).contains(response.status) {
            let (allowed, unsaid) = refusals.take(now: monotonicNow().inSeconds)
            if let unsaid { log(unsaid) }
            say = allowed
        }
        if say {
            let method = request.method.count > 16 ? request.method.prefix(16) + "…" : request.method
            log(RequestLog.line("\(method) \(RequestLog.target(path: request.path, query: request.query)) \(response.status) from \(request.address)", secrets: []))
        }
        return response
    }
}

// MARK: Small helpers

/// FNV-1a of `bytes`: the frame's ETag (not a secret).
func fnv1a(_ bytes: [UInt8]) -> UInt64 {
    var h: UInt64 = 0xcbf2_9ce4_8422_2325
    for b in bytes { h = (h ^ UInt64(b)) &* 0x100_0000_01b3 }
    return h
}

func hex(_ x: UInt64) -> String {
    let s = String(x, radix: 16)
    return String(repeating: "0", count: 16 - s.count) + s
}

extension String {
    func trimmingSuffix(_ suffix: String) -> String {
        var s = self
        while !suffix.isEmpty && s.hasSuffix(suffix) { s = String(s.dropLast(suffix.count)) }
        return s
    }
}

/// `arguments` run with nothing on standard input, at most `seconds`, ended (SIGKILL) after.
func runBounded(_ arguments: [String], seconds: Int) -> ChildProcess.Status? {
    runCapturing(arguments, seconds: seconds, capture: false).0
}

func runCapturing(_ arguments: [String], seconds: Int, capture: Bool = true) -> (ChildProcess.Status?, [UInt8]) {
    guard let child = try? ChildProcess(arguments, captureOutput: capture, outputLimit: 1 << 20) else { return (nil, []) }
    let deadline = monotonicNow() + .seconds(seconds)
    while child.poll() == nil {
        let left = deadline - monotonicNow()
        guard left > .zero else {
            child.stop()
            return (nil, child.output)
        }
        _ = try? waitForReadable(child.descriptors, timeout: min(left, .milliseconds(100)))
    }
    return (child.status, child.output)
}


extension WebApp {
    /// `glance web link`: the link printed, and with `panel` (the socket, "" for where clients
    /// look) shown on the panel as a QR code.
    public static func link(
        _ configuration: Configuration, url: String?, panel: String?, say: (String) -> Void, complain: (String) -> Void
    ) -> Outcome {
        let link: String
        switch makeLink(configuration, url: url) {
        case .failure(let failure):
            complain(failure.message)
            return failure.status
        case .success(let l): link = l
        }
        say(link)
        say("Open it on a phone or computer within \(LoginLink.seconds / 60) minutes; it signs in once.")
        guard let panel else { return .ok }
        guard let code = QRCode.modules(link), code.width <= PanelQRCode.maximumWidth else {
            complain("the link is too long for the panel's largest QR code: give a shorter --url")
            return .usage
        }
        let made = PanelQRCode.make(width: code.width, modules: code.modules, caption: "Glance").mapError { refusal in
            OutputFailure("the panel's QR code: \(refusal.reason)", status: .software)
        }
        switch made.flatMap({ PanelClient.command(PanelRequest.qrCode($0).text, socket: panel.isEmpty ? nil : panel, what: "glance web link --panel") }) {
        case .success:
            say("the link is on the panel as a QR code for \(PanelQRCode.seconds) s, or until a press")
            return .ok
        case .failure(let failure):
            complain(failure.message)
            return failure.status
        }
    }
}
