// The page's words in English and Simplified Chinese: one table, each phrase in both.

/// The page's language: the browser's first choice of the two (Accept-Language), or the one the
/// person picked (a cookie).
public enum WebLanguage: String, Sendable, CaseIterable {
    case english = "en"
    case chinese = "zh-Hans"

    /// `lang` of the page.
    public var tag: String { rawValue }

    /// The language `cookie` names, else the first of Accept-Language's that the page has
    /// (`zh`, `zh-CN`, `zh-Hans…`: Chinese), else English.
    public static func choose(acceptLanguage: String?, cookie: String?) -> WebLanguage {
        if let cookie, let chosen = WebLanguage(rawValue: cookie) { return chosen }
        guard let accept = acceptLanguage, accept.utf8.count <= 512 else { return .english }
        var best: (language: WebLanguage, q: Double)?
        for part in accept.split(separator: ",").prefix(32) {
            let fields = part.split(separator: ";")
            guard let tag = fields.first?.trimmingSpaces.lowercased() else { continue }
            var q = 1.0
            for field in fields.dropFirst() {
                let f = field.trimmingSpaces
                if f.hasPrefix("q="), let v = Double(f.dropFirst(2)) { q = v }
            }
            let language: WebLanguage?
            if tag == "zh" || tag.hasPrefix("zh-") {
                language = tag.hasPrefix("zh-tw") || tag.hasPrefix("zh-hk") || tag.hasPrefix("zh-hant") ? nil : .chinese
            } else if tag == "en" || tag.hasPrefix("en-") {
                language = .english
            } else {
                language = nil
            }
            if let language, q > 0, q > (best?.q ?? -1) { best = (language, q) }
        }
        return best?.language ?? .english
    }
}

extension Substring {
    var trimmingSpaces: Substring {
        var s = self
        while s.first == " " || s.first == "\t" { s = s.dropFirst() }
        while s.last == " " || s.last == "\t" { s = s.dropLast() }
        return s
    }
}

/// A phrase of the page's own, in each language.
public enum Phrase: CaseIterable, Sendable {
    case now, settings, gauges, schedule, goals, people, log, about, signOut
    case liveView, liveAlt, noPanel, screen, show, next, today, refresh, light, on, off, brightness, set, cycle
    case save, preview, remove, add, edit, cancel, saved, notSaved, rolledBack, problems, inFile, defaultValue, takes
    case signedOut, linkExpired, signIn, signInHow, language, thePanel, version, package, board, size, pixels, inches
    case distance, measured, unknown, logEmpty, noGauges, newGauge, goalsNow, goalsHistory
    case moveGoal, exerciseGoal, standGoal, stepsGoal, from, noPeople, showQR, qrShown, group, topLevel
    case noScript, preserved, badCSRF, previewOf, lastLines

    public func text(_ language: WebLanguage) -> String {
        let (en, zh) = pair
        return language == .chinese ? zh : en
    }

