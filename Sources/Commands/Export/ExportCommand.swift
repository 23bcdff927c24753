import Configuration
import DeviceLogic
import Activity
import Runtime
import CLI
import Store
import HelperCommands

/// `glance export`: its declaration; the work is `StoreJobs.export`, beside it.
extension DataCommands {
    struct Export {
        var csv = false
        var json = false
        var readings = false
        var table = Store.Table.days
        var output: String?
        var database: String?
        var config: String?
        var person: String?
    }

    static let export = CommandSpec<Export>(
        "export", summary: "write the store's days, metrics or tasks as CSV or JSON, or its samples as readings",
        usage: [
            "export --csv|--json [--table days|metrics|tasks] [--output FILE] [--db PATH]",
            "export --csv|--json [--table days] [--person NAME|ID] [--config FILE]",
            "export --readings [--output FILE] [--person NAME|ID] [--db PATH]",
        ],
        about: StoreJobs.exportAbout,
        groups: [
            OptionGroup(
                "",
                [
                    .flag("--csv", help: "CSV", sets: \.csv),
                    .flag("--json", help: "JSON (one document)", sets: \.json),
                    .flag("--readings", help: "the samples as a glance-readings file (docs/data.md)", sets: \.readings),
                    .value("--table", as: Value.choice(Store.Table.self, expected: "days, metrics or tasks"),
                        help: "which table", default: "days", to: \.table),
                    .value("--output", "-o", as: Value.output("FILE", extensions: ["csv", "json"]),
                        help: "write FILE instead of standard output", to: \.output),
                    CommonOptions.person(
                        \.person, help: "whose days or samples: a person's name or id (default: person 1, the store's first)"),
                    CommonOptions.store(\.database),
                    PanelCommands.configOption.lifted(\.config),
                ])
        ],
        exits: [
            ExitStatusNote(.ok, "written"),
            ExitStatusNote(.dataError, "--db is not a Glance store (left as it is)"), ExitStatusNote(.noInput, "no store"),
            ExitStatusNote(.cannotCreate, "FILE cannot be created"),
            ExitStatusNote(
                .ioError, "standard output or FILE could not be written whole (a full disk, say; the message says why)"),
            ExitStatusNote(.temporaryFailure, "the store is busy, try again"),
            ExitStatusNote(.noPermission, "the store may not be opened by this user"),
            ExitStatusNote(.config, "the configuration (where the goals come from) is invalid"),
        ],
        finish: { (line) throws(UsageError) in
            guard [line.csv, line.json, line.readings].filter({ $0 }).count == 1 else {
                throw UsageError("export: say --csv, --json or --readings (one of them)")
            }
            if line.readings && line.table != .days {
                throw UsageError("export: --readings writes the samples; --table does not go with it")
            }
            if line.person != nil && line.table != .days {
                throw UsageError(
                    "export: the \(line.table.rawValue) are the panel's, everyone's: --person goes with the days (or --readings)")
            }
        })
}
