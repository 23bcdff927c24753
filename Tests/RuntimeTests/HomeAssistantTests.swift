@testable import DeviceLogic
import Activity
import Clocks
import Configuration
import Controls
import Foundation
import Platform
import Raster
import Store
import TestSupport
import Testing

@testable import Runtime
@testable import HomeBridge

#if canImport(Glibc)
    import Glibc
#endif

/// `glance mqtt` against a real Mosquitto broker: the gauges' topics into the store, Home
/// Assistant's discovery (retained, unique ids, Home Assistant's own schemas), each entity's
/// command reaching a session through its real control socket, the states following, and the
/// availability through the last will of a bridge killed with SIGKILL.
@Suite("Home Assistant: glance mqtt, a real broker, the panel's control socket", .timeLimit(.minutes(10)))
struct HomeAssistantTests {
    static let day = CalendarDay(year: 2026, month: 11, day: 30)!
    static let summary = ActivitySummary(
        activeEnergyBurned: .kilocalories(375), activeEnergyBurnedGoal: .kilocalories(500), exerciseTime: 15, exerciseTimeGoal: 30,
        standHours: 6, standHoursGoal: 12)

    /// A configuration for `broker`, the panel's socket at `socket`, one gauge topic.
    static func configuration(_ broker: Broker, folder: String) -> Configuration {
        var c = Configuration()
        c.mqtt = GaugeFeedTests.mqtt(broker)
        c.screens = [.rings, .clock]
        c.cycle = CycleRule(every: 600, screens: [], pauseOnInput: 60)
        c.gauges = [GaugeFeedTests.gauge(.mqtt(topic: "home/outside", field: "t", scale: 1, offset: 0))]
        c.run.controlSocket = folder + "/glance.sock"
        c.database = folder + "/glance.db"
        return c
    }

    static func bridge(_ c: Configuration, log: @escaping (String) -> Void = { _ in }) throws -> MQTTBridge {
        try MQTTBridge.make(configuration: c, database: nil, version: "0.0-test", clock: FixedClock(day), log: log).get()
    }

    /// A session drawing rings and the clock (no fonts), its control socket at the configuration's.
    static func panel(_ c: Configuration, log: @escaping (String) -> Void) throws -> (RecordingSink, Session) {
        var settings = Settings()
        settings.screens = c.screens
        settings.cycle = c.cycle
        settings.show.today = .date(day)
        settings.idle = IdleSchedule(dimAfter: nil, blankAfter: nil, dimLevel: 0.3)
        let sink = RecordingSink(size: Size(width: 64, height: 48))
        let app = try Assembly.make(
            settings, sink: sink, parts: .init(text: .some(nil), clock: FixedClock(day), data: FixedData(days: [day: summary])),
            log: log
        ).get()
        PanelApp.openControlSocket(app.session, path: c.run.controlSocket, log: log)
        return (sink, app.session)
    }

    /// Turns the bridge and the session (as their loops would) until `condition` holds, at most
    /// `seconds` (a wait for the broker, not a limit on speed).
    static func pump(_ bridge: MQTTBridge, _ session: Session?, seconds: Double = 15, until condition: () -> Bool) -> Bool {
        let end = monotonicNow() + .milliseconds(Int64(seconds * 1000))
        while monotonicNow() < end {
            if condition() { return true }
            let ready = (try? waitForReady(bridge.interests + (session?.watched ?? []).map { Interest($0) }, timeout: .milliseconds(20))) ?? []
            _ = bridge.handle(ready: ready, now: monotonicNow())
            _ = try? session?.turn(now: monotonicNow(), ready: ready, signals: [])
        }
        return condition()
    }

    /// The broker's retained messages under `filter`, as (topic, payload). mosquitto_sub is
    /// started with no signal blocked (a test's thread blocks them, and its -W timer is SIGALRM:
    /// started from there, a topic with nothing retained kept it waiting for ever), and ended
    /// after 5 s whatever it does.
    static func retained(_ broker: Broker, _ filter: String, count: Int? = nil) throws -> [(topic: String, payload: String)] {
        let process = try ChildProcess(
            ["/usr/bin/mosquitto_sub", "-h", "127.0.0.1", "-p", "\(broker.port)", "-t", filter, "-v", "--retained-only", "-W", "2"]
                + (count.map { ["-C", "\($0)"] } ?? []), captureOutput: true, outputLimit: 1 << 20)
        defer { process.stop() }
        let end = monotonicNow() + .seconds(5)
        while process.poll() == nil && monotonicNow() < end { usleep(10_000) }
        return String(decoding: process.output, as: UTF8.self).split(separator: "\n").map { line in
            let space = line.firstIndex(of: " ") ?? line.endIndex
            return (String(line[..<space]), String(line[space...].dropFirst()))
        }
    }

