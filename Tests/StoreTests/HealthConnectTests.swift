import Activity
import Foundation
import TestSupport
import Testing

@testable import Store

/// Issue 40: Health Connect's webhook (mcnaveen/health-connect-webhook's payload builder,
/// `SyncManager.buildJsonPayload`) and the open glance-readings format, through the real
/// `glance serve` on loopback into a real store, in the board's days (Europe/Berlin, +01:00 in
/// November): one push, "since last sync", overlapping and repeated pushes give the same days,
/// each equal to a table computed by hand.
@Suite("Health Connect and glance-readings pushes: the days by hand, whatever the pushes", .timeLimit(.minutes(10)))
struct HealthConnectTests {
    typealias Server = ServeTests.Server
    static let berlin = ["TZ": "Europe/Berlin"]

    /// A record as the payload builder writes it: its fields, then the metadata when an app is named.
    static func record(_ fields: String, _ start: String, _ end: String, origin: String? = nil) -> String {
        let metadata = origin.map { ",\"metadata\":{\"data_origin\":\"\($0)\",\"recording_method\":\"automatically_recorded\"}" } ?? ""
        return "{\(fields),\"start_time\":\"\(start)\",\"end_time\":\"\(end)\"\(metadata)}"
    }

    static let fitness = "com.google.android.apps.fitness"

    // Local (Berlin) times in the comments; the app writes UTC (`Instant.toString()`), one record
    // here with an offset and fractions, as another writer might.
    /// Active calories: 29th 08:00–09:00 312 kcal; 29th 23:30–30th 00:30 120 kcal (half each
    /// day); 30th 10:00–10:15 45.5 kcal (Samsung Health); 30th 18:00–20:00 200 kcal (no app).
    static let a1 = record("\"calories\":312.0", "2026-11-29T07:00:00Z", "2026-11-29T08:00:00Z", origin: fitness)
    static let a2 = record("\"calories\":120.0", "2026-11-29T22:30:00.000Z", "2026-11-29T23:30:00.000Z", origin: fitness)
    static let a3 = record("\"calories\":45.5", "2026-11-30T09:00:00Z", "2026-11-30T09:15:00Z", origin: "com.sec.android.app.shealth")
    static let a4 = record("\"calories\":200", "2026-11-30T18:00:00+01:00", "2026-11-30T20:00:00.000+01:00")
    /// Exercise: 29th 07:10–07:40 and 07:30–07:50:30 (overlapping: 40.5 minutes, not 50.5);
    /// 29th 23:50–30th 00:20 (10 minutes and 20); 30th 12:00:00–12:00:45 (0.75 minutes).
    static let e1 = record(
        "\"type\":\"56\",\"title\":\"Morning run\",\"duration_seconds\":1800", "2026-11-29T06:10:00Z", "2026-11-29T06:40:00Z",
        origin: fitness)
    static let e2 = record(
        "\"type\":\"79\",\"duration_seconds\":1230,\"distance_meters\":2100.5,\"steps\":2400", "2026-11-29T06:30:00Z",
        "2026-11-29T06:50:30Z", origin: "com.sec.android.app.shealth")
    static let e3 = record("\"type\":\"56\",\"duration_seconds\":1800", "2026-11-29T22:50:00Z", "2026-11-29T23:20:00Z")
    static let e4 = record("\"type\":\"56\",\"duration_seconds\":45", "2026-11-30T11:00:00Z", "2026-11-30T11:00:45Z")
    /// Steps: hours with a step are Stand hours: 29th 08 (two records), 09, 12 (12:00–13:00 is
    /// the 12 o'clock hour only), 23 and 30th 00 (one record across midnight), 15; a record of 0
    /// steps and a day's total (longer than an hour) give none.
    static let s1 = record("\"count\":500", "2026-11-29T07:05:00Z", "2026-11-29T07:10:00Z", origin: fitness)
    static let s2 = record("\"count\":300", "2026-11-29T07:50:00Z", "2026-11-29T08:10:00Z", origin: fitness)
    static let s3 = record("\"count\":1000", "2026-11-29T11:00:00Z", "2026-11-29T12:00:00Z", origin: fitness)
    static let s4 = record("\"count\":50", "2026-11-29T22:55:00Z", "2026-11-29T23:05:00Z", origin: fitness)
    static let s5 = record("\"count\":0", "2026-11-30T06:00:00Z", "2026-11-30T06:01:00Z", origin: fitness)
    static let s6 = record("\"count\":9000", "2026-11-29T23:00:00Z", "2026-11-30T22:59:00Z")
    static let s7 = record("\"count\":1", "2026-11-30T14:30:00Z", "2026-11-30T14:31:00Z", origin: fitness)

