import CLI
import Configuration

/// `glance web`: the panel's own web page (issue 41, docs/web.md). Its work is glance-serve's
/// (`glance-serve web …`): the network side, never the panel's process.
public enum WebCommand {
    public enum Job: Sendable, Equatable {
        /// Serve the page on `web.listen`.
        case serve
        /// A one-time link to sign in with (and its QR code on the panel with `--panel`).
        case link
    }

    public struct Line: Sendable {
        public var config: String?
        public var layer = Layer()
        public var job = Job.serve
        /// `--url`: the page's address in the link (default: web.url, else the board's name).
        public var url: String?
        /// `--panel`: the link's QR code on the running panel too.
        public var panel = false
        /// `--socket`: the running panel's control socket.
        public var socket: String?
        public init() {}
    }

    static func options() -> [Option<Line>] {
        var options: [Option<Line>] = CommonOptions.service(config: \Line.config, layer: \Line.layer, [])
        options.append(
            Option<Line>.value("--url", as: ValueParser("URL") { text, _ in text },
                help: "link: the page's address as a phone reaches it (default: web.url, else http:// the board's name .local and the port)") {
                $0.url = $1
            })
        options.append(
            Option<Line>.flag("--panel", help: "link: show the link as a QR code on the running panel too (\(PeopleCommand.panelSeconds) s, or until a press)", sets: \.panel))
        options.append(
            Option<Line>.value("--socket", as: Value.file("PATH"),
                help: "the running app's control socket (default: where glance message looks)") { $0.socket = $1 })
        return options
    }

    public static let spec = CommandSpec<Line>(
        "web", summary: "the panel's own web page: what the glass shows, its controls and its settings, from a phone",
        usage: ["web [serve] [--config FILE] [--socket PATH]", "web link [--url URL] [--panel [--socket PATH]]"],
        about: """
            glance web serves the panel's own page on web.listen (off until it is set: "web": {"listen": \
            "0.0.0.0:8128"}): what the panel shows now, refreshed when it changes, the screen, next, today, \
            refresh, the light and the brightness; every setting with its help, grouped as docs/settings.md \
            groups them; the gauges, the schedule and the cycle; the goals and their history; the household's \
            QR codes; the services' journal and the board. It is glance-serve's (the network side), never \
            the panel's process, and it talks to the panel over its control socket (group glance).

            A save is checked as glance config check checks a file, written whole with the file before it \
            kept beside it (config.json.previous), and read by the running panel (the control socket's reload); \
            when the panel refuses it or does not come back showing a screen, the previous file is put back \
            and the page says why. Only the settings changed are written: the rest of the file (order, \
            spacing, number spellings) stays as it was.

            glance web link makes a one-time link to sign in with (good for 10 minutes, once): it prints it, \
            and with --panel shows it as a QR code on the panel. Opening it sets a session cookie \
            (HttpOnly, SameSite=Strict) for web.sessionHours; every form carries a CSRF token.
            """,
        groups: [OptionGroup("", options())],
        operands: Operands(
            "[link]",
            verbs: [
                .init("serve", ["--socket"]) { _, line in line.job = .serve },
                .init("link", ["--url", "--panel", "--socket"]) { _, line in line.job = .link },
            ], common: ["--config", "--db"], defaultVerb: "serve"),
        exits: [
            ExitStatusNote(.ok, "served until stopped (or web.listen is null: said, nothing served), or the link made"),
            ExitStatusNote(.usage, "a bad option"),
            ExitStatusNote(.unavailable, "the address is taken, or link --panel: no running glance answers"),
            ExitStatusNote(.cannotCreate, "link: web.linkFile cannot be written"),
            ExitStatusNote(.noPermission, "permission denied (a port below 1024, web.linkFile, or the panel's socket: group glance)"),
            ExitStatusNote(.temporaryFailure, "link --panel: the panel refused the code or did not answer within 5 s"),
            ExitStatusNote(.config, "the configuration is invalid or cannot be read, or link without web.listen"),
        ])
}
