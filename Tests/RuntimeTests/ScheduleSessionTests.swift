@testable import DeviceLogic
import Activity
import Clocks
import Configuration
import ConfigurationFile
import Controls
import Foundation
import Input
import Platform
import Raster
import Screens
import Testing

@testable import Runtime

#if canImport(Glibc)
    import Glibc
#endif

/// The schedule through the session's loop, against a recording sink, a made-up wall clock (UTC)
/// and made-up input: the loop sleeps until the boundary, the panel goes black and powers down
/// there, and the first touch or key while it is dark or dimmed only wakes it.
@Suite("Session: the schedule's boundaries and the waking touch", .timeLimit(.minutes(10)))
struct ScheduleSessionTests {
    static let day = CalendarDay(year: 2026, month: 11, day: 30)!
    static let t0 = Duration.seconds(1000)

    /// The wall clock: `start` (seconds since the epoch) at `t0` on the monotonic clock.
    final class Wall: LocalClock {
        let start: Int64
        var offset = Duration.zero
        init(_ start: Int64) { self.start = start }
        var seconds: Int64 { start + offset.components.seconds }
        func today() -> CalendarDay { CalendarDay(daysSinceEpoch: Int(seconds / 86400)) }
        func secondsUntilMidnight() -> Double { .infinity }
        func timeOfDay() -> TimeOfDay { TimeOfDay(hour: Int(seconds % 86400) / 3600, minute: Int(seconds % 3600) / 60)! }
        func secondsUntilNextMinute() -> Double { .infinity }
        func unixTime() -> Duration? { .seconds(start) + offset }
        func move(to t: Duration) { offset = t - ScheduleSessionTests.t0 }
    }

    static func at(_ time: String) -> Int64 { Int64(day.daysSinceEpoch) * 86400 + Int64(TimeOfDay(parsing: time)!.minutes) * 60 }

    /// The rings and the clock (rings only: no fonts), dark 23:00–06:30, the clock at a tenth
    /// 21:00–23:00, started at `start` by the wall clock.
    static func session(_ sink: RecordingSink, start: Int64, dimAfter: Double? = nil) throws -> (Session, PanelController, Wall) {
        var settings = Settings()
        settings.show.ringsOnly = true
        settings.screens = [.rings, .clock]
        settings.idle = IdleSchedule(dimAfter: dimAfter, blankAfter: nil, dimLevel: 0.3)
        var off = ScheduleWindowSetting(from: 23 * 60, to: 6 * 60 + 30)
        off.brightness = 0
        var evening = ScheduleWindowSetting(from: 21 * 60, to: 23 * 60)
        evening.brightness = 0.1
        settings.schedule = [off, evening]
        let clock = Wall(start)
        let app = try Assembly.make(
            settings, sink: sink,
            parts: .init(text: .some(nil), clock: clock, data: FixedData(days: [day: SessionTests.summary]), now: t0),
            log: { _ in }).get()
        return (app.session, app.controller, clock)
    }

    /// A tap at the middle of the panel (a tablet's), read at the session's next turn.
    static func tap(at t: Duration, _ c: PanelController) throws {
        let events = try recorded("tablet-tap.events").map { InputEvent(time: t.inSeconds + $0.time, type: $0.type, code: $0.code, value: $0.value) }
        c.queuedInput.append((events, InputRouterTests.tablet, "tablet"))
    }

