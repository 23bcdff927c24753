/// When the discovery is published again for Home Assistant's `online`: coalesced and paced.
/// Anyone who may publish to `homeassistant/status` can send `online` as often as they like; each
/// one answered with every configuration message made a flood of 14 for 1 and a bridge that grew
/// without end. Here any number of `online`s while one republish is pending are that one, and
/// republishes are at least `interval` apart: the first at once, the ones asked for meanwhile
/// once when the interval has passed.
struct RepublishPacing {
    let interval: Duration
    private(set) var last: Duration?
    private(set) var pending = false

    init(interval: Duration = .seconds(10)) {
        self.interval = interval
    }

    /// Asked for (an `online`).
    mutating func ask() { pending = true }

    /// Published (on connect, or as `due` said) at `now`.
    mutating func done(now: Duration) {
        last = now
        pending = false
    }

    /// Whether a republish is to be made now.
    func due(now: Duration) -> Bool {
        guard pending else { return false }
        guard let last else { return true }
        return now - last >= interval
    }

    /// When the pending republish is due (nil: none pending).
    var deadline: Duration? {
        guard pending else { return nil }
        return last.map { $0 + interval }
    }
}

/// Gauge values the store could not take (another process held its write lock longer than the
/// bridge's busy timeout): the latest per metric, tried again with a growing pause (0.25, 0.5,
/// 1, 2, 2 … s) until `limit` after the first failure, then given up (said once per value).
struct PendingValues {
    struct Value: Equatable {
        var topic: String
        var value: Double
        /// When the first try failed, and when the next is due.
        var since: Duration
        var next: Duration
        var tries: Int
    }

    let limit: Duration
    private(set) var values: [String: Value] = [:]

    init(limit: Duration = .seconds(30)) {
        self.limit = limit
    }

    static func pause(after tries: Int) -> Duration {
        .milliseconds(250 << min(max(tries - 1, 0), 3))
    }

    /// `value` for `metric` failed at `now` (a newer value replaces an older one, keeping when
    /// the first failed: the limit counts from there).
    mutating func failed(metric: String, topic: String, value: Double, now: Duration) {
        var v = values[metric] ?? Value(topic: topic, value: value, since: now, next: now, tries: 0)
        v.value = value
        v.topic = topic
        v.tries += 1
        v.next = now + Self.pause(after: v.tries)
        values[metric] = v
    }

    /// Written (or a newer value written directly): forgotten.
    mutating func written(metric: String) { values[metric] = nil }

    /// The values due at `now`, oldest failure first.
    func due(now: Duration) -> [(metric: String, value: Value)] {
        values.filter { $0.value.next <= now }.map { (metric: $0.key, value: $0.value) }
            .sorted { $0.value.since < $1.value.since || ($0.value.since == $1.value.since && $0.metric < $1.metric) }
    }

    /// Whether `value`, failed again at `now`, is past the limit.
    func expired(_ value: Value, now: Duration) -> Bool { now - value.since >= limit }

    var deadline: Duration? { values.values.map(\.next).min() }
}
