import Raster

/// The shape of a progress indicator; it stays when the amount of work becomes known.
public enum ProgressStyle: String, Sendable, CaseIterable {
    /// A bar filling leading → trailing (indeterminate: a segment sliding along the track).
    case bar
    /// A circle filling clockwise from 12 o'clock (indeterminate: a spinning arc).
    case circular
    /// A thin bar along the top edge that hides the unfilled part of its track.
    case toolbar
}

/// How much of the work is done.
public enum ProgressAmount: Sendable, Hashable {
    case indeterminate
    /// Fraction done, 0...1.
    case determinate(Double)
}

/// What the progress screen shows.
public struct ProgressContent: Sendable, Hashable {
    public var amount: ProgressAmount
    public var style: ProgressStyle
    /// What is happening ("Importing health data").
    public var label: String
    /// Whether the task can be stopped (a Cancel hint is shown).
    public var cancellable: Bool
    /// What stopping costs, if anything ("The import so far is kept").
    public var cancelNote: String?

    public init(
        amount: ProgressAmount, style: ProgressStyle = .bar, label: String = "", cancellable: Bool = false,
        cancelNote: String? = nil
    ) {
        self.amount = amount
        self.style = style
        self.label = label
        self.cancellable = cancellable
        self.cancelNote = cancelNote
    }
}

/// The fraction shown over time: each new value is reached at an even pace, and the shown
/// fraction never moves backwards (a lower report waits until the work passes it).
public struct ProgressEasing: Sendable, Hashable {
    /// How long a change takes to show, in seconds.
    public static let duration = 0.4

    private var from: Double
    private var to: Double
    private var since: Double

    public init(fraction: Double = 0, at time: Double = 0) {
        let f = Self.clamp(fraction)
        from = f
        to = f
        since = time
    }

    /// Records that the work reached `fraction` at `time`.
    public mutating func update(_ fraction: Double, at time: Double) {
        let current = value(at: time)
        from = current
        to = max(current, Self.clamp(fraction))
        since = time
    }

    /// The fraction to draw at `time`: linear from the last shown value to the target.
    public func value(at time: Double) -> Double {
        let t = min(max((time - since) / Self.duration, 0), 1)
        return from + (to - from) * t
    }

    /// Whether the shown fraction is still moving at `time`.
    public func isMoving(at time: Double) -> Bool { time - since < Self.duration && to != from }

    /// The fraction reported last.
    public var target: Double { to }

    static func clamp(_ f: Double) -> Double { f.isNaN ? 0 : min(max(f, 0), 1) }
}

/// The progress screen: the app is working, not stuck.
public struct ProgressScreen: Screen {
    public var content: ProgressContent
    public var context: ScreenContext

    /// One turn of the spinner, and one pass of the indeterminate bar, in seconds.
    public static let spinnerPeriod = 1.0
    /// The spinner's length in turns.
    static let spinnerSweep = 0.28
    public static let slidePeriod = 1.6

    public init(content: ProgressContent, context: ScreenContext) {
        self.content = content
        self.context = context
    }

    /// An indeterminate indicator always moves; a determinate one is drawn as given (the device
    /// controller eases its fraction between reports).
    public var animates: Bool {
        if case .indeterminate = content.amount { return true }
        return false
    }

    /// The fraction drawn (nil when indeterminate).
    public func fraction(at time: Double) -> Double? {
        guard case .determinate(let f) = content.amount else { return nil }
        return ProgressEasing.clamp(f)
    }

    static let accent = Color(hex: 0x0A84FF)
    static let track = Color(hex: 0x3A3A3C)

    /// Where the screen's fixed parts go in a picture of a given size: its margins and the
    /// Cancel block along the bottom; the indicator and its label take the space above.
    public struct Layout {
        /// The Cancel button, which a tap on cancels the task (nil when it cannot be cancelled).
        public var cancelButton: Rect?
        /// Pixels per pixel of the 480-pixel design.
        var u: Float
        /// Margins of the inscribed circle's square on a round panel (0 on a rectangle).
        var insetX, insetY: Float
        /// The text column's edges.
        var x0, x1: Float
        var labelStyle, smallStyle, cancelStyle: TextStyle
        /// The baselines of what stopping costs (nil when there is no note) and of the button's label.
        var noteBaseline: Float?
        var cancelBaseline: Float
        /// The bottom of the space above the Cancel block.
        var bottom: Float
    }