    @Test("dark at the boundary: one wake-up there, a black frame and the output powered down; the first tap only wakes")
    func darkThenTap() throws {
        let sink = RecordingSink(size: SessionTests.size)
        let (session, controller, clock) = try Self.session(sink, start: Self.at("22:59"))
        let boundary = Self.t0 + .seconds(60) + .milliseconds(2)
        #expect(try session.turn(now: Self.t0, ready: [], signals: []) == .wait(until: boundary))
        let dim = SessionTests.brightest(sink.frames[0].picture)
        #expect(dim > 0 && abs(controller.device.light.picture - 0.1) < 1e-9, "no backlight: the picture dims, \(dim)")
        clock.move(to: boundary)
        _ = try session.turn(now: boundary, ready: [], signals: [])
        #expect(SessionTests.brightest(sink.lastFrame!) == 0 && sink.poweredDown && controller.blanked)
        // Nothing until the morning's boundary.
        let morning = try #require(controller.nextDeadline(now: boundary))
        #expect(morning == boundary + .seconds(7 * 3600 + 1800))
        let frames = sink.frames.count
        // At two in the morning a tap: awake, and still the rings (a tap is a select).
        let night = boundary + .seconds(3 * 3600)
        clock.move(to: night)
        try Self.tap(at: night, controller)
        _ = try session.turn(now: night, ready: [], signals: [])
        #expect(sink.frames.count == frames + 1 && !sink.poweredDown && !controller.blanked)
        #expect(SessionTests.brightest(sink.lastFrame!) > dim, "lit at the configured brightness, not the evening's")
        #expect(controller.navigation.screen == .rings, "the waking tap was taken as a tap")
        // The next tap is one.
        let next = night + .seconds(2)
        try Self.tap(at: next, controller)
        _ = try session.turn(now: next, ready: [], signals: [])
        #expect(controller.navigation.screen == .clock)
        #expect(controller.nextDeadline(now: next) == morning, "lit until the schedule's next boundary")
    }

    @Test("dimmed by the evening's window, or by idle: the first key only wakes")
    func dimThenKey() throws {
        let sink = RecordingSink(size: SessionTests.size)
        let (session, controller, clock) = try Self.session(sink, start: Self.at("21:30"), dimAfter: 60)
        _ = try session.turn(now: Self.t0, ready: [], signals: [])
        let dim = SessionTests.brightest(sink.lastFrame!)
        let keyboard = InputRouterTests.keyboard
        let enter = try #require(EventNames.keyCode(named: "KEY_ENTER"))
        func press(_ t: Duration) throws {
            let s = t.inSeconds
            controller.queuedInput.append((
                [InputEvent(time: s, type: 1, code: enter, value: 1), InputEvent(time: s, type: 0, code: 0, value: 0),
                 InputEvent(time: s, type: 1, code: enter, value: 0), InputEvent(time: s, type: 0, code: 0, value: 0)],
                keyboard, "keyboard"))
            _ = try session.turn(now: t, ready: [], signals: [])
        }
        let t1 = Self.t0 + .seconds(5)
        clock.move(to: t1)
        try press(t1)
        #expect(controller.navigation.screen == .rings && SessionTests.brightest(sink.lastFrame!) > dim)
        // Idle dims it a minute later: the first key only wakes again.
        let t2 = t1 + .seconds(60)
        clock.move(to: t2)
        _ = try session.turn(now: t2, ready: [], signals: [])
        #expect(controller.device.idle == .dimmed(0.3))
        let t3 = t2 + .seconds(1)
        clock.move(to: t3)
        try press(t3)
        #expect(controller.device.idle == .awake && controller.navigation.screen == .rings)
        let t4 = t3 + .seconds(1)
        try press(t4)
        #expect(controller.navigation.screen == .clock, "awake and lit: the key acts")
    }

