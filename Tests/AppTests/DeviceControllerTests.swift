@testable import DeviceLogic
import Backlight
import Controls
import Activity
import CKernelShims
import Foundation
import Configuration
import Input
import Platform
import Raster
import Screens
import Testing

@testable import App
@testable import Clocks

/// A recorded stream from Tests/InputTests/Fixtures.
func recorded(_ name: String) throws -> [InputEvent] {
    var path = #filePath
    for _ in 0..<2 { path = String(path[..<path.lastIndex(of: "/")!]) }
    var text = ""
    // (unwrapped: Debian 13's glibc marks the FILE * of fgets and fclose non-null)
    let file = try #require(fopen(path + "/InputTests/Fixtures/" + name, "r"))
    defer { fclose(file) }
    var line = [CChar](repeating: 0, count: 512)
    while fgets(&line, 512, file) != nil { text += String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) }
    return try EventRecording.parse(text)
}

#if canImport(Glibc)
    import Glibc
#endif

/// A fake sysfs backlight folder (`ROOT/panel/max_brightness`, `brightness`), removed at the end.
final class FakeBacklight {
    let root: String
    init(_ name: String, maximum: Int, brightness: Int) {
        root = "/tmp/glance-backlight-\(name)-\(getpid())"
        mkdir(root, 0o755)
        mkdir(root + "/panel", 0o755)
        set(maximum: maximum, brightness: brightness)
    }
    deinit { _ = system("rm -rf \(root)") }

    func set(maximum: Int, brightness: Int) {
        for (file, value) in [("max_brightness", maximum), ("brightness", brightness)] {
            guard let f = fopen(root + "/panel/" + file, "w") else { continue }
            fputs("\(value)\n", f)
            fclose(f)
        }
    }

    /// The brightness as written last.
    var brightness: String {
        (try? String(contentsOfFile: root + "/panel/brightness", encoding: .utf8))?
            .trimmingCharacters(in: .whitespacesAndNewlines) ?? "?"
    }
}

@Suite("Input router: devices to commands, waking first")
struct InputRouterTests {
    static let touchscreen = DeviceDescription(
        path: "/dev/input/event5",
        capabilities: InputCapabilities(
            eventTypes: [1, 3], keys: [0x14A],
            absoluteAxes: [0x2F: .init(minimum: 0, maximum: 9), 0x35: .init(minimum: 0, maximum: 4095),
                           0x36: .init(minimum: 0, maximum: 4095), 0x00: .init(minimum: 0, maximum: 4095),
                           0x01: .init(minimum: 0, maximum: 4095)],
            properties: [1]))
    static let tablet = DeviceDescription(
        path: "/dev/input/event3",
        capabilities: InputCapabilities(
            eventTypes: [1, 3], keys: [0x110, 0x111, 0x112],
            absoluteAxes: [0: .init(minimum: 0, maximum: 32767), 1: .init(minimum: 0, maximum: 32767)]))
    static let keyboard = DeviceDescription(
        path: "/dev/input/event1", capabilities: InputCapabilities(eventTypes: [1], keys: Set(1..<120)))

    static func router(rotation: Rotation = .none) throws -> InputRouter {
        InputRouter(keyMap: try KeyMap.make(Configuration()).get(), touch: TouchSetting(),
                    panel: Size(width: 800, height: 480), rotation: rotation)
    }

    @Test("a multi-touch swipe to the left shows the next day; a tablet drag up the next screen; a click is a tap")
    func touch() throws {
        let r = try Self.router()
        #expect(r.feed(try recorded("mt-swipe-left.events"), from: Self.touchscreen, asleep: false).commands == [.action(.nextDay)])
        #expect(r.feed(try recorded("tablet-drag-up.events"), from: Self.tablet, asleep: false).commands == [.action(.nextScreen)])
        let tap = r.feed(try recorded("tablet-tap.events"), from: Self.tablet, asleep: false).commands
        guard case .tap(let p) = tap.first else {
            Issue.record("no tap: \(tap)")
            return
        }
        #expect(abs(p.x - 400) < 1 && abs(p.y - 240) < 1)
    }

