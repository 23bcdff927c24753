import Runtime
import DeviceLogic
import Activity
import Configuration
import Platform
import Store
import Clocks
import ConfigurationFile

/// `glance log`'s work, in the store's frame (`StoreJobs.with`, in Store).
extension StoreJobs {
    // MARK: glance log

    /// The source of a day glance log made.
    static let logSource = "glance log"

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
        /// Whose day (`--person NAME|ID`; nil: person 1).
        public var person: String?
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
        return with(job.database, person: job.person, console: console) { store throws(StoreError) in
            if changes.remove {
                try store.setSummary(nil, for: day)
                console.say(dayLine(day, nil))
                return Outcome.ok
            }
            let (summary, origin) = try store.transaction { () throws(StoreError) -> (ActivitySummary?, String?) in
                let before = try store.summary(for: day)
                var summary = before ?? ActivitySummary()
                changes.apply(to: &summary)
                try store.setSummary(summary, for: day)
                if before == nil { try store.setSource(Self.logSource, for: day) }
                return (try store.shownSummary(for: day, defaults: goals), try store.dayOrigins(from: day, through: day)[day])
            }
            // Where the figures came from, when not (only) from glance log.
            let from = origin.map { $0 == Self.logSource ? "" : " (from \($0))" } ?? ""
            console.say(dayLine(day, summary) + from)
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
}
