import Activity
import Foundation
import TestSupport
import Testing

@testable import Store

/// Health Auto Export's samples through the real `glance serve` on loopback into a real store:
/// however the phone sends them (one push, "since last sync", overlapping, twice, hourly
/// aggregates that grow), the days are the sums of the unique samples in the board's time zone.
@Suite("samples, not totals: the days are the sum of unique samples, whatever the pushes", .timeLimit(.minutes(10)))
struct SamplesTests {
    /// One sample as the app sends it.
    struct Sample {
        var metric: String
        var units: String
        var qty: Double
        /// The phone's day, time and offset (seconds east of UTC).
        var day: CalendarDay
        var second: Int
        var offset: Int
        var source: String? = nil

        var epoch: Int { day.daysSinceEpoch * 86400 + second - offset }
        /// The board's day (Europe/Berlin: +0100 in November and December).
        var boardDay: CalendarDay { CalendarDay(daysSinceEpoch: Int((Double(epoch + 3600) / 86400).rounded(.down))) }
        /// In the ring's unit: kcal, minutes, hours.
        var value: Double { units == "kJ" ? qty / 4.184 : qty }

        var json: String {
            func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
            let sign = offset < 0 ? "-" : "+"
            let zone = sign + two(abs(offset) / 3600) + two(abs(offset) / 60 % 60)
            let time = "\(day) \(two(second / 3600)):\(two(second / 60 % 60)):\(two(second % 60)) \(zone)"
            return "{\"qty\":\(qty),\"date\":\"\(time)\"" + (source.map { ",\"source\":\"\($0)\"" } ?? "") + "}"
        }
    }

    /// Per-minute samples over two days in two UTC offsets: the 29th in Berlin (+0100, kJ from the
    /// watch), the 30th in New York (-0500, kcal) until 19:29 there, which is past midnight in
    /// Berlin (the 1st); exercise every third minute, stand on odd hours.
    static let samples: [Sample] = {
        let berlin = CalendarDay(iso: "2026-11-29")!, newYork = CalendarDay(iso: "2026-11-30")!
        var all: [Sample] = []
        for minute in (7 * 60)..<(22 * 60) {
            all.append(Sample(metric: "active_energy", units: "kJ", qty: Double(minute % 5 + 1) * 0.8368, day: berlin, second: minute * 60, offset: 3600, source: "Watch"))
            if minute % 3 == 0 {
                all.append(Sample(metric: "apple_exercise_time", units: "min", qty: 1, day: berlin, second: minute * 60, offset: 3600))
            }
        }
        for hour in 7..<22 where hour % 2 == 1 {
            all.append(Sample(metric: "apple_stand_hour", units: "count", qty: 1, day: berlin, second: hour * 3600, offset: 3600))
        }
        for minute in (9 * 60)..<(19 * 60 + 30) {
            all.append(Sample(metric: "active_energy", units: "kcal", qty: Double(minute % 4) * 0.25 + 0.1, day: newYork, second: minute * 60, offset: -18000))
            if minute % 4 == 0 {
                all.append(Sample(metric: "apple_exercise_time", units: "min", qty: 0.5, day: newYork, second: minute * 60, offset: -18000))
            }
        }
        return all.sorted { $0.epoch < $1.epoch }
    }()

    /// A body with `samples`, one metric entry per name and unit (kJ and kcal apart, as the app
    /// sends a unit per metric), and a metric that is not for the rings.
    static func body(_ samples: [Sample]) -> String {
        var groups: [String: [Sample]] = [:]
        var order: [String] = []
        for s in samples {
            let key = s.metric + " " + s.units
            if groups[key] == nil { order.append(key) }
            groups[key, default: []].append(s)
        }
        let metrics = order.map { key -> String in
            let g = groups[key]!
            return "{\"name\":\"\(g[0].metric)\",\"units\":\"\(g[0].units)\",\"data\":[\(g.map(\.json).joined(separator: ","))]}"
        }
        let steps = "{\"name\":\"step_count\",\"units\":\"count\",\"data\":[{\"qty\":12,\"date\":\"2026-11-29 10:00:00 +0100\"}]}"
        return "{\"data\":{\"metrics\":[\((metrics + [steps]).joined(separator: ","))],\"workouts\":[]}}"
    }

    /// Each board day's sums of `samples` (kcal, minutes, hours).
    static func expected(_ samples: [Sample]) -> [String: [String: Double]] {
        var days: [String: [String: Double]] = [:]
        let field = ["active_energy": "move", "apple_exercise_time": "exercise", "apple_stand_hour": "stand"]
        for s in samples { days[s.boardDay.description, default: [:]][field[s.metric]!, default: 0] += s.value }
        return days
    }

