import Activity
import Configuration
import Controls
import Feeds
import JSON
import MQTT
import Platform

/// The panel as Home Assistant sees it through MQTT discovery: one device, its entities' retained
/// configuration messages, their state topics' payloads, and what a command topic's payload asks
/// of the panel. Pure: `MQTTBridge` publishes what this says.
///
/// Topics: `PREFIX/COMPONENT/NODE/OBJECT/config` for discovery (PREFIX: `homeassistant`), and
/// under BASE (`glance/NODE`) `availability` (`online`/`offline`, the last will), `OBJECT/set` or
/// `OBJECT/press` for commands, `OBJECT/state` for states. NODE is `glance_` and 12 hex digits of
/// a hash of the machine id (the id itself is not published: machine-id(5) asks for that).
struct HomeAssistantDevice {
    let prefix: String
    let base: String
    let node: String
    let name: String
    let version: String
    /// Whether the Message notify entity is offered (`homeAssistant.notify`).
    let notify: Bool

    init(setting: HomeAssistantSetting, machineId: String, version: String) {
        notify = setting.notify
        node = "glance_" + Self.hash(machineId)
        prefix = setting.discoveryPrefix
        base = setting.baseTopic ?? "glance/" + node
        name = setting.deviceName
        self.version = version
    }

    /// 12 hex digits of FNV-1a of "glance:" and `text`.
    static func hash(_ text: String) -> String {
        let hex = String(MQTTTopic.fnv1a("glance:" + text) >> 16, radix: 16)
        return String(repeating: "0", count: 12 - hex.count) + hex
    }

    /// The bridge's own availability: `online` while it is connected, `offline` its last will.
    var availability: String { base + "/availability" }
    /// The panel's availability, as the bridge hears it on the panel's control socket: `online`
    /// while `glance run` answers there, `offline` when it went away or stopped answering
    /// (`PanelLink`'s keep-alive). The panel's entities need both (`availability_mode: all`).
    var panelAvailability: String { base + "/panel/availability" }
    /// Home Assistant's birth and last will: `online` when it (re)starts.
    var status: String { prefix + "/status" }

    static let online: [UInt8] = Array("online".utf8)
    static let offline: [UInt8] = Array("offline".utf8)

    // MARK: Discovery

    /// One entity: its component, object id and the members of its configuration besides the
    /// shared ones (name, unique id, availability, device).
    struct Entity {
        let component: String
        let object: String
        let name: String
        let members: [(key: String, value: JSON)]
        /// Whether it speaks for the running panel (available only while the panel is), or for
        /// the store (today's rings: true while the bridge runs, whether the panel does or not).
        var panel = true
    }

    func topic(_ object: String, _ leaf: String) -> String { base + "/" + object + "/" + leaf }

