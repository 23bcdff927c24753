import Activity
import Controls
import Raster
import Screens
import Testing

@testable import DeviceLogic

/// A local clock the tests move by hand: the day, and the time of day in seconds since its
/// midnight (what is left of the day, the time to the minute and the next minute follow from it).
final class HandClock: LocalClock {
    var day: CalendarDay
    var secondsOfDay: Double
    init(_ day: CalendarDay, at secondsOfDay: Double) {
        self.day = day
        self.secondsOfDay = secondsOfDay
    }
    func today() -> CalendarDay { day }
    func secondsUntilMidnight() -> Double { 86400 - secondsOfDay }
    func timeOfDay() -> TimeOfDay {
        let minute = Int(secondsOfDay / 60)
        return TimeOfDay(hour: minute / 60 % 24, minute: minute % 60)!
    }
    func secondsUntilNextMinute() -> Double { 60 - secondsOfDay.truncatingRemainder(dividingBy: 60) }
}

/// The device's decisions through events and their effects: navigation, idle, the console
/// switched, the light (one with steps, one only on or off, one that cannot be written),
/// midnight and the clock set, a task's progress and its Cancel.
@Suite("Device state: navigation, idle, midnight, cancel", .timeLimit(.minutes(10)))
struct DeviceStateTests {
    static let today = DeviceLogicTests.day

    /// The default keys as codes (Input's names are not needed here): Left/Right the days,
    /// Up/Down the screens, Enter select, Esc cancel, the brightness keys, Help.
    static let keyMap = KeyMap(bindings: [
        105: .previousDay, 106: .nextDay, 103: .previousScreen, 108: .nextScreen, 28: .select, 1: .cancel, 102: .today,
        63: .refresh, 225: .brighter, 224: .darker, 138: .help,
    ])

    static func controller(
        data: DeviceLogicTests.Data, screens: [ScreenKind] = [.rings, .gauges, .progress], clock: LocalClock = DeviceLogicTests.Clock(),
        idle: IdleSchedule = IdleSchedule(dimAfter: 10, blankAfter: 20, dimLevel: 0.3), panel: Size = Size(width: 480, height: 480),
        rotation: Rotation = .none
    ) -> TestDevice {
        TestDevice(
            DeviceState(
                screens: screens, maker: ScreenMaker(text: nil, locale: .english, shape: .rectangle, name: "A"), data: data,
                router: InputRouter(keyMap: keyMap, touch: TouchSetting(), panel: panel, rotation: rotation),
                idle: idle, clock: clock, intro: false, now: .seconds(100)),
            data: data)
    }

    @Test("screens without content are skipped; the progress screen appears with a task")
    func available() {
        let data = DeviceLogicTests.Data()
        let c = Self.controller(data: data)
        #expect(c.available(now: .seconds(100)) == [.rings])
        data.running = ProgressContent(amount: .determinate(0.3), cancellable: true)
        data.fixedGauges = [Gauge(style: .circular, value: 3)]
        #expect(c.available(now: .seconds(100)) == [.rings, .gauges, .progress])
        #expect(c.perform(.action(.nextScreen), now: .seconds(101)) && c.navigation.screen == .gauges)
    }

    @Test("dims, then blanks, after the configured idle times; handle says when to wake")
    func idle() {
        let c = Self.controller(data: DeviceLogicTests.Data())
        #expect(c.nextDeadline(now: .seconds(101)) == .seconds(110))
        #expect(!c.advance(to: .seconds(105)) && c.idle == .awake)
        #expect(c.advance(to: .seconds(110)) && c.idle == .dimmed(0.3))
        #expect(c.nextDeadline(now: .seconds(111)) == .seconds(120))
        #expect(c.advance(to: .seconds(120)) && c.idle == .blank && c.blanked)
        #expect(c.nextDeadline(now: .seconds(121)) == nil, "asleep and nothing to wait for: no wake-ups")
    }

