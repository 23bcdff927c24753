import App
import CLI
import Platform

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
