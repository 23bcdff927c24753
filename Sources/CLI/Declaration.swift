/// A command line declared once: each option's names, value, default, help and group, from which
/// come the parser, `--help`, the man page and the shell completions (Help.swift, Manual.swift,
/// Completion.swift). Pure: no I/O, nothing but the standard library.

/// Bad command-line input: one line naming the argument and what to do; exit 64 (EX_USAGE).
public struct UsageError: Error, CustomStringConvertible, Equatable {
    public let message: String
    /// The exit status: 64, or 73 for an output that cannot be written.
    public let status: Int32
    public init(_ message: String, status: Int32 = 64) {
        self.message = message
        self.status = status
    }
    public var description: String { message }
}

/// What a shell may offer for a value.
public enum ValueCompletion: Equatable, Sendable {
    /// Nothing to offer (a number, a name).
    case none
    /// A file name (the extensions, without dots, narrow it where the shell can).
    case file(extensions: [String])
    /// A folder.
    case directory
    /// One of these words.
    case choices([String])
    /// One of the program's commands.
    case commands
}

/// How an option's value is read: its placeholder in the help (`WxH`), what a shell may offer,
/// and the conversion, whose error names the option and the form expected.
public struct ValueParser<Value>: Sendable {
    public let placeholder: String
    public let completion: ValueCompletion
    public let parse: @Sendable (_ text: String, _ option: String) throws(UsageError) -> Value

    public init(
        _ placeholder: String, completion: ValueCompletion = .none,
        parse: @escaping @Sendable (_ text: String, _ option: String) throws(UsageError) -> Value
    ) {
        self.placeholder = placeholder
        self.completion = completion
        self.parse = parse
    }

    /// The same reading, then `transform` (which may refuse with its own error).
    public func map<Other>(
        _ transform: @escaping @Sendable (_ value: Value, _ text: String, _ option: String) throws(UsageError) -> Other
    ) -> ValueParser<Other> {
        let parse = self.parse
        return ValueParser<Other>(placeholder, completion: completion) { (text, option) throws(UsageError) in
            try transform(try parse(text, option), text, option)
        }
    }

    /// The same reading under another placeholder.
    public func named(_ placeholder: String) -> ValueParser<Value> {
        ValueParser(placeholder, completion: completion, parse: parse)
    }
}

/// One option: `--name VALUE` (or `--name=VALUE`), or a flag, applied to a `Target` value.
public struct Option<Target>: Sendable {
    /// The names, the main one first (`--output`, `-o`).
    public let names: [String]
    /// The rest of the declaration: made with the option, or (`deferred`: a setting's option,
    /// made from the settings' tables) when the option is given or the help asks.
    let details: Details

    /// Everything but the names.
    struct Made: Sendable {
        let placeholder: String?
        let help: String
        let sayDefault: @Sendable () -> String?
        let completion: ValueCompletion
        let hidden: Bool
        let apply: @Sendable (inout Target, String) throws(UsageError) -> Void
    }

    enum Details: Sendable {
        case made(Made)
        case deferred(@Sendable () -> Made)

        var made: Made {
            switch self {
            case .made(let made): made
            case .deferred(let make): make()
            }
        }
    }

    /// The value's placeholder; nil for a flag.
    public var placeholder: String? { details.made.placeholder }
    public var help: String { details.made.help }
    /// What the value is when the option is not given, for the help ("default: …"); nil: none said.
    /// Said when the help asks (a setting's default is its value as the file writes it, made
    /// from a default configuration: not for every option of every start).
    public var defaultText: String? { details.made.sayDefault() }
    public var completion: ValueCompletion { details.made.completion }
    /// Left out of the help, the man page and the completions (accepted all the same).
    public var hidden: Bool { details.made.hidden }
    var apply: @Sendable (inout Target, String) throws(UsageError) -> Void { details.made.apply }

    init(
        names: [String], placeholder: String?, help: String,
        defaultText: @autoclosure @escaping @Sendable () -> String?, completion: ValueCompletion, hidden: Bool,
        apply: @escaping @Sendable (inout Target, String) throws(UsageError) -> Void
    ) {
        self.names = names
        details = .made(
            Made(placeholder: placeholder, help: help, sayDefault: defaultText, completion: completion, hidden: hidden, apply: apply))
    }

