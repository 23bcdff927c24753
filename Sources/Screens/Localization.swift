import Activity

extension AppLocale {
    public var strings: Strings { Strings(locale: self) }
}

/// Every user-visible string and date format, per locale.
public struct Strings: Sendable {
    public let locale: AppLocale

    public var today: String { pick("Today", "今天") }
    public var yesterday: String { pick("Yesterday", "昨天") }
    public var tomorrow: String { pick("Tomorrow", "明天") }
    /// Shown for a missing figure or value.
    public var missing: String { "—" }
    public var cancel: String { pick("Cancel", "取消") }
    /// Where Cancel was, once stopping was asked for, until the task ends.
    public var cancelling: String { pick("Cancelling…", "正在取消…") }
    /// How old a stale value is: "· 40 s", "· 12 min", "· 3 h", "· 2 d" (under or after the
    /// value); seconds in tens, so the label changes at most every ten seconds.
    public func age(seconds: Double) -> String {
        let s = Self.ageShown(seconds)
        let (n, english, chinese): (Int, String, String) =
            s < 60 ? (s, "s", "秒") : s < 3600 ? (s / 60, "min", "分钟") : s < 86400 ? (s / 3600, "h", "小时") : (s / 86400, "d", "天")
        return "· " + pick("\(n) \(english)", "\(n) \(chinese)")
    }

    /// The age `age(seconds:)` writes, in whole seconds, rounded down to its label's step (tens
    /// of seconds, minutes, hours, days): the label changes when this does, in any language.
    public static func ageShown(_ seconds: Double) -> Int {
        let s = max(0, StoredTime.whole(seconds))
        return s < 60 ? s / 10 * 10 : s < 3600 ? s / 60 * 60 : s < 86400 ? s / 3600 * 3600 : s / 86400 * 86400
    }

    /// Seconds until `age(seconds:)`'s label changes.
    public static func nextAgeChange(_ seconds: Double) -> Double {
        let step: Double = seconds < 60 ? 10 : seconds < 3600 ? 60 : seconds < 86400 ? 3600 : 86400
        return step - seconds.truncatingRemainder(dividingBy: step)
    }

    /// The refresh control, when fetching fresh data failed.
    public var couldNotRefresh: String { pick("Could not refresh", "无法刷新") }
    /// The ring screen of a store with nothing in it yet: how to get data.
    public var noDataHint: String {
        pick("No data yet. Try glance demo-data", "还没有数据。试试 glance demo-data")
    }
    public var done: String { pick("Done", "完成") }
    public var working: String { pick("Working…", "正在处理…") }

    public func ringName(_ ring: Ring) -> String {
        switch ring {
        case .move: pick("MOVE", "活动")
        case .exercise: pick("EXERCISE", "锻炼")
        case .stand: pick("STAND", "站立")
        }
    }

    public func energyUnit(_ unit: EnergyUnit) -> String {
        switch unit {
        case .kilocalorie: pick("KCAL", "千卡")
        case .largeCalorie: pick("CAL", "大卡")
        case .kilojoule: pick("KJ", "千焦")
        }
    }

    public var minutesUnit: String { pick("MIN", "分钟") }
    public var stepsUnit: String { pick("STEPS", "步") }
    public var hoursUnit: String { pick("HRS", "小时") }

    /// Monday = 1 … Sunday = 7.
    public func weekday(_ day: Int) -> String {
        let english = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
        let chinese = ["星期一", "星期二", "星期三", "星期四", "星期五", "星期六", "星期日"]
        let i = min(max(day, 1), 7) - 1
        return pick(english[i], chinese[i])
    }

    /// One letter (or character) per weekday for the week strip.
    public func weekdayInitial(_ day: Int) -> String {
        let english = ["M", "T", "W", "T", "F", "S", "S"]
        let chinese = ["一", "二", "三", "四", "五", "六", "日"]
        let i = min(max(day, 1), 7) - 1
        return pick(english[i], chinese[i])
    }

