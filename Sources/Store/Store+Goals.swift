import Activity

/// The standing goals and their history (`glance goals`), and the days as they are shown: each
/// day's own figures and goals, the sums of its samples, and the goals in force on its date where
/// it has none of its own.
extension Store {
    /// Goals in force from `start` until the next period's start.
    public struct GoalPeriod: Sendable, Equatable {
        public var start: CalendarDay
        /// nil: not set here (the configuration's goal applies).
        public var goals: Goals
        /// Seconds since 1970.
        public var updated: Int64

        public init(start: CalendarDay, goals: Goals, updated: Int64 = 0) {
            self.start = start
            self.goals = goals
            self.updated = updated
        }
    }

    /// Every period of the person's standing goals, oldest first.
    public func goalHistory() throws(StoreError) -> [GoalPeriod] {
        let statement = try db.prepare(
            "SELECT start, move, move_unit, exercise, stand, updated, steps FROM goals WHERE person = ?1 ORDER BY start")
        statement.bind(personValue)
        var periods: [GoalPeriod] = []
        while try statement.step() {
            guard let start = statement.text(0).flatMap(CalendarDay.init(iso:)) else { continue }
            let move = statement.double(1).map { Energy($0, statement.text(2).flatMap(EnergyUnit.init(symbol:)) ?? .kilocalorie) }
            periods.append(
                GoalPeriod(
                    start: start,
                    goals: Goals(move: move, exercise: statement.double(3), stand: statement.double(4), steps: statement.double(6)),
                    updated: statement.int64(5) ?? 0))
        }
        return periods
    }

    /// The standing goals in force on `day` among `history` (oldest first); nil before the first.
    public static func goals(on day: CalendarDay, in history: [GoalPeriod]) -> Goals? {
        history.last(where: { $0.start <= day })?.goals
    }

    /// Sets the standing goals from `start` on (until a later period's start). A goal not given
    /// stays as it is in force on that date. The goals of days before `start`, and of days with
    /// goals of their own, do not change. Returns the period as stored.
    @discardableResult
    public func setGoals(_ goals: Goals, from start: CalendarDay) throws(StoreError) -> GoalPeriod {
        if let first = goals.asSummary.problems.first {
            throw StoreError(.badData, "goals from \(start): \(first.name) \(NumberText.plain(first.value)) \(first.problem)")
        }
        return try transaction { () throws(StoreError) -> GoalPeriod in
            let before = Self.goals(on: start, in: try goalHistory()) ?? Goals()
            let period = GoalPeriod(start: start, goals: goals.over(before), updated: unixTime())
            try db.prepare(
                "INSERT OR REPLACE INTO goals (start, move, move_unit, exercise, stand, updated, steps, person) VALUES (?1,?2,?3,?4,?5,?6,?7,?8)"
            ).bind(
                .text(start.description), .optional(period.goals.move?.value), .optional(period.goals.move?.unit.rawValue),
                .optional(period.goals.exercise), .optional(period.goals.stand), .integer(period.updated),
                .optional(period.goals.steps), personValue
            ).run()
            return period
        }
    }

    /// Forgets the period starting on `start`; false when there is none.
    public func removeGoals(from start: CalendarDay) throws(StoreError) -> Bool {
        try db.prepare("DELETE FROM goals WHERE person = ?2 AND start = ?1").bind(.text(start.description), personValue).run()
        return db.changes > 0
    }

    /// The days from `first` through `last` as they are shown, in date order: a day's own figures
    /// with the sums of its samples over them (a figure whose metric has samples on the day is
    /// their sum), and where the day has no goal of its own, the standing goal in force on its
    /// date, else `defaults` (the configuration's). Days with neither a summary nor samples are
    /// left out.
    public func shownDays(from first: CalendarDay, through last: CalendarDay, defaults: Goals = Goals()) throws(StoreError)
        -> [DaySummary]
    {
        var own: [CalendarDay: ActivitySummary] = [:]
        for shown in try summaries(from: first, through: last) { own[shown.day] = shown.summary }
        return try shown(own, try sampleFigures(from: first, through: last), defaults: defaults)
    }

    /// The day as it is shown (`shownDays`); nil when it has neither a summary nor samples.
    public func shownSummary(for day: CalendarDay, defaults: Goals = Goals()) throws(StoreError) -> ActivitySummary? {
        try shownDays(from: day, through: day, defaults: defaults).first?.summary
    }

    /// Every day as shown (`shownDays`), in date order; a day row with a date no Glance command
    /// writes is an error naming it (`forEachSummary`).
    public func allShownDays(defaults: Goals = Goals()) throws(StoreError) -> [DaySummary] {
        var own: [CalendarDay: ActivitySummary] = [:]
        try forEachSummary { (day, summary) throws(StoreError) in own[day] = summary }
        return try shown(own, try sampleFigures(from: .earliest, through: .latest), defaults: defaults)
    }

    private func shown(_ own: [CalendarDay: ActivitySummary], _ samples: [CalendarDay: SummaryChanges], defaults: Goals)
        throws(StoreError) -> [DaySummary]
    {
        let history = try goalHistory()
        return Set(own.keys).union(samples.keys).sorted().map { day in
            var summary = own[day] ?? ActivitySummary()
            if let changes = samples[day] { Self.apply(changes, to: &summary) }
            (Self.goals(on: day, in: history) ?? Goals()).over(defaults).fill(&summary)
            return DaySummary(day, summary)
        }
    }
}
