// The device's controls as the rest of the program speaks of them: what a button or gesture asks
// for, which screens there are to move between, and how a touch panel's axes lie. Plain values
// with no dependencies, so that Input (which turns key codes and touches into them), Configuration
// (which reads them from the file) and App (which acts on them) share them without importing
// each other.

/// What a button or gesture asks for.
public enum Action: String, Sendable, CaseIterable, Hashable {
    case nextScreen, previousScreen, previousDay, nextDay, today, select, cancel
    /// Fresh data now: the configuration's refresh commands run (a pull down on the screen).
    case refresh
    /// The panel brighter or darker by a step (kept across restarts).
    case brighter, darker
    /// What each button does, shown over the screen until the next input (two buttons held
    /// together, or KEY_HELP).
    case help

    /// What a long press does, by the action of the key's short press: with two buttons (Left,
    /// Enter) or three (and Right) every action is a press or a hold away. Holding Left refreshes,
    /// holding Enter or Right goes to today; on the progress screen any long press cancels the
    /// task (the controller's rule), and two buttons held together show the help.
    public static let defaultLongPress: [Action: Action] = [.select: .today, .previousDay: .refresh, .nextDay: .today]
}

/// The screens the device can show, in the order the configuration lists them.
public enum ScreenKind: String, Sendable, CaseIterable, Hashable {
    case rings, gauges, progress
    /// The time, the date and the day's rings small (a wrist's face); shown only where listed.
    case clock
    /// The household's rings, everyone's today (`glance people`); shown only where listed.
    case family
    /// The household's competition: its standings and today's points; shown only where listed.
    case competition

    /// The screens shown when the configuration lists none.
    public static let standard: [ScreenKind] = [.rings, .gauges, .progress]
}

/// How a touch panel's axes lie against the panel, before its rotation: swapped, and each
/// running the other way.
public struct TouchSetting: Sendable, Equatable {
    public var swapXY = false
    public var invertX = false
    public var invertY = false

    public init(swapXY: Bool = false, invertX: Bool = false, invertY: Bool = false) {
        self.swapXY = swapXY
        self.invertX = invertX
        self.invertY = invertY
    }
}
