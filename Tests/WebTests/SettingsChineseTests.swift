import Configuration
import JSON
import Testing

@testable import Web

/// The settings' help in Simplified Chinese (issue 41): every field the declarations make has it,
/// for the English it shows now, with every figure and every quoted word of the English kept; the
/// Chinese page shows it. The fields are taken from the declarations, so a setting declared
/// without a translation fails here. So are their defaults that have words (`null: the first
/// connected one`), and the members of a window and of the cycle the schedule's page lists.
@Suite("The settings' help in Simplified Chinese", .timeLimit(.minutes(20)))
struct SettingsChineseTests {
    /// Every field of the pages, with whether it is a gauge's.
    static var fields: [(field: SettingField, gauge: Bool)] {
        SettingGroup.all.flatMap(\.fields).map { ($0, false) } + GaugeFields.all.map { ($0, true) }
            + WebPages.scheduleFields.map { ($0, false) }
    }

    /// Every member the schedule's page lists, with the object it is a member of.
    static var members: [(path: String, member: MemberHelp)] {
        WebPages.memberPaths.flatMap { path in Configuration.members(of: path).map { (path, $0) } }
    }

    /// Whether a default's text is a JSON value by itself (`60`, `"rings"`, `[]`): the same in
    /// both languages, with no words to translate.
    static func isJSON(_ text: String) -> Bool { (try? JSONParser.parse(text)) != nil }

    /// The JSON value a default's words follow (`null` of `null: the first connected one`).
    static func jsonPrefix(_ text: String) -> String? {
        var rest = text[...]
        while let colon = rest.firstRange(of: ": ") {
            let prefix = String(text[..<colon.lowerBound])
            if isJSON(prefix) { return prefix }
            rest = rest[colon.upperBound...]
        }
        return nil
    }

    /// The words of a text that are code, to be kept as they are: paths, options, file and host
    /// names (`/var/lib/glance`, `--min`, `$XDG_DATA_HOME`, `glance.db`, `.local`).
    static func codeWords(_ text: String) -> [String] {
        text.split(separator: " ").compactMap { token in
            var word = Substring(token)
            while let c = word.first, "([{".contains(c) { word = word.dropFirst() }
            while let c = word.last, "),;:.]}".contains(c) { word = word.dropLast() }
            if word.hasSuffix("'s") { word = word.dropLast(2) }
            let chars = Array(word)
            let dotted = chars.indices.contains { i in
                chars[i] == "." && i + 1 < chars.count && chars[i + 1].isLetter && (i == 0 || chars[i - 1].isLetter)
            }
            let code = word.contains("/") || word.contains("$") || word.contains("_") || word.contains("--") || dotted
            return code && !word.contains("\"") ? String(word) : nil
        }
    }

    static func hasCJK(_ text: String) -> Bool {
        text.unicodeScalars.contains { (0x4E00...0x9FFF).contains($0.value) || (0x3400...0x4DBF).contains($0.value) }
    }

    /// The figures of a text: runs of digits, with a point between digits (`59.94`, `0.0.0.0`).
    static func figures(_ text: String) -> [String] {
        let chars = Array(text)
        var out: [String] = []
        var i = 0
        while i < chars.count {
            guard chars[i].isASCII && chars[i].isNumber else {
                i += 1
                continue
            }
            var j = i
            while j < chars.count {
                if chars[j].isASCII && chars[j].isNumber {
                    j += 1
                } else if chars[j] == ".", j + 1 < chars.count, chars[j + 1].isASCII && chars[j + 1].isNumber {
                    j += 1
                } else {
                    break
                }
            }
            out.append(String(chars[i..<j]))
            i = j
        }
        return out
    }