    @Test("on another console the light is that console's and nothing dims; the switch back counts as input")
    func awayOnAnotherConsole() {
        let c = Self.controller(data: DeviceLogicTests.Data())
        let light = DeviceLogicTests.Light(maximum: 255, foundLevel: 200.0 / 255)
        c.use(light, configured: nil, now: .seconds(100))
        c.send(.inputOpened([], refresh: nil), at: .seconds(100))
        #expect(c.advance(to: .seconds(110)) && c.idle == .dimmed(0.3))
        #expect(light.levels.last == 60)
        // Switched away while dimmed: the other console gets the full light, and keeps it; the
        // input devices are let go.
        let before = c.effects.count
        c.displayReleased(now: .seconds(112))
        #expect(c.away && c.effects(since: before) == [.grabInput(false), .restoreBacklight] && light.levels.last == 200)
        #expect(c.nextDeadline(now: .seconds(113)) == nil, "no idle deadline while away")
        #expect(!c.advance(to: .seconds(500)))
        #expect(!c.blanked && light.levels.last == 200, "blanked on another console")
        // Back: awake, grabbed again, and the idle times count from the switch back.
        let back = c.effects.count
        c.displayRetaken(now: .seconds(600))
        #expect(!c.away && c.idle == .awake && c.effects(since: back) == [.grabInput(true), .setBacklight(200)])
        #expect(c.nextDeadline(now: .seconds(601)) == .seconds(610))
        #expect(c.advance(to: .seconds(610)) && c.idle == .dimmed(0.3) && light.levels.last == 60)
    }

    @Test("a backlight whose brightness cannot be written is given up: the picture is dimmed instead")
    func unwritableBacklight() {
        let c = Self.controller(data: DeviceLogicTests.Data())
        let light = DeviceLogicTests.Light(maximum: 255, foundLevel: 200.0 / 255)
        c.use(light, configured: nil, now: .seconds(100))
        #expect(c.backlight != nil)
        // The brightness cannot be written any more: the next level set fails.
        light.refuse = true
        #expect(c.advance(to: .seconds(110)) && c.idle == .dimmed(0.3))
        #expect(c.backlight == nil)
        #expect(c.scene(now: .seconds(111)).frame(at: .zero).screen is DimmedScreen, "the picture is not dimmed")
    }

    @Test("a backlight that is only switched (max_brightness 1, gpio-backlight) stays on when dimmed: the picture dims")
    func switchedBacklight() {
        let c = Self.controller(data: DeviceLogicTests.Data())
        let light = DeviceLogicTests.Light(maximum: 1, foundLevel: 1)
        c.use(light, configured: nil, now: .seconds(100))
        #expect(c.advance(to: .seconds(110)) && c.idle == .dimmed(0.3))
        #expect(light.levels.last == 1, "dimmed to \(light.levels): the panel went dark at dimAfter")
        #expect(c.backlight != nil, "a switched backlight is kept for blanking")
        #expect(c.scene(now: .seconds(111)).frame(at: .zero).screen is DimmedScreen, "the picture is not dimmed")
        #expect(c.advance(to: .seconds(120)) && c.idle == .blank && light.levels.last == 0)
        // Handed to another console (as when waking, the light is put back): on again.
        c.displayReleased(now: .seconds(130))
        #expect(light.levels.last == 1)
        // A light with steps dims itself: the picture is not dimmed then.
        let dimmer = Self.controller(data: DeviceLogicTests.Data())
        let steps = DeviceLogicTests.Light(maximum: 255, foundLevel: 200.0 / 255)
        dimmer.use(steps, configured: nil, now: .seconds(100))
        #expect(dimmer.advance(to: .seconds(110)) && steps.levels.last == 60)
        #expect(!(dimmer.scene(now: .seconds(111)).frame(at: .zero).screen is DimmedScreen), "dimmed twice: light and picture")
    }

    @Test("at midnight the view of today moves on, and the deadline was midnight")
    func midnight() {
        let clock = HandClock(Self.today, at: 86400 - 30)
        let c = Self.controller(
            data: DeviceLogicTests.Data(), clock: clock, idle: IdleSchedule(dimAfter: nil, blankAfter: nil, dimLevel: 1))
        #expect(c.nextDeadline(now: .seconds(101)) == .seconds(130))
        clock.day = Self.today.adding(days: 1)
        clock.secondsOfDay = 0
        #expect(c.advance(to: .seconds(130)) && c.navigation.day == Self.today.adding(days: 1))
        #expect(c.nextDeadline(now: .seconds(131)) == .seconds(130 + 86400))
    }