    private init(names: [String], details: Details) {
        self.names = names
        self.details = details
    }

    /// An option known by its `names` alone until it is given or the help asks: then `make`
    /// makes it (it must have those names). A command that declares many options made from
    /// tables (the settings') makes none of them on a start that is given none.
    public static func deferred(names: [String], _ make: @escaping @Sendable () -> Option) -> Option {
        Option(names: names, details: .deferred({ make().details.made }))
    }

    public var name: String { names[0] }
    public var takesValue: Bool { placeholder != nil }

    /// A flag: no value.
    public static func flag(
        _ names: String..., help: String, hidden: Bool = false, set: @escaping @Sendable (inout Target) -> Void
    ) -> Option {
        flag(names, help: help, hidden: hidden, set: set)
    }

    /// A flag that sets the Bool at `path` to true (or to `value`).
    public static func flag(
        _ names: String..., help: String, sets path: @autoclosure @escaping DeferredKeyPath<Target, Bool>, to value: Bool = true
    ) -> Option {
        flag(names, help: help, hidden: false) { $0[keyPath: path()] = value }
    }

    /// An option with a value read by `parser`.
    public static func value<Value>(
        _ names: String..., as parser: ValueParser<Value>, help: String, default defaultText: String? = nil,
        hidden: Bool = false, set: @escaping @Sendable (inout Target, Value) throws(UsageError) -> Void
    ) -> Option {
        value(names, parser, help: help, defaultText: defaultText, hidden: hidden, set: set)
    }

    /// An option whose value is stored at `path`.
    public static func value<Value>(
        _ names: String..., as parser: ValueParser<Value>, help: String, default defaultText: String? = nil,
        to path: @autoclosure @escaping DeferredKeyPath<Target, Value>
    ) -> Option {
        value(names, parser, help: help, defaultText: defaultText, hidden: false) { $0[keyPath: path()] = $1 }
    }

    /// An option whose value is stored at `path`, an optional's (nil: not given).
    public static func value<Value>(
        _ names: String..., as parser: ValueParser<Value>, help: String, default defaultText: String? = nil,
        to path: @autoclosure @escaping DeferredKeyPath<Target, Value?>
    ) -> Option {
        value(names, parser, help: help, defaultText: defaultText, hidden: false) { $0[keyPath: path()] = $1 }
    }

    private static func flag(
        _ names: [String], help: String, hidden: Bool, set: @escaping @Sendable (inout Target) -> Void
    ) -> Option {
        Option(
            names: names, placeholder: nil, help: help, defaultText: nil, completion: .none, hidden: hidden,
            apply: { target, _ in set(&target) })
    }

    private static func value<Value>(
        _ names: [String], _ parser: ValueParser<Value>, help: String, defaultText: String?, hidden: Bool,
        set: @escaping @Sendable (inout Target, Value) throws(UsageError) -> Void
    ) -> Option {
        Option(
            names: names, placeholder: parser.placeholder, help: help, defaultText: defaultText,
            completion: parser.completion, hidden: hidden,
            apply: { (target, text) throws(UsageError) in try set(&target, try parser.parse(text, names[0])) })
    }

    /// An option declared elsewhere (a setting's declaration gives its names, value form and
    /// help): `apply` reads the text (empty for a flag, whose `placeholder` is nil).
    public static func declared(
        names: [String], placeholder: String?, help: String,
        default defaultText: @autoclosure @escaping @Sendable () -> String?, completion: ValueCompletion,
        hidden: Bool = false, apply: @escaping @Sendable (inout Target, String, _ option: String) throws(UsageError) -> Void
    ) -> Option {
        Option(
            names: names, placeholder: placeholder, help: help, defaultText: defaultText(), completion: completion,
            hidden: hidden, apply: { (target, text) throws(UsageError) in try apply(&target, text, names[0]) })
    }

    /// An option that is refused with `message` (an option of another command, say).
    public static func refused(_ names: String..., takesValue: Bool = true, message: String) -> Option {
        Option(
            names: names, placeholder: takesValue ? "X" : nil, help: "", defaultText: nil, completion: .none,
            hidden: true, apply: { (_, _) throws(UsageError) in throw UsageError(message) })
    }

