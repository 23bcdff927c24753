import Activity
import Controls
@testable import DeviceLogic
import Raster
import Screens
import Testing

/// The device's logic alone, its effects recorded: no store, no evdev, no sysfs, no clock of the
/// system's.
@Suite("DeviceLogic: the device's state, its events and effects", .timeLimit(.minutes(10)))
struct DeviceLogicTests {
    static let day = CalendarDay(year: 2026, month: 11, day: 30)!
    static let t0 = Duration.seconds(500)

    final class Data: ShownData {
        var days: [CalendarDay: ActivitySummary] = [:]
        var running: ProgressContent?
        var cancelled = false
        var kept: [String: String] = [:]
        var change = DataChange.store
        func summary(for day: CalendarDay) -> ActivitySummary? { days[day] }
        func summaries(_ list: [CalendarDay]) -> [CalendarDay: ActivitySummary] { days.filter { list.contains($0.key) } }
        var fixedGauges: [Gauge] = []
        func gauges(now: Duration) -> [Gauge] { fixedGauges }
        func task() -> ProgressContent? { running }
        func cancelTask() { cancelled = true }
        func showGauges(_ shown: Bool, now: Duration) -> Bool { false }
        var lastChange: DataChange { change }
        func preference(_ name: String) -> String? { kept[name] }
        func keep(_ values: [(name: String, value: String?)]) { for (n, v) in values { kept[n] = v } }
        init(task: ProgressContent? = nil, gauges: [Gauge] = []) {
            running = task
            fixedGauges = gauges
        }
    }

    /// A light that records the levels the device's effects set it to (`restore`: the level it
    /// was found at), or refuses them.
    final class Light: PanelLight {
        let path = "/test/backlight"
        let maximum: Int
        let foundLevel: Double
        var levels: [Int] = []
        init(maximum: Int = 255, foundLevel: Double = 1) {
            self.maximum = maximum
            self.foundLevel = foundLevel
        }
        var refuse = false
        func set(level: Int) -> String? {
            if refuse { return "Permission denied" }
            levels.append(level)
            return nil
        }
        func restore() { levels.append(Int((foundLevel * Double(maximum)).rounded())) }
    }

    struct Clock: LocalClock {
        func today() -> CalendarDay { DeviceLogicTests.day }
        func secondsUntilMidnight() -> Double { .infinity }
        func timeOfDay() -> TimeOfDay { TimeOfDay(hour: 10, minute: 9)! }
        func secondsUntilNextMinute() -> Double { .infinity }
    }

    static func controller(
        _ data: Data, idle: IdleSchedule = IdleSchedule(dimAfter: 10, blankAfter: 20, dimLevel: 0.3), cycle: ScreenCycle? = nil
    ) -> TestDevice {
        let map = KeyMap(bindings: [105: .previousDay, 28: .select, 106: .nextDay])
        return TestDevice(
            DeviceState(
                screens: [.rings, .progress], maker: ScreenMaker(text: nil, locale: .english, ringsOnly: true), data: data,
                router: InputRouter(keyMap: map, touch: TouchSetting(), panel: Size(width: 64, height: 64), rotation: .none),
                idle: idle, cycle: cycle, clock: Clock(), intro: false, now: t0),
            data: data)
    }

    @Test("time dims, then blanks, as effects on the light; the first key only wakes")
    func idleThroughTheLight() {
        let data = Data()
        let c = Self.controller(data)
        let light = Light()
        c.use(light, configured: nil, now: Self.t0)
        #expect(c.effects == [.setBacklight(255)])
        var device = c.state
        let dimming = device.handle(.update(screenBefore: nil), at: Self.t0 + .seconds(10))
        #expect(dimming == [.log("idle: dimmed(0.3)"), .setBacklight(77), .showGauges(false, answer: true), .redraw])
        #expect(c.update(now: Self.t0 + .seconds(10)) && c.idle == .dimmed(0.3))
        #expect(c.update(now: Self.t0 + .seconds(20)) && c.blanked)
        #expect(light.levels == [255, 77, 0])
        // A key while blank: awake again, and nothing else (the day stays).
        let keyboard = DeviceDescription(path: "/dev/input/event0", capabilities: InputCapabilities(keys: [105]))
        let press = [InputEvent(time: 21, type: InputEvent.keyType, code: 105, value: 1), InputEvent(time: 21, type: 0, code: 0, value: 0)]
        #expect(c.feed(press, from: keyboard, name: "k", now: Self.t0 + .seconds(21)))
        #expect(c.idle == .awake && c.navigation.day == Self.day && light.levels.last == 255)
        #expect(c.lastChange == .input)
    }

