// The household's hours: the configuration's "schedule", windows of the local clock that set the
// brightness, the screens and the cycle (App hands them to DeviceLogic's `Schedule`).
import Activity
import Controls
import JSON

/// One window of the schedule: from `from` to `to` by the local clock (a `to` at or before `from`
/// is the next day's), on `days` (empty: every day), setting what it gives; what it leaves out
/// stays the configuration's.
public struct ScheduleWindowSetting: Sendable, Equatable {
    /// Minutes after midnight, 0..<1440.
    public var from = 0
    /// Minutes after midnight, 1...1440 (24:00).
    public var to = 1440
    /// ISO weekdays (1 = Monday) of the day the window starts; empty: every day.
    public var days: [Int] = []
    /// A fraction of full (the file writes a whole percentage); 0: off; nil: the configured
    /// brightness.
    public var brightness: Double?
    /// nil: the configured screens.
    public var screens: [ScreenKind]?
    /// The configured cycle (`.keep`), none (`.clear`, null), or this one.
    public var cycle = FieldChange<CycleRule>.keep

    public init(from: Int = 0, to: Int = 1440) {
        self.from = from
        self.to = to
    }

    /// The days' names, Monday first.
    public static let dayNames = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]
}

extension ScheduleWindowSetting: Defaulted {
    static var defaults: ScheduleWindowSetting { ScheduleWindowSetting() }

    static let settingsHelp =
        "windows of the local clock that set the brightness, the screens and the cycle; outside every window the "
        + "settings above hold, where windows overlap the first listed wins, and a touch or a command overrides a "
        + "window until the schedule's next boundary; at most 100 windows"

    static let settings: [Setting<ScheduleWindowSetting>] = [
        .value("from", Field({ $0.from }, { $0.from = $1 }), .clockTime(end: false),
            help: "when the window starts, by the local clock", default: .required,
            reload: .schedule),
        .value(
            "to", Field({ $0.to }, { $0.to = $1 }), .clockTime(end: true),
            help: "when it ends; at or before from: the next day (\"23:00\" to \"06:30\" crosses midnight)",
            default: .required, reload: .schedule),
        .value(
            "days", Field({ $0.days }, { $0.days = $1 }), .weekdays,
            help: "the days it starts on (a window crossing midnight ends the next morning); []: every day",
            reload: .schedule),
        .value(
            "brightness", Field({ $0.brightness }, { $0.brightness = $1 }),
            Form<Double>.brightness(off: "off").optional,
            help: "the brightness while it holds, in percent of full (it stands in for the awake brightness); 0: off (the "
                + "first touch or press only wakes the panel, until the next boundary)",
            default: .means("the configured brightness"), reload: .schedule),
        .value(
            "screens", Field({ $0.screens }, { $0.screens = $1 }), Form<[ScreenKind]>.screens.optional,
            help: "the screens shown while it holds (the clock alone in the evening, though the day's screens do not list it); "
                + "the first is shown when it starts; a running task's progress still shows itself where \"progress\" is "
                + "configured (so a window of \"progress\" alone is refused: it would show \"Working…\" with no task)",
            default: .means("the configured screens"), reload: .schedule),
        .value(
            "cycle", Field({ $0.cycle }, { $0.cycle = $1 }), CycleRule.form.change(),
            help: "the screens turning while it holds, as the top-level cycle; null: none", default: .means("the configured cycle"),
            reload: .schedule),
    ]

    /// A window in the file: `from` and `to` required, and not the same time.
    static var form: Form<ScheduleWindowSetting> {
        .object("an object", settings) { window, read, reader in
            for key in ["from", "to"] where !read.keys.contains(key) {
                reader.issue("\(read.path).\(key)", "missing: a window needs \"from\" and \"to\", e.g. \"23:00\" and \"06:30\"")
            }
            let ok = read.clean(reader)
            if ok && window.from == window.to {
                reader.issue("\(read.path).to", "the same time as from: for the whole day, \"from\": \"00:00\", \"to\": \"24:00\"")
                return false
            }
            return ok
        }
    }
}

extension Form {
    /// What a member gives, as a change of the configured value: set to it, cleared (null), or
    /// kept (left out).
    func change<Wrapped>() -> Form<FieldChange<Wrapped>> where Value == Wrapped? {
        let json = self.json
        var written: (@Sendable (FieldChange<Wrapped>) -> Written)? = nil
        if let write = self.write {
            written = { change in
                switch change {
                case .keep: .absent
                case .clear: write(nil)
                case .set(let value): write(value)
                }
            }
        }
        return Form<FieldChange<Wrapped>>(
            placeholder, expected: expected, completion: completion,
            json: { j, at, reader in json(j, at, &reader).map { FieldChange($0) } }, text: nil, write: written)
    }
}

