import Activity
import Raster
import Testing

@testable import Screens

/// Characters 10 px wide per 20 px of size ("." and "," 4, a space 5), so what fits is known.
private final class FixedWidthRenderer: TextRenderer {
    static func width(_ c: Character, _ size: Float) -> Float {
        let em: Float
        switch c {
        case ".", ",": em = 0.2
        case " ": em = 0.25
        default: em = 0.5
        }
        return em * size
    }

    func measure(_ text: String, _ style: TextStyle) -> TextMetrics {
        TextMetrics(width: text.reduce(0) { $0 + Self.width($1, style.size) }, ascent: style.size * 0.8, descent: style.size * 0.2)
    }

    func draw(_ text: String, _ style: TextStyle, color: Color, at origin: Point, into buffer: PixelBuffer, clip: IntRect?) {}
    func canRender(_ text: String) -> Bool { true }
}

@Suite("Numbers: written whole, fitted, never cut")
struct NumberFitTests {
    @Test("thousands grouped from five digits; four-digit numbers as they are")
    func grouped() {
        #expect(NumberText.grouped(1050, decimals: 0) == "1050")
        #expect(NumberText.grouped(12_845, decimals: 0) == "12,845")
        #expect(NumberText.grouped(123_456.5, decimals: 1, trimmingZeros: true) == "123,456.5")
        #expect(NumberText.grouped(-1_234_567, decimals: 0) == "-1,234,567")
        #expect(NumberText.grouped(-12.5, decimals: 1) == "-12.5")
    }

    @Test("compact forms: thousands (k, M, B) and myriads (万, 亿), rounded, never into the whole part")
    func compact() {
        #expect(NumberText.compact(1050, significant: 3) == "1.05k")
        #expect(NumberText.compact(123_456, significant: 3) == "123k")
        #expect(NumberText.compact(1_234_567, significant: 3) == "1.23M")
        #expect(NumberText.compact(1_200_000, significant: 3) == "1.2M")
        #expect(NumberText.compact(-12_845, significant: 2) == "-13k")
        // Rounded up into the next step: written in that one.
        #expect(NumberText.compact(999_600, significant: 3) == "1M")
        #expect(NumberText.compact(999, significant: 3) == nil)
        #expect(NumberText.compact(123_456, significant: 3, scale: .myriads) == "12.3万")
        #expect(NumberText.compact(120_000_000, significant: 3, scale: .myriads) == "1.2亿")
        #expect(NumberText.compact(9999, significant: 3, scale: .myriads) == nil)
        #expect(NumberText.compact(.nan, significant: 3) == nil)
    }

    @Test("a number's forms, exact first, in the language's own compact form")
    func forms() {
        #expect(NumberLine.forms(1013.25, decimals: 1, locale: .english) == ["1013.3", "1013", "1.01k"])
        #expect(NumberLine.forms(1050, decimals: 0, locale: .english) == ["1050", "1.05k", "1.1k"])
        #expect(NumberLine.forms(123_456, decimals: 0, locale: .english) == ["123,456", "123456", "123k"])
        #expect(NumberLine.forms(123_456, decimals: 0, locale: .simplifiedChinese) == ["123,456", "123456", "12.3万", "12万"])
        #expect(NumberLine.forms(-12.5, decimals: 1, locale: .english) == ["-12.5", "-13"])
        // Never fewer than two digits: 1013 is not "1k", 10,460 not "1万".
        #expect(!NumberLine.forms(1013, decimals: 0, locale: .english).contains("1k"))
        #expect(!NumberLine.forms(10_460, decimals: 0, locale: .simplifiedChinese).contains("1万"))
        #expect(NumberLine.forms(nil, decimals: 0, locale: .english) == ["—"])
        let pair = NumberLine.pair(NumberLine(123_456, decimals: 0, locale: .english),
                                   NumberLine(500, decimals: 0, locale: .english), unit: "KJ")
        #expect(pair.forms == ["123,456/500", "123456/500", "123k/500"] && pair.full == "123,456/500 KJ")
    }

    let layout = TextLayout(renderer: FixedWidthRenderer())
    static let style = TextStyle(size: 20, weight: .semibold)

