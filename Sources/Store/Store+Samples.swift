import Activity

/// Samples as a source sends them (Health Auto Export, Health Connect, Gadgetbridge, the readings
/// format): one row per metric, start, feed and source, a sample sent again (or an hourly
/// aggregate that has grown) replacing the one it repeats. A day's figure for a metric that has
/// samples on it is their sum, over one feed: where two feeds sent samples of one metric for one
/// day (a phone through Health Auto Export and a band through Gadgetbridge, both counting the same
/// walk), the feed whose samples sum to the most counts alone, so nothing is counted twice.
extension Store {
    /// The metrics kept as samples, each feeding one figure of the day.
    public typealias SampleMetric = Activity.SampleMetric

    /// What a sample came through: each has its own rules for what its samples mean
    /// (docs/data.md), and a day's figure is one feed's.
    public enum Feed: String, Sendable, Equatable, CaseIterable, Comparable {
        case healthAutoExport = "health-auto-export"
        case healthConnect = "health-connect"
        case gadgetbridge = "gadgetbridge"
        case readings = "readings"

        /// As people call it (`glance log`, exports).
        public var name: String {
            switch self {
            case .healthAutoExport: "Health Auto Export"
            case .healthConnect: "Health Connect"
            case .gadgetbridge: "Gadgetbridge"
            case .readings: "readings"
            }
        }

        public static func < (a: Feed, b: Feed) -> Bool { a.rawValue < b.rawValue }
    }

    public struct Sample: Sendable, Equatable {
        public var metric: SampleMetric
        /// Seconds since 1970.
        public var start: Int64
        /// Where it came from ("" when not given): samples of two sources at one moment are two samples.
        public var source: String
        /// What it came through.
        public var feed: Feed
        /// As sent, in `unit`.
        public var quantity: Double
        public var unit: String
        /// In the figure's unit: kilocalories, minutes, hours.
        public var value: Double
        /// The board's day it counts for.
        public var day: CalendarDay

        public init(
            metric: SampleMetric, start: Int64, source: String = "", quantity: Double, unit: String, value: Double, day: CalendarDay,
            feed: Feed = .healthAutoExport
        ) {
            self.metric = metric
            self.start = start
            self.source = source
            self.feed = feed
            self.quantity = quantity
            self.unit = unit
            self.value = value
            self.day = day
        }

        /// Why no interval of a day holds this sample (more than its `range` in the figure's
        /// unit, or in the energy unit it was sent in), or nil.
        public var problem: String? {
            let range = Store.range(of: metric)
            let shown = value.isFinite ? NumberText.plain(value) : "\(value)"
            if let problem = range.problem(value, goal: false) { return "\(shown) \(Store.ringUnit(metric)) \(problem)" }
            if metric == .activeEnergy, EnergyUnit(symbol: unit) != nil, let problem = range.problem(quantity, goal: false) {
                let given = quantity.isFinite ? NumberText.plain(quantity) : "\(quantity)"
                return "\(given) \(Quote.clip(unit, 20)) \(problem)"
            }
            return nil
        }
    }

    /// What a write of samples did, sample by sample.
    public struct SampleCounts: Sendable, Equatable {
        public var new = 0, changed = 0, unchanged = 0
        public init() {}
    }

    /// Keeps `samples` (in the caller's transaction, or one of its own): a sample with the key of
    /// one stored (metric, start, feed, source) replaces it.
    @discardableResult
    public func putSamples(_ samples: some Sequence<Sample>) throws(StoreError) -> SampleCounts {
        try transaction { () throws(StoreError) -> SampleCounts in
            let find = try db.prepare(
                "SELECT quantity, unit, value, day FROM samples WHERE person = ?5 AND metric = ?1 AND start = ?2 AND source = ?3 AND feed = ?4",
                persistent: true)
            let put = try db.prepare(
                "INSERT OR REPLACE INTO samples (metric, start, source, quantity, unit, value, day, feed, person) VALUES (?1,?2,?3,?4,?5,?6,?7,?8,?9)",
                persistent: true)
            var counts = SampleCounts()
            var days = Set<CalendarDay>()
            for s in samples {
                guard s.quantity.isFinite, s.quantity >= 0, s.value.isFinite, s.value >= 0 else {
                    throw StoreError(.badData, "\(s.metric.rawValue) at \(Self.isoTime(s.start)): \(s.quantity) is not a quantity of 0 or more")
                }
                if let problem = s.problem {
                    throw StoreError(.badData, "\(s.metric.rawValue) at \(Self.isoTime(s.start)): \(problem); nothing was kept")
                }
                days.insert(s.day)
                find.bind(.text(s.metric.rawValue), .integer(s.start), .text(s.source), .text(s.feed.rawValue), personValue)
                let found = try find.step()
                let same =
                    found && find.double(0) == s.quantity && find.text(1) == s.unit && find.double(2) == s.value
                    && find.text(3) == s.day.description
                find.reset()
                if same {
                    counts.unchanged += 1
                    continue
                }
                if found { counts.changed += 1 } else { counts.new += 1 }
                try put.bind(
                    .text(s.metric.rawValue), .integer(s.start), .text(s.source), .real(s.quantity), .text(s.unit), .real(s.value),
                    .text(s.day.description), .text(s.feed.rawValue), personValue
                ).run()
            }
            // The days they fall on, summed with what was there: each within what a day holds
            // (the sums cannot overflow then either), or none of it is kept.
            try checkSampleDays(days)
            return counts
        }
    }

