import App
import Activity
import CLI
import Configuration
import Platform
import Store
import Clocks

// The command line's value forms that need more than the pure ones: a path to write to (the file
// system's say), a store's names (the store's rules), a day as today's calendar has it.
extension Value {
    /// A path where a file can be created or replaced.
    public static func output(_ placeholder: String, extensions: [String] = []) -> ValueParser<String> {
        ValueParser(placeholder, completion: .file(extensions: extensions)) { (text, option) throws(UsageError) in
            if let error = outputUsageError(text, option: option) { throw error }
            return text
        }
    }

    /// `today`, `yesterday` or `YYYY-MM-DD` (the settings' form), as today's calendar has it.
    public static let day = Form<DaySpec>.day.parser.map { spec, _, _ in spec.day(today: SystemLocalClock().today()) }

    /// `HH:MM` on a 24-hour clock.
    public static let clockTime = Form<TimeOfDay>.clock.parser

    /// A store name (a task's, a metric's): 1 to 64 bytes.
    public static func storeName(_ what: String) -> ValueParser<String> {
        ValueParser("NAME") { (text, option) throws(UsageError) in
            do throws(StoreError) {
                try Store.checkName(text, what: what)
            } catch {
                throw UsageError("\(option): \(error.message)")
            }
            return text
        }
    }

}

/// The error for an output that cannot be written at `path` (nil: it can), with its status: 77
/// when the system said permission denied, else 73.
func outputUsageError(_ path: String, option: String) -> UsageError? {
    guard let failure = OutputFile.check(path) else { return nil }
    return UsageError(
        "\(option) '\(Quote.clip(path, 80))': cannot write there: \(failure.reason)",
        status: failure.denied ? ExitCode.noPermission : ExitCode.cannotCreate)
}
