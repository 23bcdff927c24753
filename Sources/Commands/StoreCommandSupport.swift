import Activity
import Store

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// What the store commands share: `--db PATH`, opening the store, exit statuses for its errors.
struct StoreSelection {
    var path: String?

    static let help =
        "  --db PATH               the store (default: /var/lib/glance/glance.db for root,\n"
        + "                          else $XDG_DATA_HOME/glance/glance.db)"

    /// Consumes `--db`; false for other options.
    mutating func parse(_ option: String, _ args: inout Arguments) throws(UsageError) -> Bool {
        guard option == "--db" else { return false }
        let value = try args.value(for: option)
        guard !value.isEmpty else { throw UsageError("--db needs a file path") }
        path = value
        return true
    }

    /// The path to use, or nil (after complaining) when there is no default.
    func resolvedPath() -> String? {
        if let path { return path }
        guard let path = StoreLocation.defaultPath() else {
            complain("no store path: set HOME or XDG_DATA_HOME, or give --db PATH")
            return nil
        }
        return path
    }

    /// Opens the store, or complains and returns the exit status (for `glance render --db`, which
    /// mixes the store with other failures; the store commands use `run`).
    func open(create: Bool = true) -> Result<Store, ExitStatus> {
        guard let path = resolvedPath() else { return .failure(ExitStatus(ExitCode.usage)) }
        do {
            return .success(try Store(path: path, create: create))
        } catch {
            complain(error.message)
            return .failure(ExitStatus(exitCode(for: error)))
        }
    }

    /// Opens the store (creating it with `create`) and runs `body` with it. A store error, in
    /// opening or from `body`, is complained about and becomes the exit status.
    func run(create: Bool = true, _ body: (Store) throws(StoreError) -> Int32) -> Int32 {
        guard let path = resolvedPath() else { return ExitCode.usage }
        do {
            return try body(try Store(path: path, create: create))
        } catch {
            return fail(error)
        }
    }
}

/// For a remove: `ExitCode.ok` when there was something to remove, else "no THING".
func removed(_ found: Bool, _ thing: String) throws(StoreError) -> Int32 {
    guard found else { throw StoreError(.notFound, "no \(thing)") }
    return ExitCode.ok
}

/// An exit status as an Error, so `Result` can carry it.
struct ExitStatus: Error {
    let code: Int32
    init(_ code: Int32) { self.code = code }
}

/// The exit status for a store error (sysexits.h, as `glance --help` lists them).
func exitCode(for error: StoreError) -> Int32 {
    switch error.kind {
    case .badData, .notFound: ExitCode.dataError
    case .io: ExitCode.ioError
    case .missing: ExitCode.noInput
    case .busy, .cancelled: ExitCode.temporaryFailure
    case .invalidArgument: ExitCode.usage
    }
}

/// Complains about a store error and returns its exit status.
func fail(_ error: StoreError, _ hint: String? = nil) -> Int32 {
    complain(hint.map { "\(error.message)\n\($0)" } ?? error.message)
    return exitCode(for: error)
}

extension Parse {
    /// `today`, `yesterday` or `YYYY-MM-DD`.
    static func day(_ text: String, option: String) throws(UsageError) -> CalendarDay {
        switch text {
        case "today": return today()
        case "yesterday": return today().adding(days: -1)
        default:
            guard let day = CalendarDay(iso: text) else {
                throw UsageError("\(option) '\(text)': expected YYYY-MM-DD, today or yesterday")
            }
            return day
        }
    }

    /// The local date now.
    static func today() -> CalendarDay { SystemClock.today() }

    /// A number ≥ 0, or `-` for missing (nil).
    static func optionalQuantity(_ text: String, option: String) throws(UsageError) -> Double? {
        text == "-" ? nil : try quantity(Substring(text), option: option, whole: text)
    }

    /// An energy ≥ 0 with an optional unit (`350`, `350kcal`, `1460kJ`), or `-` for missing.
    static func optionalEnergy(_ text: String, option: String, defaultUnit: EnergyUnit) throws(UsageError) -> Energy? {
        if text == "-" { return nil }
        let digits = text.prefix { "0123456789.eE+-".contains($0) }
        let symbol = text.dropFirst(digits.count)
        var unit = defaultUnit
        if !symbol.isEmpty {
            guard let u = EnergyUnit(symbol: String(symbol)) else {
                throw UsageError("\(option) '\(text)': unknown energy unit '\(symbol)' (use kcal, Cal or kJ)")
            }
            unit = u
        }
        guard !digits.isEmpty else { throw UsageError("\(option) '\(text)': expected a number, e.g. 350 or 1460kJ") }
        return Energy(try quantity(digits, option: option, whole: text), unit)
    }
}

/// Writes text straight to standard output (no buffering surprises when piped). Returns nil when
/// all of it was written, else why not (`standard output: No space left on device`). A line
/// reporting what was done may ignore that; output that is the result uses `writeResult`.
@discardableResult
func writeOut(_ text: String) -> StoreError? {
    var s = text
    let failure: Int32 = s.withUTF8 { bytes in
        var offset = 0
        while offset < bytes.count {
            let n = write(1, bytes.baseAddress! + offset, bytes.count - offset)
            if n < 0 && errno == EINTR { continue }
            if n < 0 { return errno }
            if n == 0 { return EIO }
            offset += n
        }
        return 0
    }
    guard failure != 0 else { return nil }
    return StoreError(.io, "standard output: \(String(cString: strerror(failure)))")
}

/// Writes output that is the command's result (an export, a list) to standard output; throws
/// when it cannot, so a full disk or a closed file never passes for a complete result (exit 74).
func writeResult(_ text: String) throws(StoreError) {
    if let error = writeOut(text) { throw error }
}

/// One line describing a day, as `glance log` and `glance watch` print it.
func describe(_ day: CalendarDay, _ s: ActivitySummary?) -> String {
    guard let s else { return "\(day): no summary" }
    func number(_ x: Double?) -> String { x.map { Store.csvNumber($0) } ?? "—" }
    func pair(_ v: Double?, _ g: Double?, _ unit: String) -> String { "\(number(v))/\(number(g)) \(unit)" }
    var parts: [String] = []
    if s.moveMode == .moveTime {
        parts.append("move \(pair(s.moveTime, s.moveTimeGoal, "min")) (move-time mode)")
    } else if let value = s.activeEnergyBurned, let goal = s.activeEnergyBurnedGoal, value.unit != goal.unit {
        // Each number with its own unit: `1460/500 kJ` would misstate a goal of 500 kcal.
        parts.append("move \(number(value.value)) \(value.unit.rawValue)/\(number(goal.value)) \(goal.unit.rawValue)")
    } else {
        let unit = (s.activeEnergyBurned ?? s.activeEnergyBurnedGoal)?.unit.rawValue ?? "kcal"
        parts.append("move \(pair(s.activeEnergyBurned?.value, s.activeEnergyBurnedGoal?.value, unit))")
    }
    parts.append("exercise \(pair(s.exerciseTime, s.exerciseTimeGoal, "min"))")
    parts.append("stand \(pair(s.standHours, s.standHoursGoal, "h"))")
    return "\(day): " + parts.joined(separator: ", ")
}
