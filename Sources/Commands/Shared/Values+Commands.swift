import Runtime
import Activity
import CLI
import Configuration
import Platform
import Store
import Clocks

// The command line's value forms that need more than the pure ones: a path to write to (the file
// system's say), a day as today's calendar has it (a store's names: HelperCommands').
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
}

/// The error for an output that cannot be written at `path` (nil: it can), with its status: 77
/// when the system said permission denied, else 73.
func outputUsageError(_ path: String, option: String) -> UsageError? {
    guard let failure = OutputFile.check(path) else { return nil }
    return UsageError(
        "\(option) '\(Quote.clip(path, 80))': cannot write there: \(failure.reason)",
        status: failure.denied ? ExitCode.noPermission : ExitCode.cannotCreate)
}
