import Activity
import Raster

/// The ring screen in pages (`RingLayoutKind.paged`): where the rings and their three figures do
/// not fit together at the legible sizes, the rings come first, as large as the panel allows (on
/// a round panel four fifths of its diameter) with the day over them, then each figure on a page
/// of its own, large — as the Watch's Activity app does on its smallest faces. The buttons, touch
/// and the cycle turn the pages; the dots at the right edge say which shows.
extension RingScreenLayouter {
    func paged(_ out: inout RingScreenLayout) {
        let list = figures
        let count = content.hint == nil ? 1 + list.count : 1
        out.pageCount = count
        out.page = min(max(0, content.page), count - 1)
        let round = context.shape == .round
        let margin = max(4, 8 * u)
        let dots = PageDots(count: count, page: out.page, scale: scale)
        for d in dots.discs(w: w, h: h, round: round, margin: margin) {
            out.items.append(.disc(center: d.center, radius: d.radius, color: d.color))
        }
        let frame = PageFrame(w: w, h: h, round: round, margin: margin, right: dots.room(margin: margin))
        if out.page == 0 {
            ringsPage(frame, into: &out)
        } else {
            figurePage(list[out.page - 1], frame, into: &out)
        }
    }

    /// The room a page's lines have: the picture less a margin (and the dots' column on the
    /// right, kept on both sides so lines stay centred), or on a round panel the circle's chord
    /// where a line sits.
    struct PageFrame {
        var w: Float, h: Float
        var round: Bool
        var margin: Float
        /// What the dots take at the right edge.
        var right: Float

        var c: Point { Point(x: w / 2, y: h / 2) }
        var r: Float { min(w, h) / 2 }

        /// [x0, x1] for a line over [y0, y1].
        func span(_ y0: Float, _ y1: Float) -> (Float, Float) {
            if round {
                let dy = max(abs(y0 - c.y), abs(y1 - c.y))
                let half = max(0, (max(0, r * r - dy * dy)).squareRoot() - margin - right)
                return (c.x - half, c.x + half)
            }
            let side = max(margin, right)
            return (side, w - side)
        }

        var top: Float { round ? c.y - r : margin }
        var bottom: Float { round ? c.y + r : h - margin }
    }

    /// A wording of the header: the day, the time, or both on one line.
    struct HeaderWording {
        var day: String?
        var time: String?
    }

    /// The header's wordings, the first that fits taken: with a clock, the day and the time
    /// (the day's full, compact and shortest wordings), then today's rings under the time alone
    /// (another day's under the day alone, then the time); the time alone where it is asked for
    /// instead of the day (`clockOnTiny`); else the day's wordings.
    var headerWordings: [HeaderWording] {
        let day = content.day, today = content.today
        let days = [strings.dayLabel(day, today: today), strings.compactDayLabel(day, today: today),
                    strings.shortDateLine(day, today: today)]
        guard let clock = clockLine else { return days.map { HeaderWording(day: $0, time: nil) } }
        if content.clockOnTiny { return [HeaderWording(day: nil, time: clock)] }
        let both = days.map { HeaderWording(day: $0, time: clock) }
        let dayAlone = days.map { HeaderWording(day: $0, time: nil) }, timeAlone = [HeaderWording(day: nil, time: clock)]
        return both + (day == today ? timeAlone + dayAlone : dayAlone + timeAlone)
    }

