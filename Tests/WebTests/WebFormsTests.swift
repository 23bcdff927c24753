import Configuration
import Controls
import JSON
import Testing

@testable import Web

@Suite("The web page's forms: settings from their declarations, form bodies, sessions", .timeLimit(.minutes(20)))
struct WebFormsTests {
    /// Every setting of the file has a field in exactly one group or page, and its default shown
    /// in the field reads back as the default: the field's kind fits what the setting takes.
    @Test func everySettingHasAFieldThatReadsItsDefaultBack() throws {
        let fileKeys = Set(Configuration.leaves.filter(\.inFile).map { $0.key! })
        var seen: [String] = []
        for group in SettingGroup.all { seen += group.fields.map(\.key) }
        seen += WebPages.scheduleFields.map(\.key)
        seen.append("gauges")
        #expect(Set(seen) == fileKeys)
        #expect(seen.count == Set(seen).count, "a setting in two groups")
        for field in SettingGroup.all.flatMap(\.fields) + WebPages.scheduleFields + GaugeFields.all {
            guard let value = field.defaultValue else { continue }
            let text = field.inputText(value)
            let back = field.value(text)
            #expect(back == .success(value), "\(field.key): \(field.kind) shows \(text) for \(value.settingText), read back as \(back)")
        }
    }

