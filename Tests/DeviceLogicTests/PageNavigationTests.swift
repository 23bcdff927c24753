import Activity
import Controls
import DeviceLogic
import Raster
import Screens
import Testing

/// A screen in pages (a small or round panel's rings, then each figure; a grid of gauges a page
/// at a time) is turned page by page before the next screen: by the buttons, touch and the cycle.
@Suite("Pages: the buttons, touch and the cycle turn them", .timeLimit(.minutes(10)))
struct PageNavigationTests {
    static let today = CalendarDay(year: 2026, month: 11, day: 30)!
    static let t0 = Duration.seconds(500)

    @Test("next goes through a screen's pages, then to the next screen's first; back to the previous one's last")
    func pure() {
        var n = Navigation(screen: .rings, today: Self.today)
        let pages: (ScreenKind) -> Int = { $0 == .rings ? 4 : $0 == .gauges ? 2 : 1 }
        let available: [ScreenKind] = [.rings, .gauges, .clock]
        var seen: [String] = []
        for _ in 0..<8 {
            let changed = n.apply(.select, available: available, pages: pages)
            #expect(changed)
            seen.append("\(n.screen) \(n.page)")
        }
        #expect(seen == ["rings 1", "rings 2", "rings 3", "gauges 0", "gauges 1", "clock 0", "rings 0", "rings 1"])
        // Back: a page, then the previous screen's last page.
        n.apply(.previousScreen, available: available, pages: pages)
        #expect(n.screen == .rings && n.page == 0)
        n.apply(.previousScreen, available: available, pages: pages)
        #expect(n.screen == .clock && n.page == 0)
        n.apply(.previousScreen, available: available, pages: pages)
        #expect(n.screen == .gauges && n.page == 1)
        // Another day keeps the page; today goes to today's rings, their first page.
        n.apply(.nextScreen, available: available, pages: pages)
        n.apply(.nextScreen, available: available, pages: pages)
        n.apply(.nextScreen, available: available, pages: pages)
        #expect(n.screen == .rings && n.page == 1)
        n.apply(.previousDay, available: available, pages: pages)
        #expect(n.page == 1 && n.day == Self.today.adding(days: -1))
        n.apply(.today, available: available, pages: pages)
        #expect(n.screen == .rings && n.page == 0 && n.day == Self.today)
        // One screen in pages: round and round.
        var one = Navigation(screen: .rings, today: Self.today)
        for _ in 0..<4 { one.apply(.select, available: [.rings], pages: pages) }
        #expect(one.page == 0)
        // Another screen by other means: its first page.
        one.page = 2
        one.screen = .clock
        #expect(one.page == 0)
    }

    final class Data: ShownData {
        var gaugeList: [Gauge] = []
        func summary(for day: CalendarDay) -> ActivitySummary? {
            ActivitySummary(activeEnergyBurned: .kilocalories(350), activeEnergyBurnedGoal: .kilocalories(500), exerciseTime: 21,
                            exerciseTimeGoal: 30, standHours: 9, standHoursGoal: 12)
        }
        func summaries(_ list: [CalendarDay]) -> [CalendarDay: ActivitySummary] { [:] }
        func gauges(now: Duration) -> [Gauge] { gaugeList }
        func task() -> ProgressContent? { nil }
        func cancelTask() {}
        func showGauges(_ shown: Bool, now: Duration) -> Bool { false }
        var lastChange: DataChange { .store }
        func preference(_ name: String) -> String? { nil }
        func keep(_ values: [(name: String, value: String?)]) {}
    }

    struct Clock: LocalClock {
        func today() -> CalendarDay { PageNavigationTests.today }
        func secondsUntilMidnight() -> Double { .infinity }
        func timeOfDay() -> TimeOfDay { TimeOfDay(hour: 10, minute: 9)! }
        func secondsUntilNextMinute() -> Double { .infinity }
    }

