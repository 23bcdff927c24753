@testable import DeviceLogic
import Activity
import Foundation
import ImageFile
import Platform
import Raster
import Screens
import Testing

@testable import Runtime
import Commands
import Configuration
import Clocks
import Controls

/// `glance screenshot`'s other end: the session's control socket answers with the frame it
/// presented last, upright; through a real Unix socket and memory file.
@Suite("Screenshot: the control socket", .timeLimit(.minutes(10)))
struct ScreenshotTests {
    static let day = CalendarDay(year: 2026, month: 11, day: 30)!
    static let t0 = Duration.seconds(1000)

    /// A scratch folder for sockets, removed at the end.
    final class Folder {
        let path: String
        init() {
            var template = Array("/tmp/glance-socket-XXXXXX".utf8CString)
            path = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)) }
        }
        deinit { try? FileManager.default.removeItem(atPath: path) }
    }

    /// A session drawing the rings alone (no fonts) on a panel mounted turned `rotation`.
    static func session(_ sink: RecordingSink, rotation: Rotation) throws -> Session {
        var settings = Settings()
        settings.show.ringsOnly = true
        settings.show.today = .date(day)
        settings.idle = IdleSchedule(dimAfter: nil, blankAfter: nil, dimLevel: 0.3)
        let data = FixedData(days: [day: ActivitySummary(
            activeEnergyBurned: .kilocalories(375), activeEnergyBurnedGoal: .kilocalories(500), exerciseTime: 15,
            exerciseTimeGoal: 30, standHours: 6, standHoursGoal: 12)])
        settings.display.rotation = rotation
        let app = try Assembly.make(
            settings, sink: sink, parts: .init(text: .some(nil), clock: FixedClock(day), data: data, now: t0), log: { _ in }).get()
        return app.session
    }

    /// Asks over a fresh connection, letting the session take one turn in between.
    static func ask(_ session: Session, at path: String, request: String = "screenshot") throws -> (String, FileDescriptor?) {
        let connection = try PacketSocket.connect(to: path)
        try connection.send(Array(request.utf8))
        _ = try session.turn(now: t0 + .seconds(1), ready: session.control?.descriptors ?? [], signals: [])
        let (bytes, fd) = try #require(try connection.receive(capacity: 512, nonblocking: true), "no answer")
        return (String(decoding: bytes, as: UTF8.self), fd)
    }

    @Test("the frame presented last, upright: the picture before it was turned onto the panel", arguments: [Rotation.none, .quarter])
    func upright(rotation: Rotation) throws {
        let folder = Folder()
        let sink = RecordingSink(size: Size(width: 48, height: 32))
        let session = try Self.session(sink, rotation: rotation)
        session.control = try ControlServer(path: folder.path + "/glance.sock")
        // Before the first frame: refused, and said why.
        let (before, none) = try Self.ask(session, at: folder.path + "/glance.sock")
        // The turn above drew the first frame after answering (the answer comes first in a turn).
        #expect(before == "refused nothing is on the panel yet" && none == nil, "\(before)")
        #expect(sink.frames.count == 1)
        let (answer, fd) = try Self.ask(session, at: folder.path + "/glance.sock")
        let file = try #require(fd, "no memory file with '\(answer)'")
        defer { file.close() }
        let upright = rotation.logicalSize(forPanel: sink.size)
        #expect(answer == "picture \(upright.width) \(upright.height)")
        let bytes = try MemoryFile.read(file, count: upright.width * upright.height * 4)
        // What the session drew before turning it onto the panel.
        let panel = try #require(sink.lastFrame)
        var differing = 0
        for y in 0..<upright.height {
            for x in 0..<upright.width {
                let i = (y * upright.width + x) * 4
                let got = UInt32(bytes[i]) | UInt32(bytes[i + 1]) << 8 | UInt32(bytes[i + 2]) << 16
                let p = rotation.panelPoint(x: x, y: y, panel: sink.size)
                if got != panel.row32(p.y)[p.x] & 0xFF_FFFF { differing += 1 }
            }
        }
        #expect(differing == 0, "\(differing) pixels differ from the panel's frame turned upright")
        #expect(bytes.contains { $0 > 200 }, "the rings are not in the picture")
    }

    @Test("another console in front: refused; an unknown request: refused; a client that hangs up: nothing")
    func refusals() throws {
        let folder = Folder()
        let sink = RecordingSink(size: Size(width: 32, height: 32), switchesConsoles: true)
        let session = try Self.session(sink, rotation: .none)
        let path = folder.path + "/glance.sock"
        session.control = try ControlServer(path: path)
        _ = try session.turn(now: Self.t0, ready: [], signals: [])
        #expect(try Self.ask(session, at: path, request: "shutdown").0.hasPrefix("refused unknown request 'shutdown'"))
        _ = try session.turn(now: Self.t0, ready: [], signals: [SIGUSR1])
        #expect(try Self.ask(session, at: path).0 == "refused another console is in front: the panel shows it, not glance")
        do {
            let quitter = try PacketSocket.connect(to: path)
            _ = quitter
        }
        _ = try session.turn(now: Self.t0 + .seconds(2), ready: session.control?.descriptors ?? [], signals: [])
        // The hang-up shows once no process holds the connection: a child that a test running
        // beside this one forks at that moment holds a copy until its exec (seen once in CI). Then
        // the connection becomes readable, as the app's loop would be told, and is let go.
        if let control = session.control, control.descriptors.count > 1 {
            var fds = control.descriptors.dropFirst().map { pollfd(fd: $0.rawValue, events: Int16(POLLIN), revents: 0) }
            #expect(poll(&fds, nfds_t(fds.count), 10_000) > 0, "the connection that hung up never became readable")
            _ = try session.turn(now: Self.t0 + .seconds(3), ready: control.descriptors, signals: [])
        }
        #expect(session.control?.descriptors.count == 1, "a client that went away is still kept")
    }

    @Test("the socket: mode 0660, a leftover one replaced, one that answers left alone, removed at the end")
    func socketFile() throws {
        let folder = Folder()
        let path = folder.path + "/run/glance.sock"
        var server: ControlServer? = try ControlServer(path: path)
        var st = stat()
        #expect(lstat(path, &st) == 0 && st.st_mode & 0o777 == 0o660 && (st.st_mode & S_IFMT) == S_IFSOCK)
        #expect(stat(folder.path + "/run", &st) == 0 && st.st_mode & 0o777 == 0o750, "the folder it made")
        // A second app at the same path: refused, the first keeps it.
        #expect(throws: SystemError.self) { try ControlServer(path: path) }
        #expect(lstat(path, &st) == 0)
        server = nil
        #expect(lstat(path, &st) != 0, "the socket outlives its app")
        // A leftover socket nobody answers on (a killed app): replaced.
        let leftover = socket(AF_UNIX, Int32(SOCK_SEQPACKET.rawValue), 0)
        var address = try PacketSocket.unixAddress(path)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(leftover, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        #expect(bound == 0)
        close(leftover)
        server = try ControlServer(path: path)
        #expect(server != nil)
        // glance screenshot's side: nobody at a path is exit 69, told in one line.
        var lines: [String] = []
        let status = Screenshot.run(output: folder.path + "/x.png", socket: folder.path + "/none.sock", log: { lines.append($0) }, say: { _ in })
        #expect(status == .unavailable && lines.count == 1 && lines[0].contains("no running glance answers"), "\(lines)")
    }

    @Test("glance screenshot's side against a running session: 0 and the picture, 75 while refused, 73 for a file it cannot write")
    func statuses() throws {
        let folder = Folder()
        let sink = RecordingSink(size: Size(width: 32, height: 24), switchesConsoles: true)
        let session = try Self.session(sink, rotation: .none)
        let path = folder.path + "/glance.sock"
        session.control = try ControlServer(path: path)
        /// Screenshot.run on a thread of its own while this one turns the session, as the app's loop would.
        func shoot(_ output: String) throws -> (Outcome, [String]) {
            final class Shot: @unchecked Sendable { var status: Outcome?; var lines: [String] = [] }
            let outcome = Shot()
            let done = DispatchSemaphore(value: 0)
            Thread {
                outcome.status = Screenshot.run(output: output, socket: path, log: { outcome.lines.append($0) }, say: { _ in })
                done.signal()
            }.start()
            var turns = 0
            while done.wait(timeout: .now() + .milliseconds(20)) == .timedOut {
                turns += 1
                _ = try session.turn(now: Self.t0 + .seconds(Double(turns)), ready: session.control?.descriptors ?? [], signals: [])
            }
            return (try #require(outcome.status), outcome.lines)
        }
        _ = try session.turn(now: Self.t0, ready: [], signals: [])
        let written = folder.path + "/panel.png"
        #expect(try shoot(written).0 == .ok)
        let picture = try PNGFile.read(written)
        #expect(picture.width == 32 && picture.height == 24)
        let (unwritable, why) = try shoot(folder.path + "/no/such/folder/panel.png")
        #expect(unwritable == .cannotCreate && why.count == 1 && why[0].contains("no/such/folder"), "\(why)")
        _ = try session.turn(now: Self.t0, ready: [], signals: [SIGUSR1])
        let (refused, said) = try shoot(folder.path + "/later.png")
        #expect(refused == .temporaryFailure && said.first?.contains("another console is in front") == true, "\(said)")
    }
}
