import Activity
import Controls
import Raster
import Screens
import Testing

@testable import DeviceLogic

/// Screens that turn by themselves, against a made-up clock: the timing as a plain value, then
/// the controller turning them (input pauses, a task interrupts, a blank panel stops it).
@Suite("Cycle: screens that turn by themselves", .timeLimit(.minutes(10)))
struct CycleTests {
    static let t0 = Duration.seconds(1000)
    static func at(_ s: Double) -> Duration { t0 + .milliseconds(Int64(s * 1000)) }

    @Test("every N seconds the next listed screen with something to show, after the last; never progress")
    func timing() {
        var cycle = ScreenCycle(every: 15, screens: [.rings, .clock, .gauges], pauseOnInput: 60, now: Self.t0)
        let all: [ScreenKind] = [.rings, .clock, .gauges, .progress]
        #expect(cycle.nextTurn == Self.at(15))
        #expect(cycle.turn(now: Self.at(14.9), current: .rings, available: all, busy: false) == nil, "early")
        #expect(cycle.turn(now: Self.at(15), current: .rings, available: all, busy: false) == .clock)
        #expect(cycle.nextTurn == Self.at(30))
        #expect(cycle.turn(now: Self.at(30), current: .clock, available: all, busy: false) == .gauges)
        #expect(cycle.turn(now: Self.at(45), current: .gauges, available: all, busy: false) == .rings, "round again")
        // No gauges to show: skipped.
        #expect(cycle.turn(now: Self.at(60), current: .rings, available: [.rings, .clock], busy: false) == .clock)
        #expect(cycle.turn(now: Self.at(75), current: .clock, available: [.rings, .clock], busy: false) == .rings)
        // A task running: no turn, however late.
        #expect(cycle.turn(now: Self.at(500), current: .rings, available: all, busy: true) == nil)
        // Unlisted screens: every configured one but progress.
        let open = ScreenCycle(every: 10, screens: [], pauseOnInput: 0, now: Self.t0)
        #expect(open.candidates(available: all) == [.rings, .clock, .gauges])
        // One screen to turn through, and shown: nothing to turn to, and no deadline wanted.
        let one = ScreenCycle(every: 10, screens: [.clock], pauseOnInput: 0, now: Self.t0)
        #expect(!one.turns(current: .clock, available: all) && one.turns(current: .rings, available: all))
    }

    @Test("input pauses the turning for pauseOnInput seconds after the last input; a screen chosen stays its time")
    func pause() {
        var cycle = ScreenCycle(every: 15, screens: [], pauseOnInput: 60, now: Self.t0)
        let all: [ScreenKind] = [.rings, .gauges]
        cycle.input(at: Self.at(10))
        #expect(cycle.nextTurn == Self.at(70))
        #expect(cycle.turn(now: Self.at(15), current: .rings, available: all, busy: false) == nil, "paused")
        cycle.input(at: Self.at(50))
        #expect(cycle.nextTurn == Self.at(110), "each input starts the pause again")
        #expect(cycle.turn(now: Self.at(109), current: .rings, available: all, busy: false) == nil)
        #expect(cycle.turn(now: Self.at(110), current: .rings, available: all, busy: false) == .gauges)
        // A button went to another screen at 200: it stays 15 s (the pause is longer).
        cycle.input(at: Self.at(200))
        cycle.shown(at: Self.at(200))
        #expect(cycle.nextTurn == Self.at(260))
        var short = ScreenCycle(every: 15, screens: [], pauseOnInput: 5, now: Self.t0)
        short.input(at: Self.at(100))
        short.shown(at: Self.at(100))
        #expect(short.nextTurn == Self.at(115))
    }

    static func controller(
        data: DeviceLogicTests.Data, screens: [ScreenKind] = [.rings, .clock, .gauges, .progress],
        idle: IdleSchedule = IdleSchedule(dimAfter: nil, blankAfter: nil, dimLevel: 0.3)
    ) throws -> TestDevice {
        TestDevice(
            DeviceState(
                screens: screens, maker: ScreenMaker(text: nil, locale: .english), data: data,
                router: InputRouter(keyMap: DeviceStateTests.keyMap, touch: TouchSetting(), panel: Size(width: 480, height: 480), rotation: .none),
                idle: idle, cycle: ScreenCycle(every: 15, screens: [], pauseOnInput: 60, now: t0), clock: DeviceLogicTests.Clock(),
                intro: false, now: t0),
            data: data)
    }