    public func month(_ month: Int) -> String {
        let english = [
            "January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
            "November", "December",
        ]
        let i = min(max(month, 1), 12) - 1
        return pick(english[i], "\(i + 1)月")
    }

    /// "Wednesday, November 25" / "11月25日 星期三".
    public func date(_ day: CalendarDay) -> String {
        switch locale {
        case .english: "\(weekday(day.weekday)), \(month(day.month)) \(day.day)"
        case .simplifiedChinese: "\(day.month)月\(day.day)日 \(weekday(day.weekday))"
        }
    }

    /// "Nov 25" / "11月25日": the date alone, short.
    public func shortDate(_ day: CalendarDay) -> String {
        switch locale {
        case .english: "\(String(month(day.month).prefix(3))) \(day.day)"
        case .simplifiedChinese: "\(day.month)月\(day.day)日"
        }
    }

    /// "Today", "Yesterday", "Tomorrow" or the weekday: the big line of a day.
    public func dayTitle(_ day: CalendarDay, today: CalendarDay) -> String {
        switch today.days(since: day) {
        case 0: self.today
        case 1: yesterday
        case -1: tomorrow
        default: weekday(day.weekday)
        }
    }

    /// The date under the title: "November 25" / "11月25日", with the year when it is not this year's.
    public func dateLine(_ day: CalendarDay, today: CalendarDay) -> String {
        let sameYear = day.year == today.year
        switch locale {
        case .english: return "\(month(day.month)) \(day.day)" + (sameYear ? "" : ", \(day.year)")
        case .simplifiedChinese: return (sameYear ? "" : "\(day.year)年") + "\(day.month)月\(day.day)日"
        }
    }

    /// `dateLine` short: "Nov 25", "Nov 25, 2025" / "11月25日", "2025年11月25日".
    public func shortDateLine(_ day: CalendarDay, today: CalendarDay) -> String {
        let sameYear = day.year == today.year
        switch locale {
        case .english: return shortDate(day) + (sameYear ? "" : ", \(day.year)")
        case .simplifiedChinese: return dateLine(day, today: today)
        }
    }

    /// Short weekday: "Wed" / "周三".
    public func shortWeekday(_ day: Int) -> String {
        let chinese = ["周一", "周二", "周三", "周四", "周五", "周六", "周日"]
        let i = min(max(day, 1), 7) - 1
        return pick(String(weekday(day).prefix(3)), chinese[i])
    }

    /// One short line: "Today", "Yesterday", or "Wed, Nov 25" / "11月25日 周三".
    public func compactDayLabel(_ day: CalendarDay, today: CalendarDay) -> String {
        switch today.days(since: day) {
        case 0: return self.today
        case 1: return yesterday
        case -1: return tomorrow
        default:
            switch locale {
            case .english: return "\(shortWeekday(day.weekday)), \(shortDate(day))"
            case .simplifiedChinese: return "\(shortDate(day)) \(shortWeekday(day.weekday))"
            }
        }
    }

    /// "Sun, Nov 29" / "11月29日 周日": the date with its weekday, short.
    public func compactDate(_ day: CalendarDay) -> String {
        switch locale {
        case .english: "\(shortWeekday(day.weekday)), \(shortDate(day))"
        case .simplifiedChinese: "\(shortDate(day)) \(shortWeekday(day.weekday))"
        }
    }

    /// "Today", "Yesterday", or the weekday and date.
    public func dayLabel(_ day: CalendarDay, today: CalendarDay) -> String {
        switch today.days(since: day) {
        case 0: self.today
        case 1: yesterday
        case -1: tomorrow
        default: date(day)
        }
    }

    /// A percentage, rounded down so it reaches 100 only when done: "41%".
    public func percent(_ fraction: Double) -> String {
        let f = fraction.isNaN ? 0 : min(max(fraction, 0), 1)
        return "\(Int((f * 100).rounded(.down)))%"
    }

    private func pick(_ english: String, _ chinese: String) -> String {
        locale == .english ? english : chinese
    }
}