    /// The rings by hand: move (kcal), exercise (minutes), stand (hours).
    static let table: [String: [String: Double]] = [
        "2026-11-29": ["move": 312 + 60, "exercise": 40.5 + 10, "stand": 4],
        "2026-11-30": ["move": 60 + 45.5 + 200, "exercise": 20 + 0.75, "stand": 2],
    ]
    /// Samples: 5 of move (a2 is two), 41 + 30 + 1 exercise minutes, 6 stand hours, 8 of steps
    /// (s4 crosses the board's midnight: two; s5's 0 steps is kept, a stand hour it does not make).
    static let sampleCount = 5 + 72 + 6 + 8

    /// A body as the app sends it: `timestamp`, `app_version`, the arrays that have records, and
    /// arrays that are not for the rings.
    static func body(steps: [String] = [], calories: [String] = [], exercise: [String] = []) -> String {
        var parts = ["\"timestamp\":\"2026-11-30T21:15:02.123456Z\"", "\"app_version\":\"1.9.13\""]
        if !steps.isEmpty { parts.append("\"steps\":[\(steps.joined(separator: ","))]") }
        parts.append("\"heart_rate\":[{\"bpm\":72,\"time\":\"2026-11-29T08:00:00Z\"},{\"time\":\"2026-11-29T09:00:00Z\",\"avg\":80,\"min\":60,\"max\":120}]")
        if !calories.isEmpty { parts.append("\"active_calories\":[\(calories.joined(separator: ","))]") }
        parts.append("\"total_calories\":[{\"calories\":2100.0,\"start_time\":\"2026-11-28T23:00:00Z\",\"end_time\":\"2026-11-29T23:00:00Z\"}]")
        if !exercise.isEmpty { parts.append("\"exercise\":[\(exercise.joined(separator: ","))]") }
        parts.append("\"sleep\":[{\"session_end_time\":\"2026-11-29T06:00:00Z\",\"duration_seconds\":27000,\"stages\":[]}]")
        return "{" + parts.joined(separator: ",") + "}"
    }

    static let all = body(steps: [s1, s2, s3, s4, s5, s6, s7], calories: [a1, a2, a3, a4], exercise: [e1, e2, e3, e4])
    /// "Only new data since last sync": each push the records ending at or after the last one's
    /// end (so a record ending on the boundary comes twice, as the app's `endTime >= lastSync` does).
    static let p1 = body(steps: [s1, s2, s3], calories: [a1], exercise: [e1])
    static let p2 = body(steps: [s3, s4], calories: [a2], exercise: [e2, e3])
    static let p3 = body(steps: [s5, s6, s7], calories: [a3, a4], exercise: [e4])

    static let shapes: [(name: String, pushes: [String])] = [
        ("one push", [all]),
        ("since last sync", [p1, p2, p3]),
        (
            "overlapping and repeated",
            [
                body(steps: [s1, s2, s3, s4], calories: [a1, a2], exercise: [e1, e2, e3]),
                body(steps: [s3, s4, s5, s6, s7], calories: [a2, a3, a4], exercise: [e2, e3, e4]), all, p3,
            ]
        ),
    ]

    static func push(_ server: Server, _ path: String, _ body: String) throws -> String {
        let r = try server.request("POST", path, body)
        #expect(r.status == 200, "\(r)")
        return r.body
    }