    /// What one retained state topic of the device holds.
    static func state(_ broker: Broker, _ device: HomeAssistantDevice, _ object: String) throws -> String? {
        try retained(broker, device.topic(object, "state"), count: 1).first?.payload
    }

    static func skipWithoutBroker() -> Bool {
        guard Broker.available else {
            Issue.record("mosquitto is not installed (make deps installs it: tools/debian-packages.txt)")
            return true
        }
        return false
    }

    @Test("each gauge topic's number goes into the store as its metric; junk leaves the metric as it was")
    func gaugesIntoTheStore() throws {
        if Self.skipWithoutBroker() { return }
        let broker = try Broker()
        let folder = ScratchFolder("bridge-gauges")
        var c = Self.configuration(broker, folder: folder.path)
        c.homeAssistant.enabled = false
        let bridge = try Self.bridge(c)
        bridge.begin(now: monotonicNow())
        #expect(Self.pump(bridge, nil) { bridge.client.connected }, "connected")
        // Subscribed once connected: a message published now arrives.
        try broker.publish("home/outside", "{\"t\": 7.5}")
        #expect(Self.pump(bridge, nil) { bridge.written == 1 })
        let metric = try #require(try bridge.store.metric(named: "mqtt:home/outside:t"))
        #expect(metric.value == 7.5)
        #expect(abs(Double(metric.updated) - Double(time(nil))) <= 2, "the metric's time is when it came")
        try broker.publish("home/outside", "{\"t\": \"cold\"}")
        try broker.publish("home/outside", "{\"t\": 8}")
        #expect(Self.pump(bridge, nil) { bridge.written == 2 })
        #expect(try bridge.store.metric(named: "mqtt:home/outside:t")?.value == 8, "the junk between was ignored")
    }

    @Test("the panel's side: a topic's gauge is the bridge's metric, × scale + offset, stale by the metric's time")
    func panelReadsTheMetric() throws {
        let folder = ScratchFolder("bridge-metric")
        let store = try Store(path: folder.path + "/glance.db")
        var gauge = GaugeFeedTests.gauge(.mqtt(topic: "home/power", field: "w", scale: 0.001, offset: 1))
        gauge.givenStaleAfter = .set(60)
        var wall = Double(time(nil))
        let feed = GaugeFeed(settings: [gauge], wallClock: { wall }, log: { _ in })
        _ = feed.readMetrics(store)
        #expect(feed.gauges()[0].value == nil, "no value before the bridge wrote one")
        try store.setMetric(MQTTTopic.metricName(topic: "home/power", field: "w"), value: 2500)
        #expect(feed.readMetrics(store))
        #expect(feed.gauges()[0].value == 3.5 && feed.gauges()[0].age == nil)
        wall += 61
        #expect(feed.gauges()[0].age != nil, "stale 60 s after the metric's time")
        #expect(feed.descriptors.isEmpty, "no broker of its own")
    }

    @Test("discovery: retained, one device, each entity with its unique id, valid by Home Assistant's schemas")
    func discovery() throws {
        if Self.skipWithoutBroker() { return }
        let broker = try Broker()
        let folder = ScratchFolder("bridge-discovery")
        let bridge = try Self.bridge(Self.configuration(broker, folder: folder.path))
        bridge.readHost = { HostFacts() }  // the machine's diagnostics: BridgeDiagnosticsTests
        bridge.begin(now: monotonicNow())
        let device = try #require(bridge.device)
        #expect(Self.pump(bridge, nil) { bridge.client.connected })
        _ = Self.pump(bridge, nil, seconds: 0.5) { false }  // the publishes written
        // All that is retained (no count: mosquitto_sub ends 2 s after the last), so one too many shows.
        let configs = try Self.retained(broker, device.prefix + "/+/+/+/config")
        #expect(configs.count == 21, "\(configs.map(\.topic))")
        var ids: Set<String> = []
        for (topic, payload) in configs {
            let json = try #require(try JSONSerialization.jsonObject(with: Data(payload.utf8)) as? [String: Any], "\(topic)")
            let id = try #require(json["unique_id"] as? String, "\(topic): a unique_id")
            #expect(ids.insert(id).inserted, "\(topic): \(id) used twice")
            let identifiers = (json["device"] as? [String: Any])?["identifiers"] as? [String]
            #expect(identifiers == [device.node], "\(topic): one device")
            let availability = (json["availability"] as? [[String: Any]])?.first?["topic"] ?? json["availability_topic"]
            #expect(availability as? String == device.availability, "\(topic): the bridge's availability first")
            #expect(topic.hasPrefix("homeassistant/") && topic.hasSuffix("/config"))
            // Home Assistant makes the entity id from the device's and the entity's names: no
            // object_id (deprecated from 2025.10, ignored from 2026.4), no default_entity_id.
            #expect(json["object_id"] == nil && json["default_entity_id"] == nil, "\(topic)")
            #expect(id == device.node + "_" + String(topic.split(separator: "/")[3]), "\(topic): the unique id as it always was")
        }
        #expect(try Self.retained(broker, device.availability, count: 1).first?.payload == "online")
        try Self.validate(configs)
    }

