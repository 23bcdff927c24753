/// Shell completion scripts made from the declarations: `glance completion bash|zsh|fish`.
public enum CompletionScript {
    public enum Shell: String, CaseIterable, Sendable {
        case bash, zsh, fish
    }

    public static func script(_ shell: Shell, for program: ProgramDescription) -> String {
        let program = program.resolvingCommandCompletion
        return switch shell {
        case .bash: bash(program)
        case .zsh: zsh(program)
        case .fish: fish(program)
        }
    }

    /// Where a distribution installs each (relative to /usr).
    public static func installPath(_ shell: Shell, program: String) -> String {
        switch shell {
        case .bash: "share/bash-completion/completions/\(program)"
        case .zsh: "share/zsh/vendor-completions/_\(program)"
        case .fish: "share/fish/vendor_completions.d/\(program).fish"
        }
    }

    /// The first sentence (or clause) of a help text, short enough for a completion menu.
    static func short(_ text: String) -> String {
        var s = Substring(text)
        for stop in [". ", "; ", " (", ": "] {
            if let r = s.firstRange(of: stop) { s = s[..<r.lowerBound] }
        }
        if s.count > 70 { s = s.prefix(67) + "…" }
        return String(s)
    }

    // MARK: bash

    static func bash(_ program: ProgramDescription) -> String {
        let fn = "_" + program.name.replacingDashes
        var out = "# bash completion for \(program.name); made by `\(program.name) completion bash`\n"
        out += "\(fn)_files() {\n"
        out += "    # $1: extensions (png zip …) or empty for any file; folders are always offered\n"
        out += "    local -a extensions\n"
        out += "    read -ra extensions <<<\"$1\"\n"
        out += "    local IFS=$'\\n' ext\n"
        out += "    compopt -o filenames 2>/dev/null\n"
        out += "    COMPREPLY=($(compgen -d -- \"$cur\"))\n"
        out += "    if [ ${#extensions[@]} -eq 0 ]; then COMPREPLY+=($(compgen -f -- \"$cur\")); return; fi\n"
        out += "    for ext in \"${extensions[@]}\"; do COMPREPLY+=($(compgen -f -X \"!*.$ext\" -- \"$cur\")); done\n"
        out += "}\n"
        out += "\(fn)_value() {\n"
        out += "    # $1: what the option takes: a word list, 'file EXT…' or 'dir'\n"
        out += "    case \"$1\" in\n"
        out += "    file*) \(fn)_files \"${1#file}\" ;;\n"
        out += "    dir) COMPREPLY=($(compgen -d -- \"$cur\")) ;;\n"
        out += "    *) COMPREPLY=($(compgen -W \"$1\" -- \"$cur\")) ;;\n"
        out += "    esac\n"
        out += "}\n"
        out += "\(fn)() {\n"
        out += "    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]} i operands=0\n"
        out += "    COMPREPLY=()\n"
        out += "    if [ \"$COMP_CWORD\" -eq 1 ]; then\n"
        let names = program.commands.map(\.name) + ["--help", "--version"]
        out += "        COMPREPLY=($(compgen -W \"\(names.joined(separator: " "))\" -- \"$cur\"))\n"
        out += "        return\n"
        out += "    fi\n"
        out += "    case \"${COMP_WORDS[1]}\" in\n"
        for command in program.commands {
            out += "    \(command.name))\n"
            let valued = command.options.filter { $0.placeholder != nil }
            if !valued.isEmpty {
                out += "        case \"$prev\" in\n"
                for option in valued {
                    out += "        \(option.names.joined(separator: "|"))) \(fn)_value \(bashWhat(option.completion)); return ;;\n"
                }
                out += "        esac\n"
            }
            let optionNames = command.options.flatMap(\.names) + ["--help"]
            out += "        if [[ $cur == -* ]]; then\n"
            if command.verbs.isEmpty {
                out += "            COMPREPLY=($(compgen -W \"\(optionNames.joined(separator: " "))\" -- \"$cur\"))\n"
            } else {
                // The options of the verb given (the first word that is not an option or its value).
                let valuedNames = valued.flatMap(\.names).joined(separator: "|")
                out += "            local verb=\n"
                out += "            for ((i = 2; i < COMP_CWORD; i++)); do\n"
                out += "                case \"${COMP_WORDS[i]}\" in\n"
                if !valuedNames.isEmpty { out += "                \(valuedNames)) ((i++)) ;;\n" }
                out += "                -*) ;;\n"
                out += "                *) verb=${COMP_WORDS[i]}; break ;;\n"
                out += "                esac\n"
                out += "            done\n"
                out += "            case \"$verb\" in\n"
                for verb in command.verbs {
                    let names = command.options(for: verb.name).flatMap(\.names) + ["--help"]
                    out += "            \(verb.name)) COMPREPLY=($(compgen -W \"\(names.joined(separator: " "))\" -- \"$cur\")) ;;\n"
                }
                out += "            *) COMPREPLY=($(compgen -W \"\(optionNames.joined(separator: " "))\" -- \"$cur\")) ;;\n"
                out += "            esac\n"
            }
            out += "            return\n"
            out += "        fi\n"
            if let operands = command.operands, operands.completion != .none {
                // Count the operands before the word completed (option values are not operands).
                let valuedNames = valued.flatMap(\.names).joined(separator: "|")
                out += "        for ((i = 2; i < COMP_CWORD; i++)); do\n"
                out += "            case \"${COMP_WORDS[i]}\" in\n"
                if !valuedNames.isEmpty { out += "            \(valuedNames)) ((i++)) ;;\n" }
                out += "            -*) ;;\n"
                out += "            *) ((operands++)) ;;\n"
                out += "            esac\n"
                out += "        done\n"
                if case .choices = operands.completion {
                    out += "        [ \"$operands\" -eq 0 ] && \(fn)_value \(bashWhat(operands.completion))\n"
                } else {
                    out += "        \(fn)_value \(bashWhat(operands.completion))\n"
                }
            }
            out += "        ;;\n"
        }
        out += "    esac\n"
        out += "}\n"
        out += "complete -F \(fn) \(program.name)\n"
        return out
    }

