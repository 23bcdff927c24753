// The settings' forms, made from their declarations (`Configuration.settings`, the one table that
// makes the file's reader, the options and docs/settings.md): every setting with its help, what it
// takes, its default and a field for its value; and a field's text read back as the JSON the file
// gets.
import Activity
import CLI
import Configuration
import JSON

/// One setting as a form's field.
public struct SettingField: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        /// true or false.
        case bool
        /// One of these words (JSON strings, or numbers where the setting's value is a number).
        case choice([String], numbers: Bool)
        case number
        case text
        /// Anything else (a list, an object): its JSON.
        case json
    }

    /// Its place in the file, dotted (`display.mode`).
    public var key: String
    /// The key's steps (`["display", "mode"]`).
    public var steps: [String]
    public var help: String
    public var expected: String
    public var defaultText: String
    public var kind: Kind
    /// null is a value of its own: an empty field means it.
    public var nullable: Bool
    /// The default value as the file would write it (nil: none, the file must give it).
    public var defaultValue: JSON?

    /// The form field's name (the key; a dot is fine in a name).
    public var name: String { key }

    /// The text the field shows for `value` (the file's, else the default).
    public func inputText(_ value: JSON?) -> String {
        guard let value else { return "" }
        switch (kind, value) {
        case (_, .null) where nullable && kind != .json: return ""
        case (.bool, .bool(let b)): return b ? "true" : "false"
        case (.number, .number(let x)), (.choice, .number(let x)): return NumberText.plain(x)
        case (.text, .string(let s)), (.choice, .string(let s)): return s
        default: return value.settingText
        }
    }

    /// Whether an empty field leaves the setting out of the file: a setting the file writes
    /// nothing for by default (no `defaultValue`: a gauge's min, max and decimals, whose absence
    /// means the source's own) and that takes no null. Its field shows empty when the file leaves
    /// it out, so the form sent back as the page gave it must read as "left out", not as a
    /// number that is missing.
    public var omittable: Bool { defaultValue == nil && !nullable && kind != .json }

    /// What the file gets for a field's `input`: its value (`value(_:)`), or nil to leave the
    /// setting out (an omittable setting's empty field).
    public func entry(_ input: String) -> Result<JSON?, FieldProblem> {
        if omittable && Substring(input).trimmingSpaces.isEmpty { return .success(nil) }
        return value(input).map { Optional($0) }
    }

    /// The JSON value a field's `input` stands for, or why it stands for none (the field's own
    /// check; the whole file is checked by the configuration's reader after).
    public func value(_ input: String) -> Result<JSON, FieldProblem> {
        let trimmed = String(Substring(input).trimmingSpaces)
        if trimmed.isEmpty && nullable && kind != .json { return .success(.null) }
        switch kind {
        case .bool:
            switch trimmed {
            case "true": return .success(.bool(true))
            case "false": return .success(.bool(false))
            default: return .failure(FieldProblem(key: key, message: "expected true or false"))
            }
        case .choice(let words, let numbers):
            guard words.contains(trimmed) else {
                return .failure(FieldProblem(key: key, message: "expected one of " + words.joined(separator: ", ")))
            }
            if numbers, let x = Double(trimmed) { return .success(.number(x)) }
            return .success(.string(trimmed))
        case .number:
            guard let json = try? JSONParser.parse(trimmed), case .number = json else {
                return .failure(FieldProblem(key: key, message: "expected a number" + (nullable ? ", or nothing for null" : "")))
            }
            return .success(json)
        case .text:
            return .success(.string(input))
        case .json:
            do {
                return .success(try JSONParser.parse(input))
            } catch {
                return .failure(FieldProblem(key: key, message: "not JSON: \(error)"))
            }
        }
    }

    /// The field of a declared setting.
    public init<Root>(_ setting: Setting<Root>, key: String, defaults: Root) {
        self.key = key
        steps = key.split(separator: ".").map(String.init)
        help = setting.help
        expected = setting.expected
        defaultText = setting.defaultText
        defaultValue = setting.fileValue(defaults)
        nullable = setting.expected.contains("null")
        let words: [String]? = if case .choices(let w) = setting.completion { w } else { nil }
        switch defaultValue {
        case .bool?: kind = .bool
        case .number?: kind = words.map { .choice($0, numbers: true) } ?? .number
        case .string?: kind = words.map { .choice($0, numbers: false) } ?? .text
        case .null?, nil:
            let e = setting.expected
            if let words {
                kind = .choice(words, numbers: words.allSatisfy { Double($0) != nil })
            } else if e.hasPrefix("seconds") || e.hasPrefix("a number") || e.contains(" from ") && !e.contains("\"") {
                kind = .number
            } else if e.hasPrefix("a string") || e.hasPrefix("a day") || e.hasPrefix("\"") || e.hasPrefix("a device")
                || e.hasPrefix("HOST:PORT")
            {
                kind = .text
            } else {
                kind = .json
            }
        default: kind = .json
        }
    }
}

/// Why a field's text is not a value of its setting.
public struct FieldProblem: Error, Sendable, Equatable {
    public var key: String
    public var message: String
    public init(key: String, message: String) {
        self.key = key
        self.message = message
    }
}

/// The settings of one part of the file, as docs/settings.md groups them: the top level's, then
/// each object's (`display`, `idle`, …).
public struct SettingGroup: Sendable, Equatable {
    /// `top`, or the object's key.
    public var id: String
    public var title: String
    public var help: String
    public var fields: [SettingField]

    /// Settings with pages of their own (the gauges; the schedule and the cycle), not repeated here.
    public static let ownPages: Set<String> = ["gauges", "schedule", "cycle"]

    /// Every group, made from the declarations.
    public static let all: [SettingGroup] = {
        let defaults = Configuration()
        var groups: [SettingGroup] = []
        var top: [SettingField] = []
        for s in Configuration.settings where s.inFile && s.members.isEmpty && !ownPages.contains(s.key!) {
            top.append(SettingField(s, key: s.key!, defaults: defaults))
        }
        groups.append(SettingGroup(id: "top", title: "", help: "", fields: top))
        for s in Configuration.settings where s.inFile && !s.members.isEmpty {
            let fields = s.leaves.filter(\.inFile).map { SettingField($0, key: $0.key!, defaults: defaults) }
            groups.append(SettingGroup(id: s.key!, title: s.key!, help: s.help, fields: fields))
        }
        return groups
    }()

    public static func named(_ id: String) -> SettingGroup? { all.first { $0.id == id } }
}

/// The fields of one gauge (an item of `gauges`), from the gauge's declared settings.
public enum GaugeFields {
    public static let all: [SettingField] = Configuration.gaugeSettings.map { SettingField($0.setting, key: $0.key, defaults: $0.defaults) }
}
