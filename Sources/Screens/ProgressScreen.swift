import Raster

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
public struct ProgressScreen: ContextScreen {
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

    let memo = LayoutMemo()

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

    /// A line of text and where it goes.
    struct Line {
        var text: String
        var baseline: Float
        var x0: Float
        var x1: Float
    }

    /// The indicator's shape, fixed by the style and the picture (never by the amount).
    enum Indicator {
        case circle(center: Point, radius: Float, width: Float)
        case bar(Rect)
        case toolbar(Rect)
    }

    /// Where everything goes in a picture of a given size: a pure function of the size, the
    /// panel's shape and the content (the amount aside), which `draw` follows and taps are
    /// hit-tested against.
    public struct Layout {
        /// The Cancel button, which a tap on cancels the task (nil when it cannot be cancelled).
        public var cancelButton: Rect?
        /// Pixels per pixel of the 480-pixel design.
        var u: Float
        /// The type scale it was laid out with (its floors).
        var scale: TypeScale
        var labelStyle, smallStyle, cancelStyle: TextStyle
        var indicator: Indicator
        /// The label's lines (the working line when there is none), aligned as `labelAlign`.
        var label: [Line]
        var labelAlign: TextAlignment
        /// Where the percentage goes: its baseline and room, and how it aligns there; its style.
        var percent: Line
        var percentAlign: TextAlignment
        var percentStyle: TextStyle
        /// The percentage sits on the circle's centre (its baseline set by its fitted size).
        var percentCentered: Bool
        /// The Cancel button's label, or "Cancelling…" in its place.
        var cancel: Line?
        /// What stopping costs, in lines.
        var note: [Line]
        /// What was left out, and why.
        var omitted: [Omission] = []
    }

    /// The label as shown (the working line when there is none).
    var shownLabel: String { content.label.isEmpty ? context.strings.working : content.label }

    /// The bottom block: Cancel (or "Cancelling…") over what stopping costs.
    var showsCancelBlock: Bool { content.cancellable || content.cancelling }

    /// The layout of this screen on a picture of `size`.
    public func layout(for size: Size) -> Layout {
        // Checked in place, without a key made of copies (a spinner asks on every frame).
        if let entry = memo.entry, entry.key.holds(size: size, content: content, context: context) { return entry.layout }
        let layout = context.shape == .round ? roundLayout(size) : rectangleLayout(size)
        memo.entry = (LayoutMemo.Key(size: size, content: content, context: context), layout)
        // The spinner frames kept were drawn with another layout.
        memo.spinner.removeAll()
        return layout
    }

    /// A layout once worked out, with what it was worked out for: the size, the content but its
    /// amount (which never moves anything), the context. A frame of an animation takes the one
    /// the frame before worked out (`changes`), so a spinner's frames lay nothing out again.
    final class LayoutMemo {
        struct Key {
            var size: Size
            var content: ProgressContent
            var context: ScreenContext

            init(size: Size, content: ProgressContent, context: ScreenContext) {
                self.size = size
                self.content = content
                self.content.amount = .indeterminate
                self.context = context
            }

            /// Whether it is the key of `size`, `content` (whatever its amount: every other field of
            /// `ProgressContent` compared) and `context`.
            func holds(size: Size, content: ProgressContent, context: ScreenContext) -> Bool {
                self.size == size && self.content.style == content.style && self.content.label == content.label
                    && self.content.cancellable == content.cancellable && self.content.cancelNote == content.cancelNote
                    && self.content.cancelling == content.cancelling && self.context.drawsLike(context)
            }
        }

        var entry: (key: Key, layout: Layout)?
        /// The spinner's frames drawn in part with this layout (`drawKeptSpinner`).
        var spinner = SpinnerFrames()
    }

    func styles(_ size: Size) -> (TypeScale, label: TextStyle, small: TextStyle, cancel: TextStyle) {
        let scale = TypeScale(size: size, context: context)
        return (scale, scale.style(24, .semibold), scale.style(17, .medium), scale.style(19, .semibold))
    }

