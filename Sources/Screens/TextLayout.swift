import Activity
import Raster

/// Where a line of text sits horizontally.
public enum TextAlignment: Sendable {
    case leading, center, trailing
}

/// The type scale: text is designed in pixels of a 480-pixel short side and scaled with the
/// panel, but never drawn smaller than the panel's viewing allows (`Legibility`): `floor`, the
/// em whose capitals make 12′ at the eye, for every text; `figure`, 20′, for the figures a screen
/// is for.
public struct TypeScale: Sendable {
    /// Pixels per pixel of the 480-pixel design.
    public let u: Float
    public let chinese: Bool
    /// The panel's size and distance, resolved for the picture.
    public let viewing: ResolvedViewing
    /// The capitals' height over the em of the fonts in use.
    public let capRatio: Float
    /// The smallest em of any text (12′ capitals; never under `Legibility.pixelFloor`).
    public let floor: Float
    /// The smallest em of a primary figure (20′ capitals).
    public let figure: Float

    public init(
        size: Size, locale: AppLocale, viewing: Viewing = Viewing(), shape: PanelShape = .rectangle,
        capRatio: Float = Legibility.usualCapRatio
    ) {
        u = Float(min(size.width, size.height)) / 480
        chinese = locale == .simplifiedChinese
        let resolved = viewing.resolved(for: size, shape: shape)
        self.viewing = resolved
        self.capRatio = capRatio
        let ratio = Double(max(0.3, capRatio))
        // Rounded up to a quarter pixel, so a size computed from it is never a hair under it.
        func em(_ minutes: Double) -> Float {
            (Float(resolved.pixels(arcMinutes: minutes) / ratio) * 4).rounded(.up) / 4
        }
        floor = max(Legibility.pixelFloor, em(Legibility.textArcMinutes))
        figure = max(floor, em(Legibility.figureArcMinutes))
    }

    /// The scale of a picture of `size` drawn through `context` (its viewing, shape, language and
    /// fonts).
    public init(size: Size, context: ScreenContext) {
        self.init(size: size, locale: context.locale, viewing: context.viewing, shape: context.shape,
                  capRatio: context.text?.capRatio ?? Legibility.usualCapRatio)
    }

    /// `design` scaled to the panel, at least `minimum` and the floor. Chinese characters set
    /// for Latin capitals (`caps`) are about a tenth larger, to read as well, and never spaced.
    public func style(_ design: Float, _ weight: FontWeight, minimum: Float = 0, caps: Bool = false) -> TextStyle {
        style(px: design * u, weight, minimum: minimum, caps: caps)
    }

    /// A style of `px` pixels (already scaled), at least `minimum` and the floor.
    public func style(px: Float, _ weight: FontWeight, minimum: Float = 0, caps: Bool = false) -> TextStyle {
        let m = max(floor, minimum)
        let s = chinese && caps ? max(m + 1, px * 1.12) : max(m, px)
        return TextStyle(size: s, weight: weight, tracking: caps && !chinese ? s * 0.06 : 0)
    }

    /// A primary figure's style: `design` scaled, at least the figure size.
    public func figureStyle(_ design: Float, _ weight: FontWeight) -> TextStyle {
        style(design, weight, minimum: figure)
    }

    /// The height in pixels of the capitals of text in `style`.
    public func capHeight(_ style: TextStyle) -> Float { style.size * capRatio }
}

/// A number as a screen may write it, with its unit: its whole form first, then shorter ones that
/// read as the same number (never fewer than three significant digits: 1,050 is "1.05k", never
/// "1.1k"; −18.5 and 0.045 have no shorter form), never rounded across an end of its range
/// (99.95 of 100 is "99.9", never "100"). The one formatter every screen and style writes numbers
/// with, so the same number reads the same everywhere. The shorter forms are worked out only
/// when the whole one does not fit (a frame of the intro writes every figure anew).
struct NumberLine: Sendable {
    /// The number alone, whole ("12,845").
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
        case value(Double, decimals: Int, locale: AppLocale, range: ClosedRange<Double>?)
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

