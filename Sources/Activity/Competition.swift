/// An Activity competition, scored the Apple way: every day a person earns 1 point for each
/// 1 % of each of their three rings (Move as the day's move mode measures it: energy, move time
/// or steps), at most 600 points a day; the totals over the competition's days decide it.
/// Pure: the days' summaries are given in, nothing is read.
///
/// Apple's competitions are two people over seven days; this one takes any number of people and
/// any start and end (seven days unless told).
public struct Competition: Sendable, Hashable {
    /// The first day counted and the last (both included).
    public let start: CalendarDay
    public let end: CalendarDay
    /// Who takes part (the store's person ids), in the order they were named: the order ties are
    /// listed in.
    public let participants: [Int]

    /// The most points a person earns in a day.
    public static let dailyMaximum = 600
    /// The days a competition lasts unless its end is given.
    public static let usualDays = 7
    /// The longest competition (a year and a day): a bound on the days a standings reads.
    public static let mostDays = 366

    /// A competition from `start` to `end` (`start` + 6 when not given: seven days) among
    /// `participants` (each named once; the first of a repeated id kept). nil when `end` is
    /// before `start` or the competition would be longer than `mostDays` (`problem` says why).
    public init?(start: CalendarDay, end: CalendarDay? = nil, participants: [Int]) {
        let end = end ?? start.adding(days: Self.usualDays - 1)
        guard Self.problem(start: start, end: end) == nil else { return nil }
        self.start = start
        self.end = end
        var seen: Set<Int> = []
        self.participants = participants.filter { seen.insert($0).inserted }
    }

    /// Why a competition from `start` to `end` cannot be (nil: it can).
    public static func problem(start: CalendarDay, end: CalendarDay) -> String? {
        if end < start { return "its end (\(end)) is before its start (\(start))" }
        if end.days(since: start) + 1 > mostDays {
            return "it lasts \(end.days(since: start) + 1) days, more than the \(mostDays) a competition may"
        }
        return nil
    }

    /// How many days it lasts.
    public var length: Int { end.days(since: start) + 1 }

    /// Its days, first to last.
    public var days: [CalendarDay] { (0..<length).map { start.adding(days: $0) } }

    /// Whether it is over on `today`: its last day has ended.
    public func isFinished(today: CalendarDay) -> Bool { today > end }

    /// Which of its days `today` is (1 for the start … `length` for the end); nil before it starts
    /// and after it is over.
    public func dayNumber(today: CalendarDay) -> Int? {
        guard today >= start, today <= end else { return nil }
        return today.days(since: start) + 1
    }

    // MARK: Points

    /// The points one ring earns: 1 for each whole 1 % of its goal (`floor(100 × value / goal)`,
    /// never capped by itself: a ring at 250 % earns 250); 0 for a ring without data or without
    /// a usable goal (missing, 0), as `RingState` says.
    public static func points(_ state: RingState) -> Int {
        guard case .progress(let turns) = state else { return 0 }
        let percent = 100 * turns
        // A ratio within the rounding of division of a whole percent is that percent (11.1 of
        // 30 is 37 %, though 100 × 11.1 / 30 may come out a hair under 37).
        let whole = percent.rounded()
        let floored = abs(percent - whole) <= 1e-9 * max(1, whole) ? whole : percent.rounded(.down)
        return Int(min(floored, Double(dailyMaximum)))
    }

    /// The points of a day: the three rings' (`points(_ state:)`, Move as the day's move mode
    /// says) added, at most `dailyMaximum`. No summary: 0.
    public static func points(_ summary: ActivitySummary?) -> Int {
        guard let summary else { return 0 }
        let total = RingSet(summary).rings.reduce(0) { $0 + points($1.state) }
        return min(total, dailyMaximum)
    }

    // MARK: Standings

    /// Where everyone stands on `today`, from each participant's summaries by day (`days[id]`;
    /// a day without a summary earns 0, a participant without any days earns 0): the totals over
    /// the competition's days up to `today` (all of them once it is over, none before it
    /// starts), today's points, the ranks.
    public func standings(days summaries: [Int: [CalendarDay: ActivitySummary]], today: CalendarDay) -> CompetitionStandings {
        let last = min(today, end)
        let counted = last < start ? 0 : last.days(since: start) + 1
        var rows: [CompetitionStandings.Row] = []
        for (order, person) in participants.enumerated() {
            let mine = summaries[person] ?? [:]
            var daily: [Int] = []
            daily.reserveCapacity(counted)
            for i in 0..<counted { daily.append(Self.points(mine[start.adding(days: i)])) }
            let todays = dayNumber(today: today) == nil ? 0 : daily.last ?? 0
            rows.append(CompetitionStandings.Row(
                person: person, rank: 0, total: daily.reduce(0, +), today: todays, daily: daily, order: order))
        }
        return CompetitionStandings(
            rows: CompetitionStandings.ranked(rows), day: dayNumber(today: today), days: length,
            finished: isFinished(today: today), startsIn: today < start ? start.days(since: today) : nil)
    }
}

/// Where the people of a competition stand on a day (`Competition.standings`).
public struct CompetitionStandings: Sendable, Hashable {
    public struct Row: Sendable, Hashable {
        /// The participant (the store's person id).
        public var person: Int
        /// 1 for the most points; people with the same total share a rank, and the next rank
        /// counts them all (1, 1, 3).
        public var rank: Int
        /// Points over the days so far (all the days once it is over).
        public var total: Int
        /// Points today (0 before the start and after the end).
        public var today: Int
        /// Each day's points so far, the start first.
        public var daily: [Int]
        /// Where the participant was named (ties are listed in that order).
        public var order: Int

        public init(person: Int, rank: Int, total: Int, today: Int, daily: [Int], order: Int) {
            self.person = person
            self.rank = rank
            self.total = total
            self.today = today
            self.daily = daily
            self.order = order
        }
    }

    /// Best first; a tie in the order the participants were named.
    public var rows: [Row]
    /// Which day of the competition today is (1…`days`); nil before it starts and once it is over.
    public var day: Int?
    /// How many days it lasts.
    public var days: Int
    /// Its last day is over: the ranks are final.
    public var finished: Bool
    /// Days until it starts (nil once it has).
    public var startsIn: Int?

    public init(rows: [Row], day: Int?, days: Int, finished: Bool, startsIn: Int? = nil) {
        self.rows = rows
        self.day = day
        self.days = days
        self.finished = finished
        self.startsIn = startsIn
    }

    /// The winners once it is over: everyone with the most points (more than one on a tie);
    /// none before.
    public var winners: [Int] {
        guard finished else { return [] }
        return rows.filter { $0.rank == 1 }.map(\.person)
    }

    /// `rows` ordered best first (a tie in naming order) with their ranks (ties share one).
    public static func ranked(_ rows: [Row]) -> [Row] {
        var sorted = rows.sorted { $0.total != $1.total ? $0.total > $1.total : $0.order < $1.order }
        for i in sorted.indices {
            sorted[i].rank = i > 0 && sorted[i].total == sorted[i - 1].total ? sorted[i - 1].rank : i + 1
        }
        return sorted
    }
}
