import Controls
import Testing

@testable import Input

/// Two and three GPIO buttons (gpio-key overlay lines: one device per button, no auto-repeat)
/// with the default key map: every action a press, a hold or both held away.
@Suite("Buttons: two and three, presses, holds, both held", .timeLimit(.minutes(10)))
struct ButtonLayoutTests {
    static func defaults() throws -> KeyMap { try KeyMap.make(keys: [:]).get() }
    static func code(_ name: String) -> UInt16 { EventNames.keyCode(named: name)! }

    /// One button device per key, as the gpio-key overlay makes them.
    struct Buttons {
        var devices: [String: KeyInterpreter] = [:]
        let map: KeyMap
        var out: [Action] = []

        init(_ map: KeyMap) { self.map = map }

        mutating func tick(_ t: Double) {
            if let chord = KeyInterpreter.chord(&devices, time: t) { out.append(chord) }
            for path in devices.keys.sorted() { out += devices[path]!.tick(time: t) }
        }

        /// `name` pressed at `t` (the clock ticking every 50 ms before) or released.
        mutating func key(_ name: String, _ value: Int32, at t: Double) {
            tick(t)
            var k = devices[name] ?? KeyInterpreter(map: map)
            out += k.key(ButtonLayoutTests.code(name), value: value, time: t)
            devices[name] = k
        }

        /// Time passes to `t`, the clock ticking as the loop's deadlines would.
        mutating func wait(until t: Double) {
            let next = devices.values.compactMap(\.nextDeadline).min()
            if let next, next <= t { tick(next) }
            tick(t)
        }

        /// What a tap and what a hold of `name` give, from a fresh start.
        static func tapAndHold(_ name: String, _ map: KeyMap) -> (tap: [Action], hold: [Action]) {
            var b = Buttons(map)
            b.key(name, 1, at: 1)
            b.key(name, 0, at: 1.2)
            let tap = b.out
            b.out = []
            b.key(name, 1, at: 5)
            b.wait(until: 6)
            b.key(name, 0, at: 6.5)
            return (tap, b.out)
        }
    }

    @Test(
        "each of two or three buttons: a tap does its action on release, a hold its long press once, nothing on release",
        arguments: [
            ("KEY_LEFT", Action.previousDay, Action.refresh), ("KEY_ENTER", .select, .today), ("KEY_RIGHT", .nextDay, .today),
            ("BTN_0", .previousDay, .refresh), ("BTN_1", .select, .today), ("BTN_2", .nextDay, .today),
        ])
    func tapsAndHolds(_ name: String, _ tap: Action, _ hold: Action) throws {
        let (tapped, held) = Buttons.tapAndHold(name, try Self.defaults())
        #expect(tapped == [tap], "\(name) tapped")
        #expect(held == [hold], "\(name) held")
    }

    @Test("two buttons reach previous day, next screen, today and refresh; cancel is the progress screen's hold, help both held")
    func twoButtonsReachEveryAction() throws {
        let map = try Self.defaults()
        for pair in [["KEY_LEFT", "KEY_ENTER"], ["BTN_0", "BTN_1"]] {
            var reached = Set<Action>()
            for name in pair {
                let (tap, hold) = Buttons.tapAndHold(name, map)
                reached.formUnion(tap + hold)
            }
            var both = Buttons(map)
            both.key(pair[0], 1, at: 1)
            both.key(pair[1], 1, at: 1.1)
            both.wait(until: 3)
            both.key(pair[0], 0, at: 3.1)
            both.key(pair[1], 0, at: 3.2)
            #expect(both.out == [.help], "\(pair) held together: the help alone, no long press, nothing on release")
            reached.formUnion(both.out)
            // select is the next screen (Navigation); cancel comes from a hold on the progress
            // screen (the controller's rule, DeviceStateTests).
            #expect(reached == [.previousDay, .select, .today, .refresh, .help], "\(pair)")
        }
    }

    @Test("a second button pressed after the first one's long press is no chord: each does its own")
    func lateSecondButtonIsNoChord() throws {
        var b = Buttons(try Self.defaults())
        b.key("KEY_LEFT", 1, at: 1)
        b.wait(until: 2)
        b.key("KEY_ENTER", 1, at: 2)
        b.wait(until: 3)
        b.key("KEY_LEFT", 0, at: 3.1)
        b.key("KEY_ENTER", 0, at: 3.2)
        #expect(b.out == [.refresh, .today])
    }

