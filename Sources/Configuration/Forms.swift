// The forms settings' values take: one reading per form, for the file (JSON) and the command
// line (text) alike, so the two take the same values and refuse the same ones.
import Activity
import CLI
import Controls
import JSON
import Raster
import Faces

extension Form {
    /// A string, any (a name may be empty).
    static var string: Form<String> {
        Form<String>(
            "TEXT", expected: "a string", json: { json, at, reader in reader.string(json, at) }, text: { text, _ in text },
            write: { .json(.string($0)) })
    }

    /// A string, or null for the default (nil). The command line takes a non-empty one.
    static func optionalString(_ placeholder: String = "TEXT", completion: ValueCompletion = .none) -> Form<String?> {
        Form<String?>(
            placeholder, expected: "a string, or null", completion: completion,
            json: { json, at, reader in reader.optionalString(json, at) },
            text: { (text, option) throws(UsageError) in
                guard !text.isEmpty else { throw UsageError("\(option) needs a value that is not empty") }
                return text
            }, write: { .json($0.map(JSON.string) ?? .null) })
    }

    /// A non-empty string (the file) or text (the command line).
    static func nonEmpty(_ placeholder: String = "TEXT") -> Form<String> {
        Form<String>(
            placeholder, expected: "a non-empty string", json: { json, at, reader in reader.string(json, at, nonEmpty: true) },
            text: { (text, option) throws(UsageError) in
                guard !text.isEmpty else { throw UsageError("\(option) needs a value that is not empty") }
                return text
            }, write: { .json(.string($0)) })
    }

    static var bool: Form<Bool> {
        Form<Bool>(
            "true|false", expected: "true or false", completion: .choices(["true", "false"]),
            json: { json, at, reader in reader.bool(json, at) },
            text: { (text, option) throws(UsageError) in
                switch text {
                case "true": return true
                case "false": return false
                default: throw UsageError("\(option) '\(Quote.clip(text))': expected true or false")
                }
            }, write: { .json(.bool($0)) })
    }

    /// A number in `range` (`what` names it in errors: "seconds").
    static func number(_ range: ClosedRange<Double>, what: String = "a number", placeholder: String = "N") -> Form<Double> {
        Form<Double>(
            placeholder, expected: "\(what) from \(NumberText.plain(range.lowerBound)) to \(NumberText.plain(range.upperBound))",
            json: { json, at, reader in reader.number(json, at, range: range, what: what) },
            text: { (text, option) throws(UsageError) in try Self.number(text, option: option, range: range, what: what) },
            write: { .json(.number($0)) })
    }

    /// A whole number in `range`.
    static func whole(_ range: ClosedRange<Int>, what: String) -> Form<Int> {
        Form<Int>(
            "N", expected: "\(what) from \(range.lowerBound) to \(range.upperBound)",
            json: { json, at, reader in
                guard let v = reader.number(json, at, range: Double(range.lowerBound)...Double(range.upperBound), what: what)
                else { return nil }
                guard let n = Int(exactly: v) else {
                    reader.issue(at, "expected a whole number of \(what), found \(NumberText.plain(v))")
                    return nil
                }
                return n
            },
            text: { (text, option) throws(UsageError) in
                guard let n = Int(text), range.contains(n) else {
                    throw UsageError(
                        "\(option) '\(Quote.clip(text))': expected \(what), a whole number from \(range.lowerBound) to \(range.upperBound)")
                }
                return n
            }, write: { .json(.number(Double($0))) })
    }

    /// A plain decimal in `range` from the command line (as the file's numbers are written).
    static func number(_ text: String, option: String, range: ClosedRange<Double>, what: String) throws(UsageError) -> Double {
        guard DecimalText.isDecimal(text), let v = Double(text), v.isFinite else {
            throw UsageError("\(option) '\(Quote.clip(text))': expected \(what), a number")
        }
        guard range.contains(v) else {
            throw UsageError(
                "\(option) '\(Quote.clip(text))': expected \(what) from \(NumberText.plain(range.lowerBound)) to "
                    + "\(NumberText.plain(range.upperBound))")
        }
        return v
    }