    /// Each day's figures, exactly (the table's numbers are exact in binary).
    static func expectTable(_ server: Server, _ table: [String: [String: Double]], _ what: String) throws {
        let days = try SamplesTests.days(server)
        #expect(days == table, "\(what): \(days), by hand \(table)")
    }

    @Test("one push, since last sync, overlapping and repeated: every day as the table by hand; a repeat changes nothing")
    func everyShapeGivesTheTable() throws {
        var first: String?
        for shape in Self.shapes {
            let server = try Server(environment: Self.berlin)
            var replies: [String] = []
            for body in shape.pushes { replies.append(try Self.push(server, "/v1/health-connect", body)) }
            if shape.name == "one push" {
                #expect(
                    replies[0]
                        == "{\"days\":{\"new\":2,\"changed\":0,\"unchanged\":0},\"samples\":{\"new\":\(Self.sampleCount),\"changed\":0,\"unchanged\":0},"
                        + "\"ignored\":[\"heart_rate\",\"sleep\",\"total_calories\"]}")
            }
            try Self.expectTable(server, Self.table, shape.name)
            let shown = try server.request("GET", "/v1/days?from=2026-11-27&to=2026-12-02").body
            if let first { #expect(shown == first, "\(shape.name) gives other days than one push") } else { first = shown }
            let store = try Store(path: server.scratch.db, access: .read)
            #expect(try store.sampleCount() == Self.sampleCount, "\(shape.name): one row per unique sample")
            // Steps by hand (s4 split at the board's midnight, 25 and 25); energy on both days, so
            // Move stays energy and the steps are kept beside it, through Health Connect's feed.
            let shownDays = try store.shownDays(from: CalendarDay(iso: "2026-11-29")!, through: CalendarDay(iso: "2026-11-30")!)
            #expect(shownDays.map(\.summary.steps) == [1825, 9026], "\(shape.name): \(shownDays.map(\.summary.steps))")
            #expect(shownDays.allSatisfy { $0.summary.moveMode == .activeEnergy })
            #expect(Set(try store.allSamples().map(\.feed)) == [.healthConnect])
            let sources = Set(try store.allSamples().map(\.source))
            #expect(sources == ["Health Connect", Self.fitness, "com.sec.android.app.shealth"], "\(sources)")
            // The last push again (the app retrying): nothing changes, not a sample.
            // (but for when the person last pushed, which a push says, in seconds: the repeat may
            // come a second later)
            func stored() throws -> String {
                try server.snapshot().split(separator: "\n").filter { !$0.hasPrefix("person ") }.joined(separator: "\n")
            }
            let before = try stored()
            let again = try Self.push(server, "/v1/health-connect", shape.pushes.last!)
            #expect(again.contains("\"changed\":0,") && again.contains("\"samples\":{\"new\":0,\"changed\":0,"), "\(shape.name): \(again)")
            #expect(try stored() == before, "\(shape.name): a repeat changed the store")
            server.expectAnswersAndStops()
        }
    }

    @Test("the app's daily totals (its default resolution) that grow through the day: each push replaces the day's sample")
    func dailyTotalsThatGrow() throws {
        let server = try Server(environment: Self.berlin)
        // The 30th from its midnight (23:00Z) to the push's moment, as readDailyActiveCaloriesData
        // writes it (no metadata: an aggregate).
        for (end, kcal) in [("2026-11-30T08:00:00Z", 120.0), ("2026-11-30T12:00:00Z", 250.5), ("2026-11-30T20:00:00Z", 410.0)] {
            _ = try Self.push(
                server, "/v1/health-connect", Self.body(calories: [Self.record("\"calories\":\(kcal)", "2026-11-29T23:00:00Z", end)]))
        }
        try Self.expectTable(server, ["2026-11-30": ["move": 410]], "daily totals")
        #expect(try Store(path: server.scratch.db, access: .read).sampleCount() == 1)
        server.expectAnswersAndStops()
    }

