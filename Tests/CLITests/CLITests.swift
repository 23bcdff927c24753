import CLI
import Testing

/// The declared command line: parsing, the help made from it, the man page and the completions.
@Suite("Declared command line", .timeLimit(.minutes(10)))
struct CLITests {
    struct Target: Equatable, Sendable {
        var size = 0
        var name: String?
        var flag = false
        var words: [String] = []
        var level = 0.0
    }

    static let count = ValueParser<Int>("N") { (text, option) throws(UsageError) in
        guard let n = Int(text), n > 0 else { throw UsageError("\(option) '\(text)': expected a count") }
        return n
    }
    static let real = ValueParser<Double>("X") { (text, option) throws(UsageError) in
        guard let x = Double(text) else { throw UsageError("\(option) '\(text)': expected a number") }
        return x
    }

    static let spec = CommandSpec<Target>(
        "try", summary: "a command to try the parser on", usage: ["try [options] WORD…"],
        about: "First paragraph, long enough to be wrapped at the help's width of ninety-six columns, so that it is.\n\n  an indented line kept as written",
        groups: [
            OptionGroup(
                "Things",
                [
                    .value("--size", "-s", as: count, help: "how many", default: "0") { $0.size = $1 },
                    .value("--name", as: ValueParser("NAME", completion: .choices(["a", "b"])) { text, _ in text }, help: "whose") {
                        $0.name = $1
                    },
                    .flag("--flag", help: "a flag") { $0.flag = true },
                    .value("--level", as: real, help: "any number, negative too") { $0.level = $1 },
                    .refused("--other", message: "try: --other is for another command"),
                ])
        ],
        operands: Operands("WORD", completion: .file(extensions: ["png"])) { (words, target) throws(UsageError) in
            target.words = words
        },
        exits: [ExitStatusNote(0, "done"), ExitStatusNote(64, "bad arguments")],
        finish: { (target) throws(UsageError) in
            if target.size > 100 { throw UsageError("try: --size at most 100") }
        })

    static func parse(_ argv: [String]) throws(UsageError) -> Target? {
        switch try spec.parse(argv, into: Target()) {
        case .run(let t): return t
        case .help: return nil
        }
    }

    static func error(_ argv: [String]) -> String? {
        do {
            _ = try parse(argv)
            return nil
        } catch {
            return error.message
        }
    }

    @Test("options in any order, --name=value, short names, operands, negative numbers and -- as operands")
    func parsing() throws {
        let t = try #require(try Self.parse(["w1", "--size", "3", "--name=x", "-5", "--flag", "--level", "-2.5", "--", "--w2"]))
        #expect(t == Target(size: 3, name: "x", flag: true, words: ["w1", "-5", "--w2"], level: -2.5))
        #expect(try Self.parse(["-s", "7"])?.size == 7)
        #expect(try Self.parse(["--help"]) == nil)
        #expect(try Self.parse(["--size", "1", "-h"]) == nil)
    }

    @Test("key-path options store their value; every command lists 64 unless it says it in its own words")
    func keyPathsAndUsageStatus() throws {
        struct Line: Sendable {
            var name: String?
            var count = 1
            var quiet = false
        }
        let spec = CommandSpec<Line>(
            "kp", summary: "s", usage: ["kp"], about: "a",
            groups: [
                OptionGroup(
                    "",
                    [
                        .value("--name", as: ValueParser("NAME") { text, _ in text }, help: "n", to: \.name),
                        .value("--count", as: Self.count, help: "c", to: \.count), .flag("--quiet", help: "q", sets: \.quiet),
                    ])
            ],
            exits: [ExitStatusNote(0, "done"), ExitStatusNote(75, "busy")])
        guard case .run(let line) = try spec.parse(["--name", "x", "--count", "3", "--quiet"], into: Line()) else {
            Issue.record("parsed as a request for help")
            return
        }
        #expect(line.name == "x" && line.count == 3 && line.quiet)
        #expect(spec.exits.map(\.code) == [0, 64, 75])
        #expect(spec.exits[1].meaning == "bad arguments")
        #expect(Self.spec.exits.map(\.code) == [0, 64])
        let own = CommandSpec<Line>(
            "own", summary: "s", usage: ["own"], about: "a", groups: [], exits: [ExitStatusNote(64, "no such thing")])
        #expect(own.exits.map(\.meaning) == ["no such thing"])
    }

    @Test("a command line begins: no command, --help, --version, an unknown command, a command with its arguments")
    func start() {
        func start(_ argv: [String]) -> ProgramDescription.Start {
            ProgramDescription.start(argv, name: "p", version: "1.2", commands: ["try", "help"], help: { "HELP" })
        }
        #expect(start([]) == .answer(.refused("no command given\n\nHELP")))
        #expect(start(["--help"]) == .answer(.text("HELP")) && start(["-h", "try"]) == .answer(.text("HELP")))
        #expect(start(["--version"]) == .answer(.text("p 1.2")))
        #expect(start(["tri", "x"]) == .answer(.refused("unknown command 'tri' (commands: try, help; see p --help)")))
        #expect(start(["try", "--size", "3"]) == .command("try", ["--size", "3"]))
    }