    /// Characters 0.6 em wide: what fits is what fits with real fonts, near enough.
    final class Measure: TextRenderer {
        func measure(_ text: String, _ style: TextStyle) -> TextMetrics {
            TextMetrics(width: Float(text.count) * style.size * 0.6, ascent: style.size * 0.9, descent: style.size * 0.25)
        }
        func draw(_ text: String, _ style: TextStyle, color: Color, at origin: Point, into buffer: PixelBuffer, clip: IntRect?) {}
        func canRender(_ text: String) -> Bool { true }
    }

    /// A 240x240 panel (the rings in four pages) with two buttons, Left and Enter.
    static func controller(
        _ data: Data, screens: [ScreenKind], size: Size = Size(width: 240, height: 240), cycle: ScreenCycle? = nil,
        hints: (@Sendable (KeyMap, [InputCapabilities]) -> [KeyHint])? = nil
    ) -> TestDevice {
        let map = KeyMap(bindings: [105: .previousDay, 28: .select])
        return TestDevice(
            DeviceState(
                screens: screens, maker: ScreenMaker(text: Measure(), locale: .english), data: data,
                router: InputRouter(keyMap: map, touch: TouchSetting(), panel: size, rotation: .none),
                idle: IdleSchedule(dimAfter: nil, blankAfter: nil, dimLevel: 0.3), cycle: cycle, clock: Clock(), intro: false,
                now: t0, hints: hints))
    }

    /// The screen the controller draws now, and its page.
    static func shown(_ c: TestDevice, _ now: Duration) -> (page: Int, pages: Int, screen: any Screen) {
        let screen = c.scene(now: now).frame(at: now).screen
        return (screen.page, screen.pageCount(for: Size(width: 240, height: 240)), screen)
    }

    static let keyboard = DeviceDescription(path: "/dev/input/event0", capabilities: InputCapabilities(keys: [28, 105]))

    static func press(_ code: UInt16, _ c: TestDevice, at now: Duration) -> Bool {
        let t = now.inSeconds
        let down = [InputEvent(time: t, type: InputEvent.keyType, code: code, value: 1), InputEvent(time: t, type: 0, code: 0, value: 0)]
        let up = [InputEvent(time: t + 0.05, type: InputEvent.keyType, code: code, value: 0),
                  InputEvent(time: t + 0.05, type: 0, code: 0, value: 0)]
        let a = c.feed(down, from: keyboard, name: "buttons", now: now)
        let b = c.feed(up, from: keyboard, name: "buttons", now: now + .milliseconds(50))
        return a || b
    }

    @Test("on a 240x240 panel Enter turns the rings' four pages, then shows the clock; a tap does the same")
    func buttons() {
        let c = Self.controller(Data(), screens: [.rings, .clock])
        #expect(c.pageCount(of: .rings, now: Self.t0) == 4)
        var now = Self.t0
        var pages: [Int] = []
        for _ in 0..<3 {
            now += .seconds(1)
            #expect(Self.press(28, c, at: now))
            let s = Self.shown(c, now + .milliseconds(100))
            #expect(s.pages == 4 && c.navigation.screen == .rings)
            pages.append(s.page)
        }
        #expect(pages == [1, 2, 3])
        // Left on a figure's page: the day before, the same figure.
        now += .seconds(1)
        #expect(Self.press(105, c, at: now))
        #expect(c.navigation.day == Self.today.adding(days: -1) && Self.shown(c, now).page == 3)
        now += .seconds(1)
        #expect(Self.press(28, c, at: now))
        #expect(c.navigation.screen == .clock)
        // A tap: the next screen, the rings' first page.
        #expect(c.perform(.tap(Point(x: 120, y: 120)), now: now + .seconds(1)))
        #expect(c.navigation.screen == .rings && Self.shown(c, now + .seconds(1)).page == 0)
    }

    @Test("a grid of gauges too large for one page: its pages in turn")
    func gauges() {
        let data = Data()
        data.gaugeList = (1...6).map { Gauge(style: .circular, value: Double($0 * 10), title: "Gauge \($0)", unit: "%") }
        let c = Self.controller(data, screens: [.gauges, .rings])
        let count = c.pageCount(of: .gauges, now: Self.t0)
        #expect(count > 1)
        var now = Self.t0
        for page in 1..<count {
            now += .seconds(1)
            #expect(Self.press(28, c, at: now))
            #expect(c.navigation.screen == .gauges && Self.shown(c, now).page == page)
        }
        now += .seconds(1)
        #expect(Self.press(28, c, at: now))
        #expect(c.navigation.screen == .rings)
    }

