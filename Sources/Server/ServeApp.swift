import Activity
import Configuration
import Feeds
import HTTP
import JSON
import Platform
import Store

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// `glance serve`: the store over HTTP, for the phone and the home (docs/live-data.md). One poll
/// loop (the server's epoll descriptor, signals), one line logged per request, every write one
/// SQLite transaction (a running `glance run` redraws at once: the store watcher sees it).
public final class ServeApp {
    let configuration: Configuration
    let path: String
    private var store: Store
    /// The household's token files (person 1's is `serve.tokenFile`) and what they were when last read.
    private let tokenFiles: TokenFiles
    private var tokenState: [Int64]
    /// Each person's token, as last read: a request is the person whose token it presents.
    private var tokens: [(person: Int, token: [UInt8])] = []
    /// The people of the store when the tokens were last read: a token file of someone who is not
    /// there (removed while their file stayed) is not taken.
    private var people: Set<Int> = [1]
    /// The tokens taken since the server started (the most recent 64), hidden from the log: a
    /// removed or renewed one too, which a client may still send.
    private var secrets: [[UInt8]] = []
    private var limiter: RateLimiter
    /// Refusals (4xx) logged only so far: a flood of bad requests fills the journal no further.
    private var refusals = LogBudget()
    /// What the store's files were when last checked or written by this server: when they differ,
    /// someone else wrote them (or damaged them), and the file is checked before it is used.
    private var checkedFiles: [Int64]?
    /// Why the store is refused, once it was found damaged: every request but health gets 503
    /// until the file is replaced (a restored backup).
    private var damage: String?
    /// After a write found the store locked by another process, writes until then get 503 at once
    /// instead of each waiting its turn: the server goes on answering everyone else.
    private var busyUntil: Duration?
    /// How long one write waits for another process's lock: a bounded wait, then 503 with
    /// Retry-After. (Writes off the loop would need a thread and a second connection for a case
    /// that lasts the seconds of an import's merge; the phone retries either way.)
    static let busyWait = 250
    private let log: (String) -> Void

    /// Opens the store and reads the tokens; told and an exit status when the store cannot be
    /// opened or person 1's token (`serve.tokenFile`) read. Another person's token file that
    /// cannot be used is said, and that person refused until it is fixed.
    public static func make(
        configuration: Configuration, database: String?, log: @escaping (String) -> Void
    ) -> Result<ServeApp, ExitStatus> {
        let files = TokenFiles(tokenFile: configuration.serve.tokenFile)
        let state = files.state()
        let loaded = files.load()
        if let failure = loaded.first {
            log(failure.message)
            return .failure(ExitStatus(failure.status))
        }
        return Service.openStore(database ?? configuration.database, log: log).map { opened in
            let app = ServeApp(configuration: configuration, path: opened.path, store: opened.store, tokenFiles: files, log: log)
            app.take(loaded, state: state)
            if app.tokens.count > 1 { log("tokens of \(app.tokens.count) people: \(app.tokens.map { "\($0.person)" }.joined(separator: ", "))") }
            return app
        }
    }

    init(configuration: Configuration, path: String, store: Store, tokenFiles: TokenFiles, log: @escaping (String) -> Void) {
        self.configuration = configuration
        self.path = path
        self.store = store
        self.tokenFiles = tokenFiles
        tokenState = []
        limiter = RateLimiter(perSecond: configuration.serve.perSecond)
        self.log = log
        limit(store)
        checkedFiles = Store.fileState(path)  // Store(path:) checked it as it opened it
    }

    // MARK: Tokens

