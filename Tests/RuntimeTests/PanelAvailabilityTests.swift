@testable import DeviceLogic
import Activity
import Configuration
import Controls
import Foundation
import Platform
import TestSupport
import Testing

@testable import HomeBridge
@testable import Runtime

#if canImport(Glibc)
    import Glibc
#endif

/// The panel's own availability in Home Assistant, beside the bridge's: a real broker, the
/// bridge, a session with its real control socket. Online while the panel answers there, offline
/// when it stops or stops answering (the keep-alive), online again when it is back; and a command
/// the panel refuses answered in Home Assistant (the Refused command event, the states again).
@Suite("Home Assistant: the panel's availability and refused commands", .timeLimit(.minutes(10)))
struct PanelAvailabilityTests {
    static func panelAvailability(_ broker: Broker, _ device: HomeAssistantDevice) -> String? {
        (try? HomeAssistantTests.retained(broker, device.panelAvailability, count: 1))?.first?.payload
    }

    @Test("the panel's entities need the bridge and the panel (availability_mode all); today's rings the bridge only")
    func discoveryAvailability() throws {
        let device = HomeAssistantDevice(setting: HomeAssistantSetting(), machineId: "test", version: "0")
        let messages = device.discovery(screens: [.rings, .clock], dimmable: true, cycle: true)
        var panelEntities = 0
        var storeEntities = 0
        for message in messages {
            let json = try #require(try JSONSerialization.jsonObject(with: Data(message.payload)) as? [String: Any])
            if message.topic.contains("/sensor/") && (json["state_topic"] as? String) == device.topic("today", "state") {
                storeEntities += 1
                #expect(json["availability_topic"] as? String == device.availability, "\(message.topic)")
                #expect(json["availability"] == nil)
            } else {
                panelEntities += 1
                let topics = (json["availability"] as? [[String: Any]])?.compactMap { $0["topic"] as? String }
                #expect(topics == [device.availability, device.panelAvailability], "\(message.topic)")
                #expect(json["availability_mode"] as? String == "all", "\(message.topic)")
                #expect(json["availability_topic"] == nil, "\(message.topic): not both forms")
            }
        }
        #expect(storeEntities == 6 && panelEntities == messages.count - 6)
    }

    @Test("the panel's availability: online while it answers, offline when it stops or stops answering, online again")
    func availability() throws {
        if HomeAssistantTests.skipWithoutBroker() { return }
        let broker = try Broker()
        let folder = ScratchFolder("panel-availability")
        let c = HomeAssistantTests.configuration(broker, folder: folder.path)
        let lines = LogLines()
        var (_, session) = try HomeAssistantTests.panel(c, log: lines.add)
        let bridge = try HomeAssistantTests.bridge(c, log: lines.add)
        bridge.begin(now: monotonicNow())
        let device = try #require(bridge.device)
        let link = try #require(bridge.panel)
        #expect(HomeAssistantTests.pump(bridge, session) { bridge.client.connected && link.alive }, "\(lines.all)")
        #expect(HomeAssistantTests.pump(bridge, session) { Self.panelAvailability(broker, device) == "online" }, "\(lines.all)")

        // The panel stops (its control socket closed): offline at once, the bridge still online.
        session.control = nil
        #expect(HomeAssistantTests.pump(bridge, nil) { Self.panelAvailability(broker, device) == "offline" }, "\(lines.all)")
        #expect(lines.all.contains("the panel went away"))
        #expect(try HomeAssistantTests.retained(broker, device.availability, count: 1).first?.payload == "online")

        // It runs again: online again (the bridge tries every second).
        (_, session) = try HomeAssistantTests.panel(c, log: lines.add)
        #expect(HomeAssistantTests.pump(bridge, session) { Self.panelAvailability(broker, device) == "online" }, "\(lines.all)")

        // A panel whose loop is stuck (its socket open, nothing answered): asked its state after
        // the keep-alive, given up after the answer's time, offline.
        link.keepAlive = .milliseconds(300)
        link.answerWithin = .milliseconds(300)
        #expect(HomeAssistantTests.pump(bridge, nil) { Self.panelAvailability(broker, device) == "offline" }, "\(lines.all)")
        #expect(lines.all.contains("the panel did not answer"), "\(lines.all)")
        // Turning again, it answers the keep-alive: online, and stays so past several keep-alives.
        #expect(HomeAssistantTests.pump(bridge, session) { Self.panelAvailability(broker, device) == "online" }, "\(lines.all)")
        _ = HomeAssistantTests.pump(bridge, session, seconds: 2) { false }
        #expect(Self.panelAvailability(broker, device) == "online", "a panel that answers stays online: \(lines.all)")
        withExtendedLifetime(session) {}
    }

