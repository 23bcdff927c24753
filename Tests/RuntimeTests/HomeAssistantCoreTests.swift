import Configuration
import Foundation
import Platform
import TestSupport
import Testing

@testable import HomeBridge
@testable import Runtime

#if canImport(Glibc)
    import Glibc
#endif

/// The panel as a device of a real Home Assistant: Home Assistant core itself (tools/ha-core.py,
/// its own bootstrap and MQTT integration, no mocks) on the test's real Mosquitto broker, with
/// `glance mqtt`'s bridge and a panel session (its real control socket) as HomeAssistantTests
/// runs them. Home Assistant finds the device by discovery with readable entity ids, and its own
/// service calls change what the panel shows, its entities' states following; nothing about the
/// panel is logged as a warning or an error. Both releases the project checks against: 2024.1.6
/// (Python 3.11, a venv) and the current one (tools/ha-current.sh: a Debian 13 root, needs root).
@Suite("Home Assistant core: the panel as a device of a real Home Assistant", .timeLimit(.minutes(10)))
struct HomeAssistantCoreTests {
    /// A release of Home Assistant, as tools/ha-python.sh runs it.
    enum Release: String, CustomTestStringConvertible, CaseIterable {
        case oldest = "2024.1.6"
        case current = "2026.2.3"
        var testDescription: String { rawValue }
        var options: [String] { self == .current ? ["--current"] : [] }
    }

    /// The entity ids Home Assistant makes from the device's name ("Kitchen panel") and the
    /// entities' names, with each entity's object (its unique id is NODE_OBJECT).
    static let entityIds: [(object: String, entityId: String)] = [
        ("backlight", "light.kitchen_panel_backlight"), ("screen", "select.kitchen_panel_screen"),
        ("next", "button.kitchen_panel_next_screen"), ("refresh", "button.kitchen_panel_refresh"),
        ("today", "button.kitchen_panel_today"), ("cycle", "switch.kitchen_panel_cycle_screens"),
        ("move", "sensor.kitchen_panel_move"), ("move_goal", "sensor.kitchen_panel_move_goal"),
        ("exercise", "sensor.kitchen_panel_exercise"), ("exercise_goal", "sensor.kitchen_panel_exercise_goal"),
        ("stand", "sensor.kitchen_panel_stand"), ("stand_goal", "sensor.kitchen_panel_stand_goal"),
        ("screen_shown", "sensor.kitchen_panel_screen_shown"), ("last_touch", "sensor.kitchen_panel_last_touch"),
        ("dim", "number.kitchen_panel_dim_after"), ("blank", "number.kitchen_panel_blank_after"),
        ("restart", "button.kitchen_panel_restart"), ("screenshot", "image.kitchen_panel_screenshot"),
        ("refused", "event.kitchen_panel_refused_command"), ("message_dismissed", "event.kitchen_panel_message_dismissed"),
        ("cpu_temperature", "sensor.kitchen_panel_cpu_temperature"), ("booted", "sensor.kitchen_panel_booted"),
        ("address", "sensor.kitchen_panel_ip_address"), ("wifi_signal", "sensor.kitchen_panel_wi_fi_signal"),
        ("free_disk", "sensor.kitchen_panel_free_disk"),
    ]

    /// What `release` registers: the notify entity from 2024.5 on (MQTT notify came then; for 2024.1
    /// the bridge is told `homeAssistant.notify` false).
    static func entityIds(_ release: Release) -> [(object: String, entityId: String)] {
        entityIds + (release == .oldest ? [] : [("message", "notify.kitchen_panel_message")])
    }

