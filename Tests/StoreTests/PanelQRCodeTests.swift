import Activity
import Configuration
import Foundation
import Platform
import QRCode
import Raster
import Runtime
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Issue 39's QR code on the panel, end to end: the real `glance people token NAME --panel` (the
/// glance binary, which runs glance-serve) sends the person's code to a running panel's control
/// socket (a real session, its frames recorded), and the frame on the panel holds libqrencode's
/// code of the same link, module for module, read at each module's centre; the panel's log names
/// whose code it is and never the token, and a screenshot is refused while it shows. A panel not
/// running: said, with 69, as glance message does.
@Suite("glance people --panel: the phone's QR code on the running panel", .serialized, .timeLimit(.minutes(10)))
struct PanelQRCodeTests {
    /// A short folder for the socket (a Unix socket's path is at most 107 bytes).
    final class SocketFolder {
        let path: String
        init() {
            var template = Array("/tmp/glance-qr-XXXXXX".utf8CString)
            path = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)) }
        }
        deinit { try? FileManager.default.removeItem(atPath: path) }
    }

    final class Lines: @unchecked Sendable {
        private let lock = NSLock()
        private var lines: [String] = []
        func add(_ line: String) {
            lock.lock()
            lines.append(line)
            lock.unlock()
        }
        var all: [String] {
            lock.lock()
            defer { lock.unlock() }
            return lines
        }
    }

    /// glance run's session on a 240x240 panel (no fonts: the caption is laid out, not drawn)
    /// with its control socket at `path`.
    static func panel(_ path: String, log: @escaping (String) -> Void) throws -> (RecordingSink, Session) {
        let settings = try Settings(Configuration())
        let sink = RecordingSink(size: Size(width: 240, height: 240))
        let app = try Assembly.make(
            settings, sink: sink, parts: .init(text: .some(nil), data: FixedData(days: [:]), now: monotonicNow()), log: log
        ).get()
        PanelApp.openControlSocket(app.session, path: path, log: log)
        _ = try app.session.turn(now: monotonicNow(), ready: [], signals: [])
        return (sink, app.session)
    }

    /// Runs glance with `arguments` while the session's loop turns, to the end of both.
    static func run(_ arguments: [String], _ home: PeopleCommandTests.Household, turning session: Session) throws -> GlanceCLI.Result {
        let (process, finish) = try GlanceCLI.start(
            ["people"] + arguments + ["--config", home.config, "--db", home.scratch.db], in: home.scratch)
        let end = monotonicNow() + .seconds(60)
        while process.isRunning && monotonicNow() < end {
            _ = try session.turn(now: monotonicNow(), ready: session.control?.descriptors ?? [], signals: [])
            usleep(5_000)
        }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        // A last turn: the frame after the request.
        _ = try session.turn(now: monotonicNow(), ready: session.control?.descriptors ?? [], signals: [])
        return finish()
    }

    /// The white square's bounds in `picture` (the code and its quiet zone: nothing else is white
    /// on a panel drawing no text).
    static func whiteSquare(_ picture: PixelBuffer) -> IntRect? {
        var minX = Int.max, minY = Int.max, maxX = -1, maxY = -1
        for y in 0..<picture.height {
            for x in 0..<picture.width where picture.color(x: x, y: y) == .white {
                minX = min(minX, x)
                minY = min(minY, y)
                maxX = max(maxX, x)
                maxY = max(maxY, y)
            }
        }
        guard maxX >= 0 else { return nil }
        return IntRect(x: minX, y: minY, width: maxX - minX + 1, height: maxY - minY + 1)
    }

    @Test("people token NAME --panel: on the panel, libqrencode's modules of the same link at every module's centre; no token in the log")
    func shown() throws {
        let home = PeopleCommandTests.Household()
        let added = try home.run(["add", "Ann"])
        try #require(added.status == 0, "\(added.err)")
        let token = try #require(HouseholdServeTests.token(in: added.out))
        let folder = SocketFolder()
        let path = folder.path + "/glance.sock"
        let log = Lines()
        let (sink, session) = try Self.panel(path, log: log.add)
        let before = try #require(sink.lastFrame)

        let r = try Self.run(["token", "Ann", "--panel", "--socket", path], home, turning: session)
        #expect(r.status == 0, "\(r.out) \(r.err)")
        #expect(r.out.contains("Ann's QR code is on the panel for 120 s, or until a press"), "\(r.out)")
        let link = try #require(r.out.split(separator: "\n").first { $0.hasPrefix("link: ") }.map { String($0.dropFirst(6)) })
        #expect(link.contains("Bearer%20" + token))

        // The frame: the code as libqrencode makes it of the link, every module the same whole
        // number of pixels.
        let frame = try #require(sink.lastFrame)
        #expect(!samePixels(frame, before), "the panel shows something else")
        let code = try #require(QRCode.modules(link))
        let square = try #require(Self.whiteSquare(frame))
        let side = code.width + 8
        #expect(square.width == square.height && square.width % side == 0, "\(square) for \(code.width) modules and the quiet zone")
        let module = square.width / side
        #expect(module >= 2, "\(module) px a module")
        var wrong = 0
        for y in 0..<code.width {
            for x in 0..<code.width {
                let cx = square.x + (4 + x) * module + module / 2, cy = square.y + (4 + y) * module + module / 2
                let dark = frame.color(x: cx, y: cy) == .black
                if dark != code.modules[y * code.width + x] { wrong += 1 }
            }
        }
        #expect(wrong == 0, "\(wrong) of \(code.width * code.width) modules differ")
        // The quiet zone: white all round.
        for i in 0..<(4 * module) {
            #expect(frame.color(x: square.x + i, y: square.y + square.height / 2) == .white)
            #expect(frame.color(x: square.maxX - 1 - i, y: square.y + square.height / 2) == .white)
        }

        // The log: whose code, never the token or the link.
        #expect(log.all.contains("control socket: QR code for Ann (\(code.width)×\(code.width) modules)"), "\(log.all)")
        #expect(log.all.contains("QR code for Ann shown for 120 s"), "\(log.all)")
        #expect(!log.all.contains { $0.contains(token) || $0.contains("Bearer") }, "\(log.all)")

        // A screenshot is refused while it shows (Home Assistant's image would keep the token).
        let shot = try Self.runGlance(["screenshot", "--socket", path, "-o", home.scratch.file("shot.png")], home, turning: session)
        #expect(shot.status == 75 && shot.err.contains("QR code"), "\(shot.status) \(shot.err)")
        #expect(!FileManager.default.fileExists(atPath: home.scratch.file("shot.png")))
    }

    /// Runs a glance command (not people) while the session turns.
    static func runGlance(_ arguments: [String], _ home: PeopleCommandTests.Household, turning session: Session) throws -> GlanceCLI.Result {
        let (process, finish) = try GlanceCLI.start(arguments, in: home.scratch)
        let end = monotonicNow() + .seconds(60)
        while process.isRunning && monotonicNow() < end {
            _ = try session.turn(now: monotonicNow(), ready: session.control?.descriptors ?? [], signals: [])
            usleep(5_000)
        }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        return finish()
    }

    @Test("no panel running: 69 and why, as glance message; the token shown all the same, and a person added stays added")
    func noPanel() throws {
        let home = PeopleCommandTests.Household()
        let none = home.scratch.file("none.sock")
        let message = try GlanceCLI.run(["message", "hello", "--socket", none], in: home.scratch)
        var r = try home.run(["add", "Ann", "--panel", "--socket", none])
        #expect(r.status == message.status && r.status == 69, "\(r.status) \(r.err)")
        #expect(r.err.contains("no running glance answers") && r.err.contains("Ann was added all the same"), "\(r.err)")
        #expect(HouseholdServeTests.token(in: r.out) != nil, "the token printed: \(r.out)")
        r = try home.run(["list"])
        #expect(r.out.contains("Ann"), "\(r.out)")
        r = try home.run(["token", "Ann", "--panel", "--socket", none])
        #expect(r.status == 69 && r.err.contains("no running glance answers") && !r.err.contains("added"), "\(r.status) \(r.err)")
        // --socket goes with --panel.
        r = try home.run(["token", "Ann", "--socket", none])
        #expect(r.status == 64 && r.err.contains("--socket goes with --panel"), "\(r.status) \(r.err)")
    }
}