    /// The most a day's samples of `metric` may sum to, and a single sample may be: what a day
    /// holds (`FigureRange`: 1,440 minutes, 24 hours, 100,000 kcal or kJ), as any day's figure.
    /// Health Auto Export's samples carry their start only, so a sample is bounded by the day.
    public static func range(of metric: SampleMetric) -> FigureRange {
        switch metric {
        case .activeEnergy: .energy
        case .exerciseTime: .minutes
        case .standHours: .hours
        case .steps: .steps
        }
    }

    /// Throws, naming the day, the metric and the sum, when the samples of one of `days` sum to
    /// more than a day holds (in any of its units) or to no finite number.
    func checkSampleDays(_ days: Set<CalendarDay>) throws(StoreError) {
        guard let first = days.min(), let last = days.max() else { return }
        for (day, metrics) in try sampleSums(from: first, through: last, everyFeed: true) where days.contains(day) {
            for (metric, feeds) in metrics {
                for (_, units) in feeds {
                let range = Self.range(of: metric)
                var sums = [(units.reduce(0) { $0 + $1.value }, Self.ringUnit(metric))]
                if metric == .activeEnergy { sums += units.map { ($0.quantity, $0.unit) } }
                for (sum, unit) in sums {
                    if let problem = range.problem(sum, goal: false) {
                        let value = sum.isFinite ? NumberText.plain(sum) : "\(sum)"
                        throw StoreError(
                            .badData,
                            "\(metric.rawValue) on \(day): the samples sum to \(value) \(Quote.clip(unit, 20)), which \(problem); "
                                + "nothing was kept")
                    }
                }
                }
            }
        }
    }

    /// The unit a metric's `value` is in.
    static func ringUnit(_ metric: SampleMetric) -> String {
        switch metric {
        case .activeEnergy: "kcal"
        case .exerciseTime: "min"
        case .standHours: "hr"
        case .steps: "steps"
        }
    }

    /// A unit's sums of a day's samples of one metric and feed. (Structs, not tuples: a
    /// collection of tuples brings the runtime's tuple metadata code into the first frame,
    /// docs/speed.md.)
    struct UnitSums {
        let unit: String
        let quantity: Double
        let value: Double
    }

    /// The feed that counts for a day's metric, with its units' sums.
    struct CountedFeed {
        let feed: Feed
        let units: [UnitSums]
    }

    /// Per day and metric, the feed that counts (`Feed`'s rule: the one whose samples sum to the
    /// most, the first by name on a tie) with its units' sums, from `first` through `last`.
    private func sampleSums(from first: CalendarDay, through last: CalendarDay) throws(StoreError)
        -> [CalendarDay: [SampleMetric: CountedFeed]]
    {
        try sampleSums(from: first, through: last, everyFeed: true).mapValues { metrics in
            metrics.mapValues { feeds in
                let counted = feeds.max { a, b in
                    let x = a.value.reduce(0) { $0 + $1.value }, y = b.value.reduce(0) { $0 + $1.value }
                    return x != y ? x < y : a.key > b.key
                }!
                return CountedFeed(feed: counted.key, units: counted.value)
            }
        }
    }

    /// The feeds of each day's figures from `first` through `last`: per metric with samples there,
    /// the one that counts.
    public func sampleFeeds(from first: CalendarDay, through last: CalendarDay) throws(StoreError)
        -> [CalendarDay: [SampleMetric: Feed]]
    {
        try sampleSums(from: first, through: last).mapValues { $0.mapValues(\.feed) }
    }

    /// Per day, metric and feed, each unit's sums of quantity and value, from `first` through `last`.
    private func sampleSums(from first: CalendarDay, through last: CalendarDay, everyFeed: Bool) throws(StoreError)
        -> [CalendarDay: [SampleMetric: [Feed: [UnitSums]]]]
    {
        let statement = try db.prepare(
            "SELECT day, metric, feed, unit, sum(quantity), sum(value) FROM samples WHERE person = ?3 AND day BETWEEN ?1 AND ?2 "
                + "GROUP BY day, metric, feed, unit")
        statement.bind(.text(first.description), .text(last.description), personValue)
        var sums: [CalendarDay: [SampleMetric: [Feed: [UnitSums]]]] = [:]
        while try statement.step() {
            guard let day = statement.text(0).flatMap(CalendarDay.init(iso:)),
                let metric = statement.text(1).flatMap(SampleMetric.init(rawValue:)),
                let feed = statement.text(2).flatMap(Feed.init(rawValue:))
            else { continue }
            sums[day, default: [:]][metric, default: [:]][feed, default: []].append(
                UnitSums(unit: statement.text(3) ?? "", quantity: statement.double(4) ?? 0, value: statement.double(5) ?? 0))
        }
        return sums
    }

