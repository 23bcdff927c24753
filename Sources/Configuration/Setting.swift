// A setting is declared once (Declarations.swift): its place in the file, its names on the
// command line, the form of its value (one reading for the file's JSON and the command line's
// text), its default, its help, and what a reload does when it changed. The file's reader, the
// command-line options, the layering of the two and the reload's comparison are all made from
// those declarations, and so are the settings' pages (the manual's CONFIGURATION section and
// docs/settings.md).
import Activity
import CLI
import JSON

/// What a reload (SIGHUP) does when a setting changed, and the word its log line gives it.
public enum Reload: String, Sendable, CaseIterable, Comparable {
    /// The fonts are opened again (their files, the language).
    case fonts
    /// The data is opened again (the store, the gauges' sources).
    case data
    /// A new display output takes the panel over at its next frame (a mode set).
    case display
    /// The next frame is turned the new way.
    case rotation
    /// The input devices are opened again.
    case input = "input devices"
    /// The key map and touch are made again.
    case keys
    case screens, idle, clock, cycle, schedule, brightness, name, shape
    /// The refresh commands.
    case refresh
    /// Not the panel's: `glance serve` reads it when it starts.
    case serve
    /// Not the panel's: `glance mqtt` reads it when it starts.
    case bridge
    /// Not the panel's: `glance import --watch` reads it when it starts.
    case watch = "import watch"
    /// Not the panel's: `glance web` reads it when it starts.
    case web
    /// The command line's own (it is given again with every reload).
    case commandLine = "command line"

    public static func < (a: Reload, b: Reload) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }
}

/// How a value of one form is read: from the file (JSON, problems reported with their path) and
/// from the command line (text; an error names the option and the form expected).
public struct Form<Value: Sendable>: Sendable {
    /// The command line's placeholder (`WxH[@HZ]`).
    public let placeholder: String
    /// What the file takes, for the settings' pages (`"WxH"` or `"WxH@Hz"`).
    public let expected: String
    public let completion: ValueCompletion
    let json: @Sendable (JSON, String, inout Reader) -> Value?
    /// nil: the form has no command-line text (an object, a list of gauges).
    let text: (@Sendable (String, String) throws(UsageError) -> Value)?
    /// A value as the file writes it, what `json` reads back as the same value (a setting's
    /// default says it so); nil: the form writes none (the command line's own forms).
    let write: (@Sendable (Value) -> Written)?

    init(
        _ placeholder: String, expected: String, completion: ValueCompletion = .none,
        json: @escaping @Sendable (JSON, String, inout Reader) -> Value?,
        text: (@Sendable (String, String) throws(UsageError) -> Value)?,
        write: (@Sendable (Value) -> Written)? = nil
    ) {
        self.placeholder = placeholder
        self.expected = expected
        self.completion = completion
        self.json = json
        self.text = text
        self.write = write
    }

    /// Why `value`, written by the form and read back, is not itself; nil when it is (or the
    /// file leaves it out).
    func readBackProblem(_ value: Value, same: (Value, Value) -> Bool) -> String? {
        guard let write else { return "the form writes no value" }
        guard case .json(let json) = write(value) else { return nil }
        var reader = Reader()
        guard let read = self.json(json, "$", &reader), reader.issues.isEmpty else {
            return "\(json.settingText) is refused: \(reader.issues.map(\.message).joined(separator: "; "))"
        }
        return same(read, value) ? nil : "\(json.settingText) reads back as another value"
    }

    /// The command line's reading as an option's value form (a command's own option that takes
    /// what a setting takes).
    public var parser: ValueParser<Value> {
        let form = self
        return ValueParser(placeholder, completion: completion) { (text, option) throws(UsageError) in try form.parse(text, option: option) }
    }

    /// Reads the command line's `text` for `option`.
    public func parse(_ text: String, option: String) throws(UsageError) -> Value {
        guard let read = self.text else { throw UsageError("\(option) cannot be given on the command line") }
        return try read(text, option)
    }
}

/// A value as the file has it: JSON, or left out (a member that is absent: a gauge's `min`).
enum Written: Sendable, Equatable {
    case json(JSON)
    case absent
}

/// A value of settings (the configuration, or an object in it such as `display`): its defaults
/// are what its settings default to, and what the settings' pages say they do.
protocol Defaulted: Sendable {
    static var defaults: Self { get }
}

