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
                try store.exportCSV(table) { writeOut($0) }
                return ExitCode.ok
            }
            let temporary = output + ".partial-\(getpid())"
            guard let file = fopen(temporary, "w") else {
                complain("--output '\(output)': cannot create: \(String(cString: strerror(errno)))")
                return ExitCode.cannotCreate
            }
            do throws(StoreError) {
                try store.exportCSV(table) { fputs($0, file) }
            } catch {
                fclose(file)
                unlink(temporary)
                throw error
            }
            let ok = fflush(file) == 0 && fsync(fileno(file)) == 0
            fclose(file)
            guard ok, rename(temporary, output) == 0 else {
                complain("--output '\(output)': cannot write: \(String(cString: strerror(errno)))")
                unlink(temporary)
                return ExitCode.ioError
            }
            return ExitCode.ok
        }
    }
}
