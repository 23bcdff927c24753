import Activity
import CLI
import Controls
import Display
import Raster
import Screens
import Store

/// The forms values take on the command line (and wherever a person types them): each error
/// names the option and the form expected.
public enum Value {
    public static let maxSide = 8192

    public static let text = ValueParser<String>("TEXT") { text, _ in text }
    public static let name = ValueParser<String>("NAME") { text, _ in text }
    public static func file(_ placeholder: String = "FILE", extensions: [String] = []) -> ValueParser<String> {
        ValueParser(placeholder, completion: .file(extensions: extensions)) { text, _ in text }
    }
    public static let folder = ValueParser<String>("FOLDER", completion: .directory) { text, _ in text }

    /// `--db PATH`: a file path, not empty.
    public static let database = ValueParser<String>("PATH", completion: .file(extensions: ["db"])) { (text, option) throws(UsageError) in
        guard !text.isEmpty else { throw UsageError("\(option) needs a file path") }
        return text
    }

    /// A path where a file can be created or replaced.
    public static func output(_ placeholder: String, extensions: [String] = []) -> ValueParser<String> {
        ValueParser(placeholder, completion: .file(extensions: extensions)) { (text, option) throws(UsageError) in
            if let error = outputUsageError(text, option: option) { throw error }
            return text
        }
    }

    /// One of the words of a raw-value enum (in any letter case with `anyCase`).
    public static func choice<T: ChoiceValue>(_ type: T.Type, expected: String? = nil, anyCase: Bool = false)
        -> ValueParser<T> where T.RawValue == String
    {
        let words = T.allCases.map(\.rawValue)
        return ValueParser(words.joined(separator: "|"), completion: .choices(words)) { (text, option) throws(UsageError) in
            guard let value = T(rawValue: anyCase ? text.lowercased() : text) else {
                throw UsageError("\(option) '\(Quote.clip(text))': expected \(expected ?? words.joined(separator: ", "))")
            }
            return value
        }
    }

    /// A screen of the panel: rings, gauges (or gauge), progress.
    public static let screenKind = ValueParser<ScreenKind>(
        "rings|gauges|progress", completion: .choices(ScreenKind.allCases.map(\.rawValue))
    ) { (text, option) throws(UsageError) in
        guard let kind = ScreenKind(rawValue: text == "gauge" ? "gauges" : text) else {
            throw UsageError("\(option) '\(text)': expected rings, gauges or progress")
        }
        return kind
    }