/// What the settings' pages say of a setting's default: its value as the form writes it, with
/// what that means where it needs saying.
enum DefaultText: Sendable {
    /// The value alone: `60`, `"rectangle"`, `[]`.
    case value
    /// The value and what it means (`null: the first connected one`); of a value the file
    /// leaves out, what that means alone.
    case means(String)
    /// No default: the file must give it.
    case required

    /// The text for `written` (nil: a form that writes none).
    func text(_ written: Written?) -> String {
        switch (self, written) {
        case (.required, _): "(required)"
        case (.value, .json(let json)?): json.settingText
        case (.means(let words), .json(let json)?): json.settingText + ": " + words
        case (.means(let words), _): words
        case (.value, _): written == .absent ? "none" : ""
        }
    }
}

extension JSON {
    /// As the settings' pages write a value: JSON, a space after each comma and colon.
    public var settingText: String {
        switch self {
        case .null: "null"
        case .bool(let b): b ? "true" : "false"
        case .number(let x): NumberText.plain(x)
        case .string(let s): "\"" + String(s.flatMap { $0 == "\"" || $0 == "\\" ? ["\\", $0] : [$0] }) + "\""
        case .array(let items): "[" + items.map(\.settingText).joined(separator: ", ") + "]"
        case .object(let members):
            "{" + members.map { JSON.string($0.key).settingText + ": " + $0.value.settingText }.joined(separator: ", ") + "}"
        }
    }
}

/// What the command line gives a setting: a change to apply to the settings, kept so that it
/// can be applied again over a file read anew (a reload).
public typealias Assignment<Root> = @Sendable (inout Root) -> Void

/// Where a setting's value is in its root: read and written by two closures the declaration
/// spells out (`Field({ $0.name }, { $0.name = $1 })`), not by a key path. A key path is made by
/// the Swift runtime when first used, its class's metadata with it (30 K instructions each):
/// reading the packaged configuration file used about a hundred of them, and declaring
/// `glance run`'s options as many again, before the first frame (docs/speed.md, the first frame).
public struct Field<Root, Value>: Sendable {
    let get: @Sendable (Root) -> Value
    let set: @Sendable (inout Root, Value) -> Void

    init(_ get: @escaping @Sendable (Root) -> Value, _ set: @escaping @Sendable (inout Root, Value) -> Void) {
        self.get = get
        self.set = set
    }
}

/// One setting of a `Root` (the configuration, or an object in it such as `display`).
public struct Setting<Root>: Sendable {
    /// Its name in the file: the member's key, dotted below the top (`display.mode`); nil for a
    /// setting of the command line only (`--intro`).
    public let key: String?
    /// Its names on the command line, the main one first; empty: the file's only.
    public let options: [String]
    /// The command line's placeholder; nil for a flag.
    public let placeholder: String?
    public let completion: ValueCompletion
    /// What the file takes (the settings' pages).
    public let expected: String
    public let help: String
    /// The default, as the settings' pages and `--help` say it: the default value as its form
    /// writes it (`DefaultText`).
    public var defaultText: String { sayDefault() }
    /// Says the default when asked (the pages and the help): made at once, every setting's
    /// default was a default configuration made and its value written at every start.
    let sayDefault: @Sendable () -> String
    /// Why the default text is not the default value's (nil: it is): the value its form writes
    /// must read back as itself.
    public let defaultProblem: @Sendable () -> String?
    public let reload: Reload
    /// An object's own settings (their keys dotted below this one's), for the pages and the
    /// command line.
    public let members: [Setting<Root>]
    let read: @Sendable (JSON, String, inout Reader, inout Root) -> Void
    /// Its value in a root as the file writes it (nil: no form writes it: an object's).
    let write: @Sendable (Root) -> Written?
    /// The command line's text into a change (nil: no command-line form).
    let assignment: (@Sendable (String, String) throws(UsageError) -> Assignment<Root>)?
    let differs: @Sendable (Root, Root) -> Bool

    /// Its name for people and the command line's layer: the key, else the main option without
    /// its dashes.
    public var name: String { key ?? String(options.first?.drop { $0 == "-" } ?? "") }

    /// Whether the file has it.
    public var inFile: Bool { key != nil }

    /// Whether `a` and `b` differ in it.
    public func changed(_ a: Root, _ b: Root) -> Bool { differs(a, b) }

    /// The change the command line's `text` for `option` asks for.
    public func assign(_ text: String, option: String) throws(UsageError) -> Assignment<Root> {
        guard let assignment else { throw UsageError("\(option): not a command-line setting") }
        return try assignment(text, option)
    }

