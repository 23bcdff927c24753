// The page's HTML: server-made, one column, every control a form that works without script
// (POST, then a 303 to the page), every control labelled. The live view's script (`script`) only
// swaps the frame when it changes.
import Activity
import Configuration
import Controls
import JSON

/// What every page is made with: its language, the session's CSRF token, a notice to say once.
public struct PageContext: Sendable {
    public var language: WebLanguage
    public var csrf: String
    public var notice: WebSession.Notice?

    public init(language: WebLanguage, csrf: String, notice: WebSession.Notice? = nil) {
        self.language = language
        self.csrf = csrf
        self.notice = notice
    }

    func t(_ phrase: Phrase) -> String { phrase.text(language) }
}

/// Where a page is in the menu.
public enum WebSection: String, CaseIterable, Sendable {
    case now = "/"
    case settings = "/settings"
    case gauges = "/gauges"
    case schedule = "/schedule"
    case goals = "/goals"
    case people = "/people"
    case log = "/log"
    case about = "/about"

    var phrase: Phrase {
        switch self {
        case .now: .now
        case .settings: .settings
        case .gauges: .gauges
        case .schedule: .schedule
        case .goals: .goals
        case .people: .people
        case .log: .log
        case .about: .about
        }
    }
}

public enum WebPages {
    // MARK: The shell

    /// A whole page: the menu, the notice, `body`.
    public static func page(_ section: WebSection?, title: String, body: String, context: PageContext, refresh: Int? = nil) -> String {
        let t = context.t
        var out = "<!doctype html>\n<html lang=\"\(context.language.tag)\"><head><meta charset=\"utf-8\">"
        out += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"><meta name=\"color-scheme\" content=\"dark\">"
        out += "<title>\(html(title)) · Glance</title><link rel=\"stylesheet\" href=\"/style.css\">"
        if section == .now { out += "<script src=\"/live.js\" defer></script>" }
        if let refresh { out += "<noscript><meta http-equiv=\"refresh\" content=\"\(refresh)\"></noscript>" }
        out += "</head><body>"
        if section != nil {
            out += "<header><nav aria-label=\"Glance\"><ul>"
            for s in WebSection.allCases {
                let current = s == section ? " aria-current=\"page\"" : ""
                out += "<li><a href=\"\(s.rawValue)\"\(current)>\(html(t(s.phrase)))</a></li>"
            }
            let other: WebLanguage = context.language == .english ? .chinese : .english
            out += "<li><a href=\"/language?to=\(other.tag)\" lang=\"\(other.tag)\">\(html(t(.language)))</a></li>"
            out += "</ul></nav>"
            out += "<form method=\"post\" action=\"/signout\" class=\"signout\">\(csrfField(context))"
            out += "<button type=\"submit\">\(html(t(.signOut)))</button></form></header>"
        }
        out += "<main><h1>\(html(title))</h1>"
        if let notice = context.notice {
            out += "<p class=\"notice \(notice.good ? "good" : "bad")\" role=\"status\">\(html(notice.text))</p>"
        }
        out += body + "</main></body></html>\n"
        return out
    }

    static func csrfField(_ context: PageContext) -> String {
        "<input type=\"hidden\" name=\"csrf\" value=\"\(html(context.csrf))\">"
    }

