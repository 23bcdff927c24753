import Activity
import Configuration
import Foundation
import ImageFile
import Platform
import Raster
import Screens
import TestSupport
import Testing

@testable import Runtime

#if canImport(Glibc)
    import Glibc
#endif

/// A real Mosquitto broker on a loopback port, with its own configuration. Started as a
/// `ChildProcess` (the default signal mask: the test runner's blocked signals must not reach it).
final class Broker {
    let folder: String
    private(set) var port: Int
    var process: ChildProcess?
    let password: String?

    /// `password`: the broker takes only user "glance" with it.
    init(password: String? = nil) throws {
        folder = NSTemporaryDirectory() + "glance-broker-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        port = 0
        self.password = password
        var conf = "persistence false\n"
        if let password {
            let file = folder + "/passwords"
            #expect(FileManager.default.createFile(atPath: file, contents: nil), "a file for the test")
            let p = OwnedProcess()
            p.executableURL = URL(fileURLWithPath: "/usr/bin/mosquitto_passwd")
            p.arguments = ["-b", file, "glance", password]
            try p.run()
            p.waitUntilExit()
            // Readable by the broker's own user (run as root, mosquitto reads it as user
            // mosquitto), whatever umask another test's in-process service has set meanwhile.
            chmod(folder, 0o755)
            chmod(file, 0o644)
            conf += "allow_anonymous false\npassword_file \(file)\n"
        } else {
            conf += "allow_anonymous true\n"
        }
        // A port below the ephemeral range (32768 up), where clients' own ports would collide; another
        // when it is taken (by another test's broker or server) rather than a failed test.
        for attempt in 1...5 {
            repeat { port = Int.random(in: 20000...32000) } while canConnect()
            try ("listener \(port) 127.0.0.1\n" + conf).write(toFile: folder + "/mosquitto.conf", atomically: true, encoding: .utf8)
            if let failure = try launch() {
                if failure.contains("Address already in use") && attempt < 5 { continue }
                Issue.record("\(failure)")
            }
            break
        }
    }

    static var available: Bool { FileManager.default.isExecutableFile(atPath: "/usr/sbin/mosquitto") }

    func start() throws {
        if let failure = try launch() { Issue.record("\(failure)") }
    }

    /// Starts mosquitto and waits until it listens; what went wrong otherwise.
    private func launch() throws -> String? {
        process = try ChildProcess(["/usr/sbin/mosquitto", "-c", folder + "/mosquitto.conf"], captureOutput: true)
        // Until it listens (a loaded machine may take seconds); a broker that ended says why.
        for _ in 0..<400 {
            if let status = process?.poll() {
                let said = String(decoding: process?.output ?? [], as: UTF8.self)
                process = nil
                return "mosquitto on \(port) ended (\(status)) before listening: \(said)"
            }
            if canConnect() {
                // Ours that answers, not another broker that took the port while ours fails to.
                usleep(100_000)
                if process?.poll() == nil { return nil }
                continue
            }
            usleep(50_000)
        }
        return "mosquitto did not start listening on \(port) within 20 s"
    }