    @Test("a command the panel refuses: the Refused command event names it and why, and the states are said again")
    func refusedAnswered() throws {
        if HomeAssistantTests.skipWithoutBroker() { return }
        let broker = try Broker()
        let folder = ScratchFolder("panel-refused")
        let c = HomeAssistantTests.configuration(broker, folder: folder.path)
        let lines = LogLines()
        let (_, session) = try HomeAssistantTests.panel(c, log: lines.add)
        let bridge = try HomeAssistantTests.bridge(c, log: lines.add)
        bridge.begin(now: monotonicNow())
        let device = try #require(bridge.device)
        #expect(HomeAssistantTests.pump(bridge, session) { bridge.client.connected && bridge.panelState != nil }, "\(lines.all)")

        let listener = try TopicListener(broker, device.topic("refused", "event"), ready: device.base + "/test-ready") { seconds, until in
            HomeAssistantTests.pump(bridge, session, seconds: seconds, until: until)
        }
        defer { listener.stop() }
        func heard() -> String { listener.heard }
        #expect(listener.subscribed, "mosquitto_sub subscribed")

        // gauges is a screen, but not one this panel is configured with: the panel refuses it.
        let before = bridge.refusedAnswered
        try broker.publish(device.topic("screen", "set"), "gauges")
        #expect(HomeAssistantTests.pump(bridge, session) { heard().contains("refused/event") }, "\(heard()) \(lines.all)")
        let payload = try #require(listener.payload(on: device.topic("refused", "event")))
        let json = try #require(try JSONSerialization.jsonObject(with: Data(payload.utf8)) as? [String: Any], "\(payload)")
        #expect(json["event_type"] as? String == "refused")
        #expect(json["command"] as? String == "screen/set")
        #expect(json["asked"] as? String == "show gauges")
        #expect((json["reason"] as? String)?.contains("gauges is not one of the configured screens") == true, "\(payload)")
        #expect(bridge.refusedAnswered == before + 1)
        #expect(try HomeAssistantTests.state(broker, device, "screen") == "rings", "the select's state said again: still rings")

        // Junk the bridge itself refuses: answered the same way.
        try broker.publish(device.topic("light", "set"), "MAYBE")
        #expect(HomeAssistantTests.pump(bridge, session) { heard().contains("expected ON or OFF") }, "\(heard())")
        // An event is not retained (Home Assistant would take it again at every start).
        #expect(try HomeAssistantTests.retained(broker, device.topic("refused", "event")).isEmpty)
        // A command the panel takes answers nothing there.
        let answered = bridge.refusedAnswered
        try broker.publish(device.topic("screen", "set"), "clock")
        #expect(HomeAssistantTests.pump(bridge, session) { bridge.panelState?.screen == .clock })
        #expect(bridge.refusedAnswered == answered)
    }

    @Test("the link pairs answers with commands in order; answers beyond the commands kept are unnamed")
    func answersInOrder() throws {
        let folder = ScratchFolder("panel-link")
        let path = folder.path + "/panel.sock"
        let server = try PacketListener(path: path)
        let lines = LogLines()
        let link = PanelLink(paths: [path], log: lines.add)
        link.connect(now: monotonicNow())
        #expect(link.connected && !link.alive, "connected, not heard yet")
        let peer = try #require(try server.accept(), "the link's connection waits (connect returns once it is queued)")
        #expect(String(decoding: try #require(try peer.receive(capacity: 64, nonblocking: false)).bytes, as: UTF8.self) == "watch")
        #expect(link.send(.show(.clock), topic: "t/screen/set"))
        #expect(link.send(.light(on: false), topic: "t/light/set"))
        #expect(link.send(.next, topic: "t/next/press"))
        for answer in ["ok", "refused no light here", "refused not now", "refused unasked"] {
            try peer.send(Array(answer.utf8))
        }
        let (states, refused) = link.receive(now: monotonicNow())
        #expect(states.isEmpty)
        #expect(
            refused == [
                PanelLink.Refusal(topic: "t/light/set", asked: "light off", reason: "no light here"),
                PanelLink.Refusal(topic: "t/next/press", asked: "next", reason: "not now"),
            ])
        #expect(link.alive, "heard")
    }
}
