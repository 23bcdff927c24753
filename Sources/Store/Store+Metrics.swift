import Activity
/// A named number for a gauge: its value (nil: unknown), range and unit, and when it was set.
public struct Metric: Sendable, Equatable {
    public var name: String
    public var value: Double?
    public var minimum: Double?
    public var maximum: Double?
    public var unit: String?
    /// Seconds since 1970 when it was last set.
    public var updated: Int64

    public init(
        name: String, value: Double?, minimum: Double? = nil, maximum: Double? = nil, unit: String? = nil,
        updated: Int64 = 0
    ) {
        self.name = name
        self.value = value
        self.minimum = minimum
        self.maximum = maximum
        self.unit = unit
        self.updated = updated
    }
}


extension Metric {
    /// The largest magnitude of a metric's value, min and max (and of a task's amounts): far
    /// beyond any reading, small enough that no difference or ratio of two overflows.
    public static let limit = GaugeValue.limit
}

extension Store {
    /// Checks a metric or task name: 1 to 64 characters, no control characters, no edge spaces.
    public static func checkName(_ name: String, what: String) throws(StoreError) {
        guard !name.isEmpty, name.utf8.count <= TextLimit.name else {
            throw StoreError(.invalidArgument, "\(what) name '\(Quote.clip(name))': give 1 to \(TextLimit.name) characters")
        }
        guard !Quote.hasControl(name), name.first != " ", name.last != " " else {
            throw StoreError(.invalidArgument, "\(what) name '\(Quote.clip(name))': no control characters or spaces at the ends")
        }
    }

    /// Checks a text the panel draws (a unit, a description): its `TextLimit`, no control character.
    static func checkText(_ text: String?, _ what: String, characters: Int? = nil, bytes: Int? = nil) throws(StoreError) {
        guard let text, let problem = TextLimit.problem(text, characters: characters, bytes: bytes) else { return }
        throw StoreError(.invalidArgument, "\(what) '\(Quote.clip(text))': \(problem)")
    }

    /// Sets a metric's value; range and unit change only where asked (a cron job that sends the
    /// value alone keeps them).
    @discardableResult
    public func setMetric(
        _ name: String, value: Double?, minimum: FieldChange<Double> = .keep,
        maximum: FieldChange<Double> = .keep, unit: FieldChange<String> = .keep
    ) throws(StoreError) -> Metric {
        try Self.checkName(name, what: "metric")
        if let value, !(value.isFinite && abs(value) <= Metric.limit) {
            throw StoreError(
                .invalidArgument, "metric \(name): value must be a number from -10^15 to 10^15 (or - for unknown)")
        }
        return try transaction { () throws(StoreError) -> Metric in
            let old = try metric(named: name)
            var m = Metric(name: name, value: value, updated: unixTime())
            m.minimum = minimum.applied(to: old?.minimum)
            m.maximum = maximum.applied(to: old?.maximum)
            m.unit = unit.applied(to: old?.unit)
            if case .set(let given) = unit { try Self.checkText(given, "metric \(name): unit", bytes: TextLimit.unit) }
            for bound in [m.minimum, m.maximum] {
                if let bound, !(bound.isFinite && abs(bound) <= Metric.limit) {
                    throw StoreError(.invalidArgument, "metric \(name): min and max must be numbers from -10^15 to 10^15")
                }
            }
            if let lo = m.minimum, let hi = m.maximum, !(lo < hi) {
                throw StoreError(.invalidArgument, "metric \(name): min (\(lo)) must be below max (\(hi))")
            }
            try db.prepare(
                "INSERT OR REPLACE INTO metrics (name, value, min, max, unit, updated) VALUES (?1,?2,?3,?4,?5,?6)"
            )
            .bind(
                .text(name), .optional(m.value), .optional(m.minimum), .optional(m.maximum), .optional(m.unit),
                .integer(m.updated)
            )
            .run()
            return m
        }
    }

    public func metric(named name: String) throws(StoreError) -> Metric? {
        let statement = try db.prepare("SELECT name, value, min, max, unit, updated FROM metrics WHERE name = ?1")
        statement.bind(.text(name))
        guard try statement.step() else { return nil }
        return Self.metric(from: statement)
    }

    /// Every metric, by name.
    public func metrics() throws(StoreError) -> [Metric] {
        let statement = try db.prepare("SELECT name, value, min, max, unit, updated FROM metrics ORDER BY name")
        var result: [Metric] = []
        while try statement.step() { result.append(Self.metric(from: statement)) }
        return result
    }

    /// Removes a metric; false if there was none.
    @discardableResult
    public func removeMetric(named name: String) throws(StoreError) -> Bool {
        try db.prepare("DELETE FROM metrics WHERE name = ?1").bind(.text(name)).run()
        return db.changes > 0
    }

    private static func metric(from row: Statement) -> Metric {
        Metric(
            name: row.text(0) ?? "", value: row.double(1), minimum: row.double(2), maximum: row.double(3),
            unit: row.text(4).map { String(decoding: $0.utf8.prefix(TextLimit.unit), as: UTF8.self) }, updated: row.int64(5) ?? 0)
    }
}
