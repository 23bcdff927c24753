import JSON
import MQTT
import Platform

/// The machine's diagnostics in Home Assistant (a wall panel's usual ones): diagnostic sensors,
/// one state topic (`host/state`, JSON), and only for the figures this machine has when the
/// bridge starts (no Wi-Fi sensor on a wired board, no temperature in a VM). They speak for the
/// machine, not the panel: available while the bridge is.
extension HomeAssistantDevice {
    func hostEntities(_ facts: HostFacts) -> [Entity] {
        func sensor(_ key: String, _ name: String, _ members: [(key: String, value: JSON)]) -> Entity {
            Entity(
                component: "sensor", object: key, name: name,
                members: [
                    ("state_topic", .string(topic("host", "state"))), ("value_template", .string("{{ value_json.\(key) }}")),
                    ("entity_category", .string("diagnostic")),
                ] + members, panel: false)
        }
        var entities: [Entity] = []
        if facts.cpuTemperature != nil {
            entities.append(
                sensor(
                    "cpu_temperature", "CPU temperature",
                    [("device_class", .string("temperature")), ("unit_of_measurement", .string("°C")), ("state_class", .string("measurement"))]))
        }
        if facts.booted != nil { entities.append(sensor("booted", "Booted", [("device_class", .string("timestamp"))])) }
        if facts.address != nil { entities.append(sensor("address", "IP address", [("icon", .string("mdi:ip-network"))])) }
        if facts.wifiSignal != nil {
            entities.append(
                sensor(
                    "wifi_signal", "Wi-Fi signal",
                    [("device_class", .string("signal_strength")), ("unit_of_measurement", .string("dBm")), ("state_class", .string("measurement"))]))
        }
        if facts.freeDisk != nil {
            entities.append(
                sensor(
                    "free_disk", "Free disk",
                    [("device_class", .string("data_size")), ("unit_of_measurement", .string("MiB")), ("state_class", .string("measurement"))]))
        }
        return entities
    }

    /// The figures as one JSON state (null where one is gone since the start: Home Assistant
    /// shows unknown for the numbers and the address).
    func host(_ facts: HostFacts) -> MQTTClient.Outgoing {
        let json: JSON = .object([
            ("cpu_temperature", facts.cpuTemperature.map { .number($0) } ?? .null),
            ("booted", facts.booted.map { .string(Self.iso($0)) } ?? .null),
            ("address", facts.address.map { .string($0) } ?? .null),
            ("wifi_signal", facts.wifiSignal.map { .number(Double($0)) } ?? .null),
            ("free_disk", facts.freeDisk.map { .number(Double($0)) } ?? .null),
        ])
        return MQTTClient.Outgoing(topic: topic("host", "state"), payload: Array(json.text.utf8), retain: true)
    }
}