    init(
        key: String?, options: [String], placeholder: String?, completion: ValueCompletion, expected: String, help: String,
        defaultText: @autoclosure @escaping @Sendable () -> String,
        defaultProblem: @escaping @Sendable () -> String? = { nil }, reload: Reload,
        members: [Setting<Root>] = [],
        read: @escaping @Sendable (JSON, String, inout Reader, inout Root) -> Void,
        write: @escaping @Sendable (Root) -> Written? = { _ in nil },
        assignment: (@Sendable (String, String) throws(UsageError) -> Assignment<Root>)?,
        differs: @escaping @Sendable (Root, Root) -> Bool
    ) {
        self.key = key
        self.options = options
        self.placeholder = placeholder
        self.completion = completion
        self.expected = expected
        self.help = help
        self.sayDefault = defaultText
        self.defaultProblem = defaultProblem
        self.reload = reload
        self.members = members
        self.read = read
        self.write = write
        self.assignment = assignment
        self.differs = differs
    }

    /// A setting whose value has `form`, at `field` of the root. With `flag`, the command line's
    /// options take no value and set that one (`--no-grab` sets `grabInput` to false). Its
    /// default is the root's (`Defaulted`), said as the form writes it, when asked.
    static func value<V: Equatable & Sendable>(
        _ key: String?, _ field: Field<Root, V>, _ form: Form<V>, options: [String] = [], flag: V? = nil, help: String,
        default said: DefaultText = .value, reload: Reload
    ) -> Setting where Root: Defaulted {
        // A flag of the command line alone (`--intro`) has no default to say.
        let switchOnly = key == nil && flag != nil
        let get = field.get, set = field.set
        let defaultProblem: @Sendable () -> String? = {
            if switchOnly { return nil }
            if case .required = said { return nil }
            return form.readBackProblem(get(Root.defaults), same: ==)
        }
        let assignment: (@Sendable (String, String) throws(UsageError) -> Assignment<Root>)?
        if options.isEmpty {
            assignment = nil
        } else if let flag {
            assignment = { _, _ in { set(&$0, flag) } }
        } else if form.text != nil {
            assignment = { (text, option) throws(UsageError) in
                let value = try form.parse(text, option: option)
                return { set(&$0, value) }
            }
        } else {
            assignment = nil
        }
        return Setting(
            key: key, options: options, placeholder: flag == nil && !options.isEmpty ? form.placeholder : nil,
            completion: flag == nil ? form.completion : .none, expected: form.expected, help: help,
            defaultText: switchOnly ? "" : said.text(form.write?(get(Root.defaults))),
            defaultProblem: defaultProblem, reload: reload,
            read: { json, at, reader, root in
                if let v = form.json(json, at, &reader) { set(&root, v) }
            },
            write: { root in form.write?(get(root)) },
            assignment: assignment, differs: { get($0) != get($1) })
    }

    /// An object of settings at `field` (`display`): the file's members overlay the value there,
    /// each read by its own declaration; unknown members are reported with the nearest known name.
    static func object<Sub>(
        _ key: String, _ field: Field<Root, Sub>, _ settings: [Setting<Sub>], help: String,
        check: (@Sendable (inout Sub, String, inout Reader) -> Void)? = nil
    ) -> Setting {
        let fileKeys = settings.compactMap(\.key)
        let get = field.get, set = field.set
        return Setting(
            key: key, options: [], placeholder: nil, completion: .none, expected: "an object", help: help,
            defaultText: "see below", reload: settings.map(\.reload).min() ?? .screens,
            members: settings.map { $0.lifted(field, under: key) },
            read: { json, at, reader, root in
                guard let members = reader.members(json, at, known: fileKeys) else { return }
                var sub = get(root)
                for (k, v) in members {
                    guard let setting = settings.first(where: { $0.key == k }) else { continue }
                    setting.read(v, "\(at).\(k)", &reader, &sub)
                }
                check?(&sub, at, &reader)
                set(&root, sub)
            },
            assignment: nil,
            differs: { a, b in
                let a = get(a), b = get(b)
                return settings.contains { $0.differs(a, b) }
            })
    }

