import CLI
import Configuration

/// `glance serve`: the store over HTTP for the phone and the home (its work is glance-serve's).
public enum ServeCommand {
    public struct Line: Sendable {
        public var config: String?
        public var layer = Layer()
        public var showToken = false
        public init() {}
    }

    public static let spec = CommandSpec<Line>(
        "serve", summary: "take days, metrics and tasks over HTTP (the phone, the home network)",
        usage: ["serve [--config FILE] [--db PATH] [--listen HOST:PORT]", "serve token [--config FILE]"],
        about: """
            Listens for HTTP requests that feed the store, in the foreground, logging one line per request, \
            until SIGTERM, SIGINT or SIGHUP: Health Auto Export's REST automations (POST \
            /v1/health-auto-export), Glance's own days, metrics and tasks (PUT /v1/days/DATE, POST /v1/days, \
            PUT /v1/metrics/NAME, POST /v1/tasks, PATCH /v1/tasks/NAME), and reads of them (GET /v1/days, \
            /v1/metrics, /v1/tasks). Every request but GET /v1/health sends the token of the configuration's \
            serve.tokenFile as Authorization: Bearer TOKEN. Each write is one transaction: a request changes \
            everything it says or nothing, and a running glance shows it at once. The unit glance-serve.service \
            runs exactly this (systemctl enable --now glance-serve). docs/live-data.md has the whole API, \
            curl examples and how to set up the phone.

            glance serve token prints the token as a QR code and as text, with the URLs to give the phone.
            """,
        groups: [
            OptionGroup("", CommonOptions.service(config: \.config, layer: \.layer, ["--listen"]))
        ],
        operands: Operands("token", completion: .choices(["token"])) { (words, line) throws(UsageError) in
            guard words.count <= 1, words.first.map({ $0 == "token" }) ?? true else {
                throw UsageError("serve: unexpected '\(words.joined(separator: " "))' (glance serve, or glance serve token)")
            }
            line.showToken = !words.isEmpty
        },
        exits: [
            ExitStatusNote(.ok, "stopped by SIGTERM, SIGINT or SIGHUP (or the token shown)"),
            ExitStatusNote(.noInput, "the token file or a TLS file cannot be read"),
            ExitStatusNote(.unavailable, "cannot listen there (the port is taken, the address is not this machine's)"),
            ExitStatusNote(.noPermission, "permission denied (the token file: join group glance; a port below 1024)"),
            ExitStatusNote(.config, "the configuration is invalid (a token shorter than 16 characters too)"),
        ])
}
