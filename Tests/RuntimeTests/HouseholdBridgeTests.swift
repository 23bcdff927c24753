import Activity
import Configuration
import Foundation
import Platform
import Store
import TestSupport
import Testing

@testable import HomeBridge

/// `glance mqtt` with a household's store (issue 39): each person's rings as their own sensors in
/// Home Assistant, found through the discovery messages (not through topics the test computes),
/// following the store as people come and go.
@Suite("Home Assistant: one set of ring sensors per person", .timeLimit(.minutes(10)))
struct HouseholdBridgeTests {
    /// The retained discovery configurations of the device, by their unique id.
    static func configs(_ broker: Broker) throws -> [String: [String: Any]] {
        var found: [String: [String: Any]] = [:]
        for (_, payload) in try HomeAssistantTests.retained(broker, "homeassistant/#") where !payload.isEmpty {
            guard let json = try? JSONSerialization.jsonObject(with: Data(payload.utf8)) as? [String: Any],
                let id = json["unique_id"] as? String
            else { continue }
            found[id] = json
        }
        return found
    }

    @Test("a second person's rings: six sensors named with their name on their own state topic; gone when they are removed")
    func sensorsPerPerson() throws {
        if HomeAssistantTests.skipWithoutBroker() { return }
        let broker = try Broker()
        let folder = ScratchFolder("bridge-household")
        let c = HomeAssistantTests.configuration(broker, folder: folder.path)
        let day = HomeAssistantTests.day
        let store = try Store(path: folder.path + "/glance.db")
        let ann = try store.addPerson(name: "Ann", now: 1_700_000_000)
        let start = Int64(day.daysSinceEpoch) * 86400 + 3600
        try store.putSamples([Store.Sample(metric: .activeEnergy, start: start, quantity: 321, unit: "kcal", value: 321, day: day)])
        store.person = ann.id
        try store.putSamples([
            Store.Sample(metric: .activeEnergy, start: start, quantity: 150, unit: "kcal", value: 150, day: day),
            Store.Sample(metric: .exerciseTime, start: start, quantity: 44, unit: "min", value: 44, day: day),
        ])
        store.person = 1

        let bridge = try HomeAssistantTests.bridge(c)
        bridge.begin(now: monotonicNow())
        let device = try #require(bridge.device)
        let node = device.node
        var configs: [String: [String: Any]] = [:]
        #expect(HomeAssistantTests.pump(bridge, nil) {
            configs = (try? Self.configs(broker)) ?? [:]
            return configs["\(node)_person\(ann.id)_stand_goal"] != nil
        }, "Ann's sensors never discovered: \(configs.keys.sorted())")
        let annMove = try #require(configs["\(node)_person\(ann.id)_move"], "\(configs.keys.sorted())")
        #expect(annMove["name"] as? String == "Ann Move")
        let mine = try #require(configs["\(node)_move"])
        #expect(mine["name"] as? String == "Move", "person 1's sensors keep their names and ids")
        let annTopic = try #require(annMove["state_topic"] as? String)
        let myTopic = try #require(mine["state_topic"] as? String)
        #expect(annTopic != myTopic)
        for key in ["move", "move_goal", "exercise", "exercise_goal", "stand", "stand_goal"] {
            let sensor = try #require(configs["\(node)_person\(ann.id)_\(key)"], "\(key)")
            #expect(sensor["state_topic"] as? String == annTopic && sensor["value_template"] as? String == "{{ value_json.\(key) }}")
        }

        func state(_ topic: String) -> [String: Any]? {
            guard let text = try? HomeAssistantTests.retained(broker, topic, count: 1).first?.payload else { return nil }
            return try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
        }
        #expect(HomeAssistantTests.pump(bridge, nil) { state(annTopic)?["move"] as? Double == 150 }, "\(String(describing: state(annTopic)))")
        #expect(state(annTopic)?["exercise"] as? Double == 44)
        #expect(state(myTopic)?["move"] as? Double == 321 && state(myTopic)?["exercise"] is NSNull,
            "person 1's rings are their own: \(String(describing: state(myTopic)))")

        // Ann's push: only her sensors change.
        store.person = ann.id
        try store.putSamples([Store.Sample(metric: .activeEnergy, start: start + 600, quantity: 50, unit: "kcal", value: 50, day: day)])
        store.person = 1
        #expect(HomeAssistantTests.pump(bridge, nil) { state(annTopic)?["move"] as? Double == 200 }, "\(String(describing: state(annTopic)))")
        #expect(state(myTopic)?["move"] as? Double == 321)

        // Removed: her configurations and her retained rings leave the broker.
        #expect(try store.removePerson(ann.id))
        #expect(HomeAssistantTests.pump(bridge, nil) {
            ((try? Self.configs(broker)) ?? [:])["\(node)_person\(ann.id)_move"] == nil && state(annTopic) == nil
        }, "Ann's sensors or rings stayed after her removal")
        #expect(((try? Self.configs(broker)) ?? [:])["\(node)_move"] != nil, "person 1's stay")
    }
}