    /// The header on `frame` from `top`, in `style` or smaller down to the floor: the first
    /// wording that fits its line at full size, else the first that fits smaller; the day and the
    /// time centred together, a space apart. Returns its bottom; nil, with nothing placed, when no
    /// wording fits.
    func pageHeaderLine(
        _ style: TextStyle, top: Float, frame: PageFrame, dayColor: Color, timeColor: Color,
        wordings: [HeaderWording]? = nil, shrink: Bool = true, into out: inout RingScreenLayout
    ) -> Float? {
        let wordings = wordings ?? headerWordings
        let lm = text.lineMetrics("Mg" + (wordings.first?.day ?? ""), style)
        func width(_ w: HeaderWording, _ s: TextStyle) -> Float {
            let d = w.day.map { text.measure($0, s).width } ?? 0
            let t = w.time.map { text.measure($0, s).width } ?? 0
            return d + t + (w.day != nil && w.time != nil ? s.size * 0.5 : 0)
        }
        func room(_ s: TextStyle) -> Float {
            let (x0, x1) = frame.span(top, top + lm.height * s.size / style.size)
            return x1 - x0
        }
        var chosen: (HeaderWording, TextStyle)?
        for w in wordings where width(w, style) <= room(style) {
            chosen = (w, style)
            break
        }
        if chosen == nil && shrink {
            search: for w in wordings {
                var s = style
                while s.size > scale.floor {
                    s.size = max(scale.floor, s.size * 0.94)
                    if width(w, s) <= room(s) {
                        chosen = (w, s)
                        break search
                    }
                }
            }
        }
        guard let (w, s) = chosen else { return nil }
        let m = text.lineMetrics("Mg" + (w.day ?? "") + (w.time ?? ""), s)
        let (x0, x1) = frame.span(top, top + m.height)
        var x = (x0 + x1 - width(w, s)) / 2
        let baseline = top + m.ascent
        if let day = w.day {
            let box = place(day, s, color: dayColor, baseline: baseline, from: x, to: x1, align: .leading, element: "rings.day",
                            into: &out)
            x = box.maxX + s.size * 0.5
        }
        if let time = w.time {
            place(time, s, color: timeColor, baseline: baseline, from: x, to: x1, align: .leading,
                  element: "rings.time", into: &out)
        }
        return top + m.height
    }

    /// A line fitted to its room on `frame` from `top` (its wordings, then smaller down to the
    /// floor), centred; nil when not even its shortest wording fits at the floor.
    func pageLine(
        _ line: NumberLine, _ style: TextStyle, minimum: Float, top: Float, frame: PageFrame, color: Color,
        element: String, number: Bool = false, into out: inout RingScreenLayout
    ) -> Float? {
        let m = text.measure(line.exact, style)
        // A smaller line has a wider chord: its room measured at the line's own height.
        let f = text.fit(line, style, minimum: minimum, room: { size in
            let (x0, x1) = frame.span(top, top + m.height * size / style.size)
            return x1 - x0
        }, formsFirst: !number)
        guard f.fits else { return nil }
        let fm = text.measure(f.text, f.style)
        let (x0, x1) = frame.span(top, top + fm.height)
        place(f, color: color, baseline: top + fm.ascent, from: x0, to: x1, align: .center, element: element,
              number: number, into: &out)
        return top + fm.height
    }