    /// The tokens read (`TokenFiles.load`) as the ones taken from now on, those of people the
    /// store does not have left out; what cannot be used is said.
    private func take(_ loaded: TokenFiles.Loaded, state: [Int64]) {
        tokenState = state
        if let first = loaded.first { log(first.message + "; person 1's pushes are refused until it is fixed") }
        for problem in loaded.problems { log(problem) }
        if !readPeople() {
            // Read again at the next request; till then, the people as they were.
            tokenState = []
        }
        var taken: [(person: Int, token: [UInt8])] = []
        for entry in loaded.tokens {
            if people.contains(entry.person) {
                taken.append(entry)
            } else {
                log("\(tokenFiles.file(entry.person)): there is no person \(entry.person) in the store: the token is not taken")
            }
        }
        if !tokens.isEmpty {
            log("the token files changed: read again, the tokens of people \(taken.map { "\($0.person)" }.joined(separator: ", ")) taken")
        }
        tokens = taken
        for entry in taken where !secrets.contains(entry.token) { secrets.append(entry.token) }
        if secrets.count > 64 { secrets.removeFirst(secrets.count - 64) }
    }

    /// The ids of the store's people, read again; false (said, and the ones known kept) when
    /// they cannot be read now.
    private func readPeople() -> Bool {
        do throws(StoreError) {
            people = Set(try store.people().map(\.id))
            return true
        } catch {
            log("the store's people could not be read (\(error.message)); read again at the next request")
            return false
        }
    }

    /// The token files read again when they changed since they were last read (a token made,
    /// renewed or removed: a stat of each file and the folder per request, no restart).
    private func refreshTokens() {
        let state = tokenFiles.state()
        guard state != tokenState else { return }
        take(tokenFiles.load(), state: state)
    }

    /// The person whose token `given` is, or nil: compared with every token, each in constant
    /// time and none skipped, so the time says nothing of which or how much matched.
    func person(presenting given: [UInt8]) -> Int? {
        var found: Int?
        for (person, token) in tokens {
            let equal = constantTimeEqual(given, token)
            if equal { found = person }
        }
        return found
    }

    /// The person a request is, by its token (the files read again first when they changed), or
    /// the 401 that refuses it when it presents none taken now. A public route (health) is
    /// person 1's, without a token.
    private func authenticate(_ request: HTTPServer.Request, _ route: Route) -> Authenticated {
        if route.isPublic { return .person(1) }
        refreshTokens()
        guard let given = bearerToken(request.authorization), let person = person(presenting: given) else {
            return .refused(
                answer(
                    request, 401,
                    error: request.authorization == nil
                        ? "a token is needed: Authorization: Bearer TOKEN (glance serve token shows it; glance people token NAME, each person's)"
                        : "wrong token", headers: [("WWW-Authenticate", "Bearer")]))
        }
        return .person(person)
    }

    enum Authenticated {
        case person(Int)
        case refused(HTTPServer.Response)
    }

    /// The token file's first line, without spaces; at least 16 characters. A file others may
    /// read or write is refused: the token in it may be known or replaced by anyone on the board.
    public static func readToken(_ file: String) -> Result<[UInt8], OutputFailure> {
        var mode: mode_t = 0
        guard let text = readSmallFile(file, limit: 4096, mode: &mode) else {
            let denied = errno == EACCES
            return .failure(
                OutputFailure(
                    "\(file): cannot read the token: \(String(cString: strerror(errno)))"
                        + (denied
                            ? " (the service's token is readable by root and group glance: sudo adduser $USER glance)"
                            : " (the package makes it at install; or write one: head -c 24 /dev/urandom | base64 > \(file))"),
                    status: denied ? Outcome.noPermission : Outcome.noInput))
        }
        if mode & 0o006 != 0 {
            return .failure(
                OutputFailure(
                    "\(file): others may \(mode & 0o004 != 0 ? "read" : "write") the token (mode \(String(mode & 0o777, radix: 8))); "
                        + "it is for root and group glance only: sudo chmod 640 \(file) && sudo chown root:glance \(file), "
                        + "then make a new token, since the old one may be known: head -c 24 /dev/urandom | base64 | sudo tee \(file)",
                    status: Outcome.noPermission))
        }
        let line = text.split(whereSeparator: { $0 == "\n" || $0 == "\r" }).first.map(String.init) ?? ""
        let token = line.filter { !$0.isWhitespace }
        guard token.utf8.count >= 16 else {
            return .failure(OutputFailure("\(file): the token must be at least 16 characters", status: Outcome.config))
        }
        return .success(Array(token.utf8))
    }