    /// `WxH`, each side 1...8192.
    public static let size = ValueParser<Size>("WxH") { (text, option) throws(UsageError) in
        let parts = text.split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]) else {
            throw UsageError("\(option) '\(Quote.clip(text))': expected WxH, e.g. 480x480")
        }
        guard (1...maxSide).contains(w), (1...maxSide).contains(h) else {
            throw UsageError("\(option) '\(Quote.clip(text))': width and height must be 1 to \(maxSide) pixels")
        }
        return Size(width: w, height: h)
    }

    /// `WxH[,WxH…]`.
    public static let sizes = ValueParser<[Size]>("WxH[,WxH…]") { (text, option) throws(UsageError) in
        var result: [Size] = []
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            result.append(try size.parse(String(part), option))
        }
        return result
    }

    public static let rotation = ValueParser<Rotation>("0|90|180|270", completion: .choices(["0", "90", "180", "270"])) {
        (text, option) throws(UsageError) in
        guard let d = Int(text), let r = Rotation(rawValue: d) else {
            throw UsageError("\(option) '\(Quote.clip(text))': expected 0, 90, 180 or 270")
        }
        return r
    }

    public static let format = ValueParser<PixelFormat>("xrgb8888|rgb565", completion: .choices(["xrgb8888", "rgb565"])) {
        (text, option) throws(UsageError) in
        guard let f = PixelFormat(rawValue: text.lowercased()) else {
            throw UsageError("\(option) '\(Quote.clip(text))': expected xrgb8888 or rgb565")
        }
        return f
    }

    public static let mode = ValueParser<ModeRequest>("WxH[@HZ]") { (text, option) throws(UsageError) in
        guard let mode = ModeRequest(parsing: text) else {
            throw UsageError("\(option) '\(Quote.clip(text))': expected WxH or WxH@HZ, e.g. 800x480 or 800x480@60")
        }
        return mode
    }

    public static func count(_ range: ClosedRange<Int>, _ placeholder: String = "N") -> ValueParser<Int> {
        ValueParser(placeholder) { (text, option) throws(UsageError) in
            guard let n = Int(text), range.contains(n) else {
                throw UsageError(
                    "\(option) '\(Quote.clip(text))': expected a whole number from \(range.lowerBound) to \(range.upperBound)")
            }
            return n
        }
    }

    /// A finite number ≥ 0, written as a plain decimal (as import files must: `DecimalText`).
    public static func quantity(_ text: Substring, option: String, whole: String) throws(UsageError) -> Double {
        guard DecimalText.isDecimal(text), let v = Double(text) else {
            throw UsageError("\(option) '\(Quote.clip(whole))': '\(Quote.clip(text))' is not a number")
        }
        guard v.isFinite else { throw UsageError("\(option) '\(Quote.clip(whole))': '\(Quote.clip(text))' is not a finite number") }
        guard v >= 0 else { throw UsageError("\(option) '\(Quote.clip(whole))': '\(Quote.clip(text))' is negative; values and goals are 0 or more") }
        return v
    }

    /// A day's figure: a quantity in its `FigureRange` (a goal: 0, or 1 to the top).
    public static func figure(
        _ text: Substring, option: String, whole: String, range: FigureRange, goal: Bool
    ) throws(UsageError) -> Double {
        let v = try quantity(text, option: option, whole: whole)
        if let problem = range.problem(v, goal: goal) { throw UsageError("\(option) '\(Quote.clip(whole))': \(Quote.clip(text)) \(problem)") }
        return v
    }

    /// A task's amount: 0 to 10^15.
    public static let amount = ValueParser<Double>("N") { (text, option) throws(UsageError) in
        let v = try quantity(Substring(text), option: option, whole: text)
        guard v <= 1e15 else { throw UsageError("\(option) '\(Quote.clip(text))': expected a number from 0 to 10^15") }
        return v
    }

    /// Any finite number (gauges and metrics take negative values: temperatures).
    public static func real(_ placeholder: String = "X") -> ValueParser<Double> {
        ValueParser(placeholder) { (text, option) throws(UsageError) in try real(text, option: option) }
    }

    public static func real(_ text: String, option: String) throws(UsageError) -> Double {
        guard DecimalText.isDecimal(text), let v = Double(text) else {
            throw UsageError("\(option) '\(Quote.clip(text))': expected a number")
        }
        guard v.isFinite, abs(v) <= 1e15 else {
            throw UsageError("\(option) '\(Quote.clip(text))': expected a number from -10^15 to 10^15")
        }
        return v
    }

    /// Seconds ≥ 0; 0 is never (nil).
    public static let seconds = ValueParser<Double?>("S") { (text, option) throws(UsageError) in
        let v = try real(text, option: option)
        guard v >= 0 else { throw UsageError("\(option) '\(Quote.clip(text))': expected seconds, 0 for never") }
        return v == 0 ? nil : v
    }

    /// Colours as `#RRGGBB` (or `RRGGBB`), comma-separated.
    public static let colors = ValueParser<[Color]>("C1,C2,…") { (text, option) throws(UsageError) in
        var result: [Color] = []
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            let hex = part.hasPrefix("#") ? part.dropFirst() : part[...]
            guard hex.count == 6, let v = UInt32(hex, radix: 16) else {
                throw UsageError("\(option) '\(Quote.clip(text))': '\(Quote.clip(part))' is not a colour; use #RRGGBB, comma-separated")
            }
            result.append(Color(hex: v))
        }
        return result
    }

    /// `YYYY-MM-DD`.
    public static let date = ValueParser<CalendarDay>("YYYY-MM-DD") { (text, option) throws(UsageError) in
        guard let d = CalendarDay(iso: text) else {
            throw UsageError("\(option) '\(Quote.clip(text))': expected a date as YYYY-MM-DD, e.g. 2026-11-29")
        }
        return d
    }

    /// `today`, `yesterday` or `YYYY-MM-DD`.
    public static let day = ValueParser<CalendarDay>("D", completion: .choices(["today", "yesterday"])) {
        (text, option) throws(UsageError) in
        let today = SystemLocalClock().today()
        switch text {
        case "today": return today
        case "yesterday": return today.adding(days: -1)
        default:
            guard let day = CalendarDay(iso: text) else {
                throw UsageError("\(option) '\(Quote.clip(text))': expected YYYY-MM-DD, today or yesterday")
            }
            return day
        }
    }

    /// `V/G` where either side may be `-` (missing), each in `range`.
    public static func valueGoal(_ range: FigureRange) -> ValueParser<(Double?, Double?)> {
        ValueParser("V/G") { (text, option) throws(UsageError) in
            let parts = text.split(separator: "/", omittingEmptySubsequences: false)
            guard parts.count == 2 else {
                throw UsageError("\(option) '\(Quote.clip(text))': expected VALUE/GOAL, e.g. 350/500 (- for a missing side)")
            }
            func side(_ s: Substring, goal: Bool) throws(UsageError) -> Double? {
                s == "-" ? nil : try figure(s, option: option, whole: text, range: range, goal: goal)
            }
            return (try side(parts[0], goal: false), try side(parts[1], goal: true))
        }
    }

    /// A number and an optional energy unit (`350`, `1460kJ`); the unit may be missing.
    public static func energyParts(_ s: Substring, option: String, whole: String, goal: Bool) throws(UsageError)
        -> (Double, EnergyUnit?)
    {
        let digits = s.prefix { "0123456789.eE+-".contains($0) }
        let symbol = s.dropFirst(digits.count)
        guard !digits.isEmpty else { throw UsageError("\(option) '\(Quote.clip(whole))': '\(Quote.clip(s))' is not a number") }
        var unit: EnergyUnit? = nil
        if !symbol.isEmpty {
            guard let u = EnergyUnit(symbol: String(symbol)) else {
                throw UsageError("\(option) '\(Quote.clip(whole))': unknown energy unit '\(Quote.clip(symbol))' (use kcal, Cal or kJ)")
            }
            unit = u
        }
        return (try figure(digits, option: option, whole: whole, range: .energy, goal: goal), unit)
    }

    /// `V/G` of energy, each side optionally with `kcal`, `Cal` or `kJ` (default kcal; a side
    /// without a unit takes the other side's).
    public static let energy = ValueParser<(Energy?, Energy?)>("V/G") { (text, option) throws(UsageError) in
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2 else {
            throw UsageError("\(option) '\(Quote.clip(text))': expected VALUE/GOAL, e.g. 350/500 or 1460kJ/2090kJ")
        }
        let v = parts[0] == "-" ? nil : try energyParts(parts[0], option: option, whole: text, goal: false)
        let g = parts[1] == "-" ? nil : try energyParts(parts[1], option: option, whole: text, goal: true)
        let unitV = v?.1 ?? g?.1 ?? .kilocalorie, unitG = g?.1 ?? v?.1 ?? .kilocalorie
        return (v.map { Energy($0.0, unitV) }, g.map { Energy($0.0, unitG) })
    }

    /// A day's figure in `range` (a goal with `goal`), or `-` for missing (nil).
    public static func optionalFigure(_ range: FigureRange, goal: Bool = false) -> ValueParser<Double?> {
        ValueParser(goal ? "G" : "V") { (text, option) throws(UsageError) in
            text == "-" ? nil : try figure(Substring(text), option: option, whole: text, range: range, goal: goal)
        }
    }

    /// An energy in range with an optional unit (`350`, `350kcal`, `1460kJ`; kcal without), or `-`.
    public static func optionalEnergy(goal: Bool = false) -> ValueParser<Energy?> {
        ValueParser(goal ? "G" : "V") { (text, option) throws(UsageError) in
            if text == "-" { return nil }
            guard text.first.map({ "0123456789.eE+-".contains($0) }) == true else {
                throw UsageError("\(option) '\(Quote.clip(text))': expected a number, e.g. 350 or 1460kJ")
            }
            let (v, unit) = try energyParts(Substring(text), option: option, whole: text, goal: goal)
            return Energy(v, unit ?? .kilocalorie)
        }
    }
}