    @Test("help and completion are the program's whatever it is: a command's help, the manual, a script, or a refusal")
    func builtins() throws {
        let program = ProgramDescription(
            name: "p", version: "1", date: "2026-12-03", summary: "s", about: "a", sections: [("Commands", [Self.spec.description])],
            exits: [ExitStatusNote(0, "ok")])
        var line = Builtins.Help()
        #expect(Builtins.help(line, of: program) == .text(program.help))
        line.command = "try"
        #expect(Builtins.help(line, of: program) == .text(HelpText.render(Self.spec.description)))
        line.command = "nosuch"
        #expect(Builtins.help(line, of: program) == .refused("help: unknown command 'nosuch' (commands: try)"))
        line.man = true
        guard case .text(let page) = Builtins.help(line, of: program) else { throw Failure("--man refused") }
        #expect(page.hasPrefix(".TH") || page.contains("\n.TH"))
        guard case .run(let shell) = try Builtins.completion("p").parse(["zsh"], into: nil) else { throw Failure("asked for help") }
        #expect(shell == .zsh)
        #expect(Builtins.completion(.bash, of: program).contains("try") && !Builtins.completion(.bash, of: program).hasSuffix("\n"))
        #expect(throws: UsageError.self) { try Builtins.completion("p").parse(["csh"], into: nil) }
        #expect(throws: UsageError.self) { try Builtins.help("p").parse(["a", "b"], into: Builtins.Help()) }
    }

    @Test("a verb takes its own operands, as many as it declares, and reads them")
    func verbOperands() throws {
        struct Line: Sendable {
            var set: (String, String)?
            var removed: String?
            var quiet = false
        }
        let spec = CommandSpec<Line>(
            "v", summary: "s", usage: ["v set NAME VALUE", "v list", "v remove NAME"], about: "a",
            groups: [OptionGroup("", [.flag("--quiet", help: "q", sets: \.quiet)])],
            operands: Operands(
                "set|list|remove",
                verbs: [
                    .init("set", operands: "NAME VALUE") { words, line in line.set = (words[0], words[1]) },
                    .init("list", ["--quiet"]), .init("remove", operands: "NAME") { words, line in line.removed = words[0] },
                ], defaultVerb: "list"),
            exits: [])
        func parse(_ argv: [String]) throws(UsageError) -> Line {
            guard case .run(let line) = try spec.parse(argv, into: Line()) else { throw UsageError("help") }
            return line
        }
        func refusal(_ argv: [String]) -> String? {
            do {
                _ = try parse(argv)
                return nil
            } catch { return error.message }
        }
        #expect(try parse(["set", "a", "1"]).set.map { [$0.0, $0.1] } == ["a", "1"])
        #expect(try parse(["remove", "a"]).removed == "a")
        #expect(try parse(["--quiet"]).quiet)
        #expect(refusal(["set", "a"]) == "v set: give NAME VALUE (see glance v --help)")
        #expect(refusal(["set", "a", "1", "2"]) == "v set: give NAME VALUE (see glance v --help)")
        #expect(refusal(["list", "x"]) == "v list takes no operands (see glance v --help)")
        #expect(refusal(["remove"]) == "v remove: give NAME (see glance v --help)")
        #expect(refusal(["remove", "a", "--quiet"]) == "v remove: --quiet does not go with remove (see glance v --help)")
    }

    @Test("errors name the option and what to do")
    func errors() {
        #expect(Self.error(["--size"]) == "--size needs a value (see --help)")
        #expect(Self.error(["--size", "x"]) == "--size 'x': expected a count")
        #expect(Self.error(["--sise", "3"]) == "try: unknown option '--sise' (see glance try --help)")
        #expect(Self.error(["--flag=yes"]) == "--flag takes no value")
        #expect(Self.error(["--other", "1"]) == "try: --other is for another command")
        #expect(Self.error(["--size", "200"]) == "try: --size at most 100")
    }