    /// Listens until SIGINT, SIGTERM or SIGHUP (0) — or `stop` becomes readable (a test running the
    /// server in its own process) — or fails (its exit status). `onReady` gets the address and
    /// port once listening.
    public func run(stop: FileDescriptor? = nil, onReady: (HTTPServer.Address, Int) -> Void = { _, _ in }) -> Outcome {
        let serve = configuration.serve
        guard let address = HTTPServer.Address(serve.listen) else {
            log("serve.listen \"\(serve.listen)\": expected HOST:PORT")
            return Outcome.config
        }
        var tls: (key: String, certificate: String)?
        if let certFile = serve.tlsCertificate, let keyFile = serve.tlsKey {
            guard let cert = readSmallFile(certFile, limit: 1 << 20), let key = readSmallFile(keyFile, limit: 1 << 20) else {
                log("serve.tls: cannot read \(certFile) or \(keyFile): \(String(cString: strerror(errno)))")
                return errno == EACCES ? Outcome.noPermission : Outcome.noInput
            }
            tls = (key, cert)
        }
        var limits = HTTPServer.Limits(maxBody: serve.maxBody)
        limits.timeoutSeconds = Int(serve.timeout.rounded(.up))
        // A request whole within three idle timeouts (30 s by default): an 8 MiB body at 3 Mbit/s.
        limits.requestSeconds = 3 * limits.timeoutSeconds
        return HTTPService.run(
            address: address, tls: tls, limits: limits, stop: stop, status: "listening on \(serve.listen)",
            taken: " (is another glance serve running? another port: \"serve\": {\"listen\": …} or --listen)", log: log,
            flush: { [unowned self] in self.refusals.flush() },
            head: { [unowned self] in self.head($0) }, complete: { [unowned self] in self.complete($0, $1) },
            library: { [unowned self] in self.libraryMessage($0) },
            announce: { port in
                log("listening on \(address.host):\(port)\(tls == nil ? "" : " (HTTPS)") for the store \(path)")
                onReady(address, port)
            })
    }

    /// A message of libmicrohttpd's (a client's broken TLS handshake, say): a client can cause
    /// them, so they are bounded like refusals, and escaped.
    func libraryMessage(_ text: String) {
        let (allowed, unsaid) = refusals.take(now: monotonicNow().inSeconds)
        if let unsaid { log(unsaid) }
        if allowed { log(RequestLog.line("libmicrohttpd: " + Quote.clip(text, 200), secrets: secrets)) }
    }

    // MARK: Requests

    func head(_ request: HTTPServer.Request) -> HTTPServer.Response? {
        // Every request counts against its address's rate, whatever it asks and whether its token
        // is right: a client guessing tokens or probing paths is slowed down like any other.
        guard limiter.allow(request.address, now: monotonicNow().inSeconds) else {
            return answer(
                request, 429, error: "more than \(NumberText.plain(configuration.serve.perSecond)) requests a second",
                headers: [("Retry-After", "1")])
        }
        let route: Route
        switch Route.resolve(method: request.method, path: request.path, query: request.query) {
        case .failure(let refusal):
            return answer(request, refusal.status, error: refusal.message, headers: refusal.allow.map { [("Allow", $0)] } ?? [])
        case .success(let r): route = r
        }
        if case .refused(let refusal) = authenticate(request, route) { return refusal }
        if let length = request.contentLength, length > configuration.serve.maxBody {
            return answer(request, 413, error: "the body is larger than \(configuration.serve.maxBody) bytes")
        }
        return nil
    }