    /// Seconds in `range`, or never: null in the file, 0 on the command line.
    static func secondsOrNever(_ range: ClosedRange<Double>) -> Form<Double?> {
        Form<Double?>(
            "S", expected: "seconds from \(NumberText.plain(range.lowerBound)) to \(NumberText.plain(range.upperBound)), or null for never",
            json: { json, at, reader in
                if json == .null { return .some(nil) }
                return reader.number(json, at, range: range, what: "seconds (or null for never)").map { .some($0) }
            },
            text: { (text, option) throws(UsageError) in
                guard DecimalText.isDecimal(text), let v = Double(text), v.isFinite, v >= 0 else {
                    throw UsageError("\(option) '\(Quote.clip(text))': expected seconds, 0 for never")
                }
                if v == 0 { return nil }
                guard range.contains(v) else {
                    throw UsageError(
                        "\(option) '\(Quote.clip(text))': expected seconds from \(NumberText.plain(range.lowerBound)) to "
                            + "\(NumberText.plain(range.upperBound)), or 0 for never")
                }
                return v
            }, write: { .json($0.map(JSON.number) ?? .null) })
    }

    /// One of an enum's words (any letter case on the command line with `anyCase`).
    static func choice<T: ChoiceWords>(_ type: T.Type, expected: String? = nil, anyCase: Bool = false) -> Form<T>
    where T.RawValue == String {
        let words = T.allCases.map(\.rawValue)
        let said = expected ?? words.map { "\"\($0)\"" }.joined(separator: ", ")
        return Form<T>(
            words.joined(separator: "|"), expected: "one of \(said)", completion: .choices(words),
            json: { json, at, reader in reader.choice(json, at, T.allCases.map { ($0.rawValue, $0) }) },
            text: { (text, option) throws(UsageError) in
                guard let v = T(rawValue: anyCase ? text.lowercased() : text) else {
                    throw UsageError("\(option) '\(Quote.clip(text))': expected \(expected ?? words.joined(separator: ", "))")
                }
                return v
            }, write: { .json(.string($0.rawValue)) })
    }

    /// One of an enum's words, or null for the default (nil).
    static func optionalChoice<T: ChoiceWords>(_ type: T.Type, expected: String? = nil, anyCase: Bool = false) -> Form<T?>
    where T.RawValue == String {
        let plain = Form<T>.choice(type, expected: expected, anyCase: anyCase)
        return Form<T?>(
            plain.placeholder, expected: plain.expected + ", or null", completion: plain.completion,
            json: { json, at, reader in json == .null ? .some(nil) : plain.json(json, at, &reader).map { .some($0) } },
            text: { (text, option) throws(UsageError) in try plain.parse(text, option: option) },
            write: { $0.map { plain.write?($0) ?? .absent } ?? .json(.null) })
    }

    /// The language of the labels: `en`, `zh-Hans` (and the spellings of a locale: `zh-CN`,
    /// `zh_CN.UTF-8`, `en-GB`), or null for the environment's.
    static var locale: Form<AppLocale?> {
        Form<AppLocale?>(
            "en|zh-Hans", expected: "\"en\" or \"zh-Hans\", or null for the environment's (LC_ALL, LC_MESSAGES, LANG)",
            completion: .choices(["en", "zh-Hans"]),
            json: { json, at, reader in
                if json == .null { return .some(nil) }
                if case .string(let name) = json, let l = AppLocale(name: name) { return l }
                return reader.choice(json, at, AppLocale.allCases.map { ($0.rawValue, $0) }).map { .some($0) }
            },
            text: { (text, option) throws(UsageError) in
                guard let l = AppLocale(name: text) else { throw UsageError("\(option) '\(Quote.clip(text))': expected en or zh-Hans") }
                return l
            }, write: { .json($0.map { .string($0.rawValue) } ?? .null) })
    }

    /// A day, `YYYY-MM-DD`, or null.
    static var optionalDay: Form<CalendarDay?> {
        Form<CalendarDay?>(
            "YYYY-MM-DD", expected: "a day like \"2026-12-07\", or null",
            json: { json, at, reader in
                guard let s = reader.optionalString(json, at) else { return nil }
                guard let s else { return .some(nil) }
                guard let day = CalendarDay(iso: s) else {
                    reader.issue(at, "expected a day like \"2026-12-07\", found \"\(Quote.clip(s))\"")
                    return nil
                }
                return .some(day)
            },
            text: { (text, option) throws(UsageError) in
                guard let day = CalendarDay(iso: text) else {
                    throw UsageError("\(option) '\(Quote.clip(text))': expected a day like 2026-12-07")
                }
                return day
            }, write: { .json($0.map { .string($0.description) } ?? .null) })
    }