extension Form where Value == Int {
    /// `"HH:MM"` on a 24-hour clock, in minutes after midnight; `end`: "24:00" too.
    static func clockTime(end: Bool) -> Form<Int> {
        let expected = end ? "\"HH:MM\" from \"00:01\" to \"24:00\"" : "\"HH:MM\" from \"00:00\" to \"23:59\""
        return Form<Int>(
            "HH:MM", expected: expected,
            json: { json, at, reader in
                guard let text = reader.string(json, at) else { return nil }
                if end, text == "24:00" { return 1440 }
                guard let time = TimeOfDay(parsing: text) else {
                    reader.issue(at, "expected a time of day \(expected), found \"\(Quote.clip(text))\"")
                    return nil
                }
                return time.minutes
            }, text: nil)
    }
}

extension Form where Value == [Int] {
    /// Days of the week by name (`"mon"` … `"sun"`, or written out), each once, as ISO weekdays.
    static var weekdays: Form<[Int]> {
        Form<[Int]>(
            "", expected: "day names, each once: \"mon\", \"tue\", \"wed\", \"thu\", \"fri\", \"sat\", \"sun\"",
            json: { json, at, reader in
                guard case .array(let items) = json else {
                    reader.issue(at, "expected an array of day names like [\"sat\", \"sun\"], found \(json.kind)")
                    return nil
                }
                let full = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
                var days: [Int] = []
                for (i, item) in items.enumerated() {
                    let ip = "\(at)[\(i)]"
                    guard let name = reader.string(item, ip) else { continue }
                    let word = name.lowercased()
                    guard let index = ScheduleWindowSetting.dayNames.firstIndex(of: word) ?? full.firstIndex(of: word) else {
                        reader.issue(ip, "expected a day: \"mon\", \"tue\", \"wed\", \"thu\", \"fri\", \"sat\" or \"sun\", found \"\(Quote.clip(name))\"")
                        continue
                    }
                    if days.contains(index + 1) {
                        reader.issue(ip, "\"\(name)\" is listed twice")
                    } else {
                        days.append(index + 1)
                    }
                }
                return days
            }, text: nil,
            write: { .json(.array($0.map { .string(ScheduleWindowSetting.dayNames[$0 - 1]) })) })
    }
}

extension Configuration {
    /// The schedule's checks: a window's cycle turns through screens the window shows.
    static let scheduleChecks: [Check<Configuration>] = [
        Check("$.schedule", at: { c in c.schedulePlaces().first?.path ?? "$.schedule" }) { c in
            c.schedulePlaces().first?.problem
        }
    ]

    /// The most windows a schedule may have: a week of a household's hours is a few dozen; the
    /// bound keeps a file of thousands from costing the panel's loop at every boundary.
    public static let maximumWindows = 100

    /// Where a window's cycle names a screen the window does not show, or a window could only
    /// show the progress screen with no task running, and what to say.
    func schedulePlaces() -> [(path: String, problem: String)] {
        var places: [(path: String, problem: String)] = []
        if schedule.count > Self.maximumWindows {
            places.append((
                "$.schedule",
                "\(schedule.count) windows: at most \(Self.maximumWindows); join windows that set the same, or give one \"days\""))
        }
        for (i, window) in schedule.enumerated() {
            let listed = window.screens ?? screens
            if !listed.isEmpty, listed.allSatisfy({ $0 == .progress }) {
                places.append((
                    window.screens == nil ? "$.schedule[\(i)]" : "$.schedule[\(i)].screens",
                    "only \"progress\": with no task running it would show \"Working…\" all the while; list another screen "
                        + "first (\"screens\": [\"clock\", \"progress\"]) — a task's progress shows itself over it"))
            }
            if case .set(let cycle) = window.cycle {
                for (j, s) in cycle.screens.enumerated() where !listed.contains(s) {
                    places.append((
                        "$.schedule[\(i)].cycle.screens[\(j)]",
                        "\"\(s.rawValue)\" is not one of the window's screens ("
                            + listed.map { "\"\($0.rawValue)\"" }.joined(separator: ", ") + ")"))
                }
            }
        }
        return places
    }
}
