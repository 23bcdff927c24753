import Activity
import Raster

/// A message on the panel (Home Assistant's notify, `glance message`), in place of whatever it
/// shows until it is dismissed: the text alone, white on black, centred, as large as the panel
/// holds it. It is wrapped where the line breaking rules let a line end (a line feed ends one),
/// shrunk down to a figure's size and no further (`Legibility.figureArcMinutes` at the eye: while
/// it shows it is what the panel is for, read from where people sit), and what still does not
/// fit is cut with an ellipsis at the end of its last line. On a round panel each line is as wide
/// as the circle is at its height.
public struct MessageScreen: ContextScreen {
    public var text: String
    public var context: ScreenContext

    public init(text: String, context: ScreenContext) {
        self.text = text
        self.context = context
    }

    /// Where the lines go in a picture.
    public struct Layout: Sendable, Equatable {
        /// The lines as drawn (the last one cut with "…" when the text does not fit whole).
        public var lines: [String]
        /// Their em, in pixels.
        public var size: Float
        /// Each line's baseline, and the room it is centred in across (`x`, `width`).
        public var baselines: [Float]
        public var rooms: [Rect]
        /// The whole text is on the panel (nothing cut).
        public var whole: Bool
    }

    /// The largest size a message starts from: a fraction of the short side (a short message on a
    /// large panel reads from across the room), never under the figures' size.
    static let largest: Float = 0.16
    /// Line spacing, in ems.
    static let leading: Float = 1.22
    static let weight = FontWeight.medium

    /// The margin kept from the picture's edges.
    static func margin(_ size: Size) -> Float { max(8, Float(min(size.width, size.height)) * 0.05) }

    /// The smallest em the text is drawn at on a picture of `size`: a figure's (20′ capitals).
    public func smallestText(_ size: Size) -> Float { TypeScale(size: size, context: context).figure }

    public func layout(for size: Size) -> Layout {
        let scale = TypeScale(size: size, context: context)
        let text = TextLayout(context, scale: scale)
        let smallest = scale.figure
        let start = max(smallest, Float(min(size.width, size.height)) * Self.largest)
        // The sizes tried, largest first, in 6 % steps down to the smallest.
        var sizes: [Float] = [start]
        while let last = sizes.last, last > smallest { sizes.append(max(smallest, last * 0.94)) }
        // The largest that holds the whole text (a smaller size holds what a larger one does).
        var low = 0, high = sizes.count - 1
        var best: Layout?
        while low <= high {
            let middle = (low + high) / 2
            if let whole = arrange(sizes[middle], size: size, text: text) {
                best = whole
                high = middle - 1
            } else {
                low = middle + 1
            }
        }
        return best ?? cut(smallest, size: size, text: text)
    }

    /// The lines' geometry for `count` lines at `em` in a picture of `size`: each one's baseline
    /// and room; nil when they do not fit its height (or a round panel's circle).
    func rooms(_ count: Int, em: Float, size: Size, metrics: TextMetrics) -> (baselines: [Float], rooms: [Rect])? {
        let w = Float(size.width), h = Float(size.height)
        let m = Self.margin(size)
        let step = em * Self.leading
        let height = Float(count - 1) * step + metrics.ascent + metrics.descent
        let round = context.shape == .round
        let radius = min(w, h) / 2 - m
        guard height <= (round ? 2 * radius : h - 2 * m) else { return nil }
        let top = (h - height) / 2
        var baselines: [Float] = []
        var rooms: [Rect] = []
        for i in 0..<count {
            let baseline = top + metrics.ascent + Float(i) * step
            baselines.append(baseline)
            guard round else {
                rooms.append(Rect(x: m, y: baseline - metrics.ascent, width: w - 2 * m, height: metrics.ascent + metrics.descent))
                continue
            }
            // The chord at the line's edge farther from the middle.
            let d = max(abs(baseline - metrics.ascent - h / 2), abs(baseline + metrics.descent - h / 2))
            let half = (max(0, radius * radius - d * d)).squareRoot()
            guard half > em else { return nil }
            rooms.append(Rect(x: w / 2 - half, y: baseline - metrics.ascent, width: 2 * half, height: metrics.ascent + metrics.descent))
        }
        return (baselines, rooms)
    }

