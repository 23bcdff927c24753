import Activity

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Where a gauge's number comes from: a metric in the store (updated by `glance metric set`),
/// or a file that holds a number (`/sys/class/thermal/thermal_zone0/temp`, times a scale),
/// read again on an interval. The app makes these from the configuration's gauge `source`
/// (`{"metric": NAME}` or `{"file": PATH, "scale": …, "offset": …, "interval": …}`).
public enum GaugeSource: Sendable, Equatable {
    case metric(name: String)
    case file(path: String, scale: Double, interval: Duration)

    /// When to read next: a file source one interval after the last read (now, if never read);
    /// nil for a metric, which is read again when the store changes (see `StoreWatcher`). Times
    /// are readings of the caller's clock (the display loop's CLOCK_MONOTONIC).
    public func nextRefresh(lastRead: Duration?, now: Duration) -> Duration? {
        guard case .file(_, _, let interval) = self else { return nil }
        guard let lastRead else { return now }
        return lastRead + interval
    }

    /// Whether the source should be read now.
    public func isDue(lastRead: Duration?, now: Duration, storeChanged: Bool) -> Bool {
        switch self {
        case .metric: return lastRead == nil || storeChanged
        case .file:
            guard let next = nextRefresh(lastRead: lastRead, now: now) else { return false }
            return next <= now
        }
    }

    /// Reads the source now. Problems (a missing file, no such metric) come back in the reading,
    /// which then has no value: the gauge shows `—`.
    public func read(store: Store?) -> GaugeReading {
        switch self {
        case .metric(let name):
            guard let store else { return GaugeReading(problem: "no store") }
            do {
                guard let m = try store.metric(named: name) else {
                    return GaugeReading(problem: "no metric \(name) (set it with glance metric set \(name) VALUE)")
                }
                return GaugeReading(value: m.value, minimum: m.minimum, maximum: m.maximum, unit: m.unit, updated: m.updated)
            } catch {
                return GaugeReading(problem: error.message)
            }
        case .file(let path, let scale, _):
            let fd = open(path, O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else { return GaugeReading(problem: "\(path): \(String(cString: strerror(errno)))") }
            defer { close(fd) }
            var bytes = [UInt8](repeating: 0, count: 64)
            let n = bytes.withUnsafeMutableBytes { readFile(fd, $0.baseAddress, $0.count) }
            guard n >= 0 else { return GaugeReading(problem: "\(path): \(String(cString: strerror(errno)))") }
            let text = String(decoding: bytes.prefix(n), as: UTF8.self)
            guard let value = Self.number(from: text, scale: scale) else {
                return GaugeReading(problem: "\(path): '\(text.trimmingWhitespace)' is not a number")
            }
            return GaugeReading(value: value)
        }
    }

    /// The number a file holds (surrounding white space ignored), times `scale`; nil if it holds none.
    public static func number(from text: some StringProtocol, scale: Double) -> Double? {
        let s = text.trimmingWhitespace
        guard DecimalText.isDecimal(s), let x = Double(s), x.isFinite else { return nil }
        return GaugeValue.scaled(x, scale: scale)
    }
}

/// A gauge's current number, with its range and unit where the source has them.
public struct GaugeReading: Sendable, Equatable {
    public var value: Double?
    public var minimum: Double?
    public var maximum: Double?
    public var unit: String?
    /// Why there is no value, for a log or a small note on the screen.
    public var problem: String?
    /// When the value was set (seconds since 1970), where the source says (a metric's `updated`).
    public var updated: Int64?

    public init(
        value: Double? = nil, minimum: Double? = nil, maximum: Double? = nil, unit: String? = nil,
        problem: String? = nil, updated: Int64? = nil
    ) {
        self.updated = updated
        self.value = value
        self.minimum = minimum
        self.maximum = maximum
        self.unit = unit
        self.problem = problem
    }
}

/// read(2) by its C name (Glibc or Musl): inside GaugeSource the plain name is its own method.
private func readFile(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int { read(fd, buffer, count) }