    @Test("the cycle turns a screen's pages before the next screen, one a turn, and wakes for each")
    func cycle() {
        let c = Self.controller(
            Data(), screens: [.rings, .clock], cycle: ScreenCycle(every: 10, screens: [], pauseOnInput: 30, now: Self.t0))
        var seen: [String] = []
        var now = Self.t0
        for _ in 0..<6 {
            let next = c.nextDeadline(now: now)
            #expect(next == now + .seconds(10), "a wake-up for the next turn")
            now = next ?? now + .seconds(10)
            #expect(c.update(now: now))
            seen.append("\(c.navigation.screen) \(Self.shown(c, now).page)")
        }
        #expect(seen == ["rings 1", "rings 2", "rings 3", "clock 0", "rings 0", "rings 1"])
    }

    @Test("one screen in pages, cycled: round its pages and back to the first")
    func cycleOneScreen() {
        let c = Self.controller(Data(), screens: [.rings], cycle: ScreenCycle(every: 5, screens: [], pauseOnInput: 30, now: Self.t0))
        var pages: [Int] = []
        var now = Self.t0
        for _ in 0..<5 {
            now = c.nextDeadline(now: now) ?? now + .seconds(5)
            _ = c.update(now: now)
            pages.append(c.navigation.page)
        }
        #expect(pages == [1, 2, 3, 0, 1])
    }

    @Test("an 800x480 panel: the rings in one page, Enter goes to the next screen")
    func onePage() {
        let c = Self.controller(Data(), screens: [.rings, .clock], size: Size(width: 800, height: 480))
        #expect(c.pageCount(of: .rings, now: Self.t0) == 1)
        #expect(Self.press(28, c, at: Self.t0 + .seconds(1)))
        #expect(c.navigation.screen == .clock)
    }
}

/// The button hint on a panel that cannot hold every button's row legibly at once: the rows in
/// parts, each shown in turn while the hint stays.
@Suite("The button hint in parts", .timeLimit(.minutes(10)))
struct HintPartsTests {
    @Test("on 240x240 the rows come a part at a time, every partSeconds, with a wake-up for each; the hint stays for all")
    func parts() {
        let c = PageNavigationTests.controller(PageNavigationTests.Data(), screens: [.rings]) { _, _ in
            [KeyHint(code: 105, symbol: .left, press: .previousDay, hold: .refresh),
             KeyHint(code: 28, symbol: .select, press: .select, hold: .today),
             KeyHint(code: 106, symbol: .right, press: .nextDay, hold: .today)]
        }
        let t0 = PageNavigationTests.t0
        _ = c.feed([InputEvent(time: t0.inSeconds, type: 0, code: 0, value: 0)], from: PageNavigationTests.keyboard, name: "b",
                   now: t0)
        #expect(c.perform(.action(.help), now: t0))
        func overlay(_ now: Duration) -> ButtonHintOverlay? {
            c.scene(now: now).frame(at: now).screen as? ButtonHintOverlay
        }
        let first = try? #require(overlay(t0))
        let parts = first?.parts(for: Size(width: 240, height: 240)).count ?? 0
        #expect(parts > 1, "three buttons' rows at 12′ do not fit a 1.3\" panel at once")
        var now = t0
        var seen: [Int] = [overlay(now)?.part ?? -1]
        for _ in 1..<parts {
            let next = c.nextDeadline(now: now)
            #expect(next == now + .seconds(ButtonHintOverlay.partSeconds))
            now = next ?? now
            #expect(c.update(now: now), "the next part is a change")
            seen.append(overlay(now)?.part ?? -1)
        }
        #expect(seen == Array(0..<parts))
        // Still there after the last part came; gone after its time.
        #expect(overlay(now) != nil)
        let end = t0 + .seconds(max(DeviceState.hintSeconds, Double(parts) * ButtonHintOverlay.partSeconds))
        #expect(c.update(now: end) && overlay(end) == nil)
    }
}
