import Activity
import Controls

/// What a window of the schedule sets while it is in force; what it leaves nil (`.keep`) stays
/// the configuration's.
public struct ScheduledState: Sendable, Equatable {
    /// The awake brightness, a fraction of full; 0: off (dark, as when idle blanks it); nil: the
    /// configured one (or the one chosen with the keys).
    public var brightness: Double?
    /// The screens shown, in order; nil: the configured ones.
    public var screens: [ScreenKind]?
    /// The screens turning by themselves: the configured cycle (`.keep`), none (`.clear`), or this.
    public var cycle: FieldChange<CycleRule>

    public init(brightness: Double? = nil, screens: [ScreenKind]? = nil, cycle: FieldChange<CycleRule> = .keep) {
        self.brightness = brightness
        self.screens = screens
        self.cycle = cycle
    }

    /// The panel is to be dark.
    public var off: Bool { brightness == 0 }
}

/// A time window by the local clock: from `from` (minutes after midnight, 0..<1440) to `to`
/// (1...1440; at or before `from`: the next day's), on `days` (ISO weekdays, 1 = Monday, of the
/// day the window starts; empty: every day).
public struct ScheduleWindow: Sendable, Equatable {
    public var from: Int
    public var to: Int
    public var days: Set<Int>
    public var state: ScheduledState

    public init(from: Int, to: Int, days: Set<Int> = [], state: ScheduledState) {
        self.from = from
        self.to = to
        self.days = days
        self.state = state
    }

    /// Minutes the window lasts (a window that ends at or before it starts crosses midnight).
    var length: Int { to > from ? to - from : to + 1440 - from }

    /// Whether it covers the local minute `minute` (0..<1440) of `day`: started that day, or the
    /// day before and not yet over.
    func covers(day: CalendarDay, minute: Int) -> Bool {
        if minute >= from, minute < from + length, startsOn(day) { return true }
        return minute + 1440 < from + length && startsOn(day.adding(days: -1))
    }

    func startsOn(_ day: CalendarDay) -> Bool { days.isEmpty || days.contains(day.weekday) }
}

/// The household's hours: windows of the local clock that set the brightness, the screens and
/// the cycle. Outside every window the configuration's own settings hold; where windows overlap
/// the first in the list wins (whole: its members are not mixed with another's). An override (a
/// Home Assistant command, a touch waking the panel from a dark or dimmed window) replaces the
/// state in force until the schedule's next boundary, the next instant the windows alone change
/// it.
///
/// Pure: the instant (seconds since the Unix epoch) and the zone's offsets come in as values, so
/// midnight, the days of the week and both changes of daylight saving time are tested with a
/// made-up clock.
public struct Schedule: Sendable, Equatable {
    public var windows: [ScheduleWindow]

    public init(_ windows: [ScheduleWindow] = []) { self.windows = windows }

    /// How far ahead a boundary is looked for: a week and a day covers every window that has days.
    static let horizon: Int64 = 8 * 86400

    /// The window in force at the local wall time `local` (seconds since the epoch as the local
    /// clock reads them), its index; nil: none.
    public func window(atLocal local: Int64) -> Int? {
        let days = local.floorDivided(by: 86400)
        let day = CalendarDay(daysSinceEpoch: Int(days))
        let minute = Int((local - days * 86400) / 60)
        return windows.firstIndex { $0.covers(day: day, minute: minute) }
    }

    /// The window in force at `unix`.
    public func window(at unix: Int64, zone: some UTCOffsets) -> Int? {
        window(atLocal: unix + Int64(zone.utcOffset(at: unix)))
    }

    /// What the windows set at `unix` (outside them, nothing: the configuration's).
    public func state(at unix: Int64, zone: some UTCOffsets) -> ScheduledState {
        window(at: unix, zone: zone).map { windows[$0].state } ?? ScheduledState()
    }

    /// The first instant after `unix` at which the windows put another one in force (nil: none
    /// within the horizon: no windows, or one that never ends). A boundary whose local time does
    /// not exist (daylight saving time skips the hour) comes at the change itself; one that comes
    /// twice (the clock goes back) the first time, and again the second if the change brought
    /// back another window.
    public func nextBoundary(after unix: Int64, zone: some UTCOffsets) -> Int64? {
        guard !windows.isEmpty else { return nil }
        let start = window(at: unix, zone: zone)
        let end = unix + Self.horizon
        var t = unix
        segments: while t < end {
            let offset = Int64(zone.utcOffset(at: t))
            // The edges ahead on the local clock, on this offset, each with the window it puts in
            // force: one sweep over them (time linear in the windows, but for the sort), where
            // asking every window at every edge cost windows × edges.
            var sweep = EdgeSweep(windows, after: t + offset, through: end + offset + 86400)
            while let (edge, inForce) = sweep.next() {
                var candidate = edge - offset
                // The offset changed on the way: the change itself comes first.
                if Int64(zone.utcOffset(at: candidate)) != offset {
                    candidate = Self.change(after: t, before: candidate, from: offset, zone)
                    if window(at: candidate, zone: zone) != start { return candidate }
                    t = candidate
                    continue segments
                }
                if inForce != start { return candidate }
                t = candidate
                if t >= end { return nil }
            }
            return nil
        }
        return nil
    }

