import Activity
import Raster

/// Where a line of text sits horizontally.
public enum TextAlignment: Sendable {
    case leading, center, trailing
}

/// The type scale (docs/design/type.md): text is sized in pixels of a 480-pixel short side and
/// scaled with the panel, but never drawn under `floor`.
public struct TypeScale: Sendable {
    /// The smallest text any screen draws, in pixels (the em): capitals of about 1 mm on the
    /// densest panels Glance drives (a 1.3" 240x240 panel has about 260 pixels to the inch).
    public static let floor: Float = 14

    /// Pixels per pixel of the 480-pixel design.
    public let u: Float
    public let chinese: Bool

    public init(size: Size, locale: AppLocale) {
        u = Float(min(size.width, size.height)) / 480
        chinese = locale == .simplifiedChinese
    }

    /// `design` scaled to the panel, at least `minimum` and the floor. Chinese characters set
    /// for Latin capitals (`caps`) are about a tenth larger, to read as well, and never spaced.
    public func style(_ design: Float, _ weight: FontWeight, minimum: Float = 0, caps: Bool = false) -> TextStyle {
        Self.style(px: design * u, weight, minimum: minimum, caps: caps, chinese: chinese)
    }

    /// A style of `px` pixels (already scaled), at least `minimum` and the floor.
    public func style(px: Float, _ weight: FontWeight, minimum: Float = 0, caps: Bool = false) -> TextStyle {
        Self.style(px: px, weight, minimum: minimum, caps: caps, chinese: chinese)
    }

    static func style(px: Float, _ weight: FontWeight, minimum: Float, caps: Bool, chinese: Bool) -> TextStyle {
        let m = max(floor, minimum)
        let s = chinese && caps ? max(m + 1, px * 1.12) : max(m, px)
        return TextStyle(size: s, weight: weight, tracking: caps && !chinese ? s * 0.06 : 0)
    }
}

/// A number as a screen may write it, with its unit: the exact form first, then shorter ones
/// that say the same more roughly (`NumberText.grouped`, `fixed`, `compact`). The shorter forms
/// are worked out only when the exact one does not fit (a frame of the intro writes every figure
/// anew).
struct NumberLine: Sendable {
    /// The number alone, exact ("12,845").
    let exact: String
    /// Where its other forms come from.
    private let source: Source
    var unit: String = ""
    /// The unit follows the number without a space ("72°", "41%").
    var attached = false
    /// Kept after the number and its unit in every form ("· 12 min", a stale value's age).
    var suffix = ""

    /// Its forms as given, a value's (worked out when asked), or two lines' side by side.
    private enum Source: Sendable {
        case forms([String])
        case value(Double, decimals: Int, locale: AppLocale)
        indirect case pair(NumberLine, NumberLine)
    }

    init(forms: [String], unit: String = "", attached: Bool = false, suffix: String = "") {
        let forms = forms.isEmpty ? ["—"] : forms
        self.init(exact: forms[0], source: .forms(forms), unit: unit, attached: attached, suffix: suffix)
    }

    private init(exact: String, source: Source, unit: String = "", attached: Bool = false, suffix: String = "") {
        self.exact = exact
        self.source = source
        self.unit = unit
        self.attached = attached
        self.suffix = suffix
    }

    /// `value` rounded to `decimals` places (trailing zeros dropped), and its shorter forms:
    /// without grouping, without the fraction, compact (thousands, or myriads in Chinese).
    init(_ value: Double?, decimals: Int, locale: AppLocale, unit: String = "", attached: Bool = false,
         suffix: String = "") {
        guard let v = value, v.isFinite else {
            self.init(forms: [locale.strings.missing], unit: unit, attached: attached, suffix: suffix)
            return
        }
        self.init(exact: NumberText.grouped(v, decimals: decimals, trimmingZeros: true),
                  source: .value(v, decimals: decimals, locale: locale), unit: unit, attached: attached, suffix: suffix)
    }

