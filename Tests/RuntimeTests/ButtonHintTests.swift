@testable import DeviceLogic
import Activity
import Clocks
import Configuration
import Controls
import Input
import Raster
import Screens
import Testing

@testable import Runtime

/// Two GPIO buttons (KEY_LEFT and KEY_ENTER, one device each, as the gpio-key overlay makes
/// them) with the key map and the hint's words the app gives (Input's key names), driving the
/// device through its runtime (`PanelController`, no hub): holds reach refresh, today and, on the
/// progress screen, the task's Cancel; both held show the button hint, which the first start
/// shows once and any input closes.
@Suite("Two buttons in the controller: holds, cancel, the button hint", .timeLimit(.minutes(10)))
final class ButtonHintTests {
    static let today = CalendarDay(year: 2026, month: 11, day: 29)!
    static let left = DeviceDescription(
        path: "/dev/input/event3", capabilities: InputCapabilities(eventTypes: [1], keys: [105]))
    static let enter = DeviceDescription(
        path: "/dev/input/event4", capabilities: InputCapabilities(eventTypes: [1], keys: [28]))
    var lines: [String] = []

    func controller(_ data: DataSource) throws -> PanelController {
        let device = DeviceState(
            screens: [.rings, .gauges, .progress], maker: ScreenMaker(text: nil, locale: .english, shape: .rectangle, name: "A"),
            data: data,
            router: InputRouter(
                keyMap: try KeyMap.make(Configuration()).get(), touch: TouchSetting(),
                panel: Size(width: 240, height: 240), rotation: .none),
            idle: IdleSchedule(dimAfter: 60, blankAfter: 300, dimLevel: 0.3), clock: FixedClock(Self.today), intro: false,
            now: .seconds(100),
            // The buttons' hint rows as the app gives them (Input's key names).
            hints: { $0.hints(devices: $1) })
        return PanelController(
            device: device, data: data, watchClockChanges: false, now: .seconds(100), log: { [unowned self] in lines.append($0) })
    }

    /// `device`'s key pressed (1) or released (0) at `t` seconds, the loop's tick first.
    @discardableResult
    func key(_ c: PanelController, _ device: DeviceDescription, _ value: Int32, at t: Double) -> Bool {
        let changed = advance(c, to: .seconds(t))
        let code = UInt16(device.capabilities.keys.first!)
        let events = [InputEvent(time: t, type: 1, code: code, value: value), InputEvent(time: t, type: 0, code: 0, value: 0)]
        return feed(c, events, from: device, now: .seconds(t)) || changed
    }

    /// Time passing to `now` with nothing else happening: long presses, then what time does.
    @discardableResult
    func advance(_ c: PanelController, to now: Duration) -> Bool {
        let before = c.navigation.screen
        let ticked = c.send(.tick, now: now)
        return c.send(.update(screenBefore: before), now: now) || ticked
    }

    @discardableResult
    func feed(_ c: PanelController, _ events: [InputEvent], from device: DeviceDescription, now: Duration) -> Bool {
        c.send(.input(events, from: device, name: "button"), now: now)
    }

    /// The input devices opened (none besides those input came from): the first start's hint, once.
    func opened(_ c: PanelController, now: Duration) -> Bool { c.send(.inputOpened([], refresh: nil), now: now) }

    /// Held from `t` until the long press is due, then released.
    func hold(_ c: PanelController, _ device: DeviceDescription, at t: Double) {
        key(c, device, 1, at: t)
        advance(c, to: .seconds(t + 0.8))
        key(c, device, 0, at: t + 1)
    }

    @Test("on the ring screen: Left held refreshes, Enter held goes to today; taps go back a day and to the next screen")
    func holdsOnTheRingScreen() throws {
        let data = FixedData(days: [:], gauges: [Gauge(style: .circular, value: 3)])
        let c = try controller(data)
        key(c, Self.left, 1, at: 101)
        key(c, Self.left, 0, at: 101.1)
        #expect(c.navigation.day == Self.today.adding(days: -1))
        hold(c, Self.enter, at: 102)
        #expect(c.navigation.day == Self.today && c.navigation.screen == .rings)
        hold(c, Self.left, at: 104)
        #expect(lines.contains("refresh asked for"), "\(lines)")
        #expect(c.navigation.day == Self.today, "the hold did not also go back a day")
        // Enter: the rings' pages (a small panel's), then the next screen.
        let pages = c.device.pageCount(of: .rings, now: .seconds(106))
        for i in 0..<pages {
            key(c, Self.enter, 1, at: 106 + Double(i))
            key(c, Self.enter, 0, at: 106.1 + Double(i))
            #expect(c.navigation.screen == (i + 1 < pages ? .rings : .gauges) && c.navigation.page == (i + 1 < pages ? i + 1 : 0))
        }
    }