extension Value {
    public static let locale = ValueParser<AppLocale>("en|zh-Hans", completion: .choices(["en", "zh-Hans"])) {
        (text, option) throws(UsageError) in
        guard let l = AppLocale(name: text) else { throw UsageError("\(option) '\(Quote.clip(text))': expected en or zh-Hans") }
        return l
    }

    /// A gauge's value: a number, or - or nan for none.
    public static let gaugeValue = ValueParser<Double?>("V") { (text, option) throws(UsageError) in
        text == "-" || text.lowercased() == "nan" ? nil : try real(text, option: option)
    }

    /// What `--time` gives: the clock's time of day (`HH:MM`), or the animation clock in seconds.
    public enum TimeGiven: Sendable, Equatable {
        case clock(TimeOfDay)
        case seconds(Double)
    }

    /// `HH:MM` (24-hour) or a number of seconds.
    public static let timeOrSeconds = ValueParser<TimeGiven>("HH:MM|SECONDS") { (text, option) throws(UsageError) in
        if text.contains(":") {
            guard let t = TimeOfDay(parsing: text) else {
                throw UsageError("\(option) '\(text)': expected a time of day as HH:MM on a 24-hour clock, e.g. 15:05")
            }
            return .clock(t)
        }
        guard DecimalText.isDecimal(text), let v = Double(text), v.isFinite, v >= 0 else {
            throw UsageError("\(option) '\(text)': expected HH:MM (the clock, e.g. 15:05) or seconds of the animation clock")
        }
        return .seconds(v)
    }