    /// Every form, exact first.
    var forms: [String] {
        switch source {
        case .forms(let forms): return forms
        case .value(let v, let decimals, let locale): return Self.forms(v, decimals: decimals, locale: locale)
        case .pair(let a, let b):
            let fa = a.forms, fb = b.forms
            var forms: [String] = []
            for i in 0..<max(fa.count, fb.count) {
                let s = fa[min(i, fa.count - 1)] + "/" + fb[min(i, fb.count - 1)]
                if !forms.contains(s) { forms.append(s) }
            }
            return forms
        }
    }

    static func forms(_ value: Double?, decimals: Int, locale: AppLocale) -> [String] {
        guard let v = value, v.isFinite else { return [locale.strings.missing] }
        var forms: [String] = []
        func add(_ s: String?) {
            if let s, !forms.contains(s) { forms.append(s) }
        }
        add(NumberText.grouped(v, decimals: decimals, trimmingZeros: true))
        add(NumberText.fixed(v, decimals: decimals, trimmingZeros: true))
        if decimals > 0 {
            add(NumberText.grouped(v, decimals: 0))
            add(NumberText.fixed(v, decimals: 0))
        }
        let scale: NumberText.CompactScale = locale == .simplifiedChinese ? .myriads : .thousands
        add(NumberText.compact(v, significant: 3, scale: scale))
        // Two significant digits at the least: 1013 is never "1k".
        if let two = NumberText.compact(v, significant: 2, scale: scale),
            two.filter({ $0.isASCII && $0.isNumber }).count >= 2
        {
            add(two)
        }
        return forms
    }

    /// "value/goal", form by form: both exact, then both shorter.
    static func pair(_ a: NumberLine, _ b: NumberLine, unit: String) -> NumberLine {
        NumberLine(exact: a.exact + "/" + b.exact, source: .pair(a, b), unit: unit)
    }

    /// The number alone, without its unit.
    var bare: NumberLine { NumberLine(exact: exact, source: source, suffix: suffix) }

    /// `number` (one of the forms) with or without the unit (when the unit is part of the same
    /// run), and the suffix.
    func text(_ number: String, unit withUnit: Bool) -> String {
        var text = number
        if withUnit && !unit.isEmpty { text += attached ? unit : " " + unit }
        return suffix.isEmpty ? text : text + " " + suffix
    }

    /// The exact form with its unit.
    var full: String { text(exact, unit: true) }
}

/// A unit drawn as a run of its own after its number (smaller, spaced), shrinking with it.
struct UnitRun {
    var style: TextStyle
    var minimum: Float
    var gap: Float
}

/// A number fitted to its room.
struct FittedNumber {
    /// The number as drawn (with its unit when they share the run).
    var text: String
    /// The unit's own run, nil when there is none or it was left out.
    var unit: String?
    var style: TextStyle
    var unitStyle: TextStyle
    var gap: Float
    /// The width of the whole (number, gap, unit).
    var width: Float
    /// The exact form with its unit.
    var full: String
    /// Whether it fits the room it was fitted to (false: its shortest form at its minimum,
    /// wider than the room).
    var fits: Bool
    /// Drawn in its exact form with its unit.
    var exact: Bool
}

/// The width a number may take when drawn at a size.
protocol NumberRoom {
    func width(at size: Float) -> Float
}

struct FixedRoom: NumberRoom {
    let width: Float
    func width(at size: Float) -> Float { width }
}

struct SizedRoom: NumberRoom {
    let width: (Float) -> Float
    func width(at size: Float) -> Float { width(size) }
}

/// Text placement for the screens: measuring, fitting a width, aligning on a baseline.
struct TextLayout {
    let renderer: (any TextRenderer)?
    var probe: LayoutProbe? = nil
    var draws = true

    init(renderer: (any TextRenderer)?, probe: LayoutProbe? = nil, draws: Bool = true) {
        self.renderer = renderer
        self.probe = probe
        self.draws = draws
    }