    @Test("on a panel turned a quarter, a swipe along the panel's long side browses days in the picture's terms")
    func rotated() throws {
        let r = try Self.router(rotation: .quarter)
        // The picture is turned 90° clockwise onto the panel: its top is the panel's right edge.
        // A finger moving from the panel's right to its left moves from the picture's top to its
        // bottom: a swipe down, the previous screen.
        #expect(r.feed(try recorded("mt-swipe-left.events"), from: Self.touchscreen, asleep: false).commands == [.action(.previousScreen)])
    }

    @Test("while asleep, the first key only wakes: its release does not act; the next key does")
    func wakeKeys() throws {
        let r = try Self.router()
        let right = EventNames.keyCode(named: "KEY_RIGHT")!
        func key(_ v: Int32, _ t: Double) -> [InputEvent] {
            [InputEvent(time: t, type: 1, code: right, value: v), InputEvent(time: t, type: 0, code: 0, value: 0)]
        }
        let woke = r.feed(key(1, 1), from: Self.keyboard, asleep: true)
        #expect(woke.woke && woke.activity && woke.commands.isEmpty)
        #expect(r.feed(key(0, 1.1), from: Self.keyboard, asleep: false).commands.isEmpty)
        // Right has a long press (today): a tap acts on release.
        #expect(r.feed(key(1, 2), from: Self.keyboard, asleep: false).commands.isEmpty)
        #expect(r.feed(key(0, 2.1), from: Self.keyboard, asleep: false).commands == [.action(.nextDay)])
    }

    @Test("while asleep, a touch only wakes: the swipe it makes does nothing")
    func wakeTouch() throws {
        let r = try Self.router()
        let outcome = r.feed(try recorded("mt-swipe-left.events"), from: Self.touchscreen, asleep: true)
        #expect(outcome.woke && outcome.commands.isEmpty)
        #expect(r.feed(try recorded("mt-swipe-left.events"), from: Self.touchscreen, asleep: false).commands == [.action(.nextDay)])
    }

    @Test("two quick taps far apart in one slot are two taps, not a swipe")
    func retouch() throws {
        let r = try Self.router()
        let events = try EventRecording.parse(
            """
            0.00 EV_ABS ABS_MT_SLOT 0
            0.00 EV_ABS ABS_MT_TRACKING_ID 7
            0.00 EV_ABS ABS_MT_POSITION_X 3000
            0.00 EV_ABS ABS_MT_POSITION_Y 2000
            0.00 EV_SYN SYN_REPORT 0
            0.10 EV_ABS ABS_MT_TRACKING_ID -1
            0.10 EV_ABS ABS_MT_TRACKING_ID 8
            0.10 EV_ABS ABS_MT_POSITION_X 500
            0.10 EV_SYN SYN_REPORT 0
            0.20 EV_ABS ABS_MT_TRACKING_ID -1
            0.20 EV_SYN SYN_REPORT 0
            """)
        let commands = r.feed(events, from: Self.touchscreen, asleep: false).commands
        #expect(commands.count == 2 && commands.allSatisfy { if case .tap = $0 { true } else { false } }, "\(commands)")
    }

