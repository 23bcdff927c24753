import CLI
import Configuration

/// `glance import`: an Apple Health export or Gadgetbridge's into the store (its work is glance-import's).
public enum ImportCommand {
    public struct Line: Sendable {
        public var file: String?
        public var database: String?
        public var skipInvalid = false
        public var task: String? = "import"
        public var quiet = false
        public init() {}
    }

    public static let spec = CommandSpec<Line>(
        "import", summary: "import an Apple Health export (zip, XML or CSV), Gadgetbridge's database or a glance-readings file",
        usage: ["import FILE|- [--db PATH] [--skip-invalid] [--task NAME | --no-task] [--quiet]"],
        about: """
            Imports the Activity summaries (the days behind the rings) of an Apple Health export:
              export.zip   the file the Health app makes (Profile › Export All Health Data)
              export.xml   the same, unpacked (apple_health_export/export.xml)
              FILE.csv     the CSV form: a header dateComponents,activeEnergyBurned,… and a row a day
              FILE.json    a glance-readings file (docs/data.md; glance export --readings writes one):
                           its readings kept as samples, as glance serve keeps a push's (read whole,
                           at most 128 MB)
            The format is told from the file's first bytes. An export is read once, streaming, in constant \
            memory; only the ActivitySummary elements are kept. FILE may be - (standard input) or a named \
            pipe: curl -s URL | glance import - works, and Ctrl-C stops the wait for it.

            Gadgetbridge's export (Gadgetbridge.db: the SQLite database of an Android watch's Gadgetbridge) \
            is told by its content too, and only read, never changed: each watch's minutes become hourly \
            samples of Exercise, Stand and, where the watch measures it, Move's active energy, on the \
            board's local days (docs/data.md says the rules). It is read from a file, not standard input.

            Limits, far beyond any real export: a tag with its attributes, a comment or the DTD larger than \
            1 MB, an element with more than 256 attributes, or a CSV line longer than 64 KB is refused \
            with its line and column. An export declares no entities; a zip holds one export.xml.

            All or nothing: the days are merged in one transaction at the end, so on any error (or a \
            cancel, or Ctrl-C) the days in the store are exactly as they were; only the import's task \
            records that it failed or was cancelled. Importing the same file again changes nothing; a day \
            already in the store takes the file's values.
            """,
        groups: [
            OptionGroup(
                "",
                [
                    CommonOptions.store(\.database),
                    .flag("--skip-invalid",
                        help: "skip rows with bad values (and count them) instead of failing", sets: \.skipInvalid),
                    .value(
                        "--task", as: Value.storeName("task"),
                        help: "the task the import shows itself as on the progress screen; `glance task cancel NAME` "
                            + "stops it, and so does removing or finishing the task while the file is read",
                        default: "import", to: \.task),
                    .flag("--no-task", help: "do not show the import as a task") { $0.task = nil },
                    .flag("--quiet", "-q",
                        help: "no progress bar (there is none unless standard error is a terminal)", sets: \.quiet),
                ])
        ],
        operands: Operands("FILE", completion: .file(extensions: ["zip", "xml", "csv", "db", "json"])) { (words, line) throws(UsageError) in
            guard words.count <= 1 else { throw UsageError("import: give one file (see glance import --help)") }
            guard let file = words.first else {
                throw UsageError(
                    "import: give the file to import (export.zip, export.xml, a CSV, Gadgetbridge.db or a readings file; - reads standard input)")
            }
            line.file = file
        },
        exits: [
            ExitStatusNote(
.ok, "imported (also when Ctrl-C, SIGTERM or SIGHUP came too late to stop it; a message says so)"),
            ExitStatusNote(
.dataError, "bad data (the message names the file, line and column; no day was changed) or not a Glance store"),
            ExitStatusNote(.noInput, "no such file"), ExitStatusNote(.ioError, "read error"),
            ExitStatusNote(.temporaryFailure, "the store is busy (no day was changed); try again"),
            ExitStatusNote(.noPermission, "the store (or its folder) may not be opened or written by this user"),
            ExitStatusNote(.cancelled, "cancelled: by Cancel, glance task cancel, Ctrl-C, SIGTERM or SIGHUP (no day was changed)"),
        ])
}