    init(_ context: ScreenContext) {
        self.init(renderer: context.text, probe: context.probe, draws: context.drawsText)
    }

    /// Colours of text on black.
    static let primary = Color(hex: 0xFFFFFF)
    static let secondary = Color(hex: 0x8E8E93)

    func measure(_ text: String, _ style: TextStyle) -> TextMetrics {
        renderer?.measure(text, style) ?? TextMetrics(width: 0, ascent: style.size * 0.9, descent: style.size * 0.25)
    }

    /// The style shrunk (in 6 % steps, down to `minimum` and never under the floor) until `text`
    /// fits `width`; at `minimum` when it does not fit even there.
    func fitting(_ text: String, _ style: TextStyle, minimum: Float, width: Float) -> TextStyle {
        var s = style
        let minimum = min(style.size, max(TypeScale.floor, minimum))
        while s.size > minimum && measure(text, s).width > width {
            s.size = max(minimum, s.size * 0.94)
        }
        return s
    }

    /// The style shrunk down to 70 % (never under the floor), until `text` fits `width`.
    func fitting(_ text: String, _ style: TextStyle, width: Float) -> TextStyle {
        fitting(text, style, minimum: style.size * 0.7, width: width)
    }

    /// A title or description fitted to `width`: shrunk down to `minimum`, then cut with an
    /// ellipsis. Never for numbers (`fit`).
    func fitted(_ text: String, _ style: TextStyle, minimum: Float, width: Float) -> (text: String, style: TextStyle) {
        let s = fitting(text, style, minimum: minimum, width: width)
        return (truncated(text, s, width: width), s)
    }

    /// `text` cut with an ellipsis to the longest start that fits `width` in `style`; "" when not
    /// even the ellipsis fits. A longer start is never narrower, so a binary search finds it with
    /// log2(n) measurements (a label is cut on every frame of an animation).
    ///
    /// A number is never cut: a cut that would end in one (or right after one) ends before it,
    /// so "export.zip (2.1 GB, 3,400,000 entries)" reads "export.zip (2.1 GB,…", never "3,40…".
    func truncated(_ text: String, _ style: TextStyle, width: Float) -> String {
        guard measure(text, style).width > width else { return text }
        let characters = Array(text)
        func cut(_ count: Int) -> String {
            var n = count
            while n > 0 && characters[n - 1] == " " { n -= 1 }
            while n > 0 && Self.inNumber(characters, n - 1) { n -= 1 }
            return String(characters[..<n]).trimmingTrailingSpaces + "…"
        }
        var low = 0
        var high = characters.count - 1
        var best: String?
        while low <= high {
            let middle = (low + high) / 2
            let candidate = cut(middle)
            if measure(candidate, style).width <= width {
                best = candidate
                low = middle + 1
            } else {
                high = middle - 1
            }
        }
        return best ?? ""
    }

    /// Whether the character at `i` is part of a number: a digit, or a separator between
    /// digits ("2.1", "3,400").
    static func inNumber(_ c: [Character], _ i: Int) -> Bool {
        func digit(_ j: Int) -> Bool { j >= 0 && j < c.count && c[j].isASCII && c[j].isNumber }
        if digit(i) { return true }
        return (c[i] == "." || c[i] == ",") && digit(i - 1)
    }

    // MARK: Numbers

    /// The one way a number meets its room: its exact form shrunk down to `minimum` (never under
    /// the floor), then each shorter form (1,050 → 1050 → 1.05k; 123,456 → 123k; 12.3万) from
    /// the full size down; then the same without the unit. Never cut: when nothing fits, the
    /// shortest form without its unit at `minimum` (`fits` false).
    ///
    /// `formsFirst` tries every form at the full size before shrinking any (for lines that have
    /// a shorter wording, as a date: "Wednesday, November 25" → "Wed, Nov 25"), then shrinks the
    /// shortest.
    func fit(
        _ n: NumberLine, _ style: TextStyle, minimum: Float, width: Float, unit: UnitRun? = nil, formsFirst: Bool = false
    ) -> FittedNumber {
        fit(n, style, minimum: minimum, in: FixedRoom(width: width), unit: unit, formsFirst: formsFirst)
    }