    /// `value` rounded to `decimals` places (trailing zeros dropped; never onto an end of `range`
    /// the value does not reach), and its shorter forms.
    init(_ value: Double?, decimals: Int, locale: AppLocale, unit: String = "", attached: Bool = false,
         suffix: String = "", within range: ClosedRange<Double>? = nil) {
        guard let v = value, v.isFinite else {
            self.init(forms: [locale.strings.missing], unit: unit, attached: attached, suffix: suffix)
            return
        }
        self.init(exact: Self.written(v, decimals: decimals, range: range),
                  source: .value(v, decimals: decimals, locale: locale, range: range), unit: unit, attached: attached,
                  suffix: suffix)
    }

    /// Every form, exact first.
    var forms: [String] { shapes.map(\.text) }

    /// A way to write the number, and whether it reads as exactly the number the exact form
    /// writes. (A struct, not a tuple: an array of tuples brings the runtime's tuple metadata
    /// code into the first frame, docs/speed.md.)
    struct WrittenForm: Equatable {
        let text: String
        let faithful: Bool
    }

    /// Every form, exact first, and whether it reads as exactly the number the exact form writes
    /// (`faithful`: "1.05k" for 1050, "200k" for 200,000; never "123k" for 123,456, "1013" for
    /// 1013.3 or "-13" for −12.5). The faithful forms come before the others. A wording (a day's
    /// label) is faithful in each of its forms.
    var shapes: [WrittenForm] {
        switch source {
        case .forms(let forms): return forms.map { WrittenForm(text: $0, faithful: true) }
        case .value(let v, let decimals, let locale, let range):
            return Self.shapes(v, decimals: decimals, locale: locale, range: range)
        case .pair(let a, let b):
            let fa = a.shapes, fb = b.shapes
            var pairs: [WrittenForm] = []
            for i in 0..<max(fa.count, fb.count) {
                let x = fa[min(i, fa.count - 1)], y = fb[min(i, fb.count - 1)]
                let s = x.text + "/" + y.text
                if !pairs.contains(where: { $0.text == s }) { pairs.append(WrittenForm(text: s, faithful: x.faithful && y.faithful)) }
            }
            return pairs.filter(\.faithful) + pairs.filter { !$0.faithful }
        }
    }

    /// `v` at `decimals` places, grouped: rounded half away from zero, but toward the value where
    /// that would reach an end of `range` the value does not (99.95 of 0…100 at one place: 99.9).
    static func written(_ v: Double, decimals: Int, range: ClosedRange<Double>?) -> String {
        NumberText.grouped(inside(v, decimals: decimals, range: range), decimals: decimals, trimmingZeros: true)
    }

    /// `v`, moved where its rounding to `decimals` would land on or past an end of `range` it does
    /// not reach: to the last step before that end.
    static func inside(_ v: Double, decimals: Int, range: ClosedRange<Double>?) -> Double {
        guard let range else { return v }
        var scale = 1.0
        for _ in 0..<max(0, decimals) { scale *= 10 }
        let rounded = (v * scale).rounded() / scale
        if v < range.upperBound && rounded >= range.upperBound { return (v * scale).rounded(.down) / scale }
        if v > range.lowerBound && rounded <= range.lowerBound { return (v * scale).rounded(.up) / scale }
        return v
    }

    /// The significant digits a written number shows: its digits but the leading zeros (and the
    /// zeros a whole number ends in are counted: 1050 shows four).
    static func significantDigits(_ text: String) -> Int {
        var count = 0, leading = true
        for c in text where c.isASCII && c.isNumber {
            if leading && c == "0" { continue }
            leading = false
            count += 1
        }
        return count
    }

    /// What a compact form (`1.05k`, `12.3万`) reads as.
    static func compactValue(_ text: String) -> Double? {
        let factors: [(String, Double)] = [("万亿", 1e12), ("k", 1e3), ("M", 1e6), ("B", 1e9), ("T", 1e12), ("万", 1e4), ("亿", 1e8)]
        for (suffix, factor) in factors where text.hasSuffix(suffix) {
            return Double(text.dropLast(suffix.count)).map { $0 * factor }
        }
        return nil
    }

