@testable import DeviceLogic
import Activity
import Clocks
import Configuration
import Controls
import Foundation
import Platform
import Store
import TestSupport
import Testing

@testable import HomeBridge
@testable import Runtime

#if canImport(Glibc)
    import Glibc
#endif

/// Issue 37's attacks on `glance mqtt` (and issue 36's "states that are true"), each against a
/// real Mosquitto broker, a real store file, real `glance mqtt` processes: a flood of Home
/// Assistant's `online`, a second bridge for the same store, a store held busy by another
/// process, today's figures as the panel shows them, a bridge without Home Assistant kept off the
/// panel's socket, the select's options, the entities configured, the refusals per topic.
@Suite("glance mqtt against hostile neighbours: a real broker, real processes, a real store", .timeLimit(.minutes(10)))
struct BridgeHardeningTests {
    /// A configuration file for a `glance mqtt` process: the broker, the store in `folder`, one
    /// gauge topic, Home Assistant on or off.
    static func configFile(_ broker: Broker, folder: String, homeAssistant: Bool = true) throws -> String {
        let file = folder + "/config.json"
        try """
        {"mqtt": {"broker": "mqtt://127.0.0.1:\(broker.port)", "keepAlive": 5}, "database": "\(folder)/glance.db",
         "homeAssistant": {"enabled": \(homeAssistant), "name": "Test panel"},
         "gauges": [{"title": "Out", "source": {"mqtt": "home/outside"}}]}
        """.write(toFile: file, atomically: true, encoding: .utf8)
        return file
    }

    /// `glance mqtt` as its own process (its output and standard error kept, the shell exec'd
    /// away: the pid is the bridge's), the panel's socket at `socket`.
    static func startBridge(config: String, socket: String) throws -> ChildProcess {
        try ChildProcess(
            ["/bin/sh", "-c", "exec \"$@\" 2>&1", "sh"] + GlanceExecutable.words(["mqtt", "--config", config, "--socket", socket]),
            captureOutput: true, outputLimit: 1 << 20)
    }

    /// Waits at most `seconds` for `condition`.
    static func wait(seconds: Double, _ condition: () -> Bool) -> Bool {
        let end = Date().addingTimeInterval(seconds)
        while Date() < end {
            if condition() { return true }
            usleep(50_000)
        }
        return condition()
    }

    /// What the device's availability topic holds now.
    static func availability(_ broker: Broker) -> String? {
        (try? HomeAssistantTests.retained(broker, "glance/+/availability", count: 1))?.first?.payload
    }

