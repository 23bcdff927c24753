// What the panel does by itself: it dims and blanks without input, and turns its screens (a
// kiosk). The file declares them; the device's logic follows them.

/// How awake the panel is.
public enum IdleLevel: Sendable, Equatable {
    case awake
    /// Dimmed to a brightness 0...1.
    case dimmed(Double)
    /// Black, the backlight off or the output powered down.
    case blank
}

/// When the panel dims and blanks after the last input (the file's `idle`; its defaults are the
/// file's).
public struct IdleSchedule: Sendable, Equatable {
    /// Seconds without input before dimming; nil never dims.
    public var dimAfter: Double?
    /// Seconds without input before blanking; nil never blanks.
    public var blankAfter: Double?
    /// Brightness when dimmed, 0...1 of the awake brightness.
    public var dimLevel: Double

    public init(dimAfter: Double? = 60, blankAfter: Double? = 300, dimLevel: Double = 0.3) {
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
        let dim = dimAfter.flatMap { $0 > t ? $0 : nil }, blank = blankAfter.flatMap { $0 > t ? $0 : nil }
        guard let dim, let blank else { return dim ?? blank }
        return min(dim, blank)
    }

    /// The panel never dims nor blanks (`glance watch`, a kiosk): idleness need not be measured.
    public var neverIdles: Bool { dimAfter == nil && blankAfter == nil }
}

/// How screens turn by themselves (a kiosk; the file's `cycle`, its defaults the file's): what
/// `ScreenCycle` is made from.
public struct CycleRule: Sendable, Equatable {
    /// Seconds each screen stays.
    public var every: Double
    /// The screens turned through, in order; empty: every configured screen but progress.
    public var screens: [ScreenKind]
    /// Seconds the turning waits after the last input.
    public var pauseOnInput: Double

    public init(every: Double = 15, screens: [ScreenKind] = [], pauseOnInput: Double = 60) {
        self.every = every
        self.screens = screens
        self.pauseOnInput = pauseOnInput
    }
}