    @Test("bad bodies: 400 naming the JSON path, the store unchanged; a wrong or missing token 401")
    func badBodies() throws {
        let server = try Server(serve: ", \"maxBody\": 1048576", environment: Self.berlin)
        _ = try Self.push(server, "/v1/health-connect", Self.p1)
        let before = try server.snapshot()
        let ok = Self.record("\"calories\":10", "2026-11-29T09:00:00Z", "2026-11-29T09:10:00Z")
        let zeros = "{\"steps\":[" + Array(repeating: "0", count: 200_000).joined(separator: ",") + "]}"
        // Many sessions of a week each: more exercise minutes than a push may make.
        let weeks = (0..<12).map { week -> String in
            let start = Date(timeIntervalSince1970: 1_764_000_000 + Double(week) * 7 * 86400)
            let f = ISO8601DateFormatter()
            return Self.record("\"type\":\"56\"", f.string(from: start), f.string(from: start.addingTimeInterval(7 * 86400)))
        }
        // More active energy in one day than a day holds (100,000 kcal).
        let heavy = (0..<60).map { i in
            Self.record("\"calories\":2000", "2026-11-29T10:\(i < 10 ? "0" : "")\(i):00Z", "2026-11-29T10:\(i < 10 ? "0" : "")\(i):30Z")
        }
        let cases: [(String, String, String)] = [
            ("[1]", "$: expected an object", "not an object"),
            ("{\"steps\":{\"count\":1}}", "$.steps: expected an array, found an object", "wrong type"),
            (
                "{\"steps\":[" + Self.record("\"count\":\"12\"", "2026-11-29T09:00:00Z", "2026-11-29T09:10:00Z") + "]}",
                "$.steps[0].count: expected a number, found a string", "a count as text"
            ),
            (
                "{\"active_calories\":[\(ok),{\"calories\":5,\"start_time\":\"2026-11-29T09:00:00Z\"}]}",
                "$.active_calories[1].end_time: missing", "a missing field"
            ),
            (
                "{\"active_calories\":[{\"start_time\":\"2026-11-29T09:00:00Z\",\"end_time\":\"2026-11-29T09:10:00Z\"}]}",
                "$.active_calories[0].calories: missing", "a missing amount"
            ),
            (
                "{\"active_calories\":[" + Self.record("\"calories\":NaN", "2026-11-29T09:00:00Z", "2026-11-29T09:10:00Z") + "]}",
                "$: malformed JSON", "NaN"
            ),
            (
                "{\"active_calories\":[" + Self.record("\"calories\":\"NaN\"", "2026-11-29T09:00:00Z", "2026-11-29T09:10:00Z") + "]}",
                "$.active_calories[0].calories: expected a number", "NaN as text"
            ),
            (
                "{\"active_calories\":[" + Self.record("\"calories\":1e999", "2026-11-29T09:00:00Z", "2026-11-29T09:10:00Z") + "]}",
                "$: malformed JSON", "infinity"
            ),
            (
                "{\"active_calories\":[\(ok)," + Self.record("\"calories\":-5", "2026-11-29T09:00:00Z", "2026-11-29T09:10:00Z") + "]}",
                "$.active_calories[1].calories: expected a number of 0 or more", "negative"
            ),
            (
                "{\"exercise\":[" + Self.record("\"duration_seconds\":-1", "2026-11-29T09:00:00Z", "2026-11-29T09:10:00Z") + "]}",
                "$.exercise[0].duration_seconds: expected a number of 0 or more", "negative duration"
            ),
            (zeros, "$: more JSON values than any request holds", "a huge array"),
            ("{\"exercise\":[\(weeks.joined(separator: ","))]}", "$.exercise: the sessions cover more than 100000 minutes", "huge sessions"),
            ("{\"active_calories\":[\(heavy.joined(separator: ","))]}", "active_energy on 2026-11-29: the samples sum to 120312 kcal", "too much in a day"),
            (
                "{\"steps\":[" + Self.record("\"count\":5", "2026-11-29T09:00:00", "2026-11-29T09:10:00Z") + "]}",
                "$.steps[0].start_time: expected an ISO-8601 time with its zone", "a date without zone"
            ),
            (
                "{\"exercise\":[\(Self.e1)," + Self.record("\"type\":\"56\"", "2026-11-29T09:00:00Z", "2026-11-29T08:59:59Z") + "]}",
                "$.exercise[1].end_time: ends before it starts", "ending before it starts"
            ),
            (
                "{\"steps\":[" + Self.record("\"count\":5", "2026-11-01T09:00:00Z", "2026-11-29T09:00:00Z") + "]}",
                "$.steps[0].end_time: more than a week after start_time", "longer than a week"
            ),
            (
                "{\"steps\":[" + Self.record("\"count\":5", "2026-11-29T09:00:00Z", "2026-11-29T09:10:00Z", origin: "app\\u001b[2J") + "]}",
                "$.steps[0].metadata.data_origin: ", "a control character in the app's name"
            ),
            ("{\"timestamp\":\"yesterday\"}", "$.timestamp: expected an ISO-8601 time", "a bad timestamp"),
        ]
        for (body, error, what) in cases {
            let r = try server.request("POST", "/v1/health-connect", body)
            #expect(r.status == 400 && r.body.contains(error), "\(what): \(r)")
            #expect(try server.snapshot() == before, "\(what): the store changed")
        }
        for authorization in ["Bearer wrong-token-0123456789", nil] as [String?] {
            let r = try server.request("POST", "/v1/health-connect", Self.all, authorization: .some(authorization))
            #expect(r.status == 401, "\(String(describing: authorization)): \(r)")
            let q = try server.request("POST", "/v1/readings", Self.readings, authorization: .some(authorization))
            #expect(q.status == 401, "\(String(describing: authorization)): \(q)")
        }
        #expect(try server.request("GET", "/v1/health-connect").status == 405)
        #expect(try server.snapshot() == before, "the store changed")
        server.expectAnswersAndStops()
    }