    @Test func fieldsReadWhatTheyTakeAndRefuseTheRest() throws {
        let group = try #require(SettingGroup.named("display"))
        let rotation = try #require(group.fields.first { $0.key == "display.rotate" })
        #expect(rotation.kind == .choice(["0", "90", "180", "270"], numbers: true))
        #expect(rotation.value("90") == .success(.number(90)))
        #expect(rotation.value("45") == .failure(FieldProblem(key: "display.rotate", message: "expected one of 0, 90, 180, 270")))
        let top = try #require(SettingGroup.named("top"))
        let grab = try #require(top.fields.first { $0.key == "grabInput" })
        #expect(grab.kind == .bool)
        #expect(grab.value("yes") == .failure(FieldProblem(key: "grabInput", message: "expected true or false")))
        let idle = try #require(SettingGroup.named("idle"))
        for field in idle.fields where field.kind == .number {
            #expect(field.value("abc").isFailure, "\(field.key) took abc")
            if field.nullable { #expect(field.value("") == .success(.null)) }
        }
        let refresh = try #require(top.fields.first { $0.key == "refresh" })
        #expect(refresh.kind == .json)
        #expect(refresh.value("[[\"/bin/true\"]]") == .success(.array([.array([.string("/bin/true")])])))
        #expect(refresh.value("[[").isFailure)
    }

    /// A gauge's min, max and decimals: no default the file writes, no null; their fields show
    /// empty when the gauge leaves them out, and empty reads back as "left out" (the form sent
    /// back as given was refused: "expected a number").
    @Test func emptyFieldsOfSettingsWithoutADefaultLeaveThemOut() throws {
        for key in ["min", "max", "decimals"] {
            let field = try #require(GaugeFields.all.first { $0.key == key })
            #expect(field.omittable && field.inputText(nil) == "", "\(key)")
            #expect(field.entry("") == .success(nil) && field.entry(" ") == .success(nil), "\(key)")
            #expect(field.entry("7") == .success(.number(7)), "\(key)")
            #expect(field.entry("seven").isFailure, "\(key)")
        }
        // Every field the page shows empty reads back: a value, null or left out.
        for field in SettingGroup.all.flatMap(\.fields) + GaugeFields.all where field.kind != .json {
            let shown = field.inputText(field.defaultValue)
            #expect(!field.entry(shown).isFailure, "\(field.key) shows \"\(shown)\" and refuses it")
        }
        // A setting with a default is never left out by an empty field.
        let top = try #require(SettingGroup.named("top"))
        let seconds = try #require(top.fields.first { $0.key == "longPressSeconds" })
        #expect(!seconds.omittable && seconds.entry("").isFailure)
    }

    @Test func formBodies() {
        #expect(FormBody.parse(Array("a=1&b=two+words&c=%E4%B8%AD&d=".utf8)) == .success(FormBody(fields: [("a", "1"), ("b", "two words"), ("c", "中"), ("d", "")])))
        #expect(FormBody.parse(Array("a=%zz".utf8)).isFailure)
        #expect(FormBody.parse(Array("a=%ff".utf8)).isFailure, "not UTF-8")
        #expect(FormBody.parse(Array("=1".utf8)).isFailure)
        #expect(FormBody.parse(Array(repeating: "a=1&", count: 201).joined().utf8.map { $0 }).isFailure)
        #expect(FormBody.parse(Array(("a=" + String(repeating: "x", count: 256 * 1024 + 1)).utf8)).isFailure)
        #expect(FormBody.parse([]) == .success(FormBody(fields: [])))
    }

    @Test func sessionsAndLinks() {
        var sessions = WebSessions(hours: 1)
        let a = sessions.start(id: "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", csrf: "c1", now: 100)
        #expect(sessions.find(a.id, now: 101) == a)
        #expect(sessions.find(a.id, now: 100 + 3600) == nil, "expired")
        #expect(sessions.find("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaab", now: 101) == nil)
        #expect(sessions.find(nil, now: 101) == nil)
        #expect(WebSessions.csrfMatches("c1", a))
        #expect(!WebSessions.csrfMatches("c2", a))
        #expect(!WebSessions.csrfMatches(nil, a))
        for i in 0..<20 { _ = sessions.start(id: "s\(i)", csrf: "x", now: 200) }
        #expect(sessions.sessions.count == WebSessions.maximum)
        #expect(sessions.find(a.id, now: 201) == nil, "the oldest made room")
        #expect(WebSessions.cookieValue("x=1; glance_session=abc; y=2") == "abc")
        #expect(sessions.setCookie(a, secure: false).contains("HttpOnly; SameSite=Strict"))
        let link = LoginLink(secret: "ABCDEFGHIJKLMNOPqrstuvwxyz012345", expires: 1000)
        #expect(LoginLink(text: link.text) == link)
        #expect(link.opens("ABCDEFGHIJKLMNOPqrstuvwxyz012345", now: 999))
        #expect(!link.opens("ABCDEFGHIJKLMNOPqrstuvwxyz012345", now: 1000))
        #expect(!link.opens("ABCDEFGHIJKLMNOPqrstuvwxyz012346", now: 10))
        #expect(LoginLink(text: "short 5") == nil)
        #expect(LoginLink(text: "ABCDEFGHIJKLMNOP<script> 5") == nil)
    }

    @Test func languages() {
        #expect(WebLanguage.choose(acceptLanguage: "zh-CN,zh;q=0.9,en;q=0.8", cookie: nil) == .chinese)
        #expect(WebLanguage.choose(acceptLanguage: "en-GB,zh;q=0.5", cookie: nil) == .english)
        #expect(WebLanguage.choose(acceptLanguage: "zh-TW", cookie: nil) == .english)
        #expect(WebLanguage.choose(acceptLanguage: "en", cookie: "zh-Hans") == .chinese)
        #expect(WebLanguage.choose(acceptLanguage: nil, cookie: "xx") == .english)
        for phrase in Phrase.allCases {
            #expect(!phrase.text(.english).isEmpty && !phrase.text(.chinese).isEmpty)
            #expect(phrase.text(.english) != phrase.text(.chinese), "\(phrase) is not in Chinese")
        }
    }

    /// Whatever a client or the file says reaches the page escaped; every control has its label.
    @Test func pagesEscapeAndLabel() throws {
        #expect(html("<a href=\"x\">'&\u{1}") == "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#xFFFD;")
        let context = PageContext(language: .english, csrf: "tok\"en")
        let file = ConfigText("{\"name\": \"<b>kitchen</b>\", \"gauges\": [{\"title\": \"<i>\", \"source\": {\"metric\": \"t\"}}]}")
        for page in [
            WebPages.settings(group: SettingGroup.named("top")!, file: file, context: context),
            WebPages.gauges(file: file, editing: 0, context: context),
            WebPages.schedule(file: file, context: context),
            WebPages.now(
                state: PanelState(screen: .rings, screens: [.rings, .clock], cycle: true, light: true, brightness: 80, dimmable: true, touched: nil),
                stateLine: "state <x>", frame: .init(width: 240, height: 240, etag: "\"1\""), problem: nil, context: context),
        ] {
            #expect(!page.contains("<b>kitchen") && !page.contains("<i>") && !page.contains("state <x>"))
            #expect(page.contains("value=\"tok&quot;en\""), "every form carries the CSRF token")
            // Every input, select and textarea but the hidden ones has a label for its id.
            var rest = Substring(page)
            while let start = rest.range(of: " id=\"") {
                let after = rest[start.upperBound...]
                let id = after.prefix { $0 != "\"" }
                let tagStart = rest[..<start.lowerBound].lastIndex(of: "<")!
                let tag = rest[tagStart...].prefix { $0 != " " }
                if ["<input", "<select", "<textarea"].contains(String(tag)) {
                    #expect(page.contains("for=\"\(id)\""), "no label for \(id)")
                }
                rest = after
            }
        }
    }
}

extension Result {
    var isFailure: Bool { if case .failure = self { true } else { false } }
}

@Suite("A save's notices, in both languages", .timeLimit(.minutes(20)))
struct SaveNoticeTests {
    @Test func noticesSayWhatHappenedInTheirLanguage() {
        #expect(SaveNotice.saved(.english) == "Saved: the panel shows the new settings.")
        #expect(
            SaveNotice.rolledBack("the panel said: $.keys.KEY_NOPE", .english)
                == "Not saved: the panel refused the new file (the panel said: $.keys.KEY_NOPE), so the previous one is back.")
        #expect(SaveNotice.rolledBack("x", .chinese).hasPrefix("未保存：面板拒绝了新文件（x）"))
        #expect(SaveNotice.savedWithoutPanel("no socket", .chinese).contains("no socket"))
        #expect(SaveNotice.notWritten("disk full", .english) == "Not saved: disk full")
        #expect(SaveNotice.notPutBack("a", "b", .chinese).contains("a") && SaveNotice.notPutBack("a", "b", .chinese).contains("b"))
    }
}