    @Test("the wall clock set: midnight asked again, the schedule at once, and today on every wake-up")
    func clockSet() {
        let clock = HandClock(Self.today, at: 86400 - 3600)
        let c = Self.controller(
            data: DeviceLogicTests.Data(), clock: clock, idle: IdleSchedule(dimAfter: nil, blankAfter: nil, dimLevel: 1))
        clock.day = Self.today.adding(days: 40)
        #expect(c.advance(to: .seconds(101)))
        #expect(c.navigation.today == Self.today.adding(days: 40) && c.navigation.day == c.navigation.today)
        // Set again, the next midnight nearer: the deadline follows.
        clock.secondsOfDay = 86400 - 10
        c.clockWasSet(now: .seconds(102))
        #expect(c.lines.last == "the clock was set")
        _ = c.update(now: .seconds(102))
        #expect(c.nextDeadline(now: .seconds(102)) == .seconds(112))
    }

    /// Where the progress screen draws its Cancel button on a picture of `size`, as a probe sees it.
    static func drawnButton(_ task: ProgressContent, _ size: Size) throws -> Rect {
        let probe = LayoutProbe()
        ProgressScreen(content: task, context: ScreenContext(text: nil, probe: probe))
            .draw(into: PixelBuffer(width: size.width, height: size.height), at: 0)
        return try #require(probe.shapes.first { $0.name == "button" }?.box)
    }

    @Test("Cancel on the progress screen (key or tap on the button) asks the task to stop")
    func cancel() throws {
        let task = ProgressContent(amount: .determinate(0.5), label: "Import", cancellable: true)
        let data = DeviceLogicTests.Data(task: task)
        let c = Self.controller(data: data, screens: [.progress, .rings])
        #expect(c.navigation.screen == .progress)
        // The button is where the screen draws it; no frame need have been drawn to know it.
        let button = try Self.drawnButton(task, Size(width: 480, height: 480))
        #expect(c.cancelButton(task) == button)
        // A tap beside the button selects (the next screen); on it, cancels.
        #expect(c.perform(.tap(Point(x: button.x - 20, y: 20)), now: .seconds(101)) && !c.effects.contains(.cancelTask))
        #expect(c.navigation.screen == .rings)
        _ = c.perform(.action(.previousScreen), now: .seconds(102))
        #expect(c.perform(.tap(button.center), now: .seconds(103)) && c.effects.contains(.cancelTask) && data.cancelled)
        // Elsewhere, Esc does nothing.
        let d = Self.controller(data: DeviceLogicTests.Data())
        #expect(!d.perform(.action(.cancel), now: .seconds(101)) && !d.effects.contains(.cancelTask))
    }

    @Test("taps meet the Cancel button in the picture the router maps them into (a panel turned a quarter)")
    func cancelOnTurnedPanel() throws {
        let task = ProgressContent(amount: .indeterminate, label: "Import", cancellable: true, cancelNote: "Kept")
        let data = DeviceLogicTests.Data(task: task)
        // An 800x480 panel turned a quarter: the picture is 480x800.
        let c = Self.controller(
            data: data, screens: [.progress, .rings], idle: IdleSchedule(dimAfter: nil, blankAfter: nil, dimLevel: 1),
            panel: Size(width: 800, height: 480), rotation: .quarter)
        #expect(c.router.pictureSize == Size(width: 480, height: 800))
        let button = try Self.drawnButton(task, Size(width: 480, height: 800))
        let square = try Self.drawnButton(task, Size(width: 480, height: 480))
        #expect(c.cancelButton(task) == button)
        // Where the button would be on a square picture is nothing on this one: it selects.
        let p = square.center
        #expect(!(p.x >= button.x && p.x <= button.maxX && p.y >= button.y && p.y <= button.maxY))
        #expect(c.perform(.tap(square.center), now: .seconds(101)) && !data.cancelled)
        _ = c.perform(.action(.previousScreen), now: .seconds(102))
        #expect(c.navigation.screen == .progress)
        #expect(c.perform(.tap(button.center), now: .seconds(103)) && data.cancelled)
    }

