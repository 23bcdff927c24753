import Activity
import Feeds
import JSON
import Testing

@Suite("Feeds: request bodies, routes, limits", .timeLimit(.minutes(10)))
struct FeedsTests {
    static func body(_ text: String) throws -> Located { try Located.parse(Array(text.utf8)) }

    static func error(_ run: () throws -> Void) -> String {
        do {
            try run()
            return ""
        } catch {
            return "\(error)"
        }
    }

    /// The board in UTC+1 (a fixed zone for the test).
    static func berlin(_ seconds: Int64) -> CalendarDay { CalendarDay(daysSinceEpoch: Int((seconds + 3600) / 86400)) }

    @Test("timestamps as Health Auto Export writes them, with their offsets")
    func timestamps() throws {
        let t = try #require(Timestamp("2026-11-30 10:00:00 +0100"))
        #expect(t.day == CalendarDay(year: 2026, month: 11, day: 30))
        #expect(t.epochSeconds == 1_796_029_200, "09:00 UTC (date -u -d \"2026-11-30 09:00:00\" +%s)")
        #expect(Timestamp("2026-11-30T10:00:00-05:00")?.offset == -18000)
        #expect(Timestamp("2026-11-30 10:00:00Z")?.offset == 0)
        #expect(Timestamp("2026-11-30 10:00:00.250 +0100")?.secondOfDay == 36000)
        for bad in ["2026-11-30", "2026-13-01 10:00:00 +0100", "2026-11-30 25:00:00 +0100", "2026-11-30 10:00:00 +01", "x"] {
            #expect(Timestamp(bad) == nil, "\(bad)")
        }
    }

    @Test("per-minute samples over two days in two time zones, kJ and kcal, summed into the board's days")
    func healthAutoExportSums() throws {
        // Move in kJ on the first day (in Berlin, +0100), in kcal on the second (in New York, -0500);
        // exercise minute by minute; stand per hour.
        var energy: [String] = [], energyKcal: [String] = [], exercise: [String] = []
        for minute in 0..<120 {  // 10:00 to 11:59 in Berlin: 4.184 kJ = 1 kcal a minute
            energy.append("{\"qty\": 4.184, \"date\": \"2026-11-29 \(10 + minute / 60):\(String(minute % 60 / 10))\(minute % 10):00 +0100\"}")
            exercise.append("{\"qty\": 1, \"date\": \"2026-11-29 \(10 + minute / 60):\(String(minute % 60 / 10))\(minute % 10):00 +0100\"}")
        }
        // 20:00 to 20:59 in New York on the 29th is 02:00 on the 30th in Berlin.
        for minute in 0..<60 {
            energyKcal.append("{\"qty\": 2, \"date\": \"2026-11-29 20:\(minute / 10)\(minute % 10):00 -0500\"}")
        }
        let text = """
            {"data": {"metrics": [
              {"name": "active_energy", "units": "kJ", "data": [\(energy.joined(separator: ","))]},
              {"name": "active_energy", "units": "kcal", "data": [\(energyKcal.joined(separator: ","))]},
              {"name": "apple_exercise_time", "units": "min", "data": [\(exercise.joined(separator: ","))]},
              {"name": "apple_stand_hour", "units": "count", "data": [
                {"qty": 1, "date": "2026-11-29 10:00:00 +0100"}, {"qty": 1, "date": "2026-11-29 11:00:00 +0100"},
                {"qty": 0, "date": "2026-11-29 12:00:00 +0100"}]},
              {"name": "step_count", "units": "count", "data": [{"qty": 5000, "date": "2026-11-29 10:00:00 +0100"}]},
              {"name": "heart_rate", "units": "count/min", "data": [{"Min": 50, "Avg": 70, "Max": 120, "date": "2026-11-29 10:00:00 +0100"}]}
            ], "workouts": []}}
            """
        let payload = try HealthAutoExport.decode(try Self.body(text))
        #expect(payload.ignored == ["heart_rate", "step_count"])
        let days = try payload.days(localDay: Self.berlin)
        let first = try #require(days[CalendarDay(year: 2026, month: 11, day: 29)!])
        let second = try #require(days[CalendarDay(year: 2026, month: 11, day: 30)!])
        #expect(abs((first.activeEnergyBurned.applied(to: nil)?.kilocalories ?? 0) - 120) < 1e-9, "120 minutes of 1 kcal")
        #expect(first.exerciseTime == .set(120))
        #expect(first.standHours == .set(2))
        #expect(second.activeEnergyBurned.applied(to: nil)?.kilocalories == 120, "60 minutes of 2 kcal, after midnight in Berlin")
        #expect(second.exerciseTime == .keep, "no exercise samples that day: left as it is")
        #expect(first.activeEnergyBurnedGoal == .keep && first.exerciseTimeGoal == .keep, "goals are not in the payload")
    }