    /// The first instant in (after, before] whose offset is not `offset` (binary search: the
    /// zone's offset changes at most once between two edges).
    static func change(after: Int64, before: Int64, from offset: Int64, _ zone: some UTCOffsets) -> Int64 {
        var low = after, high = before
        while high - low > 1 {
            let mid = low + (high - low) / 2
            if Int64(zone.utcOffset(at: mid)) == offset { low = mid } else { high = mid }
        }
        return high
    }

    /// What is in force at `unix` given `override`, and until when (the next boundary).
    public func decide(at unix: Int64, zone: some UTCOffsets, override: ScheduleOverride?) -> Decision {
        let next = nextBoundary(after: unix, zone: zone)
        if let override, override.until.map({ unix < $0 }) ?? true {
            return Decision(state: override.state, overridden: true, window: window(at: unix, zone: zone), next: next)
        }
        return Decision(state: state(at: unix, zone: zone), overridden: false, window: window(at: unix, zone: zone), next: next)
    }

    /// An override of `state` made at `unix`: it lasts until the next boundary (none: until
    /// another override or a reload).
    public func override(_ state: ScheduledState, at unix: Int64, zone: some UTCOffsets) -> ScheduleOverride {
        ScheduleOverride(state: state, until: nextBoundary(after: unix, zone: zone))
    }

    /// What the schedule decided at an instant.
    public struct Decision: Sendable, Equatable {
        public var state: ScheduledState
        /// An override holds (not the windows).
        public var overridden: Bool
        /// The window in force by the clock (overridden or not); nil: none.
        public var window: Int?
        /// The next boundary (seconds since the epoch); nil: none ahead.
        public var next: Int64?
    }
}

/// The edges of a schedule's windows on the local clock in time order, each with the window in
/// force from it on (the first listed of those that cover it): the windows' spans over the days
/// in question, sorted once, and a heap of the windows open. Every local midnight is an edge too,
/// so no two edges are more than a day apart (a change of the zone's offset between two edges is
/// then found by one binary search, as it changes at most once a day).
struct EdgeSweep {
    /// (local time, window index, +1 opens / -1 closes; a midnight: index -1), by time.
    private var events: [(time: Int64, window: Int, step: Int8)] = []
    private var position = 0
    /// How many of each window's spans are open, and the open windows' indexes (a heap, closed
    /// ones taken off lazily).
    private var open: [Int]
    private var heap: [Int] = []

    init(_ windows: [ScheduleWindow], after local: Int64, through last: Int64) {
        open = Array(repeating: 0, count: windows.count)
        let first = local.floorDivided(by: 86400) - 1
        let final = max(first, last.floorDivided(by: 86400))
        events.reserveCapacity(Int(final - first + 1) * (windows.count * 2 + 1))
        for day in first...final {
            let calendarDay = CalendarDay(daysSinceEpoch: Int(day))
            events.append((day * 86400, -1, 0))
            for (i, window) in windows.enumerated() where window.startsOn(calendarDay) {
                let opens = day * 86400 + Int64(window.from) * 60
                events.append((opens, i, 1))
                events.append((opens + Int64(window.length) * 60, i, -1))
            }
        }
        events.sort { $0.time < $1.time }
        // Everything up to `local` opens and closes what is open there.
        while position < events.count, events[position].time <= local {
            apply(events[position])
            position += 1
        }
    }

    /// The next edge and the window in force from it (nil: none); nil after the last.
    mutating func next() -> (Int64, Int?)? {
        guard position < events.count else { return nil }
        let time = events[position].time
        while position < events.count, events[position].time == time {
            apply(events[position])
            position += 1
        }
        while let top = heap.first, open[top] == 0 { popHeap() }
        return (time, heap.first)
    }

    private mutating func apply(_ event: (time: Int64, window: Int, step: Int8)) {
        guard event.window >= 0 else { return }
        open[event.window] += Int(event.step)
        if event.step > 0, open[event.window] == 1 { pushHeap(event.window) }
    }

    private mutating func pushHeap(_ value: Int) {
        heap.append(value)
        var i = heap.count - 1
        while i > 0 {
            let parent = (i - 1) / 2
            guard heap[parent] > heap[i] else { break }
            heap.swapAt(parent, i)
            i = parent
        }
    }

    private mutating func popHeap() {
        heap.swapAt(0, heap.count - 1)
        heap.removeLast()
        var i = 0
        while true {
            let l = 2 * i + 1, r = l + 1
            var smallest = i
            if l < heap.count, heap[l] < heap[smallest] { smallest = l }
            if r < heap.count, heap[r] < heap[smallest] { smallest = r }
            guard smallest != i else { return }
            heap.swapAt(i, smallest)
            i = smallest
        }
    }
}

/// A state put in place of the schedule's until an instant (nil: no end).
public struct ScheduleOverride: Sendable, Equatable {
    public var state: ScheduledState
    public var until: Int64?

    public init(state: ScheduledState, until: Int64?) {
        self.state = state
        self.until = until
    }
}

extension Int64 {
    /// Division rounding towards minus infinity (times before the epoch have days too).
    func floorDivided(by d: Int64) -> Int64 {
        let q = self / d
        return (self % d != 0 && (self < 0) != (d < 0)) ? q - 1 : q
    }
}
