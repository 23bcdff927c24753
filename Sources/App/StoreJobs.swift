import DeviceLogic
import Activity
import Configuration
import Platform
import Store
import Clocks
import ConfigurationFile

/// The data commands' work (`glance log`, `goals`, `metric`, `task`, `export`, `demo-data`), in the
/// store's frame (`StoreJobs.with`, in Store).
extension StoreJobs {
    // MARK: glance log

    /// `glance log`'s description (its help), beside what it does.
    public static let logAbout = """
        Sets figures of one day in the store; the figures not given keep their values. A ring without a goal \
        of its own is measured against the standing goals in force on the day (glance goals), else the \
        configuration's ("goals": 500 kcal, 30 min and 12 h by default); a goal of - clears the day's own. \
        A figure the phone sends samples of for the day is their sum (docs/data.md). A running glance \
        shows the change by itself. Prints the day as shown.
        """

    /// `glance log`'s command line: the changes, the day (nil: today), the store, and the
    /// configuration the goals come from.
    public struct Log: Sendable {
        public var changes = SummaryChanges()
        public var day: CalendarDay?
        public var database: String?
        public var config: String?
        public init() {}
    }

    /// `glance log`: the changes over the day as stored; printed as shown, a ring without a goal of
    /// its own with the standing goal in force on the day, else the configuration's (`config`,
    /// else the default file, else the built-in ones).
    public static func log(_ job: Log, console: Console) -> Outcome {
        let (found, status) = configuredGoals(job.config, console: console)
        guard let goals = found else { return status }
        let day = job.day ?? SystemLocalClock().today()
        let changes = job.changes
        return with(job.database, console: console) { store throws(StoreError) in
            if changes.remove {
                try store.setSummary(nil, for: day)
                console.say(dayLine(day, nil))
                return Outcome.ok
            }
            let summary = try store.transaction { () throws(StoreError) -> ActivitySummary? in
                var summary = try store.summary(for: day) ?? ActivitySummary()
                changes.apply(to: &summary)
                try store.setSummary(summary, for: day)
                return try store.shownSummary(for: day, defaults: goals)
            }
            console.say(dayLine(day, summary))
            return Outcome.ok
        }
    }

    /// The configuration's goals (`config`, else the default file, else the built-in ones), or
    /// the exit status of a configuration that cannot be used (told).
    static func configuredGoals(_ config: String?, console: Console) -> (goals: Goals?, status: Outcome) {
        switch ConfigurationFile.load(config) {
        case .success(let c): return (c.goals.standing, Outcome.ok)
        case .failure(let failure):
            ConfigurationFile.report(failure, console: console)
            if case .denied = failure { return (nil, Outcome.noPermission) }
            if case .unreadable = failure { return (nil, Outcome.noInput) }
            return (nil, Outcome.config)
        }
    }

    // MARK: glance goals

    /// `glance goals`'s description (its help), beside what it does.
    public static let goalsAbout = """
        A day without goals of its own (one fed from the phone, or logged without them) is measured \
        against the goals in force on its date: those set from the latest date on or before it, else the \
        configuration's ("goals": 500 kcal, 30 min and 12 h by default). Setting goals from a date leaves \
        the days before it as they were; a goal not given keeps the value in force on that date. `list` \
        prints the history, the configuration's first.
        """

    public enum GoalsJob: Sendable {
        case set(Goals, from: CalendarDay?)
        case list
        case remove(from: CalendarDay)
    }

    /// `glance goals`: the standing goals' history, set from a date, or a period removed.
    public static func goals(_ job: GoalsJob, database: String?, config: String? = nil, console: Console) -> Outcome {
        let (found, status) = configuredGoals(config, console: console)
        guard let defaults = found else { return status }
        let access: Store.Access = if case .set = job { .create } else if case .list = job { .read } else { .write }
        return with(database, access: access, console: console) { store throws(StoreError) in
            switch job {
            case .set(let goals, let from):
                let period = try store.setGoals(goals, from: from ?? SystemLocalClock().today())
                console.say(goalLine(period.goals.over(defaults), from: "from \(period.start)"))
            case .list:
                let history = try store.goalHistory()
                let first = history.first.map { "until \($0.start.adding(days: -1))" } ?? "always"
                try console.writeResult(goalLine(defaults, from: "\(first) (the configuration's)") + "\n")
                for period in history {
                    try console.writeResult(goalLine(period.goals.over(defaults), from: "from \(period.start)") + "\n")
                }
            case .remove(let from):
                guard try store.removeGoals(from: from) else { throw StoreError(.notFound, "no goals set from \(from)") }
            }
            return Outcome.ok
        }
    }

