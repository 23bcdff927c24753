import Activity
import Raster
import Testing
import Text

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

@Suite("Numbers: written whole, fitted, never cut", .timeLimit(.minutes(20)))
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

    @Test("a number's forms, exact first, then those that read as the same number, then rounded ones of three digits")
    func forms() {
        #expect(NumberLine.forms(1013.25, decimals: 1, locale: .english) == ["1013.3", "1013", "1.01k"])
        #expect(NumberLine.forms(1050, decimals: 0, locale: .english) == ["1050", "1.05k"])
        #expect(NumberLine.forms(123_456, decimals: 0, locale: .english) == ["123,456", "123k"])
        #expect(NumberLine.forms(123_456, decimals: 0, locale: .simplifiedChinese) == ["123,456", "12.3万"])
        #expect(NumberLine.forms(200_000, decimals: 0, locale: .english) == ["200,000", "200k"])
        // Never fewer than three digits: -12.5 is not "-13", 1013 not "1k", 10,460 not "1万".
        #expect(NumberLine.forms(-12.5, decimals: 1, locale: .english) == ["-12.5"])
        #expect(!NumberLine.forms(1013, decimals: 0, locale: .english).contains("1k"))
        #expect(!NumberLine.forms(10_460, decimals: 0, locale: .simplifiedChinese).contains("1万"))
        // Only roundings of the value: 0.001 at two places kept off 0 would be 0.01.
        #expect(NumberLine.forms(0.001, decimals: 5, locale: .english) == ["0.001"])
        #expect(NumberLine.forms(nil, decimals: 0, locale: .english) == ["—"])
        let pair = NumberLine.pair(NumberLine(123_456, decimals: 0, locale: .english),
                                   NumberLine(500, decimals: 0, locale: .english), unit: "KJ")
        #expect(pair.forms == ["123,456/500", "123k/500"] && pair.full == "123,456/500 KJ")
    }

    @Test("which forms read as the number: 1.05k for 1050 and 200k for 200,000 do; 123k, 1013 for 1013.3 do not")
    func faithful() {
        func faithful(_ v: Double, _ decimals: Int, _ locale: AppLocale = .english) -> [String] {
            NumberLine.shapes(v, decimals: decimals, locale: locale, range: nil).filter(\.faithful).map(\.text)
        }
        #expect(faithful(1050, 0) == ["1050", "1.05k"])
        #expect(faithful(200_000, 0) == ["200,000", "200k"])
        #expect(faithful(123_456, 0) == ["123,456"])
        #expect(faithful(123_456, 0, .simplifiedChinese) == ["123,456"])
        #expect(faithful(1013.25, 1) == ["1013.3"])
        #expect(NumberLine.sameNumber("12.3万", "123,000") && !NumberLine.sameNumber("12.3万", "123,456"))
        #expect(NumberLine.numbers(in: "123,456/104,600 KJ") == ["123,456", "104,600"])
        #expect(NumberLine.numbers(in: "−18.5 °C · 3 min") == ["-18.5", "3"])
        #expect(NumberLine.numbers(in: "12.3万 kWh") == ["12.3万"])
    }

    @Test("a number that fits only rounded is drawn rounded only when asked: faithfulOnly says it does not fit")
    func faithfulOnly() {
        let n = NumberLine(123_456, decimals: 0, locale: .english)
        // "123,456" is 64 px at 20 px, 44.8 at 14; "123k" 40 at 20.
        let rounded = layout.fit(n, Self.style, minimum: 14, width: 42)
        #expect(rounded.fits && rounded.text == "123k" && !rounded.faithful)
        let whole = layout.fit(n, Self.style, minimum: 14, width: 42, faithfulOnly: true)
        #expect(!whole.fits && whole.text == "123,456" && whole.faithful)
        let smaller = layout.fit(n, Self.style, minimum: 14, width: 50, faithfulOnly: true)
        #expect(smaller.fits && smaller.text == "123,456" && smaller.style.size < 20)
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
        // Not even at 14 px (62.3): the number whole without its unit, before any digit goes
        // ("1013.3" is 44 px at 20).
        let bare = layout.fit(n, Self.style, minimum: 14, width: 60)
        #expect(bare.text == "1013.3" && bare.faithful && !bare.exact && bare.full == "1013.3 hPa" && bare.width <= 60)
        // Kept with its unit: the rounded form with it ("1013 hPa", 75 px at 20, 52.5 at 14).
        let shorter = layout.fit(n, Self.style, minimum: 14, width: 60, keepUnit: true)
        #expect(shorter.text == "1013 hPa" && !shorter.faithful && shorter.width <= 60)
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

/// Lines broken by the Unicode rules, through the renderer that draws them (libunibreak).
@Suite("Lines broken where the language lets a line end", .timeLimit(.minutes(20)))
struct LineWrappingTests {
    static func layout(_ locale: AppLocale) throws -> TextLayout {
        var layout = TextLayout(
            renderer: try FreeTypeTextRenderer(fonts: .init(languages: locale == .simplifiedChinese ? [.simplifiedChinese] : [])))
        layout.language = locale.rawValue
        return layout
    }

    @Test("Chinese: after the comma, not inside a word, where that break is in the line's last third")
    func chinese() throws {
        let text = try Self.layout(.simplifiedChinese)
        let style = TextStyle(size: 20, weight: .medium)
        let label = "正在导入健康数据，请稍候"
        // A line a little wider than the phrase before the comma: the phrase and the comma on it.
        let phrase = text.measure("正在导入健康数据，", style).width
        let lines = text.wrapped(label, style, widths: [phrase + 25, phrase + 25])
        #expect(lines == ["正在导入健康数据，", "请稍候"], "\(lines)")
        // Never a line that begins with the comma or ends with an opening bracket.
        let long = "正在从 export.zip 导入十四年的健康记录（2.1 GB，三百四十万条）"
        for w in stride(from: Float(60), through: 400, by: 7) {
            let l = text.wrapped(long, style, widths: [w, w, w, w, w, w, w, w, w, w, w])
            #expect(!l.contains { $0.hasPrefix("，") || $0.hasPrefix("）") || $0.hasSuffix("（") }, "\(w): \(l)")
            #expect(!l.contains { $0.hasSuffix("2.") || $0.hasPrefix(".1") }, "\(w): 2.1 broken: \(l)")
        }
    }

    @Test("English: at spaces and after hyphens; a line feed ends a line")
    func english() throws {
        let text = try Self.layout(.english)
        let style = TextStyle(size: 20, weight: .medium)
        let w = text.measure("Heart-rate zones", style).width
        #expect(text.wrapped("Heart-rate zones are well-known", style, widths: [w + 1, w + 1]) == ["Heart-rate zones", "are well-known"])
        #expect(text.wrapped("Two\nlines", style, widths: [500, 500]) == ["Two", "lines"])
    }
}
