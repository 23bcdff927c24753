/// What every program made of commands has beside its own, the same for any: how a command line
/// begins (`--help`, `--version`, an unknown command), `help [COMMAND]` / `help --man` and
/// `completion bash|zsh|fish`. Pure: each answers with text; the program writes it.

/// What a built-in answers: its output, or a complaint (a bad argument, exit status 64).
public enum Answer: Sendable, Equatable {
    case text(String)
    case refused(String)
}

extension ProgramDescription {
    /// How a command line begins, before any command's declaration is made.
    public enum Start: Sendable, Equatable {
        /// `--help`, `--version`, no command or an unknown one.
        case answer(Answer)
        /// The command `name` with the arguments after it.
        case command(String, [String])
    }

    /// Where `arguments` (without the program's name) go, given the names of the commands (a
    /// program need not make its declarations to know them).
    public static func start(_ arguments: [String], name: String, version: String, commands: [String], help: () -> String) -> Start {
        guard let first = arguments.first else { return .answer(.refused("no command given\n\n\(help())")) }
        if ["--help", "-h"].contains(first) { return .answer(.text(help())) }
        if first == "--version" { return .answer(.text("\(name) \(version)")) }
        guard commands.contains(first) else {
            return .answer(
                .refused("unknown command '\(first)' (commands: \(commands.joined(separator: ", ")); see \(name) --help)"))
        }
        return .command(first, Array(arguments.dropFirst()))
    }
}

public enum Builtins {
    /// `help`'s command line.
    public struct Help: Sendable {
        public var command: String?
        public var man = false
        public init() {}
    }

    public static func help(_ program: String) -> CommandSpec<Help> {
        CommandSpec<Help>(
            "help", summary: "a command's options (\(program) help COMMAND), or the manual page (--man)",
            usage: ["help [COMMAND]", "help --man"],
            about: "Prints the help of COMMAND (as \(program) COMMAND --help does), or of \(program) itself.",
            groups: [
                OptionGroup(
                    "", [.flag("--man", help: "print the manual page \(program)(1) in roff, as the package installs it", sets: \.man)])
            ],
            operands: Operands("COMMAND", completion: .commands) { (words, line) throws(UsageError) in
                guard words.count <= 1 else { throw UsageError("help: give one command") }
                line.command = words.first
            },
            exits: [ExitStatusNote(0, "printed"), ExitStatusNote(64, "no such command")])
    }

    public static func help(_ line: Help, of program: ProgramDescription) -> Answer {
        if line.man { return .text(Manual.page(program)) }
        guard let name = line.command else { return .text(program.help) }
        guard let command = program.command(name) else {
            return .refused(
                "help: unknown command '\(name)' (commands: \(program.commands.map(\.name).joined(separator: ", ")))")
        }
        return .text(HelpText.render(command))
    }

    public static func completion(_ program: String) -> CommandSpec<CompletionScript.Shell?> {
        CommandSpec<CompletionScript.Shell?>(
            "completion", summary: "a completion script for bash, zsh or fish", usage: ["completion bash|zsh|fish"],
            about: """
                Prints the shell's completion script for \(program) (the package installs all three). To try one in \
                the shell you are in: source <(\(program) completion bash), or \(program) completion fish | source.
                """,
            groups: [],
            operands: Operands("bash|zsh|fish", completion: .choices(CompletionScript.Shell.allCases.map(\.rawValue))) {
                (words, shell) throws(UsageError) in
                guard words.count == 1, let s = CompletionScript.Shell(rawValue: words[0]) else {
                    throw UsageError("completion: give the shell: bash, zsh or fish")
                }
                shell = s
            },
            exits: [ExitStatusNote(0, "printed"), ExitStatusNote(64, "no such shell")])
    }

    /// The script without its last line break (the program's output adds one).
    public static func completion(_ shell: CompletionScript.Shell, of program: ProgramDescription) -> String {
        let script = CompletionScript.script(shell, for: program)
        return script.hasSuffix("\n") ? String(script.dropLast()) : script
    }
}
