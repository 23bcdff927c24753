import Activity
import Controls
import DeviceLogic
import Raster
import Screens
import Testing

/// The schedule in the device's logic, against a made-up wall clock and monotonic clock that move
/// together (until the wall clock is set): one wake-up at each boundary, the light and the
/// screens it sets, the first key in a dark or dimmed window only waking, overrides.
@Suite("Schedule in the controller: boundaries, waking, overrides", .timeLimit(.minutes(10)))
struct ScheduleControllerTests {
    static let monday = ScheduleTests.monday
    static let t0 = Duration.seconds(500)

    /// The wall clock in a made-up zone; the monotonic clock is `t0` at `start`.
    final class WallClock: LocalClock {
        var unix: Duration
        let start: Duration
        var zone = MadeUpZone(base: 0)
        init(_ unix: Int64) {
            self.unix = .seconds(unix)
            start = .seconds(unix)
        }
        var seconds: Int64 { unix.components.seconds }
        var local: Int64 { seconds + Int64(zone.utcOffset(at: seconds)) }
        func today() -> CalendarDay { CalendarDay(daysSinceEpoch: Int(local / 86400)) }
        func secondsUntilMidnight() -> Double { .infinity }
        func timeOfDay() -> TimeOfDay { TimeOfDay(hour: Int(local % 86400) / 3600, minute: Int(local % 3600) / 60)! }
        func secondsUntilNextMinute() -> Double { .infinity }
        func unixTime() -> Duration? { unix }
        func utcOffset(at unix: Int64) -> Int { zone.utcOffset(at: unix) }
        /// The monotonic time the wall clock's now is (no clock set since the start).
        var now: Duration { ScheduleControllerTests.t0 + (unix - start) }
        func move(to t: Duration) { unix = start + (t - ScheduleControllerTests.t0) }
    }

    static let keyboard = DeviceDescription(path: "/dev/input/event0", capabilities: InputCapabilities(keys: [28, 106]))

    static func press(_ code: UInt16, at t: Duration) -> [InputEvent] {
        let s = t.inSeconds
        return [
            InputEvent(time: s, type: InputEvent.keyType, code: code, value: 1), InputEvent(time: s, type: 0, code: 0, value: 0),
            InputEvent(time: s, type: InputEvent.keyType, code: code, value: 0), InputEvent(time: s, type: 0, code: 0, value: 0),
        ]
    }

    /// The rings and the clock, no idle times, the light at full, following `schedule`.
    static func controller(_ clock: WallClock, _ schedule: Schedule = ScheduleTests.night) -> (TestDevice, DeviceLogicTests.Light) {
        let map = KeyMap(bindings: [28: .select, 106: .nextDay])
        let data = DeviceLogicTests.Data()
        let c = TestDevice(
            DeviceState(
                screens: [.rings, .clock], maker: ScreenMaker(text: nil, locale: .english, ringsOnly: true), data: data,
                router: InputRouter(keyMap: map, touch: TouchSetting(), panel: Size(width: 64, height: 64), rotation: .none),
                idle: IdleSchedule(dimAfter: nil, blankAfter: nil, dimLevel: 0.3), clock: clock, intro: false, now: t0),
            data: data)
        let light = DeviceLogicTests.Light()
        c.use(light, configured: nil, now: t0)
        c.follow(schedule, now: t0)
        return (c, light)
    }

    @Test("one wake-up at each boundary: the clock alone and dimmed at 21:00, dark at 23:00, back at 06:30")
    func boundaries() throws {
        let clock = WallClock(ScheduleTests.at(Self.monday, "20:59") + 30)
        let (c, light) = Self.controller(clock)
        #expect(c.scheduled == ScheduledState() && c.screens == [.rings, .clock] && c.navigation.screen == .rings)
        let evening = try #require(c.nextDeadline(now: Self.t0))
        #expect(evening == Self.t0 + .seconds(30) + .milliseconds(2), "on the boundary, with the minute's margin")
        #expect(!c.advance(to: evening - .seconds(1)), "nothing before it")
        clock.move(to: evening)
        #expect(c.advance(to: evening))
        #expect(c.scheduled == ScheduleTests.clockOnly && c.screens == [.clock] && c.navigation.screen == .clock)
        #expect(light.levels.last == 77 && !c.blanked && c.lastChange == .schedule)
        let night = try #require(c.nextDeadline(now: evening))
        #expect(night == evening + .seconds(7200))
        clock.move(to: night)
        #expect(c.advance(to: night))
        #expect(c.blanked && light.levels.last == 0 && c.light.backlight == 0)
        #expect(c.scene(now: night).frame(at: .zero).screen is BlankScreen)
        // The night's window sets no screens: the configured ones, the first shown.
        #expect(c.screens == [.rings, .clock] && c.navigation.screen == .rings)
        let morning = try #require(c.nextDeadline(now: night))
        #expect(morning == night + .seconds(7 * 3600 + 1800), "dark until 06:30, no wake-up in between")
        clock.move(to: morning)
        #expect(c.advance(to: morning))
        #expect(c.scheduled == ScheduledState() && !c.blanked && light.levels.last == 255)
        #expect(c.nextDeadline(now: morning) == morning + .seconds(14 * 3600 + 1800))
    }