    /// A rectangle: the indicator and its label in the middle, Cancel and the note along the
    /// bottom.
    func rectangleLayout(_ size: Size, noteLines: Int = 3, labelLines: Int = 2) -> Layout {
        let w = Float(size.width), h = Float(size.height)
        let (scale, labelStyle, smallStyle, cancelStyle) = styles(size)
        let text = TextLayout(context, scale: scale)
        let u = scale.u
        let x0 = 24 * u, x1 = w - 24 * u
        var bottom = h - 24 * u
        var note: [Line] = []
        var cancel: Line?
        var button: Rect?
        if showsCancelBlock {
            // Cancel at the bottom, over what stopping costs (three lines at most, fewer where the panel is crowded).
            if let n = content.cancelNote, !n.isEmpty {
                let lines = text.wrapped(n, smallStyle, widths: Array(repeating: x1 - x0, count: noteLines))
                // Lines as tall as any of them can be: a cut one ends in "…".
                let nm = text.lineMetrics(n, smallStyle)
                for line in lines.reversed() {
                    note.insert(Line(text: line, baseline: bottom - nm.descent, x0: x0, x1: x1), at: 0)
                    bottom -= nm.height
                }
                bottom -= 10 * u
            }
            let bm = text.measure(cancelLabel, cancelStyle)
            let bw = bm.width + 44 * u, bh = bm.height + 18 * u
            let box = Rect(x: (w - bw) / 2, y: bottom - bh, width: bw, height: bh)
            if content.cancellable && !content.cancelling { button = box }
            cancel = Line(text: cancelLabel, baseline: box.y + (bh + bm.ascent - bm.descent) / 2, x0: box.x, x1: box.maxX)
            bottom = box.y - 16 * u
        }
        // Lines as tall as any of them can be: a cut one ends in "…".
        let lm = text.lineMetrics(shownLabel, labelStyle)
        let hundred = context.strings.percent(1)
        switch content.style {
        case .circular:
            let lines = text.wrapped(shownLabel, labelStyle, widths: [x1 - x0, x1 - x0])
            let labelH = Float(max(1, lines.count)) * lm.height
            let room = bottom - 24 * u - labelH - 20 * u
            let side = max(0, min(x1 - x0, room) * 0.78)
            let center = Point(x: w / 2, y: 24 * u + room / 2)
            let lineWidth = max(3, side * 0.07)
            let radius = side / 2 - lineWidth / 2
            let top = center.y + side / 2 + 20 * u
            let label = lines.enumerated().map {
                Line(text: $0.element, baseline: top + lm.ascent + Float($0.offset) * lm.height, x0: x0, x1: x1)
            }
            let ps = TextStyle(size: max(scale.figure, side * 0.2), weight: .semibold)
            let pm = text.measure(hundred, ps)
            // A circle too small to hold its percentage (a small panel, with a long label and a
            // note): the circle runs round the panel instead, everything inside it, as on a round
            // panel.
            if side < text.measure(hundred, TextStyle(size: scale.figure, weight: .semibold)).width * 1.4 + 2 * lineWidth
                || side < 0.45 * min(w, h)
            {
                if note.count > 2 { return rectangleLayout(size, noteLines: note.count - 1) }
                return roundLayout(size)
            }
            return Layout(
                cancelButton: button, u: u, scale: scale, labelStyle: labelStyle, smallStyle: smallStyle, cancelStyle: cancelStyle,
                indicator: .circle(center: center, radius: radius, width: lineWidth), label: label, labelAlign: .center,
                percent: Line(text: "", baseline: center.y + (pm.ascent - pm.descent) / 2, x0: center.x - radius * 0.75,
                              x1: center.x + radius * 0.75),
                percentAlign: .center, percentStyle: ps, percentCentered: true, cancel: cancel, note: note)
        case .bar:
            // The label leading (its first line leaves the percentage room), the percentage
            // trailing, a figure (20′) on the label's first line, the bar under them.
            let ps = scale.style(px: labelStyle.size, .semibold, minimum: scale.figure)
            let pm = text.measure(hundred, ps)
            let pw = pm.width + 16 * u
            var lines = text.wrapped(shownLabel, labelStyle, widths: [x1 - x0 - pw] + (labelLines > 1 ? [x1 - x0] : []))
            // Not even its first word beside the percentage (a small panel): the percentage on a
            // line of its own, the label's lines under it.
            if lines.first == "" {
                lines = [""] + text.wrapped(shownLabel, labelStyle, widths: Array(repeating: x1 - x0, count: labelLines))
            }
            let barH = max(4, 12 * u)
            // The label's first line and the percentage on one baseline.
            let firstAscent = max(lm.ascent, pm.ascent), firstH = firstAscent + max(lm.descent, pm.descent)
            let labelH = firstH + Float(max(0, lines.count - 1)) * lm.height
            let blockH = labelH + 14 * u + barH
            let top = (bottom - blockH) / 2
            // Crowded (a small panel): the note on fewer lines, then the label on one.
            if top < 8 * u && note.count > 2 { return rectangleLayout(size, noteLines: note.count - 1, labelLines: labelLines) }
            if top < 4 * u && labelLines > 1 { return rectangleLayout(size, noteLines: noteLines, labelLines: 1) }
            if top < 4 * u && note.count > 1 { return rectangleLayout(size, noteLines: note.count - 1, labelLines: labelLines) }
            let label = lines.enumerated().map {
                Line(text: $0.element,
                     baseline: $0.offset == 0 ? top + firstAscent : top + firstH + lm.ascent + Float($0.offset - 1) * lm.height,
                     x0: x0, x1: $0.offset == 0 ? x1 - pw : x1)
            }.filter { !$0.text.isEmpty }
            return Layout(
                cancelButton: button, u: u, scale: scale, labelStyle: labelStyle, smallStyle: smallStyle, cancelStyle: cancelStyle,
                indicator: .bar(Rect(x: x0, y: top + labelH + 14 * u, width: x1 - x0, height: barH)), label: label,
                labelAlign: .leading, percent: Line(text: "", baseline: top + firstAscent, x0: x0, x1: x1),
                percentAlign: .trailing, percentStyle: ps, percentCentered: false, cancel: cancel, note: note)
        case .toolbar:
            // A whole screen of it: the thin bar along the top edge (as an app's toolbar carries
            // it), the percentage large in the middle and what is happening under it.
            let bar = Rect(x: 0, y: 0, width: w, height: max(3, 5 * u))
            let ps = scale.style(48, .semibold, minimum: scale.figure)
            let pm = text.measure(hundred, ps)
            let lines = text.wrapped(shownLabel, labelStyle, widths: Array(repeating: x1 - x0, count: labelLines))
            let labelH = Float(lines.count) * lm.height
            let blockH = pm.height + (lines.isEmpty ? 0 : 10 * u + labelH)
            let top = bar.maxY + (bottom - bar.maxY - blockH) / 2
            if top < bar.maxY + 4 * u && note.count > 2 {
                return rectangleLayout(size, noteLines: note.count - 1, labelLines: labelLines)
            }
            if top < bar.maxY && labelLines > 1 { return rectangleLayout(size, noteLines: noteLines, labelLines: 1) }
            if top < bar.maxY && note.count > 1 { return rectangleLayout(size, noteLines: note.count - 1, labelLines: labelLines) }
            let label = lines.enumerated().map {
                Line(text: $0.element, baseline: top + pm.height + 10 * u + lm.ascent + Float($0.offset) * lm.height,
                     x0: x0, x1: x1)
            }
            return Layout(
                cancelButton: button, u: u, scale: scale, labelStyle: labelStyle, smallStyle: smallStyle, cancelStyle: cancelStyle,
                indicator: .toolbar(bar), label: label, labelAlign: .center,
                percent: Line(text: "", baseline: top + pm.ascent, x0: x0, x1: x1), percentAlign: .center,
                percentStyle: ps, percentCentered: false, cancel: cancel, note: note)
        }
    }