    static func goalLine(_ g: Goals, from: String) -> String {
        func number(_ x: Double?) -> String { x.map(NumberText.plain) ?? "—" }
        let move = g.move.map { "\(NumberText.plain($0.value)) \($0.unit.rawValue)" } ?? "— kcal"
        return "\(from): move \(move), exercise \(number(g.exercise)) min, stand \(number(g.stand)) h"
    }

    // MARK: glance metric

    /// `glance metric`'s description (its help), beside what it does.
    public static let metricAbout = """
        Metrics are named numbers a gauge can show (a gauge binds to one by name). `set` changes the \
        value; the range and unit change only when given, so a cron job can send the value alone. A \
        running glance shows the change by itself. VALUE is a number, or - for unknown (the gauge shows —).
        """

    public enum MetricJob: Sendable {
        case set(name: String, value: Double?, minimum: FieldChange<Double>, maximum: FieldChange<Double>, unit: FieldChange<String>)
        case list
        case remove(String)
    }

    public static func metric(_ job: MetricJob, database: String?, console: Console) -> Outcome {
        let access: Store.Access
        switch job {
        case .set: access = .create
        case .list: access = .read
        case .remove: access = .write
        }
        return with(database, access: access, console: console) { store throws(StoreError) in
            switch job {
            case .set(let name, let value, let minimum, let maximum, let unit):
                console.say(describe(try store.setMetric(name, value: value, minimum: minimum, maximum: maximum, unit: unit)))
            case .list:
                for m in try store.metrics() { try console.writeResult(describe(m) + "\n") }
            case .remove(let name):
                guard try store.removeMetric(named: name) else { throw StoreError(.notFound, "no metric \(name)") }
            }
            return Outcome.ok
        }
    }

    static func describe(_ m: Metric) -> String {
        var line = "\(m.name) \(m.value.map(NumberText.plain) ?? "—")"
        if let unit = m.unit { line += " \(unit)" }
        if m.minimum != nil || m.maximum != nil {
            line += " (\(m.minimum.map(NumberText.plain) ?? "…") to \(m.maximum.map(NumberText.plain) ?? "…"))"
        }
        return line
    }

    // MARK: glance task

    /// `glance task`'s description (its help), beside what it does.
    public static let taskAbout = """
        A task is work the progress screen shows while it runs: a bar or circle filling to done/total, or \
        a spinner while the total is unknown, with a short description and, for a cancellable task, a \
        Cancel button. Each verb also takes --db PATH.
          start      begins (or restarts) the task: nothing done, no cancel request
          update     records progress. Exits 79 when someone asked the task to stop (Cancel on
                     the screen, or glance task cancel): a script's loop can stop on that (75
                     is a busy store: try again)
          finish     ends it as done (or --failed); after a cancel request as cancelled; the
                     indicator goes away
          cancel     asks a running, cancellable task to stop (its owner stops it; an import
                     rolls back and ends as cancelled)
          list       prints every task: name, state, done/total, description
          remove     forgets a task
        """

    public enum TaskJob: Sendable {
        case start(name: String, total: Double?, description: String?, cancellable: Bool, pid: Int32?)
        case update(name: String, done: Double?, total: FieldChange<Double>, description: FieldChange<String>)
        case finish(name: String, failed: Bool, description: FieldChange<String>)
        case cancel(String)
        case list
        case remove(String)
    }

    public static func task(_ job: TaskJob, database: String?, console: Console) -> Outcome {
        let access: Store.Access
        switch job {
        case .start: access = .create
        case .list: access = .read
        case .update, .finish, .cancel, .remove: access = .write
        }
        return with(database, access: access, console: console) { store throws(StoreError) in
            switch job {
            case .start(let name, let total, let description, let cancellable, let pid):
                try store.startTask(name, total: total, description: description, cancellable: cancellable, pid: pid)
            case .update(let name, let done, let total, let description):
                let task = try store.updateTask(name, done: done, total: total, description: description)
                if task.cancelRequested {
                    console.complain(
                        "task \(task.name): cancel requested; stop the work and run glance task finish \(task.name) (it ends as cancelled)")
                    return Outcome.cancelled
                }
            case .finish(let name, let failed, let description):
                let task = try store.finishTask(name, state: failed ? .failed : .done, description: description)
                if task.state == .cancelled { console.say("task \(name) cancelled (it was asked to stop)") }
            case .cancel(let name):
                try store.requestCancel(name)
                console.say("asked task \(name) to stop")
            case .list:
                for t in try store.tasks() { try console.writeResult(describe(t) + "\n") }
            case .remove(let name):
                guard try store.removeTask(named: name) else { throw StoreError(.notFound, "no task \(name)") }
            }
            return Outcome.ok
        }
    }