    @Test("in the dark window the first press only wakes the panel, lit until the next boundary; the next press acts")
    func wakingPressOnlyWakes() throws {
        let clock = WallClock(ScheduleTests.at(Self.monday, "23:30"))
        let (c, light) = Self.controller(clock)
        #expect(c.blanked && light.levels.last == 0 && c.scheduleDarkens)
        let t = Self.t0 + .seconds(60)
        clock.move(to: t)
        #expect(c.feed(Self.press(28, at: t), from: Self.keyboard, name: "k", now: t))
        #expect(c.navigation.screen == .rings, "the waking press is not also a select")
        #expect(!c.blanked && light.levels.last == 255 && c.scheduled.brightness == nil)
        #expect(c.scheduleOverride?.until == ScheduleTests.at(Self.monday.adding(days: 1), "06:30"))
        let second = t + .seconds(1)
        #expect(c.feed(Self.press(28, at: second), from: Self.keyboard, name: "k", now: second))
        #expect(c.navigation.screen == .clock, "awake: the next press acts")
        // The override ends at the boundary: the configuration's from 06:30.
        let morning = try #require(c.nextDeadline(now: second))
        clock.move(to: morning)
        _ = c.advance(to: morning)
        #expect(c.scheduleOverride == nil && c.scheduled == ScheduledState() && light.levels.last == 255)
    }

    @Test("in a dimmed window the first press only wakes it, to the configured brightness until 23:00, then dark")
    func wakingFromADimWindow() throws {
        let clock = WallClock(ScheduleTests.at(Self.monday, "21:30"))
        let (c, light) = Self.controller(clock)
        #expect(!c.blanked && light.levels.last == 77 && c.scheduleDarkens)
        let t = Self.t0 + .seconds(5)
        clock.move(to: t)
        #expect(c.feed(Self.press(106, at: t), from: Self.keyboard, name: "k", now: t))
        #expect(c.navigation.day == Self.monday && light.levels.last == 255 && !c.scheduleDarkens)
        #expect(c.screens == [.clock], "the window's screens stay: only its light is lifted")
        let night = try #require(c.nextDeadline(now: t))
        #expect(night == Self.t0 + .seconds(5400) + .milliseconds(2))
        clock.move(to: night)
        #expect(c.advance(to: night) && c.blanked && c.scheduleOverride == nil && light.levels.last == 0)
    }

    @Test("the wall clock set (an NTP step, a zone change): the schedule is asked again at once")
    func clockSet() throws {
        let clock = WallClock(ScheduleTests.at(Self.monday, "12:00"))
        let (c, light) = Self.controller(clock)
        #expect(c.nextDeadline(now: Self.t0) == Self.t0 + .seconds(9 * 3600) + .milliseconds(2))
        // A second later by the monotonic clock, the wall clock says 23:30.
        let t = Self.t0 + .seconds(1)
        clock.unix = .seconds(ScheduleTests.at(Self.monday, "23:30"))
        c.clockWasSet(now: t)
        #expect(c.update(now: t) && c.blanked && light.levels.last == 0)
        #expect(c.nextDeadline(now: t) == t + .seconds(7 * 3600) + .milliseconds(2), "06:30 by the wall clock set")
        // The zone changes under it (daylight saving time, TZ): an hour later by the local clock.
        clock.zone = MadeUpZone(base: 3600)
        c.clockWasSet(now: t)
        _ = c.update(now: t)
        #expect(c.nextDeadline(now: t) == t + .seconds(6 * 3600) + .milliseconds(2))
    }

    @Test("an override (a Home Assistant command) holds until the next boundary; the brightness keys in a window are one")
    func overrides() throws {
        let clock = WallClock(ScheduleTests.at(Self.monday, "12:00"))
        let (c, light) = Self.controller(clock)
        #expect(c.overrideSchedule(now: Self.t0) { $0.brightness = 0 })
        #expect(c.blanked && light.levels.last == 0)
        #expect(c.scheduleOverride?.until == ScheduleTests.at(Self.monday, "21:00"))
        #expect(c.overrideSchedule(now: Self.t0) { $0.brightness = nil; $0.screens = [.clock] })
        #expect(!c.blanked && c.screens == [.clock] && c.navigation.screen == .clock)
        let evening = try #require(c.nextDeadline(now: Self.t0))
        clock.move(to: evening)
        #expect(c.advance(to: evening) && c.scheduleOverride == nil && c.scheduled == ScheduleTests.clockOnly)
        // In the dimmed window the brighter key overrides its brightness (not kept in the store).
        let t = evening + .seconds(1)
        clock.move(to: t)
        _ = c.perform(.action(.brighter), now: t)
        #expect(c.scheduled.brightness == 0.4 && light.levels.last == 102)
        #expect(c.scheduleOverride?.until == ScheduleTests.at(Self.monday, "23:00"))
    }

    @Test("Home Assistant's light commands through the control socket's requests: off and on hold until the schedule's next boundary")
    func homeAssistantLight() throws {
        let clock = WallClock(ScheduleTests.at(Self.monday, "12:00"))
        let (c, light) = Self.controller(clock)
                #expect(c.request(.light(on: false), now: Self.t0) == .success(true))
        #expect(c.blanked && light.levels.last == 0)
        #expect(c.scheduleOverride?.until == ScheduleTests.at(Self.monday, "21:00"), "off until the evening's window")
        #expect(c.panelState(now: Self.t0, wallNow: 0).light == false)
        let evening = try #require(c.nextDeadline(now: Self.t0))
        clock.move(to: evening)
        #expect(c.advance(to: evening) && c.scheduleOverride == nil && !c.blanked, "the boundary lights it again")
        // In the dark window (23:00), "light on" lifts it until 06:30.
        let night = try #require(c.nextDeadline(now: evening))
        clock.move(to: night)
        _ = c.advance(to: night)
        #expect(c.blanked && c.panelState(now: night, wallNow: 0).light == false)
        let t = night + .seconds(60)
        clock.move(to: t)
        #expect(c.request(.light(on: true), now: t) == .success(true))
        #expect(!c.blanked && light.levels.last == 255 && c.panelState(now: t, wallNow: 0).light == true)
        #expect(c.scheduleOverride?.until == ScheduleTests.at(Self.monday.adding(days: 1), "06:30"))
    }
}