    /// A round panel: one column centred in the circle, each line as wide as the circle's chord
    /// where it sits; a circular indicator runs round the panel's edge with the column inside it.
    func roundLayout(_ size: Size) -> Layout {
        let w = Float(size.width), h = Float(size.height)
        let (scale, labelStyle, smallStyle, cancelStyle) = styles(size)
        let text = TextLayout(context, scale: scale)
        let u = scale.u
        let c = Point(x: w / 2, y: h / 2)
        let r = min(w, h) / 2
        let margin = max(6, 14 * u)
        let circular = content.style == .circular
        // The circle the column stays in: the panel's, or inside the indicator running round it.
        let lineWidth = max(4, 0.045 * 2 * r)
        let ringRadius = r - max(3, 6 * u) - lineWidth / 2
        let inner = circular ? ringRadius - lineWidth / 2 - margin : r - margin
        // Lines as tall as any of them can be: a cut one ends in "…".
        let lm = text.lineMetrics(shownLabel, labelStyle), sm = text.lineMetrics(content.cancelNote ?? "M", smallStyle)
        let bm = text.measure(cancelLabel, cancelStyle)
        let labelFace = labelStyle
        let faceM = lm
        let hundred = context.strings.percent(1)
        // The percentage a figure (20′) in every style.
        let ps = circular ? scale.style(64, .semibold, minimum: scale.figure)
            : scale.style(px: labelFace.size, .semibold, minimum: scale.figure)
        let pm = text.measure(hundred, ps)
        let barH: Float = content.style == .toolbar ? max(3, 5 * u) : max(4, 12 * u)
        let gap = 10 * u
        let bh = bm.height + 18 * u
        let hasNote = showsCancelBlock && !(content.cancelNote ?? "").isEmpty

        /// Half the chord of the column's circle over [y0, y1].
        func half(_ y0: Float, _ y1: Float) -> Float {
            let dy = max(abs(y0 - c.y), abs(y1 - c.y))
            return max(0, (max(0, inner * inner - dy * dy)).squareRoot())
        }
        let labelWanted = min(2, max(1, text.wrapped(shownLabel, labelFace, widths: [2 * inner * 0.8, 2 * inner]).count))
        var labelCount = labelWanted
        var noteCount = hasNote
            ? min(2, text.wrapped(content.cancelNote ?? "", smallStyle, widths: [2 * inner * 0.8, 2 * inner]).count) : 0
        // A column taller than the circle holds (a small panel's type is large): the label on one
        // line (cut, saying what it was whole), then the note.
        func columnHeight() -> Float {
            var rows: [Float] = [pm.height, Float(labelCount) * lm.height]
            if content.style != .circular { rows.append(barH) }
            if showsCancelBlock { rows.append(bh) }
            if noteCount > 0 { rows.append(Float(noteCount) * sm.height) }
            return rows.reduce(0, +) + gap * Float(rows.count - 1)
        }
        while columnHeight() > 2 * inner * 0.86 && (labelCount > 1 || noteCount > 1) {
            if labelCount > 1 { labelCount -= 1 } else { noteCount -= 1 }
        }
        // A note that one line cannot hold whole is left out (and said), not cut to a fragment.
        var omitted: [Omission] = []
        if hasNote, noteCount == 1,
           text.measure(content.cancelNote ?? "", smallStyle).width > 2 * inner * 0.8 {
            noteCount = 0
            omitted.append(Omission("progress.note", "the circle round the panel holds its one line only cut"))
            // Its room to the label's lines again.
            labelCount = labelWanted
            while columnHeight() > 2 * inner * 0.86 && labelCount > 1 { labelCount -= 1 }
        }
        // Lines of the label and note at most two each; the heights are known before the breaks,
        // so the column is placed once with two lines each, then the lines broken to their chords.
        func labelLines(top: Float) -> [Line] {
            let widths = (0..<labelCount).map { i -> Float in
                let y0 = top + Float(i) * faceM.height
                return 2 * half(y0, y0 + faceM.height)
            }
            return text.wrapped(shownLabel, labelFace, widths: widths).enumerated().map {
                let y0 = top + Float($0.offset) * faceM.height
                let hw = widths[$0.offset] / 2
                return Line(text: $0.element, baseline: y0 + faceM.ascent, x0: c.x - hw, x1: c.x + hw)
            }
        }
        // The column, top to bottom.
        var rows: [Float] = []
        switch content.style {
        case .circular: rows = [pm.height, Float(labelCount) * lm.height]
        case .bar: rows = [Float(labelCount) * lm.height, barH, pm.height]
        case .toolbar: rows = [barH, Float(labelCount) * lm.height, pm.height]
        }
        if showsCancelBlock { rows.append(bh) }
        if noteCount > 0 { rows.append(Float(noteCount) * sm.height) }
        let total = rows.reduce(0, +) + gap * Float(rows.count - 1)
        var y = c.y - total / 2
        var row = 0
        func next() -> Float {
            let top = y
            y += rows[row] + gap
            row += 1
            return top
        }
        var indicator: Indicator
        var label: [Line] = []
        var percent: Line
        let percentAlign = TextAlignment.center
        switch content.style {
        case .circular:
            indicator = .circle(center: c, radius: ringRadius, width: lineWidth)
            let t = next()
            let hw = half(t, t + pm.height)
            percent = Line(text: "", baseline: t + pm.ascent, x0: c.x - hw, x1: c.x + hw)
            label = labelLines(top: next())
        case .bar, .toolbar:
            var bar = Rect(x: 0, y: 0, width: 0, height: barH)
            if content.style == .toolbar {
                let t = next()
                let hw = half(t, t + barH)
                bar = Rect(x: c.x - hw, y: t, width: 2 * hw, height: barH)
                label = labelLines(top: next())
                let p = next()
                let phw = half(p, p + pm.height)
                percent = Line(text: "", baseline: p + pm.ascent, x0: c.x - phw, x1: c.x + phw)
                indicator = .toolbar(bar)
            } else {
                label = labelLines(top: next())
                let t = next()
                let hw = half(t, t + barH)
                bar = Rect(x: c.x - hw, y: t, width: 2 * hw, height: barH)
                let p = next()
                let phw = half(p, p + pm.height)
                percent = Line(text: "", baseline: p + pm.ascent, x0: c.x - phw, x1: c.x + phw)
                indicator = .bar(bar)
            }
        }
        var cancel: Line?
        var button: Rect?
        var note: [Line] = []
        if showsCancelBlock {
            let t = next()
            let bw = bm.width + 44 * u
            let box = Rect(x: c.x - bw / 2, y: t, width: bw, height: bh)
            if content.cancellable && !content.cancelling { button = box }
            cancel = Line(text: cancelLabel, baseline: box.y + (bh + bm.ascent - bm.descent) / 2, x0: box.x, x1: box.maxX)
        }
        if noteCount > 0 {
            let t = next()
            let widths = (0..<2).map { i -> Float in
                let y0 = t + Float(i) * sm.height
                return 2 * half(y0, y0 + sm.height)
            }
            note = text.wrapped(content.cancelNote ?? "", smallStyle, widths: Array(widths.prefix(noteCount)))
                .enumerated().map {
                    let y0 = t + Float($0.offset) * sm.height
                    let hw = widths[$0.offset] / 2
                    return Line(text: $0.element, baseline: y0 + sm.ascent, x0: c.x - hw, x1: c.x + hw)
                }
        }
        return Layout(
            cancelButton: button, u: u, scale: scale, labelStyle: labelStyle, smallStyle: smallStyle, cancelStyle: cancelStyle,
            indicator: indicator, label: label, labelAlign: .center, percent: percent, percentAlign: percentAlign,
            percentStyle: ps, percentCentered: false, cancel: cancel, note: note, omitted: omitted)
    }