    /// As `fit(_:_:minimum:width:)`, in a room whose width depends on the size drawn (the chord
    /// of a circle at the height of the line: a smaller line has more room).
    func fit(
        _ n: NumberLine, _ style: TextStyle, minimum: Float, room: (Float) -> Float, unit: UnitRun? = nil,
        formsFirst: Bool = false
    ) -> FittedNumber {
        withoutActuallyEscaping(room) { room in
            fit(n, style, minimum: minimum, in: SizedRoom(width: room), unit: unit, formsFirst: formsFirst)
        }
    }

    /// The fitting itself, for either room (specialised for each: a fixed width costs no call).
    func fit<R: NumberRoom>(
        _ n: NumberLine, _ style: TextStyle, minimum: Float, in room: R, unit: UnitRun?, formsFirst: Bool
    ) -> FittedNumber {
        func fits(_ f: FittedNumber) -> Bool { f.width <= room.width(at: f.style.size) }
        let minimum = min(style.size, max(TypeScale.floor, minimum))
        // The exact form at full size: what fits nearly always, without working out the others.
        let first = fitted(n, n.exact, exact: true, unit: !n.unit.isEmpty, run: unit, style: style, base: style)
        if fits(first) { return first }
        let forms = n.forms
        if formsFirst {
            for (i, form) in forms.enumerated().dropFirst() {
                let top = fitted(n, form, exact: i == 0, unit: !n.unit.isEmpty, run: unit, style: style, base: style)
                if fits(top) { return top }
            }
            let shortest = NumberLine(forms: [forms[forms.count - 1]], unit: n.unit, attached: n.attached,
                                      suffix: n.suffix)
            var f = fit(shortest, style, minimum: minimum, in: room, unit: unit, formsFirst: false)
            f.full = n.full
            f.exact = forms.count == 1 && f.exact
            return f
        }
        var last: FittedNumber?
        for shown in n.unit.isEmpty ? [false] : [true, false] {
            for (i, form) in forms.enumerated() {
                let exact = i == 0 && (shown || n.unit.isEmpty)
                let top = i == 0 && shown == !n.unit.isEmpty
                    ? first : fitted(n, form, exact: exact, unit: shown, run: unit, style: style, base: style)
                if fits(top) { return top }
                var s = style
                s.size = minimum
                let bottom = fitted(n, form, exact: exact, unit: shown, run: unit, style: s, base: style)
                last = bottom
                guard fits(bottom) else { continue }
                // It fits somewhere between: the largest 6 % step that does.
                var candidate = top
                while !fits(candidate) && s.size < candidate.style.size {
                    var next = candidate.style
                    next.size = max(minimum, next.size * 0.94)
                    candidate = fitted(n, form, exact: exact, unit: shown, run: unit, style: next, base: style)
                }
                return candidate
            }
        }
        var fallback = last!
        fallback.fits = false
        return fallback
    }

    /// Numbers that are read together (a row of figures, a range's two ends), each fitted to
    /// its width, then all at the smallest size any of them needed.
    func fitTogether(_ lines: [NumberLine], _ style: TextStyle, minimum: Float, widths: [Float], unit: UnitRun? = nil)
        -> [FittedNumber]
    {
        let first = zip(lines, widths).map { fit($0, style, minimum: minimum, width: $1, unit: unit) }
        guard let size = first.map(\.style.size).min(), first.contains(where: { $0.style.size > size }) else { return first }
        var s = style
        if s.tracking > 0 { s.tracking = size * style.tracking / style.size }
        s.size = size
        var u = unit
        if var run = unit {
            let original = run.style
            run.style.size = max(TypeScale.floor, run.minimum, original.size * size / style.size)
            if original.tracking > 0 { run.style.tracking = run.style.size * original.tracking / original.size }
            run.gap = run.gap * size / style.size
            u = run
        }
        return zip(lines, widths).enumerated().map { i, pair in
            first[i].style.size == size ? first[i] : fit(pair.0, s, minimum: size, width: pair.1, unit: u)
        }
    }