    @Test("the controller turns at the cycle's deadlines, back to today; a task's progress interrupts it until it ends")
    func controllerTurns() throws {
        let data = DeviceLogicTests.Data(gauges: [Gauge(style: .circular, value: 40)])
        let c = try Self.controller(data: data)
        #expect(c.nextDeadline(now: Self.t0) == Self.at(15))
        #expect(!c.advance(to: Self.at(10)) && c.navigation.screen == .rings)
        #expect(c.advance(to: Self.at(15)) && c.navigation.screen == .clock && c.lastChange.rawValue == "cycle")
        #expect(c.advance(to: Self.at(30)) && c.navigation.screen == .gauges)
        // Back on the rings, a day browsed by hand: the next turn shows today again.
        #expect(c.advance(to: Self.at(45)) && c.navigation.screen == .rings)
        #expect(c.perform(.action(.previousDay), now: Self.at(46)) && c.navigation.day != c.navigation.today)
        #expect(c.advance(to: Self.at(60)) && c.navigation.screen == .clock && c.navigation.day == c.navigation.today)
        // A task starts: its progress shows, and nothing turns while it runs.
        data.running = ProgressContent(amount: .determinate(0.2))
        // The data changed (the session hands it over when the store says so).
        c.dataChanged(now: Self.at(61))
        _ = c.advance(to: Self.at(61))
        #expect(c.navigation.screen == .progress)
        #expect(c.nextDeadline(now: Self.at(61)) == nil, "a deadline while the task runs")
        #expect(!c.advance(to: Self.at(200)) && c.navigation.screen == .progress)
        // It ends at 300: back to the clock, which stays 15 s from then.
        data.running = nil
        // The data changed (the session hands it over when the store says so).
        c.dataChanged(now: Self.at(300))
        _ = c.advance(to: Self.at(300))
        #expect(c.navigation.screen == .clock)
        #expect(c.nextDeadline(now: Self.at(300)) == Self.at(315))
        #expect(c.advance(to: Self.at(315)) && c.navigation.screen == .gauges)
    }

    @Test("a key pauses the turning for pauseOnInput seconds; the screen it chose stays")
    func inputPauses() throws {
        let data = DeviceLogicTests.Data(gauges: [Gauge(style: .circular, value: 40)])
        let c = try Self.controller(data: data)
        let keyboard = DeviceDescription(path: "/dev/input/event1", capabilities: InputCapabilities(eventTypes: [1], keys: Set(1..<120)))
        let down = UInt16(108)
        func press(_ code: UInt16, at t: Double) -> Bool {
            let events = [InputEvent(time: t, type: 1, code: code, value: 1), InputEvent(time: t, type: 0, code: 0, value: 0),
                          InputEvent(time: t, type: 1, code: code, value: 0), InputEvent(time: t, type: 0, code: 0, value: 0)]
            return c.feed(events, from: keyboard, name: "keyboard", now: Self.at(t))
        }
        // Down at 10 s: the next screen, and no turn until a minute after it.
        #expect(press(down, at: 10) && c.navigation.screen == .clock)
        #expect(c.nextDeadline(now: Self.at(10)) == Self.at(70))
        #expect(!c.advance(to: Self.at(15)) && !c.advance(to: Self.at(69)))
        #expect(c.navigation.screen == .clock)
        // Another key at 50 s (one that does nothing here): the pause starts again.
        #expect(!press(UInt16(105), at: 50))
        #expect(c.nextDeadline(now: Self.at(50)) == Self.at(110))
        #expect(c.advance(to: Self.at(110)) && c.navigation.screen == .gauges)
        #expect(c.nextDeadline(now: Self.at(110)) == Self.at(125))
    }

    @Test("a blank panel does not turn (no wake-ups for it); waking starts the pause")
    func blankStops() throws {
        let c = try Self.controller(
            data: DeviceLogicTests.Data(), screens: [.rings, .clock], idle: IdleSchedule(dimAfter: 20, blankAfter: 40, dimLevel: 0.3))
        #expect(c.advance(to: Self.at(15)) && c.navigation.screen == .clock)
        // Dimmed at 20: it goes on turning.
        #expect(c.advance(to: Self.at(20)) && c.idle == .dimmed(0.3))
        #expect(c.advance(to: Self.at(30)) && c.navigation.screen == .rings)
        #expect(c.advance(to: Self.at(40)) && c.blanked)
        #expect(c.nextDeadline(now: Self.at(40)) == nil, "woken while blank to turn a screen nobody sees")
        #expect(!c.advance(to: Self.at(400)) && c.navigation.screen == .rings)
    }
}