    static func forms(_ value: Double?, decimals: Int, locale: AppLocale, range: ClosedRange<Double>? = nil) -> [String] {
        guard let v = value, v.isFinite else { return [locale.strings.missing] }
        return shapes(v, decimals: decimals, locale: locale, range: range).map(\.text)
    }

    /// What a written number reads as: its digits without the grouping commas, times its compact
    /// step ("1.05k": 1050; "12.3万": 123,000); nil for what is not a number ("—").
    static func reading(_ text: String) -> Double? {
        let negative = text.hasPrefix("-")
        let unsigned = negative ? String(text.dropFirst()) : text
        let value = compactValue(unsigned) ?? Double(unsigned.filter { $0 != "," })
        return value.map { negative ? -$0 : $0 }
    }

    /// The numbers written in `text`, in order: a sign, digits with their grouping commas and
    /// decimals, and a compact step ("-18.5", "123,456", "1.05k", "12.3万").
    static func numbers(in text: String) -> [String] {
        let c = Array(text)
        var found: [String] = []
        var i = 0
        func digit(_ j: Int) -> Bool { j < c.count && c[j].isASCII && c[j].isNumber }
        while i < c.count {
            guard digit(i) else {
                i += 1
                continue
            }
            var start = i
            if start > 0 && (c[start - 1] == "-" || c[start - 1] == "−") { start -= 1 }
            var j = i
            while digit(j) || (j < c.count && (c[j] == "," || c[j] == ".") && digit(j + 1)) { j += 1 }
            var token = String(c[start..<j]).replacingMinus
            for suffix in ["万亿", "k", "M", "B", "T", "万", "亿"] {
                let s = Array(suffix)
                if j + s.count <= c.count && Array(c[j..<(j + s.count)]) == s {
                    token += suffix
                    j += s.count
                    break
                }
            }
            found.append(token)
            i = j
        }
        return found
    }

    /// Whether two written numbers read as the same number.
    static func sameNumber(_ a: String, _ b: String) -> Bool {
        guard let x = reading(a), let y = reading(b) else { return a == b }
        return abs(x - y) <= 1e-9 * max(1, abs(x), abs(y))
    }

    /// `v`'s forms, exact first, then the shorter ones that read as the same number, then the
    /// rounded ones (never fewer than three significant digits, never onto an end of `range`).
    static func shapes(_ v: Double, decimals: Int, locale: AppLocale, range: ClosedRange<Double>?)
        -> [WrittenForm]
    {
        let exact = written(v, decimals: decimals, range: range)
        var forms = [exact]
        // A shorter form keeps three significant digits (or all the whole one has, if fewer).
        let keep = min(3, significantDigits(exact))
        func add(_ s: String?) {
            if let s, !forms.contains(s), significantDigits(s) >= keep { forms.append(s) }
        }
        var places = decimals
        var step = 1.0
        for _ in 0..<max(0, decimals) { step /= 10 }
        while places > 0 {
            places -= 1
            step *= 10
            // Only a rounding of the value (0.001 to two places kept off 0 would be 0.01: none).
            let form = written(v, decimals: places, range: range)
            if let read = reading(form), abs(read - v) <= step / 2 * (1 + 1e-9) { add(form) }
        }
        let scale: NumberText.CompactScale = locale == .simplifiedChinese ? .myriads : .thousands
        if let compact = NumberText.compact(v, significant: 3, scale: scale) {
            // Never a compact form that reaches an end of the range the value does not.
            let read = reading(compact)
            let crosses = range.map { r in
                read.map { (v < r.upperBound && $0 >= r.upperBound) || (v > r.lowerBound && $0 <= r.lowerBound) } ?? false
            } ?? false
            if !crosses { add(compact) }
        }
        let shapes = forms.map { WrittenForm(text: $0, faithful: sameNumber($0, exact)) }
        return shapes.filter(\.faithful) + shapes.filter { !$0.faithful }
    }