    /// The entities: the light (brightness only where the panel can dim), the screen select
    /// (its options every screen the panel can show: `screens`), three buttons, the cycle switch
    /// (only where a cycle is configured), the sensors.
    func entities(screens: [ScreenKind], dimmable: Bool, cycle: Bool = true) -> [Entity] {
        var light: [(key: String, value: JSON)] = [
            ("command_topic", .string(topic("light", "set"))), ("state_topic", .string(topic("light", "state"))),
            ("payload_on", .string("ON")), ("payload_off", .string("OFF")),
        ]
        if dimmable {
            light += [
                ("brightness_command_topic", .string(topic("brightness", "set"))),
                ("brightness_state_topic", .string(topic("brightness", "state"))), ("brightness_scale", .number(100)),
                ("on_command_type", .string("brightness")),
            ]
        }
        func button(_ object: String, _ name: String, icon: String) -> Entity {
            Entity(
                component: "button", object: object, name: name,
                members: [("command_topic", .string(topic(object, "press"))), ("payload_press", .string("PRESS")), ("icon", .string(icon))])
        }
        func ring(_ key: String, _ name: String, unit: String, icon: String) -> Entity {
            Entity(
                component: "sensor", object: key, name: name,
                members: [
                    ("state_topic", .string(topic("today", "state"))), ("value_template", .string("{{ value_json.\(key) }}")),
                    ("unit_of_measurement", .string(unit)), ("state_class", .string("measurement")), ("icon", .string(icon)),
                ], panel: false)
        }
        func idleNumber(_ object: String, _ name: String, icon: String) -> Entity {
            Entity(
                component: "number", object: object, name: name,
                members: [
                    ("command_topic", .string(topic(object, "set"))), ("state_topic", .string(topic(object, "state"))),
                    ("min", .number(0)), ("max", .number(86400)), ("step", .number(1)), ("unit_of_measurement", .string("s")),
                    ("mode", .string("box")), ("entity_category", .string("config")), ("icon", .string(icon)),
                ])
        }
        let cycleSwitch = Entity(
            component: "switch", object: "cycle", name: "Cycle screens",
            members: [
                ("command_topic", .string(topic("cycle", "set"))), ("state_topic", .string(topic("cycle", "state"))),
                ("payload_on", .string("ON")), ("payload_off", .string("OFF")), ("icon", .string("mdi:autorenew")),
            ])
        return [
            Entity(component: "light", object: "backlight", name: "Backlight", members: light),
            Entity(
                component: "select", object: "screen", name: "Screen",
                members: [
                    ("command_topic", .string(topic("screen", "set"))), ("state_topic", .string(topic("screen", "state"))),
                    ("options", .array(screens.map { .string($0.rawValue) })), ("icon", .string("mdi:monitor")),
                ]),
            button("next", "Next screen", icon: "mdi:page-next"),
            button("refresh", "Refresh", icon: "mdi:refresh"),
            button("today", "Today", icon: "mdi:calendar-today"),
            Entity(
                component: "button", object: "restart", name: "Restart",
                members: [
                    ("command_topic", .string(topic("restart", "press"))), ("payload_press", .string("PRESS")),
                    ("device_class", .string("restart")), ("entity_category", .string("config")),
                ]),
            idleNumber("dim", "Dim after", icon: "mdi:brightness-6"),
            idleNumber("blank", "Blank after", icon: "mdi:monitor-off"),
        ] + (cycle ? [cycleSwitch] : []) + [
            ring("move", "Move", unit: "kcal", icon: "mdi:fire"),
            ring("move_goal", "Move goal", unit: "kcal", icon: "mdi:fire"),
            ring("exercise", "Exercise", unit: "min", icon: "mdi:run"),
            ring("exercise_goal", "Exercise goal", unit: "min", icon: "mdi:run"),
            ring("stand", "Stand", unit: "h", icon: "mdi:human-handsup"),
            ring("stand_goal", "Stand goal", unit: "h", icon: "mdi:human-handsup"),
            Entity(
                component: "sensor", object: "screen_shown", name: "Screen shown",
                members: [("state_topic", .string(topic("screen", "state"))), ("icon", .string("mdi:monitor-eye"))]),
            Entity(
                component: "sensor", object: "last_touch", name: "Last touch",
                members: [("state_topic", .string(topic("touched", "state"))), ("device_class", .string("timestamp"))]),
            Entity(
                component: "image", object: "screenshot", name: "Screenshot",
                members: [("image_topic", .string(topic("screenshot", "image"))), ("content_type", .string("image/png"))]),
            Entity(
                component: "event", object: "refused", name: "Refused command",
                members: [
                    ("state_topic", .string(topic("refused", "event"))), ("event_types", .array([.string("refused")])),
                    ("icon", .string("mdi:message-alert")),
                ]),
        ] + messageEntities
    }

    /// A person of the household other than person 1 (whose rings are the device's own sensors,
    /// as before there were people): their id and name.
    struct Sharer: Equatable {
        let id: Int
        let name: String
    }

    /// The state topic of person `id`'s rings today: `today` for person 1, `today_ID` for the others.
    func todayTopic(person id: Int) -> String { topic(id == 1 ? "today" : "today_\(id)", "state") }

    /// The other people's rings, six sensors each as person 1's, named with their name
    /// ("Ann Move"), their unique ids by the person's id (a rename keeps the entities).
    func sharerEntities(_ people: [Sharer]) -> [Entity] {
        people.filter { $0.id != 1 }.flatMap { person in
            [
                ("move", "Move", "kcal", "mdi:fire"), ("move_goal", "Move goal", "kcal", "mdi:fire"),
                ("exercise", "Exercise", "min", "mdi:run"), ("exercise_goal", "Exercise goal", "min", "mdi:run"),
                ("stand", "Stand", "h", "mdi:human-handsup"), ("stand_goal", "Stand goal", "h", "mdi:human-handsup"),
            ].map { key, name, unit, icon in
                Entity(
                    component: "sensor", object: "person\(person.id)_\(key)", name: "\(person.name) \(name)",
                    members: [
                        ("state_topic", .string(todayTopic(person: person.id))), ("value_template", .string("{{ value_json.\(key) }}")),
                        ("unit_of_measurement", .string(unit)), ("state_class", .string("measurement")), ("icon", .string(icon)),
                    ], panel: false)
            }
        }
    }

