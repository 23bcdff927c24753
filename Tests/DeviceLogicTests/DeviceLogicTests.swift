import Activity
import Controls
import DeviceLogic
import Raster
import Screens
import Testing

/// The device's logic alone, through its ports: no store, no evdev, no sysfs, no clock of the
/// system's.
@Suite("DeviceLogic: the controller through its ports")
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
        func gauges(now: Duration) -> [Gauge] { [] }
        func task() -> ProgressContent? { running }
        func cancelTask() { cancelled = true }
        func showGauges(_ shown: Bool, now: Duration) -> Bool { false }
        var lastChange: DataChange { change }
        func preference(_ name: String) -> String? { kept[name] }
        func keep(_ values: [(name: String, value: String?)]) { for (n, v) in values { kept[n] = v } }
    }

    final class Light: PanelLight {
        let path = "/test/backlight"
        let maximum = 255
        let foundLevel = 1.0
        var levels: [Int] = []
        var refuse = false
        func set(level: Int) -> String? {
            if refuse { return "Permission denied" }
            levels.append(level)
            return nil
        }
        func restore() { levels.append(maximum) }
    }

    struct Clock: LocalClock {
        func today() -> CalendarDay { DeviceLogicTests.day }
        func secondsUntilMidnight() -> Double { .infinity }
        func timeOfDay() -> TimeOfDay { TimeOfDay(hour: 10, minute: 9)! }
        func secondsUntilNextMinute() -> Double { .infinity }
    }

    static func controller(_ data: Data, idle: IdleSchedule = IdleSchedule(dimAfter: 10, blankAfter: 20, dimLevel: 0.3))
        -> DeviceController
    {
        let map = KeyMap(bindings: [105: .previousDay, 28: .select, 106: .nextDay])
        return DeviceController(
            screens: [.rings, .progress], maker: ScreenMaker(text: nil, locale: .english, ringsOnly: true), data: data,
            input: nil, router: InputRouter(keyMap: map, touch: TouchSetting(), panel: Size(width: 64, height: 64), rotation: .none),
            idle: idle, clock: Clock(), intro: false, now: t0, log: { _ in })
    }

    @Test("time dims, then blanks, through the light port; the first key only wakes")
    func idleThroughTheLight() {
        let data = Data()
        let c = Self.controller(data)
        let light = Light()
        c.backlight = light
        c.setUpBrightness(configured: nil)
        #expect(light.levels == [255])
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
        c.backlight = light
        c.setUpBrightness(configured: nil)
        #expect(c.backlight == nil)
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
        #expect(c.perform(.action(.cancel), now: Self.t0 + .seconds(2)) && data.cancelled)
        data.running = nil
        data.change = .gauges
        c.dataChanged(now: Self.t0 + .seconds(3))
        #expect(c.navigation.screen == .rings && c.lastChange == .gauges)
    }
}