    /// Each message by Home Assistant's own schemas, of 2024.1.6 and of the current release
    /// (tools/ha-schemas.sh: each installed and cached on its first run); where a release cannot
    /// be installed, by the keys Home Assistant's documentation requires, said so.
    static func validate(_ configs: [(topic: String, payload: String)]) throws {
        for current in [false, true] {
            let result = try schemas(configs.map { "\($0.topic) \($0.payload)" }, current: current)
            let release = current ? "the current release" : "2024.1.6"
            if result.status == 69 {
                print("Home Assistant's schemas (\(release)) could not be installed (\(result.stderr.split(separator: "\n").last ?? "")): "
                    + "checked against the documented required keys instead")
                try requiredKeys(configs)
                continue
            }
            if !result.stderr.isEmpty { print(result.stderr) }
            #expect(result.status == 0, "\(release): \(result.stdout)")
            #expect(result.stdout.split(separator: "\n").filter { $0.hasPrefix("valid ") }.count == configs.count, "\(release): \(result.stdout)")
        }
    }

    /// tools/ha-schemas.sh (with --current: the current release) on `lines`.
    static func schemas(_ lines: [String], current: Bool) throws -> ProcessResult {
        let input = ScratchFolder("ha-schemas")
        let file = input.write("discovery.txt", lines.joined(separator: "\n") + "\n")
        return try runProcess("/bin/sh", ["-c", "exec '\(Repository.root)/tools/ha-schemas.sh' \(current ? "--current " : "")< '\(file)'"])
    }

    static func requiredKeys(_ configs: [(topic: String, payload: String)]) throws {
        let required: [String: [String]] = [
            "light": ["command_topic"], "select": ["command_topic", "options"], "button": ["command_topic"],
            "switch": ["command_topic"], "sensor": ["state_topic"], "event": ["state_topic", "event_types"],
            "image": ["image_topic"], "number": ["command_topic"], "notify": ["command_topic"],
        ]
        for (topic, payload) in configs {
            let component = String(topic.split(separator: "/")[1])
            let json = try JSONSerialization.jsonObject(with: Data(payload.utf8)) as? [String: Any] ?? [:]
            for key in try #require(required[component], "\(topic)") { #expect(json[key] != nil, "\(topic): \(key)") }
        }
    }

    @Test("the schema check: a key a later release defines passes an older one that drops it; a misspelt key or a broken template fails every release")
    func schemaCheckKnowsReleases() throws {
        let later = "homeassistant/button/n/later/config {\"name\":\"X\",\"command_topic\":\"a/b\",\"default_entity_id\":\"button.x\"}"
        let misspelt = "homeassistant/button/n/misspelt/config {\"name\":\"Y\",\"command_topic\":\"a/b\",\"comand_topic\":\"a/c\"}"
        // Templates are checked too (as Home Assistant's discovery does, with an instance of it).
        let broken = "homeassistant/sensor/n/broken/config {\"name\":\"Z\",\"state_topic\":\"a/b\",\"value_template\":\"{{ value_json.move \"}"
        for current in [false, true] {
            let result = try Self.schemas([later, misspelt, broken], current: current)
            if result.status == 69 {
                print("Home Assistant's schemas (\(current ? "the current release" : "2024.1.6")) could not be installed: not checked")
                continue
            }
            let lines = result.stdout.split(separator: "\n").map(String.init)
            #expect(result.status == 1, "\(result.output)")
            #expect(lines.contains { $0.hasPrefix("valid homeassistant/button/n/later/config") }, "\(result.output)")
            #expect(lines.contains { $0.hasPrefix("invalid homeassistant/button/n/misspelt/config") && $0.contains("comand_topic") }, "\(result.output)")
            #expect(lines.contains { $0.hasPrefix("invalid homeassistant/sensor/n/broken/config") && $0.contains("invalid template") }, "\(result.output)")
            // The older release drops default_entity_id, and says so; the current one keeps it.
            #expect(lines.contains { $0.contains("default_entity_id: defined from 2025.10, dropped by 2024.1.6") } == !current, "\(result.output)")
        }
    }

