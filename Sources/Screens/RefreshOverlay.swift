import Raster

/// The refresh control over a screen (as a pull-to-refresh looks): while fresh data is being
/// fetched, a small spinner in a dark disc; when fetching failed, a short line saying so, on a
/// dark pill (or, where no pill fits, a "!" in the disc). It goes where it covers nothing the
/// screen drew, top centre when that is free; the screen underneath is drawn as it is.
public struct RefreshOverlay: OverlayScreen {
    public enum State: Sendable, Equatable {
        /// Fetching, since this moment of the screen's clock (the spinner turns from there).
        case spinning
        /// It failed: the line says so.
        case failed
    }

    public var screen: any Screen { didSet { memo = PlacementMemo() } }
    public var state: State { didSet { memo = PlacementMemo() } }
    public var context: ScreenContext { didSet { memo = PlacementMemo() } }
    /// Where the control went, once worked out (the screen under it laid out for that): kept for
    /// the frame, and taken by the next one when nothing changed underneath.
    private var memo = PlacementMemo()

    final class PlacementMemo {
        var entry: (size: Size, placement: Placement)?
    }

    public init(screen: any Screen, state: State, context: ScreenContext) {
        self.screen = screen
        self.state = state
        self.context = context
    }

    public var animates: Bool { state == .spinning || screen.animates }

    /// What the control draws and where.
    public struct Placement: Sendable, Equatable {
        /// The spinner's (or the "!"'s) centre and radius.
        public var center: Point
        public var radius: Float
        /// The backdrop: a disc's square or the pill.
        public var box: Rect
        /// The line on the pill ("Could not refresh"), or "!" in the disc; nil while spinning.
        public var line: String?
        public var style: TextStyle
    }

    /// The indicator's radius on a picture of `size`.
    static func radius(_ size: Size) -> Float { max(10, Float(min(size.width, size.height)) * 0.045) }

    /// Where the control goes on a picture of `size`: the first place, row by row from the top
    /// (then from the bottom), each row from its middle outwards, where it covers none of the
    /// screen's text, rings, arcs or shapes and stays inside the panel (a round panel's circle).
    public func placement(in size: Size) -> Placement {
        if let entry = memo.entry, entry.size == size { return entry.placement }
        let p = place(in: size)
        memo.entry = (size, p)
        return p
    }