    /// A screen's name: `rings`, `gauges` (also `gauge`), `progress`, `clock`, `family`, `competition`.
    static func screenWord(_ json: JSON, _ at: String, _ reader: inout Reader) -> ScreenKind? {
        if case .string("gauge") = json { return .gauges }
        return reader.choice(json, at, ScreenKind.allCases.map { ($0.rawValue, $0) })
    }

    public static func screenWord(_ text: String, option: String) throws(UsageError) -> ScreenKind {
        guard let kind = ScreenKind(rawValue: text == "gauge" ? "gauges" : text) else {
            throw UsageError("\(option) '\(Quote.clip(text))': expected rings, clock, gauges, progress, family or competition")
        }
        return kind
    }

    /// One screen (the one shown first).
    static var screen: Form<ScreenKind?> {
        Form<ScreenKind?>(
            "rings|clock|gauges|progress|family|competition",
            expected: "a screen: \"rings\", \"clock\", \"gauges\", \"progress\", \"family\" or \"competition\"",
            completion: .choices(["rings", "clock", "gauges", "progress", "family", "competition"]),
            json: { json, at, reader in screenWord(json, at, &reader).map { .some($0) } },
            text: { (text, option) throws(UsageError) in try screenWord(text, option: option) },
            write: { $0.map { .json(.string($0.rawValue)) } ?? .absent })
    }

    /// The screens, in order: each once, at least one.
    static var screens: Form<[ScreenKind]> {
        Form<[ScreenKind]>(
            "", expected: "screen names in order: \"rings\", \"clock\", \"gauges\", \"progress\", \"family\", \"competition\"; each once, at least one",
            json: { json, at, reader in
                guard case .array(let items) = json else {
                    reader.issue(at, "expected an array of screen names like [\"rings\", \"gauges\"], found \(json.kind)")
                    return nil
                }
                var result: [ScreenKind] = []
                for (i, item) in items.enumerated() {
                    guard let s = screenWord(item, "\(at)[\(i)]", &reader) else { continue }
                    if result.contains(s) {
                        reader.issue("\(at)[\(i)]", "\"\(s.rawValue)\" is listed twice")
                    } else {
                        result.append(s)
                    }
                }
                if items.isEmpty { reader.issue(at, "expected at least one screen") }
                return result
            }, text: nil, write: { .json(.array($0.map { .string($0.rawValue) })) })
    }

    /// `WxH` or `WxH@Hz` (`800x480`, `800x480@60`, `1920x1080@59.94`), or null for the panel's
    /// preferred mode.
    static var mode: Form<ModeRequest?> {
        let expected = "WxH or WxH@Hz, e.g. \"800x480@60\" or \"1920x1080@59.94\""
        return Form<ModeRequest?>(
            "WxH[@HZ]", expected: "\"WxH\" or \"WxH@Hz\" (e.g. \"800x480@60\", \"1920x1080@59.94\"), or null",
            json: { json, at, reader in
                guard let s = reader.optionalString(json, at) else { return nil }
                guard let s else { return .some(nil) }
                guard let mode = ModeRequest(parsing: s) else {
                    reader.issue(at, "expected \(expected), found \"\(Quote.clip(s))\"")
                    return nil
                }
                return mode
            },
            text: { (text, option) throws(UsageError) in
                guard let mode = ModeRequest(parsing: text) else {
                    throw UsageError("\(option) '\(Quote.clip(text))': expected \(expected)")
                }
                return mode
            }, write: { .json($0.map { .string($0.description) } ?? .null) })
    }

    /// A DRM card's device (`/dev/dri/card1`), or null for the first with a connected display.
    static var card: Form<String?> {
        Form<String?>(
            "PATH", expected: "a device like \"/dev/dri/card1\", or null", completion: .file(extensions: []),
            json: { json, at, reader in
                guard let s = reader.optionalString(json, at) else { return nil }
                if let s, !s.hasPrefix("/dev/dri/") {
                    reader.issue(at, "expected a device like \"/dev/dri/card0\"")
                    return nil
                }
                return .some(s)
            },
            text: { (text, option) throws(UsageError) in
                guard !text.isEmpty else { throw UsageError("\(option) needs a device, e.g. /dev/dri/card1") }
                return text
            }, write: { .json($0.map(JSON.string) ?? .null) })
    }

