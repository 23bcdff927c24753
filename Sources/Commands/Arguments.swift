import Activity
import Raster
import Store

/// Bad command-line input: one line naming the argument and what to do; exit 64 (EX_USAGE).
public struct UsageError: Error, CustomStringConvertible {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// Reads `--flag value`, `--flag=value` and bare `--flag` options, in order, by hand.
struct Arguments {
    private var items: [String]
    private var index = 0

    init(_ items: [String]) { self.items = items }

    var isAtEnd: Bool { index >= items.count }

    /// The next option name (`--size` from `--size=…` too); nil at the end.
    mutating func nextOption() throws(UsageError) -> String? {
        guard index < items.count else { return nil }
        let item = items[index]
        guard item.hasPrefix("-"), item != "-" else {
            throw UsageError("unexpected argument '\(item)' (options start with --; see --help)")
        }
        if let eq = item.firstIndex(of: "="), item.hasPrefix("--") {
            let name = String(item[..<eq])
            items[index] = String(item[item.index(after: eq)...])
            items.insert(name, at: index)
        }
        index += 1
        return items[index - 1]
    }

    /// The next item: an option (`--name`, split from `=value` as nextOption does), or a plain
    /// argument such as a file or a name (also `-` and negative numbers like `-5`); nil at the end.
    mutating func next() throws(UsageError) -> ArgumentItem? {
        guard index < items.count else { return nil }
        let item = items[index]
        let isNumber = item.count > 1 && item.hasPrefix("-") && Double(item) != nil
        if !item.hasPrefix("-") || item == "-" || isNumber {
            index += 1
            return .plain(item)
        }
        return try nextOption().map { .option($0) }
    }

    /// The next bare word (a verb such as `check`); nil at the end.
    mutating func nextWord() throws(UsageError) -> String? {
        guard index < items.count else { return nil }
        index += 1
        return items[index - 1]
    }

    /// The value after option `name`.
    mutating func value(for name: String) throws(UsageError) -> String {
        guard index < items.count else { throw UsageError("\(name) needs a value (see --help)") }
        index += 1
        return items[index - 1]
    }
}

/// An option or a plain argument, as `Arguments.next()` reads them.
enum ArgumentItem: Equatable {
    case option(String)
    case plain(String)
}

/// Parsers for the values options take; each error names the option and the expected form.
enum Parse {
    static let maxSide = 8192

    /// `WxH`, each side 1...8192.
    static func size(_ text: String, option: String) throws(UsageError) -> Size {
        let parts = text.split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]) else {
            throw UsageError("\(option) '\(text)': expected WxH, e.g. 480x480")
        }
        guard (1...maxSide).contains(w), (1...maxSide).contains(h) else {
            throw UsageError("\(option) '\(text)': width and height must be 1 to \(maxSide) pixels")
        }
        return Size(width: w, height: h)
    }

    static func rotation(_ text: String, option: String) throws(UsageError) -> Rotation {
        guard let d = Int(text), let r = Rotation(rawValue: d) else {
            throw UsageError("\(option) '\(text)': expected 0, 90, 180 or 270")
        }
        return r
    }

    static func format(_ text: String, option: String) throws(UsageError) -> PixelFormat {
        guard let f = PixelFormat(rawValue: text.lowercased()) else {
            throw UsageError("\(option) '\(text)': expected xrgb8888 or rgb565")
        }
        return f
    }

    static func count(_ text: String, option: String, range: ClosedRange<Int>) throws(UsageError) -> Int {
        guard let n = Int(text), range.contains(n) else {
            throw UsageError("\(option) '\(text)': expected a whole number from \(range.lowerBound) to \(range.upperBound)")
        }
        return n
    }

    /// A finite number ≥ 0, written as a plain decimal (as import files must: `DecimalText`).
    static func quantity(_ text: Substring, option: String, whole: String) throws(UsageError) -> Double {
        guard DecimalText.isDecimal(text), let v = Double(text) else {
            throw UsageError("\(option) '\(whole)': '\(text)' is not a number")
        }
        guard v.isFinite else { throw UsageError("\(option) '\(whole)': '\(text)' is not a finite number") }
        guard v >= 0 else { throw UsageError("\(option) '\(whole)': '\(text)' is negative; values and goals are 0 or more") }
        return v
    }

    /// Any finite number, written as a plain decimal (gauges and metrics take negative values:
    /// temperatures).
    static func real(_ text: String, option: String) throws(UsageError) -> Double {
        guard DecimalText.isDecimal(text), let v = Double(text) else {
            throw UsageError("\(option) '\(text)': expected a number")
        }
        guard v.isFinite else { throw UsageError("\(option) '\(text)': expected a finite number") }
        return v
    }

    /// Colours as `#RRGGBB` (or `RRGGBB`), comma-separated.
    static func colors(_ text: String, option: String) throws(UsageError) -> [Color] {
        var result: [Color] = []
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            let hex = part.hasPrefix("#") ? part.dropFirst() : part[...]
            guard hex.count == 6, let v = UInt32(hex, radix: 16) else {
                throw UsageError("\(option) '\(text)': '\(part)' is not a colour; use #RRGGBB, comma-separated")
            }
            result.append(Color(hex: v))
        }
        return result
    }

    /// `V/G` where either side may be `-` (missing); returns (value, goal).
    static func valueGoal(_ text: String, option: String) throws(UsageError) -> (Double?, Double?) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2 else {
            throw UsageError("\(option) '\(text)': expected VALUE/GOAL, e.g. 350/500 (- for a missing side)")
        }
        func side(_ s: Substring) throws(UsageError) -> Double? {
            s == "-" ? nil : try quantity(s, option: option, whole: text)
        }
        return (try side(parts[0]), try side(parts[1]))
    }

    /// `V/G` of energy, each side optionally followed by `kcal`, `Cal` or `kJ` (default kcal; a
    /// side without a unit takes the other side's).
    static func energy(_ text: String, option: String) throws(UsageError) -> (Energy?, Energy?) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2 else {
            throw UsageError("\(option) '\(text)': expected VALUE/GOAL, e.g. 350/500 or 1460kJ/2090kJ")
        }
        func split(_ s: Substring) throws(UsageError) -> (Double?, EnergyUnit?) {
            if s == "-" { return (nil, nil) }
            let digits = s.prefix { "0123456789.eE+-".contains($0) }
            let symbol = s.dropFirst(digits.count)
            guard !digits.isEmpty else { throw UsageError("\(option) '\(text)': '\(s)' is not a number") }
            var unit: EnergyUnit? = nil
            if !symbol.isEmpty {
                guard let u = EnergyUnit(symbol: String(symbol)) else {
                    throw UsageError("\(option) '\(text)': unknown energy unit '\(symbol)' (use kcal, Cal or kJ)")
                }
                unit = u
            }
            return (try quantity(digits, option: option, whole: text), unit)
        }
        let (v, vu) = try split(parts[0])
        let (g, gu) = try split(parts[1])
        let unitV = vu ?? gu ?? .kilocalorie, unitG = gu ?? vu ?? .kilocalorie
        return (v.map { Energy($0, unitV) }, g.map { Energy($0, unitG) })
    }
}
