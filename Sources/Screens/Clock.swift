import Activity

/// A time as drawn: the digits ("3:05", "15:05") and, on a 12-hour clock, the part of the day
/// ("PM", "下午"), which English writes after the digits and Chinese before them.
public struct ClockText: Sendable, Equatable {
    public var digits: String
    public var period: String?
    public var periodFirst: Bool

    /// On one line: "3:05 PM", "下午 3:05", "15:05".
    public var line: String {
        guard let period else { return digits }
        return periodFirst ? "\(period) \(digits)" : "\(digits) \(period)"
    }
}

/// The time a screen shows, and how it is written.
public struct ClockFace: Sendable, Equatable {
    public var time: TimeOfDay
    public var twelveHour: Bool

    public init(time: TimeOfDay, twelveHour: Bool) {
        self.time = time
        self.twelveHour = twelveHour
    }

    /// The face for `format`; nil when the clock is off.
    public init?(time: TimeOfDay, format: ClockFormat) {
        guard format != .off else { return nil }
        self.init(time: time, twelveHour: format == .twelveHour)
    }
}

extension Strings {
    /// "3:05 PM" / "下午 3:05" on a 12-hour clock; "15:05", "09:05" on a 24-hour one.
    public func clockText(_ face: ClockFace) -> ClockText {
        let t = face.time
        let minutes = (t.minute < 10 ? "0" : "") + "\(t.minute)"
        guard face.twelveHour else {
            return ClockText(digits: (t.hour < 10 ? "0" : "") + "\(t.hour):" + minutes, period: nil, periodFirst: false)
        }
        let hour = t.hour % 12 == 0 ? 12 : t.hour % 12
        let morning = t.hour < 12
        switch locale {
        case .english: return ClockText(digits: "\(hour):\(minutes)", period: morning ? "AM" : "PM", periodFirst: false)
        case .simplifiedChinese:
            return ClockText(digits: "\(hour):\(minutes)", period: morning ? "上午" : "下午", periodFirst: true)
        }
    }
}
