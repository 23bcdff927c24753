import CLI
import Configuration
import Store

/// `glance people`: the household (issue 39), each person with their own days and their own
/// token for their phone. Its work is glance-serve's (`glance-serve people …`): it needs the
/// store, the token files beside `serve.tokenFile` and libqrencode for the phone's QR code, and
/// none of the panel's code.
public enum PeopleCommand {
    public enum Job: Sendable, Equatable {
        case list
        case add(name: String, colour: String?)
        case rename(person: String, to: String)
        case colour(person: String, colour: String)
        case token(person: String, new: Bool)
        case remove(person: String, confirmed: Bool)
    }

    public struct Line: Sendable {
        public var config: String?
        public var layer = Layer()
        public var job = Job.list
        public var colour: String?
        public var new = false
        public var yes = false
        /// `--url`: where the phone posts (default: Health Auto Export's endpoint on the board's first address).
        public var url: String?
        /// `--panel`: the phone's QR code on the running panel too; `--socket`: its control socket.
        public var panel = false
        public var socket: String?
        public init() {}
    }

    /// A person's new name, checked as the store checks it (`Person.problem(name:)`).
    static func name(_ text: String) throws(UsageError) -> String {
        if let problem = Person.problem(name: text) { throw UsageError("people: \(problem)") }
        return text
    }

    /// A colour, `#rrggbb` readable on the panel's black (`Person.normalised(colour:)`).
    static func colour(_ text: String, _ what: String) throws(UsageError) -> String {
        do throws(StoreError) {
            return try Person.normalised(colour: text)
        } catch {
            throw UsageError("\(what): \(error.message)")
        }
    }

    /// The options, in steps (Swift 6.0.3 crashes on closures over key paths in one expression).
    static func options() -> [Option<Line>] {
        var options: [Option<Line>] = CommonOptions.service(config: \Line.config, layer: \Line.layer, [])
        options.append(
            Option<Line>.value("--colour", as: ValueParser("#rrggbb") { (text, option) throws(UsageError) in try colour(text, option) },
                help: "add: the colour of the person's name bar (readable on black), e.g. #4fc3f7") { $0.colour = $1 })
        options.append(Option<Line>.flag("--new", help: "token: make a new token; the old one is refused from then", sets: \.new))
        options.append(Option<Line>.flag("--yes", help: "remove: yes, remove the person with their days, samples and goals", sets: \.yes))
        options.append(
            Option<Line>.value("--url", as: ValueParser("URL") { text, _ in text },
                help: "add, token: the URL the phone posts to (default: Health Auto Export's endpoint on this "
                    + "machine's first address, as glance serve token lists them)") { $0.url = $1 })
        options.append(
            Option<Line>.flag(
                "--panel", help: "add, token: show the phone's QR code on the running panel too, until a press or for "
                    + "\(panelSeconds) s", sets: \.panel))
        options.append(
            Option<Line>.value("--socket", as: Value.file("PATH"),
                help: "with --panel: the running app's control socket (default: where glance message looks)") { $0.socket = $1 })
        return options
    }

    /// How long the panel shows a phone's QR code (the panel's `PanelQRCode.seconds`, which this
    /// module does not link).
    public static let panelSeconds = 120

    /// `--socket` without `--panel` is a mistake.
    static func checkPanel(_ line: Line) throws(UsageError) {
        if line.socket != nil && !line.panel { throw UsageError("people: --socket goes with --panel (the running panel's control socket)") }
    }