    /// The days as the server gives them, by date: move (kcal), exercise, stand.
    static func days(_ server: ServeTests.Server) throws -> [String: [String: Double]] {
        let r = try server.request("GET", "/v1/days?from=2026-11-27&to=2026-12-03")
        try #require(r.status == 200, "\(r)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(r.body.utf8)) as? [String: Any])
        var days: [String: [String: Double]] = [:]
        for day in json["days"] as? [[String: Any]] ?? [] {
            var figures: [String: Double] = [:]
            for key in ["move", "exercise", "stand"] { if let x = day[key] as? Double { figures[key] = x } }
            days[day["date"] as? String ?? "?"] = figures
        }
        return days
    }

    static func expectClose(_ found: [String: [String: Double]], _ wanted: [String: [String: Double]], _ what: String) {
        #expect(Set(found.keys) == Set(wanted.keys), "\(what): the days \(found.keys.sorted()), expected \(wanted.keys.sorted())")
        for (day, figures) in wanted {
            for (key, x) in figures {
                let got = found[day]?[key] ?? -1
                #expect(abs(got - x) <= 1e-9 * max(1, abs(x)), "\(what): \(day) \(key) \(got), the samples sum to \(x)")
            }
            #expect(Set(found[day]?.keys.map { $0 } ?? []) == Set(figures.keys), "\(what): \(day) has only the figures it has samples of")
        }
    }

    /// Posts each body in turn; the replies.
    static func push(_ server: ServeTests.Server, _ bodies: [String]) throws -> [String] {
        try bodies.map { body in
            let r = try server.request("POST", "/v1/health-auto-export", body)
            #expect(r.status == 200, "\(r)")
            return r.body
        }
    }

    /// Ways to send the same minutes: each a list of pushes.
    static let shapes: [(name: String, pushes: [[Sample]])] = {
        let all = samples, n = samples.count
        return [
            ("one push", [all]),
            ("three since-last-sync pushes", [Array(all[..<(n / 3)]), Array(all[(n / 3)..<(2 * n / 3)]), Array(all[(2 * n / 3)...])]),
            ("overlapping pushes", [Array(all[..<(n * 6 / 10)]), Array(all[(n * 4 / 10)...]), Array(all[(n / 4)..<(n / 2)])]),
            ("twice", [all, all]),
        ]
    }()

