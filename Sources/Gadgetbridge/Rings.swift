import Activity

/// A day's ring figures from one device's minutes, by `Rings`' rules.
public struct DayFigures: Sendable, Equatable {
    /// The board's local day.
    public var day: CalendarDay
    /// `Gadgetbridge: <DEVICE.NAME>`.
    public var source: String
    /// Move as energy: the day's active kilocalories, where the device's table has them (Garmin's
    /// `ACTIVE_CALORIES`); nil: Move is `steps` against `stepGoal`.
    public var activeEnergy: Double?
    public var steps: Int
    /// The person's step goal (`USER_ATTRIBUTES.STEPS_GOAL_SPD`), else `Rings.defaultStepGoal`.
    public var stepGoal: Int
    /// Whether `stepGoal` is the default (the export has no goal).
    public var stepGoalIsDefault: Bool
    public var exerciseMinutes: Int
    public var standHours: Int

    public init(
        day: CalendarDay, source: String, activeEnergy: Double?, steps: Int, stepGoal: Int, stepGoalIsDefault: Bool,
        exerciseMinutes: Int, standHours: Int
    ) {
        self.day = day
        self.source = source
        self.activeEnergy = activeEnergy
        self.steps = steps
        self.stepGoal = stepGoal
        self.stepGoalIsDefault = stepGoalIsDefault
        self.exerciseMinutes = exerciseMinutes
        self.standHours = standHours
    }

    /// Whether Move is counted in steps (no energy in the device's table).
    public var moveIsSteps: Bool { activeEnergy == nil }
}

/// One local hour's share of a figure: what `Store.putSamples` keeps (energy, exercise, stand)
/// or will keep (steps).
public struct HourSample: Sendable, Equatable {
    public enum Metric: String, Sendable, Equatable, CaseIterable {
        /// Kilocalories.
        case activeEnergy
        /// Minutes.
        case exerciseMinutes
        /// 1: the hour counts.
        case standHours
        /// Steps (Move on a day without energy).
        case steps

        /// The store's sample metric.
        public var sampleMetric: SampleMetric {
            switch self {
            case .activeEnergy: .activeEnergy
            case .exerciseMinutes: .exerciseTime
            case .standHours: .standHours
            case .steps: .steps
            }
        }
    }

    public var metric: Metric
    /// The local hour's start, seconds since 1970.
    public var start: Int64
    /// The board's local day the hour is on.
    public var day: CalendarDay
    public var value: Double
    public var source: String

    public init(metric: Metric, start: Int64, day: CalendarDay, value: Double, source: String) {
        self.metric = metric
        self.start = start
        self.day = day
        self.value = value
        self.source = source
    }
}

/// From a device's minutes to the rings: one rule per figure (docs/data.md, "Gadgetbridge").
///
/// - **Move**: active energy where the device's table has it (Garmin's `ACTIVE_CALORIES`, the
///   kilocalories of each minute above 0 summed); else the day's **steps** against the step goal
///   (`USER_ATTRIBUTES.STEPS_GOAL_SPD`, else `defaultStepGoal`).
/// - **Exercise**: minutes with at least `brisk` steps (100 a minute: the cadence of moderate
///   intensity, about 3 METs, in adults — Tudor-Locke et al. 2018, 2019). Heart rate is not used:
///   a threshold of it depends on the person's age and resting rate, which the export does not
///   reliably have, and many bands measure it only every few minutes.
/// - **Stand**: hours with at least one minute of steps (the wearer was up and moving); for a day
///   the device summed itself with its own standing hours (`XIAOMI_DAILY_SUMMARY_SAMPLE.STANDING`,
///   a bit per hour), those hours instead.
///
/// Times: a minute is on the board's local day and hour of its start (`zone`'s offset at it).
public enum Rings {
    /// The step goal when the export has none (the common default of bands and of Gadgetbridge).
    public static let defaultStepGoal = 10_000
    /// Steps a minute from which the minute counts as exercise.
    public static let brisk = 100