    /// Folds the samples of the days before `day` into those days' own figures and forgets them
    /// (in the caller's transaction, or one of its own): each day is shown as before, from one row
    /// instead of thousands. `glance serve` does it for the days a push may no longer write, so
    /// the samples kept are those of its window. The number of days folded.
    @discardableResult
    public func foldSamples(before day: CalendarDay) throws(StoreError) -> Int {
        try transaction { () throws(StoreError) -> Int in
            let oldest = try db.prepare("SELECT min(day) FROM samples WHERE person = ?1")
            guard try oldest.bind(personValue).step(), let text = oldest.text(0), let first = CalendarDay(iso: text), first < day else { return 0 }
            oldest.reset()
            let figures = try sampleFigures(from: first, through: day.adding(days: -1))
            for (old, changes) in figures {
                var summary = try summary(for: old) ?? ActivitySummary()
                Self.apply(changes, to: &summary)
                try setSummary(summary, for: old)
                let feeds = Set((try sampleFeeds(from: old, through: old))[old]?.values.map(\.name) ?? [])
                if !feeds.isEmpty { try setSource(feeds.sorted().joined(separator: ", "), for: old) }
            }
            try db.prepare("DELETE FROM samples WHERE person = ?2 AND day < ?1").bind(.text(day.description), personValue).run()
            return figures.count
        }
    }

    /// The figures of samples (`sampleFigures`) over a day's own: a day with steps and no energy
    /// anywhere moves in steps (a step counter's day), unless its own row says move time.
    static func apply(_ samples: SummaryChanges, to summary: inout ActivitySummary) {
        samples.apply(to: &summary)
        if samples.steps != .keep, summary.activeEnergyBurned == nil, summary.moveMode == .activeEnergy {
            summary.moveMode = .steps
        }
    }

    /// Every sample of the person kept, by start, source and metric (what `glance export --readings` writes).
    public func allSamples() throws(StoreError) -> [Sample] {
        let statement = try db.prepare(
            "SELECT metric, start, source, quantity, unit, value, day, feed FROM samples WHERE person = ?1 "
                + "ORDER BY start, feed, source, metric")
        statement.bind(personValue)
        var result: [Sample] = []
        while try statement.step() {
            guard let metric = statement.text(0).flatMap(SampleMetric.init(rawValue:)),
                let day = statement.text(6).flatMap(CalendarDay.init(iso:)),
                let feed = statement.text(7).flatMap(Feed.init(rawValue:))
            else { continue }
            result.append(
                Sample(
                    metric: metric, start: statement.int64(1) ?? 0, source: statement.text(2) ?? "", quantity: statement.double(3) ?? 0,
                    unit: statement.text(4) ?? "", value: statement.double(5) ?? 0, day: day, feed: feed))
        }
        return result
    }

    /// How many of the person's samples are kept.
    public func sampleCount() throws(StoreError) -> Int {
        let statement = try db.prepare("SELECT count(*) FROM samples WHERE person = ?1")
        guard try statement.bind(personValue).step() else { return 0 }
        return Int(statement.int64(0) ?? 0)
    }

    /// The figures the samples give the days from `first` through `last` (only days with samples;
    /// on each, only the figures whose metric has samples there). Energy keeps its unit when every
    /// sample of the day has the same one, else it is in kcal.
    public func sampleFigures(from first: CalendarDay, through last: CalendarDay) throws(StoreError) -> [CalendarDay: SummaryChanges] {
        let sums = try sampleSums(from: first, through: last)
        return sums.mapValues { metrics in
            var changes = SummaryChanges()
            for (metric, counted) in metrics {
                let units = counted.units
                let value = units.reduce(0) { $0 + $1.value }
                // A sum no day holds (samples an older Glance kept, a store changed by hand; at
                // worst infinite) is not shown, exported or taken as a figure: the day's own is.
                let range = Self.range(of: metric)
                switch metric {
                case .activeEnergy:
                    if units.count == 1, let unit = EnergyUnit(symbol: units[0].unit) {
                        if range.problem(units[0].quantity, goal: false) == nil {
                            changes.activeEnergyBurned = .set(Energy(units[0].quantity, unit))
                        }
                    } else if range.problem(value, goal: false) == nil {
                        changes.activeEnergyBurned = .set(.kilocalories(value))
                    }
                case .exerciseTime: if range.problem(value, goal: false) == nil { changes.exerciseTime = .set(value) }
                case .standHours: if range.problem(value, goal: false) == nil { changes.standHours = .set(value) }
                case .steps: if range.problem(value, goal: false) == nil { changes.steps = .set(value) }
                }
            }
            return changes
        }
    }
}