    /// The option applied to a part of a larger target (options shared between commands); a
    /// deferred one stays deferred.
    public func lifted<Outer>(_ path: @autoclosure @escaping DeferredKeyPath<Outer, Target>) -> Option<Outer> {
        lifted(through: partAccess(path))
    }

    /// The same, the part reached by `access` (no key path made when the option is given).
    public func lifted<Outer>(through access: @escaping PartAccess<Outer, Target>) -> Option<Outer> {
        let details = self.details
        let lift: @Sendable (Made) -> Option<Outer>.Made = { made in
            let apply = made.apply
            return Option<Outer>.Made(
                placeholder: made.placeholder, help: made.help, sayDefault: made.sayDefault, completion: made.completion,
                hidden: made.hidden,
                apply: { (outer, text) throws(UsageError) in
                    try access(&outer) { (part) throws(UsageError) in try apply(&part, text) }
                })
        }
        switch details {
        case .made(let made): return Option<Outer>(names: names, details: .made(lift(made)))
        case .deferred(let make): return Option<Outer>(names: names, details: .deferred({ lift(make()) }))
        }
    }
}

/// Where an option puts its value in its target: a key path taken as an autoclosure, so that
/// it is made when the option is given, not when a command is declared (each key path type is
/// class metadata the runtime makes on first use: some 50 K instructions at every start, for
/// options a device's `glance run` is never given).
/// (Not `WritableKeyPath<Root, Value> & Sendable`: Swift 6.0.3 crashes lowering an autoclosure
/// that returns that composition.)
public typealias DeferredKeyPath<Root, Value> = @Sendable () -> WritableKeyPath<Root, Value>

/// Where a part of a command's target is, as a function that hands it to `body` in place:
/// `{ (run, body) throws(UsageError) in try body(&run.layer) }`. What `glance run`'s own options
/// use: a key path, even deferred, is made when its option is given, and `glance run
/// --report-startup` (the packaged unit's command line) gives one at every start (the key path's
/// classes and the runtime's code for them: some 2 K instructions run once, docs/speed.md).
public typealias PartAccess<Root, Part> =
    @Sendable (inout Root, (inout Part) throws(UsageError) -> Void) throws(UsageError) -> Void

/// The part at a key path (made when the access is first used), as a `PartAccess`.
public func partAccess<Root, Part>(_ path: @escaping DeferredKeyPath<Root, Part>) -> PartAccess<Root, Part> {
    { (root, body) throws(UsageError) in try body(&root[keyPath: path()]) }
}

/// Options under one heading of the help.
public struct OptionGroup<Target>: Sendable {
    public let title: String
    public let options: [Option<Target>]
    /// Text after the group's options (a note that concerns them all).
    public let note: String?

    public init(_ title: String, note: String? = nil, _ options: [Option<Target>]) {
        self.title = title
        self.options = options
        self.note = note
    }

    public func lifted<Outer>(_ path: @autoclosure @escaping DeferredKeyPath<Outer, Target>) -> OptionGroup<Outer> {
        OptionGroup<Outer>(title, note: note, options.map { $0.lifted(path()) })
    }
}

/// The arguments that are not options: a verb and its operands, or files.
public struct Operands<Target>: Sendable {
    /// How they are shown in the help and the man page (`FILE`, `NAME VALUE`).
    public let placeholder: String
    /// What a shell may offer for the first one (the verbs, files).
    public let completion: ValueCompletion
    /// The operands in order, applied once every option is read.
    let apply: @Sendable ([String], inout Target) throws(UsageError) -> Void
    /// The verbs (`task start`, `task finish`), when the first operand is one, each with the
    /// options it takes besides `common`: the parser refuses another, and the completions offer
    /// only those.
    public let verbs: [Verb]
    public let common: [String]
    /// The verb meant when none is given (`glance goals` lists); nil: one must be given.
    public let defaultVerb: String?

    /// A verb, the options that go with it and the operands after it (`NAME VALUE`: as many
    /// words as it has, each required, checked by the parser); `apply` reads those words into the
    /// target.
    public struct Verb: Sendable {
        public let name: String
        public let options: [String]
        public let operands: String
        let apply: (@Sendable ([String], inout Target) throws(UsageError) -> Void)?
        public init(
            _ name: String, _ options: [String] = [], operands: String = "",
            apply: (@Sendable ([String], inout Target) throws(UsageError) -> Void)? = nil
        ) {
            self.name = name
            self.options = options
            self.operands = operands
            self.apply = apply
        }
    }