    @Test("one push, since last sync, overlapping, twice: the same days, the sums of the unique samples; a repeat changes nothing")
    func everyShapeGivesTheSameDays() throws {
        let wanted = Self.expected(Self.samples)
        // Three board days: the 29th, the 30th and (New York's evening) the 1st.
        #expect(wanted.keys.sorted() == ["2026-11-29", "2026-11-30", "2026-12-01"])
        var first: String?
        for shape in Self.shapes {
            let server = try ServeTests.Server(environment: ["TZ": "Europe/Berlin"])
            _ = try Self.push(server, shape.pushes.map(Self.body))
            Self.expectClose(try Self.days(server), wanted, shape.name)
            let shown = try server.request("GET", "/v1/days?from=2026-11-27&to=2026-12-03").body
            // Not only close: the same rows, so the same figures to the last bit.
            if let first { #expect(shown == first, "\(shape.name) gives other days than one push") } else { first = shown }
            // The last push again: nothing changes, not a sample (but the person's last push:
            // the phone did push, and is not stale).
            func stored() throws -> String {
                try server.snapshot().split(separator: "\n").filter { !$0.hasPrefix("person ") }.joined(separator: "\n")
            }
            let before = try stored()
            let again = try Self.push(server, [Self.body(shape.pushes.last!)])[0]
            #expect(again.contains("\"changed\":0,\"unchanged\":") && again.contains("\"samples\":{\"new\":0,\"changed\":0,"), "\(shape.name): \(again)")
            #expect(try stored() == before, "\(shape.name): a repeat changed the store")
            let rows = try Store(path: server.scratch.db, access: .read).sampleCount()
            #expect(rows == Self.samples.count, "\(shape.name): one row per unique sample, \(rows)")
            server.expectAnswersAndStops()
        }
    }

    /// The samples summed into hours, as the app's hourly aggregation sends them (the hour's
    /// start, the phone's offset), of the samples before `cut` (seconds since 1970).
    static func hourly(_ samples: [Sample], before cut: Int) -> [Sample] {
        var hours: [String: Sample] = [:]
        var order: [String] = []
        for s in samples where s.epoch < cut {
            var hour = s
            hour.second = s.second / 3600 * 3600
            hour.source = nil
            let key = "\(s.metric) \(s.units) \(hour.day) \(hour.second)"
            if var had = hours[key] {
                had.qty += s.qty
                hours[key] = had
            } else {
                order.append(key)
                hours[key] = hour
            }
        }
        return order.map { hours[$0]! }
    }

    @Test("hourly aggregates that grow during the hour: each push replaces the hours it repeats; the days are the samples' sums")
    func hourlyAggregatesThatGrow() throws {
        // Pushes faster than a phone's: the rate limit out of the way.
        let server = try ServeTests.Server(serve: ", \"perSecond\": 1000", environment: ["TZ": "Europe/Berlin"])
        let start = Self.samples.first!.epoch, end = Self.samples.last!.epoch + 60
        // A push every 25 minutes of the two days ("Today" and "Yesterday", hourly): each carries
        // every hour so far, the current one part-way.
        var cut = start + 25 * 60
        var pushes = 0
        while cut < end + 25 * 60 {
            _ = try Self.push(server, [Self.body(Self.hourly(Self.samples, before: cut))])
            pushes += 1
            cut += 25 * 60
        }
        #expect(pushes > 40)
        Self.expectClose(try Self.days(server), Self.expected(Self.samples), "hourly")
        let before = try server.snapshot()
        _ = try Self.push(server, [Self.body(Self.hourly(Self.samples, before: end))])
        #expect(try server.snapshot() == before, "the last push again changed the store")
        server.expectAnswersAndStops()
    }

    @Test("a day written directly and samples: the samples' sums win for their figures, the day's own figures and goals stay")
    func directDaysAndSamples() throws {
        let server = try ServeTests.Server(environment: ["TZ": "Europe/Berlin"])
        #expect(try server.request("PUT", "/v1/days/2026-11-29", "{\"move\": 999, \"moveGoal\": 700, \"exercise\": 5}").status == 200)
        #expect(try server.request("PUT", "/v1/days/2026-11-28", "{\"move\": 321}").status == 200)
        let moves = Self.samples.filter { $0.metric == "active_energy" }
        _ = try Self.push(server, [Self.body(moves)])
        let days = try Self.days(server)
        let wanted = Self.expected(moves)
        #expect(abs((days["2026-11-29"]?["move"] ?? 0) - wanted["2026-11-29"]!["move"]!) < 1e-9, "the samples' sum, not 999")
        #expect(days["2026-11-29"]?["exercise"] == 5, "a figure without samples is the day's own")
        #expect(days["2026-11-28"]?["move"] == 321, "a day without samples is as written")
        let body = try server.request("GET", "/v1/days?from=2026-11-29&to=2026-11-29").body
        #expect(body.contains("\"moveGoal\":700") && body.contains("\"exerciseGoal\":30"), "own goals kept, the others the configuration's: \(body)")
        // A source the panel could not show whole is refused where it is, and nothing is kept.
        let before = try server.snapshot()
        var bad = moves[1]
        bad.source = "Watch\\u0007"
        let r = try server.request("POST", "/v1/health-auto-export", Self.body([moves[0], bad]))
        #expect(r.status == 400 && r.body.contains("$.data.metrics[0].data[1].source"), "\(r)")
        #expect(try server.snapshot() == before)
        server.expectAnswersAndStops()
    }

    @Test("a store made by the schema before samples (version 2) is migrated: its days, metrics and preferences kept")
    func migratesAVersion2Store() throws {
        let scratch = Scratch()
        // The previous release's store, made by its own migrations.
        do {
            let db = try Connection(path: scratch.db, mode: .readWrite(create: true))
            for migration in Schema.migrations.prefix(2) { try db.execute(migration) }
            try db.execute(
                """
                PRAGMA user_version = 2;
                INSERT INTO day_summaries (date, active_energy_burned, active_energy_burned_unit, active_energy_burned_goal,
                    active_energy_burned_goal_unit, exercise_time, exercise_time_goal) VALUES ('2026-11-29', 300, 'kcal', 500, 'kcal', 12, 30);
                INSERT INTO metrics (name, value, updated) VALUES ('cpu', 41.5, 1);
                INSERT INTO preferences (name, value, updated) VALUES ('brightness', '40', 1);
                """)
        }
        #expect(throws: StoreError.self, "a reader does not migrate") { _ = try Store(path: scratch.db, access: .read) }
        let store = try Store(path: scratch.db)
        #expect(try store.schemaVersion() == Schema.currentVersion)
        let day = CalendarDay(iso: "2026-11-29")!
        #expect(try store.summary(for: day) == ActivitySummary(
            activeEnergyBurned: .kilocalories(300), activeEnergyBurnedGoal: .kilocalories(500), exerciseTime: 12, exerciseTimeGoal: 30))
        #expect(try store.metric(named: "cpu")?.value == 41.5 && store.preference("brightness") == "40")
        try store.putSamples([
            Store.Sample(metric: .activeEnergy, start: Int64(Self.samples[0].epoch), quantity: 418.4, unit: "kJ", value: 100, day: day)
        ])
        #expect(try store.shownSummary(for: day)?.activeEnergyBurned == Energy(418.4, .kilojoule), "the samples over the old day")
        #expect(try store.shownSummary(for: day)?.exerciseTime == 12)
    }
}