    /// Cancel, or "Cancelling…" once that was asked.
    var cancelLabel: String { content.cancelling ? context.strings.cancelling : context.strings.cancel }

    public func draw(into buffer: PixelBuffer, at time: Double) {
        // A spinner frame drawn in part: its pixels kept from the turn before, when they are.
        if drawKeptSpinner(into: buffer, at: time) { return }
        drawWhole(into: buffer, at: time)
    }

    /// The screen at `time` drawn (within `buffer`'s clip), nothing taken from frames kept.
    func drawWhole(into buffer: PixelBuffer, at time: Double) {
        buffer.fill(.black)
        let layout = layout(for: buffer.size)
        let text = TextLayout(context, scale: layout.scale)
        let fraction = fraction(at: time)
        let labelFace = layout.labelStyle
        let labelColor = TextLayout.primary
        for omission in layout.omitted { context.probe?.omit(omission) }

        for (i, line) in layout.note.enumerated() {
            text.draw(line.text, layout.smallStyle, color: TextLayout.secondary, baseline: line.baseline, from: line.x0,
                      to: line.x1, align: .center, element: "progress.note.\(i + 1)", full: content.cancelNote,
                      into: buffer)
        }
        if let cancel = layout.cancel {
            if let button = layout.cancelButton {
                context.probe?.shape("button", button)
                buffer.fillRoundedRect(button, radius: button.height / 2, color: Color(hex: 0x2C2C2E))
                text.draw(cancel.text, layout.cancelStyle, color: Color(hex: 0xFF453A), baseline: cancel.baseline,
                          from: cancel.x0, to: cancel.x1, align: .center, element: "progress.cancel", into: buffer)
            } else {
                text.draw(cancel.text, layout.cancelStyle, color: TextLayout.secondary, baseline: cancel.baseline,
                          from: cancel.x0, to: cancel.x1, align: .center, element: "progress.cancelling", into: buffer)
            }
        }
        for (i, line) in layout.label.enumerated() {
            text.draw(line.text, labelFace, color: labelColor, baseline: line.baseline, from: line.x0, to: line.x1,
                      align: layout.labelAlign, element: "progress.label.\(i + 1)", full: shownLabel, into: buffer)
        }
        switch layout.indicator {
        case .circle(let center, let radius, let lineWidth):
            context.probe?.arc(ArcStroke(center: center, radius: radius, width: lineWidth, sweep: nil,
                                         paint: .solid(Self.accent)), sweep: 1)
            if let fraction {
                buffer.stroke(ArcStroke(center: center, radius: radius, width: lineWidth, start: 0,
                                        sweep: fraction > 0 ? fraction : nil, paint: .solid(Self.accent),
                                        track: Self.track))
            } else {
                // A quarter-turn arc going round once a second, over the dim track.
                let phase = Self.spinnerPhase(time)
                buffer.stroke(ArcStroke(center: center, radius: radius, width: lineWidth, start: phase, sweep: Self.spinnerSweep,
                                        paint: .solid(Self.accent), track: Self.track))
            }
        case .bar(let bar):
            context.probe?.shape("bar", bar)
            buffer.fillRoundedRect(bar, radius: bar.height / 2, color: Self.track)
            drawFill(bar, fraction: fraction, time: time, into: buffer)
        case .toolbar(let bar):
            // No track: only the done part (or the sliding segment) shows.
            context.probe?.shape("bar", bar)
            drawFill(bar, fraction: fraction, time: time, into: buffer)
        }
        if let fraction {
            let percent = context.strings.percent(fraction)
            let (style, line) = percentPlace(percent, layout)
            text.draw(percent, style, color: TextLayout.primary, baseline: line.baseline, from: line.x0, to: line.x1,
                      align: layout.percentAlign, element: "progress.percent", number: true, into: buffer)
        }
    }