    func complete(_ request: HTTPServer.Request, _ body: [UInt8]) -> HTTPServer.Response {
        guard case .success(let route) = Route.resolve(method: request.method, path: request.path, query: request.query) else {
            return answer(request, 404, error: "no such endpoint")
        }
        // Again now that the body is in: a token removed or made new while it came is refused,
        // and nothing of the request is kept.
        let person: Int
        switch authenticate(request, route) {
        case .person(let p): person = p
        case .refused(let refusal): return refusal
        }
        let now = monotonicNow()
        do {
            try checkStore(route, now: now)
            // The person's days, samples and goals, for this request alone.
            store.person = person
            defer { store.person = 1 }
            let (reply, summary) = try handle(route, body)
            if route.writes && Self.personal(route) { notePush(person) }
            // This server's own write: not a reason to check the file again.
            if route.writes { checkedFiles = Store.fileState(path) }
            return answer(request, 200, reply, summary: summary, person: person)
        } catch {
            let failure: RequestFailure =
                switch error {
                case let e as RequestFailure: e
                case let e as FeedError: RequestFailure(e)
                case let e as StoreError: storeFailure(e, now: now)
                default: RequestFailure(500, "\(error)")
                }
            if route == .health, failure.status == 503, let damage {
                let reply: JSON = .object([
                    ("ok", .bool(false)), ("schema", .number(Double(Schema.currentVersion))), ("error", .string(Self.damaged(damage))),
                ])
                return answer(request, 503, reply)
            }
            return answer(
                request, failure.status, error: failure.message, detail: failure.detail,
                headers: failure.retry ? [("Retry-After", "1")] : [], person: person)
        }
    }

    /// Whether `route` writes a person's own data (days, samples, goals), so that a success is
    /// their phone's push (`lastPush`); metrics and tasks are the panel's, whoever sends them.
    static func personal(_ route: Route) -> Bool {
        switch route {
        case .healthAutoExport, .healthConnect, .readings, .putDay, .postDays, .postGoals: true
        default: false
        }
    }

    /// Notes the person's push (their `lastPush`): the push is kept whether or not this can be.
    private func notePush(_ person: Int) {
        do throws(StoreError) {
            try store.notePush(person: person, at: Int64(time(nil)))
        } catch {
            log("person \(person)'s last push could not be noted: \(error.message)")
        }
    }

    /// Before a request uses the store: a replaced file is opened again; a file someone else
    /// changed is checked (on a connection of its own, so no cached page hides damage); a damaged
    /// one is refused (503) until it is replaced; a write soon after the store was found locked is
    /// answered 503 at once.
    private func checkStore(_ route: Route, now: Duration) throws {
        if store.isReplaced() {
            damage = nil
            checkedFiles = nil
            do throws(StoreError) {
                store = try Store(path: path)
                limit(store)
                checkedFiles = Store.fileState(path)
                log("the store \(path) was replaced: opened the new file")
                // Its people may be others: the tokens are taken for those it has.
                take(tokenFiles.load(), state: tokenFiles.state())
            } catch {
                throw storeFailure(error, now: now)
            }
        }
        if damage == nil {
            let files = Store.fileState(path)
            if files != checkedFiles {
                do throws(StoreError) {
                    try Store.checkFile(path)
                    checkedFiles = files
                } catch where error.isDamage {
                    throw storeFailure(error, now: now)
                } catch {
                    // Not opened to check (busy, say): checked at the next request.
                }
            }
        }
        if let damage { throw RequestFailure(503, Self.damaged(damage)) }
        if route.writes, let busyUntil, now < busyUntil {
            throw RequestFailure(503, Self.busy, retry: true)
        }
    }