    func place(in size: Size) -> Placement {
        let probe = LayoutProbe()
        screen.explain(into: probe, size: size, at: 0)
        let w = Float(size.width), h = Float(size.height)
        let short = min(w, h)
        let radius = Self.radius(size)
        let disc = radius * 1.45
        let margin = max(6, short * 0.025)
        let scale = TypeScale(size: size, context: context)
        let text = TextLayout(context, scale: scale)
        var shapes: [(w: Float, h: Float, line: String?, style: TextStyle)] = []
        let spinnerStyle = TextStyle(size: max(scale.floor, radius * 1.1), weight: .semibold)
        switch state {
        case .spinning: shapes = [(2 * disc, 2 * disc, nil, spinnerStyle)]
        case .failed:
            // The pill, then smaller (down to the floor), then the "!".
            let line = context.strings.couldNotRefresh
            for k: Float in [1, 0.85, 0.7] where context.text != nil {
                var style = spinnerStyle
                style.size = max(scale.floor, spinnerStyle.size * k)
                if k < 1 && style.size == shapes.last?.style.size { continue }
                let m = text.measure(line, style)
                let padX = radius * 0.9 * k
                let pillW = min(w - 2 * margin, m.width + 2 * padX)
                shapes.append((pillW, m.height + radius * 0.7 * k, line, style))
            }
            shapes.append((2 * disc, 2 * disc, "!", TextStyle(size: max(scale.floor, disc * 1.2), weight: .bold)))
        }
        let round = context.shape == .round
        let c = Point(x: w / 2, y: h / 2), r = short / 2
        func free(_ box: Rect, arcs: Bool = true) -> Bool {
            guard box.x >= 0, box.y >= 0, box.maxX <= w, box.maxY <= h else { return false }
            if round {
                for (x, y) in [(box.x, box.y), (box.maxX, box.y), (box.x, box.maxY), (box.maxX, box.maxY)] {
                    let dx = x - c.x, dy = y - c.y
                    if dx * dx + dy * dy > (r - 3) * (r - 3) { return false }
                }
            }
            let grown = box.insetBy(-2)
            for run in probe.runs where Self.overlaps(grown, run.box) { return false }
            for (_, b) in probe.shapes where Self.overlaps(grown, b) { return false }
            // Rings and arcs: clear of them, or wholly inside their hole.
            for g in probe.ringGroups
            where Self.overlaps(grown, center: g.geometry.center, radius: g.geometry.diameter / 2 + g.geometry.gap)
                && !g.geometry.holeHolds(grown)
            {
                return false
            }
            for a in probe.arcs where arcs && Self.covers(grown, arc: a) { return false }
            return true
        }
        // A place that covers nothing; else (a dial closed all round a round panel, its hole full)
        // one that covers only the dial's path, never text.
        for arcs in [true, false] {
            for (sw, sh, line, style) in shapes {
                let step = max(4, short * 0.02)
                // Rows down from the top and up from the bottom, a third of the way each.
                var rows: [Float] = []
                // The first row centred a radius under the margin (on a rectangle), or at the circle's top.
                var y = round ? (h - short) / 2 + margin : max(0, margin + radius - sh / 2)
                while y + sh <= h / 3 + sh / 2 {
                    rows.append(y)
                    y += step
                }
                y = (round ? (h + short) / 2 - margin : h - margin) - sh
                while y >= 2 * h / 3 - sh / 2 {
                    rows.append(y)
                    y -= step
                }
                for top in rows {
                    var offset: Float = 0
                    while offset <= w / 2 {
                        for x in offset == 0 ? [w / 2] : [w / 2 + offset, w / 2 - offset] {
                            let box = Rect(x: x - sw / 2, y: top, width: sw, height: sh)
                            if free(box, arcs: arcs) {
                                return Placement(center: box.center, radius: radius, box: box, line: line, style: style)
                            }
                        }
                        offset += step
                    }
                }
            }
        }
        // Nowhere around them: in the rings' hole (a small or round panel's rings page, whose
        // rings fill it), the spinner or the "!" (the pill is wider than the hole).
        for g in probe.ringGroups {
            for (sw, sh, line, style) in shapes where line == nil || line == "!" {
                let box = Rect(x: g.geometry.center.x - sw / 2, y: g.geometry.center.y - sh / 2, width: sw, height: sh)
                if g.geometry.holeHolds(box) && !probe.runs.contains(where: { Self.overlaps(box, $0.box) }) {
                    return Placement(center: box.center, radius: radius, box: box, line: line, style: style)
                }
            }
        }
        // Nowhere free: top centre.
        let (sw, sh, line, style) = shapes[0]
        let top = round ? (h - short) / 2 + short * 0.146 : margin
        let box = Rect(x: w / 2 - sw / 2, y: top + radius - sh / 2, width: sw, height: sh)
        return Placement(center: box.center, radius: radius, box: box, line: line, style: style)
    }

    static func overlaps(_ a: Rect, _ b: Rect) -> Bool {
        min(a.maxX, b.maxX) > max(a.x, b.x) && min(a.maxY, b.maxY) > max(a.y, b.y)
    }

    /// Whether `box` covers any of an arc's band (with its round caps): none of it where the box
    /// lies in the band's hole, outside its circle, or in its opening.
    static func covers(_ box: Rect, arc a: (center: Point, inner: Float, outer: Float, start: Double, sweep: Double)) -> Bool {
        guard overlaps(box, center: a.center, radius: a.outer + 1), !inside(box, center: a.center, radius: a.inner - 1) else {
            return false
        }
        // The caps reach half the band's width past each end.
        let mid = Double(a.inner + a.outer) / 2
        let cap = mid > 0 ? Double(a.outer - a.inner) / 2 / (2 * Double.pi * mid) : 0
        let start = a.start - cap, sweep = min(1, a.sweep + 2 * cap)
        var y = box.y
        while y <= box.maxY {
            var x = box.x
            while x <= box.maxX {
                let dx = Double(x - a.center.x), dy = Double(y - a.center.y)
                let d = Float((dx * dx + dy * dy).squareRoot())
                if d >= a.inner - 1 && d <= a.outer + 1 {
                    var rel = Trigonometry.turnsClockwiseFromUp(dx: dx, dy: dy) - start
                    rel -= rel.rounded(.down)
                    if rel <= sweep { return true }
                }
                x += min(2, max(0.5, box.maxX - x))
            }
            y += min(2, max(0.5, box.maxY - y))
        }
        return false
    }