    /// The fraction the progress screen shows in the frame shown at `now`.
    static func shownFraction(_ c: TestDevice, now: Duration) -> Double? {
        guard let screen = c.scene(now: now).frame(at: .zero).screen as? ProgressScreen,
            case .determinate(let f) = screen.content.amount
        else { return nil }
        return f
    }

    @Test("a new task's bar starts from its own fraction, not from where the last one stopped")
    func easingPerTask() {
        let data = DeviceLogicTests.Data(task: ProgressContent(amount: .determinate(0.4), label: "A", cancellable: true))
        let c = Self.controller(data: data, screens: [.progress, .rings])
        #expect(Self.shownFraction(c, now: .seconds(100)) == 0.4)
        // A ends and B starts before the app looks again.
        data.running = ProgressContent(amount: .determinate(0.02), label: "B", cancellable: true)
        // The data changed (the session hands it over when the store says so).
        c.dataChanged(now: .seconds(101))
        _ = c.advance(to: .seconds(101))
        #expect(Self.shownFraction(c, now: .seconds(101)) == 0.02)
        // Within one task the bar never goes back.
        data.running = ProgressContent(amount: .determinate(0.01), label: "B", cancellable: true)
        c.dataChanged(now: .seconds(102))
        _ = c.advance(to: .seconds(102))
        #expect((Self.shownFraction(c, now: .seconds(102)) ?? 0) >= 0.02)
    }

    @Test("a task already running when the app starts is shown first; when it ends, the screen before it")
    func taskAtStart() {
        let data = DeviceLogicTests.Data(task: ProgressContent(amount: .indeterminate, label: "Import"))
        let c = Self.controller(data: data, screens: [.rings, .progress])
        #expect(c.navigation.screen == .progress)
        data.running = nil
        c.dataChanged(now: .seconds(101))
        _ = c.advance(to: .seconds(101))
        #expect(c.navigation.screen == .rings)
    }
}

/// The brightness: the configured level, the keys, the level kept in the data's preferences, the
/// dim level relative to it; a light with steps and one that is only on or off.
@Suite("Brightness: levels, keys, kept across restarts, PWM and on/off backlights", .timeLimit(.minutes(10)))
struct BrightnessTests {
    static let t0 = Duration.seconds(100)

    static func controller(
        data: DeviceLogicTests.Data = DeviceLogicTests.Data(), idle: IdleSchedule = IdleSchedule(dimAfter: 10, blankAfter: 20, dimLevel: 0.3)
    ) -> TestDevice {
        TestDevice(
            DeviceState(
                screens: [.rings], maker: ScreenMaker(text: nil, locale: .english), data: data,
                router: InputRouter(keyMap: DeviceStateTests.keyMap, touch: TouchSetting(), panel: Size(width: 64, height: 64), rotation: .none),
                idle: idle, clock: DeviceLogicTests.Clock(), intro: false, now: t0),
            data: data)
    }

    /// The picture's brightness in the device's scene (1: not dimmed in the picture).
    static func pictureLevel(_ c: TestDevice) -> Double {
        let screen = c.state.scene(at: t0).frame(at: .zero).screen
        return (screen as? DimmedScreen)?.level ?? 1
    }

    @Test("the plan: a PWM light takes the level, an on/off light is on with the picture dimmed, none: the picture")
    func plan() {
        #expect(LightPlan.make(wanted: 0.8, maximum: 100) == LightPlan(backlight: 80, picture: 1))
        #expect(LightPlan.make(wanted: 0.001, maximum: 100) == LightPlan(backlight: 1, picture: 1), "never off while lit")
        #expect(LightPlan.make(wanted: 0, maximum: 100) == LightPlan(backlight: 0, picture: 1))
        #expect(LightPlan.make(wanted: 0.24, maximum: 1) == LightPlan(backlight: 1, picture: 0.24))
        #expect(LightPlan.make(wanted: 1, maximum: 1) == LightPlan(backlight: 1, picture: 1))
        #expect(LightPlan.make(wanted: 0, maximum: 1) == LightPlan(backlight: 0, picture: 1))
        #expect(LightPlan.make(wanted: 0.5, maximum: nil) == LightPlan(backlight: nil, picture: 0.5))
    }

