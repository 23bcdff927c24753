/// The man page, `glance.1`, in roff (man(7)), made from the declarations.
public enum Manual {
    public static func page(_ program: ProgramDescription) -> String {
        let upper = program.name.uppercased()
        var out = ".\\\" Made by `\(program.name) help --man` from the command line's declarations; do not edit.\n"
        out += ".TH \(upper) 1 \"\(program.date)\" \"\(escape(program.name)) \(escape(program.version))\" \"User Commands\"\n"
        out += ".SH NAME\n\(escape(program.name)) \\- \(escape(program.summary))\n"
        out += ".SH SYNOPSIS\n.B \(program.name)\n.I COMMAND\n[\\fIoptions\\fR]\n"
        out += ".SH DESCRIPTION\n" + paragraphs(program.about)
        for section in program.sections {
            out += ".SH \"\(escape(section.title.uppercased()))\"\n"
            for command in section.commands { out += self.command(command, program: program.name) }
        }
        out += ".SH \"EXIT STATUS\"\n"
        for exit in program.exits { out += ".TP\n.B \(exit.code)\n\(escape(exit.meaning))\n" }
        if !program.settings.isEmpty {
            out += ".SH CONFIGURATION\n"
            out += paragraphs(
                "The settings of the configuration file (a JSON object; dotted names are members of members), each with "
                    + "the option that sets it for one run where there is one:")
            for (name, meaning) in program.settings { out += ".TP\n.B \(escape(name))\n\(escape(meaning))\n" }
        }
        if !program.environment.isEmpty {
            out += ".SH ENVIRONMENT\n"
            for (name, meaning) in program.environment { out += ".TP\n.B \(escape(name))\n\(escape(meaning))\n" }
        }
        if !program.files.isEmpty {
            out += ".SH FILES\n"
            for (path, meaning) in program.files { out += ".TP\n.I \(escape(path))\n\(escape(meaning))\n" }
        }
        return out
    }

    static func command(_ command: CommandDescription, program: String) -> String {
        var out = ".SS \"\(escape(program)) \(escape(command.name))\"\n"
        out += ".nf\n" + command.usage.map { "\\fB\(escape(program))\\fR \(escape($0))\n" }.joined() + ".fi\n"
        out += ".PP\n" + paragraphs(command.about.isEmpty ? command.summary : command.about)
        for group in command.groups {
            if !group.title.isEmpty { out += ".PP\n\\fI\(escape(group.title))\\fR\n" }
            for option in group.options {
                let names = option.names.map { name in
                    "\\fB\(escape(name))\\fR" + (option.placeholder.map { " \\fI\(escape($0))\\fR" } ?? "")
                }
                out += ".TP\n" + names.joined(separator: ", ") + "\n" + escape(HelpText.text(option)) + "\n"
            }
            if let note = group.note { out += ".PP\n" + paragraphs(note) }
        }
        if let epilogue = command.epilogue { out += ".PP\n" + paragraphs(epilogue) }
        if !command.exits.isEmpty {
            out += ".PP\nExit status:\n"
            for exit in command.exits { out += ".TP\n.B \(exit.code)\n\(escape(exit.meaning))\n" }
        }
        return out
    }

    /// Paragraphs: plain ones filled by the formatter, indented ones (lists, examples) kept.
    static func paragraphs(_ text: String) -> String {
        var out = ""
        for (i, paragraph) in text.split(separator: "\n\n", omittingEmptySubsequences: true).enumerated() {
            if i > 0 { out += ".PP\n" }
            for run in HelpText.runs(paragraph) {
                out += run.kept
                    ? ".nf\n" + run.lines.map { escape(String($0)) + "\n" }.joined() + ".fi\n"
                    : escape(run.lines.joined(separator: " ")) + "\n"
            }
        }
        return out
    }

    /// Text safe in a roff line: backslashes and minus signs escaped, a leading dot or quote kept
    /// from being read as a request.
    public static func escape(_ text: String) -> String {
        var out = ""
        for c in text {
            switch c {
            case "\\": out += "\\e"
            case "-": out += "\\-"
            default: out.append(c)
            }
        }
        if out.hasPrefix(".") || out.hasPrefix("'") { out = "\\&" + out }
        return out
    }
}
