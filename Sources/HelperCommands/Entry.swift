import CLI
import Platform

/// Where the commands' words go: the process's standard output and error (their work is given it).
package let console = Console.standard

/// A command: its declaration without its type, and how it runs.
package struct CommandEntry: Sendable {
    /// Made when asked (the help, the man page, the completions): each option's default is a
    /// setting's value as the file writes it, not worth making for a command that only runs.
    package var description: CommandDescription { describe() }
    let describe: @Sendable () -> CommandDescription
    package let main: @Sendable ([String]) throws(UsageError) -> Outcome

    package init(
        description: @autoclosure @escaping @Sendable () -> CommandDescription,
        main: @escaping @Sendable ([String]) throws(UsageError) -> Outcome
    ) {
        self.describe = description
        self.main = main
    }
}

extension CommandSpec where Target: Sendable {
    /// The command for the program's list: parsed from `initial`, then run; `--help` prints its help.
    package func entry(_ initial: Target, _ run: @escaping @Sendable (Target) -> Outcome) -> CommandEntry {
        entry(initial) { target, _ in run(target) }
    }

    /// The command parsed from `initial`, then run with what it was given (the arguments too);
    /// `--help` prints its help.
    package func entry(_ initial: Target, given run: @escaping @Sendable (Target, [String]) -> Outcome) -> CommandEntry {
        let spec = self
        return CommandEntry(description: spec.description) { (argv) throws(UsageError) in
            switch try spec.parse(argv, into: initial) {
            case .help: return console.result(HelpText.render(spec.description))
            case .run(let target): return run(target, argv)
            }
        }
    }

    /// The main of glance-import, glance-serve and glance-mqtt: `arguments` (without the program
    /// name) parsed by this declaration, then `run`; the exit status.
    public func main(_ initial: Target, _ arguments: [String], run: @escaping @Sendable (Target) -> Outcome) -> Int32 {
        do {
            return try entry(initial, run).main(arguments).exitStatus
        } catch {
            console.complain(error.message)
            return error.status
        }
    }
}