    /// The quoted words of a text, with their quotes: each "…" (quotes taken in pairs; outside a
    /// pair, a " right after a figure is an inch's: `1.3"`) and `…`.
    static func quoted(_ text: String) -> [String] {
        var out: [String] = []
        var open: String? = nil
        var previous: Character = " "
        for c in text {
            if c == "\"" {
                if let word = open {
                    out.append(word + "\"")
                    open = nil
                } else if !(previous.isASCII && previous.isNumber) {
                    open = "\""
                }
            } else if open != nil {
                open?.append(c)
            }
            previous = c
        }
        let parts = text.split(separator: "`", omittingEmptySubsequences: false)
        // The odd parts are inside a pair.
        for (i, part) in parts.enumerated() where i % 2 == 1 && i < parts.count - 1 { out.append("`\(part)`") }
        return out
    }

    /// The Chinese help kept for `place`: there, translated from the English shown now
    /// (`english`), what the page shows (`shown`), and a faithful translation (`checkTranslation`).
    static func checkHelp(
        _ place: String, english: String, shown: String?, code: Bool = false,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        guard let entry = SettingsChinese.helps[place] else {
            Issue.record("\(place): no Chinese help (add it to Sources/Web/SettingsChinese.swift)", sourceLocation: sourceLocation)
            return
        }
        #expect(
            entry.en == english, "\(place): the English help has changed since it was translated; it is now: \(english)",
            sourceLocation: sourceLocation)
        #expect(shown == entry.zh, "\(place): the page shows another Chinese help", sourceLocation: sourceLocation)
        checkTranslation(entry.zh, of: english, place, code: code)
    }

    /// What a translation must keep of its English: it is Chinese, not the English, and has every
    /// figure and every quoted word of the English (`code`: and every word of code, and the JSON
    /// value a default's words follow, at its start).
    static func checkTranslation(_ zh: String, of en: String, _ what: String, code: Bool = false) {
        if code {
            for word in codeWords(en) { #expect(zh.contains(word), "\(what): \(word) of the English is not in the Chinese \(zh)") }
            if let json = jsonPrefix(en) { #expect(zh.hasPrefix(json + "："), "\(what): the Chinese does not start with \(json)：") }
        }
        #expect(!zh.isEmpty, "\(what): empty Chinese")
        #expect(hasCJK(zh), "\(what): no Chinese in \(zh)")
        #expect(zh != en, "\(what): the Chinese is the English")
        let zhFigures = Set(figures(zh))
        for figure in figures(en) {
            #expect(zhFigures.contains(figure), "\(what): \(figure) of the English is not in the Chinese \(zh)")
        }
        for word in quoted(en) {
            #expect(zh.contains(word), "\(what): \(word) of the English is not in the Chinese \(zh)")
        }
    }

    @Test func theCheckersFindFiguresAndQuotedWords() {
        #expect(Self.figures("24h (15:05), 59.94, \"0.0.0.0:8127\", e.g. 1.3: x") == ["24", "15", "05", "59.94", "0.0.0.0", "8127", "1.3"])
        #expect(Self.quoted("e.g. \"°C\", \"%\" and `rings`") == ["\"°C\"", "\"%\"", "`rings`"])
        #expect(Self.quoted("{\"cert\": PEM file, \"key\": PEM file}") == ["\"cert\"", "\"key\""])
        #expect(Self.hasCJK("字符串，或 null") && !Self.hasCJK("a string, or null"))
        // An inch's mark is no quote.
        #expect(Self.quoted("240x240 1.3\", round 1.28\"; a \"b\" and \"0.0.0.0:8127\"") == ["\"b\"", "\"0.0.0.0:8127\""])
        #expect(Self.codeWords("null: /var/lib/x.db for root, else $XDG_DATA_HOME/x (glance set --min), http:// with .local, e.g. a top-level LC_TIME's")
            == ["/var/lib/x.db", "$XDG_DATA_HOME/x", "--min", "http://", ".local", "e.g", "LC_TIME"])
        #expect(Self.jsonPrefix("null: off") == "null" && Self.jsonPrefix("[\"#64D2FF\"]: blue") == "[\"#64D2FF\"]")
        #expect(Self.jsonPrefix("{\"a\": 1}: words") == "{\"a\": 1}" && Self.jsonPrefix("(required)") == nil)
        #expect(Self.isJSON("\"rings\"") && Self.isJSON("60") && !Self.isJSON("null: off"))
    }

    /// Every field of every group, every gauge field and every schedule field has Chinese help for
    /// the English it shows now.
    @Test func everyFieldHasChineseHelp() throws {
        let all = Self.fields
        #expect(all.count > 50, "the fields were not found")
        for (field, gauge) in all {
            Self.checkHelp(
                SettingsChinese.place(field, gauge: gauge), english: field.help,
                shown: SettingsChinese.help(field, gauge: gauge))
        }
        // Nothing translated that the pages no longer show.
        let places = Set(all.map { SettingsChinese.place($0.field, gauge: $0.gauge) })
            .union(Self.members.map { SettingsChinese.place($0.member, of: $0.path) })
        for key in SettingsChinese.helps.keys { #expect(places.contains(key), "\(key): translated, but no such field") }
    }

    /// What every field takes, in Chinese.
    @Test func everyFieldSaysWhatItTakesInChinese() {
        let takers = Self.fields.map { (SettingsChinese.place($0.field, gauge: $0.gauge), $0.field.expected) }
            + Self.members.map { (SettingsChinese.place($0.member, of: $0.path), $0.member.expected) }
        for (place, english) in takers {
            guard let zh = SettingsChinese.expected(english) else {
                Issue.record("\(place): no Chinese for what it takes, \(english)")
                continue
            }
            Self.checkTranslation(zh, of: english, place + " (takes)")
        }
        let expected = Set(takers.map(\.1))
        for key in SettingsChinese.expecteds.keys { #expect(expected.contains(key), "\(key): translated, but nothing takes it") }
    }

    /// Every default with words, of a field or of a member, has Chinese for the English it shows
    /// now, keeping its JSON value, figures, quoted words and code; a default that is a JSON value
    /// by itself has none (it is the same in both).
    @Test func everyDefaultWithWordsHasChinese() {
        let defaults = Self.fields.map { (SettingsChinese.place($0.field, gauge: $0.gauge), $0.field.defaultText) }
            + Self.members.map { (SettingsChinese.place($0.member, of: $0.path), $0.member.defaultText) }
        var withWords = 0
        for (place, english) in defaults {
            if Self.isJSON(english) {
                #expect(SettingsChinese.defaultText(english) == nil, "\(place): its default \(english) is a JSON value, the same in Chinese")
                continue
            }
            withWords += 1
            guard let zh = SettingsChinese.defaultText(english) else {
                Issue.record("\(place): no Chinese for its default, \(english) (add it to Sources/Web/SettingsChinese.swift)")
                continue
            }
            Self.checkTranslation(zh, of: english, place + " (default)", code: true)
        }
        #expect(withWords > 20, "the defaults with words were not found")
        let used = Set(defaults.map(\.1))
        for key in SettingsChinese.defaultTexts.keys { #expect(used.contains(key), "\(key): translated, but no default says it") }
    }

    /// Every member of a window and of the cycle has Chinese help for the English it shows now.
    @Test func everyMemberHasChineseHelp() {
        let members = Self.members
        #expect(Set(members.map(\.path)) == Set(WebPages.memberPaths), "the members were not found")
        for (path, member) in members {
            Self.checkHelp(
                SettingsChinese.place(member, of: path), english: member.help,
                shown: SettingsChinese.help(member, of: path), code: true)
        }
    }

    /// The Chinese schedule page lists each member's help, what it takes and its default in
    /// Chinese; the English page the English.
    @Test func theSchedulePageListsTheMembersInChinese() throws {
        let file = ConfigText("{}")
        let chinese = WebPages.schedule(file: file, context: PageContext(language: .chinese, csrf: "x"))
        let english = WebPages.schedule(file: file, context: PageContext(language: .english, csrf: "x"))
        let takes = Phrase.takes.text(.chinese), byDefault = Phrase.defaultValue.text(.chinese)
        for (path, member) in Self.members {
            let place = SettingsChinese.place(member, of: path)
            let help = try #require(SettingsChinese.help(member, of: path), "\(place)")
            let expected = try #require(SettingsChinese.expected(member.expected), "\(place)")
            let defaultText = SettingsChinese.defaultText(member.defaultText) ?? member.defaultText
            #expect(chinese.contains("<dt><code>\(html(member.key))</code></dt><dd>\(html(help))。\(html(takes))：\(html(expected))。"
                + "\(html(byDefault))：\(html(defaultText))</dd>"), "\(place): not in Chinese on the Chinese page")
            #expect(!chinese.contains(html(member.help)), "\(place): its English help on the Chinese page")
            #expect(english.contains("<dt><code>\(html(member.key))</code></dt><dd>\(html(member.help)). \(Phrase.takes.text(.english)): "
                + "\(html(member.expected)). \(Phrase.defaultValue.text(.english)): \(html(member.defaultText))</dd>"), "\(place): not in English on the English page")
        }
    }

    /// Every group has a Chinese title and help (the top level has no help in either language).
    @Test func everyGroupHasAChineseTitleAndHelp() throws {
        for group in SettingGroup.all {
            let zh = try #require(SettingsChinese.group(group), "\(group.id): no Chinese title and help")
            #expect(Self.hasCJK(zh.title), "\(group.id): no Chinese in its title \(zh.title)")
            let help = try #require(zh.help, "\(group.id): the English help has changed since it was translated; it is now: \(group.help)")
            if group.help.isEmpty {
                #expect(help.isEmpty, "\(group.id): Chinese help for no English")
            } else {
                Self.checkTranslation(help, of: group.help, group.id)
            }
        }
        let ids = Set(SettingGroup.all.map(\.id))
        for key in SettingsChinese.groups.keys { #expect(ids.contains(key), "\(key): translated, but no such group") }
    }

    /// The help paragraph of field `id` in `page`.
    static func helpParagraph(_ page: String, id: String) -> String? {
        guard let start = page.firstRange(of: "<p class=\"help\" id=\"h-\(id)\">") else { return nil }
        let rest = page[start.upperBound...]
        guard let end = rest.firstRange(of: "</p>") else { return nil }
        return String(rest[..<end.lowerBound])
    }

    /// A Chinese settings page shows each field's help and what it takes in Chinese, the group's
    /// help and the groups' names; an English one the English.
    @Test func theChinesePageShowsTheChinese() throws {
        let chinese = PageContext(language: .chinese, csrf: "x")
        let english = PageContext(language: .english, csrf: "x")
        let file = ConfigText("{}")
        for group in SettingGroup.all {
            let page = WebPages.settings(group: group, file: file, context: chinese)
            let englishPage = WebPages.settings(group: group, file: file, context: english)
            for field in group.fields {
                let zh = try #require(SettingsChinese.help(field, gauge: false))
                let takes = try #require(SettingsChinese.expected(field.expected))
                let paragraph = try #require(Self.helpParagraph(page, id: "f-" + field.key), "\(field.key): no help on the page")
                #expect(paragraph.hasPrefix(html(zh) + "。"), "\(field.key): \(paragraph)")
                #expect(paragraph.contains("：" + html(takes) + "。"), "\(field.key): \(paragraph)")
                let defaultText = SettingsChinese.defaultText(field.defaultText) ?? field.defaultText
                #expect(paragraph.contains("：" + html(defaultText)), "\(field.key): \(paragraph)")
                if defaultText != field.defaultText {
                    #expect(!paragraph.contains(html(field.defaultText)), "\(field.key): the English default on the Chinese page")
                }
                // (A unit's help, `kcal`, is kept in its Chinese.)
                if !zh.contains(field.help) {
                    #expect(!paragraph.contains(html(field.help)), "\(field.key): the English help on the Chinese page")
                }
                let englishParagraph = try #require(Self.helpParagraph(englishPage, id: "f-" + field.key))
                #expect(englishParagraph.hasPrefix(html(field.help) + ". Takes: " + html(field.expected) + "."), "\(field.key)")
            }
            let zh = try #require(SettingsChinese.group(group))
            if !group.help.isEmpty {
                #expect(page.contains("<p class=\"help\">\(html(zh.help ?? "-"))</p>"), "\(group.id): no Chinese group help")
                #expect(!page.contains(html(group.help)), "\(group.id): the English group help on the Chinese page")
                #expect(englishPage.contains("<p class=\"help\">\(html(group.help))</p>"))
            }
            // Every group's name in the menu, in Chinese.
            for other in SettingGroup.all {
                let name = try #require(SettingsChinese.group(other)).title
                #expect(page.contains(">\(html(name))</a></li>"), "\(other.id): not named \(name) in the menu")
            }
            if group.id != "top" { #expect(page.contains("<title>\(html(Phrase.settings.text(.chinese) + "：" + zh.title))")) }
        }
    }

    /// The gauge's and the schedule's pages too.
    @Test func theGaugeAndSchedulePagesShowTheChinese() throws {
        let chinese = PageContext(language: .chinese, csrf: "x")
        let file = ConfigText("{}")
        let gauges = WebPages.gauges(file: file, editing: nil, context: chinese)
        for field in GaugeFields.all {
            let zh = try #require(SettingsChinese.help(field, gauge: true))
            let paragraph = try #require(Self.helpParagraph(gauges, id: "new-" + field.key), "\(field.key): no help on the page")
            #expect(paragraph.hasPrefix(html(zh) + "。"), "\(field.key): \(paragraph)")
            let defaultText = SettingsChinese.defaultText(field.defaultText) ?? field.defaultText
            #expect(paragraph.hasSuffix("：" + html(defaultText)), "\(field.key): \(paragraph)")
        }
        let schedule = WebPages.schedule(file: file, context: chinese)
        for field in WebPages.scheduleFields {
            let zh = try #require(SettingsChinese.help(field, gauge: false))
            let paragraph = try #require(Self.helpParagraph(schedule, id: "f-" + field.key), "\(field.key): no help on the page")
            #expect(paragraph.hasPrefix(html(zh) + "。"), "\(field.key): \(paragraph)")
        }
    }

    /// Where the English has changed since it was translated, the page shows the English, not a
    /// stale Chinese.
    @Test func aChangedEnglishShowsTheEnglish() throws {
        var field = try #require(SettingGroup.named("touch")?.fields.first)
        #expect(SettingsChinese.help(field, gauge: false) != nil)
        field.help = "a help written since"
        #expect(SettingsChinese.help(field, gauge: false) == nil)
        let out = WebPages.fieldHTML(field, id: "x", text: "", inFile: false, problem: nil, context: PageContext(language: .chinese, csrf: "x"))
        #expect(out.contains(">a help written since。"))
        // A default's words too.
        field = try #require(SettingGroup.all.flatMap(\.fields).first { SettingsChinese.defaultText($0.defaultText) != nil })
        let chinese = try #require(SettingsChinese.defaultText(field.defaultText))
        #expect(WebPages.fieldHTML(field, id: "x", text: "", inFile: false, problem: nil, context: PageContext(language: .chinese, csrf: "x"))
            .contains(html(chinese) + "</p>"))
        field.defaultText = "null: a default written since"
        #expect(SettingsChinese.defaultText(field.defaultText) == nil)
        #expect(WebPages.fieldHTML(field, id: "x", text: "", inFile: false, problem: nil, context: PageContext(language: .chinese, csrf: "x"))
            .contains("：null: a default written since</p>"))
        // And a member's help.
        var member = try #require(Configuration.members(of: "cycle").first)
        #expect(SettingsChinese.help(member, of: "cycle") != nil)
        member.help = "a member's help written since"
        #expect(SettingsChinese.help(member, of: "cycle") == nil)
        let list = WebPages.membersHTML([member], of: "cycle", context: PageContext(language: .chinese, csrf: "x"))
        #expect(list.contains("<dd>\(html(member.help))。"), "\(list)")
    }
}