    @Test("a light that cannot be written is given up: the picture dims instead")
    func refusedLight() {
        let c = Self.controller(Data())
        let light = Light()
        light.refuse = true
        c.use(light, configured: nil, now: Self.t0)
        #expect(c.backlight == nil && c.lamp == nil)
        #expect(c.lines.first?.hasPrefix("backlight /test/backlight: cannot write its brightness (Permission denied)") == true)
        #expect(c.update(now: Self.t0 + .seconds(10)) && c.light.picture == 0.3)
    }

    @Test("a task in the data: progress comes when it starts, goes back when it ends, and the change is the data's")
    func taskComesAndGoes() {
        let data = Data()
        let c = Self.controller(data)
        #expect(c.navigation.screen == .rings)
        data.running = ProgressContent(amount: .determinate(0.5), label: "Sync", cancellable: true)
        c.dataChanged(now: Self.t0 + .seconds(1))
        #expect(c.navigation.screen == .progress && c.lastChange == .store)
        #expect(c.perform(.action(.cancel), now: Self.t0 + .seconds(2)) && data.cancelled && c.effects.contains(.cancelTask))
        data.running = nil
        data.change = .gauges
        c.dataChanged(now: Self.t0 + .seconds(3))
        #expect(c.navigation.screen == .rings && c.lastChange == .gauges)
    }

    /// The pixels of `scene`'s frame on a 64x64 picture, and whether it moves.
    static func pixels(_ scene: any Scene) -> (pixels: [UInt32], animating: Bool) {
        let (screen, animating) = scene.frame(at: .zero)
        let buffer = PixelBuffer(width: 64, height: 64)
        screen.draw(into: buffer, at: 0)
        return ((0..<64).flatMap { y in Array(UnsafeBufferPointer(start: buffer.row32(y), count: 64)) }, animating)
    }

    @Test("scene(at:) changes nothing: twice is once (the same picture, page and deadline); a frame shown is an event")
    func sceneTwiceIsOnce() {
        let data = Data()
        data.days[Self.day] = ActivitySummary(moveTime: 20, moveTimeGoal: 30, exerciseTime: 10, exerciseTimeGoal: 30)
        let start = DeviceState(
            screens: [.rings, .progress], maker: ScreenMaker(text: nil, locale: .english, ringsOnly: true), data: data,
            router: InputRouter(keyMap: KeyMap(bindings: [:]), touch: TouchSetting(), panel: Size(width: 64, height: 64), rotation: .none),
            idle: IdleSchedule(dimAfter: 10, blankAfter: 20, dimLevel: 0.3), clock: Clock(), intro: true, now: Self.t0)
        var device = start
        let t = Self.t0 + .milliseconds(300)
        let deadline = device.nextDeadline(now: t)
        let once = Self.pixels(device.scene(at: t))
        let twice = Self.pixels(device.scene(at: t))
        #expect(once.pixels == twice.pixels && once.animating && twice.animating)
        #expect(device.nextDeadline(now: t) == deadline && device.navigation == start.navigation)
        #expect(device.introPending && device.introStart == nil && device.minuteShown == nil, "drawing started the intro")
        // Shown: the intro starts at this frame, the minute drawn is remembered.
        let shownEffects = device.handle(.frameShown, at: t)
        #expect(shownEffects.isEmpty)
        #expect(!device.introPending && device.introStart == t && device.minuteShown == TimeOfDay(hour: 10, minute: 9))
        // showFrame (the runtime's) is scene(at:) and .frameShown in one.
        var shown = start
        let shownScene = shown.showFrame(at: t)
        #expect(Self.pixels(shownScene).pixels == once.pixels)
        #expect(shown.introStart == t && shown.navigation == device.navigation)
        // After the intro's length the scene is still, and asking for it does not end the intro.
        let later = t + RingIntroScene.standardDuration
        #expect(!Self.pixels(device.scene(at: later)).animating && device.introStart == t)
        _ = device.handle(.frameShown, at: later)
        #expect(device.introStart == nil)
        // The progress bar's easing moves on with frames shown, not with scenes asked for.
        data.running = ProgressContent(amount: .determinate(0.2), label: "Sync")
        _ = device.handle(.dataChanged, at: later)
        #expect(device.navigation.screen == .progress)
        _ = device.handle(.frameShown, at: later)
        data.running = ProgressContent(amount: .determinate(0.8), label: "Sync")
        let easing = later + .milliseconds(100)
        let first = Self.pixels(device.scene(at: easing))
        #expect(first.animating && Self.pixels(device.scene(at: easing)).pixels == first.pixels)
        #expect(device.nextDeadline(now: easing) == device.nextDeadline(now: easing))
    }
}