    /// This server's bounds on its connection: how long a write waits for another process's
    /// lock, and the size a push may grow the store to (`serve.maxStore`).
    private func limit(_ store: Store) {
        store.setBusyTimeout(milliseconds: Self.busyWait)
        do throws(StoreError) {
            try store.setSizeLimit(megabytes: configuration.serve.maxStore)
        } catch {
            log("the store's size limit could not be set (\(error.message)); the store may grow without it")
        }
    }

    static let busy = "the store is busy (another process is writing: an import being merged, say); retry"

    static func damaged(_ why: String) -> String {
        "the store is damaged (\(why)): nothing is read or written until it is restored (the server's log says how)"
    }

    /// A store error as the client is told it (the store's path left out) and as it is logged;
    /// damage and a lock taken note.
    private func storeFailure(_ error: StoreError, now: Duration) -> RequestFailure {
        let client = RequestLog.forClient(error.message, hiding: path)
        if error.isFull {
            return RequestFailure(
                507,
                "the store is full: it has reached the \(configuration.serve.maxStore) MiB serve.maxStore lets a push grow it to, "
                    + "or its device is full (the server's log says which); nothing was kept",
                detail: error.message)
        }
        if error.isDamage {
            if damage == nil { log("\(error.message); writes and reads refused until the file is replaced") }
            damage = "SQLite's check failed"
            return RequestFailure(503, Self.damaged(damage!), detail: error.message)
        }
        switch error.kind {
        case .busy:
            busyUntil = now + .seconds(1)
            return RequestFailure(503, Self.busy, retry: true, detail: error.message)
        case .badData, .invalidArgument: return RequestFailure(400, client, detail: error.message)
        case .notFound, .missing: return RequestFailure(404, client, detail: error.message)
        case .cancelled: return RequestFailure(409, client, detail: error.message)
        case .io, .permission, .cannotCreate:
            return RequestFailure(500, "the store could not be used (the server's log says why)", detail: error.message)
        }
    }

    struct RequestFailure: Error {
        let status: Int
        /// What the client is told.
        let message: String
        var retry = false
        /// What the log says (the message when nil).
        var detail: String?

        init(_ status: Int, _ message: String, retry: Bool = false, detail: String? = nil) {
            self.status = status
            self.message = message
            self.retry = retry
            self.detail = detail
        }

        init(_ error: FeedError) { self.init(400, error.description) }
    }

