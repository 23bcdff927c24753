import Activity
import Raster
import Testing

@testable import Screens

/// Every character 8 wide, the ellipsis 6, a space 3.
private final class FixedWidthRenderer: TextRenderer {
    func measure(_ text: String, _ style: TextStyle) -> TextMetrics {
        TextMetrics(width: text.reduce(0) { $0 + ($1 == "…" ? 6 : $1 == " " ? 3 : 8) }, ascent: 10, descent: 3)
    }
    func draw(_ text: String, _ style: TextStyle, color: Color, at origin: Point, into buffer: PixelBuffer, clip: IntRect?) {}
    func canRender(_ text: String) -> Bool { true }
}

/// What the household's screens share: names cut to their room, colours made readable, the
/// damage of a frame that changed.
@Suite("Household screens: names, colours, changes", .timeLimit(.minutes(10)))
struct HouseholdTests {
    static var text: TextLayout { TextLayout(renderer: FixedWidthRenderer()) }
    static let style = TextStyle(size: 16)

    @Test("a name: whole, else after a whole word, else at a character, always with an ellipsis")
    func cutName() {
        func cut(_ name: String, _ width: Float) -> String { Household.cutName(name, Self.style, width: width, text: Self.text) }
        // "Maximilian Alexander": 10 × 8 + 3 + 9 × 8 = 155.
        #expect(cut("Maximilian Alexander", 155) == "Maximilian Alexander")
        // "Maximilian…" is 86: after the word where it keeps at least half the room.
        #expect(cut("Maximilian Alexander", 120) == "Maximilian…")
        // After the only whole word that fits, "Max…" (30), too little of 100: at a character.
        #expect(cut("Max Alexander Featherstonehaugh", 100) == "Max Alexande…")
        // No space (a Chinese name): at a character.
        #expect(cut("欧阳娜娜与司马相如", 40) == "欧阳娜娜…")
        #expect(cut("Ann", 5) == "")
    }

    @Test("a colour made readable on black: a light one kept, a dark one lightened to 4.5:1")
    func readable() {
        #expect(abs(Household.luminance(.white) - 1) < 1e-9)
        #expect(Household.luminance(.black) == 0)
        // #777777 is 0.1845 (WCAG's formula).
        #expect(abs(Household.luminance(Color(hex: 0x777777)) - 0.1845) < 0.0005)
        for light in [Color(hex: 0xFF9F0A), Color(hex: 0xFFD60A), Color(hex: 0x30D158), .white] {
            #expect(Household.readable(light) == light)
        }
        for dark in [Color(hex: 0x1A237E), Color(hex: 0x000000), Color(hex: 0x800000), Color(hex: 0x0000FF)] {
            let r = Household.readable(dark)
            #expect(Household.luminance(r) >= 0.175, "\(dark) → \(r)")
            // Its hue kept: the strongest channel of a coloured one stays the strongest.
            if dark.blue > dark.red { #expect(r.blue >= r.red) }
        }
    }

    @Test("a colour as the store keeps it (#rrggbb)")
    func colourText() {
        #expect(Color(rgb: "#ff9f0a") == Color(hex: 0xFF9F0A))
        #expect(Color(rgb: "#1A237E") == Color(hex: 0x1A237E))
        #expect(Color(rgb: "#000000") == .black)
        for bad in ["", "#fff", "ff9f0a", "#ff9f0g", "#ff9f0a0", " #ff9f0a", "#ff 9f0"] {
            #expect(Color(rgb: bad) == nil, "\(bad)")
        }
    }

    static let members = [
        FamilyMember(name: "Ann", colour: Color(hex: 0xBF5AF2), summary: ActivitySummary(
            activeEnergyBurned: .kilocalories(120), activeEnergyBurnedGoal: .kilocalories(400), exerciseTime: 5,
            exerciseTimeGoal: 30, standHours: 3, standHoursGoal: 12)),
        FamilyMember(name: "Bo", colour: Color(hex: 0xFF9F0A), summary: nil),
    ]

    @Test("changes: the same people draw nothing again; a moved figure only where it was and is")
    func changes() {
        let size = Size(width: 800, height: 480)
        let context = ScreenContext(text: FixedWidthRenderer())
        let a = FamilyScreen(members: Self.members, context: context)
        #expect(a.changes(since: FamilyScreen(members: Self.members, context: context), at: 0, now: 1, size: size)?.isEmpty == true)
        var more = Self.members
        more[0].summary?.exerciseTime = 6
        let b = FamilyScreen(members: more, context: context)
        let damage = b.changes(since: a, at: 0, now: 1, size: size)
        #expect(damage != nil && damage?.isEmpty == false)
        // Bo's column is untouched.
        let bo = Explanation(of: b, size: size).rings[1].rect.enclosingPixels
        #expect(damage?.rects.allSatisfy { $0.intersection(bo).isEmpty } == true)
        // Another kind of screen: all of it.
        #expect(b.changes(since: MessageScreen(text: "x", context: context), at: 0, now: 1, size: size) == nil)
        let c = CompetitionScreen(content: CompetitionContent(entries: [], day: 1, days: 7, finished: false), context: context)
        #expect(c.changes(since: c, at: 0, now: 1, size: size)?.isEmpty == true)
    }
}
