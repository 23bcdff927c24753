@testable import DeviceLogic
import Activity
import Configuration
import Controls
import Foundation
import Input
import Platform
import TestSupport
import Testing

@testable import HomeBridge
@testable import Runtime

/// Home Assistant's notify on the panel: the Message notify entity and the Message dismissed
/// event (Home Assistant's own schemas), a payload made plain for the panel, and through a real
/// broker, the bridge and a session with its real control socket: a message published on the
/// notify's topic shown on the panel, a key dismissing it (and doing nothing else), the event
/// coming back on its topic, not retained.
@Suite("Home Assistant: notify shows a message on the panel", .timeLimit(.minutes(10)))
struct HomeAssistantMessageTests {
    static let device = HomeAssistantDevice(setting: HomeAssistantSetting(), machineId: "test", version: "0")

    @Test("a payload made plain: CR LF a line feed, a tab a space, cut to the panel's 255 bytes with …; junk refused")
    func payloads() {
        func text(_ payload: [UInt8]) -> String? {
            if case .success(.message(let m)) = Self.device.messageRequest(payload) { return m.text }
            return nil
        }
        #expect(text(Array("Dinner is ready".utf8)) == "Dinner is ready")
        #expect(text(Array("Line one\r\nLine two\rThree\tfour\u{1B}[1m".utf8)) == "Line one\nLine two\nThree four [1m")
        let long = text(Array(String(repeating: "ab ", count: 200).utf8))
        #expect(long?.utf8.count ?? 0 <= PanelMessage.maximumBytes && long?.hasSuffix("…") == true, "\(long ?? "nil")")
        let wide = text(Array(String(repeating: "洗", count: 200).utf8))
        #expect(wide == String(repeating: "洗", count: 84) + "…", "cut after a whole character, 255 bytes")
        if case .message(let m) = try? Self.device.messageRequest(Array("x".utf8)).get() { #expect(m.seconds == PanelMessage.defaultSeconds) }
        for (junk, reason) in [
            ([UInt8](), "an empty message"), (Array(" \r\n\t ".utf8), "an empty message"), ([0xC3, 0x28], "a message in UTF-8"),
            (Array(repeating: UInt8(0x61), count: 4097), "a message of at most 4096 bytes"),
        ] {
            guard case .failure(let refusal) = Self.device.messageRequest(junk) else {
                Issue.record("\(junk.prefix(8)) taken")
                continue
            }
            #expect(refusal.reason.hasPrefix(reason), "\(refusal.reason)")
        }
        #expect(
            String(decoding: Self.device.dismissed(.timeout).payload, as: UTF8.self) == #"{"event_type":"timeout"}"#
                && !Self.device.dismissed(.timeout).retain)
    }

    @Test("discovery: the notify entity and the event, with the panel's availability, valid by Home Assistant's schemas")
    func discovery() throws {
        let messages = Self.device.discovery(screens: [.rings], dimmable: true)
        let ours = messages.filter { $0.topic.contains("/notify/") || $0.topic.hasSuffix("/message_dismissed/config") }
        #expect(ours.map(\.topic) == [
            "homeassistant/notify/\(Self.device.node)/message/config", "homeassistant/event/\(Self.device.node)/message_dismissed/config",
        ])
        let notify = try #require(try JSONSerialization.jsonObject(with: Data(ours[0].payload)) as? [String: Any])
        #expect(notify["name"] as? String == "Message" && notify["command_topic"] as? String == Self.device.messageTopic)
        #expect(notify["availability_mode"] as? String == "all")
        let event = try #require(try JSONSerialization.jsonObject(with: Data(ours[1].payload)) as? [String: Any])
        #expect(event["name"] as? String == "Message dismissed" && event["state_topic"] as? String == Self.device.messageEventTopic)
        #expect(event["event_types"] as? [String] == ["pressed", "timeout", "replaced"])
        try HomeAssistantTests.validate(ours.map { ($0.topic, String(decoding: $0.payload, as: UTF8.self)) })
    }

    @Test("published on the notify's topic: shown on the panel; a key dismisses it and the event says pressed")
    func notifyAndDismiss() throws {
        if HomeAssistantTests.skipWithoutBroker() { return }
        let broker = try Broker()
        let folder = ScratchFolder("bridge-message")
        let c = HomeAssistantTests.configuration(broker, folder: folder.path)
        let lines = LogLines()
        let (sink, session) = try HomeAssistantTests.panel(c, log: lines.add)
        let controller = try #require(session.controller as? PanelController)
        let bridge = try HomeAssistantTests.bridge(c, log: lines.add)
        bridge.begin(now: monotonicNow())
        let device = try #require(bridge.device)
        #expect(HomeAssistantTests.pump(bridge, session) { bridge.client.connected && bridge.panelState != nil }, "\(lines.all)")

        let listener = try TopicListener(broker, device.messageEventTopic, ready: device.base + "/test-ready") { seconds, until in
            HomeAssistantTests.pump(bridge, session, seconds: seconds, until: until)
        }
        defer { listener.stop() }
        func heard() -> String { listener.heard }
        #expect(listener.subscribed, "mosquitto_sub subscribed")

        // Home Assistant's notify: the message on the panel, in place of the rings.
        let rings = try #require(sink.lastFrame)
        #expect(SessionTests.brightest(rings) > 0)
        try broker.publish(device.messageTopic, "Dinner is ready\r\nCome down")
        #expect(
            HomeAssistantTests.pump(bridge, session) { controller.device.message?.text == "Dinner is ready\nCome down" },
            "\(lines.all)")
        let shown = try #require(sink.lastFrame)
        #expect(SessionTests.brightest(shown) == 0, "no fonts here: the message's picture is black")
        #expect(lines.all.contains("control socket: message (25 characters, 60 s)"), "\(lines.all)")

        // A key: dismissed, the day stays; the event comes, not retained.
        let left = try #require(EventNames.keyCode(named: "KEY_LEFT"))
        let s = monotonicNow().inSeconds
        controller.queuedInput.append((
            [InputEvent(time: s, type: 1, code: left, value: 1), InputEvent(time: s, type: 0, code: 0, value: 0),
             InputEvent(time: s, type: 1, code: left, value: 0), InputEvent(time: s, type: 0, code: 0, value: 0)],
            InputRouterTests.keyboard, "keyboard"))
        #expect(HomeAssistantTests.pump(bridge, session) { heard().contains(device.messageEventTopic + " ") }, "\(heard()) \(lines.all)")
        #expect(listener.payload(on: device.messageEventTopic) == #"{"event_type":"pressed"}"#)
        #expect(controller.device.message == nil && controller.navigation.day == HomeAssistantTests.day)
        #expect(try HomeAssistantTests.retained(broker, device.messageEventTopic).isEmpty)

        // Junk on the topic: refused, answered with the Refused command event; a retained message
        // is an old one: never shown.
        try broker.publish(device.messageTopic, " \t ")
        #expect(HomeAssistantTests.pump(bridge, session) { lines.all.contains("message/send: an empty message; ignored") }, "\(lines.all)")
        try broker.publish(device.messageTopic, "Old news", retain: true)
        var other = c
        other.database = folder.path + "/other.db"
        let second = try HomeAssistantTests.bridge(other, log: lines.add)
        second.begin(now: monotonicNow())
        #expect(HomeAssistantTests.pump(second, session) { lines.all.contains("message/send: a retained message, ignored") }, "\(lines.all)")
        #expect(controller.device.message == nil)
    }
}
