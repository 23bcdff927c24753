@testable import DeviceLogic
import Activity
import Configuration
import Controls
import Input
import Platform
import Raster
import Screens
import Testing

@testable import Runtime

/// The time on the panel against a made-up clock, in a session: the loop wakes once a minute, on
/// the minute (the device's minute timer alone is tested in DeviceLogicTests).
@Suite("Clock: the minute timer in a session", .timeLimit(.minutes(10)))
struct ClockTimerSessionTests {
    static let today = CalendarDay(year: 2026, month: 11, day: 29)!
    static let t0 = Duration.seconds(100)

    /// `seconds` after t0 on both clocks, the wall clock starting at `wall0`.
    static func advance(_ clock: TestClock, to seconds: Double, wall0: Double) -> Duration {
        clock.wall = wall0 + seconds
        return t0 + .milliseconds(Int64((seconds * 1000).rounded()))
    }

    @Test("a session on the ring screen: one frame and one wake-up a minute, an hour long")
    func sessionOneWakeAMinute() throws {
        let sink = RecordingSink(size: Size(width: 480, height: 480))
        let wall0 = 15 * 3600 + 59.5  // 15:00:59.5
        let clock = TestClock(Self.today, untilMidnight: 86400 - wall0, wall: wall0)
        var settings = Settings()
        settings.name = "A"
        settings.screens = [.rings, .clock, .gauges]
        settings.clock.format = .twentyFourHour
        settings.idle = IdleSchedule(dimAfter: nil, blankAfter: nil, dimLevel: 0.3)
        let app = try Assembly.make(
            settings, sink: sink, parts: .init(text: .some(nil), clock: clock, data: FixedData(days: [:]), now: Self.t0),
            log: { _ in }).get()
        let session = app.session
        var now = Self.t0
        var wakes = 0
        var next = try session.turn(now: now, ready: [], signals: [])
        // Follow the loop's own deadlines for an hour, as the timerfd would.
        while case .wait(let deadline?) = next, deadline < Self.t0 + .seconds(3600) {
            #expect(deadline > now, "a deadline in the past")
            let seconds = Double((deadline - Self.t0).components.seconds) + Double((deadline - Self.t0).components.attoseconds) / 1e18
            now = Self.advance(clock, to: seconds, wall0: wall0)
            wakes += 1
            next = try session.turn(now: now, ready: [], signals: [])
        }
        #expect(wakes == 60, "\(wakes) wake-ups in an hour")
        #expect(sink.frames.count == 61, "\(sink.frames.count) frames in an hour")
    }
}
