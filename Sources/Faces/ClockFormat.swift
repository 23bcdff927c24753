/// How the panel writes the time: on a 24-hour clock, a 12-hour one, or not at all.
public enum ClockFormat: String, Sendable, CaseIterable {
    case twentyFourHour = "24h"
    case twelveHour = "12h"
    case off

    /// The way the language and region write the time (CLDR's short time): 12-hour for English
    /// as the United States, Canada, Australia, New Zealand, India and the Philippines write it
    /// (and for English without a region), 24-hour for English elsewhere and for Chinese.
    /// `environment` is the time locale's value (`en_GB.UTF-8`; LC_ALL, LC_TIME, LANG): its region
    /// counts when its language is the screens' language.
    public static func usual(for locale: AppLocale, environment: String?) -> ClockFormat {
        let value = (environment ?? "").split(separator: ".").first.map(String.init) ?? ""
        let parts = value.split(whereSeparator: { $0 == "_" || $0 == "-" }).map { $0.uppercased() }
        let language = parts.first?.lowercased() ?? ""
        switch locale {
        case .simplifiedChinese: return .twentyFourHour
        case .english:
            guard language == "en", parts.count > 1 else { return .twelveHour }
            return twelveHourRegions.contains(parts[1]) ? .twelveHour : .twentyFourHour
        }
    }

    static let twelveHourRegions: Set<String> = ["US", "CA", "AU", "NZ", "IN", "PH"]
}