    /// The reply and a few words for the log.
    func handle(_ route: Route, _ body: [UInt8]) throws -> (JSON, String) {
        func parse() throws -> Located { try Located.parse(body) }
        switch route {
        case .health:
            return (.object([("ok", .bool(true)), ("schema", .number(Double(Schema.currentVersion)))]), "")
        case .healthAutoExport:
            let payload = try HealthAutoExport.decode(try parse())
            // The samples made one at a time as they are written: a body of 180,000 holds no second copy.
            let days = try payload.sampleDays(localDay: Self.localDay)
            let window = liveDays()
            for ((metric, sample), day) in zip(payload.allSamples, days) where !window.contains(day) {
                throw RequestFailure(
                    400, "$.data.metrics[\(metric.index)].data[\(sample.index)].date: " + Self.outside(day, window))
            }
            var reply = try keep(
                zip(payload.allSamples, days).lazy.map { Self.sample($0.0.metric, $0.0.sample, $0.1) }, days: days,
                foldBefore: window.lowerBound)
            reply.append(("ignored", .array(payload.ignored.map { .string($0) })))
            return (.object(reply), Self.counts(reply))
        case .healthConnect:
            let payload = try HealthConnect.decode(try parse())
            var reply = try keep(
                feed: try payload.samples(calendar: .system), steps: try payload.stepsParts(calendar: .system),
                through: .healthConnect)
            reply.append(("ignored", .array(payload.ignored.map { .string($0) })))
            return (.object(reply), Self.counts(reply))
        case .readings:
            let readings = try Readings.decode(try parse())
            let reply = try keep(
                feed: try readings.samples(calendar: .system), steps: try readings.stepsParts(calendar: .system),
                through: .readings)
            return (.object(reply), Self.counts(reply))
        case .putDay(let day):
            let changes = try Bodies.day(try parse())
            let window = liveDays()
            if !changes.remove && !window.contains(day) { throw RequestFailure(400, Self.outside(day, window)) }
            let reply = try merge([(day, changes)])
            return (.object(reply), Self.counts(reply))
        case .postDays:
            let days = try Bodies.days(try parse())
            let window = liveDays()
            for (index, (day, changes)) in days.enumerated() where !changes.remove && !window.contains(day) {
                throw RequestFailure(400, "$.days[\(index)].date: " + Self.outside(day, window))
            }
            let reply = try merge(days.map { ($0.day, $0.changes) })
            return (.object(reply), Self.counts(reply))
        case .getDays(let from, let to):
            let last = to ?? Self.localDay(Int64(time(nil))) ?? CalendarDay(daysSinceEpoch: Int(time(nil) / 86400))
            let first = from ?? last.adding(days: -6)
            guard first <= last, last.days(since: first) <= 366 else {
                throw RequestFailure(400, "from/to: at most 367 days, from before to")
            }
            let days = try store.shownDays(from: first, through: last, defaults: configuration.goals.standing)
            return (.object([("days", .array(days.map { StoreJSON.json($0.day, $0.summary) }))]), "\(days.count) days")
        case .putMetric(let name):
            let m = try Bodies.metric(try parse())
            let metric = try store.setMetric(name, value: m.value, minimum: m.minimum, maximum: m.maximum, unit: m.unit)
            return (StoreJSON.json(metric), "\(name) \(metric.value.map(NumberText.plain) ?? "—")")
        case .getMetrics:
            let metrics = try store.metrics()
            return (.object([("metrics", .array(metrics.map(StoreJSON.json)))]), "\(metrics.count) metrics")
        case .postTask:
            let task = try Bodies.startTask(try parse())
            let started = try store.startTask(
                task.name, total: task.total, description: task.description, cancellable: task.cancellable)
            return (StoreJSON.json(started), "started \(task.name)")
        case .patchTask(let name):
            let change = try Bodies.changeTask(try parse())
            let task: ProgressTask
            switch change {
            case .update(let done, let total, let description):
                task = try store.updateTask(name, done: done, total: total, description: description)
            case .finish(let failed, let description):
                task = try store.finishTask(name, state: failed ? .failed : .done, description: description)
            }
            return (StoreJSON.json(task), "\(name) \(task.state.rawValue)")
        case .getTasks:
            let tasks = try store.tasks()
            return (.object([("tasks", .array(tasks.map(StoreJSON.json)))]), "\(tasks.count) tasks")
        case .getGoals:
            let history = try store.goalHistory()
            return (
                .object([
                    ("goals", .array(history.map { StoreJSON.json($0) })),
                    ("default", StoreJSON.json(Store.GoalPeriod(start: .earliest, goals: configuration.goals.standing), start: false)),
                ]), "\(history.count) periods"
            )
        case .postGoals:
            let (goals, from) = try Bodies.goals(try parse())
            let today = Self.localDay(Int64(time(nil))) ?? CalendarDay(daysSinceEpoch: Int(time(nil) / 86400))
            let period = try store.setGoals(goals, from: from ?? today)
            return (StoreJSON.json(period), "goals from \(period.start)")
        }
    }