    /// The percentage's style and line: inside the circle, fitted to its room.
    func percentPlace(_ percent: String, _ layout: Layout) -> (TextStyle, Line) {
        var line = layout.percent
        guard content.style == .circular else { return (layout.percentStyle, line) }
        let text = TextLayout(context, scale: layout.scale)
        let style = text.fitting(percent, layout.percentStyle, minimum: layout.scale.figure, width: line.x1 - line.x0)
        if layout.percentCentered, case .circle(let center, _, _) = layout.indicator {
            let m = text.measure(percent, style)
            line.baseline = center.y + (m.ascent - m.descent) / 2
        }
        return (style, line)
    }

    /// The percentage's box at `fraction`.
    func percentBox(_ fraction: Double, _ layout: Layout) -> Rect {
        let percent = context.strings.percent(fraction)
        let (style, line) = percentPlace(percent, layout)
        let m = TextLayout(context, scale: layout.scale).measure(percent, style)
        let x: Float
        switch layout.percentAlign {
        case .leading: x = line.x0
        case .center: x = (line.x0 + line.x1 - m.width) / 2
        case .trailing: x = line.x1 - m.width
        }
        return Rect(x: x, y: line.baseline - m.ascent, width: m.width, height: m.height)
    }

    /// The sliding segment of an indeterminate bar at `time`, if it shows.
    func segment(_ bar: Rect, time: Double) -> Rect? {
        let length = bar.width / 3
        // From a third of its way in: at the first frame the segment already shows (an empty
        // track would read as 0 %).
        let t = Float(Self.phase(time + Self.slidePeriod * 0.3, period: Self.slidePeriod))
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
