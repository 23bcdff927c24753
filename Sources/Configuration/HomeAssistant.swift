// The MQTT bridge's settings (glance mqtt): Home Assistant's discovery, and the metrics the
// gauges' topics become.
import Activity
import CLI
import JSON

/// Home Assistant MQTT discovery by `glance mqtt`: the panel as one device of the home.
public struct HomeAssistantSetting: Sendable, Equatable {
    /// On by default whenever a broker is set (`"mqtt"`); false: the bridge only carries gauges.
    public var enabled = true
    /// Where Home Assistant looks for discovery messages (its MQTT integration's setting).
    public var discoveryPrefix = "homeassistant"
    /// The device's name in Home Assistant.
    public var deviceName = "Glance"
    /// Under which the entities' state and command topics lie; nil: `glance/NODE` (NODE from the
    /// machine id).
    public var baseTopic: String?
    /// The Message notify entity (Home Assistant's MQTT notify platform, from its 2024.5): false
    /// for an older Home Assistant, which does not know it and says so in its log.
    public var notify = true

    public init() {}
}

extension HomeAssistantSetting: Defaulted {
    static var defaults: HomeAssistantSetting { HomeAssistantSetting() }

    static let settings: [Setting<HomeAssistantSetting>] = [
        .value(
            "enabled", Field({ $0.enabled }, { $0.enabled = $1 }), .bool,
            help: "publish the panel to Home Assistant (MQTT discovery) from glance mqtt, whenever \"mqtt\" names a broker",
            reload: .bridge),
        .value(
            "discoveryPrefix", Field({ $0.discoveryPrefix }, { $0.discoveryPrefix = $1 }), .topicPart,
            help: "Home Assistant's discovery prefix (its MQTT integration's setting)",
            reload: .bridge),
        .value(
            "name", Field({ $0.deviceName }, { $0.deviceName = $1 }), .nonEmpty("NAME"),
            help: "the device's name in Home Assistant",
            reload: .bridge),
        .value(
            "baseTopic", Field({ $0.baseTopic }, { $0.baseTopic = $1 }), .optionalTopic,
            help: "the topic the entities' state and command topics lie under", default: .means("glance/NODE (from the machine id)"),
            reload: .bridge),
        .value(
            "notify", Field({ $0.notify }, { $0.notify = $1 }), .bool,
            help: "offer the Message notify entity (Home Assistant 2024.5 or later; false for an older one, which logs that it "
                + "does not know notify; its messages can still be published to the topic)",
            reload: .bridge),
    ]
}

extension Form where Value == String {
    /// A topic (or a part of one) to publish under: no wildcards, no empty level, no NUL.
    static var topicPart: Form<String> {
        Form<String>(
            "TOPIC", expected: "an MQTT topic without + or #",
            json: { json, at, reader in
                guard let topic = reader.string(json, at, nonEmpty: true) else { return nil }
                if let problem = MQTTTopic.publishProblem(topic) {
                    reader.issue(at, problem)
                    return nil
                }
                return topic
            },
            text: { (text, option) throws(UsageError) in
                if let problem = MQTTTopic.publishProblem(text) { throw UsageError("\(option) '\(Quote.clip(text))': \(problem)") }
                return text
            }, write: { .json(.string($0)) })
    }
}

extension Form where Value == String? {
    static var optionalTopic: Form<String?> {
        Form<String?>(
            "TOPIC", expected: "an MQTT topic without + or #, or null",
            json: { json, at, reader in
                guard let topic = reader.optionalString(json, at) else { return nil }
                if let topic, let problem = MQTTTopic.publishProblem(topic) {
                    reader.issue(at, problem)
                    return nil
                }
                return .some(topic)
            },
            text: { (text, option) throws(UsageError) in
                if let problem = MQTTTopic.publishProblem(text) { throw UsageError("\(option) '\(Quote.clip(text))': \(problem)") }
                return text
            }, write: { .json($0.map(JSON.string) ?? .null) })
    }
}

/// MQTT topics' rules, and the metric names the gauges' topics are kept under.
public enum MQTTTopic {
    /// Why `topic` cannot be published to (nil: it can): MQTT's rules, and at most 200 bytes.
    public static func publishProblem(_ topic: String) -> String? {
        if topic.isEmpty { return "expected a topic that is not empty" }
        if topic.utf8.count > 200 { return "at most 200 bytes" }
        if topic.contains("+") || topic.contains("#") { return "no wildcards (+, #) in a topic to publish to" }
        if topic.hasPrefix("/") || topic.hasSuffix("/") || topic.contains("//") { return "no empty level (a / at an end or two together)" }
        if Quote.hasControl(topic) { return "no control characters" }
        return nil
    }

    /// MQTT's limit on a topic's length: its UTF-8 bytes (a two-byte length in the packet).
    public static let maximumBytes = 65_535

    /// Why `topic` cannot be a gauge's topic to subscribe to (nil: it can), as MQTT 3.1.1 and 5
    /// define topics: not empty, at most 65,535 bytes of UTF-8, no NUL (a broker drops the
    /// connection that sends one), no other control character (U+0001–U+001F, U+007F–U+009F:
    /// MQTT advises against them and a broker may refuse them), and no wildcard: a gauge shows one
    /// topic's number (empty levels, `a//b`, are allowed: MQTT has them).
    public static func subscribeProblem(_ topic: String) -> String? {
        if topic.isEmpty { return "expected a topic that is not empty" }
        let bytes = topic.utf8.count
        if bytes > maximumBytes { return "a topic of \(bytes) bytes; MQTT takes at most \(maximumBytes)" }
        if topic.unicodeScalars.contains("\u{0}") { return "a NUL character (\\u0000) in the topic; MQTT forbids it" }
        if let c = topic.unicodeScalars.first(where: { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }) {
            let hex = String(c.value, radix: 16, uppercase: true)
            return "a control character (U+\(String(repeating: "0", count: 4 - hex.count) + hex)) in the topic; "
                + "no broker client publishes to it in practice: remove it"
        }
        if topic.contains("+") || topic.contains("#") { return "the wildcards + and # match many topics: give one topic" }
        return nil
    }

    /// FNV-1a of `text`'s bytes: a short stable name for something long (not a secret).
    public static func fnv1a(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        return hash
    }

    /// The store's metric a topic's number is kept under by `glance mqtt` (with the JSON field
    /// it is picked from): `mqtt:TOPIC` or `mqtt:TOPIC:FIELD`; one longer than a metric's name
    /// may be (64 bytes), or ending in a space, keeps its first 40 bytes and a hash of the whole.
    public static func metricName(topic: String, field: String?) -> String {
        let whole = "mqtt:" + topic + (field.map { ":" + $0 } ?? "")
        if whole.utf8.count <= TextLimit.name, whole.last != " ", !Quote.hasControl(whole) { return whole }
        let hash = fnv1a(whole)
        var prefix = ""
        for c in whole where !Quote.hasControl(String(c)) {
            if prefix.utf8.count + c.utf8.count > 40 { break }
            prefix.append(c)
        }
        while prefix.last == " " { prefix.removeLast() }
        let hex = String(hash, radix: 16)
        return prefix + "~" + String(repeating: "0", count: 16 - hex.count) + hex
    }
}
