@testable import DeviceLogic
import Activity
import Controls
import Platform
import Raster
import Testing

@testable import Runtime

/// The control socket's commands from a hostile or careless client, through a real Unix socket
/// and a session turn by turn: size limits, strict words, watchers that come and go.
@Suite("Control socket: commands, state, watchers", .timeLimit(.minutes(10)))
struct ControlCommandsTests {
    static let t0 = ScreenshotTests.t0

    static func session(_ path: String) throws -> (RecordingSink, Session) {
        let sink = RecordingSink(size: Size(width: 32, height: 32))
        let session = try ScreenshotTests.session(sink, rotation: .none)
        PanelApp.openControlSocket(session, path: path, log: { _ in })
        _ = try session.turn(now: Self.t0, ready: [], signals: [])
        return (sink, session)
    }

    /// Sends each of `messages` on `connection`, one session turn, and every answer that came.
    static func exchange(_ session: Session, _ connection: PacketSocket, _ messages: [[UInt8]], at now: Duration) throws -> [String] {
        for m in messages { try connection.send(m) }
        _ = try session.turn(now: now, ready: session.control?.descriptors ?? [], signals: [])
        var answers: [String] = []
        while let (bytes, fd) = try connection.receive(capacity: 512, nonblocking: true), !bytes.isEmpty {
            fd?.close()
            answers.append(String(decoding: bytes, as: UTF8.self))
        }
        return answers
    }

    @Test("a request over 64 bytes, a control character, a wrong case: refused; the panel unchanged")
    func hostileRequests() throws {
        let folder = ScreenshotTests.Folder()
        let (_, session) = try Self.session(folder.path + "/glance.sock")
        let controller = try #require(session.controller as? PanelController)
        let before = controller.navigation
        for junk in [Array(repeating: UInt8(0x61), count: 4096), Array("light off\u{0}".utf8), Array("LIGHT OFF".utf8), [0xFF, 0xFE], []] {
            let c = try PacketSocket.connect(to: folder.path + "/glance.sock")
            let answers = try Self.exchange(session, c, [junk], at: Self.t0 + .seconds(1))
            // An empty datagram is no request at all: no answer.
            #expect(junk.isEmpty ? answers.isEmpty : answers.count == 1 && answers[0].hasPrefix("refused "), "\(answers)")
        }
        #expect(controller.navigation == before && !controller.blanked)
    }

    @Test("watch: the state at once and at each change, commands on the same connection; at most two watchers")
    func watchers() throws {
        let folder = ScreenshotTests.Folder()
        let path = folder.path + "/glance.sock"
        let (_, session) = try Self.session(path)
        let controller = try #require(session.controller as? PanelController)
        let first = try PacketSocket.connect(to: path)
        let said = try Self.exchange(session, first, [Array("watch".utf8)], at: Self.t0 + .seconds(1))
        let state = try #require(said.last.flatMap(PanelState.init(text:)), "\(said)")
        #expect(state.screen == .rings && state.light)
        // A command on the watching connection: ok, then the new state.
        let after = try Self.exchange(session, first, [Array("light off".utf8)], at: Self.t0 + .seconds(2))
        #expect(after.first == "ok", "\(after)")
        #expect(after.last.flatMap(PanelState.init(text:))?.light == false, "\(after)")
        #expect(controller.blanked)
        // Nothing changed: nothing told.
        #expect(try Self.exchange(session, first, [], at: Self.t0 + .seconds(3)).isEmpty)
        // Two more watchers: the oldest is let go.
        let second = try PacketSocket.connect(to: path)
        var third: PacketSocket? = try PacketSocket.connect(to: path)
        _ = try Self.exchange(session, second, [Array("watch".utf8)], at: Self.t0 + .seconds(4))
        _ = try Self.exchange(session, try #require(third), [Array("watch".utf8)], at: Self.t0 + .seconds(5))
        #expect(session.control?.descriptors.count == 3, "the listener and two watchers")
        // A watcher that hangs up is let go too.
        third = nil
        _ = try session.turn(now: Self.t0 + .seconds(6), ready: session.control?.descriptors ?? [], signals: [])
        #expect(session.control?.descriptors.count == 2)
        _ = second
    }
}
