import Activity

/// A Health Auto Export "REST API" body: `{"data": {"metrics": [{"name", "units", "data":
/// [{"qty", "date", "source"?}, …]}, …], "workouts": […]}}`. The ring metrics (`active_energy`,
/// `apple_exercise_time`, `apple_stand_hour`) are read; every other metric is listed as ignored.
/// Goals are not in it.
public struct HealthAutoExport: Sendable, Equatable {
    /// The ring metrics, by their names in the body.
    public typealias Ring = SampleMetric

    public struct Sample: Sendable, Equatable {
        /// In the ring's unit: kilocalories, minutes, hours.
        public var quantity: Double
        public var time: Timestamp
        /// As sent, in its metric's `units`.
        public var given: Double = 0
        /// The device or app it came from, when the app says ("" when not; at most 200 bytes, no
        /// control character).
        public var source = ""
        /// Where it is in its metric's `data` (for an error's JSON path).
        public var index = 0
    }

    public struct Metric: Sendable, Equatable {
        public var ring: Ring
        /// As sent (`kJ`, `min`).
        public var units = ""
        public var samples: [Sample]
        /// Where it is in the body's `metrics`.
        public var index = 0

        /// The JSON path of sample `i`'s date.
        func datePath(_ sample: Sample) -> String { "$.data.metrics[\(index)].data[\(sample.index)].date" }

        /// One sample a day, each at midnight: the app aggregated by day, and a sample belongs to
        /// the date written on it (its moment in the board's time zone could fall on the day before).
        public var isDaily: Bool {
            var days = Set<CalendarDay>()
            return samples.allSatisfy { $0.time.secondOfDay == 0 && days.insert($0.time.day).inserted }
        }
    }

    public var metrics: [Metric]
    /// The names of the metrics that are not for the rings, sorted.
    public var ignored: [String]

    public static func decode(_ body: Located) throws(FeedError) -> HealthAutoExport {
        let data = try body.required("data")
        var metrics: [Metric] = []
        var ignored = Set<String>()
        for (index, item) in try (data.member("metrics")?.elements() ?? Located.Elements(items: [], path: data.path)).enumerated() {
            let name = try item.required("name").string()
            // (its steps are `step_count`: not read; an iPhone's Move is energy)
            guard let ring = Ring(rawValue: name), ring != .steps else {
                // Listed in the reply: bounded, like any text a client sends back to itself.
                if ignored.count < 64 { ignored.insert(Quote.clip(name)) }
                continue
            }
            let unitsField = try item.required("units")
            let units = try unitsField.string()
            let factor = try Self.factor(ring, units: units, at: unitsField.path)
            var samples: [Sample] = []
            for (sampleIndex, entry) in try item.required("data").elements().enumerated() {
                let qty = try entry.required("qty")
                let quantity = try qty.number()
                guard quantity >= 0 else { throw FeedError(path: qty.path, "expected a number of 0 or more") }
                let dateField = try entry.required("date")
                guard let time = Timestamp(try dateField.string()) else {
                    throw FeedError(path: dateField.path, "expected a date as 2026-11-30 10:00:00 +0100")
                }
                var source = ""
                if let field = try entry.member("source"), !field.isNull { source = try field.text(bytes: 200) }
                samples.append(Sample(quantity: quantity * factor, time: time, given: quantity, source: source, index: sampleIndex))
            }
            metrics.append(Metric(ring: ring, units: units, samples: samples, index: index))
        }
        return HealthAutoExport(metrics: metrics, ignored: ignored.sorted())
    }

    /// What one unit of `units` is in the ring's own unit (kcal, minutes, hours).
    static func factor(_ ring: Ring, units: String, at path: String) throws(FeedError) -> Double {
        switch ring {
        case .activeEnergy:
            guard let unit = EnergyUnit(symbol: units) else {
                throw FeedError(path: path, "expected kcal, Cal or kJ for active_energy, found \"\(units.prefix(20))\"")
            }
            return unit.kilocalories
        case .exerciseTime:
            switch units {
            case "min": return 1
            case "s": return 1.0 / 60
            case "hr", "h": return 60
            default: throw FeedError(path: path, "expected min, s or hr for apple_exercise_time, found \"\(units.prefix(20))\"")
            }
        case .standHours:
            switch units {
            case "count", "hr", "h": return 1
            case "min": return 1.0 / 60
            default: throw FeedError(path: path, "expected count or hr for apple_stand_hour, found \"\(units.prefix(20))\"")
            }
        case .steps:
            guard units == "count" else { throw FeedError(path: path, "expected count for steps, found \"\(units.prefix(20))\"") }
            return 1
        }
    }

    /// The board's day each sample counts for, metric by metric in the body's order: samples at
    /// moments the day of their moment (`localDay` of the seconds since 1970; nil when it has
    /// none), daily samples their written date. A day outside the years 1 to 9999 is an error at
    /// the sample's date's JSON path.
    public func sampleDays(localDay: (Int64) -> CalendarDay?) throws(FeedError) -> [CalendarDay] {
        var days: [CalendarDay] = []
        days.reserveCapacity(metrics.reduce(0) { $0 + $1.samples.count })
        for metric in metrics {
            let daily = metric.isDaily
            for sample in metric.samples {
                guard let day = daily ? sample.time.day : localDay(sample.time.epochSeconds),
                    day >= .earliest && day <= .latest
                else {
                    throw FeedError(
                        path: metric.datePath(sample), "the moment falls outside the years 1 to 9999 where the board is")
                }
                days.append(day)
            }
        }
        return days
    }

    /// Every sample with its metric, in the order of `sampleDays` (made as they are asked for).
    public var allSamples: some Sequence<(metric: Metric, sample: Sample)> {
        metrics.lazy.flatMap { metric in metric.samples.lazy.map { (metric: metric, sample: $0) } }
    }

    /// Each ring's samples of this body alone summed per day: samples at moments into the board's day of their
    /// moment (`localDay` of the seconds since 1970; nil when it has none), daily samples into
    /// their written date. A day gets only the figures whose metric has samples on it; goals are
    /// left as they are. A sample whose day is outside the years 1 to 9999 (`9999-12-31 23:59:59
    /// -1400` is in the year 10000 in most places) is an error at its date's JSON path.
    public func days(localDay: (Int64) -> CalendarDay?) throws(FeedError) -> [CalendarDay: SummaryChanges] {
        var sums: [CalendarDay: [Ring: Double]] = [:]
        for ((metric, sample), day) in zip(allSamples, try sampleDays(localDay: localDay)) {
            sums[day, default: [:]][metric.ring, default: 0] += sample.quantity
        }
        return sums.mapValues { rings in
            var changes = SummaryChanges()
            if let move = rings[.activeEnergy] { changes.activeEnergyBurned = .set(.kilocalories(move)) }
            if let exercise = rings[.exerciseTime] { changes.exerciseTime = .set(exercise) }
            if let stand = rings[.standHours] { changes.standHours = .set(stand) }
            return changes
        }
    }
}