    static func describe(_ t: ProgressTask) -> String {
        var line = "\(t.name) \(t.state.rawValue)"
        line += " \(NumberText.plain(t.done))/\(t.total.map(NumberText.plain) ?? "?")"
        if let f = t.fraction { line += " (\(Int((f * 100).rounded(.down))) %)" }
        // Once ended the request is in the state (a task finished after it is cancelled).
        if t.cancelRequested && t.state == .running { line += " cancel-requested" }
        if let d = t.description { line += " — \(d)" }
        return line
    }

    // MARK: glance export

    /// `glance export`'s description (its help), beside what it does.
    public static let exportAbout = """
        Writes a table of the store as CSV or JSON to standard output (or FILE, written whole or not at \
        all). As CSV the days come out in the CSV form of an Apple Health export, with two more columns \
        (activeEnergyBurnedGoalUnit when it differs, moveMode), so `glance import` reads them back to \
        exactly the same store. As JSON: {"days": [{"date", "move", "moveGoal", "moveTime", \
        "moveTimeGoal", "exercise", "exerciseGoal", "stand", "standGoal", "moveMode"}]} (move in kcal; \
        what glance serve's GET /v1/days gives and PUT /v1/days/DATE takes), {"metrics": […]} or \
        {"tasks": […]} as metric list --json and task list --json write them.
        """

    /// A table as CSV (or JSON), to standard output or into `output` through `OutputFile` (a file
    /// written whole or not at all, never through a planted link; a device or FIFO written in place).
    public static func export(_ table: Store.Table, output: String?, database: String?, json: Bool = false, console: Console) -> Outcome {
        with(database, access: .read, console: console) { store throws(StoreError) in
            func export(_ write: (String) throws(StoreError) -> Void) throws(StoreError) {
                if json { try ScriptJSON.export(table, store: store, write: write) } else { try store.exportCSV(table, write: write) }
            }
            guard let output else {
                try export(console.writeResult)
                return Outcome.ok
            }
            let file: OutputFile
            do throws(OutputFile.Failure) {
                file = try OutputFile(output)
            } catch {
                console.complain("--output '\(output)': cannot create: \(error.reason)")
                return error.outcome
            }
            try export { (text) throws(StoreError) in
                do throws(OutputFile.Failure) {
                    try file.write(text)
                } catch {
                    throw StoreError(.io, "--output '\(output)': \(error.reason)")
                }
            }
            do throws(OutputFile.Failure) {
                try file.commit()
            } catch {
                throw StoreError(.io, "--output '\(output)': \(error.reason)")
            }
            return Outcome.ok
        }
    }

    // MARK: glance demo-data

    /// `glance demo-data`'s description (its help), beside what it does.
    public static let demoDataAbout = """
        Loads the demo data set that ships with Glance into the store: four weeks of an Apple Watch \
        wearer's days (busy days, rest days, a goal change, today part-way) and three metrics, \
        cpu-temperature, living-room and battery. The ring screen shows the days at once; a gauge shows \
        a metric once the configuration's "gauges" name it (the default configuration has none), e.g. \
        {"title": "Battery", "unit": "%", "source": {"metric": "battery"}}. The days are moved so the last \
        one is today (or D). Loading again replaces the same days and metrics; your other days are left \
        alone. Nothing shows demo data unless this command loads it.
        """

    /// `glance demo-data`'s command line: the last demo day (nil: today), print instead of load,
    /// the store.
    public struct DemoDataLine: Sendable {
        public var end: CalendarDay?
        public var printOnly = false
        public var database: String?
        public init() {}
    }

    public static func demoData(_ line: DemoDataLine, console: Console) -> Outcome {
        if line.printOnly {
            let csv = String(decoding: DemoData.activityCSV, as: UTF8.self)
            return console.result(csv.hasSuffix("\n") ? String(csv.dropLast()) : csv)
        }
        let (end, database) = (line.end ?? SystemLocalClock().today(), line.database)
        do {
            try DemoData.check(end: end)
        } catch {
            return fail(error, console: console)
        }
        return with(database, console: console) { store throws(StoreError) in
            var options = ImportOptions()
            options.taskName = nil
            let report = try DemoData.load(into: store, endingOn: end, options: options)
            let range = report.firstDay.map { " (\($0) to \(report.lastDay!))" } ?? ""
            let names = DemoData.metricNames
            console.say("loaded \(report.days) demo days\(range) and \(names.count) metrics (\(names.joined(separator: ", "))) into \(store.path)")
            return Outcome.ok
        }
    }
}