    @Test("a key's repeats and a finger's moves are activity, not only presses and touches")
    func activity() throws {
        let r = try Self.router()
        let right = EventNames.keyCode(named: "KEY_RIGHT")!
        let syn = InputEvent(time: 0, type: 0, code: 0, value: 0)
        _ = r.feed([InputEvent(time: 1, type: 1, code: right, value: 1), syn], from: Self.keyboard, asleep: false)
        let repeated = r.feed(
            [InputEvent(time: 1.5, type: 1, code: right, value: 2), syn], from: Self.keyboard, asleep: false)
        // The keyboard repeats Right: its press (held back for a long press) and the repeat.
        #expect(repeated.activity && repeated.commands == [.action(.nextDay), .action(.nextDay)])
        let swipe = try recorded("mt-swipe-left.events")
        let firstFrame = swipe.firstIndex { $0.isSynReport }! + 1
        _ = r.feed(Array(swipe[..<firstFrame]), from: Self.touchscreen, asleep: false)
        let moved = r.feed(Array(swipe[firstFrame..<firstFrame + 6]), from: Self.touchscreen, asleep: false)
        #expect(moved.activity && moved.commands.isEmpty)
    }

    @Test("a keyboard going away forgets its own held keys, not another's long press or waking key")
    func removedDevice() throws {
        let r = try Self.router()
        let other = DeviceDescription(path: "/dev/input/event2", capabilities: Self.keyboard.capabilities)
        let enter = EventNames.keyCode(named: "KEY_ENTER")!
        let right = EventNames.keyCode(named: "KEY_RIGHT")!
        _ = r.feed([InputEvent(time: 5, type: 1, code: enter, value: 1)], from: Self.keyboard, asleep: false)
        r.removed(path: other.path)
        #expect(r.nextDeadline == 5.8)
        #expect(r.tick(time: 5.8) == [.held(.today)])

        // Right held to wake the panel on one keyboard stays a waking key when the other goes.
        let woke = r.feed([InputEvent(time: 10, type: 1, code: right, value: 1)], from: other, asleep: true)
        #expect(woke.woke)
        r.removed(path: Self.keyboard.path)
        for (time, value) in [(10.5, 2), (10.6, 0)] as [(Double, Int32)] {
            let held = r.feed([InputEvent(time: time, type: 1, code: right, value: value)], from: other, asleep: false)
            #expect(held.commands.isEmpty)
        }

        // The device that went away: its held key is forgotten.
        _ = r.feed([InputEvent(time: 20, type: 1, code: enter, value: 1)], from: other, asleep: false)
        r.removed(path: other.path)
        #expect(r.nextDeadline == nil && r.tick(time: 21).isEmpty)
    }

    @Test("reset forgets every device's held keys (input went to another console meanwhile)")
    func reset() throws {
        let r = try Self.router()
        let enter = EventNames.keyCode(named: "KEY_ENTER")!
        let other = DeviceDescription(path: "/dev/input/event2", capabilities: Self.keyboard.capabilities)
        _ = r.feed([InputEvent(time: 5, type: 1, code: enter, value: 1)], from: Self.keyboard, asleep: false)
        _ = r.feed([InputEvent(time: 5.2, type: 1, code: enter, value: 1)], from: other, asleep: false)
        #expect(r.nextDeadline != nil)
        r.reset()
        #expect(r.nextDeadline == nil && r.tick(time: 6).isEmpty)
        // The release that comes later does nothing.
        #expect(r.feed([InputEvent(time: 7, type: 1, code: enter, value: 0)], from: Self.keyboard, asleep: false).commands.isEmpty)

        // A finger down through the reset, in slot 1: ignored until lifted (no tap from its
        // lift); the slot is still followed, so the next touch in slot 1 is a tap.
        let down = try EventRecording.parse(
            """
            10.00 EV_ABS ABS_MT_SLOT 1
            10.00 EV_ABS ABS_MT_TRACKING_ID 9
            10.00 EV_ABS ABS_MT_POSITION_X 2000
            10.00 EV_ABS ABS_MT_POSITION_Y 2000
            10.00 EV_KEY BTN_TOUCH 1
            10.00 EV_SYN SYN_REPORT 0
            """)
        _ = r.feed(down, from: Self.touchscreen, asleep: false)
        r.reset()
        let lift = try EventRecording.parse(
            """
            10.10 EV_ABS ABS_MT_TRACKING_ID -1
            10.10 EV_KEY BTN_TOUCH 0
            10.10 EV_SYN SYN_REPORT 0
            """)
        #expect(r.feed(lift, from: Self.touchscreen, asleep: false).commands.isEmpty, "a tap from a finger of before")
        let tap = try EventRecording.parse(
            """
            11.00 EV_ABS ABS_MT_TRACKING_ID 10
            11.00 EV_ABS ABS_MT_POSITION_X 2100
            11.00 EV_ABS ABS_MT_POSITION_Y 2100
            11.00 EV_KEY BTN_TOUCH 1
            11.00 EV_SYN SYN_REPORT 0
            11.08 EV_ABS ABS_MT_TRACKING_ID -1
            11.08 EV_KEY BTN_TOUCH 0
            11.08 EV_SYN SYN_REPORT 0
            """)
        let commands = r.feed(tap, from: Self.touchscreen, asleep: false).commands
        #expect(commands.count == 1 && commands.allSatisfy { if case .tap = $0 { true } else { false } }, "\(commands)")
    }