    func canConnect() -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
    }

    func stop() {
        guard let process else { return }
        kill(process.pid, SIGTERM)
        _ = process.waitForEnd("mosquitto")
        self.process = nil
    }

    /// mosquitto_pub.
    func publish(_ topic: String, _ payload: String, retain: Bool = false) throws {
        let p = try ChildProcess(
            ["/usr/bin/mosquitto_pub", "-h", "127.0.0.1", "-p", "\(port)", "-t", topic, "-m", payload] + (retain ? ["-r"] : [])
                + (password.map { ["-u", "glance", "-P", $0] } ?? []))
        let status = p.waitForEnd("mosquitto_pub \(topic)")
        #expect(status == .exited(0), "mosquitto_pub \(topic)")
    }

    /// mosquitto_pub of each line of `lines` as its own message (-l), in one connection.
    func publishLines(_ topic: String, _ lines: [String]) throws {
        let file = folder + "/lines-\(UInt32.random(in: 0...UInt32.max))"
        try (lines.joined(separator: "\n") + "\n").write(toFile: file, atomically: true, encoding: .utf8)
        try run(["/bin/sh", "-c", "exec /usr/bin/mosquitto_pub -h 127.0.0.1 -p \(port) -t '\(topic)' -l < '\(file)'"], "mosquitto_pub -l")
    }

    /// mosquitto_pub of a file's bytes as one message (-f).
    func publishFile(_ topic: String, _ file: String) throws {
        try run(["/usr/bin/mosquitto_pub", "-h", "127.0.0.1", "-p", "\(port)", "-t", topic, "-f", file], "mosquitto_pub -f")
    }

    private func run(_ arguments: [String], _ what: String) throws {
        let p = try ChildProcess(arguments, captureOutput: true)
        let status = p.waitForEnd(what)
        #expect(status == .exited(0), "\(what): \(String(decoding: p.output, as: UTF8.self))")
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(atPath: folder)
    }
}

/// Gauges from MQTT (a real broker) and from commands (real processes), and staleness.
@Suite("Gauges from MQTT, commands, and staleness", .timeLimit(.minutes(10)))
struct GaugeFeedTests {
    static func gauge(_ source: GaugeSourceSetting, staleAfter: FieldChange<Double> = .keep) -> GaugeSetting {
        var g = GaugeSetting(style: .circular, title: "T", unit: "", minimum: 0, maximum: 100, tint: [], source: source)
        g.givenStaleAfter = staleAfter
        return g
    }

    /// Turns the feed (as the session would) until `condition` holds.
    static func wait(_ feed: GaugeFeed, seconds: Double = 10, until condition: () -> Bool) -> Bool {
        let end = monotonicNow() + .milliseconds(Int64(seconds * 1000))
        while monotonicNow() < end {
            if condition() { return true }
            let now = monotonicNow()
            let timeout = feed.nextDeadline(now: now).map { max(.zero, min($0 - now, .milliseconds(50))) } ?? .milliseconds(50)
            let ready = (try? waitForReadable(feed.descriptors, timeout: timeout)) ?? []
            _ = feed.handle(ready: ready, now: monotonicNow())
        }
        return condition()
    }

    /// `glance mqtt` on `config`, with the store in `folder` (no panel to talk to).
    static func bridge(config: String, folder: String) throws -> ChildProcess {
        try ChildProcess(
            GlanceExecutable.words(["mqtt", "--config", config, "--db", folder + "/glance.db", "--socket", folder + "/none.sock"]),
            captureOutput: true)
    }

    static func stop(_ process: ChildProcess) {
        kill(process.pid, SIGTERM)
        _ = process.waitForEnd("glance mqtt")
    }

    static func mqtt(_ broker: Broker, password: String? = nil, folder: String? = nil) -> MQTTSetting {
        var m = MQTTSetting(broker: "mqtt://127.0.0.1:\(broker.port)", host: "127.0.0.1", port: broker.port, tls: false)
        m.keepAlive = 5
        if let password, let folder {
            m.username = "glance"
            let file = folder + "/mqtt.password"
            #expect(FileManager.default.createFile(atPath: file, contents: Data((password + "\n").utf8)), "a file for the test")
            m.passwordFile = file
        }
        return m
    }