    @Test("discovered with readable entity ids; its service calls change the panel; nothing about it logged", arguments: Release.allCases)
    func realHomeAssistant(release: Release) throws {
        if HomeAssistantTests.skipWithoutBroker() { return }
        let broker = try Broker()
        let folder = ScratchFolder("ha-core")
        var c = HomeAssistantTests.configuration(broker, folder: folder.path)
        c.homeAssistant.deviceName = "Kitchen panel"
        // A Home Assistant before 2024.5 has no MQTT notify: offered there, it logs that it does not
        // know it ("Integration notify is not supported"); homeAssistant.notify false is for it.
        c.homeAssistant.notify = release != .oldest
        let lines = LogLines()
        let (sink, session) = try HomeAssistantTests.panel(c, log: lines.add)
        let controller = try #require(session.controller as? PanelController)
        let bridge = try HomeAssistantTests.bridge(c, log: lines.add)
        // Every diagnostic sensor, whatever this machine has (their units and classes checked by Home Assistant).
        bridge.readHost = { HostFacts(cpuTemperature: 48.3, booted: 1_764_651_180, address: "192.168.1.20", wifiSignal: -61, freeDisk: 1234) }
        bridge.begin(now: monotonicNow())
        let device = try #require(bridge.device)
        #expect(HomeAssistantTests.pump(bridge, session) { bridge.client.connected && bridge.panelState != nil }, "\(lines.all)")
        func pump(_ seconds: Double = 15, until: () -> Bool) -> Bool { HomeAssistantTests.pump(bridge, session, seconds: seconds, until: until) }

        // Home Assistant, its configuration in a folder of the scratch folder. The first run of a
        // release installs it (minutes): a generous bound.
        let configDir = folder.path + "/homeassistant"
        try FileManager.default.createDirectory(atPath: configDir, withIntermediateDirectories: true)
        let started = monotonicNow()
        let ha = try HomeAssistantCore(release: release, configDir: configDir, brokerPort: broker.port, log: folder.path + "/ha.log")
        defer { ha.stop() }
        guard let ready = ha.reply(seconds: 480, pump: { _ = pump(0.05) { false } }) else {
            let log = ha.logTail()
            if ha.status == 69 {
                // Not here (no network, not root for the current release) and not required: said.
                print("Home Assistant \(release.rawValue) cannot run here; not checked: \(log)")
            } else {
                Issue.record("Home Assistant \(release.rawValue) did not start (\(ha.status.map { "exit \($0)" } ?? "no answer")): \(ha.said)\n\(log)")
            }
            return
        }
        guard ready["ready"] as? Bool == true else {
            Issue.record("Home Assistant \(release.rawValue) did not start: \(ready)\n\(ha.logTail())")
            return
        }
        #expect(ready["version"] as? String == release.rawValue)
        print("Home Assistant \(release.rawValue) (Python \(ready["python"] ?? "?")) started in \((monotonicNow() - started).components.seconds) s")

        // The device and its 14 entities in Home Assistant's registries (discovery is retained),
        // available.
        var entities: [[String: Any]] = []
        var found: [String: Any]?
        let end = monotonicNow() + .seconds(90)
        while monotonicNow() < end {
            let answer = try ha.ask(["op": "device", "identifier": device.node], pump: { _ = pump(0.05) { false } })
            found = answer?["device"] as? [String: Any]
            entities = answer?["entities"] as? [[String: Any]] ?? []
            // Each available: Home Assistant skips an unavailable entity in a service call. (Each
            // is until its availability topic's retained `online` has come.)
            if entities.count >= Self.entityIds(release).count && entities.allSatisfy({ ($0["state"] as? String).map { $0 != "unavailable" } == true }) {
                break
            }
            _ = pump(0.5) { false }
        }
        let registered = try #require(found, "the device \(device.node) in Home Assistant's device registry")
        print("Home Assistant \(release.rawValue): the device and \(entities.count) entities registered and available \((monotonicNow() - started).components.seconds) s after its start")
        #expect(registered["name"] as? String == "Kitchen panel")
        #expect(registered["manufacturer"] as? String == "Glance" && registered["model"] as? String == "Glance panel")
        #expect(registered["sw_version"] as? String == "0.0-test")
        let byUniqueId = Dictionary(entities.map { ($0["unique_id"] as? String ?? "", $0) }, uniquingKeysWith: { a, _ in a })
        for (object, entityId) in Self.entityIds(release) {
            let entity = byUniqueId[device.node + "_" + object]
            #expect(entity?["entity_id"] as? String == entityId, "\(object): \(entity.map { "\($0)" } ?? "not registered")")
        }
        #expect(entities.count == Self.entityIds(release).count, "\(entities.map { $0["entity_id"] ?? "?" })")
        print("Home Assistant \(release.rawValue): device \"\(registered["name"] ?? "?")\", its entities and their states:")
        for entity in entities { print("  \(entity["entity_id"] ?? "?")  \(entity["state"] ?? "?")  (\(entity["original_name"] ?? "?"))") }

        func state(_ entityId: String) -> (state: String?, attributes: [String: Any]) {
            let answer = try? ha.ask(["op": "state", "entity_id": entityId], pump: { _ = pump(0.05) { false } })
            return (answer?["state"] as? String, answer?["attributes"] as? [String: Any] ?? [:])
        }
        /// Whether Home Assistant's state of `entityId` comes to satisfy `wanted` within 15 s.
        func follows(_ entityId: String, _ wanted: ((state: String?, attributes: [String: Any])) -> Bool) -> Bool {
            let end = monotonicNow() + .seconds(15)
            while monotonicNow() < end {
                if wanted(state(entityId)) { return true }
                _ = pump(0.2) { false }
            }
            return wanted(state(entityId))
        }
        func call(_ domain: String, _ service: String, _ data: [String: Any]) throws {
            let answer = try ha.ask(["op": "call", "domain": domain, "service": service, "data": data], pump: { _ = pump(0.05) { false } })
            #expect(answer?["ok"] as? Bool == true, "\(domain).\(service) \(data): \(answer.map { "\($0)" } ?? "no answer")")
        }
        #expect(state("select.kitchen_panel_screen").state == "rings")
        #expect(state("light.kitchen_panel_backlight").state == "on")
        #expect(state("sensor.kitchen_panel_move_goal").state == "500" || state("sensor.kitchen_panel_move_goal").state == "500.0")

        // The screen select: the panel shows (and draws) the clock; the select and the sensor follow.
        var frames = sink.frames.count
        try call("select", "select_option", ["entity_id": "select.kitchen_panel_screen", "option": "clock"])
        #expect(pump { controller.navigation.screen == .clock && sink.frames.count > frames }, "\(lines.all)")
        #expect(follows("select.kitchen_panel_screen") { $0.state == "clock" })
        #expect(follows("sensor.kitchen_panel_screen_shown") { $0.state == "clock" })
        // Next screen: back to the rings.
        frames = sink.frames.count
        try call("button", "press", ["entity_id": "button.kitchen_panel_next_screen"])
        #expect(pump { controller.navigation.screen == .rings && sink.frames.count > frames }, "\(lines.all)")
        #expect(follows("select.kitchen_panel_screen") { $0.state == "rings" })
        // The light: off blanks the panel, on lights it again.
        let full = SessionTests.brightest(try #require(sink.lastFrame))
        try call("light", "turn_off", ["entity_id": "light.kitchen_panel_backlight"])
        #expect(pump { controller.blanked && sink.lastFrame.map(SessionTests.brightest) == 0 }, "\(lines.all)")
        #expect(follows("light.kitchen_panel_backlight") { $0.state == "off" })
        try call("light", "turn_on", ["entity_id": "light.kitchen_panel_backlight"])
        #expect(pump { !controller.blanked && sink.lastFrame.map(SessionTests.brightest).map { $0 > 0 } == true }, "\(lines.all)")
        #expect(follows("light.kitchen_panel_backlight") { $0.state == "on" })
        // A brightness: the picture dims (no backlight here); Home Assistant's 0-255 follows (40 % = 102).
        try call("light", "turn_on", ["entity_id": "light.kitchen_panel_backlight", "brightness_pct": 40])
        #expect(pump { controller.device.awakeBrightness == 0.4 && sink.lastFrame.map(SessionTests.brightest).map { $0 < full } == true }, "\(lines.all)")
        #expect(follows("light.kitchen_panel_backlight") { $0.state == "on" && ($0.attributes["brightness"] as? Int) == 102 })
        // The cycle switch.
        try call("switch", "turn_off", ["entity_id": "switch.kitchen_panel_cycle_screens"])
        #expect(pump { controller.device.cycle == nil }, "\(lines.all)")
        #expect(follows("switch.kitchen_panel_cycle_screens") { $0.state == "off" })
        // The idle numbers: Dim after 45 s; the number follows.
        try call("number", "set_value", ["entity_id": "number.kitchen_panel_dim_after", "value": 45])
        #expect(pump { controller.device.idleSchedule.dimAfter == 45 }, "\(lines.all)")
        #expect(follows("number.kitchen_panel_dim_after") { Double($0.state ?? "") == 45 })
        // The diagnostics as Home Assistant reads them.
        #expect(follows("sensor.kitchen_panel_cpu_temperature") { Double($0.state ?? "") == 48.3 })
        #expect(follows("sensor.kitchen_panel_ip_address") { $0.state == "192.168.1.20" })
        // The Screenshot image: Home Assistant has one (its state is when it came).
        #expect(follows("image.kitchen_panel_screenshot") { ($0.state ?? "unknown") != "unknown" })
        // A message through Home Assistant's own notify (from 2024.5): shown on the panel.
        if release != .oldest {
            try call("notify", "send_message", ["entity_id": "notify.kitchen_panel_message", "message": "Washing done"])
            #expect(pump { controller.device.message?.text == "Washing done" }, "\(lines.all)")
        }

        print("Home Assistant \(release.rawValue), at the end:")
        for (_, entityId) in Self.entityIds(release) {
            let s = state(entityId)
            let brightness = s.attributes["brightness"].map { ", brightness \($0)" } ?? ""
            print("  \(entityId)  \(s.state ?? "?")  (\"\(s.attributes["friendly_name"] ?? "?")\"\(brightness))")
        }

        // Home Assistant's log: no warning or error from its MQTT integration, none naming the panel.
        let records = try ha.ask(["op": "log"], pump: { _ = pump(0.05) { false } })?["records"] as? [[String: Any]] ?? []
        // (A record's message may hold a traceback, whose paths may name this machine's caches,
        // glance-ha-venv: "glance" counts in its first line.)
        let aboutThePanel = records.filter { record in
            let logger = record["logger"] as? String ?? ""
            let message = (record["message"] as? String ?? "").lowercased()
            let first = message.split(separator: "\n").first.map(String.init) ?? ""
            return logger.hasPrefix("homeassistant.components.mqtt") || first.contains("glance") || message.contains(device.node)
                || message.contains("kitchen_panel") || message.contains("kitchen panel")
        }
        #expect(aboutThePanel.isEmpty, "\(aboutThePanel)")
        let others = records.filter { r in !aboutThePanel.contains { ($0["message"] as? String) == (r["message"] as? String) } }
        if !others.isEmpty {
            print("Home Assistant \(release.rawValue) logged, about other things: "
                + others.map { "\($0["level"] ?? "") [\($0["logger"] ?? "")] \(String(($0["message"] as? String ?? "").prefix(160)))" }.joined(separator: "; "))
        }
        #expect(ha.finish(pump: { _ = pump(0.05) { false } }), "Home Assistant stopped when asked: \(ha.logTail())")
    }
}

/// Home Assistant core run by tools/ha-core.py through tools/ha-python.sh: requests as JSON lines
/// on its standard input, one JSON line back for each (and `ready` first). Owned: ended on every
/// path (`stop`).
final class HomeAssistantCore {
    let process: OwnedProcess
    /// Our end of its standard input: a socket, written with MSG_NOSIGNAL (a pipe's write after
    /// it ended would be SIGPIPE for the whole test process).
    private var input: Int32
    private let output: Int32
    private var buffer: [UInt8] = []
    let logPath: String
    /// What it wrote that was not a JSON line (tools/ha-python.sh's `unavailable: …`).
    private(set) var said = ""