    /// The first page: the header over the rings; a store with nothing yet, its hint under them.
    func ringsPage(_ frame: PageFrame, into out: inout RingScreenLayout) {
        let gap = max(3, 6 * u)
        let hs = style(34, .semibold)
        let hm = text.measure("Mg", hs)
        let nameStyle = style(22, .medium)
        // The hint's lines under the rings, as many as it needs up to three.
        var hintLines: [String] = []
        var hintBottom = frame.bottom
        if let hint = content.hint {
            let hintStyle = style(24, .medium)
            let lm = text.lineMetrics(hint, hintStyle)
            // On a rectangle at the bottom; on a round panel from a little under the centre,
            // where the circle's chords are still wide.
            var y = frame.round ? frame.c.y + 0.3 * frame.r : frame.bottom - 3 * lm.height
            let widths = (0..<3).map { i -> Float in
                let (x0, x1) = frame.span(y + Float(i) * lm.height, y + Float(i + 1) * lm.height)
                return x1 - x0
            }
            hintLines = text.wrapped(hint, hintStyle, widths: widths)
            if !frame.round { y = frame.bottom - Float(hintLines.count) * lm.height }
            hintBottom = y - gap
            for (i, line) in hintLines.enumerated() {
                let (x0, x1) = frame.span(y, y + lm.height)
                place(line, hintStyle, color: TextLayout.secondary, baseline: y + lm.ascent, from: x0, to: x1, align: .center,
                      element: "rings.hint.\(i + 1)", full: hint, into: &out)
                y += lm.height
            }
        }
        if frame.round {
            // Four fifths of the diameter (less with a hint under them), sunk as far as the circle
            // allows for the header over them.
            let d = 2 * frame.r
            var side = hintLines.isEmpty ? 0.8 * d : max(0.3 * d, min(0.8 * d, hintBottom - (frame.top + hm.height) - gap))
            let lowest = (frame.r - side / 2) - frame.margin
            var top = frame.c.y - side / 2
            var header: (top: Float, wording: HeaderWording, shrink: Bool)?
            // Each wording in turn (the day and the time, the day's fullest first), at the
            // highest line top whose chord holds it at full size, while the rings can still sink
            // under it; then the same made smaller.
            let limit = top + lowest - hm.height - gap
            search: for shrink in [false, true] {
                for wording in headerWordings {
                    var y = frame.top + frame.margin
                    while y <= limit {
                        var probe = RingScreenLayout()
                        if let bottom = pageHeaderLine(hs, top: y, frame: frame, dayColor: TextLayout.primary,
                                                       timeColor: TextLayout.primary, wordings: [wording], shrink: shrink,
                                                       into: &probe)
                        {
                            header = (y, wording, shrink)
                            top = max(top, bottom + gap)
                            break search
                        }
                        y += max(1, 2 * u)
                    }
                }
            }
            if let header {
                _ = pageHeaderLine(hs, top: header.top, frame: frame, dayColor: TextLayout.primary,
                                   timeColor: TextLayout.primary, wordings: [header.wording], shrink: header.shrink,
                                   into: &out)
            } else {
                out.omitted.append(Omission("rings.day", "no wording of it fits the circle over rings of four fifths of it"))
            }
            if !hintLines.isEmpty { side = min(side, hintBottom - top) }
            rings(Rect(x: frame.c.x - side / 2, y: top, width: side, height: side), into: &out)
            if !content.name.isEmpty {
                out.omitted.append(Omission("rings.name", "a round panel's rings take four fifths of it: the room over them holds one line, the day"))
            }
            return
        }
        var y = frame.top
        let short = min(w, h)
        // The name over the day while the rings stay at least three fifths of the short side.
        if !content.name.isEmpty {
            let nm = text.measure(content.name, nameStyle)
            let ringsWith = frame.bottom - frame.top - nm.height - hm.height - 2 * gap
            if ringsWith >= 0.6 * short {
                let (x0, x1) = frame.span(y, y + nm.height)
                placeCut(content.name, nameStyle, color: TextLayout.secondary, baseline: y + nm.ascent, from: x0, to: x1,
                         align: .center, element: "rings.name", into: &out)
                y += nm.height
            } else {
                out.omitted.append(Omission(
                    "rings.name",
                    "the rings would fall under three fifths of the panel with a line for the name over the day"))
            }
        }
        if let bottom = pageHeaderLine(hs, top: y, frame: frame, dayColor: TextLayout.primary, timeColor: TextLayout.primary,
                                       into: &out)
        {
            y = bottom + gap
        } else {
            out.omitted.append(Omission("rings.day", "no wording of it fits the panel's width at the smallest legible size"))
        }
        let (x0, x1) = frame.span(y, hintBottom)
        let side = max(0, min(x1 - x0, (hintLines.isEmpty ? frame.bottom : hintBottom) - y))
        rings(Rect(x: w / 2 - side / 2, y: y + ((hintLines.isEmpty ? frame.bottom : hintBottom) - y - side) / 2,
                   width: side, height: side), into: &out)
    }