    /// 0, 90, 180 or 270 (degrees clockwise).
    static var rotation: Form<Rotation> {
        Form<Rotation>(
            "0|90|180|270", expected: "0, 90, 180 or 270", completion: .choices(["0", "90", "180", "270"]),
            json: { json, at, reader in
                guard let n = reader.number(json, at) else { return nil }
                guard let r = Rotation(rawValue: Int(exactly: n) ?? -1) else {
                    reader.issue(at, "expected 0, 90, 180 or 270")
                    return nil
                }
                return r
            },
            text: { (text, option) throws(UsageError) in
                guard let d = Int(text), let r = Rotation(rawValue: d) else {
                    throw UsageError("\(option) '\(Quote.clip(text))': expected 0, 90, 180 or 270")
                }
                return r
            }, write: { .json(.number(Double($0.rawValue))) })
    }

    /// `HOST:PORT`, or null: off.
    static var optionalListen: Form<String?> {
        let listen = Form<String>.listen
        return Form<String?>(
            "HOST:PORT", expected: "HOST:PORT, e.g. \"0.0.0.0:8128\", or null: off",
            json: { json, at, reader in
                if case .null = json { return .some(nil) }
                return listen.json(json, at, &reader).map { .some($0) }
            },
            text: { (text, option) throws(UsageError) in try listen.parse(text, option: option) },
            write: { .json($0.map(JSON.string) ?? .null) })
    }

    /// `HOST:PORT` (IPv4 or `[IPv6]`).
    static var listen: Form<String> {
        Form<String>(
            "HOST:PORT", expected: "HOST:PORT, e.g. \"0.0.0.0:8127\" or \"[::]:8127\" (port 0: any free one)",
            json: { json, at, reader in
                guard let text = reader.string(json, at, nonEmpty: true) else { return nil }
                guard Reader.isListenAddress(text) else {
                    reader.issue(at, "expected HOST:PORT, e.g. \"0.0.0.0:8127\" or \"[::]:8127\", found \"\(Quote.clip(text))\"")
                    return nil
                }
                return text
            },
            text: { (text, option) throws(UsageError) in
                guard Reader.isListenAddress(text) else {
                    throw UsageError("\(option) '\(Quote.clip(text))': expected HOST:PORT, e.g. 0.0.0.0:8127 or [::]:8127")
                }
                return text
            }, write: { .json(.string($0)) })
    }

    /// A number in `range`, or null (`null` says what it means).
    static func optionalNumber(_ range: ClosedRange<Double>, what: String, null: String) -> Form<Double?> {
        let plain = Form<Double>.number(range, what: what)
        return Form<Double?>(
            "N", expected: plain.expected + ", or null (\(null))",
            json: { json, at, reader in
                if json == .null { return .some(nil) }
                return reader.number(json, at, range: range, what: "\(what) (or null: \(null))").map { .some($0) }
            },
            text: { (text, option) throws(UsageError) in try plain.parse(text, option: option) },
            write: { .json($0.map(JSON.number) ?? .null) })
    }

    /// A brightness, as the file writes it: a whole percentage (of full, or of what `of` names)
    /// from `Brightness.least` to 100, or 0 where `off` says what that does; a number above 0 and
    /// at most 1 is the older fraction (0.8: 80 %), read with a note that says what to write. The
    /// value is the fraction, 0...1, as the device uses it.
    static func brightness(of: String = "full", off: String? = nil) -> Form<Double> {
        let scale = Brightness(of: of, off: off)
        return Form<Double>(
            "N", expected: scale.expected + "; " + scale.older,
            json: { json, at, reader in reader.brightness(json, at, scale) }, text: nil,
            write: { .json(.number(Brightness.percent($0))) })
    }

    /// The awake brightness: a brightness of full (never 0), or null for the backlight's as found.
    static var awakeBrightness: Form<Double?> {
        let scale = Brightness(of: "full", off: nil, null: "as found")
        return Form<Double?>(
            "N", expected: scale.expected + "; " + scale.older,
            json: { json, at, reader in json == .null ? .some(nil) : reader.brightness(json, at, scale).map { .some($0) } },
            text: nil, write: { .json($0.map { .number(Brightness.percent($0)) } ?? .null) })
    }