    static func bashWhat(_ completion: ValueCompletion) -> String {
        switch completion {
        case .none: "''"
        case .file(let extensions): "'file\(extensions.map { " " + $0 }.joined())'"
        case .directory: "dir"
        case .choices(let words): "'\(words.joined(separator: " "))'"
        case .commands: "''"
        }
    }

    // MARK: zsh

    static func zsh(_ program: ProgramDescription) -> String {
        let fn = "_" + program.name.replacingDashes
        var out = "#compdef \(program.name)\n# zsh completion for \(program.name); made by `\(program.name) completion zsh`\n"
        out += "\(fn)() {\n"
        out += "    local -a commands\n"
        out += "    commands=(\n"
        for command in program.commands {
            out += "        \(zshQuote(command.name + ":" + short(command.summary).replacing(":", with: "\\:")))\n"
        }
        out += "    )\n"
        out += "    if (( CURRENT == 2 )); then\n"
        out += "        _describe -t commands 'glance command' commands\n"
        out += "        return\n"
        out += "    fi\n"
        out += "    local command=${words[2]}\n"
        out += "    shift words\n"
        out += "    (( CURRENT-- ))\n"
        out += "    case $command in\n"
        for command in program.commands {
            out += "    \(command.name))\n"
            if command.verbs.isEmpty {
                out += "        _arguments -s" + zshArguments(command.options, command.operands)
            } else {
                // After the verb, the options that go with it.
                out += "        case ${words[2]} in\n"
                for verb in command.verbs {
                    out += "        \(verb.name)) _arguments -s" + zshArguments(command.options(for: verb.name), ("ARGUMENT", .none), indent: 12)
                    out += " ;;\n"
                }
                out += "        *) _arguments -s" + zshArguments(command.options, command.operands, indent: 12) + " ;;\n"
                out += "        esac"
            }
            out += "\n        ;;\n"
        }
        out += "    esac\n"
        out += "}\n"
        out += "\(fn) \"$@\"\n"
        return out
    }

    /// `_arguments`' specs for `options` and the operands.
    static func zshArguments(
        _ options: [CommandDescription.OptionLine], _ operands: (placeholder: String, completion: ValueCompletion)?,
        indent: Int = 12
    ) -> String {
        let pad = " \\\n" + String(repeating: " ", count: indent)
        var out = ""
        for option in options {
            let help = "[" + zshBracket(short(option.help)) + "]"
            let value: String
            if let placeholder = option.placeholder {
                value = ":" + zshColon(placeholder) + ":" + zshAction(option.completion)
            } else {
                value = ""
            }
            if option.names.count == 1 {
                out += pad + zshQuote(option.names[0] + help + value)
            } else {
                let exclusion = "(" + option.names.joined(separator: " ") + ")"
                out += pad + zshQuote(exclusion) + "{" + option.names.joined(separator: ",") + "}" + zshQuote(help + value)
            }
        }
        out += pad + "'--help[show the options]'"
        if let operands {
            let action = zshAction(operands.completion)
            if case .choices = operands.completion {
                out += pad + zshQuote("1:" + zshColon(operands.placeholder) + ":" + action)
                out += pad + "'*::argument:'"
            } else {
                out += pad + zshQuote("*:" + zshColon(operands.placeholder) + ":" + action)
            }
        }
        return out
    }

