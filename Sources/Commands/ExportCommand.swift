import Store

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// `glance export --csv`: everything back out of the store.
struct ExportCommand {
    var store = StoreSelection()
    var table = Store.Table.days
    var output: String?
    var csv = false

    static let help = """
        Usage: glance export --csv [--table days|metrics|tasks] [--output FILE] [--db PATH]

        Writes a table of the store as CSV to standard output (or FILE, written whole or not at
        all). The days come out in the CSV form of an Apple Health export, with two more columns
        (activeEnergyBurnedGoalUnit when it differs, moveMode), so `glance import` reads them back
        to exactly the same store.

          --table days|metrics|tasks   which table (default: days)
          --output FILE, -o FILE       write FILE instead of standard output
        \(StoreSelection.help)

        Exit status: 0 written; 64 bad arguments; 65 --db is not a Glance store (left as it is);
        66 no store; 73 FILE cannot be created; 74 standard output or FILE could not be written
        whole (a full disk, say; the message says why); 75 the store is busy, try again.
        """

    static func parse(_ argv: [String]) throws(UsageError) -> ExportCommand? {
        var command = ExportCommand()
        var args = Arguments(argv)
        while let option = try args.nextOption() {
            if option == "--help" || option == "-h" { return nil }
            if try command.store.parse(option, &args) { continue }
            switch option {
            case "--csv": command.csv = true
            case "--table":
                let text = try args.value(for: option)
                guard let table = Store.Table(rawValue: text) else {
                    throw UsageError("--table '\(text)': expected days, metrics or tasks")
                }
                command.table = table
            case "--output", "-o":
                let path = try args.value(for: option)
                if let problem = isWritableOutput(path) {
                    throw UsageError("--output '\(path)': cannot write there: \(problem)")
                }
                command.output = path
            default: throw UsageError("export: unknown option '\(option)' (see glance export --help)")
            }
        }
        guard command.csv else { throw UsageError("export: say --csv (the one format there is)") }
        return command
    }

    func run() -> Int32 {
        store.run(create: false) { store throws(StoreError) in
            guard let output else {
                try store.exportCSV(table, write: writeResult)
                return ExitCode.ok
            }
            // Written beside the file and renamed over it once complete and on disk.
            let temporary = output + ".partial-\(getpid())"
            guard let file = fopen(temporary, "w") else {
                complain("--output '\(output)': cannot create: \(String(cString: strerror(errno)))")
                return ExitCode.cannotCreate
            }
            func writeFailure() -> StoreError {
                StoreError(.io, "--output '\(output)': cannot write: \(String(cString: strerror(errno)))")
            }
            var failure: StoreError?
            do throws(StoreError) {
                try store.exportCSV(table) { (text) throws(StoreError) in
                    guard fputs(text, file) >= 0 else { throw writeFailure() }
                }
                guard ferror(file) == 0, fflush(file) == 0, fsync(fileno(file)) == 0 else { throw writeFailure() }
            } catch {
                failure = error
            }
            if fclose(file) != 0, failure == nil { failure = writeFailure() }
            if failure == nil, rename(temporary, output) != 0 { failure = writeFailure() }
            if let failure {
                unlink(temporary)
                throw failure
            }
            return ExitCode.ok
        }
    }
}