    /// The layout of this screen on a picture of `size`: a pure function of the size, the panel's
    /// shape and the content, which `draw` follows and taps are hit-tested against.
    public func layout(for size: Size) -> Layout {
        let w = Float(size.width), h = Float(size.height)
        let u = min(w, h) / 480
        let text = TextLayout(context)
        // Round panels: stay inside the square inscribed in the circle, centred on the picture.
        let inset: Float = context.shape == .round ? min(w, h) * 0.146 : 0
        let insetX = context.shape == .round ? inset + (w - min(w, h)) / 2 : 0
        let insetY = context.shape == .round ? inset + (h - min(w, h)) / 2 : 0
        let smallStyle = TextStyle(size: max(10, 17 * u), weight: .medium)
        let cancelStyle = TextStyle(size: max(11, 19 * u), weight: .semibold)
        var layout = Layout(
            cancelButton: nil, u: u, insetX: insetX, insetY: insetY, x0: insetX + 24 * u, x1: w - insetX - 24 * u,
            labelStyle: TextStyle(size: max(12, 24 * u), weight: .semibold), smallStyle: smallStyle,
            cancelStyle: cancelStyle, noteBaseline: nil, cancelBaseline: 0, bottom: h - insetY - 24 * u)
        guard content.cancellable else { return layout }
        // Cancel at the bottom, under what stopping costs.
        if let note = content.cancelNote, !note.isEmpty {
            let nm = text.measure(note, smallStyle)
            layout.noteBaseline = layout.bottom - nm.descent
            layout.bottom -= nm.height + 10 * u
        }
        let bm = text.measure(context.strings.cancel, cancelStyle)
        let bw = bm.width + 44 * u, bh = bm.height + 18 * u
        let button = Rect(x: (w - bw) / 2, y: layout.bottom - bh, width: bw, height: bh)
        layout.cancelButton = button
        layout.cancelBaseline = button.y + (bh + bm.ascent - bm.descent) / 2
        layout.bottom = button.y - 16 * u
        return layout
    }

    public func draw(into buffer: PixelBuffer, at time: Double) {
        buffer.fill(.black)
        let w = Float(buffer.width)
        let text = TextLayout(context)
        let strings = context.strings
        let layout = layout(for: buffer.size)
        let u = layout.u
        let insetY = layout.insetY
        let x0 = layout.x0, x1 = layout.x1
        let fraction = fraction(at: time)
        let percent = fraction.map { strings.percent($0) }
        let labelStyle = layout.labelStyle
        let smallStyle = layout.smallStyle
        let label = content.label.isEmpty ? strings.working : content.label

        // Cancel hint at the bottom, with what stopping costs.
        if let note = content.cancelNote, let baseline = layout.noteBaseline {
            text.draw(text.truncated(note, smallStyle, width: x1 - x0), smallStyle, color: TextLayout.secondary,
                      baseline: baseline, from: x0, to: x1, align: .center, into: buffer)
        }
        if let button = layout.cancelButton {
            context.probe?.shape("button", button)
            buffer.fillRoundedRect(button, radius: button.height / 2, color: Color(hex: 0x2C2C2E))
            text.draw(strings.cancel, layout.cancelStyle, color: Color(hex: 0xFF453A), baseline: layout.cancelBaseline,
                      from: button.x, to: button.maxX, align: .center, into: buffer)
        }

        switch content.style {
        case .circular:
            let (center, radius, lineWidth, side, lm) = circle(layout, width: w)
            context.probe?.arc(ArcStroke(center: center, radius: radius, width: lineWidth, sweep: nil,
                                         paint: .solid(Self.accent)), sweep: 1)
            if let fraction {
                buffer.stroke(ArcStroke(center: center, radius: radius, width: lineWidth, start: 0,
                                        sweep: fraction > 0 ? fraction : nil, paint: .solid(Self.accent),
                                        track: Self.track))
                if let percent {
                    let ps = percentStyle(percent, side: side, radius: radius)
                    let pm = text.measure(percent, ps)
                    text.draw(percent, ps, color: TextLayout.primary, baseline: center.y + (pm.ascent - pm.descent) / 2,
                              from: center.x - radius, to: center.x + radius, align: .center, into: buffer)
                }
            } else {
                // A quarter-turn arc going round once a second, over the dim track.
                let phase = Self.phase(time, period: Self.spinnerPeriod)
                buffer.stroke(ArcStroke(center: center, radius: radius, width: lineWidth, start: phase, sweep: Self.spinnerSweep,
                                        paint: .solid(Self.accent), track: Self.track))
            }
            text.draw(text.truncated(label, labelStyle, width: x1 - x0), labelStyle, color: TextLayout.primary,
                      baseline: center.y + side / 2 + 20 * u + lm.ascent, from: x0, to: x1, align: .center, into: buffer)

        case .bar:
            let (bar, top, lm) = barPlace(layout)
            let pw = percent.map { text.measure($0, labelStyle).width + 16 * u } ?? 0
            text.draw(text.truncated(label, labelStyle, width: x1 - x0 - pw), labelStyle, color: TextLayout.primary,
                      baseline: top + lm.ascent, from: x0, to: x1, align: .leading, into: buffer)
            if let percent {
                text.draw(percent, labelStyle, color: TextLayout.secondary, baseline: top + lm.ascent, from: x0, to: x1,
                          align: .trailing, into: buffer)
            }
            context.probe?.shape("bar", bar)
            buffer.fillRoundedRect(bar, radius: bar.height / 2, color: Self.track)
            drawFill(bar, fraction: fraction, time: time, into: buffer)

        case .toolbar:
            // Thin, along the top, no track: only the done part (or the sliding segment) shows.
            let bar = toolbarPlace(layout, width: w)
            let barH = bar.height
            context.probe?.shape("bar", bar)
            drawFill(bar, fraction: fraction, time: time, into: buffer)
            let sm = text.measure(label, smallStyle)
            let baseline = insetY + barH + 10 * u + sm.ascent
            let pw = percent.map { text.measure($0, smallStyle).width + 12 * u } ?? 0
            text.draw(text.truncated(label, smallStyle, width: x1 - x0 - pw), smallStyle, color: TextLayout.secondary,
                      baseline: baseline, from: x0, to: x1, align: .leading, into: buffer)
            if let percent {
                text.draw(percent, smallStyle, color: TextLayout.secondary, baseline: baseline, from: x0, to: x1,
                          align: .trailing, into: buffer)
            }
        }
    }

