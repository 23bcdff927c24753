/// The whole program's command line: its commands' declarations, for the top-level help, the
/// man page and the shell completions.
public struct ProgramDescription: Sendable {
    public let name: String
    public let version: String
    /// The date of this version (YYYY-MM-DD), for the man page.
    public let date: String
    /// One line: what the program is.
    public let summary: String
    /// What it does, in paragraphs.
    public let about: String
    /// The commands, in the order the help lists them, under headings.
    public let sections: [(title: String, commands: [CommandDescription])]
    /// Exit statuses common to every command.
    public let exits: [ExitStatusNote]
    /// Files it reads, for the man page: (path, what).
    public let files: [(path: String, meaning: String)]
    /// Environment variables it reads, for the man page.
    public let environment: [(name: String, meaning: String)]
    /// The configuration file's settings, for the man page: (name, what).
    public let settings: [(name: String, meaning: String)]

    public init(
        name: String, version: String, date: String, summary: String, about: String,
        sections: [(title: String, commands: [CommandDescription])], exits: [ExitStatusNote],
        files: [(path: String, meaning: String)] = [], environment: [(name: String, meaning: String)] = [],
        settings: [(name: String, meaning: String)] = []
    ) {
        self.name = name
        self.version = version
        self.date = date
        self.summary = summary
        self.about = about
        self.sections = sections
        self.exits = exits
        self.files = files
        self.environment = environment
        self.settings = settings
    }

    public var commands: [CommandDescription] { sections.flatMap(\.commands) }

    public func command(_ name: String) -> CommandDescription? { commands.first { $0.name == name } }

    /// `glance --help`.
    public var help: String {
        var out = "Usage: \(name) COMMAND [options]\n\n" + HelpText.paragraphs(about)
        let width = max(10, (commands.map(\.name.count).max() ?? 0) + 4)
        for section in sections {
            out += "\n\(section.title):\n"
            for command in section.commands {
                let head = "  " + command.name
                out += HelpText.wrap(
                    command.summary, first: head + String(repeating: " ", count: width + 2 - head.count), rest: width + 2)
            }
        }
        out += "\n" + HelpText.paragraphs(
            "Run `\(name) COMMAND --help` (or `\(name) help COMMAND`) for a command's options, `\(name) --version` for "
                + "the version, `\(name) completion bash|zsh|fish` for shell completion.")
        out += "\nExit status:\n"
        for exit in exits {
            let code = String(exit.code)
            out += HelpText.wrap(exit.meaning, first: "  " + code + String(repeating: " ", count: max(1, 4 - code.count)), rest: 6)
        }
        out.removeLast()
        return out
    }
}
