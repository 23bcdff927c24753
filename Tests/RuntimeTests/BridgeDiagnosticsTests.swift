import Configuration
import Foundation
import Platform
import TestSupport
import Testing

@testable import HomeBridge

#if canImport(Glibc)
    import Glibc
#endif

/// The machine's diagnostics in Home Assistant: sensors only for the figures the machine has,
/// their state on a real broker, read again on their period, valid by Home Assistant's schemas.
@Suite("Home Assistant: the machine's diagnostic sensors", .timeLimit(.minutes(10)))
struct BridgeDiagnosticsTests {
    @Test("a sensor for each figure the machine has, none for the others; diagnostic, the bridge's availability")
    func entities() throws {
        let device = HomeAssistantDevice(setting: HomeAssistantSetting(), machineId: "test", version: "0")
        let all = HostFacts(cpuTemperature: 48.3, booted: 1_764_651_180, address: "192.168.1.20", wifiSignal: -40, freeDisk: 1234)
        let wired = HostFacts(booted: 1_764_651_180, address: "192.168.1.20", freeDisk: 1234)
        func objects(_ facts: HostFacts?) -> [String] {
            device.discovery(screens: [.rings], dimmable: true, cycle: false, host: facts).map { String($0.topic.split(separator: "/")[3]) }
                .filter { ["cpu_temperature", "booted", "address", "wifi_signal", "free_disk"].contains($0) }
        }
        #expect(objects(all) == ["cpu_temperature", "booted", "address", "wifi_signal", "free_disk"])
        #expect(objects(wired) == ["booted", "address", "free_disk"], "no Wi-Fi, no thermal zone: no such sensors")
        #expect(objects(nil).isEmpty)
        for message in device.discovery(screens: [.rings], dimmable: true, cycle: false, host: all) where message.topic.contains("/sensor/") {
            let json = try #require(try JSONSerialization.jsonObject(with: Data(message.payload)) as? [String: Any])
            guard json["state_topic"] as? String == device.topic("host", "state") else { continue }
            #expect(json["entity_category"] as? String == "diagnostic", "\(message.topic)")
            #expect(json["availability_topic"] as? String == device.availability, "\(message.topic): the machine's, not the panel's")
        }
        let state = String(decoding: device.host(all).payload, as: UTF8.self)
        #expect(
            state == "{\"cpu_temperature\":48.3,\"booted\":\"2025-12-02T04:53:00+00:00\",\"address\":\"192.168.1.20\",\"wifi_signal\":-40,"
                + "\"free_disk\":1234}")
    }

    @Test("on a real broker: the sensors' configurations and their state, valid by Home Assistant's schemas; read again on their period")
    func published() throws {
        if HomeAssistantTests.skipWithoutBroker() { return }
        let broker = try Broker()
        let folder = ScratchFolder("bridge-diagnostics")
        let c = HomeAssistantTests.configuration(broker, folder: folder.path)
        let bridge = try HomeAssistantTests.bridge(c)
        let device = try #require(bridge.device)
        var reads = 0
        bridge.readHost = {
            reads += 1
            return HostFacts(cpuTemperature: 40 + Double(reads), booted: 1_764_651_180, address: "10.0.0.7", wifiSignal: -61, freeDisk: 900)
        }
        bridge.hostEvery = .milliseconds(300)
        bridge.begin(now: monotonicNow())
        #expect(HomeAssistantTests.pump(bridge, nil) { bridge.client.connected })
        #expect(
            HomeAssistantTests.pump(bridge, nil) {
                (try? HomeAssistantTests.state(broker, device, "host"))?.contains("\"cpu_temperature\":4") == true
            })
        let configs = try HomeAssistantTests.retained(broker, device.prefix + "/+/+/+/config")
        #expect(configs.filter { $0.payload.contains("\"entity_category\":\"diagnostic\"") }.count == 5)
        try HomeAssistantTests.validate(configs)
        // Read again on the period: the temperature moves.
        let first = try HomeAssistantTests.state(broker, device, "host")
        #expect(HomeAssistantTests.pump(bridge, nil) { reads >= 3 && (try? HomeAssistantTests.state(broker, device, "host")) != first })
    }

    @Test("this machine's own figures: a boot time in the past, free space where the store is")
    func thisMachine() {
        let now = Int64(time(nil))
        let facts = HostFacts.read(storeFolder: "/tmp", now: now)
        #expect(facts.booted.map { $0 <= now && $0 > now - 10 * 365 * 86400 } == true, "\(facts)")
        #expect((facts.freeDisk ?? 0) > 0, "\(facts)")
        if let t = facts.cpuTemperature { #expect((-60...200).contains(t)) }
    }
}
