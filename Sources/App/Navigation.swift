import Activity
import Controls

/// Where the user is: which screen, which day, and what today is.
///
/// Pure: actions and the passing of midnight change it; the loop redraws when it changes.
public struct Navigation: Sendable, Equatable {
    public var screen: ScreenKind
    public var day: CalendarDay
    public var today: CalendarDay

    /// How far past today days can be browsed (they show empty rings).
    public static let daysAhead = 7

    public init(screen: ScreenKind, today: CalendarDay) {
        self.screen = screen
        day = today
        self.today = today
    }

    /// Applies `action`; `available` lists the screens that have something to show, in order.
    /// Returns whether anything changed. `select` moves to the next screen, `today` goes to
    /// today's rings; `cancel` is the progress screen's business, not navigation's.
    @discardableResult
    public mutating func apply(_ action: Action, available: [ScreenKind]) -> Bool {
        let before = self
        switch action {
        case .nextScreen, .select: step(1, available)
        case .previousScreen: step(-1, available)
        case .previousDay:
            if screen == .rings { day = day.adding(days: -1) }
        case .nextDay:
            if screen == .rings && day < today.adding(days: Self.daysAhead) { day = day.adding(days: 1) }
        case .today:
            day = today
            if available.contains(.rings) { screen = .rings }
        case .cancel, .refresh:
            break
        }
        return self != before
    }

    /// Keeps the screen one that has something to show (a task ended: its screen goes).
    @discardableResult
    public mutating func settle(available: [ScreenKind]) -> Bool {
        guard !available.contains(screen), let first = available.first else { return false }
        screen = first
        return true
    }

    /// Midnight passed: a view of "today" stays on today.
    @discardableResult
    public mutating func newDay(_ newToday: CalendarDay) -> Bool {
        guard newToday != today else { return false }
        if day == today { day = newToday }
        today = newToday
        return true
    }

    private mutating func step(_ direction: Int, _ available: [ScreenKind]) {
        guard !available.isEmpty else { return }
        if let i = available.firstIndex(of: screen) {
            screen = available[(i + direction + available.count) % available.count]
        } else {
            screen = available[0]
        }
    }
}

/// How awake the panel is.
public enum IdleLevel: Sendable, Equatable {
    case awake
    /// Dimmed to a brightness 0...1.
    case dimmed(Double)
    /// Black, the backlight off or the output powered down.
    case blank
}

/// When the panel dims and blanks after the last input.
public struct IdleSchedule: Sendable, Equatable {
    public var dimAfter: Double?
    public var blankAfter: Double?
    public var dimLevel: Double

    public init(dimAfter: Double?, blankAfter: Double?, dimLevel: Double) {
        self.dimAfter = dimAfter
        self.blankAfter = blankAfter
        self.dimLevel = dimLevel
    }

    public func level(idleFor t: Double) -> IdleLevel {
        if let b = blankAfter, t >= b { return .blank }
        if let d = dimAfter, t >= d { return .dimmed(dimLevel) }
        return .awake
    }

    /// Seconds of idleness at which the level next changes, if it will.
    public func nextChange(idleFor t: Double) -> Double? {
        [dimAfter, blankAfter].compactMap { $0 }.filter { $0 > t }.min()
    }
}