    @Test("the help: usage, wrapped paragraphs, options under their group with defaults, exit statuses")
    func help() {
        let text = HelpText.render(Self.spec.description)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.first == "Usage: glance try [options] WORD…")
        #expect(lines.allSatisfy { $0.count <= HelpText.width }, "\(text)")
        #expect(text.contains("  an indented line kept as written"))
        #expect(text.contains("Things:\n  --size N, -s N          how many (default: 0)\n"))
        #expect(text.contains("\n  --flag                  a flag\n"))
        #expect(!text.contains("--other"), "refused options are not offered")
        #expect(text.hasSuffix("Exit status:\n  0   done\n  64  bad arguments"))
    }

    /// Counts how often a deferred option was made (the tests run it on one thread).
    final class Made: @unchecked Sendable {
        var count = 0
    }

    @Test("a deferred option is made only when given or shown, and then reads, helps and lifts as a made one")
    func deferred() throws {
        let made = Made()
        let option = Option<Target>.deferred(names: ["--size"]) {
            made.count += 1
            return .value("--size", as: Self.count, help: "how many", default: "0") { $0.size = $1 }
        }
        let spec = CommandSpec<Target>(
            "lazy", summary: "s", usage: ["lazy [options]"], about: "a",
            groups: [OptionGroup("Things", [option, .flag("--flag", help: "a flag") { $0.flag = true }])],
            exits: [ExitStatusNote(64, "bad arguments")])
        func parse(_ argv: [String]) throws -> Target? {
            guard case .run(let t) = try spec.parse(argv, into: Target()) else { return nil }
            return t
        }
        #expect(try parse(["--flag"])?.flag == true)
        #expect(made.count == 0, "an option not given is not made")
        #expect(try parse(["--size", "4"])?.size == 4 && made.count == 1, "made once for being given")
        #expect(throws: UsageError("--size 'x': expected a count")) { try parse(["--size=x"]) }
        #expect(throws: UsageError("--size needs a value (see --help)")) { try parse(["--size"]) }
        let text = HelpText.render(spec.description)
        #expect(text.contains("  --size N") && text.contains("how many (default: 0)\n"), "\(text)")
        // Lifted into a larger target, it stays deferred and sets the part.
        struct Outer: Sendable { var inner = Target() }
        let before = made.count
        let lifted = option.lifted(\Outer.inner)
        #expect(made.count == before, "lifting makes nothing")
        let outer = CommandSpec<Outer>(
            "outer", summary: "s", usage: ["outer"], about: "a", groups: [OptionGroup("Things", [lifted])],
            exits: [ExitStatusNote(64, "bad arguments")])
        guard case .run(let o) = try outer.parse(["--size", "9"], into: Outer()) else { Issue.record("no run"); return }
        #expect(o.inner.size == 9 && lifted.placeholder == "N" && lifted.help == "how many")
        // The same through a function that hands the part over (no key path): the same result,
        // and an error of the part's option comes out as it is.
        let through = option.lifted(through: { (outer: inout Outer, body) throws(UsageError) in try body(&outer.inner) })
        let viaAccess = CommandSpec<Outer>(
            "outer", summary: "s", usage: ["outer"], about: "a", groups: [OptionGroup("Things", [through])],
            exits: [ExitStatusNote(64, "bad arguments")])
        guard case .run(let a) = try viaAccess.parse(["--size=7"], into: Outer()) else { Issue.record("no run"); return }
        #expect(a.inner.size == 7 && through.placeholder == "N")
        #expect(throws: UsageError("--size 'x': expected a count")) { try viaAccess.parse(["--size", "x"], into: Outer()) }
    }

    @Test("wrapping: words kept whole, later lines indented")
    func wrapping() {
        let text = HelpText.wrap(String(repeating: "word ", count: 40), first: "  --x     ", rest: 10)
        let lines = text.split(separator: "\n")
        #expect(lines.count == 3)
        #expect(lines.allSatisfy { $0.count <= HelpText.width })
        #expect(lines.dropFirst().allSatisfy { $0.hasPrefix("          word") })
    }

    static let program = ProgramDescription(
        name: "glance", version: "1.2.3", date: "2026-11-30", summary: "a test", about: "About it.",
        sections: [("Commands", [spec.description])], exits: [ExitStatusNote(0, "success")],
        files: [("/etc/x.json", "the file")], environment: [("LANG", "the language")])

    @Test("the man page: every command, option and exit status, in roff with its special characters escaped")
    func manual() {
        let page = Manual.page(Self.program)
        #expect(page.contains(".TH GLANCE 1 \"2026-11-30\" \"glance 1.2.3\""))
        #expect(page.contains(".SS \"glance try\""))
        #expect(page.contains("\\fB\\-\\-size\\fR \\fIN\\fR, \\fB\\-s\\fR \\fIN\\fR\nhow many (default: 0)"))
        #expect(page.contains(".SH \"EXIT STATUS\"\n.TP\n.B 0\nsuccess"))
        #expect(Manual.escape(".dot \\ back-slash") == "\\&.dot \\e back\\-slash")
    }

    @Test("completions name every visible option and offer each value's choices")
    func completions() {
        let bash = CompletionScript.script(.bash, for: Self.program)
        #expect(bash.contains("--size|-s) _glance_value ''; return ;;"))
        #expect(bash.contains("--name) _glance_value 'a b'; return ;;"))
        #expect(bash.contains("compgen -W \"--size -s --name --flag --level --help\""))
        #expect(bash.contains("_glance_value 'file png'"))
        let zsh = CompletionScript.script(.zsh, for: Self.program)
        #expect(zsh.hasPrefix("#compdef glance\n"))
        #expect(zsh.contains("'(--size -s)'{--size,-s}'[how many]:N: '"))
        #expect(zsh.contains("'--name[whose]:NAME:(a b)'"))
        let fish = CompletionScript.script(.fish, for: Self.program)
        #expect(fish.contains("complete -c glance -n '__fish_seen_subcommand_from try' -l name -x -a 'a b' -d 'whose'"))
        #expect(fish.contains("-l size -s s -x -d 'how many'"))
        #expect(!fish.contains("other"))
    }
}

struct Failure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