    init(release: HomeAssistantCoreTests.Release, configDir: String, brokerPort: Int, log: String) throws {
        logPath = log
        var pair: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &pair) == 0 else {
            throw POSIXError(.init(rawValue: errno) ?? .EIO)
        }
        let theirs = FileHandle(fileDescriptor: pair[1], closeOnDealloc: true)
        let outPipe = Pipe()
        _ = FileManager.default.createFile(atPath: log, contents: nil)
        let p = OwnedProcess()
        p.executableURL = URL(fileURLWithPath: Repository.root + "/tools/ha-python.sh")
        p.arguments = release.options + ["--bind", configDir, Repository.root + "/tools/ha-core.py", configDir, "\(brokerPort)"]
        p.standardInput = theirs
        p.standardOutput = outPipe
        p.standardError = FileHandle(forWritingAtPath: log)
        do { try p.run() } catch {
            close(pair[0])
            throw error
        }
        try? theirs.close()
        process = p
        input = pair[0]
        outputPipe = outPipe
        output = outPipe.fileHandleForReading.fileDescriptor
        _ = fcntl(output, F_SETFL, fcntl(output, F_GETFL) | O_NONBLOCK)
    }

    private let outputPipe: Pipe

    /// Its exit status once it ended.
    var status: Int32? { process.isRunning ? nil : process.terminationStatus }