    @Test("dates far outside serve's window are refused with the record's path; the store unchanged")
    func outsideTheWindow() throws {
        let server = try Server(serve: ", \"pastDays\": 3", environment: Self.berlin)
        let f = ISO8601DateFormatter()
        let now = Date()
        let recent = Self.record("\"calories\":10", f.string(from: now.addingTimeInterval(-3600)), f.string(from: now.addingTimeInterval(-3000)))
        _ = try Self.push(server, "/v1/health-connect", Self.body(calories: [recent]))
        let before = try server.snapshot()
        let old = Self.record("\"calories\":10", "2020-01-01T09:00:00Z", "2020-01-01T09:10:00Z")
        var r = try server.request("POST", "/v1/health-connect", Self.body(calories: [recent, old]))
        #expect(r.status == 400 && r.body.contains("$.active_calories[1].start_time: 2020-01-01 is outside the days a push may write"), "\(r)")
        let future = Self.record("\"count\":10", "2100-01-01T09:00:00Z", "2100-01-01T09:10:00Z")
        r = try server.request("POST", "/v1/health-connect", Self.body(steps: [future]))
        #expect(r.status == 400 && r.body.contains("$.steps[0].start_time: 2100-01-01 is outside"), "\(r)")
        r = try server.request(
            "POST", "/v1/readings",
            "{\"format\":\"glance-readings\",\"version\":1,\"source\":\"s\",\"readings\":[{\"start\":\"2020-01-01T09:00:00Z\",\"steps\":5}]}")
        #expect(r.status == 400 && r.body.contains("$.readings[0].start: 2020-01-01 is outside"), "\(r)")
        #expect(try server.snapshot() == before)
        server.expectAnswersAndStops()
    }

    // MARK: glance-readings