    @Test("each entity's command changes what the session shows, and its state topic follows")
    func commands() throws {
        if Self.skipWithoutBroker() { return }
        let broker = try Broker()
        let folder = ScratchFolder("bridge-commands")
        let c = Self.configuration(broker, folder: folder.path)
        let lines = LogLines()
        let (sink, session) = try Self.panel(c, log: lines.add)
        let controller = try #require(session.controller as? PanelController)
        let bridge = try Self.bridge(c, log: lines.add)
        bridge.begin(now: monotonicNow())
        let device = try #require(bridge.device)
        #expect(Self.pump(bridge, session) { bridge.client.connected && bridge.panelState != nil }, "\(lines.all)")
        #expect(bridge.panelState?.screen == .rings)

        func command(_ object: String, _ leaf: String, _ payload: String, until: () -> Bool) throws {
            try broker.publish(device.topic(object, leaf), payload)
            let done = Self.pump(bridge, session, until: until)
            #expect(done, "\(object)/\(leaf) \(payload): \(lines.all)")
        }
        // The select: the clock; the frame drawn is another.
        let framesBefore = sink.frames.count
        try command("screen", "set", "clock") { controller.navigation.screen == .clock && sink.frames.count > framesBefore }
        #expect(Self.pump(bridge, session) { (try? Self.state(broker, device, "screen")) == "clock" }, "the select's state")
        // The next screen button: back to the rings.
        try command("next", "press", "PRESS") { controller.navigation.screen == .rings }
        #expect(Self.pump(bridge, session) { (try? Self.state(broker, device, "screen")) == "rings" })
        // Today: from another day back to today.
        _ = controller.perform(.action(.previousDay), now: monotonicNow())
        #expect(controller.navigation.day != Self.day)
        try command("today", "press", "PRESS") { controller.navigation.day == Self.day }
        // Refresh: asked of the data.
        try command("refresh", "press", "PRESS") { lines.all.contains("refresh asked for") }
        // The cycle switch.
        try command("cycle", "set", "OFF") { controller.device.cycle == nil }
        #expect(Self.pump(bridge, session) { (try? Self.state(broker, device, "cycle")) == "OFF" })
        try command("cycle", "set", "ON") { controller.device.cycle != nil }
        // The light: brightness dims the picture (no backlight here), off blanks it, on lights it.
        let full = SessionTests.brightest(try #require(sink.lastFrame))
        try command("brightness", "set", "40") {
            controller.device.awakeBrightness == 0.4 && sink.lastFrame.map(SessionTests.brightest).map { $0 < full } == true
        }
        #expect(Self.pump(bridge, session) { (try? Self.state(broker, device, "brightness")) == "40" })
        // The idle numbers: whole seconds (Home Assistant may send 45.0), 0 never; their states follow.
        #expect(Self.pump(bridge, session) { (try? Self.state(broker, device, "dim")) == "0" }, "never dims, as configured")
        try command("dim", "set", "45.0") { controller.device.idleSchedule.dimAfter == 45 }
        #expect(Self.pump(bridge, session) { (try? Self.state(broker, device, "dim")) == "45" })
        try command("blank", "set", "600") { controller.device.idleSchedule.blankAfter == 600 }
        #expect(Self.pump(bridge, session) { (try? Self.state(broker, device, "blank")) == "600" })
        try command("dim", "set", "0") { controller.device.idleSchedule.dimAfter == nil }
        try command("blank", "set", "45.5") { lines.all.contains("expected whole seconds") }
        try command("light", "set", "OFF") { controller.blanked && sink.lastFrame.map(SessionTests.brightest) == 0 }
        #expect(Self.pump(bridge, session) { (try? Self.state(broker, device, "light")) == "OFF" })
        try command("light", "set", "ON") { !controller.blanked && sink.lastFrame.map(SessionTests.brightest).map { $0 > 0 } == true }
        #expect(Self.pump(bridge, session) { (try? Self.state(broker, device, "light")) == "ON" })
        // Today's rings, from the store the bridge reads (no figures here: nulls, the configured
        // goals), and the last touch (none: nothing said, Home Assistant shows unknown).
        #expect(try Self.state(broker, device, "today")?.hasPrefix("{\"move\":null,\"move_goal\":500") == true)
        #expect(try Self.state(broker, device, "touched") == nil)
        // Junk on a command topic: refused, said.
        try command("screen", "set", "kitchen") { lines.all.contains("expected a screen's name") }
        // Restart: refused by a panel nothing would start again (answered as the Refused command
        // event), taken by one under systemd (the session ends at its next turn: put back here).
        let answered = bridge.refusedAnswered
        try command("restart", "press", "PRESS") { bridge.refusedAnswered > answered }
        #expect(controller.endReason == nil)
        controller.restartable = true
        try command("restart", "press", "PRESS") { controller.endReason?.contains("restart asked") == true }
        controller.restartable = false
        controller.restartAsked = nil
        // A retained command is an old one: never acted on. (The other bridge on a store of its
        // own: one bridge per store.)
        try broker.publish(device.topic("screen", "set"), "clock", retain: true)
        var otherConfiguration = c
        otherConfiguration.database = folder.path + "/other.db"
        let other = try Self.bridge(otherConfiguration, log: lines.add)
        other.begin(now: monotonicNow())
        #expect(Self.pump(other, session) { lines.all.contains("a retained message, ignored") }, "\(lines.all)")
        #expect(controller.navigation.screen == .rings)
    }

    @Test("availability: offline when the bridge is killed with SIGKILL (its last will), online when it runs again")
    func availability() throws {
        if Self.skipWithoutBroker() { return }
        let broker = try Broker()
        let folder = ScratchFolder("bridge-availability")
        let c = Self.configuration(broker, folder: folder.path)
        let file = folder.path + "/config.json"
        try """
        {"mqtt": {"broker": "mqtt://127.0.0.1:\(broker.port)", "keepAlive": 5}, "database": "\(folder.path)/glance.db",
         "homeAssistant": {"name": "Test panel"}}
        """.write(toFile: file, atomically: true, encoding: .utf8)
        let device = try #require(try Self.bridge(c).device)
        func availability() -> String? { (try? Self.retained(broker, device.availability, count: 1))?.first?.payload }
        func waitFor(_ wanted: String) -> Bool {
            for _ in 0..<100 {
                if availability() == wanted { return true }
                usleep(100_000)
            }
            return false
        }
        func start() throws -> ChildProcess {
            try ChildProcess(GlanceExecutable.words(["mqtt", "--config", file, "--socket", folder.path + "/none.sock"]), captureOutput: true)
        }
        var process = try start()
        #expect(waitFor("online"), "online while it runs: \(String(decoding: process.output, as: UTF8.self))")
        kill(process.pid, SIGKILL)
        while process.poll() == nil { usleep(10_000) }
        #expect(waitFor("offline"), "offline by the last will")
        process = try start()
        #expect(waitFor("online"), "online again")
        kill(process.pid, SIGTERM)
        while process.poll() == nil { usleep(10_000) }
        #expect(availability() == "offline", "offline said on a clean stop")
    }
}

/// mosquitto_sub on `topic` (its lines kept: `TOPIC PAYLOAD`), handed back once it is surely
/// subscribed: a topic of its own is published until its message comes back, `pump` (the bridge and
/// the session turned meanwhile) given at most 0.2 s each time. Ended after 30 s, or by `stop`.
final class TopicListener {
    let process: ChildProcess
    private(set) var subscribed = false

    init(_ broker: Broker, _ topic: String, ready: String, pump: (_ seconds: Double, _ until: () -> Bool) -> Bool) throws {
        process = try ChildProcess(
            ["/usr/bin/mosquitto_sub", "-h", "127.0.0.1", "-p", "\(broker.port)", "-t", topic, "-t", ready, "-v", "-W", "30"],
            captureOutput: true, outputLimit: 1 << 16)
        for _ in 0..<50 where !subscribed {
            try broker.publish(ready, "1")
            subscribed = pump(0.2) { heard.contains(ready) }
        }
    }

    /// What it heard so far.
    var heard: String {
        _ = process.poll()
        return String(decoding: process.output, as: UTF8.self)
    }

    /// The first line heard on `topic`: its payload.
    func payload(on topic: String) -> String? {
        heard.split(separator: "\n").first { $0.hasPrefix(topic + " ") }.map { String($0.dropFirst(topic.utf8.count + 1)) }
    }

    func stop() { process.stop() }
}

/// Log lines collected from a session and a bridge.
final class LogLines: @unchecked Sendable {
    private(set) var lines: [String] = []
    func add(_ line: String) { lines.append(line) }
    var all: String { lines.joined(separator: "\n") }
}