    /// A form posting to `action`, with the CSRF token.
    static func form(_ action: String, _ context: PageContext, class name: String = "", _ inner: String) -> String {
        "<form method=\"post\" action=\"\(action)\"\(name.isEmpty ? "" : " class=\"\(name)\"")>\(csrfField(context))\(inner)</form>"
    }

    static func button(_ text: String, name: String? = nil, value: String? = nil, primary: Bool = false) -> String {
        "<button type=\"submit\"" + (name.map { " name=\"\(html($0))\"" } ?? "") + (value.map { " value=\"\(html($0))\"" } ?? "")
            + (primary ? " class=\"primary\"" : "") + ">\(html(text))</button>"
    }

    // MARK: Signing in

    /// The page of a browser not signed in.
    public static func signIn(expired: Bool, signedOut: Bool, language: WebLanguage) -> String {
        let context = PageContext(language: language, csrf: "")
        var body = ""
        if expired { body += "<p class=\"notice bad\" role=\"alert\">\(html(context.t(.linkExpired)))</p>" }
        if signedOut { body += "<p class=\"notice good\" role=\"status\">\(html(context.t(.signedOut)))</p>" }
        body += "<p>\(html(context.t(.signInHow)))</p>"
        return page(nil, title: context.t(.signIn), body: body, context: context)
    }

    // MARK: Now

    /// The frame now: its size and its ETag (the live view asks for it again with it).
    public struct Frame: Sendable, Equatable {
        public var width: Int
        public var height: Int
        public var etag: String
        public init(width: Int, height: Int, etag: String) {
            self.width = width
            self.height = height
            self.etag = etag
        }
    }

    /// What the panel shows, live, and its controls.
    public static func now(state: PanelState?, stateLine: String?, frame: Frame?, problem: String?, context: PageContext) -> String {
        let t = context.t
        var body = ""
        if let frame {
            body += "<figure class=\"live\"><img id=\"live\" src=\"/frame.png?v=\(urlQueryValue(frame.etag))\" data-etag=\"\(html(frame.etag))\" "
            body += "width=\"\(frame.width)\" height=\"\(frame.height)\" alt=\"\(html(t(.liveAlt)))\">"
            body += "<figcaption id=\"state\">\(html(stateLine ?? ""))</figcaption></figure>"
            body += "<noscript><p class=\"help\">\(html(t(.noScript)))</p></noscript>"
        } else {
            body += "<p class=\"notice bad\" role=\"alert\">\(html(t(.noPanel)))\(problem.map { ": " + html($0) } ?? "")</p>"
        }
        guard let state else { return page(.now, title: t(.liveView), body: body, context: context, refresh: 10) }
        // The screens.
        var screens = "<label for=\"screen\">\(html(t(.screen)))</label><div class=\"row\"><select id=\"screen\" name=\"screen\">"
        for kind in state.screens {
            screens += "<option value=\"\(kind.rawValue)\"\(kind == state.screen ? " selected" : "")>\(html(kind.rawValue))</option>"
        }
        screens += "</select>" + button(t(.show), name: "action", value: "show", primary: true) + "</div>"
        body += "<section aria-labelledby=\"h-screen\"><h2 id=\"h-screen\">\(html(t(.screen)))</h2>"
        body += form("/do", context, screens)
        body += form(
            "/do", context, class: "buttons",
            button(t(.next), name: "action", value: "next") + button(t(.today), name: "action", value: "today")
                + button(t(.refresh), name: "action", value: "refresh"))
        if let cycle = state.cycle {
            body += form(
                "/do", context, class: "buttons",
                "<input type=\"hidden\" name=\"to\" value=\"\(cycle ? "off" : "on")\">"
                    + button("\(t(.cycle)): \(t(cycle ? .on : .off)) → \(t(cycle ? .off : .on))", name: "action", value: "cycle"))
        }
        body += "</section>"
        // The light.
        body += "<section aria-labelledby=\"h-light\"><h2 id=\"h-light\">\(html(t(.light)))</h2>"
        body += form(
            "/do", context, class: "buttons",
            "<input type=\"hidden\" name=\"to\" value=\"\(state.light ? "off" : "on")\">"
                + button("\(t(.light)): \(t(state.light ? .on : .off)) → \(t(state.light ? .off : .on))", name: "action", value: "light"))
        if state.dimmable {
            body += form(
                "/do", context,
                "<label for=\"brightness\">\(html(t(.brightness)))</label><div class=\"row\">"
                    + "<input id=\"brightness\" name=\"value\" type=\"number\" inputmode=\"numeric\" min=\"1\" max=\"100\" step=\"1\" value=\"\(state.brightness)\">"
                    + button(t(.set), name: "action", value: "brightness") + "</div>")
        }
        body += "</section>"
        return page(.now, title: t(.liveView), body: body, context: context)
    }

    // MARK: Settings

    /// A group's settings as a form: each field with its help, what it takes, its default; the
    /// values `typed` (a refused save's) over the file's.
    public static func settings(
        group: SettingGroup, file: ConfigText, typed: [String: String] = [:], problems: [String: String] = [:],
        general: [String] = [], preview: String? = nil, context: PageContext
    ) -> String {
        let t = context.t
        var body = "<nav aria-label=\"\(html(t(.group)))\" class=\"groups\"><ul>"
        let chinese = context.language == .chinese
        for g in SettingGroup.all {
            let name = g.id == "top" ? t(.topLevel) : chinese ? SettingsChinese.group(g)?.title ?? g.title : g.title
            body += "<li><a href=\"/settings?group=\(urlQueryValue(g.id))\"\(g.id == group.id ? " aria-current=\"true\"" : "")>\(html(name))</a></li>"
        }
        body += "</ul></nav>"
        let groupHelp = chinese ? SettingsChinese.group(group)?.help ?? group.help : group.help
        if !groupHelp.isEmpty { body += "<p class=\"help\">\(html(groupHelp))</p>" }
        body += problemList(general, context)
        if let preview { body += previewFigure(preview, context) }
        var fields = "<input type=\"hidden\" name=\"group\" value=\"\(html(group.id))\">"
        for field in group.fields {
            let inFile = file.value(at: field.steps.map { .key($0) })
            let value = inFile.flatMap { try? JSONParser.parse($0) } ?? field.defaultValue
            fields += fieldHTML(field, id: "f-" + field.key, text: typed[field.key] ?? field.inputText(value), inFile: inFile != nil,
                problem: problems[field.key], context: context)
        }
        fields += "<p class=\"help\">\(html(t(.preserved)))</p>"
        fields += "<div class=\"buttons\">" + button(t(.save), name: "do", value: "save", primary: true)
            + button(t(.preview), name: "do", value: "preview") + "</div>"
        body += form("/settings", context, fields)
        let groupTitle = chinese ? SettingsChinese.group(group)?.title ?? group.title : group.title
        let title = t(.settings) + (group.id == "top" ? "" : (chinese ? "：" : ": ") + groupTitle)
        return page(.settings, title: title, body: body, context: context)
    }

    static func problemList(_ problems: [String], _ context: PageContext) -> String {
        guard !problems.isEmpty else { return "" }
        return "<div class=\"notice bad\" role=\"alert\"><p>\(html(context.t(.problems)))</p><ul>"
            + problems.map { "<li>\(html($0))</li>" }.joined() + "</ul></div>"
    }

    static func previewFigure(_ source: String, _ context: PageContext) -> String {
        "<figure class=\"live\"><img src=\"\(html(source))\" alt=\"\(html(context.t(.previewOf)))\"><figcaption>\(html(context.t(.previewOf)))</figcaption></figure>"
    }

    /// One field: its label (the key), its control, its help (what it takes, its default, whether
    /// the file sets it; in Chinese on a Chinese page where SettingsChinese has it), its problem.
    /// (`gauge`: a gauge's field, whose help is kept apart from the file's settings.)
    static func fieldHTML(
        _ field: SettingField, id: String, text: String, inFile: Bool, problem: String?, gauge: Bool = false, context: PageContext
    ) -> String {
        let t = context.t
        let help = "h-" + id
        let invalid = problem == nil ? "" : " aria-invalid=\"true\""
        var out = "<div class=\"field\"><label for=\"\(html(id))\">\(html(field.key))</label>"
        let described = " aria-describedby=\"\(html(help))\(problem == nil ? "" : " e-" + html(id))\"\(invalid)"
        switch field.kind {
        case .bool, .choice:
            let words: [String]
            if case .choice(let w, _) = field.kind { words = w } else { words = ["true", "false"] }
            out += "<select id=\"\(html(id))\" name=\"\(html(field.name))\"\(described)>"
            if field.nullable { out += "<option value=\"\"\(text.isEmpty ? " selected" : "")>(\(html(t(.defaultValue))))</option>" }
            for w in words { out += "<option value=\"\(html(w))\"\(w == text ? " selected" : "")>\(html(w))</option>" }
            out += "</select>"
        case .number:
            out += "<input id=\"\(html(id))\" name=\"\(html(field.name))\" type=\"text\" inputmode=\"decimal\" value=\"\(html(text))\"\(described)>"
        case .text:
            out += "<input id=\"\(html(id))\" name=\"\(html(field.name))\" type=\"text\" value=\"\(html(text))\"\(described)>"
        case .json:
            let rows = min(12, max(2, text.split(separator: "\n").count + 1))
            out += "<textarea id=\"\(html(id))\" name=\"\(html(field.name))\" rows=\"\(rows)\" spellcheck=\"false\"\(described)>\(html(text))</textarea>"
        }
        let sentence = helpSentence(
            field.help, chinese: SettingsChinese.help(field, gauge: gauge), takes: field.expected,
            defaultText: field.defaultText, context: context)
        out += "<p class=\"help\" id=\"\(html(help))\">\(sentence)\(inFile ? " · " + html(t(.inFile)) : "")</p>"
        if let problem { out += "<p class=\"error\" id=\"e-\(html(id))\" role=\"alert\">\(html(problem))</p>" }
        return out + "</div>"
    }

    // MARK: Gauges

    /// The gauges of the file, each with its edit and remove, and a form for a new one (`editing`:
    /// the index whose fields are open, or `gauges.count` for a new one).
    public static func gauges(
        file: ConfigText, editing: Int?, typed: [String: String] = [:], problems: [String: String] = [:], general: [String] = [],
        context: PageContext
    ) -> String {
        let t = context.t
        var body = problemList(general, context)
        var items: [JSON] = []
        if let text = file.value(at: [.key("gauges")]), case .array(let list)? = try? JSONParser.parse(text) { items = list }
        if items.isEmpty { body += "<p>\(html(t(.noGauges)))</p>" }
        body += "<ol class=\"gauges\">"
        for (i, item) in items.enumerated() {
            let title = item["title"].flatMap { if case .string(let s) = $0 { s } else { nil } } ?? ""
            body += "<li><p><strong>\(html(title.isEmpty ? "(\(i + 1))" : title))</strong> <code>\(html(item["source"]?.settingText ?? ""))</code></p>"
            if editing == i {
                body += gaugeForm(index: i, item: item, typed: typed, problems: problems, context: context)
            } else {
                body += "<div class=\"buttons\"><a class=\"button\" href=\"/gauges?edit=\(i)\">\(html(t(.edit)))</a>"
                body += form(
                    "/gauges", context, class: "inline",
                    "<input type=\"hidden\" name=\"index\" value=\"\(i)\">" + button(t(.remove), name: "do", value: "remove"))
                body += "</div>"
            }
            body += "</li>"
        }
        body += "</ol><h2>\(html(t(.newGauge)))</h2>"
        body += gaugeForm(index: nil, item: nil, typed: editing == items.count ? typed : [:], problems: editing == items.count ? problems : [:],
            context: context)
        return page(.gauges, title: t(.gauges), body: body, context: context)
    }

    static func gaugeForm(index: Int?, item: JSON?, typed: [String: String], problems: [String: String], context: PageContext) -> String {
        let t = context.t
        var fields = index.map { "<input type=\"hidden\" name=\"index\" value=\"\($0)\">" } ?? ""
        let prefix = index.map { "g\($0)-" } ?? "new-"
        for field in GaugeFields.all {
            let value = item?[field.key] ?? (index == nil && field.key == "source" ? nil : field.defaultValue)
            fields += fieldHTML(field, id: prefix + field.key, text: typed[field.key] ?? field.inputText(value), inFile: item?[field.key] != nil,
                problem: problems[field.key], gauge: true, context: context)
        }
        fields += "<div class=\"buttons\">" + button(index == nil ? t(.add) : t(.save), name: "do", value: index == nil ? "add" : "edit", primary: true)
        if index != nil { fields += "<a class=\"button\" href=\"/gauges\">\(html(t(.cancel)))</a>" }
        return form("/gauges", context, fields + "</div>")
    }

    // MARK: Schedule and cycle

    public static func schedule(
        file: ConfigText, typed: [String: String] = [:], problems: [String: String] = [:], general: [String] = [],
        preview: String? = nil, context: PageContext
    ) -> String {
        let t = context.t
        var body = problemList(general, context)
        if let preview { body += previewFigure(preview, context) }
        var fields = ""
        for field in scheduleFields {
            let inFile = file.value(at: [.key(field.key)])
            let value = inFile.flatMap { try? JSONParser.parse($0) } ?? field.defaultValue
            fields += fieldHTML(field, id: "f-" + field.key, text: typed[field.key] ?? pretty(value), inFile: inFile != nil,
                problem: problems[field.key], context: context)
        }
        fields += "<div class=\"buttons\">" + button(t(.save), name: "do", value: "save", primary: true)
            + button(t(.preview), name: "do", value: "preview") + "</div>"
        body += form("/schedule", context, fields)
        // What a window and the cycle are made of (the settings' pages' tables, as a list).
        for path in memberPaths {
            body += "<h2>\(html(path))</h2>" + membersHTML(Configuration.members(of: path), of: path, context: context)
        }
        return page(.schedule, title: t(.schedule), body: body, context: context)
    }

    /// The objects inside the schedule's fields the page lists the members of (a window, the cycle).
    public static let memberPaths = ["schedule[]", "cycle"]

    /// A setting's or a member's help, what it takes and its default, as escaped HTML in the page's
    /// language: "help. Takes: …. Default: …", or on a Chinese page its Chinese where
    /// SettingsChinese has them (the English where it has not; `chinese`, the help's, is asked for
    /// only there).
    static func helpSentence(
        _ help: String, chinese: @autoclosure () -> String?, takes: String, defaultText: String, context: PageContext
    ) -> String {
        let t = context.t
        guard context.language == .chinese else {
            return "\(html(help)). \(html(t(.takes))): \(html(takes)). "
                + "\(html(t(.defaultValue))): \(html(defaultText))"
        }
        let zhTakes = SettingsChinese.expected(takes) ?? takes
        let zhDefault = SettingsChinese.defaultText(defaultText) ?? defaultText
        return "\(html(chinese() ?? help))。\(html(t(.takes)))：\(html(zhTakes))。"
            + "\(html(t(.defaultValue)))：\(html(zhDefault))"
    }

    /// The members of the object at `path` as a list: each one's key, help, what it takes and its
    /// default (in Chinese on a Chinese page where SettingsChinese has them, as a field's).
    static func membersHTML(_ members: [MemberHelp], of path: String, context: PageContext) -> String {
        var out = "<dl class=\"about\">"
        for member in members {
            out += "<dt><code>\(html(member.key))</code></dt>"
            let sentence = helpSentence(
                member.help, chinese: SettingsChinese.help(member, of: path), takes: member.expected,
                defaultText: member.defaultText, context: context)
            out += "<dd>\(sentence)</dd>"
        }
        return out + "</dl>"
    }

    /// The schedule's and the cycle's fields (each a JSON text).
    public static let scheduleFields: [SettingField] = {
        let defaults = Configuration()
        return ["schedule", "cycle"].compactMap { key in
            Configuration.settings.first { $0.key == key }.map { s in
                var field = SettingField(s, key: key, defaults: defaults)
                field.kind = .json
                return field
            }
        }
    }()

    /// A list or an object a member a line, so a textarea reads well.
    static func pretty(_ value: JSON?) -> String {
        guard let value else { return "" }
        switch value {
        case .array(let items) where !items.isEmpty: return "[\n" + items.map { "  " + $0.settingText }.joined(separator: ",\n") + "\n]"
        default: return value.settingText
        }
    }

    // MARK: Goals

    /// A period of goals as the page shows it.
    public struct GoalRow: Sendable, Equatable {
        public var start: String
        public var move: String
        public var exercise: String
        public var stand: String
        public var steps: String
        public init(start: String, move: String, exercise: String, stand: String, steps: String) {
            self.start = start
            self.move = move
            self.exercise = exercise
            self.stand = stand
            self.steps = steps
        }
    }

    public static func goals(now: GoalRow, history: [GoalRow], problems: [String] = [], context: PageContext) -> String {
        let t = context.t
        var body = problemList(problems, context)
        var fields = ""
        for (name, phrase, value) in [
            ("move", Phrase.moveGoal, now.move), ("exercise", .exerciseGoal, now.exercise), ("stand", .standGoal, now.stand),
            ("steps", .stepsGoal, now.steps),
        ] {
            fields += "<div class=\"field\"><label for=\"g-\(name)\">\(html(t(phrase)))</label>"
            fields += "<input id=\"g-\(name)\" name=\"\(name)\" type=\"text\" inputmode=\"decimal\" value=\"\(html(value))\"></div>"
        }
        fields += "<div class=\"buttons\">" + button(t(.save), name: "do", value: "save", primary: true) + "</div>"
        body += "<h2>\(html(t(.goalsNow)))</h2>" + form("/goals", context, fields)
        if !history.isEmpty {
            body += "<h2>\(html(t(.goalsHistory)))</h2><table><thead><tr><th scope=\"col\">\(html(t(.from)))</th>"
            body += "<th scope=\"col\">\(html(t(.moveGoal)))</th><th scope=\"col\">\(html(t(.exerciseGoal)))</th>"
            body += "<th scope=\"col\">\(html(t(.standGoal)))</th><th scope=\"col\">\(html(t(.stepsGoal)))</th></tr></thead><tbody>"
            for row in history.reversed() {
                body += "<tr><th scope=\"row\">\(html(row.start))</th><td>\(html(row.move))</td><td>\(html(row.exercise))</td>"
                body += "<td>\(html(row.stand))</td><td>\(html(row.steps))</td></tr>"
            }
            body += "</tbody></table>"
        }
        return page(.goals, title: t(.goals), body: body, context: context)
    }

    // MARK: People

    public struct PersonRow: Sendable, Equatable {
        public var id: Int
        public var name: String
        public var colour: String
        public init(id: Int, name: String, colour: String) {
            self.id = id
            self.name = name
            self.colour = colour
        }
    }

    public static func people(_ people: [PersonRow], problem: String? = nil, context: PageContext) -> String {
        let t = context.t
        var body = problem.map { "<p class=\"notice bad\" role=\"alert\">\(html($0))</p>" } ?? ""
        if people.count <= 1 { body += "<p>\(html(t(.noPeople)))</p>" }
        body += "<ul class=\"people\">"
        for person in people {
            body += "<li><p>\(html(person.name))</p>"
            body += form(
                "/people", context, class: "inline",
                "<input type=\"hidden\" name=\"person\" value=\"\(person.id)\">"
                    + button(t(.showQR) + ": " + person.name, name: "do", value: "qr"))
            body += "</li>"
        }
        body += "</ul>"
        return page(.people, title: t(.people), body: body, context: context)
    }

    // MARK: Log and About

    public static func log(_ lines: [String], problem: String?, context: PageContext) -> String {
        let t = context.t
        var body = "<p class=\"help\">\(html(t(.lastLines)))</p>"
        if let problem { body += "<p class=\"notice bad\" role=\"alert\">\(html(problem))</p>" }
        body += lines.isEmpty ? "<p>\(html(t(.logEmpty)))</p>" : "<pre class=\"log\">" + lines.map(html).joined(separator: "\n") + "</pre>"
        return page(.log, title: t(.log), body: body, context: context)
    }

    /// The About page's rows: a name and its value.
    public static func about(_ rows: [(Phrase, String)], context: PageContext) -> String {
        let t = context.t
        var body = "<dl class=\"about\">"
        for (name, value) in rows { body += "<dt>\(html(t(name)))</dt><dd>\(html(value))</dd>" }
        body += "</dl>"
        return page(.about, title: t(.about), body: body, context: context)
    }

    // MARK: Files

    /// The page's stylesheet: dark, one column, touch targets of at least 48 px.
    public static let stylesheet = """
        :root{color-scheme:dark;--bg:#000;--fg:#eee;--dim:#9a9a9a;--line:#333;--accent:#3fd06a;--bad:#ff6b6b;--field:#161616}
        *{box-sizing:border-box}
        body{margin:0;background:var(--bg);color:var(--fg);font:17px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans","WenQuanYi Micro Hei",sans-serif}
        header{display:flex;flex-wrap:wrap;align-items:center;gap:8px;padding:8px 12px;border-bottom:1px solid var(--line)}
        nav ul{list-style:none;display:flex;flex-wrap:wrap;gap:4px;margin:0;padding:0}
        nav a,.button{display:inline-flex;align-items:center;min-height:48px;padding:0 14px;border-radius:10px;color:var(--fg);text-decoration:none;border:1px solid var(--line)}
        nav a[aria-current]{background:#1d3b26;border-color:var(--accent)}
        main{max-width:720px;margin:0 auto;padding:12px 16px 48px;overflow-wrap:anywhere}
        h1{font-size:1.5em;margin:.4em 0}
        h2{font-size:1.2em;margin:1.2em 0 .4em}
        button{min-height:48px;min-width:48px;padding:0 18px;border-radius:10px;border:1px solid #555;background:#222;color:var(--fg);font:inherit;cursor:pointer}
        button.primary{background:#1d6b36;border-color:var(--accent)}
        .signout{margin-left:auto}
        .buttons{display:flex;flex-wrap:wrap;gap:8px;margin:10px 0}
        .row{display:flex;gap:8px;align-items:center}
        form.inline{display:inline}
        .field{margin:14px 0;padding-bottom:10px;border-bottom:1px solid var(--line)}
        label{display:block;font-weight:600;margin-bottom:4px}
        input,select,textarea{width:100%;min-height:48px;padding:8px 10px;border-radius:8px;border:1px solid #555;background:var(--field);color:var(--fg);font:inherit}
        .row select,.row input{flex:1}
        textarea{font-family:ui-monospace,"DejaVu Sans Mono",monospace;font-size:15px}
        .help{color:var(--dim);font-size:.92em;margin:4px 0}
        .error{color:var(--bad);font-weight:600;margin:4px 0}
        [aria-invalid=true]{border-color:var(--bad)}
        .notice{padding:10px 12px;border-radius:10px;border:1px solid var(--line)}
        .notice.good{border-color:var(--accent)}
        .notice.bad{border-color:var(--bad)}
        figure.live{margin:8px 0;text-align:center}
        figure.live img{max-width:100%;height:auto;image-rendering:pixelated;border:1px solid var(--line);background:#000}
        figcaption{color:var(--dim);font-size:.85em}
        pre.log{white-space:pre-wrap;font-size:13px;background:var(--field);padding:10px;border-radius:8px}
        table{border-collapse:collapse;width:100%}
        th,td{text-align:left;padding:6px;border-bottom:1px solid var(--line)}
        dl.about dt{font-weight:600;margin-top:10px}
        dl.about dd{margin:0;color:var(--dim)}
        ol.gauges,ul.people{padding-left:1.2em}
        """

    /// The live view: the frame asked for again every second with its ETag (a 304 while it is the
    /// same), swapped in when it changed; the state line with it. Without script the page still
    /// works: a reload shows the frame now.
    public static let script = """
        (function () {
          var img = document.getElementById('live');
          if (!img || !window.fetch) return;
          var tag = img.getAttribute('data-etag') || '';
          var caption = document.getElementById('state');
          function tick() {
            fetch('/frame.png', { headers: tag ? { 'If-None-Match': tag } : {}, cache: 'no-store', credentials: 'same-origin' })
              .then(function (r) {
                if (r.status !== 200) return null;
                var next = r.headers.get('ETag') || '';
                return r.blob().then(function (b) {
                  var old = img.src;
                  img.src = URL.createObjectURL(b);
                  tag = next;
                  img.setAttribute('data-etag', next);
                  if (old.indexOf('blob:') === 0) URL.revokeObjectURL(old);
                });
              })
              .then(function () { return caption ? fetch('/state', { cache: 'no-store', credentials: 'same-origin' }) : null; })
              .then(function (r) { return r && r.status === 200 ? r.text() : null; })
              .then(function (text) { if (text !== null && caption) caption.textContent = text; })
              .catch(function () {})
              .then(function () { setTimeout(tick, 1000); });
          }
          setTimeout(tick, 1000);
        })();
        """
}
