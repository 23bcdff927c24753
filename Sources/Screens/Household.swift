import Activity
import Raster

/// What the household's screens (`FamilyScreen`, `CompetitionScreen`) put where on a picture of
/// one size, in the order drawn: a plain value worked out once per size and context, painted by
/// `draw` and compared by `changes`.
struct HouseholdLayout: Equatable {
    enum Item: Equatable {
        /// A person's rings; dimmed when their data is stale.
        case rings(Rect, RingSet, dimmed: Bool)
        case text(PlacedText, element: String)
        /// A page dot.
        case disc(center: Point, radius: Float, color: Color)
        /// A bar in a person's colour (under their name), named for the probe.
        case bar(Rect, Color, name: String)
    }

    var items: [Item] = []
    var page = 0
    var pageCount = 1
    var omitted: [Omission] = []

    /// How much of its brightness a stale person's rings keep.
    static let staleBrightness: Float = 0.35

    /// The line of text of `element` (the first, where there are more).
    func text(_ element: String) -> PlacedText? {
        for case .text(let line, let e) in items where e == element { return line }
        return nil
    }

    /// Paints the layout over black, telling the context's probe what went where.
    func draw(into buffer: PixelBuffer, context: ScreenContext) {
        let text = TextLayout(drawing: context)
        if let probe = context.probe {
            probe.pages(page, of: pageCount)
            for o in omitted { probe.omit(o) }
        }
        for item in items {
            switch item {
            case .rings(let rect, let set, let dimmed):
                context.probe?.rings(rect, set)
                ActivityRingsView(rings: set).draw(into: buffer, in: rect)
                if dimmed {
                    // Only the rings are in their rect: nothing else is dimmed with them.
                    buffer.clipped(to: rect.enclosingPixels).scaleBrightness(Self.staleBrightness)
                }
            case .text(let line, let element):
                text.draw(line, element: element, into: buffer)
            case .disc(let center, let radius, let color):
                context.probe?.shape("page dot", Rect(x: center.x - radius, y: center.y - radius, width: 2 * radius,
                                                      height: 2 * radius))
                buffer.fillDisc(center: center, radius: radius, color: color)
            case .bar(let rect, let color, let name):
                context.probe?.shape(name, rect)
                buffer.fillRoundedRect(rect, radius: rect.height / 2, color: color)
            }
        }
    }

    /// Where a picture of this layout differs from one of `previous`: each item drawn otherwise,
    /// where it was and where it is. nil when the two have other items.
    func changes(since previous: HouseholdLayout) -> Damage? {
        guard items.count == previous.items.count else { return nil }
        var d = Damage()
        for (a, b) in zip(previous.items, items) where a != b {
            switch (a, b) {
            case (.text(let x, _), .text(let y, _)):
                d.add(ScreenDamage.text(x.box))
                d.add(ScreenDamage.text(y.box))
            case (.rings(let r0, _, _), .rings(let r1, _, _)):
                d.add(r0.enclosingPixels)
                d.add(r1.enclosingPixels)
            default:
                return nil
            }
        }
        return d
    }

    /// The page dots of `count` pages with `page` shown, on a picture `w` × `h`.
    mutating func dots(_ dots: PageDots, w: Float, h: Float, round: Bool, margin: Float) {
        for d in dots.discs(w: w, h: h, round: round, margin: margin) {
            items.append(.disc(center: d.center, radius: d.radius, color: d.color))
        }
    }
}

/// A household screen's layout once worked out, with the size and context it was worked out for.
final class HouseholdMemo {
    var entry: (Size, ScreenContext, HouseholdLayout)?

    /// The layout for `size` through `context`: the one kept when it was worked out for both,
    /// else `make`'s (then kept).
    func layout(_ size: Size, _ context: ScreenContext, make: () -> HouseholdLayout) -> HouseholdLayout {
        if let (s, c, layout) = entry, s == size, c.laysOutLike(context) { return layout }
        let layout = make()
        var c = context
        c.probe = nil
        entry = (size, c, layout)
        return layout
    }
}

/// What the household's screens share: a person's colour made readable, a name cut to its room.
enum Household {
    /// `colour` as text on black: lightened toward white until it stands out from black as body
    /// text must (WCAG's 4.5:1, a relative luminance of at least 0.175), so a person who chose
    /// navy still has a name that can be read. A light colour is kept as it is.
    static func readable(_ colour: Color) -> Color {
        var c = colour
        var t = 0.0
        while luminance(c) < 0.175 && t < 1 {
            t += 0.05
            c = Color.mix(colour, .white, t)
        }
        return c
    }

    /// The relative luminance of an sRGB colour (WCAG 2).
    static func luminance(_ c: Color) -> Double {
        func linear(_ v: UInt8) -> Double {
            let s = Double(v) / 255
            return s <= 0.04045 ? s / 12.92 : power((s + 0.055) / 1.055, 2.4)
        }
        return 0.2126 * linear(c.red) + 0.7152 * linear(c.green) + 0.0722 * linear(c.blue)
    }

    /// x^y for x in (0, 1] (no Foundation): through the exponential's series on the logarithm.
    static func power(_ x: Double, _ y: Double) -> Double {
        guard x > 0 else { return 0 }
        // ln x by atanh's series: ln x = 2 atanh((x − 1)/(x + 1)).
        let z = (x - 1) / (x + 1), z2 = z * z
        var term = z, sum = 0.0, k = 1.0
        while abs(term) > 1e-15 {
            sum += term / k
            term *= z2
            k += 2
        }
        let l = 2 * sum * y
        // e^l by its series (l here is between about −20 and 0: halved until small, then squared).
        var halvings = 0, a = l
        while abs(a) > 0.5 {
            a /= 2
            halvings += 1
        }
        var e = 1.0, t = 1.0
        for n in 1...20 {
            t *= a / Double(n)
            e += t
        }
        for _ in 0..<halvings { e *= e }
        return e
    }