    var pair: (String, String) {
        switch self {
        case .now: ("Now", "当前")
        case .settings: ("Settings", "设置")
        case .gauges: ("Gauges", "仪表")
        case .schedule: ("Schedule", "日程")
        case .goals: ("Goals", "目标")
        case .people: ("People", "成员")
        case .log: ("Log", "日志")
        case .about: ("About", "关于")
        case .signOut: ("Sign out", "退出登录")
        case .liveView: ("What the panel shows", "面板当前显示")
        case .liveAlt: ("The panel's screen now", "面板当前的画面")
        case .noPanel: ("No running panel answers", "没有正在运行的面板响应")
        case .screen: ("Screen", "屏幕")
        case .show: ("Show", "显示")
        case .next: ("Next screen", "下一屏")
        case .today: ("Today", "今天")
        case .refresh: ("Refresh data", "刷新数据")
        case .light: ("Light", "背光")
        case .on: ("On", "开")
        case .off: ("Off", "关")
        case .brightness: ("Brightness (%)", "亮度（%）")
        case .set: ("Set", "设定")
        case .cycle: ("Turn the screens", "自动轮换屏幕")
        case .save: ("Save", "保存")
        case .preview: ("Preview", "预览")
        case .remove: ("Remove", "删除")
        case .add: ("Add", "添加")
        case .edit: ("Edit", "编辑")
        case .cancel: ("Cancel", "取消")
        case .saved: ("Saved: the panel shows the new settings.", "已保存：面板已使用新设置。")
        case .notSaved: ("Not saved", "未保存")
        case .rolledBack: ("the panel refused the new file", "面板拒绝了新文件")
        case .problems: ("Problems", "问题")
        case .inFile: ("set in the file", "在文件中设定")
        case .defaultValue: ("default", "默认值")
        case .takes: ("Takes", "取值")
        case .signedOut: ("You are signed out.", "您已退出登录。")
        case .linkExpired: ("This link was used already or has expired.", "此链接已被使用或已过期。")
        case .signIn: ("Sign in", "登录")
        case .signInHow:
            (
                "Sign in with a one-time link: run glance web link on the board (it shows the link as a QR code on the panel with --panel), then open it on this device.",
                "请使用一次性链接登录：在设备上运行 glance web link（加 --panel 会在面板上显示二维码），然后在本设备上打开该链接。"
            )
        case .language: ("中文", "English")
        case .thePanel: ("The panel", "面板")
        case .version: ("Version", "版本")
        case .package: ("Package", "软件包")
        case .board: ("Board", "主板")
        case .size: ("Size", "尺寸")
        case .pixels: ("pixels", "像素")
        case .inches: ("inch diagonal", "英寸对角线")
        case .distance: ("Viewing distance", "观看距离")
        case .measured: ("Measured by", "测量来源")
        case .unknown: ("unknown", "未知")
        case .logEmpty: ("No lines (is the journal readable by this service?)", "没有日志行（此服务能读取日志吗？）")
        case .noGauges: ("No gauges yet.", "还没有仪表。")
        case .newGauge: ("A new gauge", "新仪表")
        case .goalsNow: ("Goals from today", "从今天起的目标")
        case .goalsHistory: ("Earlier goals", "以前的目标")
        case .moveGoal: ("Move (kcal)", "活动（千卡）")
        case .exerciseGoal: ("Exercise (min)", "锻炼（分钟）")
        case .standGoal: ("Stand (hours)", "站立（小时）")
        case .stepsGoal: ("Steps", "步数")
        case .from: ("from", "起始")
        case .noPeople: ("Only one person: glance people add NAME adds others.", "只有一位成员：glance people add 名字 可以添加。")
        case .showQR: ("Show their phone's QR code on the panel", "在面板上显示其手机的二维码")
        case .qrShown: ("The QR code is on the panel.", "二维码已显示在面板上。")
        case .group: ("Group", "分组")
        case .topLevel: ("Top level", "顶层")
        case .noScript: ("Without script, reload the page to see the panel again.", "未启用脚本时，请刷新页面以查看面板。")
        case .preserved: ("Only what you change is written: the rest of the file stays as it is, its order and spacing too.", "只写入您更改的设置：文件的其余部分（包括顺序和空格）保持原样。")
        case .badCSRF: ("The form is out of date: open the page again.", "表单已过期：请重新打开页面。")
        case .previewOf: ("Preview of the new settings", "新设置的预览")
        case .lastLines: ("The last lines of the services' journals", "各服务日志的最后几行")
        }
    }
}

/// What a save says, once, on the page it leads to.
public enum SaveNotice {
    /// Written and read by the panel.
    public static func saved(_ language: WebLanguage) -> String { Phrase.saved.text(language) }

    /// Written, with no panel to read it: why none answered.
    public static func savedWithoutPanel(_ why: String, _ language: WebLanguage) -> String {
        language == .chinese
            ? "已保存。没有正在运行的面板响应（\(why)）：面板启动时会读取该文件。"
            : "Saved. No running panel answered (\(why)): it takes the file when it starts."
    }

    /// Not written: why.
    public static func notWritten(_ why: String, _ language: WebLanguage) -> String {
        Phrase.notSaved.text(language) + (language == .chinese ? "：" : ": ") + why
    }

    /// Written, refused by the panel (`why`), and the previous file put back.
    public static func rolledBack(_ why: String, _ language: WebLanguage) -> String {
        language == .chinese
            ? "未保存：\(Phrase.rolledBack.text(language))（\(why)），已恢复原来的文件。"
            : "Not saved: \(Phrase.rolledBack.text(language)) (\(why)), so the previous one is back."
    }

    /// Refused by the panel, and the previous file could not be put back either.
    public static func notPutBack(_ why: String, _ reason: String, _ language: WebLanguage) -> String {
        language == .chinese
            ? "未保存：\(why)；原来的文件也无法恢复：\(reason)"
            : "Not saved: \(why); and the previous file could not be put back: \(reason)"
    }
}