    /// The circular indicator: its centre, the radius of its centre line, its line width, the
    /// side of its square and the metrics of the label under it.
    func circle(_ layout: Layout, width w: Float) -> (Point, Float, Float, Float, TextMetrics) {
        let u = layout.u, insetY = layout.insetY, bottom = layout.bottom
        let lm = TextLayout(context).measure(shownLabel, layout.labelStyle)
        let side = min(layout.x1 - layout.x0, bottom - insetY - 24 * u - lm.height - 20 * u) * 0.78
        let center = Point(x: w / 2, y: insetY + 24 * u + (bottom - insetY - 24 * u - lm.height - 20 * u) / 2)
        let lineWidth = max(3, side * 0.07)
        let radius = side / 2 - lineWidth / 2
        return (center, radius, lineWidth, side, lm)
    }

    /// The style of the percentage inside the circle.
    func percentStyle(_ percent: String, side: Float, radius: Float) -> TextStyle {
        TextLayout(context).fitting(percent, TextStyle(size: max(12, side * 0.2), weight: .semibold), width: radius * 1.5)
    }

    /// The bar's track, the top of the label over it and the label's metrics.
    func barPlace(_ layout: Layout) -> (Rect, Float, TextMetrics) {
        let u = layout.u
        let barH = max(4, 12 * u)
        let lm = TextLayout(context).measure(shownLabel, layout.labelStyle)
        let blockH = lm.height + 14 * u + barH
        let top = layout.insetY + (layout.bottom - layout.insetY - blockH) / 2
        return (Rect(x: layout.x0, y: top + lm.height + 14 * u, width: layout.x1 - layout.x0, height: barH), top, lm)
    }

    /// The thin bar along the top.
    func toolbarPlace(_ layout: Layout, width w: Float) -> Rect {
        Rect(x: layout.insetX, y: layout.insetY, width: w - 2 * layout.insetX, height: max(3, 5 * layout.u))
    }

    /// The label as shown (the working line when there is none).
    var shownLabel: String { content.label.isEmpty ? context.strings.working : content.label }

    /// The sliding segment of an indeterminate bar at `time`, if it shows.
    func segment(_ bar: Rect, time: Double) -> Rect? {
        let length = bar.width / 3
        let t = Float(Self.phase(time, period: Self.slidePeriod))
        let head = bar.x - length + (bar.width + length) * t
        let x0 = max(bar.x, head), x1 = min(bar.maxX, head + length)
        return x1 - x0 > 1 ? Rect(x: x0, y: bar.y, width: x1 - x0, height: bar.height) : nil
    }

    /// The done part of a bar, or the indeterminate segment sliding across it.
    func drawFill(_ bar: Rect, fraction: Double?, time: Double, into buffer: PixelBuffer) {
        let r = bar.height / 2
        if let fraction {
            guard fraction > 0 else { return }
            buffer.fillRoundedRect(Rect(x: bar.x, y: bar.y, width: max(bar.height, bar.width * Float(fraction)),
                                        height: bar.height), radius: r, color: Self.accent)
        } else {
            // A segment a third of the track long enters at the leading end and leaves at the trailing end.
            if let segment = segment(bar, time: time) {
                buffer.fillRoundedRect(segment, radius: r, color: Self.accent)
            }
        }
    }

    /// Where in its cycle an animation of `period` seconds is at `time`: 0..<1.
    static func phase(_ time: Double, period: Double) -> Double {
        guard time.isFinite, period > 0 else { return 0 }
        let p = time / period
        return p - p.rounded(.down)
    }
}