    @Test("a keyboard's held Left (it repeats within 250 ms) browses the days, never refreshes")
    func keyboardRepeatBrowses() throws {
        var k = KeyInterpreter(map: try Self.defaults())
        let left = Self.code("KEY_LEFT")
        var out = k.key(left, value: 1, time: 0)
        #expect(out.isEmpty, "held back until it repeats or is released")
        out += k.key(left, value: 2, time: 0.25)
        for i in 1...30 { out += k.tick(time: 0.25 + Double(i) * 0.033) + k.key(left, value: 2, time: 0.25 + Double(i) * 0.033) }
        out += k.key(left, value: 0, time: 1.3) + k.tick(time: 2)
        #expect(out == Array(repeating: .previousDay, count: 32))
        #expect(k.nextDeadline == nil)
    }

    @Test("a key whose action does not repeat (Enter) ignores a keyboard's repeats and is held for today")
    func enterRepeatsIgnored() throws {
        var k = KeyInterpreter(map: try Self.defaults())
        let enter = Self.code("KEY_ENTER")
        var out = k.key(enter, value: 1, time: 0) + k.key(enter, value: 2, time: 0.25)
        out += k.tick(time: 0.8) + k.key(enter, value: 2, time: 0.85) + k.key(enter, value: 0, time: 1)
        #expect(out == [.today])
    }

    @Test("the configuration's longPress replaces the defaults: without a hold, Left acts on press")
    func configuredLongPress() throws {
        let map = try KeyMap.make(keys: ["BTN_3": "cancel"], longPress: [.select: .refresh]).get()
        #expect(Buttons.tapAndHold("KEY_LEFT", map) == ([.previousDay], [.previousDay]))
        #expect(Buttons.tapAndHold("KEY_ENTER", map).hold == [.refresh])
        #expect(Buttons.tapAndHold("BTN_3", map) == ([.cancel], [.cancel]))
        var k = KeyInterpreter(map: map)
        #expect(k.key(Self.code("KEY_LEFT"), value: 1, time: 0) == [.previousDay], "no long press: at once")
    }

    @Test("BTN_0…BTN_4 do what Left, Enter, Right, Up and Down do; KEY_HELP shows the help")
    func gpioButtonDefaults() throws {
        let map = try Self.defaults()
        func action(_ name: String) -> Action? { map.bindings[Self.code(name)] }
        #expect(["BTN_0", "BTN_1", "BTN_2", "BTN_3", "BTN_4"].map(action) == ["KEY_LEFT", "KEY_ENTER", "KEY_RIGHT", "KEY_UP", "KEY_DOWN"].map(action))
        #expect(action("KEY_HELP") == .help)
        #expect(map.longPress == Action.defaultLongPress)
    }

    // MARK: - The hint's rows

    static func button(_ names: String...) -> InputCapabilities {
        InputCapabilities(eventTypes: [1], keys: Set(names.map { Int(code($0)) }))
    }

    @Test("the hint: one device per button, in their usual order, each press and hold")
    func hintRows() throws {
        let map = try Self.defaults()
        let rows = map.hints(devices: [Self.button("KEY_ENTER"), Self.button("KEY_LEFT")])
        #expect(
            rows == [
                KeyHint(code: Self.code("KEY_LEFT"), symbol: .left, press: .previousDay, hold: .refresh),
                KeyHint(code: Self.code("KEY_ENTER"), symbol: .select, press: .select, hold: .today),
            ])
        let three = map.hints(devices: [Self.button("BTN_2"), Self.button("BTN_0"), Self.button("BTN_1")])
        #expect(three.map(\.symbol) == [.label("1"), .label("2"), .label("3")])
        #expect(three.map(\.press) == [.previousDay, .select, .nextDay])
        #expect(three.map(\.hold) == [.refresh, .today, .today])
    }

    @Test("no hint for a typing keyboard, the power button or keys the map does not bind; at most four rows")
    func noHint() throws {
        let map = try Self.defaults()
        let keyboard = InputCapabilities(eventTypes: [1], keys: Set(1..<120))
        #expect(map.hints(devices: [keyboard]).isEmpty)
        #expect(map.hints(devices: [Self.button("KEY_POWER"), Self.button("KEY_VOLUMEUP")]).isEmpty)
        let remote = Self.button("KEY_UP", "KEY_DOWN", "KEY_LEFT", "KEY_RIGHT", "KEY_OK", "KEY_ENTER", "KEY_HOME")
        let rows = map.hints(devices: [remote])
        #expect(rows.map(\.symbol) == [.left, .up, .select, .down], "four rows, KEY_OK and KEY_ENTER one")
    }
}
