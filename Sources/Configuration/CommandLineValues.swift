// The forms values take on the command line (and wherever a person types them) beside the
// settings' own (Forms.swift): sizes, counts, numbers, a day's figures, a task's amounts. Each
// error names the option and the form expected.
import Activity
import CLI
import Controls
import Raster

/// The command line's value forms.
public enum Value {
    public static let maxSide = 8192

    public static let text = ValueParser<String>("TEXT") { text, _ in text }
    public static func file(_ placeholder: String = "FILE", extensions: [String] = []) -> ValueParser<String> {
        ValueParser(placeholder, completion: .file(extensions: extensions)) { text, _ in text }
    }
    public static let folder = ValueParser<String>("FOLDER", completion: .directory) { text, _ in text }

    /// `--db PATH`: a file path, not empty.
    public static let database = ValueParser<String>("PATH", completion: .file(extensions: ["db"])) { (text, option) throws(UsageError) in
        guard !text.isEmpty else { throw UsageError("\(option) needs a file path") }
        return text
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

    /// A screen of the panel: rings, clock, gauges (or gauge), progress (the screens' one reading).
    public static let screenKind = ValueParser<ScreenKind>(
        "rings|clock|gauges|progress", completion: .choices(ScreenKind.allCases.map(\.rawValue))
    ) { (text, option) throws(UsageError) in try Form<ScreenKind>.screenWord(text, option: option) }

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

    public static func count(_ range: ClosedRange<Int>, _ placeholder: String = "N") -> ValueParser<Int> {
        ValueParser(placeholder) { (text, option) throws(UsageError) in
            guard let n = Int(text), range.contains(n) else {
                throw UsageError(
                    "\(option) '\(Quote.clip(text))': expected a whole number from \(range.lowerBound) to \(range.upperBound)")
            }
            return n
        }
    }

    /// A task's amount: 0 to 10^15.
    public static let amount = ValueParser<Double>("N") { (text, option) throws(UsageError) in
        let v = try FigureText.quantity(Substring(text), option: option, whole: text)
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

    /// A day's figure in `range` (a goal with `goal`), or `-` for missing (nil).
    public static func optionalFigure(_ range: FigureRange, goal: Bool = false) -> ValueParser<Double?> {
        ValueParser(goal ? "G" : "V") { (text, option) throws(UsageError) in
            text == "-" ? nil : try FigureText.figure(Substring(text), option: option, whole: text, range: range, goal: goal)
        }
    }

    /// An energy in range with an optional unit (`350`, `350kcal`, `1460kJ`; kcal without), or `-`.
    public static func optionalEnergy(goal: Bool = false) -> ValueParser<Energy?> {
        ValueParser(goal ? "G" : "V") { (text, option) throws(UsageError) in
            if text == "-" { return nil }
            guard text.first.map({ "0123456789.eE+-".contains($0) }) == true else {
                throw UsageError("\(option) '\(Quote.clip(text))': expected a number, e.g. 350 or 1460kJ")
            }
            let (v, unit) = try FigureText.energyParts(Substring(text), option: option, whole: text, goal: goal)
            return Energy(v, unit ?? .kilocalorie)
        }
    }
}

extension Value {
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


/// An enum whose cases are the words of a choice.
public typealias ChoiceValue = ChoiceWords