    /// The next JSON line within `seconds`, turning `pump` while none is there; nil when it
    /// ended or the time passed.
    func reply(seconds: Double, pump: () -> Void) -> [String: Any]? {
        let end = monotonicNow() + .milliseconds(Int64(seconds * 1000))
        while true {
            // Whether it runs, asked before reading: once it has ended, all it wrote is read here.
            let running = process.isRunning
            var atEnd = false
            var chunk = [UInt8](repeating: 0, count: 65536)
            while true {
                let n = read(output, &chunk, chunk.count)
                if n > 0 { buffer += chunk[..<n] } else { atEnd = n == 0; break }
            }
            while let newline = buffer.firstIndex(of: 10) {
                let line = Array(buffer[..<newline])
                buffer.removeSubrange(...newline)
                if let json = try? JSONSerialization.jsonObject(with: Data(line)) as? [String: Any] { return json }
                said += String(decoding: line, as: UTF8.self) + "\n"
            }
            if !running || atEnd {
                _ = process.wait(seconds: 10)
                return nil
            }
            if monotonicNow() >= end || Task.isCancelled { return nil }
            pump()
        }
    }

    /// Sends `request` and waits (60 s at most) for its answer.
    func ask(_ request: [String: Any], pump: () -> Void) throws -> [String: Any]? {
        let data = Array(try JSONSerialization.data(withJSONObject: request)) + [10]
        guard process.isRunning, input >= 0 else { return nil }
        var sent = 0
        while sent < data.count {
            let n = data[sent...].withUnsafeBytes { send(input, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return nil }
            sent += n
        }
        return reply(seconds: 60, pump: pump)
    }

    /// Asks it to stop and waits for it: whether it said so and ended.
    func finish(pump: () -> Void) -> Bool {
        let answer = try? ask(["op": "stop"], pump: pump)
        return answer?["stopped"] as? Bool == true && process.wait(seconds: 60)
    }

    func stop() {
        if input >= 0 { close(input) }
        input = -1
        process.stop(grace: 10)
    }

    /// The last lines of its log (its standard error).
    func logTail(_ count: Int = 30) -> String {
        let text = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
        return text.split(separator: "\n", omittingEmptySubsequences: false).suffix(count).joined(separator: "\n")
    }
}