    /// `form` of `n` in `style` (the unit's run scaled as the number is from `base`).
    private func fitted(
        _ n: NumberLine, _ form: String, exact: Bool, unit shown: Bool, run: UnitRun?, style: TextStyle,
        base: TextStyle
    ) -> FittedNumber {
        var s = style
        if base.tracking > 0 { s.tracking = s.size * base.tracking / base.size }
        let scale = s.size / base.size
        if let run, shown, !n.unit.isEmpty {
            // The number alone, then the unit's run (with what follows it).
            let unitText = n.suffix.isEmpty ? n.unit : n.unit + " " + n.suffix
            var us = run.style
            us.size = max(TypeScale.floor, run.minimum, run.style.size * scale)
            if run.style.tracking > 0 { us.tracking = us.size * run.style.tracking / run.style.size }
            let gap = run.gap * scale
            let width = measure(form, s).width + gap + measure(unitText, us).width
            return FittedNumber(text: form, unit: unitText, style: s, unitStyle: us, gap: gap, width: width, full: n.full,
                                fits: true, exact: exact)
        }
        let text = n.text(form, unit: shown && run == nil)
        return FittedNumber(text: text, unit: nil, style: s, unitStyle: s, gap: 0, width: measure(text, s).width,
                            full: n.full, fits: true, exact: exact && (shown || n.unit.isEmpty))
    }

    /// Draws a fitted number (and its unit's run) on `baseline` within [x0, x1], aligned as one;
    /// returns the box of the whole.
    @discardableResult
    func draw(
        _ f: FittedNumber, color: Color, unitColor: Color? = nil, baseline: Float, from x0: Float, to x1: Float,
        align: TextAlignment, element: @autoclosure () -> String, unitElement: (() -> String)? = nil, number: Bool = true,
        into buffer: PixelBuffer
    ) -> Rect {
        let (value, unit) = place(f, color: color, unitColor: unitColor, baseline: baseline, from: x0, to: x1, align: align,
                                  number: number)
        draw(value, element: element(), into: buffer)
        if let unit { draw(unit, element: unitElement?() ?? element() + ".unit", into: buffer) }
        return Self.box(value, unit)
    }

    /// The box of a number placed with its unit's run (`place(_:color:...)`): both lines'.
    static func box(_ value: PlacedText, _ unit: PlacedText?) -> Rect {
        guard let unit else { return value.box }
        let box = value.box, ubox = unit.box
        let top = min(box.y, ubox.y), bottom = max(box.maxY, ubox.maxY)
        return Rect(x: box.x, y: top, width: ubox.maxX - box.x, height: bottom - top)
    }

    /// Where a fitted number (and its unit's run) goes on `baseline` within [x0, x1], aligned as
    /// one: the number's line, then the unit's.
    func place(
        _ f: FittedNumber, color: Color, unitColor: Color? = nil, baseline: Float, from x0: Float, to x1: Float,
        align: TextAlignment, number: Bool = true
    ) -> (value: PlacedText, unit: PlacedText?) {
        let start: Float
        switch align {
        case .leading: start = x0
        case .center: start = (x0 + x1 - f.width) / 2
        case .trailing: start = x1 - f.width
        }
        let full = f.exact ? nil : f.full
        let value = place(f.text, f.style, color: color, baseline: baseline, from: start, to: start + f.width,
                          align: .leading, full: full, number: number)
        guard let unit = f.unit else { return (value, nil) }
        let ux = value.box.maxX + f.gap
        return (value, place(unit, f.unitStyle, color: unitColor ?? color, baseline: baseline, from: ux, to: ux + f.width,
                             align: .leading))
    }