    /// Key names (`KEY_RIGHT`, `BTN_0`) to action names (or `none`).
    static var keys: Form<[String: String]> {
        Form<[String: String]>(
            "", expected: "an object of key names to actions, e.g. {\"KEY_RIGHT\": \"nextDay\"}",
            json: { json, at, reader in
                guard case .object(let members) = json else {
                    reader.issue(at, "expected an object like {\"KEY_RIGHT\": \"nextDay\"}, found \(json.kind)")
                    return nil
                }
                var result: [String: String] = [:]
                let actions = Action.allCases.map(\.rawValue) + ["none"]
                for (key, value) in members {
                    let p = "\(at).\(key)"
                    let okName = (key.hasPrefix("KEY_") || key.hasPrefix("BTN_")) && key.count > 4
                        && key.utf8.allSatisfy { (65...90).contains($0) || (48...57).contains($0) || $0 == 95 }
                    if !okName { reader.issue(p, "expected a key name such as KEY_RIGHT or BTN_0 (see glance devices)") }
                    guard let action = reader.choice(value, p, actions.map { ($0, $0) }) else { continue }
                    if okName { result[key] = action }
                }
                return result
            }, text: nil, write: { keys in .json(.object(keys.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value)) })) })
    }

    /// A short press's action to a long press's.
    static var longPress: Form<[Action: Action]> {
        Form<[Action: Action]>(
            "", expected: "an object of actions to actions, e.g. {\"select\": \"today\"}",
            json: { json, at, reader in
                guard case .object(let members) = json else {
                    reader.issue(at, "expected an object like {\"select\": \"today\"}, found \(json.kind)")
                    return nil
                }
                var result: [Action: Action] = [:]
                let options = Action.allCases.map { ($0.rawValue, $0) }
                for (key, value) in members {
                    guard let from = Action(rawValue: key) else {
                        reader.issue("\(at).\(key)", "expected an action name: \(Action.allCases.map(\.rawValue).joined(separator: ", "))")
                        continue
                    }
                    if let to = reader.choice(value, "\(at).\(key)", options) { result[from] = to }
                }
                return result
            }, text: nil,
            write: { map in .json(.object(Action.allCases.compactMap { a in map[a].map { (a.rawValue, .string($0.rawValue)) } })) })
    }

    /// Programs by absolute path with their arguments, at most 8.
    static var commands: Form<[[String]]> {
        Form<[[String]]>(
            "", expected: "at most 8 commands, each [\"/path/to/program\", \"argument\", …] (no shell)",
            json: { json, at, reader in
                guard case .array(let items) = json else {
                    reader.issue(at, "expected an array of commands, each [\"/path/to/program\", \"argument\", …], found \(json.kind)")
                    return nil
                }
                guard items.count <= 8 else {
                    reader.issue(at, "at most 8 commands")
                    return nil
                }
                var commands: [[String]] = []
                for (i, item) in items.enumerated() {
                    let p = "\(at)[\(i)]"
                    guard case .array(let words) = item, !words.isEmpty else {
                        reader.issue(p, "expected a command: [\"/path/to/program\", \"argument\", …] (no shell)")
                        continue
                    }
                    let strings = words.enumerated().compactMap { reader.string($0.element, "\(p)[\($0.offset)]") }
                    guard strings.count == words.count else { continue }
                    guard strings[0].hasPrefix("/") else {
                        reader.issue("\(p)[0]", "expected the program's absolute path, e.g. \"/usr/local/bin/sync\", found \"\(Quote.clip(strings[0]))\"")
                        continue
                    }
                    commands.append(strings)
                }
                return commands
            }, text: nil, write: { .json(.array($0.map { .array($0.map(JSON.string)) })) })
    }

    /// Colours as `"#RRGGBB"`, at least one.
    static var colors: Form<[Color]> {
        Form<[Color]>(
            "C1,C2,…", expected: "colours as \"#RRGGBB\", low to high, at least one",
            json: { json, at, reader in
                guard case .array(let colors) = json, !colors.isEmpty else {
                    reader.issue(at, "expected an array of colours like [\"#64D2FF\", \"#FF9F0A\"], found \(json.kind)")
                    return nil
                }
                var tint: [Color] = []
                for (j, c) in colors.enumerated() {
                    guard let color = reader.color(c, "\(at)[\(j)]") else { return nil }
                    tint.append(color)
                }
                return tint
            },
            text: { (text, option) throws(UsageError) in
                var result: [Color] = []
                for part in text.split(separator: ",", omittingEmptySubsequences: false) {
                    let hex = part.hasPrefix("#") ? part.dropFirst() : part[...]
                    guard hex.count == 6, let v = UInt32(hex, radix: 16) else {
                        throw UsageError(
                            "\(option) '\(Quote.clip(text))': '\(Quote.clip(part))' is not a colour; use #RRGGBB, comma-separated")
                    }
                    result.append(Color(hex: v))
                }
                return result
            }, write: { .json(.array($0.map { .string($0.hexText) })) })
    }

    /// Any number in ±10^15 (the file's and the command line's), or a missing one.
    static var real: Form<Double> {
        Form<Double>(
            "X", expected: "a number",
            json: { json, at, reader in reader.number(json, at) },
            text: { (text, option) throws(UsageError) in try Self.number(text, option: option, range: -1e15...1e15, what: "a number") },
            write: { .json(.number($0)) })
    }
}