    @Test("samples aggregated by day belong to the date written on them")
    func dailySamples() throws {
        let text = """
            {"data": {"metrics": [{"name": "active_energy", "units": "kcal", "data": [
              {"qty": 300, "date": "2026-11-28 00:00:00 +0100"}, {"qty": 420, "date": "2026-11-29 00:00:00 +0100"}]}]}}
            """
        // On a board in UTC those midnights are 23:00 the day before; they stay on their dates.
        let days = try HealthAutoExport.decode(try Self.body(text)).days { CalendarDay(daysSinceEpoch: Int($0 / 86400)) }
        #expect(days[CalendarDay(year: 2026, month: 11, day: 28)!]?.activeEnergyBurned.applied(to: nil)?.value == 300)
        #expect(days[CalendarDay(year: 2026, month: 11, day: 29)!]?.activeEnergyBurned.applied(to: nil)?.value == 420)
    }

    @Test("a payload that is wrong says where, in the JSON path")
    func errors() {
        let cases: [(String, String)] = [
            ("{\"data\": 3}", "$.data: expected an object, found a number"),
            ("{\"nodata\": {}}", "$.data: missing"),
            ("{\"data\": {\"metrics\": [{\"name\": \"active_energy\", \"units\": \"lbs\", \"data\": []}]}}", "$.data.metrics[0].units: expected kcal, Cal or kJ"),
            ("{\"data\": {\"metrics\": [{\"name\": \"apple_exercise_time\", \"units\": \"min\", \"data\": [{\"qty\": \"5\", \"date\": \"2026-11-29 10:00:00 +0100\"}]}]}}", "$.data.metrics[0].data[0].qty: expected a number, found a string"),
            ("{\"data\": {\"metrics\": [{\"name\": \"apple_exercise_time\", \"units\": \"min\", \"data\": [{\"qty\": -5, \"date\": \"2026-11-29 10:00:00 +0100\"}]}]}}", "$.data.metrics[0].data[0].qty: expected a number of 0 or more"),
            ("{\"data\": {\"metrics\": [{\"name\": \"apple_stand_hour\", \"units\": \"count\", \"data\": [{\"qty\": 1, \"date\": \"yesterday\"}]}]}}", "$.data.metrics[0].data[0].date: expected a date"),
            ("{\"data\": ", "$: malformed JSON: line 1, column"),
        ]
        for (text, message) in cases {
            let found = Self.error { _ = try HealthAutoExport.decode(try Self.body(text)) }
            #expect(found.hasPrefix(message), "\(text): \(found)")
        }
    }

