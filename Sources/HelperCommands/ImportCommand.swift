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
        /// `--watch`: `file` is the folder watched (nil: the configuration's `import.watch`).
        public var watch = false
        /// The configuration (`--config`), read by `--watch` alone.
        public var config: String?
        /// Whose days and samples (`--person NAME|ID`; nil: person 1).
        public var person: String?
        public init() {}
    }

    public static let spec = CommandSpec<Line>(
        "import", summary: "import an Apple Health export (zip, XML or CSV), Gadgetbridge's database or a glance-readings file",
        usage: [
            "import FILE|- [--person NAME|ID] [--db PATH] [--skip-invalid] [--no-task] [-q]",
            "import --watch [FOLDER] [--config FILE] [--person NAME|ID] [--db PATH] …",
        ],
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

            glance import --watch [FOLDER] watches FOLDER (default: the configuration's import.watch) until \
            SIGTERM or SIGINT, and imports a file there once it has been quiet for 2 s after it was written \
            (closed) or moved in: a Syncthing folder, whose files arrive as .syncthing.NAME.tmp renamed onto \
            NAME. Dotfiles, *.tmp, ~syncthing~* and subfolders are left alone; so is a file that is not one \
            of the kinds above (said once). At the start the newest such file already there is imported. A \
            file whose device, inode, size and modification time are those of its last import is not \
            imported again. Each import is all or nothing as above: a damaged or half-written file is said \
            in one line, the store stays as it was, and the watch goes on. A missing folder (or one removed \
            while watched) is waited for, looked for every 2 s. Without a folder (import.watch null) it says \
            so and ends with 0. glance-import-watch.service runs it (systemctl enable --now \
            glance-import-watch; docs/live-data.md).
            """,
        groups: [
            OptionGroup(
                "",
                [
                    CommonOptions.store(\.database),
                    CommonOptions.person(
                        \.person,
                        help: "whose days and samples they are: a person's name or id (default: person 1, the store's first)"),
                    .flag("--watch",
                        help: "watch a folder (FOLDER, else the configuration's import.watch) and import its files as they "
                            + "arrive, until SIGTERM or SIGINT", sets: \.watch),
                    CommonOptions.config.lifted(\.config),
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
            if line.watch {
                guard words.count <= 1 else { throw UsageError("import --watch: give one folder (or none: import.watch)") }
                guard words.first != "-" else { throw UsageError("import --watch: give a folder, not - (standard input)") }
                line.file = words.first
                return
            }
            guard line.config == nil else {
                throw UsageError("import: --config goes with --watch (an import of one file reads no configuration)")
            }
            guard words.count <= 1 else { throw UsageError("import: give one file (see glance import --help)") }
            guard let file = words.first else {
                throw UsageError(
                    "import: give the file to import (export.zip, export.xml, a CSV, Gadgetbridge.db or a readings file; - reads standard input)")
            }
            line.file = file
        },
        exits: [
            ExitStatusNote(
.ok, "imported (also when Ctrl-C, SIGTERM or SIGHUP came too late to stop it; a message says so); --watch: stopped by SIGTERM, "
                    + "SIGINT or SIGHUP, or no folder to watch (import.watch null)"),
            ExitStatusNote(
.dataError, "bad data (the message names the file, line and column; no day was changed) or not a Glance store"),
            ExitStatusNote(.noInput, "no such file (--watch: FOLDER is a file, not a folder)"),
            ExitStatusNote(.config, "--watch: the configuration is invalid"), ExitStatusNote(.ioError, "read error"),
            ExitStatusNote(.temporaryFailure, "the store is busy (no day was changed); try again"),
            ExitStatusNote(.noPermission, "the store (or its folder) may not be opened or written by this user"),
            ExitStatusNote(.cancelled, "cancelled: by Cancel, glance task cancel, Ctrl-C, SIGTERM or SIGHUP (no day was changed)"),
        ])
}
