/// At most `perSecond` requests a second from one address, with bursts of as many (and never of
/// less than one request, or none would ever pass): a token bucket per address. Pure: the server
/// says when; addresses silent for a minute are forgotten, and at most `capacity` are remembered
/// (the oldest goes).
public struct RateLimiter: Sendable {
    public let perSecond: Double
    public let capacity: Int
    private var buckets: [String: (tokens: Double, at: Double)] = [:]

    public init(perSecond: Double, capacity: Int = 4096) {
        self.perSecond = perSecond
        self.capacity = capacity
    }

    /// Whether a request from `address` at `now` (seconds, monotonic) may go ahead.
    public mutating func allow(_ address: String, now: Double) -> Bool {
        guard perSecond > 0 else { return true }
        let burst = max(1, perSecond)
        var bucket = buckets[address] ?? (burst, now)
        bucket.tokens = min(burst, bucket.tokens + max(0, now - bucket.at) * perSecond)
        bucket.at = now
        let allowed = bucket.tokens >= 1
        if allowed { bucket.tokens -= 1 }
        if buckets[address] == nil && buckets.count >= capacity { forget(now: now) }
        buckets[address] = bucket
        return allowed
    }

    /// Addresses remembered.
    public var count: Int { buckets.count }

    private mutating func forget(now: Double) {
        buckets = buckets.filter { now - $0.value.at < 60 }
        if buckets.count >= capacity, let oldest = buckets.min(by: { $0.value.at < $1.value.at })?.key {
            buckets[oldest] = nil
        }
    }
}

/// Whether two secrets are equal, in a time that depends on their lengths only (a wrong token
/// must not say how much of it was right).
public func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
    var difference = UInt8(a.count == b.count ? 0 : 1)
    let n = max(a.count, b.count)
    for i in 0..<n {
        let x = i < a.count ? a[i] : 0
        let y = i < b.count ? b[i] : 0
        difference |= x ^ y
    }
    return difference == 0
}