    @Test("a reload brings a schedule in (dark at once inside its window) and takes it away again")
    func reload() throws {
        let folder = ScreenshotTests.Folder()
        let path = folder.path + "/config.json"
        func write(_ text: String) throws { try text.write(toFile: path, atomically: true, encoding: .utf8) }
        try write(#"{"screens": ["rings", "clock"], "idle": {"dimAfter": null, "blankAfter": null}}"#)
        var layer = Layer()
        try layer.set(option: "--rings-only")
        let settings = try ConfigurationFile.settings(path, commandLine: layer, console: .standard).get()
        let clock = Wall(Self.at("23:30"))
        var parts = Assembly.Parts(
            text: .some(nil), clock: clock, data: FixedData(days: [Self.day: SessionTests.summary]), now: Self.t0)
        parts.configurationPath = path
        parts.commandLine = layer
        var told: [String] = []
        let app = try Assembly.make(settings, sink: RecordingSink(size: SessionTests.size), parts: parts, log: { told.append($0) }).get()
        let session = app.session, sink = app.session.sink as! RecordingSink
        #expect(try session.turn(now: Self.t0, ready: [], signals: []) == .wait(until: nil))
        #expect(SessionTests.brightest(sink.lastFrame!) > 0)
        try write(
            #"{"screens": ["rings", "clock"], "idle": {"dimAfter": null, "blankAfter": null}, "#
                + #""schedule": [{"from": "23:00", "to": "06:30", "brightness": 0}]}"#)
        let t = Self.t0 + .seconds(1)
        clock.move(to: t)
        #expect(try session.turn(now: t, ready: [], signals: [SIGHUP]) == .wait(until: t + .seconds(7 * 3600) - .seconds(1) + .milliseconds(2)))
        #expect(SessionTests.brightest(sink.lastFrame!) == 0 && sink.poweredDown, "\(told)")
        #expect(told.contains { $0.contains("schedule") }, "the reload says what it applied: \(told)")
        try write(#"{"screens": ["rings", "clock"], "idle": {"dimAfter": null, "blankAfter": null}}"#)
        let u = t + .seconds(1)
        clock.move(to: u)
        #expect(try session.turn(now: u, ready: [], signals: [SIGHUP]) == .wait(until: nil))
        #expect(SessionTests.brightest(sink.lastFrame!) > 0 && !sink.poweredDown)
    }

    @Test("an override from outside the loop's input (a command on the control socket) is drawn at the turn, until the boundary")
    func overrideFromOutside() throws {
        let sink = RecordingSink(size: SessionTests.size)
        let (session, controller, clock) = try Self.session(sink, start: Self.at("12:00"))
        let evening = Self.t0 + .seconds(9 * 3600) + .milliseconds(2)
        #expect(try session.turn(now: Self.t0, ready: [], signals: []) == .wait(until: evening))
        let t = Self.t0 + .seconds(10)
        clock.move(to: t)
        #expect(controller.overrideSchedule(now: t) { $0.brightness = 0 })
        #expect(try session.turn(now: t, ready: [], signals: []) == .wait(until: evening))
        #expect(SessionTests.brightest(sink.lastFrame!) == 0 && sink.poweredDown)
        // At 21:00 the evening's window holds again: lit, dimmed to its tenth.
        clock.move(to: evening)
        _ = try session.turn(now: evening, ready: [], signals: [])
        #expect(!sink.poweredDown && SessionTests.brightest(sink.lastFrame!) > 0 && controller.device.scheduleOverride == nil)
    }

    @Test("the C library's zone (Europe/Berlin): boundaries across both changes of summer time, as the made-up zone has them")
    func systemZone() throws {
        // In a child process: TZ is the process's.
        let status = inChildProcess {
            setenv("TZ", "Europe/Berlin", 1)
            tzset()
            let zone = SystemLocalClock()
            let minutes = { (h: Int, m: Int) in h * 60 + m }
            let night = Schedule([ScheduleWindow(from: minutes(23, 0), to: minutes(6, 30), state: ScheduledState(brightness: 0))])
            let skipped = Schedule([ScheduleWindow(from: minutes(2, 30), to: minutes(5, 0), state: ScheduledState(brightness: 0))])
            // 2026-03-29 01:30 CET (00:30 UTC): summer time from 01:00 UTC.
            let spring: Int64 = 1_774_744_200
            guard zone.utcOffset(at: spring) == 3600, zone.utcOffset(at: spring + 1800) == 7200 else { return 1 }
            guard skipped.nextBoundary(after: spring, zone: zone) == spring + 1800 else { return 2 }
            guard night.nextBoundary(after: spring, zone: zone) == spring + 4 * 3600 else { return 3 }
            // 2026-10-25 00:30 CEST (22:30 UTC the day before): winter time from 01:00 UTC.
            let autumn: Int64 = 1_792_881_000
            guard zone.utcOffset(at: autumn) == 7200, zone.utcOffset(at: autumn + 9000) == 3600 else { return 4 }
            guard night.nextBoundary(after: autumn, zone: zone) == autumn + 7 * 3600 else { return 5 }
            return 0
        }
        #expect(status == 0, "check \(status) failed")
    }
}
