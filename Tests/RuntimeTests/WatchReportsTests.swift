import Foundation
import Platform
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Issue 25, item 4: `glance watch` is how home-assistant.md checks a setup, so it tells on
/// standard error what `glance run` logs of the gauges' sources — a gauge's file that is
/// missing, a topic glance mqtt has not written — each once, with what to do, what the
/// configuration chose escaped; the bridge (`glance mqtt`, which alone speaks MQTT) tells a
/// broker it cannot reach or that refuses and a password file it cannot read the same way.
@Suite("glance watch tells what glance run logs of its sources; glance mqtt, its broker's", .timeLimit(.minutes(10)))
struct WatchReportsTests {
    /// `glance watch --screen gauges` on `config` until its standard error holds every one of
    /// `expected`, then four seconds more (the files read again, the broker tried again
    /// meanwhile), then SIGTERM: its standard output, its standard error, and its exit status.
    static func watch(_ config: String, in folder: ScratchFolder, until expected: [String]) throws -> (out: String, err: String, status: Int32) {
        try run([
            "watch", "--config", config, "--db", folder.path + "/glance.db", "--screen", "gauges", "--size", "160x120",
            "--render-to", folder.path + "/panel.png",
        ], in: folder, until: expected)
    }

    /// `glance mqtt` (the bridge) on `config`, as `watch` runs glance watch.
    static func bridge(_ config: String, in folder: ScratchFolder, until expected: [String]) throws -> (out: String, err: String, status: Int32) {
        try run(["mqtt", "--config", config, "--db", folder.path + "/glance.db", "--socket", folder.path + "/none.sock"], in: folder, until: expected)
    }

    static func run(_ words: [String], in folder: ScratchFolder, until expected: [String]) throws -> (out: String, err: String, status: Int32) {
        let (program, arguments) = GlanceExecutable.command(words)
        let watch = OwnedProcess()
        watch.executableURL = URL(fileURLWithPath: program)
        watch.arguments = arguments
        let out = folder.path + "/watch.out", err = folder.path + "/watch.err"
        #expect(FileManager.default.createFile(atPath: out, contents: nil) && FileManager.default.createFile(atPath: err, contents: nil))
        watch.standardOutput = FileHandle(forWritingAtPath: out)
        watch.standardError = FileHandle(forWritingAtPath: err)
        try watch.run()
        defer { if watch.isRunning { kill(watch.processIdentifier, SIGKILL) } }
        func said(_ file: String) -> String { (try? String(contentsOfFile: file, encoding: .utf8)) ?? "" }
        for _ in 0..<600 where !expected.allSatisfy({ said(err).contains($0) }) { usleep(50_000) }
        sleep(4)
        kill(watch.processIdentifier, SIGTERM)
        watch.waitUntilExit()
        return (said(out), said(err), watch.terminationStatus)
    }

    static func count(_ text: String, _ part: String) -> Int { text.components(separatedBy: part).count - 1 }

    @Test("watch: a topic glance mqtt has not written and a missing gauge file (its name escaped): each once, with what to do")
    func missingSources() throws {
        let folder = ScratchFolder("watch-reports")
        let config = folder.path + "/config.json"
        try """
        {"screens": ["gauges"],
         "gauges": [{"style": "circular", "title": "Outside", "source": {"mqtt": "home/outside"}},
                    {"style": "circular", "title": "Disk", "source": {"file": "\(folder.path)/gone\\u001b[2J.txt"}}],
         "mqtt": {"broker": "mqtt://127.0.0.1:1"}}
        """.write(toFile: config, atomically: true, encoding: .utf8)
        let topic = "gauge 1 (Outside): topic home/outside: no value from glance mqtt yet (systemctl enable --now glance-mqtt)"
        let file = "gauge 2 (Disk): \(folder.path)/gone\\u{1b}[2J.txt: No such file or directory; check the gauge's source.file in the configuration"
        let r = try Self.watch(config, in: folder, until: [topic, file])
        #expect(r.status == 0, "\(r.err)")
        #expect(Self.count(r.err, topic) == 1, "\(r.err)")
        #expect(Self.count(r.err, file) == 1, "\(r.err)")
        #expect(!r.err.contains("\u{1b}"), "a file's name reaches the terminal escaped")
        // The session's own lines stay its own; the pictures are told on standard output.
        #expect(!r.err.contains("idle after") && !r.err.contains("first frame"), "\(r.err)")
        #expect(r.out.contains("drew "), "\(r.out)")
    }

    @Test("glance mqtt: a broker it cannot reach and an unreadable password file: each once, with what to do")
    func unreachableBroker() throws {
        guard Broker.available else {
            Issue.record("mosquitto is not installed (make deps installs it: tools/debian-packages.txt)")
            return
        }
        // A port nothing listens on: a broker's, stopped.
        let broker = try Broker()
        broker.stop()
        let folder = ScratchFolder("bridge-reports")
        let config = folder.path + "/config.json"
        try """
        {"gauges": [{"style": "circular", "title": "Outside", "source": {"mqtt": "home/outside"}}],
         "mqtt": {"broker": "mqtt://127.0.0.1:\(broker.port)", "username": "glance", "passwordFile": "\(folder.path)/no-password"}}
        """.write(toFile: config, atomically: true, encoding: .utf8)
        let unreachable = "MQTT broker 127.0.0.1:\(broker.port): cannot connect: "
        let advice = "check mqtt.broker in the configuration (host and port) and that the broker runs"
        let password = "mqtt.passwordFile \(folder.path)/no-password: cannot read it: No such file or directory; connecting without a password; make it readable"
        let r = try Self.bridge(config, in: folder, until: [unreachable, advice, password])
        #expect(Self.count(r.err + r.out, unreachable) == 1, "\(r.err)")
        #expect((r.err + r.out).contains(advice), "\(r.err)")
        #expect(Self.count(r.err + r.out, password) == 1, "\(r.err)")
    }

    @Test("glance mqtt: a broker that refuses the password: once, with what to do")
    func refusingBroker() throws {
        guard Broker.available else {
            Issue.record("mosquitto is not installed (make deps installs it: tools/debian-packages.txt)")
            return
        }
        let broker = try Broker(password: "right-password")
        let folder = ScratchFolder("watch-refused")
        try "wrong-password\n".write(toFile: folder.path + "/mqtt.password", atomically: true, encoding: .utf8)
        let config = folder.path + "/config.json"
        try """
        {"screens": ["gauges"], "gauges": [{"style": "circular", "title": "Outside", "source": {"mqtt": "home/outside"}}],
         "mqtt": {"broker": "mqtt://127.0.0.1:\(broker.port)", "username": "glance", "passwordFile": "\(folder.path)/mqtt.password"}}
        """.write(toFile: config, atomically: true, encoding: .utf8)
        let refused = "MQTT broker 127.0.0.1:\(broker.port): the broker refused the connection: "
        let advice = "check mqtt.username and mqtt.passwordFile, and the broker's access list"
        let r = try Self.bridge(config, in: folder, until: [refused, advice])
        let said = r.err + r.out
        #expect(Self.count(said, refused) == 1 && Self.count(said, "MQTT broker") == 1, "\(said)")
        #expect(said.contains(advice), "\(said)")
    }
}