    public init(
        _ placeholder: String, completion: ValueCompletion = .none,
        apply: @escaping @Sendable ([String], inout Target) throws(UsageError) -> Void
    ) {
        self.placeholder = placeholder
        self.completion = completion
        self.apply = apply
        verbs = []
        common = []
        defaultVerb = nil
    }

    /// Operands that start with one of `verbs` (offered as the first operand's completion);
    /// `apply` reads all of them, after the verb's own.
    public init(
        _ placeholder: String, verbs: [Verb], common: [String] = [], defaultVerb: String? = nil,
        apply: @escaping @Sendable ([String], inout Target) throws(UsageError) -> Void = { _, _ in }
    ) {
        self.placeholder = placeholder
        completion = .choices(verbs.map(\.name))
        self.apply = apply
        self.verbs = verbs
        self.common = common
        self.defaultVerb = defaultVerb
    }

    /// Refuses an option that does not go with the verb given, a missing or unknown verb, or
    /// operands other than the verb's; then the verb reads its operands.
    func applyVerb(_ words: [String], given: [String], command: String, to target: inout Target) throws(UsageError) {
        guard !verbs.isEmpty else { return }
        let names = verbs.map(\.name)
        guard let first = words.first ?? defaultVerb, let verb = verbs.first(where: { $0.name == first }) else {
            let list = names.dropLast().joined(separator: ", ") + (names.count > 1 ? " or " : "") + (names.last ?? "")
            if let first = words.first {
                throw UsageError("\(command): unknown verb '\(first)' (expected \(list); see glance \(command) --help)")
            }
            throw UsageError("\(command): give \(list) (see glance \(command) --help)")
        }
        let allowed = Set(verb.options + common)
        if let extra = given.first(where: { !allowed.contains($0) }) {
            throw UsageError("\(command) \(verb.name): \(extra) does not go with \(verb.name) (see glance \(command) --help)")
        }
        let operands = Array(words.dropFirst())
        let expected = verb.operands.split(separator: " ")
        guard operands.count == expected.count else {
            throw UsageError(
                expected.isEmpty
                    ? "\(command) \(verb.name) takes no operands (see glance \(command) --help)"
                    : "\(command) \(verb.name): give \(verb.operands) (see glance \(command) --help)")
        }
        try verb.apply?(operands, &target)
    }
}

/// An exit status and when it happens.
public struct ExitStatusNote: Sendable {
    public let code: Int32
    public let meaning: String
    public init(_ code: Int32, _ meaning: String) {
        self.code = code
        self.meaning = meaning
    }
}

/// A subcommand's whole command line.
public struct CommandSpec<Target>: Sendable {
    public let name: String
    /// One line for `glance --help` and the man page.
    public let summary: String
    /// The usage lines, each without `Usage: glance ` (the first) or the indent (the others).
    public let usage: [String]
    /// What it does, in paragraphs (blank lines between); wrapped for the terminal.
    public let about: String
    public let groups: [OptionGroup<Target>]
    public let operands: Operands<Target>?
    /// Text after the options (keys, examples); kept as written.
    public let epilogue: String?
    /// The statuses it exits with and why, in order; 64 "bad arguments" is there unless the
    /// command says it in its own words (every command refuses a bad argument).
    public let exits: [ExitStatusNote]
    /// Checks the combination once everything is read.
    let finish: @Sendable (inout Target) throws(UsageError) -> Void

    public init(
        _ name: String, summary: String, usage: [String], about: String, groups: [OptionGroup<Target>],
        operands: Operands<Target>? = nil, epilogue: String? = nil, exits: [ExitStatusNote],
        finish: @escaping @Sendable (inout Target) throws(UsageError) -> Void = { _ in }
    ) {
        self.name = name
        self.summary = summary
        self.usage = usage
        self.about = about
        self.groups = groups
        self.operands = operands
        self.epilogue = epilogue
        let usage = ExitStatusNote(ExitCode.usage, "bad arguments")
        self.exits =
            exits.contains { $0.code == ExitCode.usage }
            ? exits : exits.filter { $0.code < ExitCode.usage } + [usage] + exits.filter { $0.code > ExitCode.usage }
        self.finish = finish
    }