    @Test("Glance's day body: kcal or a unit, null clears, unknown fields refused")
    func dayBody() throws {
        let c = try Bodies.day(try Self.body("{\"move\": \"1460kJ\", \"moveGoal\": 500, \"exercise\": null, \"moveMode\": \"activeEnergy\"}"))
        #expect(c.activeEnergyBurned == .set(Energy(1460, .kilojoule)))
        #expect(c.activeEnergyBurnedGoal == .set(.kilocalories(500)))
        #expect(c.exerciseTime == .clear)
        #expect(c.standHours == .keep)
        #expect(Self.error { _ = try Bodies.day(try Self.body("{\"mvoe\": 1}")) }.hasPrefix("$.mvoe: unknown field"))
        #expect(Self.error { _ = try Bodies.day(try Self.body("{}")) }.hasPrefix("$: no figure given"))
        #expect(Self.error { _ = try Bodies.day(try Self.body("{\"stand\": -1}")) } == "$.stand: expected a number of 0 or more")
        let days = try Bodies.days(try Self.body("{\"days\": [{\"date\": \"2026-11-29\", \"stand\": 9}, {\"date\": \"2026-11-30\", \"exercise\": 3}]}"))
        #expect(days.map(\.day.description) == ["2026-11-29", "2026-11-30"])
        #expect(Self.error { _ = try Bodies.days(try Self.body("{\"days\": [{\"date\": \"2026-11-29\", \"stand\": 9}, {\"date\": \"2026-11-29\", \"stand\": 1}]}")) }
            == "$.days[1].date: 2026-11-29 is given twice")
    }

    @Test("metric and task bodies")
    func metricAndTask() throws {
        let m = try Bodies.metric(try Self.body("{\"value\": 47.5, \"min\": null, \"unit\": \"°C\"}"))
        #expect(m.value == 47.5 && m.minimum == .clear && m.maximum == .keep && m.unit == .set("°C"))
        #expect(Self.error { _ = try Bodies.metric(try Self.body("{\"min\": 1}")) } == "$.value: missing")
        #expect(try Bodies.startTask(try Self.body("{\"name\": \"sync\", \"total\": 200, \"cancellable\": true}"))
            == Bodies.TaskStart(name: "sync", total: 200, description: nil, cancellable: true))
        #expect(try Bodies.changeTask(try Self.body("{\"done\": 82, \"total\": null}")) == .update(done: 82, total: .clear, description: .keep))
        #expect(try Bodies.changeTask(try Self.body("{\"state\": \"failed\"}")) == .finish(failed: true, description: .keep))
        #expect(Self.error { _ = try Bodies.changeTask(try Self.body("{\"state\": \"done\", \"done\": 3}")) }.hasPrefix("$.done: progress does not go with state"))
    }

    @Test("routes: methods, paths, dates, names and queries")
    func routes() throws {
        #expect(try Route.resolve(method: "GET", target: "/v1/health").get() == .health)
        #expect(try Route.resolve(method: "PUT", target: "/v1/days/2026-11-30").get() == .putDay(CalendarDay(year: 2026, month: 11, day: 30)!))
        #expect(try Route.resolve(method: "GET", target: "/v1/days?from=2026-11-01&to=2026-11-30").get()
            == .getDays(from: CalendarDay(year: 2026, month: 11, day: 1), to: CalendarDay(year: 2026, month: 11, day: 30)))
        #expect(try Route.resolve(method: "PUT", target: "/v1/metrics/cpu%20temp").get() == .putMetric("cpu temp"))
        #expect(try Route.resolve(method: "PATCH", target: "/v1/tasks/sync").get() == .patchTask("sync"))
        func status(_ method: String, _ target: String) -> Int? {
            if case .failure(let r) = Route.resolve(method: method, target: target) { r.status } else { nil }
        }
        #expect(status("GET", "/v2/health") == 404)
        #expect(status("DELETE", "/v1/days/2026-11-30") == 405)
        #expect(status("PUT", "/v1/days/30-11-2026") == 400)
        #expect(status("GET", "/v1/days?from=yesterday") == 400)
        #expect(status("GET", "/v1/days?limit=3") == 400)
        #expect(status("PUT", "/v1/metrics/%zz") == 400)
        // Issue 24, W4: one decoding, of what was sent; + is itself in a path, a space in a query.
        #expect(try Route.resolve(method: "PUT", target: "/v1/metrics/50%25").get() == .putMetric("50%"))
        #expect(try Route.resolve(method: "PUT", target: "/v1/metrics/%2541").get() == .putMetric("%41"))
        #expect(try Route.resolve(method: "PUT", target: "/v1/metrics/a+b").get() == .putMetric("a+b"))
        #expect(try Route.resolve(method: "GET", target: "/v1/days?from=2026-11-01&to=2026-11-3%30").get()
            == .getDays(from: CalendarDay(year: 2026, month: 11, day: 1), to: CalendarDay(year: 2026, month: 11, day: 30)))
        for bad in ["abc%00def", "a%0Ab", "a%1B", "a%C2%85", "%FF", "%C3", "a%2", "a%"] {
            #expect(status("PUT", "/v1/metrics/\(bad)") == 400, "\(bad)")
            #expect(status("PATCH", "/v1/tasks/\(bad)") == 400, "\(bad)")
        }
        #expect(Route.decode("a+b", plusIsSpace: true) == "a b" && Route.decode("a+b") == "a+b")
        // HEAD is GET; a 405 says what the path takes.
        #expect(try Route.resolve(method: "HEAD", target: "/v1/health").get() == .health)
        if case .failure(let r) = Route.resolve(method: "POST", target: "/v1/metrics") {
            #expect(r.status == 405 && r.allow == "GET, HEAD")
        } else {
            Issue.record("POST /v1/metrics accepted")
        }
        #expect(Route.healthAutoExport.writes && !Route.getMetrics.writes && Route.health.isPublic && !Route.getDays(from: nil, to: nil).isPublic)
    }

    @Test("rate limit: bursts of N, then N a second, per address; forgotten addresses bounded")
    func rateLimit() {
        var limiter = RateLimiter(perSecond: 3, capacity: 100)
        var answers: [Bool] = []
        for _ in 0..<5 { answers.append(limiter.allow("a", now: 10)) }
        #expect(answers == [true, true, true, false, false])
        let other = limiter.allow("b", now: 10)
        #expect(other, "another address has its own bucket")
        let soon = limiter.allow("a", now: 10.2)
        #expect(!soon)
        let later = limiter.allow("a", now: 10.4)
        #expect(later, "a third of a second later: one more")
        for i in 0..<500 { _ = limiter.allow("host\(i)", now: 100 + Double(i)) }
        #expect(limiter.count <= 100)
    }

    @Test("rate limit under one a second still lets one request through (a burst is never less than one)")
    func rateLimitUnderOne() {
        var limiter = RateLimiter(perSecond: 0.5)
        let answers = [limiter.allow("a", now: 0), limiter.allow("a", now: 0.5), limiter.allow("a", now: 2.1)]
        #expect(answers == [true, false, true], "one at once, and one two seconds later")
    }

    @Test("the Bearer scheme in any case, one or more spaces, the token without white space around it")
    func bearer() {
        let token = Array("0123456789abcdef".utf8)
        for header in ["Bearer 0123456789abcdef", "bearer 0123456789abcdef", "BEARER  0123456789abcdef ", "bEaReR\t0123456789abcdef"] {
            #expect(bearerToken(header) == token, "\(header)")
        }
        for header in ["Basic 0123456789abcdef", "Bearer", "Bearerx 0123456789abcdef", "Bearer0123456789abcdef", ""] {
            #expect(bearerToken(header) == nil || bearerToken(header) != token, "\(header)")
        }
        #expect(bearerToken(nil) == nil)
    }

    @Test("log lines: the path as received, query values left out, control characters escaped, never the token")
    func logLines() {
        #expect(RequestLog.target(path: "/v1/days", query: [("from", "2026-11-01"), ("token", "abc")]) == "/v1/days?from=…&token=…")
        #expect(RequestLog.target(path: "/v1/%0Aforged", query: []) == "/v1/%0Aforged")
        #expect(RequestLog.target(path: String(repeating: "a", count: 500), query: []).count == 121)
        let secret = Array("s3cret+token/0123456789".utf8)
        let line = RequestLog.line("GET /v1/tasks/s3cret+token/0123456789 404 from 1.2.3.4: no task s3cret%2Btoken%2F0123456789", secret: secret)
        #expect(!line.contains("s3cret"), "\(line)")
        #expect(RequestLog.line("a\nb\u{1B}[2J\u{85}\u{202E}c\\u{a}", secret: []) == "a\\u{a}b\\u{1b}[2J\\u{85}\\u{202e}c\\\\u{a}")
    }

    @Test("refusals logged: a burst, then one in a while; the rest counted in one line")
    func logBudget() {
        var budget = LogBudget(burst: 3, perSecond: 0.1)
        var logged = 0
        for i in 0..<100 {
            if budget.take(now: Double(i) * 0.01).log { logged += 1 }
        }
        #expect(logged == 3)
        #expect(budget.unsaid == 97)
        let later = budget.take(now: 20)
        #expect(later.log && later.unsaid == "97 more refused requests not logged")
        let none = budget.flush()
        #expect(none == nil)
    }

    @Test("texts the panel draws: a control character or too long a description is refused with its JSON path")
    func texts() throws {
        #expect(Self.error { _ = try Bodies.startTask(try Self.body("{\"name\": \"b\", \"description\": \"a\\u0000b\"}")) }
            .hasPrefix("$.description: a control character (U+0000)"))
        #expect(Self.error { _ = try Bodies.metric(try Self.body("{\"value\": 1, \"unit\": \"C\\u0000F\"}")) }.hasPrefix("$.unit: a control character"))
        let long = String(repeating: "é", count: TextLimit.description + 1)
        #expect(Self.error { _ = try Bodies.changeTask(try Self.body("{\"description\": \"\(long)\"}")) } == "$.description: at most 200 characters")
        let most = String(repeating: "é", count: TextLimit.description)
        #expect(try Bodies.changeTask(try Self.body("{\"description\": \"\(most)\"}")) == .update(done: nil, total: .keep, description: .set(most)))
        #expect(Self.error { _ = try Bodies.startTask(try Self.body("{\"\(String(repeating: "k", count: 100_000))\": 1}")) }.count < 400,
            "an unknown key is quoted briefly")
    }

    @Test("a sample whose day is outside the years 1 to 9999 is an error at its date")
    func sampleOutsideTheYears() throws {
        let text = """
            {"data": {"metrics": [{"name": "active_energy", "units": "kcal", "data": [{"qty": 1, "date": "2026-11-30 10:00:00 +0000"},
            {"qty": 5, "date": "9999-12-31 23:59:59 -1400"}]}]}}
            """
        let export = try HealthAutoExport.decode(try Self.body(text))
        let found = Self.error { _ = try export.days { CalendarDay(daysSinceEpoch: Int($0 / 86400)) } }
        #expect(found.hasPrefix("$.data.metrics[0].data[1].date: "), "\(found)")
    }

    @Test("tokens compare in constant time, and only equal ones match")
    func tokens() {
        #expect(constantTimeEqual(Array("secret-token-123".utf8), Array("secret-token-123".utf8)))
        #expect(!constantTimeEqual(Array("secret-token-123".utf8), Array("secret-token-124".utf8)))
        #expect(!constantTimeEqual(Array("secret".utf8), Array("secret-token".utf8)))
        #expect(!constantTimeEqual([], Array("x".utf8)))
    }

    @Test("JSON text: escapes, numbers, nesting; it reads back as the same value")
    func jsonText() throws {
        let value = JSON.object([
            ("a", .string("quote \" backslash \\ tab \t nl \n bell \u{7} é")), ("n", .number(47.5)), ("i", .number(3)),
            ("x", .array([.null, .bool(true), .number(.infinity)])),
        ])
        #expect(value.text.contains("\"i\":3,"))
        #expect(value.text.contains("\\u0007"))
        let back = try JSONParser.parse(value.text)
        #expect(back["a"] == value["a"])
        #expect(back["x"] == .array([.null, .bool(true), .null]), "not finite is null")
    }
}