    // MARK: Lines

    /// `text` broken into lines of at most `widths[i]` each (as many lines as widths): at spaces
    /// where it can, between any two Chinese characters, inside a word only when the word alone
    /// is wider than its line. What does not fit in the last line is cut with an ellipsis.
    func wrapped(_ text: String, _ style: TextStyle, widths: [Float]) -> [String] {
        guard !widths.isEmpty else { return [] }
        var rest = Substring(text)
        var lines: [String] = []
        for (i, width) in widths.enumerated() {
            while rest.first == " " { rest.removeFirst() }
            if rest.isEmpty { break }
            if i == widths.count - 1 || measure(String(rest), style).width <= width {
                lines.append(truncated(String(rest), style, width: width))
                rest = ""
                break
            }
            let characters = Array(rest)
            // The longest start ending at a break that fits (a longer start is never narrower).
            var breaks: [Int] = []
            for j in 1..<characters.count {
                let a = characters[j - 1], b = characters[j]
                // Never after an opening bracket nor before closing punctuation (Chinese rules).
                if Self.opening.contains(a) || Self.closing.contains(b) { continue }
                if b == " " || a == " " && b != " " || Self.breaksAround(a) || Self.breaksAround(b) { breaks.append(j) }
            }
            func fits(_ count: Int) -> Bool {
                measure(String(characters[..<count]).trimmingTrailingSpaces, style).width <= width
            }
            // The last two lines, when the rest fits them: broken where the longer is shortest,
            // so the second is not one lone word.
            if i == widths.count - 2, let next = widths.last {
                var best: (Int, Float)?
                for b in breaks {
                    let first = measure(String(characters[..<b]).trimmingTrailingSpaces, style).width
                    guard first <= width else { break }
                    let second = measure(String(characters[b...]).drop { $0 == " " }.description, style).width
                    guard second <= next else { continue }
                    let longer = max(first, second)
                    if best.map({ longer < $0.1 }) ?? true { best = (b, longer) }
                }
                if let (b, _) = best {
                    lines.append(String(characters[..<b]).trimmingTrailingSpaces)
                    lines.append(String(String(characters[b...]).drop { $0 == " " }))
                    rest = ""
                    break
                }
            }
            var best = 0
            var low = 0, high = breaks.count - 1
            while low <= high {
                let middle = (low + high) / 2
                if fits(breaks[middle]) {
                    best = breaks[middle]
                    low = middle + 1
                } else {
                    high = middle - 1
                }
            }
            if best == 0 {
                // One word wider than the line: as much of it as fits.
                var l = 1, h = characters.count - 1
                best = 1
                while l <= h {
                    let m = (l + h) / 2
                    if fits(m) {
                        best = m
                        l = m + 1
                    } else {
                        h = m - 1
                    }
                }
            }
            lines.append(String(characters[..<best]).trimmingTrailingSpaces)
            rest = Substring(String(characters[best...]))
        }
        return lines
    }

    /// Punctuation a line may not end with, or begin with.
    static let opening: Set<Character> = ["(", "[", "（", "【", "《", "「", "『", "“", "‘"]
    static let closing: Set<Character> = [
        ")", "]", ",", ".", ":", ";", "!", "?", "）", "】", "》", "」", "』", "”", "’", "，", "。", "、", "：", "；", "！", "？", "…",
    ]

    /// Chinese and Japanese characters: a line may break before or after any of them.
    static func breaksAround(_ c: Character) -> Bool {
        guard let s = c.unicodeScalars.first else { return false }
        return s.value >= 0x2E80 && s.value <= 0x9FFF || s.value >= 0xF900 && s.value <= 0xFAFF
            || s.value >= 0xFF00 && s.value <= 0xFFEF
    }