    /// Whether every corner of `a` lies within `radius` of `center`.
    static func inside(_ a: Rect, center: Point, radius: Float) -> Bool {
        [(a.x, a.y), (a.maxX, a.y), (a.x, a.maxY), (a.maxX, a.maxY)].allSatisfy {
            let dx = $0.0 - center.x, dy = $0.1 - center.y
            return dx * dx + dy * dy <= radius * radius
        }
    }

    static func overlaps(_ a: Rect, center: Point, radius: Float) -> Bool {
        let dx = max(a.x - center.x, 0, center.x - a.maxX), dy = max(a.y - center.y, 0, center.y - a.maxY)
        return dx * dx + dy * dy < radius * radius
    }

    public func draw(into buffer: PixelBuffer, at time: Double) {
        screen.draw(into: buffer, at: time)
        drawControl(placement(in: buffer.size), into: buffer, at: time)
    }

    public func explain(into probe: LayoutProbe, size: Size, at time: Double) {
        screen.explain(into: probe, size: size, at: time)
        var c = context
        c.probe = probe
        c.drawsText = false
        RefreshOverlay(screen: screen, state: state, context: c).drawControl(placement(in: size), into: .measuring(size), at: time)
    }

    func drawControl(_ p: Placement, into buffer: PixelBuffer, at time: Double) {
        context.probe?.shape("refresh", p.box)
        buffer.fillRoundedRect(p.box, radius: p.box.height / 2, color: Self.backdrop)
        switch state {
        case .spinning:
            let width = Self.spinnerWidth(p.radius)
            let phase = ProgressScreen.phase(time, period: ProgressScreen.spinnerPeriod)
            buffer.stroke(
                ArcStroke(center: p.center, radius: p.radius - width / 2, width: width, start: phase,
                          sweep: ProgressScreen.spinnerSweep, paint: .solid(ProgressScreen.accent),
                          track: ProgressScreen.track))
        case .failed:
            guard context.text != nil, let line = p.line else { return }
            let scale = TypeScale(size: buffer.size, context: context)
            let text = TextLayout(context, scale: scale)
            let m = text.measure(line, p.style)
            let spinnerSize: Float = max(scale.floor, p.radius * 1.1)
            let padX: Float = line == "!" ? 0 : p.radius * 0.9 * p.style.size / spinnerSize
            let full = context.strings.couldNotRefresh
            let shown = text.truncated(line, p.style, width: p.box.width - 2 * padX)
            text.draw(
                shown, p.style, color: line == "!" ? Self.warning : TextLayout.primary,
                baseline: p.center.y + (m.ascent - m.descent) / 2, from: p.box.x + padX, to: p.box.maxX - padX,
                align: .center, element: "refresh.failed", full: full, into: buffer)
        }
    }

    static let backdrop = Color(hex: 0x2C2C2E)
    static let warning = Color(hex: 0xFF9F0A)

    /// The spinner's line width for an indicator of `radius`.
    static func spinnerWidth(_ radius: Float) -> Float { max(2, radius * 0.28) }

    /// The screen's changes underneath, and the spinner's while it turns (the backdrop and the
    /// line saying it failed stay). Another state or context: nil (all of it).
    public func changes(since previous: any Screen, at previousTime: Double, now time: Double, size: Size) -> Damage? {
        guard let before = previous as? RefreshOverlay, before.state == state, context.drawsLike(before.context),
            var d = screen.changes(since: before.screen, at: previousTime, now: time, size: size)
        else { return nil }
        let q = before.placement(in: size)
        // Nothing changed underneath: the control stays where it was.
        if d.isEmpty, memo.entry == nil { memo.entry = (size, q) }
        let p = placement(in: size)
        // The control moved (what is under it changed): both places.
        if p != q {
            d.add(p.box.insetBy(-2).enclosingPixels)
            d.add(q.box.insetBy(-2).enclosingPixels)
        }
        if state == .spinning {
            let width = Self.spinnerWidth(p.radius)
            d.formUnion(
                ScreenDamage.spinner(
                    center: p.center, radius: p.radius - width / 2, width: width, sweep: ProgressScreen.spinnerSweep,
                    period: ProgressScreen.spinnerPeriod, from: previousTime, to: time))
        }
        return d
    }
}