    /// The places to write `v` with when none are set: as many as show three significant digits
    /// (21.537 → 21.5, 0.045 → 0.045, 0.000123 → 0.000123), none for a number of three digits or
    /// more (1013.25 → 1013), at most nine.
    static func automaticDecimals(_ v: Double) -> Int {
        let a = abs(v)
        guard a.isFinite, a > 0, a < 100 else { return 0 }
        var places = 0
        var x = a
        // Digits before the point (1 for 1–9.99, 2 for 10–99.9), or zeros after it.
        if x >= 10 { return 1 }
        if x >= 1 { return 2 }
        while x < 1 && places < 9 {
            x *= 10
            places += 1
        }
        return min(9, places + 2)
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
    /// Its number reads as exactly the exact form's (the exact form, or a shorter one such as
    /// "1.05k" for 1050), though its unit may be left out.
    var faithful = true

    /// Drawn whole in its room: the exact form that fits (an exact form at the minimum that is
    /// still too wide is no such thing).
    var holdsWhole: Bool { exact && fits }
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
    /// The smallest em any text is fitted down to (the type scale's floor).
    var floor: Float = Legibility.pixelFloor
    /// The language lines are broken by (a BCP 47 tag).
    var language = "en"

    init(renderer: (any TextRenderer)?, probe: LayoutProbe? = nil, draws: Bool = true,
         floor: Float = Legibility.pixelFloor) {
        self.renderer = renderer
        self.probe = probe
        self.draws = draws
        self.floor = floor
    }

    /// Text through `context` that was laid out already (drawn where it was placed, never fitted).
    init(drawing context: ScreenContext) {
        self.init(renderer: context.text, probe: context.probe, draws: context.drawsText)
    }

    /// Text through `context`, fitted down to `scale`'s floor at the least.
    init(_ context: ScreenContext, scale: TypeScale) {
        self.init(renderer: context.text, probe: context.probe, draws: context.drawsText, floor: scale.floor)
        language = context.locale.rawValue
    }

    /// Colours of text on black.
    static let primary = Color(hex: 0xFFFFFF)
    static let secondary = Color(hex: 0x8E8E93)

    func measure(_ text: String, _ style: TextStyle) -> TextMetrics {
        renderer?.measure(text, style) ?? TextMetrics(width: 0, ascent: style.size * 0.9, descent: style.size * 0.25)
    }

    /// The ascent and descent any line of `text` can have, whole or broken or cut with "…" (a
    /// part may be drawn in another of the fonts than the whole: "export.zip" alone takes the
    /// Latin font, inside a Chinese text the Chinese one), with the whole's width.
    func lineMetrics(_ text: String, _ style: TextStyle) -> TextMetrics {
        let whole = measure(text, style), latin = measure("Mg…", style)
        return TextMetrics(width: whole.width, ascent: max(whole.ascent, latin.ascent),
                           descent: max(whole.descent, latin.descent))
    }

    /// The style shrunk (in 6 % steps, down to `minimum` and never under the floor) until `text`
    /// fits `width`; at `minimum` when it does not fit even there.
    func fitting(_ text: String, _ style: TextStyle, minimum: Float, width: Float) -> TextStyle {
        var s = style
        let minimum = min(style.size, max(floor, minimum))
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
        _ n: NumberLine, _ style: TextStyle, minimum: Float, width: Float, unit: UnitRun? = nil, formsFirst: Bool = false,
        keepUnit: Bool = false, faithfulOnly: Bool = false
    ) -> FittedNumber {
        fit(n, style, minimum: minimum, in: FixedRoom(width: width), unit: unit, formsFirst: formsFirst,
            keepUnit: keepUnit, faithfulOnly: faithfulOnly)
    }

    /// As `fit(_:_:minimum:width:)`, in a room whose width depends on the size drawn (the chord
    /// of a circle at the height of the line: a smaller line has more room).
    func fit(
        _ n: NumberLine, _ style: TextStyle, minimum: Float, room: (Float) -> Float, unit: UnitRun? = nil,
        formsFirst: Bool = false, keepUnit: Bool = false, faithfulOnly: Bool = false
    ) -> FittedNumber {
        withoutActuallyEscaping(room) { room in
            fit(n, style, minimum: minimum, in: SizedRoom(width: room), unit: unit, formsFirst: formsFirst,
                keepUnit: keepUnit, faithfulOnly: faithfulOnly)
        }
    }

    /// The fitting itself, for either room (specialised for each: a fixed width costs no call).
    /// `keepUnit`: the unit is never left out (what does not fit with it does not fit).
    /// `faithfulOnly`: no form that reads as another number ("123k" for 123,456) is tried: what
    /// does not fit faithfully does not fit.
    func fit<R: NumberRoom>(
        _ n: NumberLine, _ style: TextStyle, minimum: Float, in room: R, unit: UnitRun?, formsFirst: Bool,
        keepUnit: Bool = false, faithfulOnly: Bool = false
    ) -> FittedNumber {
        func fits(_ f: FittedNumber) -> Bool { f.width <= room.width(at: f.style.size) }
        let minimum = min(style.size, max(floor, minimum))
        // The exact form at full size: what fits nearly always, without working out the others.
        let first = fitted(n, n.exact, exact: true, unit: !n.unit.isEmpty, run: unit, style: style, base: style)
        if fits(first) { return first }
        let shapes = n.shapes
        let forms = shapes.map(\.text)
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
        // Every form that reads as the number first (with its unit, then without), then the
        // rounded ones.
        for faithfulPass in faithfulOnly ? [true] : [true, false] {
            for shown in n.unit.isEmpty ? [false] : keepUnit ? [true] : [true, false] {
                for (i, shape) in shapes.enumerated() where shape.faithful == faithfulPass {
                    let exact = i == 0 && (shown || n.unit.isEmpty)
                    var top = i == 0 && shown == !n.unit.isEmpty
                        ? first : fitted(n, shape.text, exact: exact, unit: shown, run: unit, style: style, base: style)
                    top.faithful = shape.faithful
                    if fits(top) { return top }
                    var s = style
                    s.size = minimum
                    var bottom = fitted(n, shape.text, exact: exact, unit: shown, run: unit, style: s, base: style)
                    bottom.faithful = shape.faithful
                    last = bottom
                    guard fits(bottom) else { continue }
                    // It fits somewhere between: the largest 6 % step that does.
                    var candidate = top
                    while !fits(candidate) && s.size < candidate.style.size {
                        var next = candidate.style
                        next.size = max(minimum, next.size * 0.94)
                        candidate = fitted(n, shape.text, exact: exact, unit: shown, run: unit, style: next, base: style)
                        candidate.faithful = shape.faithful
                    }
                    return candidate
                }
            }
        }
        var fallback = last ?? first
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
            run.style.size = max(floor, run.minimum, original.size * size / style.size)
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
            us.size = max(floor, run.minimum, run.style.size * scale)
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

    /// `text` broken into lines of at most `widths[i]` each (as many lines as widths), where the
    /// Unicode line breaking rules let a line end (UAX #14, through the renderer: at spaces and
    /// after hyphens in English, between Chinese characters but never before "，" or after "（"),
    /// and at a line feed; inside a word only when the word alone is wider than its line. In a
    /// line's last third a break after punctuation or at a space is taken over a later one
    /// between two characters, so "正在导入健康数据，请稍候" ends a line after "，", not inside "数据".
    /// What does not fit in the last line is cut with an ellipsis.
    func wrapped(_ text: String, _ style: TextStyle, widths: [Float]) -> [String] {
        guard !widths.isEmpty, !text.isEmpty else { return [] }
        let characters = Array(text)
        let opportunities = renderer?.lineBreaks(text, language: language) ?? LineBreak.atSpaces(text)
        func string(_ a: Int, _ b: Int) -> String {
            var b = b
            while b > a && characters[b - 1].isNewline { b -= 1 }
            return String(characters[a..<b]).trimmingTrailingSpaces
        }
        func width(_ a: Int, _ b: Int) -> Float { measure(string(a, b), style).width }
        func skipSpaces(_ k: Int) -> Int {
            var k = k
            while k < characters.count && (characters[k] == " " || characters[k].isNewline) { k += 1 }
            return k
        }
        var start = 0
        var lines: [String] = []
        for (i, lineWidth) in widths.enumerated() {
            start = skipSpaces(start)
            if start >= characters.count { break }
            // Where this line may end: the breaks after its start, up to a line feed.
            var breaks: [Int] = []
            var forced: Int?
            for k in (start + 1)..<characters.count where opportunities[k].isOpportunity {
                if opportunities[k] == .mandatory {
                    forced = k
                    break
                }
                breaks.append(k)
            }
            let end = forced ?? characters.count
            if i == widths.count - 1 && forced == nil {
                // The last line: the rest, cut with an ellipsis where it is too long.
                lines.append(truncated(string(start, end), style, width: lineWidth))
                start = end
                break
            }
            if width(start, end) <= lineWidth {
                lines.append(i == widths.count - 1 ? truncated(string(start, end) + "…", style, width: lineWidth)
                             : string(start, end))
                start = end
                continue
            }
            func fits(_ k: Int) -> Bool { width(start, k) <= lineWidth }
            // Two lines, when the rest fits them: broken where the longer is shortest, so the
            // second is not one lone word; between phrases (after punctuation, at a space) where
            // that can be done.
            if i + 1 < widths.count, forced == nil {
                let next = widths[i + 1]
                var best: (Int, Float, Bool)?
                for b in breaks {
                    let first = width(start, b)
                    guard first <= lineWidth else { break }
                    let second = width(skipSpaces(b), characters.count)
                    guard second <= next else { continue }
                    let longer = max(first, second), strong = Self.strongBreak(characters, at: b)
                    if best.map({ strong && !$0.2 || (strong == $0.2 && longer < $0.1) }) ?? true { best = (b, longer, strong) }
                }
                if let (b, _, _) = best {
                    lines.append(string(start, b))
                    lines.append(string(skipSpaces(b), characters.count))
                    start = characters.count
                    break
                }
            }
            // The longest start ending at a break that fits (a longer start is never narrower).
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
            if best == 0, i + 1 < widths.count, widths[(i + 1)...].contains(where: { $0 > lineWidth }),
               breaks.isEmpty || width(start, breaks[0]) <= widths[(i + 1)...].max()! {
                // The first word does not fit this (narrower) line but does a later one: this
                // line stays empty rather than cut the word.
                lines.append("")
                continue
            }
            // In the line's last third, a break after punctuation or a space rather than a later
            // one between two characters.
            if best > 0, !Self.strongBreak(characters, at: best),
               let strong = breaks.last(where: { $0 < best && Self.strongBreak(characters, at: $0) }),
               width(start, strong) >= lineWidth * 0.66 {
                best = strong
            }
            if best == 0 {
                // One word wider than the line: as much of it as fits.
                var l = start + 1, h = end - 1
                best = start + 1
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
            lines.append(string(start, best))
            start = best
        }
        return lines
    }

    /// Whether a line ending before `characters[k]` ends after punctuation or at a space: a
    /// break between phrases, not merely between two characters (nor after the hyphen inside a
    /// word or a name: "demo-data").
    static func strongBreak(_ characters: [Character], at k: Int) -> Bool {
        guard k > 0 else { return false }
        let before = characters[k - 1]
        return before == " " || (before.isPunctuation && before != "-" && before != "‐")
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
    /// With the typographic minus (U+2212) written as a hyphen-minus, as numbers are read.
    var replacingMinus: String { String(map { $0 == "−" ? "-" : $0 }) }

    var trimmingTrailingSpaces: String {
        var s = self
        while s.last == " " { s.removeLast() }
        return s
    }
}