    @Test("PWM: the configured level when awake, the dim level a fraction of it, off when blank, back on waking")
    func pwm() {
        let light = DeviceLogicTests.Light(maximum: 100, foundLevel: 0.4)
        let c = Self.controller()
        c.use(light, configured: 0.8, now: Self.t0)
        #expect(light.levels == [80] && Self.pictureLevel(c) == 1)
        #expect(c.advance(to: Self.t0 + .seconds(10)) && c.idle == .dimmed(0.3))
        #expect(light.levels.last == 24 && Self.pictureLevel(c) == 1, "dimmed to 0.3 of 0.8")
        #expect(c.advance(to: Self.t0 + .seconds(20)) && c.blanked && light.levels.last == 0)
        // Woken by a key: the configured level again.
        let keyboard = DeviceDescription(path: "/dev/input/event1", capabilities: InputCapabilities(eventTypes: [1], keys: [105]))
        #expect(c.feed([InputEvent(time: 121, type: 1, code: 105, value: 1)], from: keyboard, name: "k", now: Self.t0 + .seconds(21)))
        #expect(light.levels.last == 80)
        // Without a configured level: as found (40 of 100), dimmed to 12.
        let found = Self.controller()
        let light2 = DeviceLogicTests.Light(maximum: 100, foundLevel: 0.4)
        found.use(light2, configured: nil, now: Self.t0)
        #expect(found.awakeBrightness == 0.4 && light2.levels == [40])
        #expect(found.advance(to: Self.t0 + .seconds(10)) && light2.levels.last == 12)
        // On another console the level found at start is put back.
        found.displayReleased(now: Self.t0 + .seconds(11))
        #expect(found.effects.last == .restoreBacklight && light2.levels.last == 40)
    }

    @Test("an on/off backlight (maximum 1) stays on and the picture dims below full; blank turns it off")
    func onOff() {
        let light = DeviceLogicTests.Light(maximum: 1, foundLevel: 1)
        let c = Self.controller()
        c.use(light, configured: 0.8, now: Self.t0)
        #expect(light.levels == [1] && abs(Self.pictureLevel(c) - 0.8) < 1e-9)
        #expect(c.advance(to: Self.t0 + .seconds(10)))
        #expect(light.levels.last == 1 && abs(Self.pictureLevel(c) - 0.24) < 1e-9)
        #expect(c.advance(to: Self.t0 + .seconds(20)) && light.levels.last == 0)
        #expect(c.state.scene(at: Self.t0).frame(at: .zero).screen is BlankScreen)
        // Full: the picture as drawn.
        let full = Self.controller()
        let light2 = DeviceLogicTests.Light(maximum: 1, foundLevel: 1)
        full.use(light2, configured: nil, now: Self.t0)
        #expect(light2.levels == [1] && Self.pictureLevel(full) == 1)
    }

    @Test("KEY_BRIGHTNESSUP/DOWN step by a tenth (held, they repeat), between a tenth and full")
    func keys() {
        let light = DeviceLogicTests.Light(maximum: 100, foundLevel: 1)
        let c = Self.controller(idle: IdleSchedule(dimAfter: nil, blankAfter: nil, dimLevel: 0.3))
        c.use(light, configured: 0.5, now: Self.t0)
        let keyboard = DeviceDescription(
            path: "/dev/input/event1", capabilities: InputCapabilities(eventTypes: [1], keys: Set(1..<300)))
        let up: UInt16 = 225, down: UInt16 = 224
        func key(_ code: UInt16, _ value: Int32) {
            _ = c.feed([InputEvent(time: 1, type: 1, code: code, value: value), InputEvent(time: 1, type: 0, code: 0, value: 0)],
                       from: keyboard, name: "keyboard", now: Self.t0)
        }
        key(up, 1)
        key(up, 0)
        #expect(c.awakeBrightness == 0.6 && light.levels.last == 60)
        // Held: the key's repeats go on up, and stop at full.
        key(up, 1)
        for _ in 0..<10 { key(up, 2) }
        key(up, 0)
        #expect(c.awakeBrightness == 1 && light.levels.last == 100)
        for _ in 0..<12 {
            key(down, 1)
            key(down, 0)
        }
        #expect(c.awakeBrightness == 0.1 && light.levels.last == 10, "darker than a tenth is for idle dimming")
    }

