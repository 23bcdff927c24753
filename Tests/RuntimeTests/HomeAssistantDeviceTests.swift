import Configuration
import Controls
import Testing

@testable import Runtime
@testable import HomeBridge

/// What Home Assistant's command payloads ask of the panel, and the names the bridge writes.
@Suite("Home Assistant device: payloads and names", .timeLimit(.minutes(10)))
struct HomeAssistantDeviceTests {
    static let device = HomeAssistantDevice(setting: HomeAssistantSetting(), machineId: "0123456789abcdef", version: "1.0")

    @Test("command payloads: exact words only, bounded")
    func payloads() {
        let d = Self.device
        func request(_ object: String, _ leaf: String, _ payload: String) -> PanelRequest? {
            try? d.request(topic: d.topic(object, leaf), payload: Array(payload.utf8)).get()
        }
        #expect(request("light", "set", "ON") == .light(on: true))
        #expect(request("light", "set", "OFF") == .light(on: false))
        #expect(request("brightness", "set", "40") == .brightness(40))
        #expect(request("brightness", "set", "0") == .light(on: false))
        #expect(request("screen", "set", "clock") == .show(.clock))
        #expect(request("next", "press", "PRESS") == .next)
        #expect(request("refresh", "press", "PRESS") == .refresh)
        #expect(request("today", "press", "PRESS") == .today)
        #expect(request("cycle", "set", "OFF") == .cycle(on: false))
        for (object, leaf, junk) in [
            ("light", "set", "on"), ("brightness", "set", "101"), ("brightness", "set", "-1"), ("brightness", "set", "4.5"),
            ("screen", "set", "Clock"), ("next", "press", "press"), ("light", "set", String(repeating: "O", count: 17)),
        ] {
            #expect(request(object, leaf, junk) == nil, "\(object)/\(leaf) \(junk)")
        }
        #expect(request("state", "set", "ON") == nil, "not a command topic")
        #expect(d.node == "glance_" + HomeAssistantDevice.hash("0123456789abcdef") && d.node.count == 19)
        #expect(!d.node.contains("0123456789abcdef"), "the machine id itself is not published")
    }

    @Test("the timestamp sensor's time: ISO 8601 in UTC")
    func iso() {
        #expect(HomeAssistantDevice.iso(0) == "1970-01-01T00:00:00+00:00")
        #expect(HomeAssistantDevice.iso(1_764_651_234) == "2025-12-02T04:53:54+00:00")
        #expect(HomeAssistantDevice.iso(-1) == "1969-12-31T23:59:59+00:00")
    }

    @Test("a gauge topic's metric: mqtt:TOPIC[:FIELD]; a long one shortened with a hash, still a valid name")
    func metricNames() {
        #expect(MQTTTopic.metricName(topic: "home/t", field: nil) == "mqtt:home/t")
        #expect(MQTTTopic.metricName(topic: "zigbee2mqtt/living", field: "humidity") == "mqtt:zigbee2mqtt/living:humidity")
        let long = MQTTTopic.metricName(topic: String(repeating: "ä/", count: 60), field: nil)
        let other = MQTTTopic.metricName(topic: String(repeating: "ä/", count: 60) + "x", field: nil)
        #expect(long.utf8.count <= 64 && long != other && long.hasPrefix("mqtt:ä/"))
        #expect(MQTTTopic.metricName(topic: "ends in space ", field: nil).last != " ")
        #expect(MQTTTopic.publishProblem("glance/a") == nil)
        #expect(MQTTTopic.publishProblem("glance/#") != nil && MQTTTopic.publishProblem("a//b") != nil)
    }
}