    @Test("a held key's long press comes from the clock")
    func longPress() throws {
        let r = try Self.router()
        let enter = EventNames.keyCode(named: "KEY_ENTER")!
        _ = r.feed([InputEvent(time: 5, type: 1, code: enter, value: 1)], from: Self.keyboard, asleep: false)
        #expect(r.nextDeadline == 5.8)
        #expect(r.tick(time: 5.8) == [.held(.today)])
    }
}

/// A calendar and wall clock that tests move by hand: the day, the time until midnight, and the
/// seconds since midnight (the time of day and the next minute follow from them).
final class TestClock: LocalClock {
    var day: CalendarDay
    var untilMidnight: Double
    var wall: Double
    init(_ day: CalendarDay, untilMidnight: Double, wall: Double = 15 * 3600) {
        self.day = day
        self.untilMidnight = untilMidnight
        self.wall = wall
    }
    func today() -> CalendarDay { day }
    func secondsUntilMidnight() -> Double { untilMidnight }
    func timeOfDay() -> TimeOfDay {
        let minutes = Int(wall / 60)
        return TimeOfDay(hour: (minutes / 60) % 24, minute: minutes % 60)!
    }
    func secondsUntilNextMinute() -> Double { 60 - wall.truncatingRemainder(dividingBy: 60) }
}

@Suite("Device controller: navigation, idle, midnight, cancel")
struct DeviceControllerTests {
    static let today = CalendarDay(year: 2026, month: 11, day: 29)!

    static func controller(
        data: DataSource, screens: [ScreenKind] = [.rings, .gauges, .progress], clock: LocalClock,
        idle: IdleSchedule = IdleSchedule(dimAfter: 10, blankAfter: 20, dimLevel: 0.3)
    ) throws -> DeviceController {
        DeviceController(
            screens: screens, maker: ScreenMaker(text: nil, locale: .english, shape: .rectangle, name: "A"), data: data, input: nil,
            router: InputRouter(keyMap: try KeyMap.make(Configuration()).get(), touch: TouchSetting(),
                                panel: Size(width: 480, height: 480), rotation: .none),
            idle: idle, clock: clock, intro: false, now: .seconds(100), log: { _ in })
    }

    @Test("screens without content are skipped; the progress screen appears with a task")
    func available() throws {
        let data = FixedData(days: [:])
        let c = try Self.controller(data: data, clock: FixedClock(Self.today))
        #expect(c.available(now: .seconds(100)) == [.rings])
        data.fixedTask = ProgressContent(amount: .determinate(0.3), cancellable: true)
        data.fixedGauges = [Gauge(style: .circular, value: 3)]
        #expect(c.available(now: .seconds(100)) == [.rings, .gauges, .progress])
        #expect(c.perform(.action(.nextScreen), now: .seconds(101)) && c.navigation.screen == .gauges)
    }