/// How the file's brightnesses are read. Percent is the one scale: the control socket's
/// `brightness N`, Home Assistant's light, the state line, the log and the file all say 80 for 80 %
/// of full. Whole percentages only: the socket and Home Assistant take whole ones, the keys step by
/// 10, and a backlight has a few dozen to a few hundred steps. The least is 5 (below, a panel is
/// too dark to read, and no percentage is ever 1 or under, which is the older fraction: 1 was full).
struct Brightness: Sendable {
    /// The least percentage.
    static let least = 5
    /// What the percentage is of: "full", "the awake brightness".
    let of: String
    /// What 0 does, where it is taken ("off"); nil: 0 is refused (the awake brightness).
    let off: String?
    /// What null means, where it is taken; nil: null is refused.
    var null: String? = nil

    /// What the file takes, for the pages and the messages.
    var expected: String {
        "a whole percentage of \(of) from \(Self.least) to 100" + (off.map { ", or 0 (\($0))" } ?? "")
            + (null.map { ", or null (\($0))" } ?? "")
    }

    /// The older form, for the pages.
    var older: String { "a number above 0 and at most 1 is read as the older fraction (0.8: 80 %)" }

    /// A fraction of full (0...1) as the file writes it: a whole percentage.
    static func percent(_ fraction: Double) -> Double { (fraction * 100).rounded() }

    /// The whole percentage an older fraction is (0.425: 43), and whether it was rounded to it
    /// (not for the last bits of a Double: 0.29 × 100 is 28.999999999999996).
    static func percent(older fraction: Double) -> (percent: Double, rounded: Bool) {
        let exact = (fraction * 100 * 1e6).rounded() / 1e6
        return (exact.rounded(), exact != exact.rounded())
    }
}

extension Reader {
    /// A brightness as `scale` reads it (a fraction 0...1), or nil with a problem naming the
    /// path and what to write; an older fraction is told as a note.
    mutating func brightness(_ json: JSON, _ path: String, _ scale: Brightness) -> Double? {
        guard case .number(let v) = json else {
            if case .string(let text) = json {
                issue(path, "expected \(scale.expected), found \"\(Quote.clip(text))\": write the number without quotes or %, e.g. 80")
            } else {
                issue(path, "expected \(scale.expected), found \(json.kind)")
            }
            return nil
        }
        let least = Double(Brightness.least)
        if v == 0 {
            if scale.off != nil { return 0 }
            issue(
                path,
                "expected \(scale.expected), found 0: the awake brightness is never off (a window of the schedule with "
                    + "\"brightness\": 0 turns the panel off)")
            return nil
        }
        guard v > 0, v <= 100 else {
            issue(path, "expected \(scale.expected), found \(format(v))")
            return nil
        }
        if v <= 1 {
            let (percent, rounded) = Brightness.percent(older: v)
            let read = "\(format(v)) is read as the older fraction of \(scale.of): \(format(percent)) %"
            guard percent >= least else {
                issue(
                    path,
                    read + ", under the least, \(Brightness.least) %: write \(Brightness.least) or more"
                        + (scale.off.map { " (or 0: \($0))" } ?? ""))
                return nil
            }
            note(path, read + (rounded ? " (a whole percentage, rounded)" : "") + "; write \(format(percent))")
            return percent / 100
        }
        guard v >= least else {
            issue(path, "expected \(scale.expected), found \(format(v))")
            return nil
        }
        guard v == v.rounded() else {
            issue(
                path,
                "expected a whole percentage of \(scale.of), found \(format(v)): write \(format(v.rounded(.down))) or "
                    + "\(format(v.rounded(.up)))")
            return nil
        }
        return v / 100
    }
}

#if compiler(>=6.2)
    /// An enum whose cases are the words of a choice.
    public typealias ChoiceWords = RawRepresentable & CaseIterable & Sendable & SendableMetatype
#else
    /// An enum whose cases are the words of a choice.
    public typealias ChoiceWords = RawRepresentable & CaseIterable & Sendable
#endif


extension Color {
    /// `#RRGGBB`, as the file writes a colour.
    var hexText: String {
        let digits = String(xrgb, radix: 16, uppercase: true)
        return "#" + String(repeating: "0", count: 6 - digits.count) + digits
    }
}
