import CLI
import Configuration

/// `glance mqtt`: the bridge between the home's MQTT broker and the panel (its work is glance-mqtt's).
public enum MQTTCommand {
    public struct Line: Sendable {
        public var config: String?
        public var layer = Layer()
        public init() {}
    }

    public static let spec = CommandSpec<Line>(
        "mqtt", summary: "bridge MQTT and Home Assistant to the store and the running panel",
        usage: ["mqtt [--config FILE] [--db PATH] [--socket PATH]"],
        about: """
            Connects to the configuration's MQTT broker ("mqtt") in the foreground until SIGTERM, SIGINT or \
            SIGHUP. Each number on a gauge's topic is written into the store as the metric mqtt:TOPIC (or \
            mqtt:TOPIC:FIELD), so the gauge shows it, stale by its time, as any other metric. With \
            "homeAssistant" (on by default) the panel appears in Home Assistant as a device, by MQTT \
            discovery: its backlight as a light, the screen shown as a select, buttons for the next screen, \
            refresh and today, a switch for the cycle, sensors for today's rings, the screen and the last \
            touch; its commands reach the running panel over its control socket. The unit \
            glance-mqtt.service runs exactly this. docs/home-assistant.md has the whole of it.
            """,
        groups: [
            OptionGroup("", CommonOptions.service(config: \.config, layer: \.layer, ["--socket"]))
        ],
        exits: [
            ExitStatusNote(.ok, "stopped by SIGTERM, SIGINT or SIGHUP"),
            ExitStatusNote(.dataError, "the store is not a Glance store"),
            ExitStatusNote(.cannotCreate, "the store cannot be made there"),
            ExitStatusNote(.noPermission, "permission denied (the store: join group glance)"),
            ExitStatusNote(.temporaryFailure, "another glance mqtt already bridges this store (one bridge per panel)"),
            ExitStatusNote(.config, "the configuration is invalid, or names no broker"),
        ])
}