    @Test("dims, then blanks, after the configured idle times; handle says when to wake")
    func idle() throws {
        let c = try Self.controller(data: FixedData(days: [:]), clock: FixedClock(Self.today))
        #expect(c.nextDeadline(now: .seconds(101)) == .seconds(110))
        #expect(!c.advance(to: .seconds(105)) && c.idle == .awake)
        #expect(c.advance(to: .seconds(110)) && c.idle == .dimmed(0.3))
        #expect(c.nextDeadline(now: .seconds(111)) == .seconds(120))
        #expect(c.advance(to: .seconds(120)) && c.idle == .blank && c.blanked)
        #expect(c.nextDeadline(now: .seconds(121)) == nil, "asleep and nothing to wait for: no wake-ups")
    }

    @Test("on another console the light is that console's and nothing dims; the switch back counts as input")
    func awayOnAnotherConsole() throws {
        let fake = FakeBacklight("away", maximum: 255, brightness: 200)
        let root = fake.root
        func brightness() -> String { fake.brightness }
        let c = try Self.controller(data: FixedData(days: [:]), clock: FixedClock(Self.today))
        let light = try #require(Backlight.find(in: root, log: { _ in }))
        c.backlight = light
        #expect(c.advance(to: .seconds(110)) && c.idle == .dimmed(0.3))
        #expect(brightness() == "60")
        // Switched away while dimmed: the other console gets the full light, and keeps it.
        c.displayReleased(now: .seconds(112))
        #expect(c.away && brightness() == "200")
        #expect(c.nextDeadline(now: .seconds(113)) == nil, "no idle deadline while away")
        #expect(!c.advance(to: .seconds(500)))
        #expect(!c.blanked && brightness() == "200", "blanked on another console")
        // Back: awake, and the idle times count from the switch back.
        c.displayRetaken(now: .seconds(600))
        #expect(!c.away && c.idle == .awake && brightness() == "200")
        #expect(c.nextDeadline(now: .seconds(601)) == .seconds(610))
        #expect(c.advance(to: .seconds(610)) && c.idle == .dimmed(0.3) && brightness() == "60")
    }

    @Test("a backlight whose brightness cannot be written is given up: the picture is dimmed instead")
    func unwritableBacklight() throws {
        let fake = FakeBacklight("unwritable", maximum: 255, brightness: 200)
        let root = fake.root
        let c = try Self.controller(data: FixedData(days: [:]), clock: FixedClock(Self.today))
        let light = try #require(Backlight.find(in: root, log: { _ in }))
        c.backlight = light
        // The brightness cannot be written any more (a directory: root may write any file).
        unlink(root + "/panel/brightness")
        mkdir(root + "/panel/brightness", 0o755)
        #expect(c.advance(to: .seconds(110)) && c.idle == .dimmed(0.3))
        #expect(c.backlight == nil)
        #expect(c.scene(now: monotonicNow()).frame(at: .zero).screen is DimmedScreen, "the picture is not dimmed")
    }

    @Test("a backlight that is only switched (max_brightness 1, gpio-backlight) stays on when dimmed: the picture dims")
    func switchedBacklight() throws {
        let fake = FakeBacklight("switch", maximum: 1, brightness: 1)
        let root = fake.root
        func brightness() -> String { fake.brightness }
        let c = try Self.controller(data: FixedData(days: [:]), clock: FixedClock(Self.today))
        let light = try #require(Backlight.find(in: root, log: { _ in }))
        c.backlight = light
        #expect(c.advance(to: .seconds(110)) && c.idle == .dimmed(0.3))
        #expect(brightness() == "1", "dimmed to \(brightness()): the panel went dark at dimAfter")
        #expect(c.backlight != nil, "a switched backlight is kept for blanking")
        #expect(c.scene(now: monotonicNow()).frame(at: .zero).screen is DimmedScreen, "the picture is not dimmed")
        #expect(c.advance(to: .seconds(120)) && c.idle == .blank && brightness() == "0")
        // Handed to another console (as when waking, the light is put back): on again.
        c.displayReleased(now: .seconds(130))
        #expect(brightness() == "1")
        // A light with steps dims itself: the picture is not dimmed then.
        fake.set(maximum: 255, brightness: 200)
        let dimmer = try Self.controller(data: FixedData(days: [:]), clock: FixedClock(Self.today))
        dimmer.backlight = try #require(Backlight.find(in: root, log: { _ in }))
        #expect(dimmer.advance(to: .seconds(110)) && brightness() == "60")
        #expect(!(dimmer.scene(now: monotonicNow()).frame(at: .zero).screen is DimmedScreen), "dimmed twice: light and picture")
    }