    /// A script's readings: 29th 10:00–10:01 (5 kcal, a minute of exercise, 120 steps); 29th
    /// 23:30–30th 00:30 100 kcal (half each day); 30th 10:00 a stand hour and 12.5 minutes of
    /// exercise (no end: wholly on its day); 30th 09:00 dated the 29th (7 kcal on the 29th).
    static let readings = """
        {"format": "glance-readings", "version": 1, "source": "pebble-script", "readings": [
          {"start": "2026-11-29T10:00:00+01:00", "end": "2026-11-29T10:01:00+01:00", "steps": 120, "active_energy": 5, "exercise_minutes": 1},
          {"start": "2026-11-29T22:30:00Z", "end": "2026-11-29T23:30:00Z", "active_energy": 100},
          {"start": "2026-11-30T09:00:00Z", "stand_hours": 1, "exercise_minutes": 12.5},
          {"start": "2026-11-30T08:00:00Z", "day": "2026-11-29", "active_energy": "7kcal", "source": "phone"}
        ]}
        """
    static let readingsTable: [String: [String: Double]] = [
        "2026-11-29": ["move": 5 + 50 + 7, "exercise": 1],
        "2026-11-30": ["move": 50, "exercise": 12.5, "stand": 1],
    ]

    @Test("glance-readings on POST /v1/readings: the days by hand; sent again, nothing changes; strict about what it takes")
    func readingsPush() throws {
        let server = try Server(environment: Self.berlin)
        let reply = try Self.push(server, "/v1/readings", Self.readings)
        // 8 samples: the first reading's three figures and its 120 steps, two halves, two, one.
        #expect(reply == "{\"days\":{\"new\":2,\"changed\":0,\"unchanged\":0},\"samples\":{\"new\":8,\"changed\":0,\"unchanged\":0}}")
        try Self.expectTable(server, Self.readingsTable, "readings")
        let before = try server.snapshot()
        _ = try Self.push(server, "/v1/readings", Self.readings)
        #expect(try server.snapshot() == before, "the same readings again changed the store")
        let top = "\"format\":\"glance-readings\",\"version\":1,\"source\":\"s\""
        let cases: [(String, String, String)] = [
            ("{\"format\":\"glance-readings\",\"version\":2,\"source\":\"s\",\"readings\":[],\"new\":1}",
                "$.version: version 2 is not one this Glance reads (it reads glance-readings version 1)", "another version"),
            ("{\"format\":\"healthkit\",\"version\":1,\"source\":\"s\",\"readings\":[]}", "$.format: expected \\\"glance-readings\\\"", "another format"),
            ("{\(top)}", "$.readings: missing", "no readings"),
            ("{\(top),\"readings\":[],\"extra\":1}", "$.extra: unknown field", "an unknown field"),
            ("{\(top),\"readings\":[{\"start\":\"2026-11-29T10:00:00Z\",\"stpes\":3}]}", "$.readings[0].stpes: unknown field", "a misspelt field"),
            ("{\(top),\"readings\":[{\"start\":\"2026-11-29T10:00:00Z\"}]}", "$.readings[0]: no figure given", "no figure"),
            ("{\(top),\"readings\":[{\"start\":\"2026-11-29T10:00:00\",\"steps\":3}]}", "$.readings[0].start: expected an ISO-8601 time with its zone", "no zone"),
            ("{\(top),\"readings\":[{\"start\":\"2026-11-29T10:00:00Z\",\"end\":\"2026-11-29T09:00:00Z\",\"steps\":3}]}",
                "$.readings[0].end: ends before it starts", "ending before it starts"),
            ("{\(top),\"readings\":[{\"start\":\"2026-11-29T10:00:00Z\",\"exercise_minutes\":-1}]}",
                "$.readings[0].exercise_minutes: expected a number of 0 or more", "negative"),
            ("{\(top),\"readings\":[{\"start\":\"2026-11-29T10:00:00Z\",\"active_energy\":\"12 apples\"}]}",
                "$.readings[0].active_energy: expected kcal as a number", "a bad energy"),
            ("{\(top),\"readings\":[{\"start\":\"2026-11-29T10:00:00Z\",\"end\":\"2026-11-29T10:01:00Z\",\"day\":\"2026-11-29\",\"steps\":1}]}",
                "$.readings[0].day: day goes with a reading without end", "day with end"),
            ("{\(top),\"readings\":[{\"start\":\"2026-11-29T10:00:00Z\",\"stand_hours\":1},{\"start\":\"2026-11-29T11:00:00+01:00\",\"stand_hours\":1}]}",
                "$.readings[1]: the same source, start and figure as $.readings[0]", "a reading twice"),
            ("{\(top),\"readings\":[{\"start\":\"2026-11-29T10:00:00Z\",\"stand_hours\":25}]}", "25 hr is above 24", "more than a day holds"),
        ]
        for (body, error, what) in cases {
            let r = try server.request("POST", "/v1/readings", body)
            #expect(r.status == 400 && r.body.contains(error), "\(what): \(r)")
            #expect(try server.snapshot() == before, "\(what): the store changed")
        }
        server.expectAnswersAndStops()
    }