    @Test("the level chosen with the keys is kept (an effect) and comes back after a restart, until the configuration changes")
    func kept() {
        let data = DeviceLogicTests.Data()
        do {
            let light = DeviceLogicTests.Light(maximum: 100, foundLevel: 1)
            let c = Self.controller(data: data)
            c.use(light, configured: 0.8, now: Self.t0)
            #expect(c.perform(.action(.darker), now: Self.t0) == false, "a PWM light: the picture is unchanged")
            #expect(c.effects.last == .keep([KeptValue("brightness", "0.7"), KeptValue("brightness.configured", "0.8")]))
            _ = c.perform(.action(.darker), now: Self.t0)
            #expect(light.levels.last == 60)
        }
        #expect(data.kept["brightness"] == "0.6" && data.kept["brightness.configured"] == "0.8")
        // Started again with the same configuration: the kept level.
        let light = DeviceLogicTests.Light(maximum: 100, foundLevel: 1)
        let again = Self.controller(data: data)
        again.use(light, configured: 0.8, now: Self.t0)
        #expect(again.awakeBrightness == 0.6 && light.levels.last == 60)
        // The configuration's level changed since: its own.
        let changed = Self.controller(data: data)
        changed.use(light, configured: 0.9, now: Self.t0)
        #expect(changed.awakeBrightness == 0.9 && light.levels.last == 90)
        // Without a backlight the keys dim the picture, and the level is kept all the same.
        let bare = Self.controller(data: data)
        bare.use(nil, configured: 0.9, now: Self.t0)
        #expect(bare.perform(.action(.darker), now: Self.t0), "the picture changes")
        #expect(abs(Self.pictureLevel(bare) - 0.8) < 1e-9)
        #expect(data.kept["brightness"] == "0.8" && data.kept["brightness.configured"] == "0.9")
    }
}

/// The time on the panel against a made-up clock: the loop wakes once a minute, on the minute,
/// while a screen shows the time, and not at all in between (nor when nothing shows it).
@Suite("Clock: the minute timer", .timeLimit(.minutes(10)))
struct ClockTimerTests {
    static let today = DeviceLogicTests.day
    static let t0 = Duration.seconds(100)

    static func controller(
        clock: HandClock, screens: [ScreenKind] = [.rings, .clock, .gauges], format: ClockFormat = .twentyFourHour,
        panel: Size = Size(width: 480, height: 480), data: DeviceLogicTests.Data = DeviceLogicTests.Data(),
        idle: IdleSchedule = IdleSchedule(dimAfter: nil, blankAfter: nil, dimLevel: 0.3), viewing: Viewing = Viewing()
    ) -> TestDevice {
        var maker = ScreenMaker(text: nil, locale: .english, shape: .rectangle, name: "A")
        maker.clockFormat = format
        maker.viewing = viewing
        return TestDevice(
            DeviceState(
                screens: screens, maker: maker, data: data,
                router: InputRouter(keyMap: DeviceStateTests.keyMap, touch: TouchSetting(), panel: panel, rotation: .none),
                idle: idle, clock: clock, intro: false, now: t0),
            data: data)
    }

    /// `seconds` after t0 on both clocks, the wall clock starting at `wall0`.
    static func advance(_ clock: HandClock, to seconds: Double, wall0: Double) -> Duration {
        clock.secondsOfDay = wall0 + seconds
        return t0 + .milliseconds(Int64((seconds * 1000).rounded()))
    }

