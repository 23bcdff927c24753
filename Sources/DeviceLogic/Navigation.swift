import Activity
import Controls

/// Where the user is: which screen and which of its pages, which day, and what today is.
///
/// Pure: actions and the passing of midnight change it; the loop redraws when it changes. A
/// screen in pages (a small or round panel's rings, then each figure; a grid of gauges a page at
/// a time) is stepped through page by page before the next screen, as the Watch's Activity app
/// turns its pages: two buttons, a tap or a swipe reach every page.
public struct Navigation: Sendable, Equatable {
    public var screen: ScreenKind {
        didSet { if screen != oldValue { page = 0 } }
    }
    public var day: CalendarDay
    public var today: CalendarDay
    /// The page of the screen shown, from 0 (past a screen's last: its last).
    public var page = 0

    /// How far past today days can be browsed (they show empty rings).
    public static let daysAhead = 7

    public init(screen: ScreenKind, today: CalendarDay) {
        self.screen = screen
        day = today
        self.today = today
    }

    /// Applies `action`; `available` lists the screens that have something to show, in order,
    /// and `pages` how many pages each has on the panel. Returns whether anything changed.
    /// `select` and `nextScreen` move to the next page, after a screen's last to the next screen;
    /// `previousScreen` back, to the previous screen's last page; `today` goes to today's rings,
    /// their first page; `cancel` is the progress screen's business, not navigation's. Another
    /// day keeps the page (Move's page of yesterday).
    @discardableResult
    public mutating func apply(_ action: Action, available: [ScreenKind], pages: (ScreenKind) -> Int = { _ in 1 }) -> Bool {
        let before = self
        switch action {
        case .nextScreen, .select:
            if page + 1 < pages(screen) {
                page += 1
            } else {
                step(1, available)
                page = 0
            }
        case .previousScreen:
            if page > 0 {
                page = min(page, pages(screen)) - 1
            } else {
                step(-1, available)
                page = max(0, pages(screen) - 1)
            }
        case .previousDay:
            if screen == .rings { day = day.adding(days: -1) }
        case .nextDay:
            if screen == .rings && day < today.adding(days: Self.daysAhead) { day = day.adding(days: 1) }
        case .today:
            day = today
            if available.contains(.rings) { screen = .rings }
            if screen == .rings { page = 0 }
        case .cancel, .refresh, .brighter, .darker, .help:
            break
        }
        return self != before
    }

    /// The next page of the screen shown where it has one (`pages`), else nil: what a turn of
    /// the cycle shows before the next screen.
    public func nextPage(pages: Int) -> Int? { page + 1 < pages ? page + 1 : nil }

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

/// Screens that turn by themselves (a kiosk): every `every` seconds the next of `screens` that
/// has something to show. Input pauses the turning for `pauseOnInput` seconds from the last
/// input; a running task (its progress screen) stops it while it runs.
///
/// Pure: the controller tells it what happened and asks it at its deadlines.
public struct ScreenCycle: Sendable, Equatable {
    public var every: Duration
    /// The screens turned through, in order; empty: every configured screen but progress.
    public var screens: [ScreenKind]
    public var pauseOnInput: Duration
    /// When the screen shown came up (by a turn, or by navigation).
    public private(set) var since: Duration
    public private(set) var lastInput: Duration?

    public init(every: Double, screens: [ScreenKind], pauseOnInput: Double, now: Duration) {
        self.every = .milliseconds(Int64((every * 1000).rounded()))
        self.screens = screens
        self.pauseOnInput = .milliseconds(Int64((pauseOnInput * 1000).rounded()))
        since = now
    }

    /// Turning by `rule` from `now`.
    public init(_ rule: CycleRule, now: Duration) {
        self.init(every: rule.every, screens: rule.screens, pauseOnInput: rule.pauseOnInput, now: now)
    }

    /// What it turns by.
    public var rule: CycleRule { CycleRule(every: every.inSeconds, screens: screens, pauseOnInput: pauseOnInput.inSeconds) }

    /// Input came: the turning waits until `pauseOnInput` after it.
    public mutating func input(at now: Duration) { lastInput = now }

    /// Another screen came up by other means (a button, a task that ended): it stays `every`.
    public mutating func shown(at now: Duration) { since = now }

    /// The screens to turn through among those with something to show (never progress: a task
    /// shows itself, and stops the turning).
    public func candidates(available: [ScreenKind]) -> [ScreenKind] {
        (screens.isEmpty ? available : screens.filter { available.contains($0) }).filter { $0 != .progress }
    }

    /// When the next turn is due: `every` after the screen came up, and not before the pause
    /// after the last input has passed.
    public var nextTurn: Duration {
        let afterInput = lastInput.map { $0 + pauseOnInput } ?? since
        return max(since + every, afterInput)
    }

    /// The screen to turn to at `now` from `current`; nil when it is not time yet, a task is
    /// running (`busy`), or there is nothing else to turn to. A turn counts from `now`.
    public mutating func turn(now: Duration, current: ScreenKind, available: [ScreenKind], busy: Bool) -> ScreenKind? {
        guard !busy, now >= nextTurn else { return nil }
        let list = candidates(available: available)
        guard !list.isEmpty else { return nil }
        let next: ScreenKind
        if let i = list.firstIndex(of: current) {
            next = list[(i + 1) % list.count]
        } else {
            next = list[0]
        }
        since = now
        return next == current ? nil : next
    }

    /// Whether there is anything to turn to (at least two screens, or one that is not shown).
    public func turns(current: ScreenKind, available: [ScreenKind]) -> Bool {
        let list = candidates(available: available)
        return list.count > 1 || (list.count == 1 && list[0] != current)
    }
}
