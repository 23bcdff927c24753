import Activity
import Clocks
import Configuration
import Foundation
import Platform
import Store
import TestSupport
import Testing

@testable import Runtime
@testable import HomeBridge
import MQTT

/// glance mqtt's side of the gauges, against a real Mosquitto broker: the topics' numbers written
/// into the store as metrics (the panel reads them from there; it has no MQTT client of its own).
@Suite("The bridge's gauge topics, into the store", .timeLimit(.minutes(10)))
struct BridgeGaugeTests {
    final class Log: @unchecked Sendable {
        var lines: [String] = []
        func contains(_ text: String) -> Bool { lines.contains { $0.contains(text) } }
    }

    /// A bridge for `gauges` on `broker` (Home Assistant's device off), its store in `folder`.
    static func bridge(
        _ broker: Broker, _ gauges: [GaugeSetting], folder: ScratchFolder, keepAlive: Int = 5, password: String? = nil, log: Log
    ) throws -> MQTTBridge {
        var configuration = Configuration()
        configuration.gauges = gauges
        var mqtt = GaugeFeedTests.mqtt(broker, password: password, folder: password == nil ? nil : folder.path)
        mqtt.keepAlive = keepAlive
        configuration.mqtt = mqtt
        configuration.homeAssistant.enabled = false
        configuration.run.controlSocket = folder.path + "/none.sock"
        let store = try Store(path: folder.path + "/glance.db")
        let bridge = MQTTBridge(
            configuration: configuration, mqtt: mqtt, path: folder.path + "/glance.db", store: store, version: "test",
            clock: SystemLocalClock(), log: { log.lines.append($0) })
        bridge.begin(now: monotonicNow())
        return bridge
    }

    /// A real broker, or the test's failure when mosquitto is not installed (a required part).
    static func broker(password: String? = nil) throws -> Broker? {
        guard Broker.available else {
            Issue.record("mosquitto is not installed (make deps installs it: tools/debian-packages.txt)")
            return nil
        }
        return try Broker(password: password)
    }

    /// Turns the bridges (as their loop would) until `condition` holds.
    static func turn(_ bridges: [MQTTBridge], seconds: Double = 10, until condition: () -> Bool) -> Bool {
        let end = monotonicNow() + .milliseconds(Int64(seconds * 1000))
        while monotonicNow() < end {
            if condition() { return true }
            for bridge in bridges {
                let ready = (try? waitForReady(bridge.interests, timeout: .milliseconds(20))) ?? []
                _ = bridge.handle(ready: ready, now: monotonicNow())
            }
        }
        return condition()
    }

    static func value(_ bridge: MQTTBridge, _ metric: String) -> Double? {
        (try? bridge.store.metric(named: metric))?.flatMap(\.value)
    }

    static func gauge(_ topic: String, field: String? = nil, scale: Double = 1) -> GaugeSetting {
        GaugeFeedTests.gauge(.mqtt(topic: topic, field: field, scale: scale, offset: 0))
    }

    @Test("values from topics: a number, JSON with a dotted field, a retained value at start; a payload without the field is ignored and told once")
    func topics() throws {
        guard let broker = try Self.broker() else { return }
        try broker.publish("home/outside/temperature", "7.5", retain: true)
        let folder = ScratchFolder("bridge-topics")
        let log = Log()
        let bridge = try Self.bridge(
            broker,
            [
                Self.gauge("home/outside/temperature"), Self.gauge("zigbee2mqtt/living_room", field: "humidity"),
                Self.gauge("homeassistant/sensor/cpu", field: "state.attributes.values.1", scale: 0.5),
            ], folder: folder, log: log)
        let (t, h, c) = ("mqtt:home/outside/temperature", "mqtt:zigbee2mqtt/living_room:humidity", "mqtt:homeassistant/sensor/cpu:state.attributes.values.1")
        #expect(Self.turn([bridge]) { Self.value(bridge, t) == 7.5 }, "the retained value at start: \(log.lines)")
        try broker.publish("zigbee2mqtt/living_room", "{\"temperature\": 21.3, \"humidity\": 47}")
        try broker.publish("homeassistant/sensor/cpu", "{\"state\": {\"attributes\": {\"values\": [1, \"80\"]}}}")
        #expect(Self.turn([bridge]) { Self.value(bridge, h) == 47 && Self.value(bridge, c) == 80 }, "the raw numbers, the scale is the panel's")
        for _ in 0..<3 { try broker.publish("zigbee2mqtt/living_room", "{\"temperature\": 21.3}") }
        try broker.publish("home/outside/temperature", "9")
        #expect(Self.turn([bridge]) { Self.value(bridge, t) == 9 })
        #expect(Self.value(bridge, h) == 47, "a payload without the field keeps the last value")
        #expect(log.lines.filter { $0.contains("no humidity") }.count == 1, "told once: \(log.lines)")
        // The panel's feed reads them from the store, with the gauge's scale.
        let feed = GaugeFeed(
            settings: [Self.gauge("home/outside/temperature"), Self.gauge("homeassistant/sensor/cpu", field: "state.attributes.values.1", scale: 0.5)],
            log: { _ in })
        _ = feed.readMetrics(bridge.store)
        #expect(feed.gauges().map(\.value) == [9, 40], "\(feed.gauges().map(\.value))")
    }