    @Test("at midnight the view of today moves on, and the deadline was midnight")
    func midnight() throws {
        let clock = TestClock(Self.today, untilMidnight: 30)
        let c = try Self.controller(
            data: FixedData(days: [:]), clock: clock, idle: IdleSchedule(dimAfter: nil, blankAfter: nil, dimLevel: 1))
        #expect(c.nextDeadline(now: .seconds(101)) == .seconds(130))
        clock.day = Self.today.adding(days: 1)
        clock.untilMidnight = 86400
        #expect(c.advance(to: .seconds(130)) && c.navigation.day == Self.today.adding(days: 1))
        #expect(c.nextDeadline(now: .seconds(131)) == .seconds(130 + 86400))
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
        let data = FixedData(days: [:], task: task)
        let c = try Self.controller(data: data, screens: [.progress, .rings], clock: FixedClock(Self.today))
        #expect(c.navigation.screen == .progress)
        // The button is where the screen draws it; no frame need have been drawn to know it.
        let button = try Self.drawnButton(task, Size(width: 480, height: 480))
        #expect(c.cancelButton(task) == button)
        // A tap beside the button selects (the next screen); on it, cancels.
        #expect(c.perform(.tap(Point(x: button.x - 20, y: 20)), now: .seconds(101)) && !data.cancelRequested)
        #expect(c.navigation.screen == .rings)
        _ = c.perform(.action(.previousScreen), now: .seconds(102))
        #expect(c.perform(.tap(button.center), now: .seconds(103)) && data.cancelRequested)
        // Elsewhere, Esc does nothing.
        let other = FixedData(days: [:])
        let d = try Self.controller(data: other, clock: FixedClock(Self.today))
        #expect(!d.perform(.action(.cancel), now: .seconds(101)) && !other.cancelRequested)
    }

    @Test("taps meet the Cancel button in the picture the router maps them into (a panel turned a quarter)")
    func cancelOnTurnedPanel() throws {
        let task = ProgressContent(amount: .indeterminate, label: "Import", cancellable: true, cancelNote: "Kept")
        let data = FixedData(days: [:], task: task)
        // An 800x480 panel turned a quarter: the picture is 480x800.
        let router = InputRouter(
            keyMap: try KeyMap.make(Configuration()).get(), touch: TouchSetting(), panel: Size(width: 800, height: 480),
            rotation: .quarter)
        #expect(router.pictureSize == Size(width: 480, height: 800))
        let c = DeviceController(
            screens: [.progress, .rings], maker: ScreenMaker(text: nil, locale: .english, shape: .rectangle, name: "A"),
            data: data, input: nil, router: router, idle: IdleSchedule(dimAfter: nil, blankAfter: nil, dimLevel: 1),
            clock: FixedClock(Self.today), intro: false, now: .seconds(100), log: { _ in })
        let button = try Self.drawnButton(task, Size(width: 480, height: 800))
        let square = try Self.drawnButton(task, Size(width: 480, height: 480))
        #expect(c.cancelButton(task) == button)
        // Where the button would be on a square picture is nothing on this one: it selects.
        let p = square.center
        #expect(!(p.x >= button.x && p.x <= button.maxX && p.y >= button.y && p.y <= button.maxY))
        #expect(c.perform(.tap(square.center), now: .seconds(101)) && !data.cancelRequested)
        _ = c.perform(.action(.previousScreen), now: .seconds(102))
        #expect(c.navigation.screen == .progress)
        #expect(c.perform(.tap(button.center), now: .seconds(103)) && data.cancelRequested)
    }
}

