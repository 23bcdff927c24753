import Raster
import Testing

@testable import Text

/// Where lines may break, by UAX #14 through libunibreak, in the two languages the screens speak.
@Suite("Text: line breaks by the Unicode rules (libunibreak)", .timeLimit(.minutes(10)))
struct LineBreakTests {
    /// `text` with "|" where a line may end and "¶" where it must, inside the text (its start and
    /// end aside): what the rules decided, readable in one line.
    static func marked(_ text: String, _ language: String) -> String {
        let breaks = UnicodeLineBreaking.breaks(text, language: language)
        var out = ""
        for (j, c) in Array(text).enumerated() {
            if j > 0 {
                switch breaks[j] {
                case .mandatory: out += "¶"
                case .allowed: out += "|"
                case .prohibited: break
                }
            }
            out.append(c)
        }
        return out
    }

    /// The break between `before` and `after`, the first place they meet in `text`.
    static func between(_ before: String, _ after: String, in text: String, _ language: String) -> LineBreak? {
        let characters = Array(text), a = Array(before), b = Array(after)
        let breaks = UnicodeLineBreaking.breaks(text, language: language)
        for j in a.count...(characters.count - b.count) where Array(characters[(j - a.count)..<j]) == a && Array(characters[j..<(j + b.count)]) == b {
            return breaks[j]
        }
        return nil
    }