    @Test("glance export --readings, then glance import into an empty store: the same samples and days")
    func readingsRoundTrip() throws {
        let server = try Server(environment: Self.berlin)
        _ = try Self.push(server, "/v1/health-connect", Self.all)
        _ = try Self.push(server, "/v1/readings", Self.readings.replacingOccurrences(of: "\"active_energy\": 100", with: "\"active_energy\": \"418.4kJ\""))
        // Health Auto Export's: kJ from a watch, and a daily sample dated by the phone (+14:00) on
        // a day its moment is not on in Berlin.
        _ = try Self.push(
            server, "/v1/health-auto-export",
            """
            {"data":{"metrics":[{"name":"active_energy","units":"kJ","data":[{"qty":41.84,"date":"2026-11-28 10:00:00 +0100","source":"Watch"}]},
            {"name":"apple_exercise_time","units":"min","data":[{"qty":33,"date":"2026-11-27 00:00:00 +1400"}]}]}}
            """)
        server.expectAnswersAndStops()
        let file = server.scratch.file("readings.json")
        let exported = try GlanceCLI.start(["export", "--readings", "--db", server.scratch.db, "--output", file], in: server.scratch, environment: Self.berlin).1()
        #expect(exported.status == 0, "\(exported.err)")
        let text = try String(contentsOfFile: file, encoding: .utf8)
        #expect(text.hasPrefix("{\"format\":\"glance-readings\",\"version\":1,"), "\(text.prefix(200))")
        #expect(text.contains("\"day\":\"2026-11-27\""), "the daily sample keeps its date: \(text)")
        #expect(text.contains("\"active_energy\":\"41.84kJ\""), "energy keeps its unit: \(text)")
        let empty = server.scratch.file("copy.db")
        let imported = try GlanceCLI.start(["import", file, "--db", empty, "--quiet"], in: server.scratch, environment: Self.berlin).1()
        #expect(imported.status == 0, "\(imported.err)")
        #expect(imported.out.contains("imported 4 days (2026-11-27 to 2026-11-30)"), "\(imported.out)")
        let original = try Store(path: server.scratch.db, access: .read), copy = try Store(path: empty, access: .read)
        #expect(try copy.allSamples() == original.allSamples(), "the same samples")
        let first = CalendarDay(iso: "2026-11-20")!, last = CalendarDay(iso: "2026-12-05")!
        let days = try original.shownDays(from: first, through: last)
        let copied = try copy.shownDays(from: first, through: last)
        #expect(days.count == 4 && copied.count == days.count)
        for (a, b) in zip(days, copied) { #expect(a.day == b.day && a.summary == b.summary, "\(a) \(b)") }
        // Imported again: nothing changes.
        let again = try GlanceCLI.start(["import", file, "--db", empty, "--quiet"], in: server.scratch, environment: Self.berlin).1()
        #expect(again.status == 0 && again.out.contains("0 new, 0 changed, 4 unchanged"), "\(again.out) \(again.err)")
        // A file that is not one: refused, the store as it was (without a task, whose row would
        // record the failure).
        let before = try snapshot(empty)
        let bad = server.scratch.write("bad.json", "{\"format\":\"glance-readings\",\"version\":7,\"source\":\"x\",\"readings\":[]}")
        let refused = try GlanceCLI.start(["import", bad, "--db", empty, "--quiet", "--no-task"], in: server.scratch, environment: Self.berlin).1()
        #expect(refused.status == 65 && refused.err.contains("$.version: version 7 is not one this Glance reads"), "\(refused.err)")
        #expect(try snapshot(empty) == before)
    }
}