    /// A name cut to `width` in `style`: whole when it fits; else after its last whole word that
    /// fits with "…" (where that keeps at least half the room: "Maximilian…", not "Maximilian
    /// Ale…"), else at a character with "…" (`TextLayout.truncated`: never inside a number).
    /// "" when not even "…" fits.
    static func cutName(_ name: String, _ style: TextStyle, width: Float, text: TextLayout) -> String {
        if text.measure(name, style).width <= width { return name }
        var atWord: String?
        let characters = Array(name)
        for (i, c) in characters.enumerated() where c == " " && i > 0 {
            let candidate = String(characters[..<i]).trimmingTrailingSpaces + "…"
            guard text.measure(candidate, style).width <= width else { break }
            atWord = candidate
        }
        if let atWord, text.measure(atWord, style).width >= width / 2 { return atWord }
        return text.truncated(name, style, width: width)
    }
}

extension Color {
    /// A person's colour as the store keeps it: "#rrggbb" (hex digits in either case); nil for
    /// anything else.
    public init?(rgb text: String) {
        let digits = Array(text.utf8)
        guard digits.count == 7, digits[0] == UInt8(ascii: "#") else { return nil }
        var value: UInt32 = 0
        for d in digits.dropFirst() {
            let v: UInt8
            switch d {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): v = d - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): v = d - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): v = d - UInt8(ascii: "A") + 10
            default: return nil
            }
            value = value << 4 | UInt32(v)
        }
        self.init(hex: value)
    }
}

extension Strings {
    private func say(_ english: String, _ chinese: String) -> String { locale == .english ? english : chinese }

    /// How long ago a person's phone last pushed their data, for the family screen's line under a
    /// stale person: "just now" (under a minute), "12 min ago", "3 h ago", "2 d ago" / "刚刚",
    /// "12 分钟前", "3 小时前", "2 天前"; nil (never): "no data yet" / "尚无数据". A time in the
    /// future (a clock set wrong) is "just now".
    public func pushedAgo(seconds: Double?) -> String {
        guard let seconds, !seconds.isNaN else { return say("no data yet", "尚无数据") }
        let s = seconds.isFinite ? max(0, seconds) : Double(Int32.max)
        if s < 60 { return say("just now", "刚刚") }
        let whole = Int(min(s, 1e12))
        if whole < 3600 { return say("\(whole / 60) min ago", "\(whole / 60) 分钟前") }
        if whole < 86400 { return say("\(whole / 3600) h ago", "\(whole / 3600) 小时前") }
        return say("\(whole / 86400) d ago", "\(whole / 86400) 天前")
    }

    /// The competition's day: "Day 3 of 7" / "第 3 天，共 7 天".
    public func competitionDay(_ day: Int, of days: Int) -> String {
        say("Day \(day) of \(days)", "第 \(day) 天，共 \(days) 天")
    }

    /// The shorter form: "Day 3/7" / "第 3/7 天".
    public func competitionDayShort(_ day: Int, of days: Int) -> String {
        say("Day \(day)/\(days)", "第 \(day)/\(days) 天")
    }

    /// Before it starts: "Starts tomorrow", "Starts in 3 days" / "明天开始", "3 天后开始".
    public func competitionStartsIn(days: Int) -> String {
        days <= 1 ? say("Starts tomorrow", "明天开始") : say("Starts in \(days) days", "\(days) 天后开始")
    }

    /// Once over: "Final" / "最终结果".
    public var competitionFinal: String { say("Final", "最终结果") }
    /// The competition screen without a competition configured.
    public var competitionNone: String {
        say("No competition", "没有比赛")
    }

    /// The winner, or the winners of a tie: "Ann wins", "Ann and Bo tie", "Ann, Bo and Cy tie" /
    /// "Ann 获胜", "Ann 和 Bo 并列第一", "Ann、Bo 和 Cy 并列第一".
    public func competitionWinners(_ names: [String]) -> String {
        switch names.count {
        case 0: return ""
        case 1: return say("\(names[0]) wins", Self.chinese(names[0], "获胜"))
        default:
            let english = names.dropLast().joined(separator: ", ") + " and " + names[names.count - 1]
            let chinese = Self.chinese(Self.chinese(names.dropLast().joined(separator: "、"), "和"), names[names.count - 1])
            return say("\(english) tie", Self.chinese(chinese, "并列第一"))
        }
    }

    /// Two parts of a Chinese sentence: a space between them only where one side is Latin (a
    /// name written in letters or digits), as Chinese is set ("Ann 和 Bo", "小林和欧阳娜娜").
    static func chinese(_ a: String, _ b: String) -> String {
        let latin = (a.last.map { $0.isASCII && !$0.isWhitespace } ?? false) || (b.first.map { $0.isASCII && !$0.isWhitespace } ?? false)
        return a + (latin ? " " : "") + b
    }

    /// A tie for first said without the names (where they do not fit): "Tie for first" / "并列第一".
    public var competitionTie: String { say("Tie for first", "并列第一") }

    /// The standings' columns: total points and today's.
    public var competitionTotal: String { say("POINTS", "总分") }
    public var competitionToday: String { say("TODAY", "今天") }
    /// Today's points in a row's second line where there is no column for them: "today 320" /
    /// "今天 320".
    public func competitionTodayPoints(_ points: String) -> String { say("today \(points)", "今天 \(points)") }
    /// A rank: "1" (the place alone, as a column).
    public func competitionRank(_ rank: Int) -> String { "\(rank)" }
}
