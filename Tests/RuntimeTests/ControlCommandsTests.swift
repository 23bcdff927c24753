@testable import DeviceLogic
import Activity
import Controls
import Foundation
import Platform
import Raster
import Testing
import TestSupport

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

    @Test("restart: refused where nothing would start the app again; under systemd answered ok, and the session ends at its next turn")
    func restart() throws {
        let folder = ScreenshotTests.Folder()
        let (_, session) = try Self.session(folder.path + "/glance.sock")
        let controller = try #require(session.controller as? PanelController)
        let c = try PacketSocket.connect(to: folder.path + "/glance.sock")
        let refused = try Self.exchange(session, c, [Array("restart".utf8)], at: Self.t0 + .seconds(1))
        #expect(refused.count == 1 && refused[0].contains("not run by systemd"), "\(refused)")
        guard case .wait = try session.turn(now: Self.t0 + .seconds(2), ready: [], signals: []) else {
            Issue.record("a refused restart ended the session")
            return
        }
        controller.restartable = true
        let again = try PacketSocket.connect(to: folder.path + "/glance.sock")
        #expect(try Self.exchange(session, again, [Array("restart".utf8)], at: Self.t0 + .seconds(3)) == ["ok"])
        guard case .end(.ended(let reason)) = try session.turn(now: Self.t0 + .seconds(4), ready: [], signals: []) else {
            Issue.record("the session did not end for the restart")
            return
        }
        #expect(reason.contains("restart asked"))
    }

    @Test("watch: the state at once and at each change, commands on the same connection; one watch a user, the newer kept")
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
        // The same user watching again (a restarted bridge): the newer connection is the one kept.
        let second = try PacketSocket.connect(to: path)
        _ = try Self.exchange(session, second, [Array("watch".utf8)], at: Self.t0 + .seconds(4))
        // (The third connection lives in this block only, held by nothing else -- not by an
        // expectation's captured value, which kept it open past `= nil` now and then -- so its
        // end is the hang-up.)
        do {
            let third = try PacketSocket.connect(to: path)
            _ = try Self.exchange(session, third, [Array("watch".utf8)], at: Self.t0 + .seconds(5))
            let count = session.control?.descriptors.count
            #expect(count == 2, "the listener and this user's newest watcher")
        }
        // A watcher that hangs up is let go too.
        _ = try session.turn(now: Self.t0 + .seconds(6), ready: session.control?.descriptors ?? [], signals: [])
        #expect(session.control?.descriptors.count == 1)
        _ = second
    }

    /// Runs `script` (Python) as user nobody; its standard output's first line is awaited
    /// (`ready`), within `seconds`.
    final class Nobody {
        let process = OwnedProcess()
        let output = Pipe()
        let input = Pipe()
        let errors = Pipe()
        init(_ script: String) throws {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
            process.arguments = ["--reuid=65534", "--regid=65534", "--clear-groups", "/usr/bin/python3", "-c", script]
            process.standardOutput = output
            process.standardInput = input
            process.standardError = errors
            try process.run()
        }
        /// The next line it writes (nil: none within `seconds`).
        func line(within seconds: Double = 20) -> String? {
            let fd = output.fileHandleForReading.fileDescriptor
            var bytes: [UInt8] = []
            let end = Date().addingTimeInterval(seconds)
            while Date() < end {
                var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                guard poll(&p, 1, 200) > 0 else { continue }
                var b: UInt8 = 0
                guard read(fd, &b, 1) == 1 else { return nil }
                if b == 10 { return String(decoding: bytes, as: UTF8.self) }
                bytes.append(b)
            }
            return nil
        }
        deinit {
            try? input.fileHandleForWriting.close()
            process.stop()
        }
    }

    @Test("issue 37: another user watching twice and again cannot push out a watcher of its own user (the bridge's)")
    func watchSlotsPerUser() throws {
        guard geteuid() == 0 else {
            print("skipped: watchSlotsPerUser needs root, to connect as another user (nobody)")
            return
        }
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") else {
            Issue.record("setpriv (util-linux) is missing: it runs the other user's client")
            return
        }
        let folder = ScreenshotTests.Folder()
        let path = folder.path + "/glance.sock"
        let (_, session) = try Self.session(path)
        chmod(folder.path, 0o755)
        chmod(path, 0o666)
        // The bridge's connection: this process's user.
        let bridge = try PacketSocket.connect(to: path)
        _ = try Self.exchange(session, bridge, [Array("watch".utf8)], at: Self.t0 + .seconds(1))
        // Another user holds two watches, then a third.
        let attacker = try Nobody(
            """
            import socket, sys
            def watch():
                s = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
                s.connect(\(String(reflecting: path)))
                s.send(b"watch")
                return s
            held = [watch(), watch()]
            print("ready", flush=True)
            sys.stdin.readline()
            held.append(watch())
            print("again", flush=True)
            sys.stdin.readline()
            """)
        let ready = attacker.line()
        if ready != "ready" {
            attacker.process.stop()
            Issue.record("the other user's client: \(String(decoding: attacker.errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self))")
            return
        }
        _ = try session.turn(now: Self.t0 + .seconds(2), ready: session.control?.descriptors ?? [], signals: [])
        attacker.input.fileHandleForWriting.write("go\n".data(using: .utf8)!)
        #expect(attacker.line() == "again")
        _ = try session.turn(now: Self.t0 + .seconds(3), ready: session.control?.descriptors ?? [], signals: [])
        // Drain what the bridge was told so far, then a command from elsewhere: the bridge hears it.
        while let m = try bridge.receive(capacity: 512, nonblocking: true), !m.bytes.isEmpty {}
        let other = try PacketSocket.connect(to: path)
        let answers = try Self.exchange(session, other, [Array("light off".utf8)], at: Self.t0 + .seconds(4))
        #expect(answers == ["ok"], "\(answers)")
        let told = try bridge.receive(capacity: 512, nonblocking: true)
        #expect(told.flatMap { PanelState(text: String(decoding: $0.bytes, as: UTF8.self)) }?.light == false,
            "the bridge's watch was pushed out: \(String(describing: told))")
        #expect(session.control?.descriptors.count == 3, "the listener, the bridge and the other user's newest watch")
    }

    @Test("issue 37: screenshots a client does not read are bounded (two a user); read, the next is answered")
    func unreadScreenshots() throws {
        let folder = ScreenshotTests.Folder()
        let path = folder.path + "/glance.sock"
        let (_, session) = try Self.session(path)
        var held: [PacketSocket] = []
        var answers: [String] = []
        for i in 0..<6 {
            let c = try PacketSocket.connect(to: path)
            try c.send(Array("screenshot".utf8))
            _ = try session.turn(now: Self.t0 + .seconds(Int64(1 + i)), ready: session.control?.descriptors ?? [], signals: [])
            // Only the text is looked at: the answer's memory file stays unread in the queue.
            var peek = [UInt8](repeating: 0, count: 128)
            let n = recv(c.descriptor.rawValue, &peek, peek.count, Int32(MSG_PEEK | MSG_DONTWAIT))
            answers.append(n > 0 ? String(decoding: peek.prefix(n), as: UTF8.self) : "")
            held.append(c)
        }
        #expect(answers.prefix(2).allSatisfy { $0.hasPrefix("picture ") }, "\(answers)")
        #expect(answers.dropFirst(2).allSatisfy { $0 == "refused 2 of this user's screenshots are not read yet: read them or hang up" }, "\(answers)")
        // The first one read (and closed): the next screenshot is answered.
        if let (_, fd) = try held[0].receive(capacity: 128, nonblocking: true) { fd?.close() }
        held.removeFirst()
        let (answer, fd) = try ScreenshotTests.ask(session, at: path)
        fd?.close()
        #expect(answer.hasPrefix("picture "), "\(answer)")
    }
}

import ControlSocket

/// The socket's group read from the group file itself (no NSS in the panel's process).
@Suite("Control socket: the group glance from the group file", .timeLimit(.minutes(10)))
struct ControlSocketGroupTests {
    @Test("issue 37: the group's id from name:password:gid:members lines; a prefix of another name, a bad line, no file: nil")
    func groupFile() throws {
        let folder = ScreenshotTests.Folder()
        let file = folder.path + "/group"
        try "root:x:0:\nglancers:x:990:\nglance:x:991:alice,bob\nbroken:x\n".write(toFile: file, atomically: true, encoding: .utf8)
        #expect(ControlSocketLocation.groupID(named: "glance", in: file) == 991)
        #expect(ControlSocketLocation.groupID(named: "root", in: file) == 0)
        #expect(ControlSocketLocation.groupID(named: "glanc", in: file) == nil)
        #expect(ControlSocketLocation.groupID(named: "broken", in: file) == nil)
        #expect(ControlSocketLocation.groupID(named: "glance", in: folder.path + "/none") == nil)
    }
}