    @Test("one entry for each position between Characters, before the first and after the last")
    func shape() {
        for text in ["", "a", "Move 350", "正在导入", "Cafe\u{301} au lait", "👩‍👩‍👧 ok", "a\r\nb"] {
            let breaks = UnicodeLineBreaking.breaks(text, language: "en")
            #expect(breaks.count == Array(text).count + 1, "\(text.debugDescription)")
            #expect(breaks.last == .mandatory, "the text's end")
            if !text.isEmpty { #expect(breaks.first == .prohibited, "no line is empty") }
        }
        #expect(UnicodeLineBreaking.breaks("", language: "zh") == [.mandatory])
        // A combining accent and a family emoji are one Character each: no position inside them.
        #expect(Self.marked("Cafe\u{301} au lait", "en") == "Cafe\u{301} |au |lait")
        #expect(Self.marked("👩‍👩‍👧 ok", "en") == "👩‍👩‍👧 |ok")
    }

    @Test("English: at spaces and after hyphens, never inside a word, a number or before punctuation")
    func english() {
        #expect(Self.marked("Heart-rate zones, well-known.", "en") == "Heart-|rate |zones, |well-|known.")
        #expect(Self.marked("Importing 3,400,000 records (2.1 GB)", "en") == "Importing |3,400,000 |records |(2.1 |GB)")
        #expect(Self.marked("export.zip", "en") == "export.zip")
        // Spaces stay with the line they end; the break comes after the last of them.
        #expect(Self.marked("Stand  hours", "en") == "Stand  |hours")
    }

    @Test("Chinese: between ideographs and after \"，\", never before \"，\" or \"。\", never after \"（\" or \"“\"")
    func chinese() {
        let text = "正在导入健康数据，请稍候"
        #expect(Self.marked(text, "zh") == "正|在|导|入|健|康|数|据，|请|稍|候")
        #expect(Self.between("，", "请", in: text, "zh") == .allowed)
        #expect(Self.between("据", "，", in: text, "zh") == .prohibited)
        #expect(Self.between("数", "据", in: text, "zh") == .allowed, "UAX #14 allows a break between any two ideographs")

        let quoted = "他说“今天的目标已完成”。（步数）"
        #expect(Self.marked(quoted, "zh") == "他|说|“今|天|的|目|标|已|完|成”。|（步|数）")
        #expect(Self.between("“", "今", in: quoted, "zh") == .prohibited, "never after an opening quote")
        #expect(Self.between("成", "”", in: quoted, "zh") == .prohibited, "never before a closing quote")
        #expect(Self.between("”", "。", in: quoted, "zh") == .prohibited, "never before 。")
        #expect(Self.between("（", "步", in: quoted, "zh") == .prohibited, "never after （")
        #expect(Self.between("数", "）", in: quoted, "zh") == .prohibited, "never before ）")
        // Full stop, enumeration comma, colon, exclamation: closing punctuation, never a line's start.
        #expect(Self.marked("完成。下一步：站立、呼吸！", "zh") == "完|成。|下|一|步：|站|立、|呼|吸！")
    }

    @Test("a line feed ends its line: the break after it is mandatory, none before it")
    func mandatory() {
        #expect(Self.marked("Move\nExercise", "en") == "Move\n¶Exercise")
        #expect(Self.marked("Move \nExercise", "en") == "Move \n¶Exercise", "no break between a space and the line feed")
        #expect(Self.marked("活动\r\n锻炼", "zh") == "活|动\r\n¶锻|炼", "CR LF is one Character and one break")
        #expect(UnicodeLineBreaking.breaks("a\u{2028}b", language: "en")[2] == .mandatory, "the line separator too")
    }

    @Test("mixed English and Chinese: words, numbers and brackets kept whole")
    func mixed() {
        let text = "export.zip 导入十四年的健康记录（2.1 GB，三百四十万条）"
        #expect(Self.marked(text, "zh") == "export.zip |导|入|十|四|年|的|健|康|记|录|（2.1 |GB，|三|百|四|十|万|条）")
        #expect(Self.between("2", ".1", in: text, "zh") == .prohibited)
        #expect(Self.between("2.", "1", in: text, "zh") == .prohibited)
        #expect(Self.between("export", ".zip", in: text, "zh") == .prohibited)
        #expect(Self.between("export.", "zip", in: text, "zh") == .prohibited)
    }

    /// What a "break anywhere" wrapper, or one that knows only spaces, gets wrong.
    @Test("neither anywhere nor only at spaces: inside words and numbers no, between ideographs yes")
    func notNaive() {
        let text = "正在导入健康数据，请稍候 (2.1 GB)"
        let breaks = UnicodeLineBreaking.breaks(text, language: "zh")
        let anywhere = [LineBreak.prohibited] + Array(repeating: .allowed, count: Array(text).count - 1) + [.mandatory]
        #expect(breaks != anywhere)
        // Where anywhere breaks and the rules do not: before "，", before a space (the break is
        // after it), after "(", inside "2.1" and "GB", before ")".
        let characters = Array(text)
        var refused: [String] = []
        for j in 1..<characters.count where anywhere[j] != breaks[j] {
            refused.append(String(characters[(j - 1)...j]))
        }
        #expect(refused == ["据，", "候 ", "(2", "2.", ".1", "1 ", "GB", "B)"])
        // The renderer protocol's own answer (spaces only) has no break inside the Chinese.
        let spacesOnly = MeasuringRenderer().lineBreaks(text, language: "zh")
        #expect(spacesOnly[1..<12].allSatisfy { $0 == .prohibited })
        #expect(breaks[1..<12].filter { $0 == .allowed }.count == 10, "all but before \"，\"")
    }

    @Test("the FreeType renderer answers through libunibreak, also as any TextRenderer")
    func renderer() throws {
        let r: any TextRenderer = try FreeTypeTextRenderer()
        let text = "正在导入健康数据，请稍候"
        #expect(r.lineBreaks(text, language: "zh") == UnicodeLineBreaking.breaks(text, language: "zh"))
        #expect(r.lineBreaks("数据", language: "zh-Hans") == [.prohibited, .allowed, .mandatory], "zh-Hans is Chinese")
    }

    @Test("called from many tasks at once: the library is started once and each answer is its own")
    func concurrent() async {
        let texts = ["正在导入健康数据，请稍候", "Heart-rate zones, well-known.", "export.zip 导入（2.1 GB）"]
        let expected = texts.map { UnicodeLineBreaking.breaks($0, language: "zh") }
        await withTaskGroup(of: Bool.self) { group in
            for i in 0..<64 {
                group.addTask { UnicodeLineBreaking.breaks(texts[i % 3], language: "zh") == expected[i % 3] }
            }
            for await same in group { #expect(same) }
        }
    }
}

/// A renderer that only measures: the protocol's own line breaks.
private final class MeasuringRenderer: TextRenderer {
    func measure(_ text: String, _ style: TextStyle) -> TextMetrics {
        TextMetrics(width: Float(text.count) * style.size / 2, ascent: style.size * 0.8, descent: style.size * 0.2)
    }
    func draw(_ text: String, _ style: TextStyle, color: Color, at origin: Point, into buffer: PixelBuffer, clip: IntRect?) {}
    func canRender(_ text: String) -> Bool { true }
}