    /// (Loops over index ranges, not `flatMap` or `\.options`: the code is generic over the
    /// target and not specialized for a command's, so the standard library's generic algorithms
    /// would look their associated types up by name at every start, and a key path would be made.)
    public var options: [Option<Target>] {
        var all: [Option<Target>] = []
        for g in 0..<groups.count {
            let some = groups[g].options
            for i in 0..<some.count { all.append(some[i]) }
        }
        return all
    }

    /// The option named `name` (any of its names); a loop for the reason `options` says.
    func option(named name: String) -> Option<Target>? {
        for g in 0..<groups.count {
            let some = groups[g].options
            for i in 0..<some.count where some[i].names.contains(name) { return some[i] }
        }
        return nil
    }

    /// What parsing found: the target, or a request for the help.
    public enum Parsed {
        case run(Target)
        case help
    }

    /// Reads `argv` (the arguments after the command's name) into `target`: options in any
    /// order, as `--name value`, `--name=value` or a flag; other words are the operands (also
    /// `-` and negative numbers); `--` ends the options.
    public func parse(_ argv: [String], into target: Target) throws(UsageError) -> Parsed {
        var target = target
        var operandWords: [String] = []
        var index = 0
        var optionsEnded = false
        var given: [String] = []
        while index < argv.count {
            let item = argv[index]
            index += 1
            if optionsEnded || !Self.looksLikeOption(item) {
                if operands == nil {
                    throw UsageError("\(name): unexpected argument '\(item)' (options start with --; see glance \(name) --help)")
                }
                operandWords.append(item)
                continue
            }
            if item == "--" {
                optionsEnded = true
                continue
            }
            var optionName = item
            var inlineValue: String?
            if item.hasPrefix("--"), let eq = item.firstIndex(of: "=") {
                optionName = String(item[..<eq])
                inlineValue = String(item[item.index(after: eq)...])
            }
            if optionName == "--help" || optionName == "-h" { return .help }
            guard let option = option(named: optionName) else {
                throw UsageError("\(name): unknown option '\(optionName)' (see glance \(name) --help)")
            }
            let made = option.details.made
            var value = ""
            if made.placeholder != nil {
                if let inlineValue {
                    value = inlineValue
                } else {
                    guard index < argv.count else { throw UsageError("\(optionName) needs a value (see --help)") }
                    value = argv[index]
                    index += 1
                }
            } else if inlineValue != nil {
                throw UsageError("\(optionName) takes no value")
            }
            try made.apply(&target, value)
            given.append(option.name)
        }
        if let operands {
            try operands.applyVerb(operandWords, given: given, command: name, to: &target)
            try operands.apply(operandWords, &target)
        }
        try finish(&target)
        return .run(target)
    }

    /// An option, not a plain word: starts with `-`, but is not `-` alone or a negative number.
    static func looksLikeOption(_ item: String) -> Bool {
        guard item.hasPrefix("-"), item != "-" else { return false }
        return !(item.count > 1 && Double(item) != nil)
    }
}

/// Exit statuses (sysexits.h), as documented in `glance --help`.
public enum ExitCode {
    public static let ok: Int32 = 0
    /// Bad command-line input.
    public static let usage: Int32 = 64
    /// Bad input data (a file to import, a value).
    public static let dataError: Int32 = 65
    /// An input file cannot be opened.
    public static let noInput: Int32 = 66
    /// Something the program needs is not there (a font, a display, nothing connected).
    public static let unavailable: Int32 = 69
    /// Something the program did not expect.
    public static let software: Int32 = 70
    /// An output file could not be created.
    public static let cannotCreate: Int32 = 73
    /// Reading or writing failed.
    public static let ioError: Int32 = 74
    /// Try again later: another program holds the display or the store is busy (nothing was
    /// changed).
    public static let temporaryFailure: Int32 = 75
    /// Permission denied (a device the user's groups do not open).
    public static let noPermission: Int32 = 77
    /// The configuration is invalid (or asks for a connector/mode/format the display lacks).
    public static let config: Int32 = 78
    /// Someone asked the work to stop (Cancel on the screen, `glance task cancel`, Ctrl-C during
    /// an import): stop, do not try again. Not a sysexits code (it has none for this): the
    /// first after them, where 128 + N would be read as a signal's end.
    public static let cancelled: Int32 = 79
}

