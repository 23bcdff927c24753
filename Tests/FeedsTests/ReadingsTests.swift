import Activity
import Feeds
import JSON
import Testing

/// The pure parts of issue 40's feeds: days of intervals, Health Connect's derived rings, and the
/// readings format's writer against its reader, in a fixed zone (UTC+1).
@Suite("Feeds: Health Connect records and glance-readings", .timeLimit(.minutes(10)))
struct ReadingsTests {
    static let plusOne = LocalCalendar.fixed(offset: 3600)
    static func body(_ text: String) throws -> Located { try Located.parse(Array(text.utf8)) }
    /// 2026-11-29 00:00 at UTC+1, in seconds since 1970.
    static let midnight29 = Int64(CalendarDay(iso: "2026-11-29")!.daysSinceEpoch) * 86400 - 3600

    @Test("an interval over midnight is split in proportion to time; one of no length is wholly on its day")
    func parts() throws {
        let parts = try #require(Self.plusOne.parts(start: Self.midnight29 + 86400 - 1800, end: Self.midnight29 + 86400 + 5400))
        #expect(parts.map(\.day.description) == ["2026-11-29", "2026-11-30"])
        #expect(parts.map(\.share) == [0.25, 0.75] && parts[1].start == Self.midnight29 + 86400)
        let three = try #require(Self.plusOne.parts(start: Self.midnight29 - 3600, end: Self.midnight29 + 2 * 86400 + 3600))
        #expect(three.count == 4 && abs(three.reduce(0) { $0 + $1.share } - 1) < 1e-15)
        #expect(Self.plusOne.parts(start: Self.midnight29, end: Self.midnight29)?.map(\.share) == [1])
    }

    @Test("Health Connect: exercise minutes once however many sessions; stand from short steps records only")
    func derivedRings() throws {
        func t(_ minutes: Int64) -> String { Readings.localTime(Self.midnight29 + minutes * 60, calendar: Self.plusOne) }
        let text = """
            {"exercise": [{"start_time": "\(t(430))", "end_time": "\(t(460))"}, {"start_time": "\(t(450))", "end_time": "\(t(470))"}],
             "steps": [{"count": 3, "start_time": "\(t(485))", "end_time": "\(t(545))"}, {"count": 9000, "start_time": "\(t(0))", "end_time": "\(t(1439))"},
                       {"count": 0, "start_time": "\(t(700))", "end_time": "\(t(701))"}]}
            """
        let samples = try HealthConnect.decode(try Self.body(text)).samples(calendar: Self.plusOne)
        let exercise = samples.filter { $0.metric == .exerciseTime }
        #expect(exercise.count == 40 && exercise.reduce(0) { $0 + $1.value } == 40, "07:10–07:50, each minute once")
        let stand = samples.filter { $0.metric == .standHours }
        #expect(stand.map { ($0.start - Self.midnight29) / 3600 } == [8, 9], "08:05–09:05 touches 08 and 09; the day's total none")
    }

    @Test("the writer's file reads back to the same samples; the reader refuses what it does not know")
    func writerAndReader() throws {
        let day29 = CalendarDay(iso: "2026-11-29")!, day28 = CalendarDay(iso: "2026-11-28")!
        let samples = [
            FeedSample(metric: .activeEnergy, start: Self.midnight29 + 3600, source: "a", quantity: 41.84, unit: "kJ", value: 41.84 / 4.184, day: day29, path: ""),
            FeedSample(metric: .exerciseTime, start: Self.midnight29 + 3600, source: "a", quantity: 0.75, unit: "min", value: 0.75, day: day29, path: ""),
            FeedSample(metric: .standHours, start: Self.midnight29 + 3600, source: "b\"q", quantity: 1, unit: "hr", value: 1, day: day29, path: ""),
            FeedSample(metric: .activeEnergy, start: Self.midnight29 + 7200, source: "a", quantity: 0.1, unit: "kcal", value: 0.1, day: day28, path: ""),
        ]
        var text = ""
        Readings.write(samples, calendar: Self.plusOne) { text += $0 }
        #expect(text.hasPrefix("{\"format\":\"glance-readings\",\"version\":1,\"source\":\"a\",\"readings\":[\n"))
        #expect(text.contains("{\"start\":\"2026-11-29T01:00:00+01:00\",\"active_energy\":\"41.84kJ\",\"exercise_minutes\":0.75}"), "\(text)")
        #expect(text.contains("\"day\":\"2026-11-28\""), "\(text)")
        let back = try Readings.decode(try Self.body(text)).samples(calendar: Self.plusOne)
        #expect(back.map { [$0.metric.rawValue, "\($0.start)", $0.source, "\($0.quantity)", $0.unit, "\($0.value)", "\($0.day)"] }
            == samples.map { [$0.metric.rawValue, "\($0.start)", $0.source, "\($0.quantity)", $0.unit, "\($0.value)", "\($0.day)"] })
        // Empty: a file all the same.
        var empty = ""
        Readings.write([FeedSample](), calendar: Self.plusOne) { empty += $0 }
        #expect(try Readings.decode(try Self.body(empty)).readings.isEmpty)
        // A later version's field is refused by its version first.
        #expect(throws: FeedError.self) {
            _ = try Readings.decode(try Self.body("{\"format\":\"glance-readings\",\"version\":1.5,\"source\":\"\",\"readings\":[]}"))
        }
    }
}