    /// The setting as one of a larger root's, at `field` (its key dotted under `prefix`).
    func lifted<Outer>(_ field: Field<Outer, Root>, under prefix: String?) -> Setting<Outer> {
        let read = self.read, write = self.write, differs = self.differs, sayDefault = self.sayDefault
        let get = field.get, set = field.set
        let dotted = key.map { k in prefix.map { "\($0).\(k)" } ?? k }
        var lifted: (@Sendable (String, String) throws(UsageError) -> Assignment<Outer>)? = nil
        if let make = assignment {
            lifted = { (text, option) throws(UsageError) in
                let change = try make(text, option)
                return { outer in
                    var root = get(outer)
                    change(&root)
                    set(&outer, root)
                }
            }
        }
        return Setting<Outer>(
            key: dotted, options: options, placeholder: placeholder, completion: completion, expected: expected, help: help,
            defaultText: sayDefault(), defaultProblem: defaultProblem, reload: reload,
            members: members.map { $0.lifted(field, under: prefix) },
            read: { json, at, reader, outer in
                var root = get(outer)
                read(json, at, &reader, &root)
                set(&outer, root)
            },
            write: { write(get($0)) }, assignment: lifted, differs: { differs(get($0), get($1)) })
    }

    /// Its value in `root` as the file writes it: nil when the file leaves it out, or no form
    /// writes it (an object's, the command line's own).
    public func fileValue(_ root: Root) -> JSON? {
        if case .json(let json)? = write(root) { return json }
        return nil
    }

    /// The leaves: this setting, or its members' leaves (an object's).
    public var leaves: [Setting<Root>] { members.isEmpty ? [self] : members.flatMap(\.leaves) }
}

/// A check that takes several settings together (a blank before the dimming, a cycle through a
/// screen that is not configured): its message for the file (at `path`) and for the command
/// line (naming `options`).
public struct Check<Root>: Sendable {
    /// Where the file's problem is reported; nil: the command line's alone.
    let path: String?
    let options: [String]
    let problem: @Sendable (Root) -> String?
    /// Where in the file exactly (an item of a list), when `path` is not precise enough.
    let at: (@Sendable (Root) -> String)?

    init(
        _ path: String?, options: [String] = [], at: (@Sendable (Root) -> String)? = nil,
        _ problem: @escaping @Sendable (Root) -> String?
    ) {
        self.path = path
        self.options = options
        self.at = at
        self.problem = problem
    }
}

/// What an object's check is told: where the object is, which members the file gave, and how
/// many problems there were before it was read (more now: its members had problems).
struct ObjectRead {
    var path: String
    var keys: [String]
    var problemsBefore: Int

    /// No problem came from the object's members.
    func clean(_ reader: Reader) -> Bool { reader.issues.count + reader.more == problemsBefore }
}

extension Form {
    /// An object of `settings` read into a new value from the defaults (an element of a list);
    /// `check` finishes it (nil: not kept). It is written as its settings write themselves.
    static func object(
        _ expected: String, _ settings: [Setting<Value>], check: @escaping @Sendable (inout Value, ObjectRead, inout Reader) -> Bool
    ) -> Form where Value: Defaulted {
        let fileKeys = settings.compactMap(\.key)
        return Form(
            "", expected: expected,
            json: { json, at, reader in
                let before = reader.issues.count + reader.more
                guard let members = reader.members(json, at, known: fileKeys) else { return nil }
                var value = Value.defaults
                for (k, v) in members {
                    guard let setting = settings.first(where: { $0.key == k }) else { continue }
                    setting.read(v, "\(at).\(k)", &reader, &value)
                }
                return check(&value, ObjectRead(path: at, keys: members.map(\.key), problemsBefore: before), &reader) ? value : nil
            }, text: nil,
            write: { value in
                .json(.object(settings.compactMap { s in
                    guard let key = s.key, case .json(let json)? = s.write(value) else { return nil }
                    return (key, json)
                }))
            })
    }

    /// A JSON array of `element`s.
    static func list<Element>(_ element: Form<Element>, expected: String, example: String) -> Form where Value == [Element] {
        Form(
            "", expected: expected,
            json: { json, at, reader in
                guard case .array(let items) = json else {
                    reader.issue(at, "expected an array of \(example), found \(json.kind)")
                    return nil
                }
                var result: [Element] = []
                for (i, item) in items.enumerated() {
                    if let e = element.json(item, "\(at)[\(i)]", &reader) { result.append(e) }
                }
                return result
            }, text: nil,
            write: { list in
                let items = list.compactMap { element.write?($0) }.compactMap { if case .json(let j) = $0 { j } else { nil } }
                return items.count == list.count ? .json(.array(items)) : .absent
            })
    }
}