    /// The figures of every local day `data` has minutes (or device days) on, and their hourly
    /// samples, in time order.
    public static func figures(_ data: DeviceData, stepGoal: Int?, zone: some UTCOffsets) -> (days: [DayFigures], samples: [HourSample]) {
        let source = data.device.source
        var hours: [Int64: Hour] = [:]
        for minute in data.minutes {
            let start = hourStart(minute.start, zone)
            var hour = hours[start] ?? Hour()
            hour.steps += minute.steps
            hour.kcal += minute.activeCalories ?? 0
            if minute.steps >= brisk { hour.brisk += 1 }
            if minute.steps > 0 { hour.moving = true }
            hours[start] = hour
        }
        // Stand: moving hours, except in the days the device summed itself.
        var stand = Set(hours.filter { $0.value.moving }.keys)
        var daysSeen = Set(hours.keys.map { localDay($0, zone) })
        for deviceDay in data.deviceDays {
            guard let bits = deviceDay.standing else { continue }
            let window = deviceDay.start..<deviceDay.start + 86_400
            stand = stand.filter { !window.contains($0) }
            for bit in 0..<24 where bits & (1 << UInt32(bit)) != 0 {
                stand.insert(hourStart(deviceDay.start + Int64(bit) * 3600, zone))
            }
            daysSeen.insert(localDay(deviceDay.start, zone))
        }
        var samples: [HourSample] = []
        for start in Set(hours.keys).union(stand).sorted() {
            let day = localDay(start, zone)
            let hour = hours[start] ?? Hour()
            if data.hasActiveEnergy && hour.kcal > 0 {
                samples.append(HourSample(metric: .activeEnergy, start: start, day: day, value: hour.kcal, source: source))
            }
            if hour.brisk > 0 {
                samples.append(HourSample(metric: .exerciseMinutes, start: start, day: day, value: Double(hour.brisk), source: source))
            }
            if stand.contains(start) {
                samples.append(HourSample(metric: .standHours, start: start, day: day, value: 1, source: source))
            }
            if hour.steps > 0 {
                samples.append(HourSample(metric: .steps, start: start, day: day, value: Double(hour.steps), source: source))
            }
        }
        let goal = stepGoal ?? defaultStepGoal
        var days: [CalendarDay: DayFigures] = [:]
        for day in daysSeen {
            days[day] = DayFigures(
                day: day, source: source, activeEnergy: data.hasActiveEnergy ? 0 : nil, steps: 0, stepGoal: goal,
                stepGoalIsDefault: stepGoal == nil, exerciseMinutes: 0, standHours: 0)
        }
        for sample in samples {
            switch sample.metric {
            case .activeEnergy: days[sample.day]?.activeEnergy? += sample.value
            case .exerciseMinutes: days[sample.day]?.exerciseMinutes += Int(sample.value)
            case .standHours: days[sample.day]?.standHours += 1
            case .steps: days[sample.day]?.steps += Int(sample.value)
            }
        }
        return (days.values.sorted { $0.day < $1.day }, samples)
    }

    /// Every device's figures and samples (each under its own source).
    public static func figures(_ export: Export, zone: some UTCOffsets) -> (days: [DayFigures], samples: [HourSample]) {
        var days: [DayFigures] = []
        var samples: [HourSample] = []
        for device in export.devices {
            let one = figures(device, stepGoal: export.stepGoal, zone: zone)
            days += one.days
            samples += one.samples
        }
        return (days, samples)
    }

    /// A local hour's minutes, summed.
    struct Hour {
        var steps = 0
        var kcal = 0.0
        var brisk = 0
        var moving = false
    }

    /// The start of the local hour `unix` is in, seconds since 1970.
    static func hourStart(_ unix: Int64, _ zone: some UTCOffsets) -> Int64 {
        let offset = Int64(zone.utcOffset(at: unix))
        let local = unix + offset
        return local - floorMod(local, 3600) - offset
    }

    /// The board's local day of `unix`.
    public static func localDay(_ unix: Int64, _ zone: some UTCOffsets) -> CalendarDay {
        let local = unix + Int64(zone.utcOffset(at: unix))
        return CalendarDay(daysSinceEpoch: Int((local - floorMod(local, 86_400)) / 86_400))
    }

    static func floorMod(_ a: Int64, _ b: Int64) -> Int64 { ((a % b) + b) % b }
}
