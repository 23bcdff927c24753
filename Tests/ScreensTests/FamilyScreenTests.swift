import Activity
import Raster
import Screens
import Testing
import Text

/// The household's people as the family screen's tests draw them: four, each in another state
/// (an ordinary day, large figures and a long name, stale, no data at all).
enum FamilyCase {
    static func members(_ locale: AppLocale, count: Int, longNames: Bool = false) -> [FamilyMember] {
        let en = locale == .english
        let strings = locale.strings
        let all = [
            FamilyMember(
                name: longNames ? (en ? "Maximilian Alexander Featherstonehaugh" : "欧阳娜娜与司马相如的家庭") : (en ? "Karan" : "小林"),
                colour: Color(hex: 0xFF9F0A),
                summary: ActivitySummary(
                    activeEnergyBurned: .kilocalories(375), activeEnergyBurnedGoal: .kilocalories(500), exerciseTime: 15,
                    exerciseTimeGoal: 30, standHours: 14.4, standHoursGoal: 12)),
            FamilyMember(
                name: en ? "Maximilian Alexander" : "欧阳娜娜",
                colour: Color(hex: 0x0A84FF),
                summary: ActivitySummary(
                    activeEnergyBurned: .kilocalories(1_375), activeEnergyBurnedGoal: .kilocalories(1_050), exerciseTime: 245,
                    exerciseTimeGoal: 30, standHours: 9, standHoursGoal: 12)),
            FamilyMember(
                name: en ? "Ann" : "安", colour: Color(hex: 0xBF5AF2),
                summary: ActivitySummary(
                    activeEnergyBurned: .kilocalories(120), activeEnergyBurnedGoal: .kilocalories(400), exerciseTime: 5,
                    exerciseTimeGoal: 30, standHours: 3, standHoursGoal: 12),
                stale: true, lastPush: strings.pushedAgo(seconds: 3 * 3600 + 200)),
            // A child's watch: Move in minutes; a dark colour of their choosing; nothing pushed yet.
            FamilyMember(
                name: en ? "Bo" : "博", colour: Color(hex: 0x1A237E), summary: nil, stale: true,
                lastPush: strings.pushedAgo(seconds: nil)),
        ]
        return Array(all.prefix(count))
    }

    /// The five panels of the goldens.
    static let sizes: [(Size, PanelShape)] = [
        (Size(width: 240, height: 240), .rectangle), (Size(width: 240, height: 240), .round),
        (Size(width: 320, height: 240), .rectangle), (Size(width: 800, height: 480), .rectangle),
        (Size(width: 720, height: 1280), .rectangle),
    ]

    static func sizeName(_ size: Size, _ shape: PanelShape) -> String { shape == .round ? "\(size)-round" : "\(size)" }
}

@Suite("Family screen: side by side or one a page, every figure legible, nothing cut or outside", .timeLimit(.minutes(20)))
struct FamilyScreenTests {
    @Test("the last push as said under a stale person, in both languages")
    func pushedAgo() {
        let en = AppLocale.english.strings, zh = AppLocale.simplifiedChinese.strings
        #expect(en.pushedAgo(seconds: 0) == "just now")
        #expect(en.pushedAgo(seconds: 59) == "just now")
        #expect(en.pushedAgo(seconds: -30) == "just now")
        #expect(en.pushedAgo(seconds: 60) == "1 min ago")
        #expect(en.pushedAgo(seconds: 3599) == "59 min ago")
        #expect(en.pushedAgo(seconds: 7200) == "2 h ago")
        #expect(en.pushedAgo(seconds: 86399) == "23 h ago")
        #expect(en.pushedAgo(seconds: 3 * 86400 + 5) == "3 d ago")
        #expect(en.pushedAgo(seconds: nil) == "no data yet")
        #expect(en.pushedAgo(seconds: .infinity).hasSuffix(" d ago"))
        #expect(zh.pushedAgo(seconds: 10) == "刚刚")
        #expect(zh.pushedAgo(seconds: 600) == "10 分钟前")
        #expect(zh.pushedAgo(seconds: 7200) == "2 小时前")
        #expect(zh.pushedAgo(seconds: 2 * 86400) == "2 天前")
        #expect(zh.pushedAgo(seconds: nil) == "尚无数据")
    }

    /// Every page of the family screen of `count` people on every panel of the layout matrix
    /// and the goldens' sizes, in both languages.
    static var panels: [(Size, PanelShape)] {
        var all = LayoutCheck.matrix
        for p in FamilyCase.sizes where !all.contains(where: { $0 == p }) { all.append(p) }
        return all
    }