    /// Day changes in one transaction: each day as the store has it with the changes over it (a
    /// day without goals of its own is shown with the standing ones, or the configuration's). The
    /// counts of new, changed and unchanged days.
    func merge(_ days: [(CalendarDay, SummaryChanges)]) throws(StoreError) -> [(key: String, value: JSON)] {
        var new = 0, changed = 0, unchanged = 0
        try store.transaction { () throws(StoreError) in
            for (day, changes) in days.sorted(by: { $0.0 < $1.0 }) {
                let before = try store.summary(for: day)
                if changes.remove {
                    if before != nil { changed += 1 } else { unchanged += 1 }
                    try store.setSummary(nil, for: day)
                    continue
                }
                var summary = before ?? ActivitySummary()
                changes.apply(to: &summary)
                if summary == before {
                    unchanged += 1
                    continue
                }
                if before == nil { new += 1 } else { changed += 1 }
                try store.setSummary(summary, for: day)
                if before == nil { try store.setSource("glance serve", for: day) }
            }
        }
        return Self.dayCounts(new, changed, unchanged)
    }

    /// Samples kept in one transaction (a sample sent again replaces itself), the samples of days
    /// before `foldBefore` folded into their days: the counts of the days whose shown figures are
    /// new, changed or unchanged, and of the samples.
    func keep(_ samples: some Sequence<Store.Sample>, days: [CalendarDay], foldBefore: CalendarDay) throws(StoreError)
        -> [(key: String, value: JSON)]
    {
        let touched = Set(days)
        guard let first = touched.min(), let last = touched.max() else {
            return Self.dayCounts(0, 0, 0) + [("samples", Self.counts(Store.SampleCounts()))]
        }
        return try store.transaction { () throws(StoreError) -> [(key: String, value: JSON)] in
            func shown() throws(StoreError) -> [CalendarDay: ActivitySummary] {
                var days: [CalendarDay: ActivitySummary] = [:]
                for shown in try store.shownDays(from: first, through: last) where touched.contains(shown.day) {
                    days[shown.day] = shown.summary
                }
                return days
            }
            // In the same transaction: a refused push leaves even the folding undone.
            try store.foldSamples(before: foldBefore)
            let before = try shown()
            let kept = try store.putSamples(samples)
            let after = try shown()
            var new = 0, changed = 0, unchanged = 0
            for day in touched {
                if before[day] == nil { new += 1 } else if before[day] != after[day] { changed += 1 } else { unchanged += 1 }
            }
            return Self.dayCounts(new, changed, unchanged) + [("samples", Self.counts(kept))]
        }
    }

    /// A feed's samples (Health Connect's, glance-readings'), each on a day a push may write
    /// (else 400 at the sample's JSON path, nothing kept), kept as Health Auto Export's are, its
    /// steps with them (samples of steps: Move on a day without energy), all through `feed`.
    func keep(feed samples: [FeedSample], steps: [StepsPart], through feed: Store.Feed) throws -> [(key: String, value: JSON)] {
        let window = liveDays()
        for sample in samples where !window.contains(sample.day) {
            throw RequestFailure(400, "\(sample.path): " + Self.outside(sample.day, window))
        }
        for part in steps where !window.contains(part.day) {
            throw RequestFailure(400, "\(part.path): " + Self.outside(part.day, window))
        }
        let kept = samples.map { Self.sample($0, through: feed) } + steps.map { Self.sample($0, through: feed) }
        return try keep(kept, days: samples.map(\.day) + steps.map(\.day), foldBefore: window.lowerBound)
    }

    /// A feed's sample as the store keeps it.
    static func sample(_ s: FeedSample, through feed: Store.Feed) -> Store.Sample {
        Store.Sample(
            metric: s.metric, start: s.start, source: s.source, quantity: s.quantity, unit: s.unit, value: s.value, day: s.day,
            feed: s.feed.flatMap(Store.Feed.init(rawValue:)) ?? feed)
    }

    /// A part of a steps record as the store keeps it: a sample of steps, its count as sent.
    static func sample(_ s: StepsPart, through feed: Store.Feed) -> Store.Sample {
        Store.Sample(
            metric: .steps, start: s.start, source: s.source, quantity: s.count, unit: "count", value: s.count, day: s.day,
            feed: s.feed.flatMap(Store.Feed.init(rawValue:)) ?? feed)
    }

