import App
import CLI

extension CommandSpec {
    /// A command that runs in its own executable: parsed here (help, bad arguments), then the
    /// executable is run with the same arguments.
    func entry(_ initial: Target, runs helper: Helper) -> Glance.Entry where Target: Sendable {
        let description = self.description
        return Glance.Entry(description: description) { (argv) throws(UsageError) in
            switch try parse(argv, into: initial) {
            case .help: return console.result(HelpText.render(description))
            case .run: return helper.exec(argv, console: console)
            }
        }
    }
}

extension Glance {
    /// The main of glance-import, glance-serve and glance-mqtt: `arguments` (without the program
    /// name) parsed by the command's declaration, then `run`; the exit status.
    public static func helperMain<Line: Sendable>(
        _ spec: CommandSpec<Line>, _ initial: Line, _ arguments: [String], run: @escaping @Sendable (Line) -> Outcome
    ) -> Int32 {
        do {
            return try spec.entry(initial, run).main(arguments).exitStatus
        } catch {
            console.complain(error.message)
            return error.status
        }
    }
}