    /// The whole text at `em` on as few lines as hold it; nil when no count of lines does.
    func arrange(_ em: Float, size: Size, text layout: TextLayout) -> Layout? {
        let style = TextStyle(size: em, weight: Self.weight)
        let metrics = layout.lineMetrics(text, style)
        // The text's width on one line: no set of lines narrower in all holds it.
        let total = layout.measure(text.split(whereSeparator: \.isNewline).joined(separator: " "), style).width
        var count = 1
        while let placed = rooms(count, em: em, size: size, metrics: metrics) {
            count += 1
            let widths = placed.rooms.map(\.width)
            guard widths.reduce(0, +) >= total * 0.9 || text.contains(where: \.isNewline) else { continue }
            let lines = layout.wrapped(text, style, widths: widths)
            if Self.holds(lines, text) {
                return Layout(lines: lines, size: em, baselines: placed.baselines, rooms: placed.rooms, whole: true)
            }
        }
        return nil
    }

    /// The text at `em` on as many lines as fit, its end cut with an ellipsis.
    func cut(_ em: Float, size: Size, text layout: TextLayout) -> Layout {
        let style = TextStyle(size: em, weight: Self.weight)
        let metrics = layout.lineMetrics(text, style)
        var count = 1
        while rooms(count + 1, em: em, size: size, metrics: metrics) != nil { count += 1 }
        guard let placed = rooms(count, em: em, size: size, metrics: metrics) else {
            // Not one line fits (a picture too small for any): nothing drawn.
            return Layout(lines: [], size: em, baselines: [], rooms: [], whole: false)
        }
        var lines = layout.wrapped(text, style, widths: placed.rooms.map(\.width))
        if !Self.holds(lines, text), let last = lines.indices.last {
            // What the last line leaves out is said by its ellipsis, after a whole word where one
            // ends far enough along.
            lines[last] = lastLine(Self.rest(of: text, after: lines.dropLast()), style, width: placed.rooms[last].width, text: layout)
        }
        return Layout(
            lines: lines, size: em, baselines: Array(placed.baselines.prefix(lines.count)),
            rooms: Array(placed.rooms.prefix(lines.count)), whole: Self.holds(lines, text))
    }

    /// What of `text` is left after `lines` (each a part of it as wrapped, whole).
    static func rest(of text: String, after lines: ArraySlice<String>) -> String {
        var skip = lines.reduce(0) { $0 + $1.filter { !$0.isWhitespace }.count }
        var index = text.startIndex
        while index < text.endIndex, skip > 0 || text[index].isWhitespace {
            if !text[index].isWhitespace { skip -= 1 }
            index = text.index(after: index)
        }
        return String(text[index...])
    }

    /// The last line of a text that does not fit: the start of `rest` (up to a line feed) and
    /// "…", cut after the last whole word that fits -- a word cut short is a word misread ("has
    /// finis…") -- and anywhere only where not even the first word fits (a text without spaces:
    /// Chinese, a long name).
    func lastLine(_ rest: String, _ style: TextStyle, width: Float, text layout: TextLayout) -> String {
        let line = String(rest.prefix { !$0.isNewline }).trimmingTrailingSpaces
        if layout.measure(line + "…", style).width <= width { return line + "…" }
        var atWord: String?
        for (i, c) in line.enumerated() where c == " " {
            let candidate = String(line.prefix(i)).trimmingTrailingSpaces + "…"
            guard layout.measure(candidate, style).width <= width else { break }
            atWord = candidate
        }
        return atWord ?? layout.truncated(line, style, width: width)
    }

    /// Whether `lines` say the whole of `text` (nothing left out, no ellipsis of their own).
    static func holds(_ lines: [String], _ text: String) -> Bool {
        lines.joined().filter { !$0.isWhitespace } == text.filter { !$0.isWhitespace }
    }

    public func draw(into buffer: PixelBuffer, at time: Double) {
        buffer.fill(.black)
        let size = buffer.size
        let layout = layout(for: size)
        let text = TextLayout(drawing: context)
        let style = TextStyle(size: layout.size, weight: Self.weight)
        for (i, line) in layout.lines.enumerated() {
            text.draw(
                line, style, color: TextLayout.primary, baseline: layout.baselines[i], from: layout.rooms[i].x,
                to: layout.rooms[i].maxX, align: .center, element: "message.line.\(i + 1)",
                full: layout.whole || i < layout.lines.count - 1 ? nil : self.text, into: buffer)
        }
    }

    /// The same message drawn alike: nothing changed. Anything else: draw it whole.
    public func changes(since previous: any Screen, at previousTime: Double, now time: Double, size: Size) -> Damage? {
        guard let before = previous as? MessageScreen, before.text == text, context.drawsLike(before.context) else { return nil }
        return Damage()
    }
}
