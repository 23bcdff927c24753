@testable import DeviceLogic
import Activity
import Clocks
import Configuration
import ConfigurationFile
import ControlSocket
import Controls
import Foundation
import Platform
import Raster
import Testing
import TestSupport

@testable import Runtime

/// The control socket's `reload` and `panel` (issue 41: glance web's pages) through a real Unix
/// socket and a session as glance run assembles it (its configuration file, its store, its
/// reloader), turn by turn; and `PanelClient`'s side of them.
@Suite("Control socket: reload and panel", .timeLimit(.minutes(20)))
struct ControlReloadTests {
    static let t0 = ReloadTests.t0

    /// The reload rig's session with its control socket open.
    struct Panel {
        let rig: ReloadTests.Rig
        let path: String
        var session: Session { rig.session }

        init(_ config: String) throws {
            rig = try ReloadTests.Rig(config)
            try rig.turn(0)
            path = rig.folder.path + "/glance.sock"
            let log = rig.log
            PanelApp.openControlSocket(rig.session, path: path, log: { log.lines.append($0) })
        }

        /// `request` on a connection of its own, one session turn at `seconds`, and every answer.
        func ask(_ request: String, at seconds: Double) throws -> [String] {
            let c = try PacketSocket.connect(to: path)
            try c.send(Array(request.utf8))
            _ = try session.turn(now: ReloadTests.t0 + .milliseconds(Int64(seconds * 1000)), ready: session.control?.descriptors ?? [], signals: [])
            var answers: [String] = []
            while let (bytes, fd) = try c.receive(capacity: 512, nonblocking: true), !bytes.isEmpty {
                fd?.close()
                answers.append(String(decoding: bytes, as: UTF8.self))
            }
            return answers
        }

        func state(at seconds: Double) throws -> PanelState? {
            try ask("state", at: seconds).first.flatMap(PanelState.init(text:))
        }
    }

    static let keyNotKnown = #"{"screens": ["clock"], "keys": {"KEY_FROBNICATE": "today"}}"#

