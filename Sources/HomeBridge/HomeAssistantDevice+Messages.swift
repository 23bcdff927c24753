import Activity
import Controls
import JSON
import MQTT

/// Home Assistant's notify on the panel: the Message notify entity (Home Assistant 2024.5 and
/// later: `notify.send_message` to it) whose payload becomes the panel's `message` request, and
/// the Message dismissed event that says how each message went (pressed, timeout, replaced).
extension HomeAssistantDevice {
    /// The topic the notify entity publishes its messages on (`mqtt.publish` to it works too,
    /// where Home Assistant has no MQTT notify).
    var messageTopic: String { topic("message", "send") }
    /// The topic of the Message dismissed event.
    var messageEventTopic: String { topic("message", "event") }

    /// The longest payload taken; the text shown is cut to the panel's 255 bytes.
    static let maximumMessagePayload = 4096

    /// The notify entity (unless `homeAssistant.notify` is false: a Home Assistant before 2024.5)
    /// and the event entity. The topic takes messages either way.
    var messageEntities: [Entity] {
        (notify
            ? [
                Entity(
                    component: "notify", object: "message", name: "Message",
                    members: [("command_topic", .string(messageTopic)), ("icon", .string("mdi:message-text"))])
            ] : []) + [
            Entity(
                component: "event", object: "message_dismissed", name: "Message dismissed",
                members: [
                    ("state_topic", .string(messageEventTopic)),
                    ("event_types", .array(MessageEnd.allCases.map { .string($0.rawValue) })), ("icon", .string("mdi:message-check")),
                ]),
        ]
    }

    /// The panel's request for a notify payload, or why there is none: UTF-8 text of at most
    /// `maximumMessagePayload` bytes. What Home Assistant's text may hold and the panel takes
    /// nothing of is made plain here: a carriage return and line feed (or a carriage return alone)
    /// a line feed, any other control character (a tab, an escape) a space; a text longer than
    /// the panel's 255 bytes is cut after a character and ends in "…".
    func messageRequest(_ payload: [UInt8]) -> Result<PanelRequest, PanelRefusal> {
        guard payload.count <= Self.maximumMessagePayload else {
            return .failure(PanelRefusal("a message of at most \(Self.maximumMessagePayload) bytes (the panel shows 255)"))
        }
        guard let text = String(validating: payload, as: UTF8.self) else { return .failure(PanelRefusal("a message in UTF-8")) }
        var plain = String.UnicodeScalarView()
        var previous: Unicode.Scalar?
        for scalar in text.unicodeScalars {
            defer { previous = scalar }
            if scalar == "\n" && previous == "\r" { continue }
            if scalar == "\r" || scalar == "\n" {
                plain.append("\n")
            } else if scalar.properties.generalCategory == .control {
                plain.append(" ")
            } else {
                plain.append(scalar)
            }
        }
        var cut = String(plain)
        if cut.utf8.count > PanelMessage.maximumBytes {
            var kept = ""
            for c in cut {
                guard kept.utf8.count + c.utf8.count <= PanelMessage.maximumBytes - "…".utf8.count else { break }
                kept.append(c)
            }
            cut = kept + "…"
        }
        switch PanelMessage.check(Array(cut.utf8)) {
        case .success(let checked): return .success(.message(PanelMessage(text: checked)))
        case .failure: return .failure(PanelRefusal("an empty message"))
        }
    }

    /// How a message went, as the Message dismissed event (not retained: it happened once).
    func dismissed(_ end: MessageEnd) -> MQTTClient.Outgoing {
        let json: JSON = .object([("event_type", .string(end.rawValue))])
        return MQTTClient.Outgoing(topic: messageEventTopic, payload: Array(json.text.utf8), retain: false)
    }
}