    /// The retained configuration message of each entity.
    func discovery(
        screens: [ScreenKind], dimmable: Bool, cycle: Bool = true, host: HostFacts? = nil, people: [Sharer] = []
    ) -> [MQTTClient.Outgoing] {
        (entities(screens: screens, dimmable: dimmable, cycle: cycle) + sharerEntities(people) + (host.map(hostEntities) ?? [])).map { entity in
            let device: JSON = .object([
                ("identifiers", .array([.string(node)])), ("name", .string(name)), ("manufacturer", .string("Glance")),
                ("model", .string("Glance panel")), ("sw_version", .string(version)),
            ])
            // No `object_id` (deprecated since Home Assistant 2025.10, not working from 2026.4) and no
            // `default_entity_id` (its replacement, which 2025.10 added): without either Home
            // Assistant makes the entity id from the device's name and the entity's
            // (`light.kitchen_panel_backlight`), as every release since 2023.8 does. The unique id
            // stays what it always was: the registry keeps a user's renames by it.
            let availability: [(key: String, value: JSON)] =
                entity.panel
                ? [
                    ("availability", .array([.object([("topic", .string(self.availability))]), .object([("topic", .string(panelAvailability))])])),
                    ("availability_mode", .string("all")),
                ] : [("availability_topic", .string(self.availability))]
            let shared: [(key: String, value: JSON)] =
                [("name", .string(entity.name)), ("unique_id", .string(node + "_" + entity.object))] + availability
            let config: JSON = .object(shared + entity.members + [(key: "device", value: device)])
            return MQTTClient.Outgoing(
                topic: "\(prefix)/\(entity.component)/\(node)/\(entity.object)/config", payload: Array(config.text.utf8), retain: true)
        }
    }

    // MARK: Commands

    /// The topics commands come on.
    var commandTopics: [String] {
        [topic("light", "set"), topic("brightness", "set"), topic("screen", "set"), topic("next", "press"),
         topic("refresh", "press"), topic("today", "press"), topic("cycle", "set"), topic("restart", "press"),
         topic("dim", "set"), topic("blank", "set")]
    }

    /// What a command topic's payload asks of the panel, or why it is refused: exact words only
    /// (`ON`, `OFF`, `PRESS`, a screen's name, a brightness 0…100), at most 16 bytes.
    func request(topic: String, payload: [UInt8]) -> Result<PanelRequest, PanelRefusal> {
        guard payload.count <= 16, let text = String(validating: payload, as: UTF8.self) else {
            return .failure(PanelRefusal("a payload of at most 16 bytes of text"))
        }
        func onOff(_ make: (Bool) -> PanelRequest) -> Result<PanelRequest, PanelRefusal> {
            switch text {
            case "ON": .success(make(true))
            case "OFF": .success(make(false))
            default: .failure(PanelRefusal("expected ON or OFF, found \"\(Quote.clip(text, 16))\""))
            }
        }
        switch topic {
        case self.topic("light", "set"): return onOff { .light(on: $0) }
        case self.topic("cycle", "set"): return onOff { .cycle(on: $0) }
        case self.topic("brightness", "set"):
            guard text.utf8.count <= 3, let n = Int(text), (0...100).contains(n) else {
                return .failure(PanelRefusal("expected a brightness from 0 to 100, found \"\(Quote.clip(text, 16))\""))
            }
            return .success(n == 0 ? .light(on: false) : .brightness(n))
        case self.topic("screen", "set"):
            guard let kind = ScreenKind(rawValue: text) else {
                return .failure(PanelRefusal("expected a screen's name, found \"\(Quote.clip(text, 16))\""))
            }
            return .success(.show(kind))
        case self.topic("dim", "set"), self.topic("blank", "set"):
            // Home Assistant's number sends `120` or `120.0`: whole seconds either way.
            guard text.utf8.count <= 8, let x = Double(text), x == x.rounded(), (0...86400).contains(x) else {
                return .failure(PanelRefusal("expected whole seconds from 0 (never) to 86400, found \"\(Quote.clip(text, 16))\""))
            }
            return .success(topic == self.topic("dim", "set") ? .dim(Int(x)) : .blank(Int(x)))
        case self.topic("restart", "press"):
            guard text == "PRESS" else { return .failure(PanelRefusal("expected PRESS, found \"\(Quote.clip(text, 16))\"")) }
            return .success(.restart)
        case self.topic("next", "press"), self.topic("refresh", "press"), self.topic("today", "press"):
            guard text == "PRESS" else { return .failure(PanelRefusal("expected PRESS, found \"\(Quote.clip(text, 16))\"")) }
            return .success(topic.hasPrefix(self.topic("next", "")) ? .next : topic.hasPrefix(self.topic("refresh", "")) ? .refresh : .today)
        default:
            return .failure(PanelRefusal("not a command topic"))
        }
    }

    // MARK: States

    /// An entity's configuration topic given an empty retained payload: Home Assistant removes
    /// the entity (the cycle switch when the cycle is gone from the configuration).
    static func removal(_ configTopic: String) -> MQTTClient.Outgoing {
        MQTTClient.Outgoing(topic: configTopic, payload: [], retain: true)
    }