    @Test("reload: a valid file applied (ok, the screens in state change); a key libevdev does not know and a JSON error refused with the problem, nothing changed; the log says who asked")
    func reload() throws {
        let panel = try Panel(#"{"screens": ["rings"]}"#)
        let rig = panel.rig
        #expect(try panel.state(at: 1)?.screens == [.rings])
        let frames = rig.sink.frames.count
        rig.write(#"{"screens": ["rings", "clock"], "clock": {"format": "12h"}}"#)
        #expect(try panel.ask("reload", at: 2) == ["ok"])
        #expect(try panel.state(at: 3)?.screens == [.rings, .clock])
        #expect(rig.controller.device.maker.clockFormat == .twelveHour)
        #expect(rig.sink.frames.count > frames, "no new frame after the reload")
        let lines = rig.log.lines
        #expect(lines.contains("control socket (uid \(geteuid())): reading \(rig.config) again"), "\(lines)")
        #expect(lines.contains { $0.hasPrefix("configuration reloaded: ") }, "\(lines)")
        // The same file again: nothing changed, still ok.
        #expect(try panel.ask("reload", at: 4) == ["ok"])
        #expect(rig.log.lines.last?.hasPrefix("configuration reloaded: nothing changed") == true, "\(rig.log.lines)")

        // A key name only the panel checks (libevdev's): the file's reader takes it, as glance
        // config check without the key map does; the reload refuses it, naming it.
        rig.write(Self.keyNotKnown)
        guard case .success = ConfigurationFile.load(rig.config) else {
            Issue.record("the reader refused the file: the panel's own refusal is not what is tested")
            return
        }
        let refused = try panel.ask("reload", at: 5)
        #expect(refused == ["refused $.keys.KEY_FROBNICATE: no such key name (glance devices lists the keys a device has)"], "\(refused)")
        #expect(try panel.state(at: 6)?.screens == [.rings, .clock], "the refused file's screens were taken")
        #expect(rig.log.lines.last == "keeping the running configuration", "\(rig.log.lines)")

        // Not JSON: the reader's line and column.
        rig.write("{\"screens\": [\"rings\",\n")
        let json = try panel.ask("reload", at: 7)
        #expect(json.count == 1 && json[0].hasPrefix("refused $: ") && json[0].contains("line 2"), "\(json)")
        // Two problems: the first, and how many more.
        rig.write(#"{"screens": ["rings", "dials"], "idle": {"dimAfter": -1}}"#)
        let two = try panel.ask("reload", at: 8)
        #expect(two.count == 1 && two[0].hasPrefix("refused $.screens[1]: ") && two[0].hasSuffix(" (and 1 more problem)"), "\(two)")
        // No file: the reader's reason, with the file.
        try FileManager.default.removeItem(atPath: rig.config)
        let gone = try panel.ask("reload", at: 9)
        #expect(gone == ["refused \(rig.config): cannot read the configuration: No such file or directory"], "\(gone)")
        #expect(try panel.state(at: 10)?.screens == [.rings, .clock])
        #expect(rig.controller.device.maker.clockFormat == .twelveHour)
        #expect(rig.log.lines.filter { $0 == "keeping the running configuration" }.count == 4)
    }

    @Test("reload: a refusal longer than an answer is cut to 400 bytes, on one line, its control characters escaped")
    func longRefusal() throws {
        // The reason the reader gives names the file: here one under folders whose names hold a
        // line feed and an escape, 500 bytes and more of path.
        let folder = ScreenshotTests.Folder()
        let odd = "line\nfeed\u{1B}[2J" + String(repeating: "é", count: 110)
        let deep = folder.path + "/" + odd + "/" + odd
        try FileManager.default.createDirectory(atPath: deep, withIntermediateDirectories: true)
        let config = deep + "/config.json"
        try "{}".write(toFile: config, atomically: false, encoding: .utf8)
        var parts = Assembly.Parts(
            text: .some(nil), clock: FixedClock(ScreenshotTests.day), data: FixedData(days: [:]), now: Self.t0)
        parts.configurationPath = config
        let lines = LogLines()
        let app = try Assembly.make(Settings(), sink: RecordingSink(size: Size(width: 32, height: 32)), parts: parts, log: lines.add).get()
        let path = folder.path + "/glance.sock"
        PanelApp.openControlSocket(app.session, path: path, log: lines.add)
        _ = try app.session.turn(now: Self.t0, ready: [], signals: [])
        #expect(try ControlCommandsTests.exchange(app.session, try PacketSocket.connect(to: path), [Array("reload".utf8)], at: Self.t0 + .seconds(1)) == ["ok"])
        try FileManager.default.removeItem(atPath: config)
        let answers = try ControlCommandsTests.exchange(app.session, try PacketSocket.connect(to: path), [Array("reload".utf8)], at: Self.t0 + .seconds(2))
        let answer = try #require(answers.first, "no answer")
        #expect(answers.count == 1)
        #expect(answer.hasPrefix("refused \(folder.path)/line\\nfeed?[2Jéé") && answer.hasSuffix("…"), "\(answer)")
        #expect(answer.utf8.count <= ControlServer.maximumAnswerBytes && answer.utf8.count > 390, "\(answer.utf8.count) bytes")
        #expect(!answer.unicodeScalars.contains { Quote.isControl($0) })
        // Any reason: at most 400 bytes whatever its characters' sizes; a short one whole.
        for reason in [String(repeating: "🙂", count: 500), String(repeating: "\n", count: 500), String(repeating: "a", count: 1000)] {
            let clipped = ControlServer.refused(reason)
            #expect(clipped.utf8.count <= ControlServer.maximumAnswerBytes && clipped.utf8.count > 390 && clipped.hasSuffix("…"), "\(clipped)")
        }
        #expect(ControlServer.refused("a\tb") == "refused a?b")
        // The log has the whole reason (its own escaping is the journal's).
        #expect(lines.lines.contains { $0.hasPrefix(config) && $0.hasSuffix("cannot read the configuration: No such file or directory") }, "\(lines.all)")
    }

    @Test("reload: refused where nothing reloads (a session without a reloader); the session goes on")
    func nothingToReload() throws {
        let folder = ScreenshotTests.Folder()
        let path = folder.path + "/glance.sock"
        let (_, session) = try ControlCommandsTests.session(path)
        session.onReload = nil
        let c = try PacketSocket.connect(to: path)
        let answers = try ControlCommandsTests.exchange(session, c, [Array("reload".utf8)], at: Self.t0 + .seconds(1))
        #expect(answers == ["refused this glance has no configuration to reload"], "\(answers)")
        guard case .wait = try session.turn(now: Self.t0 + .seconds(2), ready: [], signals: []) else {
            Issue.record("the session ended")
            return
        }
    }

    @Test("panel: the session's picture, upright, its outline and viewing; after a reload that turns it, round, set: the new ones")
    func panelFacts() throws {
        let panel = try Panel("{}")
        let first = try #require(try panel.ask("panel", at: 1).first)
        // A 120x80 picture: the usual panel of its pixels (160 to the inch: 0.9"), 50 cm away.
        #expect(first == "panel width=120 height=80 rotation=0 shape=rectangle diagonal=0.9 measured=assumed distance=50 connector=none format=none")
        #expect(PanelFacts(text: first)?.width == 120)
        panel.rig.write(#"{"display": {"rotate": 90, "shape": "round", "diagonal": 1.28, "viewingDistance": 30}}"#)
        #expect(try panel.ask("reload", at: 2) == ["ok"])
        let turned = try #require(try panel.ask("panel", at: 3).first.flatMap(PanelFacts.init(text:)))
        #expect(
            turned
                == PanelFacts(
                    width: 80, height: 120, rotation: .quarter, round: true, diagonalTenths: 13, measured: .setting, distance: 30,
                    connector: nil, format: nil), "\(turned.text)")
    }

    /// A client's call made on a thread of its own while the session turns here, until it returns
    /// (at most `seconds`).
    static func whileTurning(
        _ session: Session, seconds: Double = 20, _ call: @escaping @Sendable () -> Result<String, OutputFailure>
    ) throws -> Result<String, OutputFailure>? {
        let box = Box()
        let thread = Thread {
            let value = call()
            box.lock.withLock { box.value = value }
        }
        thread.start()
        let end = Date().addingTimeInterval(seconds)
        var t = 100.0
        while Date() < end {
            if let value = box.lock.withLock({ box.value }) { return value }
            _ = try session.turn(now: Self.t0 + .milliseconds(Int64(t * 1000)), ready: session.control?.descriptors ?? [], signals: [])
            t += 0.01
            usleep(5000)
        }
        return nil
    }

    final class Box: @unchecked Sendable {
        let lock = NSLock()
        var value: Result<String, OutputFailure>?
    }

    @Test("PanelClient: ask answers state and panel with their lines; command reload is ok, or fails with the panel's reason after a fixed prefix")
    func client() throws {
        let panel = try Panel(#"{"screens": ["rings"]}"#)
        let path = panel.path
        let state = try #require(try Self.whileTurning(panel.session) { PanelClient.ask("state", socket: path) })
        #expect((try? state.get()).flatMap(PanelState.init(text:))?.screens == [.rings], "\(state)")
        let facts = try #require(try Self.whileTurning(panel.session) { PanelClient.ask("panel", socket: path) })
        #expect((try? facts.get()).flatMap(PanelFacts.init(text:))?.height == 80, "\(facts)")
        // A request the panel refuses: temporaryFailure, its reason after the prefix.
        let unknown = try #require(try Self.whileTurning(panel.session) { PanelClient.ask("frobnicate", socket: path) })
        guard case .failure(let failure) = unknown else {
            Issue.record("frobnicate was answered: \(unknown)")
            return
        }
        #expect(failure.status == .temporaryFailure && failure.message.hasPrefix("the running glance refused 'frobnicate': unknown request 'frobnicate'"), "\(failure.message)")

        panel.rig.write(#"{"screens": ["rings", "clock"]}"#)
        let applied = try #require(try Self.whileTurning(panel.session) {
            PanelClient.command("reload", socket: path, what: "glance web", refused: "kept").map { "ok" }
        })
        #expect((try? applied.get()) != nil, "\(applied)")
        #expect(panel.rig.controller.device.screens == [.rings, .clock])
        panel.rig.write(Self.keyNotKnown)
        let refused = try #require(try Self.whileTurning(panel.session) {
            PanelClient.command("reload", socket: path, what: "glance web", refused: "kept").map { "ok" }
        })
        guard case .failure(let reason) = refused else {
            Issue.record("the reload was taken")
            return
        }
        #expect(reason.status == .temporaryFailure)
        #expect(reason.message == "kept: $.keys.KEY_FROBNICATE: no such key name (glance devices lists the keys a device has)", "\(reason.message)")
        #expect(panel.rig.controller.device.screens == [.rings, .clock])
        // No panel there: unavailable, as command says.
        guard case .failure(let none) = PanelClient.ask("state", socket: panel.rig.folder.path + "/none.sock") else {
            Issue.record("a socket that is not there answered")
            return
        }
        #expect(none.status == .unavailable, "\(none.message)")
    }
}