    @Test("fitting: smaller first (to the minimum), then shorter forms, then without the unit; never cut")
    func fitting() {
        let n = NumberLine(1013.25, decimals: 1, locale: .english, unit: "hPa")
        // "1013.3 hPa" is 10 + 10 + 10 + 10 + 4 + 10 + 5 + 30 = 89 px at 20 px.
        let whole = layout.fit(n, Self.style, minimum: 14, width: 90)
        #expect(whole.text == "1013.3 hPa" && whole.style.size == 20 && whole.exact && whole.fits)
        // Smaller: the exact form at the largest 6 % step that fits 80 px.
        let smaller = layout.fit(n, Self.style, minimum: 14, width: 80)
        #expect(smaller.text == "1013.3 hPa" && smaller.style.size < 20 && smaller.style.size >= 14 && smaller.width <= 80)
        // Not even at 14 px (62.3): the next form, "1013 hPa" (75 px at 20), as large as fits.
        let shorter = layout.fit(n, Self.style, minimum: 14, width: 60)
        #expect(shorter.text == "1013 hPa" && !shorter.exact && shorter.full == "1013.3 hPa" && shorter.width <= 60)
        // Then without the unit, before any digit goes.
        let bare = layout.fit(n, Self.style, minimum: 14, width: 40)
        #expect(bare.text == "1013.3" || bare.text == "1013")
        #expect(bare.fits && !bare.text.contains("hPa") && bare.width <= 40)
        // Nothing fits: the shortest form without the unit at the minimum, wider than the room,
        // never an ellipsis.
        let none = layout.fit(n, Self.style, minimum: 14, width: 10)
        #expect(!none.fits && !none.text.contains("…") && none.style.size == 14)
    }

    @Test("a room that widens as the line gets smaller (a chord): the exact form, smaller, before a shorter one")
    func chordRoom() {
        let n = NumberLine(123_456, decimals: 0, locale: .english, unit: "kWh")
        // "123,456 kWh" is 99 px at 20 px; a room of 90 px at 20 px and 10 px more per pixel less.
        let f = layout.fit(n, Self.style, minimum: 14, room: { 90 + (20 - $0) * 10 })
        #expect(f.exact && f.text == "123,456 kWh" && f.style.size < 20, "\(f.text) at \(f.style.size)")
        #expect(f.width <= 90 + (20 - f.style.size) * 10)
    }

    @Test("never under the floor, whatever minimum is asked")
    func floor() {
        let n = NumberLine(123_456, decimals: 0, locale: .english)
        let f = layout.fit(n, Self.style, minimum: 4, width: 1)
        #expect(f.style.size == layout.floor)
        let scale = TypeScale(size: Size(width: 240, height: 240), locale: .english)
        let s = scale.style(13, .semibold)
        #expect(s.size == scale.floor && scale.floor > Legibility.pixelFloor)
    }

    @Test("numbers read together are fitted to one size")
    func together() {
        let lines = [NumberLine(950, decimals: 0, locale: .english), NumberLine(1050, decimals: 0, locale: .english)]
        let f = layout.fitTogether(lines, Self.style, minimum: 14, widths: [40, 36])
        #expect(f[0].style.size == f[1].style.size && f.allSatisfy(\.fits) && f[1].text == "1050")
    }

    @Test("a cut description never ends in a number")
    func truncation() {
        let text = "export.zip (2.1 GB, 3,400,000 entries)"
        for width in stride(from: Float(20), through: 200, by: 1) {
            let cut = layout.truncated(text, Self.style, width: width)
            guard cut.hasSuffix("…") else { continue }
            let before = cut.dropLast().reversed().first { $0 != " " }
            #expect(before.map { !($0.isASCII && $0.isNumber) } ?? true, "\(width): '\(cut)'")
            #expect(layout.measure(cut, Self.style).width <= width)
        }
    }

    @Test("lines: two broken where the longer is shortest; Chinese never breaks before its punctuation")
    func wrapping() {
        let lines = layout.wrapped("Cancelling leaves your data as it was", Self.style, widths: [200, 200])
        #expect(lines == ["Cancelling leaves", "your data as it was"], "\(lines)")
        let zh = layout.wrapped("正在导入健康记录（二点一吉字节）", Self.style, widths: [90, 200])
        #expect(zh.count == 2 && !zh[1].hasPrefix("）") && !zh[0].hasSuffix("（"), "\(zh)")
        #expect(layout.wrapped("short", Self.style, widths: [200, 200]) == ["short"])
    }
}
