import Store

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// `glance import FILE`: Apple Health data into the store, all or nothing.
struct ImportCommand {
    var store = StoreSelection()
    var file: String?
    var skipInvalid = false
    var taskName: String? = "import"
    var showProgress = true

    static let help = """
        Usage: glance import FILE [--db PATH] [--skip-invalid] [--task NAME | --no-task] [--quiet]

        Imports the Activity summaries (the days behind the rings) of an Apple Health export:
          export.zip   the file the Health app makes (Profile › Export All Health Data)
          export.xml   the same, unpacked (apple_health_export/export.xml)
          FILE.csv     the CSV form: a header dateComponents,activeEnergyBurned,… and a row a day
        The format is told from the file's first bytes. The file is read once, streaming, in
        constant memory; only the ActivitySummary elements are kept.

        All or nothing: the days are merged in one transaction at the end, so on any error (or a
        cancel, or Ctrl-C) the days in the store are exactly as they were; only the import's task
        records that it failed or was cancelled. Importing the same file again changes nothing; a
        day already in the store takes the file's values.

          --db PATH          the store (default: /var/lib/glance/glance.db for root, else
                             $XDG_DATA_HOME/glance/glance.db)
          --skip-invalid     skip rows with bad values (and count them) instead of failing
          --task NAME        the task the import shows itself as on the progress screen
                             (default: import); `glance task cancel NAME` stops it, and so
                             does removing or finishing the task while the file is read
          --no-task          do not show the import as a task
          --quiet            no progress bar (there is none unless standard error is a terminal)

        Exit status: 0 imported (also when Ctrl-C, SIGTERM or SIGHUP came too late to stop it; a
        message says so), 64 bad arguments, 65 bad data (the message names the file, line and
        column; no day was changed) or not a Glance store, 66 no such file, 74 read error, 75
        cancelled or the store is busy (no day was changed).
        """

    static func parse(_ argv: [String]) throws(UsageError) -> ImportCommand? {
        var command = ImportCommand()
        var args = Arguments(argv)
        while let item = try args.next() {
            guard case .option(let option) = item else {
                guard command.file == nil, case .plain(let file) = item else {
                    throw UsageError("import: give one file (see glance import --help)")
                }
                command.file = file
                continue
            }
            if option == "--help" || option == "-h" { return nil }
            if try command.store.parse(option, &args) { continue }
            switch option {
            case "--skip-invalid": command.skipInvalid = true
            case "--task":
                let name = try args.value(for: option)
                do { try Store.checkName(name, what: "task") } catch { throw UsageError("--task: \(error.message)") }
                command.taskName = name
            case "--no-task": command.taskName = nil
            case "--quiet", "-q": command.showProgress = false
            default: throw UsageError("import: unknown option '\(option)' (see glance import --help)")
            }
        }
        guard command.file != nil else {
            throw UsageError("import: give the file to import (export.zip, export.xml or a CSV)")
        }
        return command
    }

    func run() -> Int32 {
        guard let file else { return ExitCode.usage }
        // Ctrl-C, SIGTERM and SIGHUP are held back and noticed between chunks, so the import stops
        // cleanly (exit 75, the days unchanged) instead of dying mid-way.
        let signals = HeldSignals([SIGINT, SIGTERM, SIGHUP])
        let status = store.run { store throws(StoreError) in importing(file, into: store, signals: signals) }
        // One that came after the last check (during the merge, say) is taken here, not delivered
        // when the mask is restored: its default action would kill us after the work was done.
        guard let late = signals.release() else { return status }
        if status == ExitCode.ok {
            complain("\(HeldSignals.name(late)) came when the import was already complete; its days are in the store")
        }
        return status
    }

    private func importing(_ file: String, into store: Store, signals: HeldSignals) -> Int32 {
        var options = ImportOptions()
        options.skipInvalid = skipInvalid
        options.taskName = taskName
        options.shouldStop = { signals.arePending }
        let bar = Box(ProgressBar(label: "importing \(Self.baseName(file))"))
        if showProgress && ProgressBar.isAvailable {
            options.progress = { bar.value.draw($0) }
        }
        let report: ImportReport
        do {
            report = try HealthImport.run(file, into: store, options: options)
            bar.value.finish()
        } catch {
            bar.value.finish()
            var hint: String? = nil
            switch error.kind {
            case .badData:
                hint =
                    "nothing was imported; the store is unchanged"
                    + (error.isSkippableRow ? " (to skip bad rows and import the rest, add --skip-invalid)" : "")
            case .cancelled: hint = "nothing was imported; the store is unchanged"
            default: break
            }
            return fail(error, hint)
        }
        let plural = report.days == 1 ? "" : "s"
        var line = "imported \(report.days) day\(plural)"
        if let first = report.firstDay, let last = report.lastDay {
            line += first == last ? " (\(first))" : " (\(first) to \(last))"
        }
        line += " from \(file): \(report.newDays) new, \(report.changedDays) changed, \(report.unchangedDays) unchanged"
        line += "; \(ProgressBar.bytes(report.bytes)) in \(ProgressBar.oneDecimal(report.seconds)) s"
        writeOut(line + "\n")
        if report.skipped > 0 {
            var text = "skipped \(report.skipped) invalid row\(report.skipped == 1 ? "" : "s")"
            text += report.skipped > report.skippedExamples.count ? ", the first \(report.skippedExamples.count):" : ":"
            for example in report.skippedExamples { text += "\n  \(example)" }
            complain(text)
        }
        return ExitCode.ok
    }

    static func baseName(_ path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }
}

/// Signals blocked while work runs, so that they are noticed between steps (`arePending`) rather
/// than killing the process, and taken by `release` rather than delivered late.
struct HeldSignals {
    private let signals: [Int32]
    private var set = sigset_t()
    private var previous = sigset_t()

    /// Blocks `signals` (in this thread, which is the only one an import runs).
    init(_ signals: [Int32]) {
        self.signals = signals
        sigemptyset(&set)
        for signal in signals { sigaddset(&set, signal) }
        sigprocmask(SIG_BLOCK, &set, &previous)
    }

    /// Whether one of them arrived (and waits, blocked).
    var arePending: Bool {
        var pending = sigset_t()
        sigpending(&pending)
        return signals.contains { sigismember(&pending, $0) == 1 }
    }

    /// Takes every pending one (so its default action never runs), then restores the signal mask;
    /// returns the first taken, nil if none came.
    func release() -> Int32? {
        var set = self.set
        var now = timespec(tv_sec: 0, tv_nsec: 0)
        var first: Int32?
        while true {
            let signal = sigtimedwait(&set, nil, &now)
            if signal > 0 {
                first = first ?? signal
            } else if errno != EINTR {
                break  // EAGAIN: none left
            }
        }
        var previous = self.previous
        sigprocmask(SIG_SETMASK, &previous, nil)
        return first
    }

    static func name(_ signal: Int32) -> String {
        switch signal {
        case SIGINT: "SIGINT (Ctrl-C)"
        case SIGTERM: "SIGTERM"
        case SIGHUP: "SIGHUP"
        default: "signal \(signal)"
        }
    }
}

/// A mutable value shared with a closure.
final class Box<Value> {
    var value: Value
    init(_ value: Value) { self.value = value }
}