    /// Issue 24, X3: one 100 MB message added 195 MB of peak memory: libmosquitto took in the whole
    /// packet before Glance kept its 64 KB. The broker is told the largest packet it may send.
    @Test("a 100 MB message to glance mqtt: dropped by the broker for it, its peak memory flat, the next value drawn by glance watch")
    func hugeMessage() throws {
        guard Broker.available else {
            Issue.record("mosquitto is not installed (make deps installs it)")
            return
        }
        let broker = try Broker()
        let folder = ScratchFolder("mqtt-huge")
        let config = folder.path + "/config.json"
        try """
        {"screens": ["gauges"], "gauges": [{"style": "accessoryCircular", "title": "Outside", "source": {"mqtt": "home/t"}}],
         "mqtt": {"broker": "mqtt://127.0.0.1:\(broker.port)", "keepAlive": 60}}
        """.write(toFile: config, atomically: true, encoding: .utf8)
        let big = folder.path + "/big"
        #expect(FileManager.default.createFile(atPath: big, contents: Data(repeating: 0x37, count: 100 << 20)), "a file for the test")
        let watch = OwnedProcess()
        let (program, arguments) = GlanceExecutable.command([
            "watch", "--config", config, "--db", folder.path + "/glance.db", "--screen", "gauges", "--size", "240x240",
            "--render-to", folder.path + "/panel.png",
        ])
        watch.executableURL = URL(fileURLWithPath: program)
        watch.arguments = arguments
        let log = folder.path + "/watch.log"
        #expect(FileManager.default.createFile(atPath: log, contents: nil), "a file for the test")
        watch.standardOutput = FileHandle(forWritingAtPath: log)
        watch.standardError = watch.standardOutput
        try watch.run()
        defer { if watch.isRunning { kill(watch.processIdentifier, SIGKILL) } }
        // The panel's side never speaks MQTT: glance mqtt writes the topic's numbers into the store.
        let bridge = try Self.bridge(config: config, folder: folder.path)
        defer { Self.stop(bridge) }
        func said() -> String { (try? String(contentsOfFile: log, encoding: .utf8)) ?? "" }
        func lines() -> Int { said().split(separator: "\n").count }
        func peak() -> Int {
            let status = (try? String(contentsOfFile: "/proc/\(bridge.pid)/status", encoding: .utf8)) ?? ""
            let line = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") } ?? ""
            return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
        }
        // Connected and subscribed: a retained value is drawn.
        try broker.publish("home/t", "5", retain: true)
        let start = Date()
        while Date().timeIntervalSince(start) < 30 && !said().contains("5") { usleep(50_000) }
        usleep(500_000)
        let before = peak()
        let drawn = lines()
        try broker.publishFile("home/t", big)
        try broker.publish("home/t", "7")
        let again = Date()
        while Date().timeIntervalSince(again) < 30 && lines() == drawn { usleep(50_000) }
        let after = peak()
        print("glance mqtt peak memory: \(before) kB before a 100 MB message, \(after) kB after")
        #expect(lines() > drawn, "the next value was drawn: \(said().suffix(400))")
        #expect(after - before < 20_000, "peak memory grew by \(after - before) kB")
        kill(watch.processIdentifier, SIGTERM)
        watch.waitUntilExit()
        #expect(watch.terminationStatus == 0, "\(said().suffix(400))")
    }