    public static let fraction = ValueParser<Double>("F") { (text, option) throws(UsageError) in
        let f = try real(text, option: option)
        guard (0...1).contains(f) else { throw UsageError("\(option) '\(Quote.clip(text))': expected a fraction from 0 to 1") }
        return f
    }
}

extension Value {
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

    public static func clearableReal(_ placeholder: String) -> ValueParser<FieldChange<Double>> {
        ValueParser(placeholder) { (text, option) throws(UsageError) in text == "-" ? .clear : .set(try real(text, option: option)) }
    }

    public static let unit = ValueParser<FieldChange<String>>("U") { (text, option) throws(UsageError) in
        guard text.utf8.count <= 16 else { throw UsageError("\(option) '\(Quote.clip(text))': at most 16 bytes") }
        return text == "-" || text.isEmpty ? .clear : .set(text)
    }

    public static let total = ValueParser<FieldChange<Double>>("N|unknown") { (text, option) throws(UsageError) in
        text == "unknown" ? .clear : .set(try amount.parse(text, option))
    }

    public static let pid = ValueParser<Int32>("PID") { (text, option) throws(UsageError) in
        guard let pid = Int32(text), pid > 0 else { throw UsageError("\(option) '\(Quote.clip(text))': expected a process id") }
        return pid
    }
}

extension Value {
    public static let fps = ValueParser<Double>("F") { (text, option) throws(UsageError) in
        let f = try real(text, option: option)
        guard f > 0 && f <= 1000 else { throw UsageError("\(option) '\(Quote.clip(text))': expected frames per second, above 0 and up to 1000") }
        return f
    }
}


#if compiler(>=6.2)
    /// An enum whose cases are the words of a choice.
    public typealias ChoiceValue = RawRepresentable & CaseIterable & Sendable & SendableMetatype
#else
    /// An enum whose cases are the words of a choice.
    public typealias ChoiceValue = RawRepresentable & CaseIterable & Sendable
#endif
