import Runtime
import DeviceLogic
import Activity
import Configuration
import Platform
import Store
import Clocks
import ConfigurationFile

/// `glance export`'s work, in the store's frame (`StoreJobs.with`, in Store).
extension StoreJobs {
    // MARK: glance export

    /// `glance export`'s description (its help), beside what it does.
    public static let exportAbout = """
        Writes a table of the store as CSV or JSON to standard output (or FILE, written whole or not at \
        all). As CSV the days come out in the CSV form of an Apple Health export, with two more columns \
        (activeEnergyBurnedGoalUnit when it differs, moveMode), so `glance import` reads them back to \
        exactly the same store. As JSON: {"days": [{"date", "move", "moveGoal", "moveTime", \
        "moveTimeGoal", "exercise", "exerciseGoal", "stand", "standGoal", "moveMode"}]} (move in kcal; \
        what glance serve's GET /v1/days gives and PUT /v1/days/DATE takes), {"metrics": […]} or \
        {"tasks": […]} as metric list --json and task list --json write them.
        """

    /// A table as CSV (or JSON), to standard output or into `output` through `OutputFile` (a file
    /// written whole or not at all, never through a planted link; a device or FIFO written in place).
    public static func export(_ table: Store.Table, output: String?, database: String?, json: Bool = false, console: Console) -> Outcome {
        with(database, access: .read, console: console) { store throws(StoreError) in
            func export(_ write: (String) throws(StoreError) -> Void) throws(StoreError) {
                if json { try ScriptJSON.export(table, store: store, write: write) } else { try store.exportCSV(table, write: write) }
            }
            guard let output else {
                try export(console.writeResult)
                return Outcome.ok
            }
            let file: OutputFile
            do throws(OutputFile.Failure) {
                file = try OutputFile(output)
            } catch {
                console.complain("--output '\(output)': cannot create: \(error.reason)")
                return error.outcome
            }
            try export { (text) throws(StoreError) in
                do throws(OutputFile.Failure) {
                    try file.write(text)
                } catch {
                    throw StoreError(.io, "--output '\(output)': \(error.reason)")
                }
            }
            do throws(OutputFile.Failure) {
                try file.commit()
            } catch {
                throw StoreError(.io, "--output '\(output)': \(error.reason)")
            }
            return Outcome.ok
        }
    }
}