extension DeviceControllerTests {
    /// The fraction the progress screen shows now.
    static func shownFraction(_ c: DeviceController, now: Duration) -> Double? {
        guard let screen = c.currentScreen(now: now) as? ProgressScreen, case .determinate(let f) = screen.content.amount
        else { return nil }
        return f
    }

    @Test("a new task's bar starts from its own fraction, not from where the last one stopped")
    func easingPerTask() throws {
        let data = FixedData(days: [:], task: ProgressContent(amount: .determinate(0.4), label: "A", cancellable: true))
        let c = try Self.controller(data: data, screens: [.progress, .rings], clock: FixedClock(Self.today))
        #expect(Self.shownFraction(c, now: .seconds(100)) == 0.4)
        // A ends and B starts before the app looks again.
        data.fixedTask = ProgressContent(amount: .determinate(0.02), label: "B", cancellable: true)
        // The data changed (the session hands it over when the store says so).
        c.dataChanged(now: .seconds(101))
        _ = c.advance(to: .seconds(101))
        #expect(Self.shownFraction(c, now: .seconds(101)) == 0.02)
        // Within one task the bar never goes back.
        data.fixedTask = ProgressContent(amount: .determinate(0.01), label: "B", cancellable: true)
        // The data changed (the session hands it over when the store says so).
        c.dataChanged(now: .seconds(102))
        _ = c.advance(to: .seconds(102))
        #expect((Self.shownFraction(c, now: .seconds(102)) ?? 0) >= 0.02)
    }

    @Test("a task already running when the app starts is shown first; when it ends, the screen before it")
    func taskAtStart() throws {
        let data = FixedData(days: [:], task: ProgressContent(amount: .indeterminate, label: "Import"))
        let c = try Self.controller(data: data, screens: [.rings, .progress], clock: FixedClock(Self.today))
        #expect(c.navigation.screen == .progress)
        data.fixedTask = nil
        // The data changed (the session hands it over when the store says so).
        c.dataChanged(now: .seconds(101))
        _ = c.advance(to: .seconds(101))
        #expect(c.navigation.screen == .rings)
    }

    @Test("today is asked on every wake-up: a clock set forward shows the new day before midnight comes")
    func clockSet() throws {
        let clock = TestClock(Self.today, untilMidnight: 3600)
        let c = try Self.controller(
            data: FixedData(days: [:]), clock: clock, idle: IdleSchedule(dimAfter: nil, blankAfter: nil, dimLevel: 1))
        clock.day = Self.today.adding(days: 40)
        #expect(c.advance(to: .seconds(101)))
        #expect(c.navigation.today == Self.today.adding(days: 40) && c.navigation.day == c.navigation.today)
    }

    @Test("midnight by the time zone's calendar: 23 hours on the day summer time starts, 25 when it ends")
    func daylightSaving() throws {
        // In a child process: TZ is the process's.
        for (utc, expected) in [
            // 2026-03-29 00:30 CET (23:30 UTC the day before): midnight is 22.5 h away.
            (1_774_740_600, 81_000.0),
            // 2026-10-25 00:30 CEST (22:30 UTC the day before): 24.5 h away.
            (1_792_881_000, 88_200.0),
        ] {
            let status = inChildProcess {
                setenv("TZ", "Europe/Berlin", 1)
                tzset()
                return SystemLocalClock().secondsUntilMidnight(from: time_t(utc)) == expected ? 0 : 1
            }
            #expect(status == 0, "midnight after \(utc) in Berlin")
        }
    }
}