    /// Issue 24, X2: every distinct unusable payload added a journal line: anyone who can publish
    /// on a gauge's topic could fill the journal.
    @Test("a thousand distinct junk payloads: at most two log lines, escaped; the topic still live")
    func junkPayloads() throws {
        guard let broker = try Self.broker() else { return }
        let folder = ScratchFolder("bridge-junk")
        let log = Log()
        let bridge = try Self.bridge(broker, [Self.gauge("t")], folder: folder, log: log)
        try broker.publish("t", "1", retain: true)
        #expect(Self.turn([bridge]) { Self.value(bridge, "mqtt:t") == 1 }, "\(log.lines)")
        let junk = (0..<1000).map { "junk-\($0)-\u{1B}[2J" }
        try broker.publishLines("t", junk + ["42"])
        #expect(Self.turn([bridge]) { Self.value(bridge, "mqtt:t") == 42 }, "the last message, a number, still comes: \(log.lines.suffix(3))")
        let lines = log.lines.filter { $0.contains("junk-") }
        #expect(!lines.isEmpty && lines.count <= 2, "\(lines.count) log lines for 1000 junk payloads")
        #expect(lines.allSatisfy { !$0.unicodeScalars.contains { $0.value == 0x1B } }, "escaped: \(lines)")
    }

    /// Issue 24, W3: 1e308 became infinite after a scale of 10 and the gauge lost its value.
    @Test("a value beyond ±10^15 is refused and said; the last good value stays, and the panel scales what is stored")
    func beyondTheLimit() throws {
        guard let broker = try Self.broker() else { return }
        let folder = ScratchFolder("bridge-limit")
        let log = Log()
        let bridge = try Self.bridge(broker, [Self.gauge("t", scale: 10)], folder: folder, log: log)
        try broker.publish("t", "5", retain: true)
        #expect(Self.turn([bridge]) { Self.value(bridge, "mqtt:t") == 5 })
        try broker.publishLines("t", ["1e308", "-1e308"])
        #expect(Self.turn([bridge]) { log.lines.filter { $0.contains("beyond") }.count >= 1 }, "\(log.lines)")
        #expect(Self.value(bridge, "mqtt:t") == 5, "nothing infinite was ever stored")
        try broker.publish("t", "6")
        #expect(Self.turn([bridge]) { Self.value(bridge, "mqtt:t") == 6 })
        let feed = GaugeFeed(settings: [Self.gauge("t", scale: 10)], log: { _ in })
        _ = feed.readMetrics(bridge.store)
        #expect(feed.gauges()[0].value == 60)
    }

    /// Issue 24, D3: two clients on one host with the same client id knocked each other off for ever.
    @Test("two bridges on one host have their own client ids: both stay connected and get every value")
    func twoClientsOneHost() throws {
        guard let broker = try Self.broker() else { return }
        #expect(MQTTBridge.clientId() != MQTTBridge.clientId(), "an id of its own each time")
        #expect(MQTTBridge.clientId().utf8.count <= 23 && MQTTBridge.clientId().hasPrefix("glance-"))
        let folders = [ScratchFolder("bridge-two-a"), ScratchFolder("bridge-two-b")]
        let log = Log()
        let bridges = try folders.map { try Self.bridge(broker, [Self.gauge("t")], folder: $0, log: log) }
        try broker.publish("t", "0", retain: true)
        #expect(Self.turn(bridges) { bridges.allSatisfy { Self.value($0, "mqtt:t") == 0 } })
        for n in 1...10 {
            try broker.publish("t", "\(n)")
            #expect(Self.turn(bridges, seconds: 5) { bridges.allSatisfy { Self.value($0, "mqtt:t") == Double(n) } }, "value \(n)")
        }
        _ = Self.turn(bridges, seconds: 2) { false }
        #expect(bridges.allSatisfy { $0.client.losses == 0 }, "\(bridges.map { $0.client.losses })")
    }

