/// The numbers a gauge takes, from any source: at most 10^15 in magnitude (far beyond any
/// reading; small enough that no difference or ratio of two overflows), after its scale and offset.
public enum GaugeValue {
    public static let limit = 1e15

    /// `x × scale + offset`, or nil when that is not a finite number within `limit` (1e308 × 10 is
    /// infinite: refused, so the last good value stays rather than an "—").
    public static func scaled(_ x: Double, scale: Double = 1, offset: Double = 0) -> Double? {
        let y = x * scale + offset
        return y.isFinite && abs(y) <= limit ? y : nil
    }
}
