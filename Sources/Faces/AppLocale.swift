/// The languages the screens speak.
public enum AppLocale: String, Sendable, CaseIterable {
    case english = "en"
    case simplifiedChinese = "zh-Hans"

    /// The locale for a `LANG`-style value (`zh_CN.UTF-8` → Simplified Chinese); English otherwise.
    public init(environment value: String?) {
        let v = (value ?? "").lowercased()
        if v.hasPrefix("zh") && !v.contains("tw") && !v.contains("hk") && !v.contains("hant") {
            self = .simplifiedChinese
        } else {
            self = .english
        }
    }

    /// The locale named on the command line or in the configuration (`en`, `zh-Hans`).
    public init?(name: String) {
        switch name.lowercased() {
        case "en", "en-us", "en-gb", "english": self = .english
        case "zh-hans", "zh", "zh-cn", "zh_cn", "zh-hans-cn": self = .simplifiedChinese
        default: return nil
        }
    }
}