@Suite("Payloads: the number in what the home sends", .timeLimit(.minutes(10)))
struct PayloadTests {
    static func number(_ text: String, _ field: String? = nil) -> Double? {
        if case .success(let x) = Payload.number(Array(text.utf8), field: field) { x } else { nil }
    }

    static func problem(_ text: String, _ field: String? = nil) -> String {
        if case .failure(let p) = Payload.number(Array(text.utf8), field: field) { p.message } else { "" }
    }

    @Test("bare numbers, JSON numbers and strings, dotted fields into objects and arrays")
    func numbers() {
        #expect(Self.number(" 21.5\n") == 21.5)
        #expect(Self.number("-3e2") == -300)
        #expect(Self.number("{\"temperature\": 21.3, \"humidity\": 47}", "humidity") == 47)
        #expect(Self.number("{\"state\": \"18.4\", \"attributes\": {\"unit\": \"°C\"}}", "state") == 18.4, "Home Assistant's state is a string")
        #expect(Self.number("{\"a\": {\"b\": [1, {\"c\": 9}]}}", "a.b.1.c") == 9)
        #expect(Self.number("42", nil) == 42)
    }

    @Test("what gives no number says why, briefly")
    func problems() {
        #expect(Self.problem("unavailable").hasPrefix("not a number: unavailable"))
        #expect(Self.problem("{\"a\": 1}", "b") == "no b in $")
        #expect(Self.problem("{\"a\": [1]}", "a.3") == "no element 3 in $.a (1 elements)")
        #expect(Self.problem("{\"a\": \"x\"}", "a") == "$.a is \"x\", not a number")
        #expect(Self.problem("{\"a\": 1}", "a.b") == "$.a is a number, not an object to find b in")
        #expect(Self.problem(String(repeating: "z", count: 100)).count < 60, "no long quote of the payload")
        #expect(Self.problem(String(decoding: [0x41], as: UTF8.self)) != "" && { if case .failure(let p) = Payload.number([0xFF], field: nil) { p.message == "not UTF-8 text" } else { false } }())
    }

    @Test("a command's first number")
    func firstNumber() {
        #expect(Payload.firstNumber(in: "temp=48.3'C") == 48.3)
        #expect(Payload.firstNumber(in: "load average: 0.52, 0.58") == 0.52)
        #expect(Payload.firstNumber(in: "delta -4 units") == -4)
        #expect(Payload.firstNumber(in: "nothing here") == nil)
    }
}