    /// Voluntary context switches of a process's main thread: one for each time it slept.
    static func sleeps(_ pid: Int32) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        let line = status.split(separator: "\n").first { $0.hasPrefix("voluntary_ctxt_switches:") }
        return line.flatMap { Int($0.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) }
    }

    @Test("glance watch --screen gauges follows a real broker through glance mqtt: a published value drawn as glance render draws it; idle, nothing wakes it")
    func watchFollowsTheBroker() throws {
        guard Broker.available else {
            Issue.record("mosquitto is not installed (make deps installs it)")
            return
        }
        let broker = try Broker()
        let folder = ScratchFolder("mqtt-watch")
        let gauge = #""style": "accessoryCircular", "title": "Outside", "unit": "°C", "min": -10, "max": 35"#
        let config = folder.path + "/config.json"
        try """
        {"screens": ["rings", "gauges"], "gauges": [{\(gauge), "source": {"mqtt": "home/outside/state"}}],
         "mqtt": {"broker": "mqtt://127.0.0.1:\(broker.port)", "keepAlive": 60}}
        """.write(toFile: config, atomically: true, encoding: .utf8)
        let png = folder.path + "/panel.png"
        let watch = OwnedProcess()
        let (program, arguments) = GlanceExecutable.command([
            "watch", "--config", config, "--db", folder.path + "/glance.db", "--screen", "gauges", "--size", "320x240",
            "--render-to", png,
        ])
        watch.executableURL = URL(fileURLWithPath: program)
        watch.arguments = arguments
        let log = folder.path + "/watch.log"
        #expect(FileManager.default.createFile(atPath: log, contents: nil), "a file for the test")
        watch.standardOutput = FileHandle(forWritingAtPath: log)
        watch.standardError = watch.standardOutput
        try watch.run()
        defer { if watch.isRunning { kill(watch.processIdentifier, SIGKILL) } }
        // The panel's side never speaks MQTT: glance mqtt writes the topic's numbers into the store.
        let bridge = try Self.bridge(config: config, folder: folder.path)
        defer { Self.stop(bridge) }
        func said() -> String { (try? String(contentsOfFile: log, encoding: .utf8)) ?? "" }
        func reference(_ value: String) throws -> PixelBuffer {
            let path = folder.path + "/render-\(value).png"
            let r = try runGlance([
                "render", "--screen", "gauge", "--style", "accessoryCircular", "--title", "Outside", "--unit", "°C", "--min", "-10",
                "--max", "35", "--value", value, "--size", "320x240", "--output", path,
            ])
            try #require(r.status == 0, "glance render: \(r.output)")
            return try PNGFile.read(path)
        }
        func shows(_ expected: PixelBuffer) -> Bool {
            guard let now = try? PNGFile.read(png) else { return false }
            return now.width == expected.width && (0..<now.height).allSatisfy { y in
                (0..<now.width).allSatisfy { now.row32(y)[$0] & 0xFF_FFFF == expected.row32(y)[$0] & 0xFF_FFFF }
            }
        }
        func eventually(_ seconds: Double, _ condition: () -> Bool) -> Bool {
            let end = Date().addingTimeInterval(seconds)
            while Date() < end {
                if condition() { return true }
                usleep(50_000)
            }
            return condition()
        }
        // Never seen yet: the gauge without a value.
        #expect(eventually(30) { shows((try? reference("-")) ?? PixelBuffer(width: 1, height: 1)) }, "\(said())")
        // Home Assistant's statestream writes states as strings. Retained: the picture without a
        // value may come before glance watch has subscribed, and the value must not be missed.
        try broker.publish("home/outside/state", "21.5", retain: true)
        #expect(eventually(10) { shows((try? reference("21.5")) ?? PixelBuffer(width: 1, height: 1)) }, "\(said())")
        try broker.publish("home/outside/state", "\"-3.25\"")
        let changed = try reference("-3.25")
        #expect(eventually(10) { shows(changed) }, "\(said())")
        // Idle, the bridge connected: count the times the loop slept and woke in ten seconds.
        usleep(500_000)
        let before = try #require(Self.sleeps(watch.processIdentifier))
        sleep(10)
        let after = try #require(Self.sleeps(watch.processIdentifier))
        print("glance watch, glance mqtt connected and idle: \(after - before) wake-ups in 10 s")
        #expect(after - before <= 2, "woke \(after - before) times in 10 idle seconds")
        kill(watch.processIdentifier, SIGTERM)
        watch.waitUntilExit()
        #expect(watch.terminationStatus == 0, "\(said())")
        #expect(shows(changed))
    }

    @Test("commands: the first number, a pattern's group; a failing, a hanging (stopped at its timeout) and a flooding command")
    func commands() throws {
        var log: [String] = []
        let feed = GaugeFeed(
            settings: [
                Self.gauge(.command(arguments: ["/bin/echo", "load: 1.25 2 3"], pattern: nil, scale: 1, offset: 0, interval: 60, timeout: 5)),
                Self.gauge(.command(arguments: ["/bin/echo", "temp=48.3'C"], pattern: "temp=([0-9.]+)", scale: 1, offset: 0, interval: 60, timeout: 5)),
                Self.gauge(.command(arguments: ["/bin/false"], pattern: nil, scale: 1, offset: 0, interval: 60, timeout: 5)),
                Self.gauge(.command(arguments: ["/bin/sleep", "30"], pattern: nil, scale: 1, offset: 0, interval: 60, timeout: 0.5)),
                Self.gauge(.command(arguments: ["/bin/sh", "-c", "yes 12345 | head -c 20000000; echo"], pattern: nil, scale: 2, offset: 0, interval: 60, timeout: 20)),
            ], log: { log.append($0) })
        let start = monotonicNow()
        #expect(feed.gauges().allSatisfy { $0.value == nil }, "nothing runs before the gauge screen shows")
        _ = feed.show(true, now: start)
        #expect(Self.wait(feed, seconds: 25) {
            let g = feed.gauges()
            return g[0].value == 1.25 && g[1].value == 48.3 && g[4].value == 24690
                && log.contains { $0.contains("/bin/false exited with 1") } && log.contains { $0.contains("/bin/sleep took longer") }
        }, "\(feed.gauges().map(\.value)) \(log)")
        #expect(feed.gauges()[2].value == nil && feed.gauges()[3].value == nil)
        #expect(monotonicNow() - start < .seconds(20), "the hanging command was stopped at its timeout")
        #expect(feed.descriptors.isEmpty, "nothing left running")
    }

    @Test("staleness: a value not renewed in time is stale with its age; a failing source makes it stale at once")
    func staleness() throws {
        var wall = 1_000_000.0
        let file = NSTemporaryDirectory() + "glance-gauge-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try "41\n".write(toFile: file, atomically: true, encoding: .utf8)
        let feed = GaugeFeed(
            settings: [Self.gauge(.file(path: file, scale: 1, offset: 0, interval: 5))], wallClock: { wall },
            log: { _ in })
        let t0 = Duration.seconds(100)
        _ = feed.show(true, now: t0)
        #expect(feed.gauges()[0].value == 41 && feed.gauges()[0].age == nil)
        // Three intervals (15 s, the default) without a new value: the next deadline says when.
        #expect(feed.nextDeadline(now: t0) == t0 + .seconds(5), "the next read first")
        unlink(file)
        wall += 5
        _ = feed.handle(ready: [], now: t0 + .seconds(5))
        let g = feed.gauges()[0]
        #expect(g.value == 41 && g.age == 5, "a failing file: stale at once, its last value kept")
        try "43\n".write(toFile: file, atomically: true, encoding: .utf8)
        wall += 5
        _ = feed.handle(ready: [], now: t0 + .seconds(10))
        #expect(feed.gauges()[0].value == 43 && feed.gauges()[0].age == nil, "fresh again")
        // Stale by time (20 s > 15 s), then the same value read again: fresh, and a change to draw.
        wall += 20
        #expect(feed.gauges()[0].age == 20)
        wall += 1
        #expect(feed.handle(ready: [], now: t0 + .seconds(31)), "the same value renews it: the panel must redraw")
        #expect(feed.gauges()[0].value == 43 && feed.gauges()[0].age == nil)
        unlink(file)
    }
}

extension ChildProcess {
    /// Waits for its end, looking every 5 ms, for at most `seconds` or until the test's time limit
    /// passed (its task cancelled); then it is killed, and said: how it ended, nil if not even then.
    func waitForEnd(
        _ what: String, seconds: Double = 60, sourceLocation: SourceLocation = #_sourceLocation
    ) -> ChildProcess.Status? {
        let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
        while ContinuousClock.now < deadline && !Task.isCancelled {
            if let status = poll() { return status }
            usleep(5_000)
        }
        if let status = poll() { return status }
        Issue.record("\(what) (pid \(pid)) had not ended within \(Int(seconds)) s (or the test's time limit): killed", sourceLocation: sourceLocation)
        stop()
        return nil
    }
}