    static func dayCounts(_ new: Int, _ changed: Int, _ unchanged: Int) -> [(key: String, value: JSON)] {
        [("days", .object([("new", .number(Double(new))), ("changed", .number(Double(changed))), ("unchanged", .number(Double(unchanged)))]))]
    }

    static func counts(_ c: Store.SampleCounts) -> JSON {
        .object([("new", .number(Double(c.new))), ("changed", .number(Double(c.changed))), ("unchanged", .number(Double(c.unchanged)))])
    }

    /// A Health Auto Export sample as the store keeps it.
    static func sample(_ metric: HealthAutoExport.Metric, _ sample: HealthAutoExport.Sample, _ day: CalendarDay) -> Store.Sample {
        Store.Sample(
            metric: metric.ring, start: sample.time.epochSeconds, source: sample.source, quantity: sample.given,
            unit: metric.units, value: sample.quantity, day: day)
    }

    static func counts(_ reply: [(key: String, value: JSON)]) -> String {
        guard let days = reply.first(where: { $0.key == "days" })?.value else { return "" }
        let n = { (k: String) -> String in days[k].flatMap { if case .number(let x) = $0 { NumberText.plain(x) } else { nil } } ?? "0" }
        return "days \(n("new")) new, \(n("changed")) changed, \(n("unchanged")) unchanged"
    }

    /// The days a push may write: from `serve.pastDays` before today to tomorrow, in the board's
    /// time zone. Older history comes in with `glance import`; none can be from after tomorrow.
    func liveDays() -> ClosedRange<CalendarDay> {
        let today = Self.localDay(Int64(time(nil))) ?? CalendarDay(daysSinceEpoch: Int(time(nil) / 86400))
        let first = max(today.adding(days: -configuration.serve.pastDays), .earliest)
        return first...min(today.adding(days: 1), .latest)
    }

    /// Why a push may not write `day`.
    static func outside(_ day: CalendarDay, _ window: ClosedRange<CalendarDay>) -> String {
        "\(day) is outside the days a push may write, \(window.lowerBound) to \(window.upperBound) "
            + "(serve.pastDays before today to tomorrow); nothing was kept. Older history: glance import"
    }

    /// The day of a moment in the board's time zone (TZ); nil outside the years 1 to 9999.
    static func localDay(_ seconds: Int64) -> CalendarDay? {
        var t = time_t(seconds)
        var parts = tm()
        guard localtime_r(&t, &parts) != nil else { return nil }
        return CalendarDay(year: Int(parts.tm_year) + 1900, month: Int(parts.tm_mon) + 1, day: Int(parts.tm_mday))
    }

    func answer(
        _ request: HTTPServer.Request, _ status: Int, _ reply: JSON? = nil, error: String? = nil, detail: String? = nil,
        summary: String = "", headers: [(String, String)] = [], person: Int = 1
    ) -> HTTPServer.Response {
        let body = reply ?? .object([("error", .string(error ?? ""))])
        // The path as received (escaped), the query without its values, nothing that starts a line
        // or reaches a terminal, never the token; refusals only so far.
        var say = true
        if (400..<500).contains(status) {
            let (allowed, unsaid) = refusals.take(now: monotonicNow().inSeconds)
            if let unsaid { log(unsaid) }
            say = allowed
        }
        if say {
            let target = RequestLog.target(path: request.path, query: request.query)
            let method = request.method.count > 16 ? request.method.prefix(16) + "…" : request.method
            let said = detail ?? error
            let who = person == 1 ? "" : " (person \(person))"
            let line =
                "\(method) \(target) \(status) from \(request.address)\(who)\(summary.isEmpty ? "" : ": \(summary)")\(said.map { ": \($0)" } ?? "")"
            log(RequestLog.line(line, secrets: secrets))
        }
        return HTTPServer.Response(status: status, body: body.text + "\n", headers: headers)
    }
}
