@testable import DeviceLogic
import Activity
import Clocks
import Controls
import Input
import Platform
import Raster
import Testing
import TestSupport

@testable import Runtime

/// A message through the panel's real control socket and a session turn by turn: the request's
/// own limits (255 bytes of text, no control character), the picture it puts in place of the
/// screen, and each end told to the watchers in a line of its own.
@Suite("Control socket: messages", .timeLimit(.minutes(10)))
struct MessageSocketTests {
    static let t0 = ScreenshotTests.t0

    static func session(_ path: String, log: @escaping (String) -> Void) throws -> (RecordingSink, Session, PanelController) {
        var settings = Settings()
        settings.show.ringsOnly = true
        settings.show.today = .date(ScreenshotTests.day)
        settings.idle = IdleSchedule(dimAfter: nil, blankAfter: nil, dimLevel: 0.3)
        let data = FixedData(days: [
            ScreenshotTests.day: ActivitySummary(
                activeEnergyBurned: .kilocalories(375), activeEnergyBurnedGoal: .kilocalories(500), exerciseTime: 15,
                exerciseTimeGoal: 30, standHours: 6, standHoursGoal: 12)
        ])
        let sink = RecordingSink(size: Size(width: 32, height: 32))
        let app = try Assembly.make(
            settings, sink: sink, parts: .init(text: .some(nil), clock: FixedClock(ScreenshotTests.day), data: data, now: t0), log: log
        ).get()
        PanelApp.openControlSocket(app.session, path: path, log: log)
        _ = try app.session.turn(now: t0, ready: [], signals: [])
        return (sink, app.session, try #require(app.session.controller as? PanelController))
    }

    /// Every message waiting on `connection`.
    static func drain(_ connection: PacketSocket) throws -> [String] {
        var answers: [String] = []
        while let (bytes, fd) = try connection.receive(capacity: 512, nonblocking: true), !bytes.isEmpty {
            fd?.close()
            answers.append(String(decoding: bytes, as: UTF8.self))
        }
        return answers
    }

    static func send(_ session: Session, _ path: String, _ request: [UInt8], at now: Duration) throws -> [String] {
        let c = try PacketSocket.connect(to: path)
        try c.send(request)
        _ = try session.turn(now: now, ready: session.control?.descriptors ?? [], signals: [])
        return try drain(c)
    }

    @Test("up to 255 bytes of text taken, one more refused, a long datagram refused whole, control characters refused; none drawn")
    func bounds() throws {
        let folder = ScreenshotTests.Folder()
        let path = folder.path + "/glance.sock"
        let lines = LogLines()
        let (_, session, controller) = try Self.session(path, log: lines.add)
        let most = String(repeating: "ü", count: 127) + "!"
        #expect(most.utf8.count == 255)
        for junk in [
            "message " + most + "x", "message " + String(repeating: "a", count: 4000), "message tab\there", "message bell\u{7}",
            "message esc\u{1B}[2J", "message cr\r", "message c1\u{9B}31m", "message:0 zero", "message ",
        ] {
            let answers = try Self.send(session, path, Array(junk.utf8), at: Self.t0 + .seconds(1))
            #expect(answers.count == 1 && answers[0].hasPrefix("refused message"), "\(junk.prefix(20)): \(answers)")
            #expect(controller.device.message == nil)
        }
        #expect(
            try Self.send(session, path, Array("message one\u{1}".utf8), at: Self.t0 + .seconds(1))
                == ["refused message: a control character (U+0001) at byte 3; send text (a line feed breaks the line)"])
        #expect(try Self.send(session, path, Array(("message:5 " + most).utf8), at: Self.t0 + .seconds(2)) == ["ok"])
        #expect(controller.device.message?.text == most && controller.device.message?.until == Self.t0 + .seconds(7))
        // The log says that a message came, never what it says.
        #expect(lines.all.contains("control socket: message (128 characters, 5 s)"), "\(lines.all)")
        #expect(!lines.all.contains("üüü"))
    }

    @Test("shown in place of the screen; a newer one, a key and its time each told to the watchers, the key doing nothing else")
    func endsTold() throws {
        let folder = ScreenshotTests.Folder()
        let path = folder.path + "/glance.sock"
        let (sink, session, controller) = try Self.session(path, log: { _ in })
        let watcher = try PacketSocket.connect(to: path)
        try watcher.send(Array("watch".utf8))
        _ = try session.turn(now: Self.t0 + .seconds(1), ready: session.control?.descriptors ?? [], signals: [])
        #expect(try Self.drain(watcher).last.flatMap(PanelState.init(text:)) != nil)
        let rings = try #require(sink.lastFrame)
        #expect(SessionTests.brightest(rings) > 0)

        #expect(try Self.send(session, path, Array("message Dinner is ready".utf8), at: Self.t0 + .seconds(2)) == ["ok"])
        // No fonts here: the message's picture is black, where the rings were drawn.
        let black = try #require(sink.lastFrame)
        #expect(SessionTests.brightest(black) == 0)
        #expect(try Self.drain(watcher).allSatisfy { PanelState(text: $0) != nil }, "nothing ended")

        #expect(try Self.send(session, path, Array("message:30 Second".utf8), at: Self.t0 + .seconds(3)) == ["ok"])
        #expect(try Self.drain(watcher).filter { $0.hasPrefix("message ") } == ["message dismissed replaced"])

        // A key: dismissed, and the day stays (Left would show the day before).
        let left = try #require(EventNames.keyCode(named: "KEY_LEFT"))
        let s = (Self.t0 + .seconds(4)).inSeconds
        controller.queuedInput.append((
            [InputEvent(time: s, type: 1, code: left, value: 1), InputEvent(time: s, type: 0, code: 0, value: 0),
             InputEvent(time: s, type: 1, code: left, value: 0), InputEvent(time: s, type: 0, code: 0, value: 0)],
            InputRouterTests.keyboard, "keyboard"))
        _ = try session.turn(now: Self.t0 + .seconds(4), ready: session.control?.descriptors ?? [], signals: [])
        let pressed = try Self.drain(watcher)
        #expect(pressed.filter { $0.hasPrefix("message ") } == ["message dismissed pressed"], "\(pressed)")
        #expect(pressed.allSatisfy { $0.hasPrefix("message ") || PanelState(text: $0) != nil }, "and states: \(pressed)")
        #expect(controller.navigation.day == ScreenshotTests.day && controller.device.message == nil)
        let again = try #require(sink.lastFrame)
        #expect(SessionTests.brightest(again) > 0, "the rings again")

        // Its time: told at the turn its deadline wakes.
        #expect(try Self.send(session, path, Array("message:5 Brief".utf8), at: Self.t0 + .seconds(10)) == ["ok"])
        #expect(controller.nextDeadline(now: Self.t0 + .seconds(10)) == Self.t0 + .seconds(15))
        _ = try session.turn(now: Self.t0 + .seconds(15), ready: [], signals: [])
        let timedOut = try Self.drain(watcher)
        #expect(timedOut.filter { $0.hasPrefix("message ") } == ["message dismissed timeout"], "\(timedOut)")
        let last = try #require(sink.lastFrame)
        #expect(controller.device.message == nil && SessionTests.brightest(last) > 0)
    }
}
