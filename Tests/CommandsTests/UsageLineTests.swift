import CLI
import Testing

@testable import Commands

/// Each command's usage lines are written by hand beside its declaration: they must name only
/// the options it declares, each beside a verb it goes with, and show every verb.
@Suite("The usage lines agree with the declarations", .timeLimit(.minutes(10)))
struct UsageLineTests {
    /// The options a usage segment names (`[--task NAME | --no-task]` → `--task`, `--no-task`).
    static func options(in segment: Substring) -> [String] {
        segment.split(whereSeparator: { " []|".contains($0) })
            .filter { $0.hasPrefix("--") }
            .map { String($0.prefix { $0 != "=" }) }
    }

    @Test("every option a usage line names is the command's, and goes with the verb beside it")
    func optionsDeclared() {
        let commands = Glance.program.commands
        #expect(commands.map(\.name) == HelpCompletionTests.commands, "every command is read")
        for command in commands {
            let names = Set(command.options.flatMap(\.names))
            var shownVerbs: Set<String> = []
            for line in command.usage {
                // A line may hold two forms: "goals [list] | glance goals remove --from D".
                for segment in ("glance " + line).split(separator: "glance ").map({ $0.drop { $0 == " " } }) {
                    let words = segment.split(separator: " ")
                    #expect(words.first.map(String.init) == command.name, "\(command.name): '\(segment)' starts with its name")
                    let verb = words.dropFirst().first.map { String($0.trimmingPrefix("[").prefix { $0 != "]" }) }
                    let declaredVerb = command.verbs.first { $0.name == verb }
                    if let declaredVerb { shownVerbs.insert(declaredVerb.name) }
                    for option in Self.options(in: segment) {
                        #expect(names.contains(option), "\(command.name): usage names \(option), which it does not declare")
                        if let declaredVerb {
                            #expect(
                                (declaredVerb.options + command.common).contains(option),
                                "\(command.name) \(declaredVerb.name): usage shows \(option), which does not go with it")
                        }
                    }
                }
            }
            for verb in command.verbs {
                #expect(shownVerbs.contains(verb.name), "\(command.name): the usage lines leave out the verb \(verb.name)")
            }
        }
    }

    @Test("the usage test reads the forms it checks")
    func reading() {
        #expect(Self.options(in: "import FILE|- [--db PATH] [--task NAME | --no-task] [--quiet]") == ["--db", "--task", "--no-task", "--quiet"])
        #expect(Self.options(in: "export --csv|--json [--table=days]") == ["--csv", "--json", "--table"])
    }
}
