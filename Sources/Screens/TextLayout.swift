import Raster

/// Where a line of text sits horizontally.
public enum TextAlignment: Sendable {
    case leading, center, trailing
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

    /// The style shrunk (down to 70 % of its size) until `text` fits `width`.
    func fitting(_ text: String, _ style: TextStyle, width: Float) -> TextStyle {
        var s = style
        let minimum = style.size * 0.7
        while s.size > minimum && measure(text, s).width > width {
            s.size = max(minimum, s.size * 0.94)
        }
        return s
    }

    /// `text` cut with an ellipsis to the longest start that fits `width` in `style`; "" when not
    /// even the ellipsis fits. A longer start is never narrower, so a binary search finds it with
    /// log2(n) measurements (a label is cut on every frame of an animation).
    func truncated(_ text: String, _ style: TextStyle, width: Float) -> String {
        guard measure(text, style).width > width else { return text }
        let characters = Array(text)
        func cut(_ count: Int) -> String { String(characters[..<count]).trimmingTrailingSpaces + "…" }
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

    /// Draws `text` on `baseline` within [x0, x1], aligned; returns the box it takes.
    @discardableResult
    func draw(
        _ text: String, _ style: TextStyle, color: Color, baseline: Float, from x0: Float, to x1: Float,
        align: TextAlignment, into buffer: PixelBuffer
    ) -> Rect {
        let m = measure(text, style)
        let x: Float
        switch align {
        case .leading: x = x0
        case .center: x = (x0 + x1 - m.width) / 2
        case .trailing: x = x1 - m.width
        }
        let box = Rect(x: x, y: baseline - m.ascent, width: m.width, height: m.height)
        // Glyphs ink within the box grown as the damage of a changed line is (`ScreenDamage.text`):
        // a line wholly outside the clip is not drawn at all (a frame redrawing only what changed
        // skips the text elsewhere).
        if draws && buffer.draws(in: ScreenDamage.text(box)) {
            renderer?.draw(text, style, color: color, at: Point(x: x, y: baseline), into: buffer, clip: nil)
        }
        if !text.isEmpty { probe?.text(text, box) }
        return box
    }
}

extension String {
    var trimmingTrailingSpaces: String {
        var s = self
        while s.last == " " { s.removeLast() }
        return s
    }
}