/// Runs `body` in a forked child and returns its exit status, or 128 + the signal that ended it.
/// A child still running after 60 s is killed (SIGKILL, 137): forked from a process whose other
/// threads run tests, it could wait forever on a lock one of them held, and so would the run.
func inChildProcess(_ body: () -> Int32) -> Int32 {
    fflush(nil)
    let pid = fork()
    if pid == 0 { _exit(body()) }
    var status: Int32 = 0
    var waited = 0
    while waitpid(pid, &status, WNOHANG) == 0 {
        if waited >= 6000 {
            kill(pid, SIGKILL)
            waitpid(pid, &status, 0)
            break
        }
        usleep(10_000)
        waited += 1
    }
    let signal = status & 0x7F
    return signal == 0 ? (status >> 8) & 0xFF : 128 + signal
}

@Suite("Backlight")
struct BacklightTests {
    @Test("found in sysfs; dims, turns off and comes back to the brightness it had")
    func sysfs() throws {
        let root = "/tmp/glance-backlight-\(getpid())"
        let light = root + "/panel"
        mkdir(root, 0o755)
        mkdir(light, 0o755)
        defer { _ = system("rm -rf \(root)") }
        func put(_ file: String, _ text: String) {
            guard let f = fopen(light + "/" + file, "w") else { return }
            fputs(text, f)
            fclose(f)
        }
        func get() -> String {
            guard let f = fopen(light + "/brightness", "r") else { return "?" }
            defer { fclose(f) }
            var b = [CChar](repeating: 0, count: 32)
            fgets(&b, 32, f)
            return String(decoding: b.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        }
        put("max_brightness", "255\n")
        put("brightness", "200\n")
        let b = try #require(Backlight.find(in: root, log: { _ in }))
        #expect(b.maximum == 255 && b.original == 200)
        #expect(b.set(value: 60) && get() == "60" && b.value == 60)
        #expect(b.set(value: 0) && get() == "0")
        b.restore()
        #expect(get() == "200")
        #expect(Backlight.find(in: root + "/none", log: { _ in }) == nil)
        // Off at start (a run killed while blank): awake means full brightness, not dark for good.
        put("brightness", "0\n")
        let off = try #require(Backlight.find(in: root, log: { _ in }))
        #expect(off.original == 255)
        // A crash while dimmed puts the brightness back, through the fatal-signal handler.
        put("brightness", "200\n")
        let crashed = inChildProcess {
            guard let light = Backlight.find(in: root, log: { _ in }) else { return 2 }
            light.armCrashRestore()
            light.set(value: 20)
            raise(SIGSEGV)
            return 3
        }
        #expect(crashed == 128 + SIGSEGV)
        #expect(get() == "200")
        // The same for Ctrl+\ (SIGQUIT) and for a stack overflow (the handler has its own stack).
        for (signal, overflow) in [(SIGQUIT, false), (SIGSEGV, true)] {
            put("brightness", "200\n")
            let status = inChildProcess {
                guard let light = Backlight.find(in: root, log: { _ in }) else { return 2 }
                light.armCrashRestore()
                light.set(value: 20)
                if overflow { return Int32(truncatingIfNeeded: recurseForever(1)) }
                // The test runner blocks some signals; the child takes them as the app does.
                var mask = sigset_t()
                sigemptyset(&mask)
                sigaddset(&mask, signal)
                sigprocmask(SIG_UNBLOCK, &mask, nil)
                raise(signal)
                return 3
            }
            #expect(status == 128 + signal, "signal \(signal), overflow \(overflow)")
            #expect(get() == "200", "signal \(signal), overflow \(overflow)")
        }
    }
}

/// Recursion without end (a stack overflow), kept from being turned into a loop.
@inline(never)
func recurseForever(_ n: Int) -> Int {
    var frame = [Int](repeating: n, count: 1)
    frame.withUnsafeMutableBufferPointer { _ in }
    return recurseForever(n &+ frame[0]) &+ 1
}