    @Test("the broker goes away: said, tried again; it comes back: values again, no restart")
    func brokerAwayAndBack() throws {
        guard let broker = try Self.broker() else { return }
        let folder = ScratchFolder("bridge-away")
        let log = Log()
        let bridge = try Self.bridge(broker, [Self.gauge("t")], folder: folder, log: log)
        try broker.publish("t", "42", retain: true)
        #expect(Self.turn([bridge]) { Self.value(bridge, "mqtt:t") == 42 })
        broker.stop()
        #expect(Self.turn([bridge], seconds: 15) { log.contains("trying again") }, "\(log.lines)")
        #expect(Self.value(bridge, "mqtt:t") == 42, "the last value is kept")
        try broker.start()
        try? broker.publish("t", "43")
        #expect(Self.turn([bridge], seconds: 30) {
            if Self.value(bridge, "mqtt:t") != 43 { try? broker.publish("t", "43") }
            return Self.value(bridge, "mqtt:t") == 43
        }, "values again after the broker came back: \(log.lines)")
        #expect(log.contains("connected again"), "\(log.lines)")
    }

    @Test("an idle connection asks for no wake-up before its keep-alive (half of it)")
    func idleWakeUps() throws {
        guard let broker = try Self.broker() else { return }
        let folder = ScratchFolder("bridge-idle")
        let bridge = try Self.bridge(broker, [Self.gauge("t")], folder: folder, keepAlive: 60, log: Log())
        try broker.publish("t", "1", retain: true)
        #expect(Self.turn([bridge]) { Self.value(bridge, "mqtt:t") == 1 })
        let now = monotonicNow()
        let next = try #require(bridge.client.nextDeadline(now: now))
        #expect(next - now > .seconds(25), "woken again in \(next - now)")
    }

    @Test("writes the socket cannot take yet: it is polled for writing (no timer) until they are out, and they arrive")
    func queuedWritesWaitForTheSocket() throws {
        guard let broker = try Self.broker() else { return }
        let folder = ScratchFolder("bridge-writes")
        let bridge = try Self.bridge(broker, [Self.gauge("t")], folder: folder, keepAlive: 60, log: Log())
        try broker.publish("t", "1", retain: true)
        #expect(Self.turn([bridge]) { Self.value(bridge, "mqtt:t") == 1 })
        #expect(bridge.client.interests.map(\.write) == [false], "nothing queued: read only")
        // The broker stopped: it reads nothing, so the socket fills and the rest stays queued.
        let pid = try #require(broker.process?.pid)
        kill(pid, SIGSTOP)
        // More than the broker's first 20 in flight (QoS 1) hold, and than the socket's buffers.
        let payload = [UInt8](repeating: 0x41, count: 1_000_000)
        for i in 0..<30 {
            bridge.client.publish(MQTTClient.Outgoing(topic: "burst/\(i)", payload: payload, retain: false))
        }
        #expect(bridge.client.interests.map(\.write) == [true], "20 MB in flight, the socket full: polled for writing")
        let now = monotonicNow()
        #expect(try #require(bridge.client.nextDeadline(now: now)) - now > .seconds(25), "no timer for the writes")
        kill(pid, SIGCONT)
        // The last of them, retained, is there once the socket took everything.
        bridge.client.publish(MQTTClient.Outgoing(topic: "t", payload: Array("2".utf8), retain: true))
        #expect(Self.turn([bridge], seconds: 20) { bridge.client.interests.map(\.write) == [false] && Self.value(bridge, "mqtt:t") == 2 })
    }

    @Test("a wrong password is one clear log line and nothing stored, not an exit; the right one works")
    func wrongPassword() throws {
        guard let broker = try Self.broker(password: "right-password") else { return }
        let log = Log()
        let wrong = try Self.bridge(broker, [Self.gauge("t")], folder: ScratchFolder("bridge-wrong"), password: "wrong-password", log: log)
        #expect(Self.turn([wrong]) { log.contains("refused") }, "\(log.lines)")
        try broker.publish("t", "5")
        _ = Self.turn([wrong], seconds: 1) { false }
        #expect(Self.value(wrong, "mqtt:t") == nil)
        #expect(log.lines.filter { $0.contains("refused") }.count == 1, "said once: \(log.lines)")
        let good = try Self.bridge(broker, [Self.gauge("t")], folder: ScratchFolder("bridge-right"), password: "right-password", log: Log())
        try broker.publish("t", "5", retain: true)
        #expect(Self.turn([good]) { Self.value(good, "mqtt:t") == 5 })
    }
}