    /// Draws `text` on `baseline` within [x0, x1], aligned; returns the box it takes. `full` is
    /// what it says whole when this is a shortened form; `number` marks a number.
    @discardableResult
    func draw(
        _ text: String, _ style: TextStyle, color: Color, baseline: Float, from x0: Float, to x1: Float,
        align: TextAlignment, element: @autoclosure () -> String, full: String? = nil, number: Bool = false,
        into buffer: PixelBuffer
    ) -> Rect {
        let line = place(text, style, color: color, baseline: baseline, from: x0, to: x1, align: align, full: full,
                         number: number)
        draw(line, element: element(), into: buffer)
        return line.box
    }

    /// Where `text` goes on `baseline` within [x0, x1], aligned: measured, nothing drawn.
    func place(
        _ text: String, _ style: TextStyle, color: Color, baseline: Float, from x0: Float, to x1: Float,
        align: TextAlignment, full: String? = nil, number: Bool = false
    ) -> PlacedText {
        let m = measure(text, style)
        let x: Float
        switch align {
        case .leading: x = x0
        case .center: x = (x0 + x1 - m.width) / 2
        case .trailing: x = x1 - m.width
        }
        return PlacedText(text: text, style: style, color: color, baseline: baseline,
                          box: Rect(x: x, y: baseline - m.ascent, width: m.width, height: m.height), full: full,
                          isNumber: number)
    }

    /// Draws a line where it was placed (and tells the probe, as `element`).
    func draw(_ line: PlacedText, element: @autoclosure () -> String, into buffer: PixelBuffer) {
        // Glyphs ink within the box grown as the damage of a changed line is (`ScreenDamage.text`):
        // a line wholly outside the clip is not drawn at all (a frame redrawing only what changed
        // skips the text elsewhere).
        if draws && buffer.draws(in: ScreenDamage.text(line.box)) {
            renderer?.draw(line.text, line.style, color: line.color, at: Point(x: line.box.x, y: line.baseline),
                           into: buffer, clip: nil)
        }
        if !line.text.isEmpty, let probe {
            probe.run(TextRun(element: element(), text: line.text, full: line.full.flatMap { $0 == line.text ? nil : $0 },
                              style: line.style, box: line.box, isNumber: line.isNumber))
        }
    }

    /// Draws a title or description cut to [x0, x1] (`fitted` first), saying what it was whole.
    @discardableResult
    func drawCut(
        _ text: String, _ style: TextStyle, color: Color, baseline: Float, from x0: Float, to x1: Float,
        align: TextAlignment, element: @autoclosure () -> String, into buffer: PixelBuffer
    ) -> Rect {
        let line = placeCut(text, style, color: color, baseline: baseline, from: x0, to: x1, align: align)
        draw(line, element: element(), into: buffer)
        return line.box
    }

    /// Where a title or description cut to [x0, x1] goes (`drawCut`).
    func placeCut(
        _ text: String, _ style: TextStyle, color: Color, baseline: Float, from x0: Float, to x1: Float,
        align: TextAlignment
    ) -> PlacedText {
        place(truncated(text, style, width: x1 - x0), style, color: color, baseline: baseline, from: x0, to: x1,
              align: align, full: text)
    }
}

/// A line of text laid out: what it says, in which style and colour, on which baseline, and the
/// box it takes (its advances across, the fonts' ascent and descent down; the glyphs start at
/// the box's left edge).
struct PlacedText: Sendable, Hashable {
    var text: String
    var style: TextStyle
    var color: Color
    var baseline: Float
    var box: Rect
    /// What it says whole when this is a shortened form (nil, or the text itself: as written).
    var full: String?
    var isNumber: Bool
}

extension String {
    var trimmingTrailingSpaces: String {
        var s = self
        while s.last == " " { s.removeLast() }
        return s
    }
}