    static func zshAction(_ completion: ValueCompletion) -> String {
        switch completion {
        case .none: " "
        case .file(let extensions):
            extensions.isEmpty ? "_files" : "_files -g \"*.(\(extensions.joined(separator: "|")))\""
        case .directory: "_files -/"
        case .choices(let words): "(\(words.joined(separator: " ")))"
        case .commands: " "
        }
    }

    static func zshQuote(_ text: String) -> String { "'" + text.replacing("'", with: "'\\''") + "'" }
    static func zshBracket(_ text: String) -> String {
        text.replacing("\\", with: "\\\\").replacing("[", with: "\\[").replacing("]", with: "\\]")
    }
    static func zshColon(_ text: String) -> String { text.replacing(":", with: "\\:") }

    // MARK: fish

    static func fish(_ program: ProgramDescription) -> String {
        let p = program.name
        var out = "# fish completion for \(p); made by `\(p) completion fish`\n"
        out += "complete -c \(p) -f\n"
        out += "complete -c \(p) -n __fish_use_subcommand -l help -d 'show the commands'\n"
        out += "complete -c \(p) -n __fish_use_subcommand -l version -d 'show the version'\n"
        for command in program.commands {
            out += "complete -c \(p) -n __fish_use_subcommand -a \(command.name) -d \(fishQuote(short(command.summary)))\n"
        }
        for command in program.commands {
            let when = fishQuote("__fish_seen_subcommand_from \(command.name)")
            for option in command.options {
                // An option of some verbs only: offered once one of them is given.
                let verbs = command.verbs.filter { v in command.options(for: v.name).contains { $0.names == option.names } }
                let only =
                    command.verbs.isEmpty || verbs.count == command.verbs.count
                    ? when
                    : fishQuote(
                        "__fish_seen_subcommand_from \(command.name); and __fish_seen_subcommand_from "
                            + verbs.map(\.name).joined(separator: " "))
                var line = "complete -c \(p) -n \(only)"
                for name in option.names {
                    line += name.hasPrefix("--") ? " -l \(name.dropFirst(2))" : " -s \(name.dropFirst())"
                }
                if option.placeholder != nil {
                    switch option.completion {
                    case .none: line += " -x"
                    case .file: line += " -r -F"
                    case .directory: line += " -x -a '(__fish_complete_directories)'"
                    case .choices(let words): line += " -x -a \(fishQuote(words.joined(separator: " ")))"
                    case .commands: line += " -x"
                    }
                }
                out += line + " -d \(fishQuote(short(option.help)))\n"
            }
            out += "complete -c \(p) -n \(when) -l help -d 'show the options'\n"
            if let operands = command.operands {
                switch operands.completion {
                case .none, .commands: break
                case .file: out += "complete -c \(p) -n \(when) -F\n"
                case .directory: out += "complete -c \(p) -n \(when) -a '(__fish_complete_directories)'\n"
                case .choices(let words):
                    let notYet = fishQuote(
                        "__fish_seen_subcommand_from \(command.name); and not __fish_seen_subcommand_from "
                            + words.joined(separator: " "))
                    out += "complete -c \(p) -n \(notYet) -a \(fishQuote(words.joined(separator: " ")))\n"
                }
            }
        }
        return out
    }

    static func fishQuote(_ text: String) -> String {
        "'" + text.replacing("\\", with: "\\\\").replacing("'", with: "\\'") + "'"
    }
}

extension String {
    var replacingDashes: String { replacing("-", with: "_") }
}

extension ProgramDescription {
    /// `.commands` completions replaced by the command names.
    var resolvingCommandCompletion: ProgramDescription {
        let names = commands.map(\.name)
        func resolve(_ c: ValueCompletion) -> ValueCompletion { c == .commands ? .choices(names) : c }
        return ProgramDescription(
            name: name, version: version, date: date, summary: summary, about: about,
            sections: sections.map { section in
                (section.title, section.commands.map { command in
                    CommandDescription(
                        name: command.name, summary: command.summary, usage: command.usage, about: command.about,
                        groups: command.groups.map { group in
                            CommandDescription.Group(
                                title: group.title, note: group.note,
                                options: group.options.map {
                                    CommandDescription.OptionLine(
                                        names: $0.names, placeholder: $0.placeholder, help: $0.help,
                                        defaultText: $0.defaultText, completion: resolve($0.completion))
                                })
                        },
                        operands: command.operands.map { ($0.placeholder, resolve($0.completion)) },
                        verbs: command.verbs, common: command.common, epilogue: command.epilogue, exits: command.exits)
                })
            },
            exits: exits, files: files, environment: environment, settings: settings)
    }
}
