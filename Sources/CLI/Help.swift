/// A command's declaration without its target type: what the help, the man page and the
/// completions are made from.
public struct CommandDescription: Sendable {
    public struct OptionLine: Sendable {
        public let names: [String]
        public let placeholder: String?
        public let help: String
        public let defaultText: String?
        public let completion: ValueCompletion
    }
    public struct Group: Sendable {
        public let title: String
        public let note: String?
        public let options: [OptionLine]
    }
    public let name: String
    public let summary: String
    public let usage: [String]
    public let about: String
    public let groups: [Group]
    public let operands: (placeholder: String, completion: ValueCompletion)?
    /// The verbs and the options each takes (empty: the command has none), and the options every
    /// verb takes.
    public var verbs: [(name: String, options: [String])] = []
    public var common: [String] = []
    public let epilogue: String?
    public let exits: [ExitStatusNote]

    /// Every visible option, in the order of the help.
    public var options: [OptionLine] { groups.flatMap(\.options) }
}

extension CommandSpec {
    public var description: CommandDescription {
        CommandDescription(
            name: name, summary: summary, usage: usage, about: about,
            groups: groups.compactMap { group in
                let visible = group.options.filter { !$0.hidden }.map {
                    CommandDescription.OptionLine(
                        names: $0.names, placeholder: $0.placeholder, help: $0.help, defaultText: $0.defaultText,
                        completion: $0.completion)
                }
                return visible.isEmpty && group.note == nil
                    ? nil : CommandDescription.Group(title: group.title, note: group.note, options: visible)
            },
            operands: operands.map { ($0.placeholder, $0.completion) }, verbs: operands?.verbs.map { ($0.name, $0.options) } ?? [],
            common: operands?.common ?? [], epilogue: epilogue, exits: exits)
    }
}

extension CommandDescription {
    /// The options that go with `verb` (every option when the command has no verbs).
    public func options(for verb: String) -> [OptionLine] {
        guard let v = verbs.first(where: { $0.name == verb }) else { return options }
        let allowed = Set(v.options + common)
        return options.filter { allowed.contains($0.names[0]) }
    }
}

/// Text for a terminal: `glance COMMAND --help`.
public enum HelpText {
    /// Lines are wrapped to this many columns.
    public static let width = 96
    /// Where an option's description starts.
    static let column = 26

    public static func render(_ command: CommandDescription, program: String = "glance") -> String {
        var out = ""
        for (i, line) in command.usage.enumerated() {
            out += (i == 0 ? "Usage: \(program) " : "       \(program) ") + line + "\n"
        }
        if !command.about.isEmpty { out += "\n" + paragraphs(command.about) }
        for group in command.groups {
            out += "\n" + (group.title.isEmpty ? "" : wrap(group.title + ":", first: "", rest: 0))
            for option in group.options { out += optionEntry(option) }
            if let note = group.note { out += "\n" + paragraphs(note) }
        }
        if let epilogue = command.epilogue { out += "\n" + paragraphs(epilogue) }
        if !command.exits.isEmpty {
            out += "\nExit status:\n"
            for exit in command.exits {
                let code = String(exit.code)
                out += wrap(exit.meaning, first: "  " + code + String(repeating: " ", count: max(1, 4 - code.count)), rest: 6)
            }
        }
        if out.hasSuffix("\n") { out.removeLast() }
        return out
    }

    /// `--size WxH`, `--output FILE, -o FILE` …
    public static func signature(_ option: CommandDescription.OptionLine) -> String {
        option.names.map { name in option.placeholder.map { "\(name) \($0)" } ?? name }.joined(separator: ", ")
    }

    /// The option's description with its default.
    public static func text(_ option: CommandDescription.OptionLine) -> String {
        guard let d = option.defaultText else { return option.help }
        return option.help + " (default: \(d))"
    }

    static func optionEntry(_ option: CommandDescription.OptionLine) -> String {
        let head = "  " + signature(option)
        if head.count + 2 <= column {
            return wrap(text(option), first: head + String(repeating: " ", count: column - head.count), rest: column)
        }
        return head + "\n" + wrap(text(option), first: String(repeating: " ", count: column), rest: column)
    }

    /// Paragraphs separated by blank lines: indented lines (a list, an example) are kept as
    /// written, the others filled to the width.
    public static func paragraphs(_ text: String) -> String {
        var out = ""
        for (i, paragraph) in text.split(separator: "\n\n", omittingEmptySubsequences: false).enumerated() {
            if i > 0 { out += "\n" }
            for run in runs(paragraph) {
                out += run.kept ? run.lines.map { $0 + "\n" }.joined() : wrap(run.lines.joined(separator: " "), first: "", rest: 0)
            }
        }
        return out
    }

    /// A paragraph's lines in runs: indented ones (kept as written) and plain ones (to be filled).
    public static func runs(_ paragraph: Substring) -> [(kept: Bool, lines: [Substring])] {
        var result: [(kept: Bool, lines: [Substring])] = []
        for line in paragraph.split(separator: "\n", omittingEmptySubsequences: false) {
            let kept = line.hasPrefix(" ")
            if let last = result.last, last.kept == kept {
                result[result.count - 1].lines.append(line)
            } else {
                result.append((kept, [line]))
            }
        }
        return result
    }

    /// Words filled to `width`: the first line after `first`, the others indented by `rest`.
    public static func wrap(_ text: String, first: String, rest: Int) -> String {
        var out = ""
        var line = first
        var lineHasWord = false
        let indent = String(repeating: " ", count: rest)
        for word in text.split(separator: " ", omittingEmptySubsequences: true) {
            if lineHasWord && line.count + 1 + word.count > width {
                out += line + "\n"
                line = indent
                lineHasWord = false
            }
            line += (lineHasWord ? " " : "") + word
            lineHasWord = true
        }
        return out + line + "\n"
    }
}