    /// A process's resident memory, kB (/proc/PID/status VmRSS).
    static func residentKB(_ pid: pid_t) -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix("VmRSS:") {
            return Int(line.split(separator: " ").dropFirst().first ?? "")
        }
        return nil
    }

    /// Ends `process` with SIGTERM (SIGKILL after 10 s); its status.
    @discardableResult
    static func stop(_ process: ChildProcess) -> ChildProcess.Status? {
        kill(process.pid, SIGTERM)
        _ = wait(seconds: 10) { process.poll() != nil }
        process.stop()
        return process.poll()
    }

    // MARK: 37.1 Discovery amplification

    @Test(
        "a flood of Home Assistant's online gives a bounded number of configuration messages, and the bridge's memory stays bounded")
    func onlineFlood() throws {
        if HomeAssistantTests.skipWithoutBroker() { return }
        let broker = try Broker()
        let folder = ScratchFolder("bridge-flood")
        let config = try Self.configFile(broker, folder: folder.path)
        let bridge = try Self.startBridge(config: config, socket: folder.path + "/none.sock")
        defer { Self.stop(bridge) }
        #expect(Self.wait(seconds: 20) { Self.availability(broker) == "online" }, "\(String(decoding: bridge.output, as: UTF8.self))")
        // Settled: its memory before the flood.
        usleep(500_000)
        let before = try #require(Self.residentKB(bridge.pid))
        // Every configuration message the broker passes on during the flood and 12 s after it
        // (one pacing interval and more), counted by topic.
        let topics = folder.path + "/configs.txt"
        let listener = try ChildProcess([
            "/bin/sh", "-c",
            "exec /usr/bin/mosquitto_sub -h 127.0.0.1 -p \(broker.port) -t 'homeassistant/+/+/+/config' -F '%t' -W 14 > '\(topics)'",
        ])
        defer { listener.stop() }
        usleep(300_000)  // subscribed
        try broker.publishLines("homeassistant/status", Array(repeating: "online", count: 5000))
        #expect(Self.wait(seconds: 30) { listener.poll() != nil }, "mosquitto_sub ends after -W 14")
        let heard = (try String(contentsOfFile: topics, encoding: .utf8)).split(separator: "\n")
        let count = heard.count
        let entities = Set(heard).count
        let after = try #require(Self.residentKB(bridge.pid))
        // The entities' (15 here) retained at subscription, then at most one republish at once
        // and one pending 10 s later: three times as many. Unpaced, 5,000 onlines were 70,000.
        #expect(entities >= 14, "every entity's configuration: \(Set(heard).sorted())")
        #expect(count >= entities && count <= 3 * entities, "\(count) configuration messages for 5,000 onlines")
        #expect(count > entities, "the online asked for during the interval was answered when it passed: \(count)")
        #expect(after - before < 8 * 1024, "the bridge grew from \(before) kB to \(after) kB")
        #expect(bridge.poll() == nil, "still running")
    }

    @Test("the pacing: onlines while one is pending are that one; republishes at least the interval apart")
    func pacing() {
        var p = RepublishPacing(interval: .seconds(10))
        p.done(now: .seconds(100))  // the connect
        for _ in 0..<1000 { p.ask() }
        #expect(!p.due(now: .seconds(105)) && p.deadline == .seconds(110))
        #expect(p.due(now: .seconds(110)))
        p.done(now: .seconds(110))
        #expect(!p.due(now: .seconds(130)) && p.deadline == nil, "nothing asked: nothing pending")
        p.ask()
        #expect(p.due(now: .seconds(130)), "asked after a quiet interval: at once")
    }

    // MARK: 37.4 Two bridges

    @Test("a second glance mqtt for the same store exits 75 and says why; the first goes on serving, online")
    func oneBridgePerStore() throws {
        if HomeAssistantTests.skipWithoutBroker() { return }
        let broker = try Broker()
        let folder = ScratchFolder("bridge-two")
        let config = try Self.configFile(broker, folder: folder.path)
        let first = try Self.startBridge(config: config, socket: folder.path + "/none.sock")
        defer { Self.stop(first) }
        #expect(Self.wait(seconds: 20) { Self.availability(broker) == "online" })
        let second = try Self.startBridge(config: config, socket: folder.path + "/none.sock")
        defer { Self.stop(second) }
        let ended = Self.wait(seconds: 20) { second.poll() != nil }
        let said = String(decoding: second.output, as: UTF8.self)
        #expect(ended, "the second bridge runs beside the first: \(said)")
        #expect(second.poll() == .exited(75), "\(String(describing: second.poll())): \(said)")
        #expect(said.contains("another glance mqtt already bridges the store"), "\(said)")
        #expect(first.poll() == nil, "the first still runs")
        #expect(Self.availability(broker) == "online", "the device still online")
        // The first still bridges: a gauge's number reaches the store.
        try broker.publish("home/outside", "21.5")
        let store = try Store(path: folder.path + "/glance.db")
        #expect(Self.wait(seconds: 10) { (try? store.metric(named: "mqtt:home/outside"))??.value == 21.5 })
        // Once the first has stopped, a bridge may start again.
        Self.stop(first)
        let third = try Self.startBridge(config: config, socket: folder.path + "/none.sock")
        defer { Self.stop(third) }
        #expect(Self.wait(seconds: 20) { Self.availability(broker) == "online" }, "\(String(decoding: third.output, as: UTF8.self))")
        #expect(third.poll() == nil)
    }

    // MARK: 37.5 A busy store

    /// `sqlite3` holding the store's write lock (BEGIN IMMEDIATE) for `seconds`, from another
    /// process; returns once the lock is held.
    static func holdWriteLock(_ database: String, seconds: Double, folder: String) throws -> ChildProcess {
        let marker = folder + "/locked-\(UInt32.random(in: 0...UInt32.max))"
        let script = "BEGIN IMMEDIATE;\n"
            + ".shell touch '\(marker)'; sleep \(seconds)\nCOMMIT;\n"
        let file = folder + "/hold.sql"
        try script.write(toFile: file, atomically: true, encoding: .utf8)
        let process = try ChildProcess(["/bin/sh", "-c", "exec /usr/bin/sqlite3 '\(database)' < '\(file)'"], captureOutput: true)
        #expect(wait(seconds: 10) { FileManager.default.fileExists(atPath: marker) }, "sqlite3 holds the lock")
        return process
    }

    @Test("a gauge value arriving while another process holds the store's write lock lands once it is released")
    func busyStoreRetried() throws {
        if HomeAssistantTests.skipWithoutBroker() { return }
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/sqlite3") else {
            Issue.record("sqlite3 is not installed (make deps installs it)")
            return
        }
        let broker = try Broker()
        let folder = ScratchFolder("bridge-busy")
        var c = HomeAssistantTests.configuration(broker, folder: folder.path)
        c.homeAssistant.enabled = false
        let lines = LogLines()
        let bridge = try HomeAssistantTests.bridge(c, log: lines.add)
        bridge.begin(now: monotonicNow())
        #expect(HomeAssistantTests.pump(bridge, nil) { bridge.client.connected })
        let holder = try Self.holdWriteLock(folder.path + "/glance.db", seconds: 1.5, folder: folder.path)
        defer { holder.stop() }
        try broker.publish("home/outside", "{\"t\": 4.5}")
        // Held: not written yet, kept.
        #expect(HomeAssistantTests.pump(bridge, nil, seconds: 5) { !bridge.pending.values.isEmpty }, "\(lines.all)")
        #expect(bridge.written == 0)
        // Released: written.
        #expect(HomeAssistantTests.pump(bridge, nil, seconds: 10) { bridge.written == 1 }, "\(lines.all)")
        #expect(try bridge.store.metric(named: "mqtt:home/outside:t")?.value == 4.5)
        #expect(holder.poll() == .exited(0), "sqlite3: \(String(decoding: holder.output, as: UTF8.self))")
        #expect(!lines.all.contains("ignored"), "\(lines.all)")
    }

    @Test("a store busy past the limit: the value given up, said once naming its topic; the next value lands")
    func busyStoreGivenUp() throws {
        if HomeAssistantTests.skipWithoutBroker() { return }
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/sqlite3") else {
            Issue.record("sqlite3 is not installed (make deps installs it)")
            return
        }
        let broker = try Broker()
        let folder = ScratchFolder("bridge-busy-limit")
        var c = HomeAssistantTests.configuration(broker, folder: folder.path)
        c.homeAssistant.enabled = false
        let lines = LogLines()
        let bridge = try HomeAssistantTests.bridge(c, log: lines.add)
        bridge.pending = PendingValues(limit: .seconds(1))
        bridge.begin(now: monotonicNow())
        #expect(HomeAssistantTests.pump(bridge, nil) { bridge.client.connected })
        let holder = try Self.holdWriteLock(folder.path + "/glance.db", seconds: 3, folder: folder.path)
        defer { holder.stop() }
        try broker.publish("home/outside", "{\"t\": 1}")
        #expect(HomeAssistantTests.pump(bridge, nil, seconds: 10) { lines.all.contains("the store stayed busy") }, "\(lines.all)")
        let said = lines.lines.filter { $0.contains("the store stayed busy") }
        #expect(said.count == 1 && said[0].contains("topic home/outside") && said[0].contains("the value 1 was not written"), "\(said)")
        #expect(bridge.pending.values.isEmpty && bridge.written == 0)
        _ = Self.wait(seconds: 10) { holder.poll() != nil }
        try broker.publish("home/outside", "{\"t\": 2}")
        #expect(HomeAssistantTests.pump(bridge, nil) { bridge.written == 1 })
        #expect(try bridge.store.metric(named: "mqtt:home/outside:t")?.value == 2)
    }

    @Test("the retries' pauses grow to 2 s; the latest value kept, the limit counted from the first failure")
    func pendingValues() {
        var p = PendingValues(limit: .seconds(30))
        p.failed(metric: "m", topic: "t", value: 1, now: .seconds(10))
        #expect(p.deadline == .seconds(10) + .milliseconds(250))
        p.failed(metric: "m", topic: "t", value: 2, now: .seconds(11))
        #expect(p.values["m"]?.value == 2 && p.values["m"]?.since == .seconds(10) && p.deadline == .seconds(11) + .milliseconds(500))
        for _ in 0..<10 { p.failed(metric: "m", topic: "t", value: 3, now: .seconds(12)) }
        #expect(p.deadline == .seconds(14), "at most 2 s apart")
        let v = p.values["m"]!
        #expect(!p.expired(v, now: .seconds(39)) && p.expired(v, now: .seconds(40)))
        p.written(metric: "m")
        #expect(p.deadline == nil)
    }

    // MARK: 37.6 / 36.5 Today as the panel shows it

    @Test("today/state is what the panel shows: the day's samples summed, the goals from the configuration, then from glance goals")
    func todayAsShown() throws {
        if HomeAssistantTests.skipWithoutBroker() { return }
        let broker = try Broker()
        let folder = ScratchFolder("bridge-today")
        var c = HomeAssistantTests.configuration(broker, folder: folder.path)
        c.goals.move = 500
        let day = HomeAssistantTests.day
        // Samples only (no day row): what Health Auto Export sends.
        let store = try Store(path: folder.path + "/glance.db")
        let start = Int64(day.daysSinceEpoch) * 86400 + 3600
        try store.putSamples([
            Store.Sample(metric: .activeEnergy, start: start, quantity: 200, unit: "kcal", value: 200, day: day),
            Store.Sample(metric: .activeEnergy, start: start + 600, quantity: 121, unit: "kcal", value: 121, day: day),
            Store.Sample(metric: .exerciseTime, start: start, quantity: 12, unit: "min", value: 12, day: day),
        ])
        let bridge = try HomeAssistantTests.bridge(c)
        bridge.begin(now: monotonicNow())
        let device = try #require(bridge.device)
        func today() -> [String: Any]? {
            guard let text = try? HomeAssistantTests.state(broker, device, "today") else { return nil }
            return try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
        }
        // The panel's own reading of the same store.
        let panel = try StoreData(path: folder.path + "/glance.db", gauges: [], goals: c.goals.standing, log: { _ in })
        let shown = try #require(panel.summary(for: day))
        #expect(shown.activeEnergyBurned?.value == 321 && shown.activeEnergyBurnedGoal?.value == 500)
        #expect(HomeAssistantTests.pump(bridge, nil) { today()?["move"] as? Double == 321 }, "\(String(describing: today()))")
        let state = try #require(today())
        #expect(state["move_goal"] as? Double == 500, "\(state)")
        #expect(state["exercise"] as? Double == 12 && state["exercise_goal"] as? Double == 30, "\(state)")
        #expect(state["stand_goal"] as? Double == 12, "\(state)")
        // glance goals set: the bridge follows the store.
        try store.setGoals(Goals(move: .kilocalories(600)), from: day)
        #expect(HomeAssistantTests.pump(bridge, nil) { today()?["move_goal"] as? Double == 600 }, "\(String(describing: today()))")
    }

    @Test("a day with nothing yet: today/state has the goals, the figures null")
    func todayGoalsBeforeFigures() throws {
        let folder = ScratchFolder("store-today-empty")
        let store = try Store(path: folder.path + "/glance.db")
        let day = HomeAssistantTests.day
        var defaults = Goals()
        defaults.move = .kilocalories(450)
        defaults.exercise = 20
        let summary = try store.shownToday(day, defaults: defaults)
        #expect(summary.activeEnergyBurned == nil && summary.activeEnergyBurnedGoal?.value == 450 && summary.exerciseTimeGoal == 20)
        #expect(try store.shownSummary(for: day, defaults: defaults) == nil, "the panel's own reading: no day")
    }

    @Test("glance export --json carries the goals the panel shows: the configuration's where the day and glance goals have none")
    func exportCarriesGoals() throws {
        let folder = ScratchFolder("export-goals")
        let db = folder.path + "/glance.db"
        let store = try Store(path: db)
        let day = HomeAssistantTests.day
        try store.setSummary(ActivitySummary(activeEnergyBurned: .kilocalories(321)), for: day)
        let config = folder.path + "/config.json"
        try "{\"goals\": {\"move\": 650, \"exercise\": 40, \"stand\": 10}}".write(toFile: config, atomically: true, encoding: .utf8)
        let r = try runGlance(["export", "--json", "--db", db, "--config", config])
        #expect(r.status == 0, "\(r.stderr)")
        let json = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any]
        let days = try #require(json?["days"] as? [[String: Any]])
        #expect(days.count == 1)
        #expect(days.first?["move"] as? Double == 321 && days.first?["moveGoal"] as? Double == 650, "\(days)")
        #expect(days.first?["exerciseGoal"] as? Double == 40 && days.first?["standGoal"] as? Double == 10, "\(days)")
        // The panel draws the same.
        let panel = try StoreData(path: db, gauges: [], goals: Goals(move: .kilocalories(650), exercise: 40, stand: 10), log: { _ in })
        #expect(panel.summary(for: day)?.activeEnergyBurnedGoal?.value == 650)
        // A bad configuration: said, 78, nothing written.
        try "{\"goals\": {\"move\": \"lots\"}}".write(toFile: config, atomically: true, encoding: .utf8)
        let bad = try runGlance(["export", "--json", "--db", db, "--config", config])
        #expect(bad.status == 78 && bad.stdout.isEmpty, "\(bad.status) \(bad.stderr)")
    }

    // MARK: 37.11 Gauge topics

    @Test("gauge topics MQTT cannot carry fail glance config check with 78, naming the gauge and what to do")
    func unusableTopics() throws {
        let folder = ScratchFolder("config-topics")
        let long = String(repeating: "x", count: 70_000)
        let cases: [(topic: String, said: String)] = [
            ("home\\u0000outside", "NUL"), ("home\\u001boutside", "control character (U+001B)"),
            ("home\\u0085outside", "control character (U+0085)"), (long, "70000 bytes; MQTT takes at most 65535"),
            ("home/+/temperature", "wildcards"), ("", "non-empty"),
        ]
        for (i, c) in cases.enumerated() {
            let file = folder.path + "/config-\(i).json"
            try "{\"gauges\": [{\"title\": \"Out\", \"source\": {\"mqtt\": \"\(c.topic)\"}}]}"
                .write(toFile: file, atomically: true, encoding: .utf8)
            let r = try runGlance(["config", "check", "--config", file])
            #expect(r.status == 78, "\(c.said): \(r.status) \(r.stdout) \(r.stderr)")
            #expect(r.stderr.contains("$.gauges[0].source.mqtt") && r.stderr.contains(c.said), "\(c.said): \(r.stderr.prefix(400))")
            #expect(r.stderr.utf8.count < 2000, "the topic clipped in the message")
        }
        // Empty levels are MQTT's own: fine.
        let file = folder.path + "/config-ok.json"
        try """
        {"mqtt": {"broker": "mqtt://127.0.0.1:1883"}, "gauges": [{"title": "Out", "source": {"mqtt": "home//outside"}}]}
        """.write(toFile: file, atomically: true, encoding: .utf8)
        let ok = try runGlance(["config", "check", "--config", file])
        #expect(ok.status == 0, "\(ok.stderr)")
    }

    // MARK: 37 "What to build" 3: no watch slot without Home Assistant

    @Test("glance mqtt with Home Assistant off never connects to the panel's control socket")
    func noWatchSlotWithoutHomeAssistant() throws {
        if HomeAssistantTests.skipWithoutBroker() { return }
        let broker = try Broker()
        let folder = ScratchFolder("bridge-no-slot")
        let config = try Self.configFile(broker, folder: folder.path, homeAssistant: false)
        let socket = folder.path + "/glance.sock"
        let listener = try PacketListener(path: socket)
        let bridge = try Self.startBridge(config: config, socket: socket)
        defer { Self.stop(bridge) }
        // Running and bridging: a gauge's number reaches the store.
        let store = try Store(path: folder.path + "/glance.db")
        let landed = Self.wait(seconds: 20) {
            try? broker.publish("home/outside", "3")
            return (try? store.metric(named: "mqtt:home/outside"))??.value == 3
        }
        #expect(landed, "\(String(decoding: bridge.output, as: UTF8.self))")
        usleep(1_500_000)  // the panel link would have connected (and retried every second) by now
        let connection = try listener.accept()
        #expect(connection == nil, "the bridge took one of the panel's watch slots without Home Assistant")
        #expect(!String(decoding: bridge.output, as: UTF8.self).contains("no running panel"), "nothing said of a panel it does not need")
    }

    // MARK: 36.5 States that are true

    @Test(
        "discovery and states: the select offers a schedule window's screens, no cycle switch without a cycle, no None for the last touch")
    func statesThatAreTrue() throws {
        if HomeAssistantTests.skipWithoutBroker() { return }
        let broker = try Broker()
        let folder = ScratchFolder("bridge-true")
        var c = HomeAssistantTests.configuration(broker, folder: folder.path)
        c.screens = [.rings]
        c.cycle = nil
        var evening = ScheduleWindowSetting(from: 21 * 60, to: 23 * 60)
        evening.screens = [.clock]
        c.schedule = [evening]
        let lines = LogLines()
        let (_, session) = try HomeAssistantTests.panel(c, log: lines.add)
        let bridge = try HomeAssistantTests.bridge(c, log: lines.add)
        bridge.begin(now: monotonicNow())
        let device = try #require(bridge.device)
        #expect(HomeAssistantTests.pump(bridge, session) { bridge.client.connected && bridge.panelState != nil }, "\(lines.all)")
        _ = HomeAssistantTests.pump(bridge, session, seconds: 0.5) { false }
        let configs = try HomeAssistantTests.retained(broker, device.prefix + "/+/+/+/config", count: 13)
        #expect(configs.count == 13, "no cycle switch: \(configs.map(\.topic))")
        #expect(!configs.contains { $0.topic.contains("/switch/") }, "\(configs.map(\.topic))")
        let select = try #require(configs.first { $0.topic.contains("/select/") })
        let options = (try JSONSerialization.jsonObject(with: Data(select.payload.utf8)) as? [String: Any])?["options"] as? [String]
        #expect(options == ["rings", "clock"], "\(String(describing: options))")
        #expect(HomeAssistantTests.pump(bridge, session) { (try? HomeAssistantTests.state(broker, device, "screen")) == "rings" })
        // No touch yet: nothing on the timestamp sensor's topic (Home Assistant would log "None").
        #expect(try HomeAssistantTests.state(broker, device, "touched") == nil)
        #expect(try HomeAssistantTests.state(broker, device, "cycle") == nil, "no cycle: no cycle state")
        try HomeAssistantTests.validate(configs)
    }

    @Test("each command topic's refusal is said, not hidden by another topic's within the minute")
    func refusalsPerTopic() throws {
        if HomeAssistantTests.skipWithoutBroker() { return }
        let broker = try Broker()
        let folder = ScratchFolder("bridge-refusals")
        let c = HomeAssistantTests.configuration(broker, folder: folder.path)
        let lines = LogLines()
        let bridge = try HomeAssistantTests.bridge(c, log: lines.add)
        bridge.begin(now: monotonicNow())
        let device = try #require(bridge.device)
        #expect(HomeAssistantTests.pump(bridge, nil) { bridge.client.connected })
        _ = HomeAssistantTests.pump(bridge, nil, seconds: 0.5) { false }
        try broker.publish(device.topic("screen", "set"), "kitchen")
        try broker.publish(device.topic("light", "set"), "maybe")
        try broker.publish(device.topic("brightness", "set"), "999")
        #expect(
            HomeAssistantTests.pump(bridge, nil) {
                lines.all.contains("expected a screen's name") && lines.all.contains("expected ON or OFF")
                    && lines.all.contains("expected a brightness from 0 to 100")
            }, "\(lines.all)")
        // The same topic again within the minute: once (bounded).
        for _ in 0..<20 { try broker.publish(device.topic("screen", "set"), "parlour") }
        _ = HomeAssistantTests.pump(bridge, nil, seconds: 1) { false }
        #expect(lines.lines.filter { $0.contains("screen/set") }.count == 1, "\(lines.all)")
    }
}
