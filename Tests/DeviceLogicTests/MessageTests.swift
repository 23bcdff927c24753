import Activity
import Controls
import Raster
import Screens
import Testing

@testable import DeviceLogic

/// A message on the panel (Home Assistant's notify, `glance message`): the control socket's
/// `message` request parsed strictly (its own length, no control character drawn), and what the
/// device does with it: shown over everything and lighting a dimmed or dark panel, the first
/// press or touch only dismissing it, its time, a newer one replacing it, each end told.
@Suite("Messages: the request, shown, dismissed by a press, its time or the next", .timeLimit(.minutes(10)))
struct MessageTests {
    static let t0 = DeviceLogicTests.t0

    @Test("message TEXT and message:SECONDS TEXT: up to 255 bytes of UTF-8, a line feed kept, reads back")
    func parsing() {
        let long = String(repeating: "é", count: 127) + "!"  // 255 bytes
        let good: [(String, PanelMessage)] = [
            ("message Dinner is ready", PanelMessage(text: "Dinner is ready")),
            ("message:30 Dinner is ready\n", PanelMessage(text: "Dinner is ready", seconds: 30)),
            ("message Line one\nLine two", PanelMessage(text: "Line one\nLine two")),
            ("message   Spaces around  \n\n", PanelMessage(text: "Spaces around")),
            ("message 洗衣机洗好了", PanelMessage(text: "洗衣机洗好了")),
            ("message:86400 x", PanelMessage(text: "x", seconds: 86400)),
            ("message " + long, PanelMessage(text: long)),
        ]
        for (text, message) in good {
            let parsed = try? PanelRequest.parse(Array(text.utf8)).get()
            #expect(parsed == .message(message), "\(text)")
            #expect((try? PanelRequest.parse(Array(message.request.utf8)).get()) == .message(message), "\(text) reads back")
        }
        #expect(PanelMessage(text: "x").request == "message x" && PanelMessage(text: "x", seconds: 5).request == "message:5 x")
        #expect(PanelRequest.message(PanelMessage(text: "secret")).described == "message (6 characters, 60 s)", "no text in the log")
        let bad: [(String, String)] = [
            ("message " + long + "x", "at most 255 bytes"),
            ("message", "give the text"),
            ("message ", "no text to show"),
            ("message \n\n", "no text to show"),
            ("message:0 x", "from 1 to 86400"),
            ("message:86401 x", "from 1 to 86400"),
            ("message:x hello", "from 1 to 86400"),
            ("message:30", "give the text"),
            ("message:30hello", "give the text"),
            ("message tab\there", "control character (U+0009) at byte 3"),
            ("message cr\r\nlf", "control character (U+000D)"),
            ("message esc\u{1B}[31mred", "control character (U+001B)"),
            ("message del\u{7F}", "control character (U+007F)"),
            ("message c1\u{85}", "control character (U+0085)"),
            ("message nul\u{0}", "control character (U+0000)"),
            ("messages hello", "unknown request"),
        ]
        for (text, reason) in bad {
            guard case .failure(let refusal) = PanelRequest.parse(Array(text.utf8)) else {
                Issue.record("'\(text)' was taken")
                continue
            }
            #expect(refusal.reason.contains(reason), "\(text): \(refusal.reason)")
            #expect(!refusal.reason.unicodeScalars.contains { $0.properties.generalCategory == .control }, "\(text)")
        }
        // Bytes that are not UTF-8.
        guard case .failure(let refusal) = PanelRequest.parse(Array("message ".utf8) + [0xC3, 0x28]) else {
            Issue.record("bad UTF-8 taken")
            return
        }
        #expect(refusal.reason == "message: the text is not UTF-8")
        // The other requests keep their 64 bytes.
        #expect((try? PanelRequest.parse(Array(("show clock" + String(repeating: " x", count: 30)).utf8)).get()) == nil)
        // The dismissal lines.
        for end in MessageEnd.allCases { #expect(MessageEnd(line: end.line) == end) }
        #expect(MessageEnd.pressed.line == "message dismissed pressed" && MessageEnd(line: "message dismissed later") == nil)
    }

    static let keyboard = DeviceDescription(path: "/dev/input/event0", capabilities: InputCapabilities(keys: [28, 105, 106]))
    static let tablet = DeviceDescription(
        path: "/dev/input/event3",
        capabilities: InputCapabilities(
            eventTypes: [1, 3], keys: [0x110, 0x111, 0x112],
            absoluteAxes: [0: .init(minimum: 0, maximum: 32767), 1: .init(minimum: 0, maximum: 32767)]))

    /// A key pressed and let go at `t`.
    static func press(_ code: UInt16, at t: Duration) -> [InputEvent] {
        let s = t.inSeconds
        return [
            InputEvent(time: s, type: InputEvent.keyType, code: code, value: 1), InputEvent(time: s, type: 0, code: 0, value: 0),
            InputEvent(time: s + 0.05, type: InputEvent.keyType, code: code, value: 0), InputEvent(time: s + 0.05, type: 0, code: 0, value: 0),
        ]
    }

    /// A click of the tablet in the middle at `t`: a tap.
    static func tap(at t: Duration) -> [InputEvent] {
        let s = t.inSeconds
        return [
            InputEvent(time: s, type: 3, code: 0, value: 16384), InputEvent(time: s, type: 3, code: 1, value: 16384),
            InputEvent(time: s, type: InputEvent.keyType, code: 0x110, value: 1), InputEvent(time: s, type: 0, code: 0, value: 0),
            InputEvent(time: s + 0.05, type: InputEvent.keyType, code: 0x110, value: 0), InputEvent(time: s + 0.05, type: 0, code: 0, value: 0),
        ]
    }

    static func shown(_ c: TestDevice, at now: Duration) -> MessageScreen? {
        c.state.scene(at: now).frame(at: now).screen as? MessageScreen
    }

    static func ends(_ c: TestDevice) -> [MessageEnd] {
        c.effects.compactMap { if case .messageEnded(let end) = $0 { end } else { nil } }
    }

    @Test("a blank panel lit by a message; the first key only dismisses it (the day stays), the next one acts")
    func pressDismisses() {
        let data = DeviceLogicTests.Data()
        let c = DeviceLogicTests.controller(data)
        let light = DeviceLogicTests.Light()
        c.use(light, configured: nil, now: Self.t0)
        #expect(c.update(now: Self.t0 + .seconds(20)) && c.blanked && light.levels.last == 0)
        // The message: lit at once, drawn in place of the screen, no wake-up but its end.
        let at = Self.t0 + .seconds(30)
        #expect(c.request(.message(PanelMessage(text: "Dinner is ready")), now: at) == .success(true))
        #expect(!c.blanked && c.idle == .awake && light.levels.last == 255)
        #expect(Self.shown(c, at: at)?.text == "Dinner is ready")
        #expect(c.message == ShownMessage(text: "Dinner is ready", since: at, until: at + .seconds(60)))
        #expect(c.nextDeadline(now: at) == at + .seconds(60), "the idle times wait: the message keeps the panel lit")
        #expect(!c.update(now: at + .seconds(30)) && !c.blanked && Self.shown(c, at: at + .seconds(30)) != nil)
        #expect(c.lines.contains("message shown for 60 s") && c.lastChange == .message)
        // The first press (Left: the day before): dismissed, nothing else.
        let pressed = at + .seconds(40)
        #expect(c.feed(Self.press(105, at: pressed), from: Self.keyboard, name: "k", now: pressed))
        #expect(c.message == nil && Self.ends(c) == [.pressed] && c.lines.contains("message dismissed: pressed"))
        #expect(c.navigation.day == DeviceLogicTests.day, "the press that dismissed it did not move the day")
        _ = c.update(now: pressed)
        #expect(!c.blanked && light.levels.last == 255, "the press counts as input: awake")
        #expect(Self.shown(c, at: pressed) == nil, "the screen again")
        // The next press acts.
        #expect(c.feed(Self.press(105, at: pressed + .seconds(1)), from: Self.keyboard, name: "k", now: pressed + .seconds(1)))
        #expect(c.navigation.day != DeviceLogicTests.day)
        #expect(Self.ends(c) == [.pressed], "told once")
    }

    @Test("a touch dismisses it and is not a tap; the next tap is")
    func touchDismisses() {
        let data = DeviceLogicTests.Data()
        data.fixedGauges = [Gauge(style: .circular, value: 3)]
        let c = DeviceStateTests.controller(data: data)
        let at = Self.t0 + .seconds(1)
        _ = c.request(.message(PanelMessage(text: "Door open", seconds: 10)), now: at)
        #expect(c.feed(Self.tap(at: at + .seconds(1)), from: Self.tablet, name: "t", now: at + .seconds(1)))
        #expect(c.message == nil && Self.ends(c) == [.pressed] && c.navigation.screen == .rings, "dismissed, not the next screen")
        #expect(c.feed(Self.tap(at: at + .seconds(2)), from: Self.tablet, name: "t", now: at + .seconds(2)))
        #expect(c.navigation.screen == .gauges, "the next tap selects")
    }

    @Test("its time: gone at its end (told), the panel as it would be without it (blank, by the idle times)")
    func timeout() {
        let data = DeviceLogicTests.Data()
        let c = DeviceLogicTests.controller(data)
        let light = DeviceLogicTests.Light()
        c.use(light, configured: nil, now: Self.t0)
        let at = Self.t0 + .seconds(5)
        _ = c.request(.message(PanelMessage(text: "Washing done", seconds: 30)), now: at)
        #expect(c.nextDeadline(now: at) == at + .seconds(30))
        #expect(!c.update(now: at + .seconds(29)) && c.message != nil)
        #expect(c.update(now: at + .seconds(30)))
        #expect(c.message == nil && Self.ends(c) == [.timeout] && c.lines.contains("message dismissed: timeout"))
        // 35 s since the last input: blank, as without the message.
        #expect(c.blanked && light.levels.last == 0 && Self.shown(c, at: at + .seconds(30)) == nil)
    }

    @Test("a newer message replaces the one shown (told), with its own time")
    func replaced() {
        let c = DeviceLogicTests.controller(DeviceLogicTests.Data())
        _ = c.request(.message(PanelMessage(text: "First", seconds: 30)), now: Self.t0)
        #expect(c.request(.message(PanelMessage(text: "Second", seconds: 100)), now: Self.t0 + .seconds(10)) == .success(true))
        #expect(Self.ends(c) == [.replaced] && c.message?.text == "Second" && c.message?.until == Self.t0 + .seconds(110))
        #expect(Self.shown(c, at: Self.t0 + .seconds(10))?.text == "Second")
        #expect(!c.update(now: Self.t0 + .seconds(40)) && c.message?.text == "Second", "the first one's time is not the second's")
        #expect(c.update(now: Self.t0 + .seconds(110)) && Self.ends(c) == [.replaced, .timeout])
    }

    @Test("the light turned off by a command: lit while the message shows, dark again after it, by its time or a press")
    func darkByCommand() {
        let c = DeviceLogicTests.controller(DeviceLogicTests.Data(), idle: IdleSchedule(dimAfter: nil, blankAfter: nil, dimLevel: 0.3))
        let light = DeviceLogicTests.Light()
        c.use(light, configured: 0.5, now: Self.t0)
        _ = c.request(.light(on: false), now: Self.t0)
        _ = c.update(now: Self.t0)
        #expect(c.blanked && light.levels.last == 0)
        _ = c.request(.message(PanelMessage(text: "Hello", seconds: 10)), now: Self.t0 + .seconds(1))
        #expect(!c.blanked && light.levels.last == 128 && c.darkened, "lit at its brightness; still off by the command")
        #expect(c.update(now: Self.t0 + .seconds(11)) && c.blanked && light.levels.last == 0, "dark again at its end")
        // Dismissed by a press: dark again too (the light stays off until a command or another press).
        _ = c.request(.message(PanelMessage(text: "Again", seconds: 10)), now: Self.t0 + .seconds(20))
        #expect(light.levels.last == 128)
        #expect(c.feed(Self.press(28, at: Self.t0 + .seconds(21)), from: Self.keyboard, name: "k", now: Self.t0 + .seconds(21)))
        _ = c.update(now: Self.t0 + .seconds(21))
        #expect(c.blanked && light.levels.last == 0 && Self.ends(c) == [.timeout, .pressed])
        #expect(c.panelState(now: Self.t0 + .seconds(21), wallNow: 0).light == false)
    }

    @Test("the schedule's dark hours: lit at the chosen brightness while it shows, dark again after it")
    func darkBySchedule() throws {
        let clock = ScheduleControllerTests.WallClock(ScheduleTests.at(ScheduleControllerTests.monday, "23:30"))
        let (c, light) = ScheduleControllerTests.controller(clock)
        let t = ScheduleControllerTests.t0
        #expect(c.blanked && light.levels.last == 0)
        _ = c.request(.message(PanelMessage(text: "Garage door open", seconds: 20)), now: t + .seconds(1))
        #expect(!c.blanked && light.levels.last == 255 && Self.shown(c, at: t + .seconds(1)) != nil)
        clock.move(to: t + .seconds(21))
        #expect(c.advance(to: t + .seconds(21)) && c.blanked && light.levels.last == 0 && Self.ends(c) == [.timeout])
    }
}
