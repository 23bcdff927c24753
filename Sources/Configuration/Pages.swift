// The settings' pages, made from the declarations: docs/settings.md (a test holds the file to
// this text) and the manual's CONFIGURATION section.
import Activity
import Controls

extension Configuration {
    /// The file's settings, one entry each: its dotted name (and command-line options), and what
    /// it is, takes and defaults to, and what a reload does with it.
    public static var settingEntries: [(name: String, meaning: String)] {
        leaves.filter(\.inFile).map { s in
            let name = s.key! + (s.options.isEmpty ? "" : " (" + s.options.joined(separator: ", ") + ")")
            return (name, "\(sentence(s.help)) Takes \(s.expected). Default: \(s.defaultText). \(reloadSentence(s.reload))")
        }
    }

    /// docs/settings.md.
    public static var settingsPage: String {
        var out = """
            # Settings

            Every setting of `/etc/glance/config.json` (another file with `--config FILE`), each with \
            the command-line option that sets it for one run (the command line goes over the file, and \
            over the file read again on a reload). No file is needed: every setting has its default. \
            `glance config check` lists every problem of a file with its JSON path. Every brightness \
            is a whole percentage (`80`: 80 %), as on the control socket and in Home Assistant; a number \
            above 0 and at most 1 is read as the older fraction of full (`0.8`: 80 %), and `glance \
            config check` notes it with what to write (docs/usage.md, "One scale: percent").

            This page is made from the settings' declarations (`Sources/Configuration/Declarations.swift`): \
            a test holds it to them, and `glance help --man` has the same list. On a reload (`systemctl \
            reload glance`, SIGHUP) the last column says what the running panel does with a changed \
            setting.

            """
        out += "\n## Top level\n\n" + header
        for top in settings where top.inFile && top.members.isEmpty { out += row(top, name: top.key!) }
        for top in settings where top.inFile && !top.members.isEmpty {
            out += "\n## `\(top.key!)`: \(top.help)\n\n" + header
            for leaf in top.leaves { out += row(leaf, name: String(leaf.key!.dropFirst(top.key!.count + 1))) }
        }
        for object in valueObjects { out += "\n## \(object.title)\n\n" + header + object.rows.joined() }
        out += "\n## Command line only\n\n| option | what | default |\n| --- | --- | --- |\n"
        for s in leaves where !s.inFile {
            let names = cell(s.options.map { "`\($0)\(s.placeholder.map { " \($0)" } ?? "")`" }.joined(separator: ", "))
            out += "| \(names) | \(cell(s.help)) | \(cell(s.commandLineDefault.isEmpty ? "—" : s.commandLineDefault)) |\n"
        }
        return out
    }

    /// The objects inside a setting's value, each declared as the file's objects are: a cycle,
    /// each gauge, each window of the schedule, the broker.
    static let valueObjects: [ValueObject] = [
        ValueObject("cycle", title: "`cycle`: " + CycleRule.settingsHelp, CycleRule.settings),
        ValueObject("gauges[]", title: "`gauges[]`: each gauge", GaugeSetting.settings),
        ValueObject("schedule[]", title: "`schedule[]`: each window", ScheduleWindowSetting.settings),
        ValueObject("mqtt", title: "`mqtt`: the broker", MQTTSetting.settings),
    ]

    static let header = "| setting | option | takes | default | what | on reload |\n| --- | --- | --- | --- | --- | --- |\n"

    static func row<R>(_ s: Setting<R>, name: String) -> String {
        let options = s.options.isEmpty ? "—" : s.options.map { "`\($0)`" }.joined(separator: ", ")
        return "| `\(name)` | \(options) | \(cell(s.expected)) | \(cell(s.defaultText)) | \(cell(s.help)) | \(s.reload.rawValue) |\n"
    }

    /// Text for a table cell: no bar breaks the table.
    static func cell(_ text: String) -> String { text.replacingAll("|", with: "\\|") }

    static func sentence(_ text: String) -> String {
        guard let first = text.first else { return text }
        return first.uppercased() + text.dropFirst() + (text.hasSuffix(".") ? "" : ".")
    }

    static func reloadSentence(_ reload: Reload) -> String {
        switch reload {
        case .serve: "glance serve reads it when it starts."
        case .bridge: "glance mqtt reads it when it starts."
        case .watch: "glance import --watch reads it when it starts."
        case .web: "glance web reads it when it starts."
        case .commandLine: ""
        case .rotation: "A reload turns the next frame."
        case .display: "A reload sets the new mode over the last frame."
        default: "A reload applies it (\(reload.rawValue))."
        }
    }
}

extension String {
    /// Every `target` replaced by `replacement` (without Foundation).
    func replacingAll(_ target: Character, with replacement: String) -> String {
        var out = ""
        for c in self { if c == target { out += replacement } else { out.append(c) } }
        return out
    }
}

/// An object inside a setting's value (`cycle`, each of `gauges`): its settings, as the pages and
/// the tests read them.
struct ValueObject: Sendable {
    /// Where it is in the file (`gauges[]`: each item of the list).
    let path: String
    let title: String
    /// Its members' keys, in order.
    let keys: [String]
    /// Its table's rows.
    let rows: [String]
    /// Each member's default text, and why it is not the default value's (nil: it is).
    let defaults: [(key: String, text: String, problem: @Sendable () -> String?)]
    /// Each member as the pages say it.
    let members: [MemberHelp]

    init<Root>(_ path: String, title: String, _ settings: [Setting<Root>]) {
        self.path = path
        self.title = title
        keys = settings.compactMap(\.key)
        rows = settings.map { Configuration.row($0, name: $0.key!) }
        defaults = settings.map { ($0.key!, $0.defaultText, $0.defaultProblem) }
        members = settings.map { MemberHelp(key: $0.key!, help: $0.help, expected: $0.expected, defaultText: $0.defaultText) }
    }
}

/// A member of an object inside a setting's value (a window of the schedule, the cycle), as the
/// pages say it: for the web page's schedule, which edits those objects as JSON.
public struct MemberHelp: Sendable, Equatable {
    public var key: String
    public var help: String
    public var expected: String
    public var defaultText: String
}

extension Configuration {
    /// The members of the object at `path` (`"cycle"`, `"schedule[]"`, `"gauges[]"`, `"mqtt"`).
    public static func members(of path: String) -> [MemberHelp] {
        valueObjects.first { $0.path == path }?.members ?? []
    }
}
