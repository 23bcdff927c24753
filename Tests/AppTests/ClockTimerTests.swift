@testable import DeviceLogic
import Activity
import Configuration
import Controls
import Input
import Platform
import Raster
import Screens
import Testing

@testable import App

/// The time on the panel against a made-up clock: the loop wakes once a minute, on the minute,
/// while a screen shows the time, and not at all in between (nor when nothing shows it).
@Suite("Clock: the minute timer")
struct ClockTimerTests {
    static let today = CalendarDay(year: 2026, month: 11, day: 29)!
    static let t0 = Duration.seconds(100)

    static func controller(
        clock: TestClock, screens: [ScreenKind] = [.rings, .clock, .gauges], format: ClockFormat = .twentyFourHour,
        panel: Size = Size(width: 480, height: 480), data: DataSource = FixedData(days: [:]),
        idle: IdleSchedule = IdleSchedule(dimAfter: nil, blankAfter: nil, dimLevel: 0.3), viewing: Viewing = Viewing()
    ) throws -> DeviceController {
        var maker = ScreenMaker(text: nil, locale: .english, shape: .rectangle, name: "A")
        maker.clockFormat = format
        maker.viewing = viewing
        return DeviceController(
            screens: screens, maker: maker, data: data, input: nil,
            router: InputRouter(keyMap: try KeyMap.make(Configuration()).get(), touch: TouchSetting(), panel: panel, rotation: .none),
            idle: idle, clock: clock, intro: false, now: t0, log: { _ in })
    }

    /// `seconds` after t0 on both clocks, the wall clock starting at `wall0`.
    static func advance(_ clock: TestClock, to seconds: Double, wall0: Double) -> Duration {
        clock.wall = wall0 + seconds
        return t0 + .milliseconds(Int64((seconds * 1000).rounded()))
    }

    @Test("the ring screen with the time: the deadline is the next minute; the minute redraws, nothing between does")
    func ringScreenMinutes() throws {
        let wall0 = 15 * 3600 + 4 * 60 + 30.0  // 15:04:30
        let clock = TestClock(Self.today, untilMidnight: 86400 - wall0, wall: wall0)
        let c = try Self.controller(clock: clock)
        _ = c.scene(now: Self.t0)
        #expect(c.showsTime)
        #expect(c.nextDeadline(now: Self.t0) == Self.t0 + .seconds(30) + DeviceController.minuteMargin)
        // Ten seconds on: still 15:04; nothing to draw, the same deadline.
        var now = Self.advance(clock, to: 10, wall0: wall0)
        #expect(!c.advance(to: now))
        #expect(c.nextDeadline(now: now) == Self.t0 + .seconds(30) + DeviceController.minuteMargin)
        // The deadline: 15:05, drawn.
        now = Self.advance(clock, to: 30.002, wall0: wall0)
        #expect(c.advance(to: now) && c.lastChange.rawValue == "time")
        _ = c.scene(now: now)
        #expect(c.nextDeadline(now: now) == now + .milliseconds(59_998) + DeviceController.minuteMargin)
        #expect(!c.advance(to: now), "the same minute twice")
    }

    @Test("no minute wake-ups where no time is shown: the gauge screen, a blank panel, the clock off, a tiny panel's one line")
    func noTimeNoTimer() throws {
        let wall0 = 9 * 3600 + 41 * 60 + 10.0
        let clock = TestClock(Self.today, untilMidnight: 86400 - wall0, wall: wall0)
        let midnight = Self.t0 + .seconds(86400 - wall0)
        let data = FixedData(days: [:], gauges: [Gauge(style: .circular, value: 3)])
        let gauges = try Self.controller(clock: clock, screens: [.gauges, .rings], data: data)
        _ = gauges.scene(now: Self.t0)
        #expect(!gauges.showsTime && gauges.nextDeadline(now: Self.t0) == midnight)
        // On to the ring screen: its header has the time.
        #expect(gauges.perform(.action(.nextScreen), now: Self.t0) && gauges.navigation.screen == .rings)
        #expect(gauges.showsTime && gauges.nextDeadline(now: Self.t0) == Self.t0 + .seconds(50) + DeviceController.minuteMargin)

        let off = try Self.controller(clock: clock, format: .off)
        #expect(!off.showsTime && off.nextDeadline(now: Self.t0) == midnight)
        // The clock screen shows the time with the format off too (on a 24-hour clock).
        #expect(off.perform(.action(.nextScreen), now: Self.t0) && off.navigation.screen == .clock && off.showsTime)

        // A 240x240 panel's rings in pages: the page's one line holds the day and the time.
        let tiny = try Self.controller(clock: clock, panel: Size(width: 240, height: 240))
        #expect(tiny.showsTime && tiny.nextDeadline(now: Self.t0) == Self.t0 + .seconds(50) + DeviceController.minuteMargin)
        // The same panel seen from 20 cm (on a wrist, looked at closely): its rings and figures on one page, whose
        // one line over the rings is the day: no time, no minute wake-ups.
        let wrist = try Self.controller(clock: clock, panel: Size(width: 240, height: 240), viewing: Viewing(distance: 20))
        #expect(!wrist.showsTime && wrist.nextDeadline(now: Self.t0) == midnight)

        let sleepy = try Self.controller(clock: clock, idle: IdleSchedule(dimAfter: 5, blankAfter: 10, dimLevel: 0.3))
        _ = sleepy.scene(now: Self.t0)
        let dimmed = Self.advance(clock, to: 5, wall0: wall0)
        #expect(sleepy.advance(to: dimmed) && sleepy.idle == .dimmed(0.3) && sleepy.showsTime, "a dimmed clock still ticks")
        let blank = Self.advance(clock, to: 10, wall0: wall0)
        #expect(sleepy.advance(to: blank) && sleepy.blanked)
        #expect(!sleepy.showsTime && sleepy.nextDeadline(now: blank) == midnight, "blank: only midnight wakes it")
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
        let c = app.controller, session = app.session
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