    @Test("the ring screen with the time: the deadline is the next minute; the minute redraws, nothing between does")
    func ringScreenMinutes() {
        let wall0 = 15 * 3600 + 4 * 60 + 30.0  // 15:04:30
        let clock = HandClock(Self.today, at: wall0)
        let c = Self.controller(clock: clock)
        _ = c.scene(now: Self.t0)
        #expect(c.showsTime)
        #expect(c.nextDeadline(now: Self.t0) == Self.t0 + .seconds(30) + DeviceState.minuteMargin)
        // Ten seconds on: still 15:04; nothing to draw, the same deadline.
        var now = Self.advance(clock, to: 10, wall0: wall0)
        #expect(!c.advance(to: now))
        #expect(c.nextDeadline(now: now) == Self.t0 + .seconds(30) + DeviceState.minuteMargin)
        // The deadline: 15:05, drawn.
        now = Self.advance(clock, to: 30.002, wall0: wall0)
        #expect(c.advance(to: now) && c.lastChange.rawValue == "time")
        _ = c.scene(now: now)
        #expect(c.nextDeadline(now: now) == now + .milliseconds(59_998) + DeviceState.minuteMargin)
        #expect(!c.advance(to: now), "the same minute twice")
    }

    @Test("no minute wake-ups where no time is shown: the gauge screen, a blank panel, the clock off, a tiny panel's one line")
    func noTimeNoTimer() {
        let wall0 = 9 * 3600 + 41 * 60 + 10.0
        let clock = HandClock(Self.today, at: wall0)
        let midnight = Self.t0 + .seconds(86400 - wall0)
        let data = DeviceLogicTests.Data(gauges: [Gauge(style: .circular, value: 3)])
        let gauges = Self.controller(clock: clock, screens: [.gauges, .rings], data: data)
        _ = gauges.scene(now: Self.t0)
        #expect(!gauges.showsTime && gauges.nextDeadline(now: Self.t0) == midnight)
        // On to the ring screen: its header has the time.
        #expect(gauges.perform(.action(.nextScreen), now: Self.t0) && gauges.navigation.screen == .rings)
        #expect(gauges.showsTime && gauges.nextDeadline(now: Self.t0) == Self.t0 + .seconds(50) + DeviceState.minuteMargin)

        let off = Self.controller(clock: clock, format: .off)
        #expect(!off.showsTime && off.nextDeadline(now: Self.t0) == midnight)
        // The clock screen shows the time with the format off too (on a 24-hour clock).
        #expect(off.perform(.action(.nextScreen), now: Self.t0) && off.navigation.screen == .clock && off.showsTime)

        // A 240x240 panel's rings in pages: the page's one line holds the day and the time.
        let tiny = Self.controller(clock: clock, panel: Size(width: 240, height: 240))
        #expect(tiny.showsTime && tiny.nextDeadline(now: Self.t0) == Self.t0 + .seconds(50) + DeviceState.minuteMargin)
        // The same panel seen from 20 cm (on a wrist, looked at closely): its rings and figures on one page, whose
        // one line over the rings is the day: no time, no minute wake-ups.
        let wrist = Self.controller(clock: clock, panel: Size(width: 240, height: 240), viewing: Viewing(distance: 20))
        #expect(!wrist.showsTime && wrist.nextDeadline(now: Self.t0) == midnight)

        let sleepy = Self.controller(clock: clock, idle: IdleSchedule(dimAfter: 5, blankAfter: 10, dimLevel: 0.3))
        _ = sleepy.scene(now: Self.t0)
        let dimmed = Self.advance(clock, to: 5, wall0: wall0)
        #expect(sleepy.advance(to: dimmed) && sleepy.idle == .dimmed(0.3) && sleepy.showsTime, "a dimmed clock still ticks")
        let blank = Self.advance(clock, to: 10, wall0: wall0)
        #expect(sleepy.advance(to: blank) && sleepy.blanked)
        #expect(!sleepy.showsTime && sleepy.nextDeadline(now: blank) == midnight, "blank: only midnight wakes it")
    }
}