    public static let spec = CommandSpec<Line>(
        "people", summary: "the household: list, add, rename or remove people, and each one's token for their phone",
        usage: [
            "people [list] [--config FILE] [--db PATH]",
            "people add NAME [--colour #rrggbb] [--url URL] [--panel [--socket PATH]]",
            "people rename NAME NEW-NAME | glance people colour NAME #rrggbb",
            "people token NAME [--new] [--url URL] [--panel [--socket PATH]]",
            "people remove NAME --yes",
        ],
        about: """
            The people whose rings the panel shows, each with their own days, samples and goals, each pushing \
            from their own phone with their own token (docs/live-data.md: a household). Person 1 is the \
            store's first (named Me until renamed); their token is serve.tokenFile's, as glance serve token \
            shows it. At most \(Person.maximum) people.

            glance people (or people list) lists each person's id, name, colour, last push and token file. \
            NAME is a name (any case) or an id.

            people add NAME makes the person (1 to \(Person.nameLimit) characters, not all digits, unique \
            ignoring case; --colour, else the first free colour of the palette) and their token: the file \
            people/ID.token beside serve.tokenFile (mode 0640, the folder's group: root and group glance on the \
            board, so run it with sudo there), made whole or not at all. It prints the token with a QR code \
            of Health Auto Export's deep link, which makes the phone's automation (URL, JSON, the person's \
            Authorization header) when the iPhone's camera opens it, and the same settings as text to type.

            With --panel (add and token), the running glance shows the same QR code on the panel, black on \
            white as large as the panel holds it, with the person's name and "Scan with the iPhone's camera" \
            under it, until a press or a touch, \(panelSeconds) s, or the next message (the panel's log says whose \
            code it showed, never the token; a screenshot is refused while it shows). A panel not running: \
            said, with exit status 69, as glance message does (a person added is added all the same).

            people token NAME shows it again; --new makes a new one, and the old one is refused from the next \
            request on (glance serve reads the tokens again when their files change: no restart). \
            people rename and people colour change the name and the colour of the name bar.

            people remove NAME --yes removes the person's token (refused from then) and their days, samples \
            and goals. Person 1 cannot be removed (rename them instead).
            """,
        groups: [OptionGroup("", options())],
        operands: Operands(
            "list|add|rename|colour|token|remove [NAME …]",
            verbs: [
                .init("list"),
                .init("add", ["--colour", "--url", "--panel", "--socket"], operands: "NAME") { (words, line) throws(UsageError) in
                    try checkPanel(line)
                    line.job = .add(name: try name(words[0]), colour: line.colour)
                },
                .init("rename", operands: "NAME NEW-NAME") { (words, line) throws(UsageError) in
                    line.job = .rename(person: words[0], to: try name(words[1]))
                },
                .init("colour", operands: "NAME #rrggbb") { (words, line) throws(UsageError) in
                    line.job = .colour(person: words[0], colour: try colour(words[1], "people colour"))
                },
                .init("token", ["--new", "--url", "--panel", "--socket"], operands: "NAME") { (words, line) throws(UsageError) in
                    try checkPanel(line)
                    line.job = .token(person: words[0], new: line.new)
                },
                .init("remove", ["--yes"], operands: "NAME") { words, line in line.job = .remove(person: words[0], confirmed: line.yes) },
            ], common: ["--config", "--db"], defaultVerb: "list"),
        exits: [
            ExitStatusNote(.ok, "done (or listed, or the token shown)"),
            ExitStatusNote(
                .usage,
                "a bad name or colour, no such person, a ninth person, person 1 to remove, remove without --yes (nothing changed), "
                    + "or --panel with a link too long for the panel's largest code"),
            ExitStatusNote(.dataError, "the store is not a Glance store"),
            ExitStatusNote(.noInput, "token: the person has no token file, or it cannot be read"),
            ExitStatusNote(.unavailable, "--panel: no running glance answers (start it, or give --socket)"),
            ExitStatusNote(.cannotCreate, "the token's file or folder cannot be made (nothing changed)"),
            ExitStatusNote(.ioError, "the store could not be written (a read-only or full disk), or --panel: the panel's answer could not be read"),
            ExitStatusNote(.temporaryFailure, "the store is busy; try again; or --panel: the panel refused the code (said why) or did not answer within 5 s"),
            ExitStatusNote(
                .noPermission, "permission denied (the token files are root's: sudo; the store: group glance), a token file others may read, or "
                    + "--panel: not allowed to ask the panel (group glance)"),
            ExitStatusNote(.config, "the configuration is invalid or cannot be read, or a token shorter than 16 characters"),
        ])
}
