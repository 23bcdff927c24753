import Raster

/// The gauge looks people know from watch complications and lock-screen widgets.
public enum GaugeStyle: String, Sendable, CaseIterable {
    case circular, circularCapacity, linear, linearCapacity
    case accessoryCircular, accessoryCircularCapacity, accessoryLinear, accessoryLinearCapacity

    /// Capacity styles fill up to the value; the others mark it on a whole track.
    public var isCapacity: Bool {
        switch self {
        case .circularCapacity, .linearCapacity, .accessoryCircularCapacity, .accessoryLinearCapacity: true
        default: false
        }
    }

    public var isCircular: Bool {
        switch self {
        case .circular, .circularCapacity, .accessoryCircular, .accessoryCircularCapacity: true
        default: false
        }
    }

    public var isAccessory: Bool { rawValue.hasPrefix("accessory") }
}

/// A value inside a range, and how to show it.
public struct Gauge: Sendable, Hashable {
    public var style: GaugeStyle
    /// nil or NaN: no value (shown as — without a marker).
    public var value: Double?
    public var minimum: Double
    public var maximum: Double
    public var title: String
    public var unit: String
    /// Colours along the path, low to high; the marker or fill takes the colour at the value.
    public var tint: [Color]
    /// Seconds since the value came, when it is stale (not renewed in time): the value is drawn
    /// dimmed with its age. nil: fresh.
    public var age: Double?
    /// The places its numbers are written to; nil: as many as show three significant digits
    /// (`NumberLine.automaticDecimals`).
    public var decimals: Int?

    /// Cool to warm, and none of the ring colours.
    public static let defaultTint = [Color(hex: 0x64D2FF), Color(hex: 0xFFD60A), Color(hex: 0xFF9F0A)]

    public init(
        style: GaugeStyle, value: Double?, minimum: Double = 0, maximum: Double = 100, title: String = "",
        unit: String = "", tint: [Color] = Gauge.defaultTint, age: Double? = nil, decimals: Int? = nil
    ) {
        self.age = age
        self.decimals = decimals.map { min(max($0, 0), 9) }
        self.style = style
        self.value = value
        self.minimum = minimum
        self.maximum = maximum
        self.title = title
        self.unit = unit
        self.tint = tint.isEmpty ? Gauge.defaultTint : tint
    }

    /// Where the value sits in the range, pinned to 0...1; nil without a value.
    public var fraction: Double? {
        guard let value, value.isFinite, maximum.isFinite, minimum.isFinite, maximum > minimum else { return nil }
        if value <= minimum { return 0 }
        if value >= maximum { return 1 }
        // Halved, so a range such as -1e308...1e308 cannot overflow to infinity (and 0/0 to NaN).
        let f = (value / 2 - minimum / 2) / (maximum / 2 - minimum / 2)
        return f.isFinite ? min(max(f, 0), 1) : 0
    }

    /// Whether the value lies outside the range (it is pinned to the end and its number shown).
    public var isOutOfRange: Bool {
        guard let value, value.isFinite else { return false }
        return value < minimum || value > maximum
    }

    /// A stale value (with one to show): dimmed, with its age.
    public var isStale: Bool { age != nil && value.map { $0.isFinite } == true }

    public var paint: ArcPaint {
        let n = tint.count
        return ArcPaint(stops: tint.enumerated().map { ArcPaint.Stop(n == 1 ? 0 : Double($0.offset) / Double(n - 1), $0.element) })
    }
}
