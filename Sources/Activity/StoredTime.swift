/// Times as the store holds them (seconds since 1970, any Int64: something other than Glance may
/// have written 2^63 − 1) turned into what the app computes with, by one conversion that cannot
/// trap: a moment within the years 1 to 9999, an age in whole seconds.
public enum StoredTime {
    /// 0001-01-01T00:00:00Z and 9999-12-31T23:59:59Z, in seconds since 1970.
    public static let earliest: Double = -62_135_596_800
    public static let latest: Double = 253_402_300_799

    /// `stored` as seconds since 1970, clamped into the years 1 to 9999: any difference with the
    /// clock (an age, a deadline) is then a few times 10^11 seconds at most.
    public static func seconds(_ stored: Int64) -> Double {
        min(max(Double(stored), earliest), latest)
    }

    /// `seconds` (an age, an interval: any Double) in whole seconds, rounded down, within
    /// ±(latest − earliest); NaN is 0.
    public static func whole(_ seconds: Double) -> Int {
        guard !seconds.isNaN else { return 0 }
        let span = latest - earliest
        return Int(min(max(seconds, -span), span).rounded(.down))
    }
}