    @Test("every page at every size: the layout check, each person's figures at 20′, their name, nothing outside a round panel",
          arguments: AppLocale.allCases, [1, 2, 3, 4])
    func layouts(locale: AppLocale, count: Int) throws {
        let text = try LayoutCheck.renderer(locale)
        for longNames in [false, true] {
            let members = FamilyCase.members(locale, count: count, longNames: longNames)
            for (size, shape) in Self.panels {
                let screen = FamilyScreen(members: members, context: ScreenContext(text: text, locale: locale, shape: shape))
                let pages = screen.pageCount(for: size)
                #expect(pages == 1 || pages == count, "\(size) \(shape): \(pages) pages for \(count) people")
                if shape == .round || count == 1 { #expect(pages == count, "\(size) \(shape): one a page") }
                for page in 0..<pages {
                    let shown = screen.showing(page: page)
                    let e = Explanation(of: shown, size: size, shape: shape, capRatio: text.capRatio)
                    let what = "family of \(count)\(longNames ? " (long names)" : "") page \(page + 1) \(size) \(shape) \(locale)"
                    LayoutCheck.check(e, what)
                    #expect(e.omitted.isEmpty, "\(what): left out \(e.omitted)")
                    let people = pages == 1 ? Array(members.indices) : [page]
                    for i in people {
                        // Every one of them has three rings (no data: three "—").
                        for ring in ["move", "exercise", "stand"] {
                            let element = "family.\(i + 1).figure.\(ring).value"
                            let runs = e.texts.filter { $0.element == element }
                            #expect(runs.count == 1, "\(what): \(element) drawn \(runs.count) times")
                            for run in runs {
                                #expect(e.capHeight(run).arcMinutes >= Legibility.figureArcMinutes - 0.05,
                                        "\(what): \(element) '\(run.text)' makes \(e.capHeight(run).arcMinutes)′")
                            }
                        }
                        #expect(e.texts.contains { $0.element == "family.\(i + 1).name" }, "\(what): no name for \(i + 1)")
                        #expect(e.shapes.contains { $0.name == "family.\(i + 1).bar" }, "\(what): no bar for \(i + 1)")
                        let stale = members[i].stale
                        #expect(e.texts.contains { $0.element == "family.\(i + 1).push" } == stale,
                                "\(what): the last push of \(i + 1) \(stale ? "missing" : "shown though fresh")")
                    }
                    #expect(e.rings.count == people.count, "\(what): \(e.rings.count) groups of rings")
                    if shape == .round {
                        let frame = FrameComposer(panel: size).render(FamilyScreen(
                            members: members, context: ScreenContext(text: text, locale: locale, shape: shape), page: page))
                        #expect(LayoutCheck.litOutsideCircle(frame) == 0, "\(what): lit outside the circle")
                    }
                }
            }
        }
    }

    @Test("two to four people side by side where the panel holds them; one a page on small and round panels")
    func sideBySide() throws {
        let text = try LayoutCheck.renderer(.english)
        func screen(_ count: Int, _ shape: PanelShape = .rectangle) -> FamilyScreen {
            FamilyScreen(members: FamilyCase.members(.english, count: count), context: ScreenContext(text: text, shape: shape))
        }
        let large = Size(width: 800, height: 480), tall = Size(width: 720, height: 1280)
        for count in 2...4 {
            #expect(screen(count).sideBySide(on: large), "\(count) at 800x480")
            #expect(screen(count).sideBySide(on: tall), "\(count) at 720x1280")
            #expect(!screen(count).sideBySide(on: Size(width: 240, height: 240)), "\(count) at 240x240")
            #expect(!screen(count, .round).sideBySide(on: Size(width: 480, height: 480)), "\(count) round")
        }
        #expect(!screen(1).sideBySide(on: large))
        // Four on a tall panel: two by two (two rings' centres on each of two heights).
        let e = Explanation(of: screen(4), size: tall)
        #expect(Set(e.rings.map { $0.geometry.center.y }).count == 2)
        #expect(Set(e.rings.map { $0.geometry.center.x }).count == 2)
        // The pages turn: each shows its own person.
        let paged = screen(3).showing(page: 2)
        let p = Explanation(of: paged, size: Size(width: 240, height: 240))
        #expect(p.page == 2 && p.pageCount == 3)
        #expect(p.texts.contains { $0.element == "family.3.name" })
        #expect(!p.texts.contains { $0.element == "family.1.name" })
        #expect(p.shapes.filter { $0.name == "page dot" }.count == 3)
    }

    @Test("more than four people: one a page everywhere, each page checked")
    func eight() throws {
        let text = try LayoutCheck.renderer(.english)
        let members = FamilyCase.members(.english, count: 4) + FamilyCase.members(.english, count: 4, longNames: true)
        for (size, shape) in Self.panels {
            let screen = FamilyScreen(members: members, context: ScreenContext(text: text, shape: shape))
            #expect(screen.pageCount(for: size) == 8)
            for page in 0..<8 {
                let e = Explanation(of: screen.showing(page: page), size: size, shape: shape, capRatio: text.capRatio)
                LayoutCheck.check(e, "eight page \(page + 1) \(size) \(shape)")
                #expect(e.texts.contains { $0.element == "family.\(page + 1).figure.move.value" })
            }
        }
    }

    @Test("a stale person's rings are dimmed; a fresh one's are not")
    func staleDimmed() throws {
        let text = try LayoutCheck.renderer(.english)
        let size = Size(width: 800, height: 480)
        var members = FamilyCase.members(.english, count: 2)
        let fresh = FrameComposer(panel: size).render(FamilyScreen(members: members, context: ScreenContext(text: text)))
        members[0].stale = true
        members[0].lastPush = "2 h ago"
        let stale = FrameComposer(panel: size).render(FamilyScreen(members: members, context: ScreenContext(text: text)))
        let e = Explanation(of: FamilyScreen(members: members, context: ScreenContext(text: text)), size: size)
        let before = Explanation(of: FamilyScreen(members: FamilyCase.members(.english, count: 2), context: ScreenContext(text: text)),
                                 size: size)
        func brightest(_ frame: PixelBuffer, _ rect: Rect) -> Int {
            let r = rect.enclosingPixels
            var most = 0
            for y in r.y..<r.maxY {
                for x in r.x..<r.maxX {
                    let c = frame.color(x: x, y: y)
                    most = max(most, Int(c.red) + Int(c.green) + Int(c.blue))
                }
            }
            return most
        }
        // Dimmed against the same rings fresh, and against the fresh person beside them.
        #expect(brightest(stale, e.rings[0].rect) * 2 < brightest(fresh, before.rings[0].rect))
        #expect(brightest(stale, e.rings[0].rect) * 2 < brightest(stale, e.rings[1].rect))
        #expect(brightest(stale, e.rings[1].rect) == brightest(fresh, before.rings[1].rect))
        #expect(e.texts.first { $0.element == "family.1.push" }?.text == "2 h ago")
        #expect(!e.texts.contains { $0.element == "family.2.push" })
    }

    @Test("names: whole where they fit, else cut after a word or a character with an ellipsis, never over another")
    func names() throws {
        let text = try LayoutCheck.renderer(.english)
        let members = FamilyCase.members(.english, count: 4, longNames: true)
        let e = Explanation(of: FamilyScreen(members: members, context: ScreenContext(text: text)), size: Size(width: 800, height: 480))
        let first = try #require(e.texts.first { $0.element == "family.1.name" })
        #expect(first.text.hasSuffix("…"))
        #expect(first.full == members[0].name)
        // Cut after a whole word.
        #expect(members[0].name.hasPrefix(String(first.text.dropLast())))
        #expect(String(first.text.dropLast()).split(separator: " ").allSatisfy { word in
            members[0].name.split(separator: " ").contains(word)
        })
        #expect(e.texts.first { $0.element == "family.3.name" }?.text == "Ann")
    }

    @Test("a dark colour is lightened for the name; the bar keeps it")
    func readableColour() throws {
        let text = try LayoutCheck.renderer(.english)
        let members = FamilyCase.members(.english, count: 4)
        let probe = LayoutProbe()
        let screen = FamilyScreen(members: members, context: ScreenContext(text: text, probe: probe))
        _ = FrameComposer(panel: Size(width: 800, height: 480)).render(screen)
        #expect(probe.shapes.contains { $0.name == "family.4.bar" })
        // Every name reads on black at 4.5:1 at least.
        let frame = FrameComposer(panel: Size(width: 800, height: 480)).render(screen)
        let e = Explanation(of: screen, size: Size(width: 800, height: 480))
        let name = try #require(e.texts.first { $0.element == "family.4.name" })
        var brightest = 0
        let box = name.box.enclosingPixels
        for y in box.y..<box.maxY {
            for x in box.x..<box.maxX {
                let c = frame.color(x: x, y: y)
                brightest = max(brightest, Int(c.red) + Int(c.green) + Int(c.blue))
            }
        }
        // 0x1A237E sums to 181; lightened it is well above.
        #expect(brightest > 300)
    }
}