    /// A figure's page: the day (and on a rectangle the day's rings small) over the ring's name,
    /// its value and goal as large as the panel allows (at least 20′), its unit.
    func figurePage(_ f: RingFigure, _ frame: PageFrame, into out: inout RingScreenLayout) {
        let gap = max(2, 5 * u)
        let ls = style(30, .semibold, caps: true)
        let lm = text.measure("M", ls)
        // The value and goal on one line where they fit whole at the figure size, else on two;
        // large where the panel allows (smaller where the day's rings would not fit over it).
        func sized(_ design: Float) -> (vs: TextStyle, vm: TextMetrics, twoLines: Bool, block: Float) {
            let vs = scale.figureStyle(design, .semibold)
            let vm = text.measure("0", vs)
            let (px0, px1) = frame.span(frame.c.y - vm.height / 2, frame.c.y + vm.height / 2)
            let twoLines = !text.fit(f.number.bare, vs, minimum: scale.figure, width: px1 - px0).exact
            return (vs, vm, twoLines, 2 * lm.height + Float(twoLines ? 2 : 1) * vm.height + 2 * gap)
        }
        var (vs, vm, twoLines, block) = sized(84)
        let hs = style(26, .medium)
        let hm = text.measure("Mg", hs)
        let short = min(w, h)
        var blockTop: Float
        if frame.round {
            // The block in the middle of the circle, the day over it where the chord holds it.
            blockTop = frame.c.y - block / 2
            let headerTop = blockTop - 2 * gap - hm.height
            if headerTop < frame.top + frame.margin
                || pageHeaderLine(hs, top: headerTop, frame: frame, dayColor: TextLayout.secondary,
                                  timeColor: TextLayout.primary, into: &out) == nil
            {
                out.omitted.append(Omission("rings.day", "the circle's chord over the figure is too narrow for it"))
            }
        } else {
            var top = frame.top
            if let bottom = pageHeaderLine(hs, top: top, frame: frame, dayColor: TextLayout.secondary,
                                           timeColor: TextLayout.primary, into: &out)
            {
                top = bottom + gap
            } else {
                out.omitted.append(Omission("rings.day", "no wording of it fits the panel's width at the smallest legible size"))
            }
            // The day's rings small over the block, in what is left (none under a sixth of the panel).
            if frame.bottom - top - block - 2 * gap < short / 6 { (vs, vm, twoLines, block) = sized(64) }
            let ringsSide = min(0.3 * short, frame.bottom - top - block - 2 * gap)
            if ringsSide >= short / 6 {
                let total = ringsSide + 2 * gap + block
                let ringsTop = top + (frame.bottom - top - total) / 2
                rings(Rect(x: w / 2 - ringsSide / 2, y: ringsTop, width: ringsSide, height: ringsSide), into: &out)
                blockTop = ringsTop + ringsSide + 2 * gap
            } else {
                blockTop = max(top, top + (frame.bottom - top - block) / 2)
            }
        }
        var y = blockTop
        // The ring's name, in its colour.
        let (lx0, lx1) = frame.span(y, y + lm.height)
        let label = text.fitted(f.label, ls, minimum: scale.floor, width: lx1 - lx0)
        place(label.text, label.style, color: f.color, baseline: y + lm.ascent, from: lx0, to: lx1, align: .center,
              element: f.element(.label), full: f.label, into: &out)
        y += lm.height + gap
        let lines: [(NumberLine, String)] = twoLines
            ? [(f.value, f.element(.value)), (NumberLine(forms: f.goal.forms.map { "/" + $0 }), f.element(.value) + ".goal")]
            : [(f.number.bare, f.element(.value))]
        for (line, element) in lines {
            let (x0, x1) = frame.span(y, y + vm.height)
            let fitted = text.fit(line, vs, minimum: scale.figure, width: x1 - x0)
            let m = text.measure(fitted.text, fitted.style)
            place(fitted, color: f.color, baseline: y + m.ascent, from: x0, to: x1, align: .center, element: element,
                  into: &out)
            y += vm.height
        }
        y += gap
        let (x0, x1) = frame.span(y, y + lm.height)
        let unit = text.fitted(f.unit, ls, minimum: scale.floor, width: x1 - x0)
        place(unit.text, unit.style, color: f.color, baseline: y + lm.ascent, from: x0, to: x1, align: .center,
              element: f.element(.unit), full: f.unit, into: &out)
    }
}