    /// The screens the select offers: every screen the panel can show — the ones it says it
    /// has, the configuration's, each schedule window's (a window may show the clock though the
    /// day's screens do not list it) and the one shown — each once, in that order. An option
    /// missing for a screen shown would make Home Assistant reject the select's state.
    static func selectable(panel: PanelState?, configured: [ScreenKind], windows: [[ScreenKind]]) -> [ScreenKind] {
        var all: [ScreenKind] = []
        let candidates = (panel?.screens ?? []) + configured + windows.flatMap({ $0 }) + (panel.map({ [$0.screen] }) ?? [])
        for kind in candidates where !all.contains(kind) { all.append(kind) }
        return all
    }

    /// The state topics' payloads for the panel's state (nil: not known, none published). The
    /// cycle's only where there is a switch; the last touch only once there was one: Home
    /// Assistant takes `None` as unknown only for numeric sensors, a timestamp sensor logs any
    /// text that is not a time as invalid (an empty payload too), so before the first touch
    /// nothing is said and the sensor stays unknown (or at a touch retained from earlier).
    func states(panel: PanelState?, cycleSwitch: Bool = true) -> [MQTTClient.Outgoing] {
        guard let panel else { return [] }
        var states = [
            (topic("light", "state"), panel.light ? "ON" : "OFF"), (topic("brightness", "state"), String(panel.brightness)),
            (topic("screen", "state"), panel.screen.rawValue),
            // The idle numbers: 0 is never.
            (topic("dim", "state"), String(panel.dimAfter ?? 0)), (topic("blank", "state"), String(panel.blankAfter ?? 0)),
        ]
        // The switch's state where there is one: OFF while no cycle turns (a window without one).
        if cycleSwitch { states.append((topic("cycle", "state"), panel.cycle == true ? "ON" : "OFF")) }
        if let touched = panel.touched { states.append((topic("touched", "state"), Self.iso(touched))) }
        return states.map { MQTTClient.Outgoing(topic: $0.0, payload: Array($0.1.utf8), retain: true) }
    }

    /// The Screenshot image: the panel's frame as a PNG, retained (Home Assistant shows the last
    /// one after its own restart).
    func screenshot(_ png: [UInt8]) -> MQTTClient.Outgoing {
        MQTTClient.Outgoing(topic: topic("screenshot", "image"), payload: png, retain: true)
    }

    /// The panel's availability: `online` while it answers on its control socket.
    func panel(available: Bool) -> MQTTClient.Outgoing {
        MQTTClient.Outgoing(topic: panelAvailability, payload: available ? Self.online : Self.offline, retain: true)
    }

    /// A command the panel did not take, as the Refused command event (not retained: an event is
    /// what happened once, not a state): the command's topic below the base, what it asked, and
    /// why not. Home Assistant keeps `command` and `reason` as the event's attributes.
    func refused(topic commandTopic: String, asked: String, reason: String) -> MQTTClient.Outgoing {
        let short = commandTopic.hasPrefix(base + "/") ? String(commandTopic.dropFirst(base.utf8.count + 1)) : commandTopic
        let json: JSON = .object([
            ("event_type", .string("refused")), ("command", .string(Quote.clip(short, 64))), ("asked", .string(Quote.clip(asked, 64))),
            ("reason", .string(Quote.clip(reason, 200))),
        ])
        return MQTTClient.Outgoing(topic: topic("refused", "event"), payload: Array(json.text.utf8), retain: false)
    }

    /// Today's rings as one JSON state (kcal, minutes, hours; null where the day has none).
    func today(_ summary: ActivitySummary?, person: Int = 1) -> MQTTClient.Outgoing {
        func number(_ x: Double?) -> JSON { x.map { .number(($0 * 10).rounded() / 10) } ?? .null }
        let s = summary
        let json: JSON = .object([
            ("move", number(s?.activeEnergyBurned.map { $0.value * $0.unit.kilocalories })),
            ("move_goal", number(s?.activeEnergyBurnedGoal.map { $0.value * $0.unit.kilocalories })),
            ("exercise", number(s?.exerciseTime)), ("exercise_goal", number(s?.exerciseTimeGoal)),
            ("stand", number(s?.standHours)), ("stand_goal", number(s?.standHoursGoal)),
        ])
        return MQTTClient.Outgoing(topic: todayTopic(person: person), payload: Array(json.text.utf8), retain: true)
    }

    /// `2026-12-02T03:53:06+00:00` for seconds since 1970.
    static func iso(_ seconds: Int64) -> String {
        let days = Int((Double(seconds) / 86400).rounded(.down))
        let rest = Int(seconds - Int64(days) * 86400)
        let day = CalendarDay(daysSinceEpoch: days)
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(day)T\(two(rest / 3600)):\(two(rest / 60 % 60)):\(two(rest % 60))+00:00"
    }
}