    @Test("on the progress screen a hold of either button cancels the task; a tap goes to another screen")
    func holdCancels() throws {
        for button in [Self.enter, Self.left] {
            let data = FixedData(days: [:], task: ProgressContent(amount: .determinate(0.3), label: "Import", cancellable: true))
            let c = try controller(data)
            #expect(c.navigation.screen == .progress)
            hold(c, button, at: 101)
            #expect(data.cancelRequested, "\(button.path) held: \(lines)")
            #expect(c.navigation.screen == .progress)
        }
        // A task that cannot be cancelled: the hold does what it does elsewhere (today: the rings).
        let data = FixedData(days: [:], task: ProgressContent(amount: .determinate(0.3), label: "Import", cancellable: false))
        let c = try controller(data)
        hold(c, Self.enter, at: 101)
        #expect(!data.cancelRequested && c.navigation.screen == .rings)
    }

    @Test("the first start with buttons shows the hint once (kept in the preferences); the first press only closes it")
    func firstStart() throws {
        let data = FixedData(days: [:])
        let c = try controller(data)
        #expect(c.device.hint == nil)
        // The devices become known (the hub opens them after the first frame): the hint comes.
        feed(c, [InputEvent(time: 100, type: 0, code: 0, value: 0)], from: Self.left, now: .seconds(100))
        feed(c, [InputEvent(time: 100, type: 0, code: 0, value: 0)], from: Self.enter, now: .seconds(100))
        #expect(opened(c, now: .seconds(100)))
        #expect(data.preferences[DeviceState.hintShownKey] == "1")
        let shown = try #require(c.device.hint)
        #expect(shown.rows.map(\.press) == [.previousDay, .select] && shown.rows.map(\.hold) == [.refresh, .today])
        #expect(shown.chord)
        #expect(c.scene(now: .seconds(100)).frame(at: .zero).screen is ButtonHintOverlay)
        // A wake-up when it goes, or for its next part where the panel shows its rows in parts.
        let next = shown.parts > 1 ? ButtonHintOverlay.partSeconds : DeviceState.hintSeconds
        #expect(c.nextDeadline(now: .seconds(100)) == .seconds(100 + next))
        // Left pressed and released: the hint goes, the day stays.
        #expect(key(c, Self.left, 1, at: 101))
        #expect(c.device.hint == nil)
        key(c, Self.left, 0, at: 101.1)
        #expect(c.navigation.day == Self.today, "the press that closed the hint also acted")
        #expect(!(c.scene(now: .seconds(102)).frame(at: .zero).screen is ButtonHintOverlay))
        // The next start with the same store: no hint.
        let again = try controller(data)
        feed(again, [InputEvent(time: 100, type: 0, code: 0, value: 0)], from: Self.left, now: .seconds(100))
        #expect(!opened(again, now: .seconds(100)) && again.device.hint == nil)
    }

    @Test("the hint goes by itself after its time; both buttons held bring it back, and do nothing else")
    func chordAndExpiry() throws {
        let data = FixedData(days: [:])
        let c = try controller(data)
        feed(c, [InputEvent(time: 100, type: 0, code: 0, value: 0)], from: Self.left, now: .seconds(100))
        feed(c, [InputEvent(time: 100, type: 0, code: 0, value: 0)], from: Self.enter, now: .seconds(100))
        #expect(opened(c, now: .seconds(100)))
        #expect(!advance(c, to: .seconds(111)) && c.device.hint != nil)
        #expect(advance(c, to: .seconds(112)) && c.device.hint == nil)
        // Both held: the hint, and neither refresh nor today nor a day back.
        key(c, Self.left, 1, at: 120)
        key(c, Self.enter, 1, at: 120.2)
        #expect(advance(c, to: .seconds(120.8)) && c.device.hint != nil)
        key(c, Self.left, 0, at: 121)
        key(c, Self.enter, 0, at: 121.1)
        #expect(c.device.hint != nil, "releasing the chord is no input that closes the hint")
        #expect(!lines.contains("refresh asked for") && c.navigation.day == Self.today && c.navigation.screen == .rings)
    }

    @Test("no buttons (a keyboard, touch): no hint at the first start, and help says why")
    func noButtons() throws {
        let c = try controller(FixedData(days: [:]))
        let keyboard = DeviceDescription(path: "/dev/input/event1", capabilities: InputCapabilities(eventTypes: [1], keys: Set(1..<120)))
        feed(c, [InputEvent(time: 100, type: 0, code: 0, value: 0)], from: keyboard, now: .seconds(100))
        #expect(!opened(c, now: .seconds(100)))
        #expect(!c.perform(.action(.help), now: .seconds(100)) && c.device.hint == nil)
        #expect(lines.contains("help asked for, but there are no buttons to explain"))
    }

    @Test("every action has its words in the hint")
    func everyActionHasAVerb() {
        for action in Action.allCases {
            #expect(ButtonHintOverlay.Verb(rawValue: action.rawValue) != nil, "\(action) has no words in the hint")
        }
        #expect(ButtonHintOverlay.Verb.allCases.count == Action.allCases.count)
    }
}
