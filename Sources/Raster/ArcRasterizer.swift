/// Everything the stroke needs per pixel, computed once per draw.
///
/// This file holds the setup (the classes of angle, the caps and the shadow in painter's order)
/// and the drawing order; the work is in the other `ArcRasterizer+` files: the colour tables
/// (`+Tables`), the band's spans, kept per geometry (`+Spans`), the band drawn from them
/// (`+Band`), the round caps (`+Caps`) and the tip's shadow (`+Shadow`).
struct ArcRasterizer {
    /// Where a band pixel takes its colour from, by its angle.
    enum Source {
        case none, track, tableA, tableB
    }

    let cx, cy, ro, ri, rc: Float
    /// Squared distances from the centre bounding the band's edge zones: beyond `outerOut2` and
    /// within `innerIn2` nothing is covered; between `innerOut2` and `outerIn2` everything is.
    let outerOut2, outerIn2, innerIn2, innerOut2: Float
    /// Pixels across the band's bounding square (the zones of a row stay within it).
    let bandWidth: Int
    // Classes of angle, relative to the start: [0, f) A, [f, T) B, [T, 1) none.
    let sourceA: Source, sourceB: Source
    let uniform: Source?
    let closed: Bool
    let d0, df, dT: Float
    let trackColor: UInt32
    /// Boundary half-lines between classes: sin and cos of their angles.
    var lineS = SIMD4<Float>(repeating: 0), lineC = SIMD4<Float>(repeating: 0)
    var lineCount = 0
    var caps: [Cap] = []
    var shadow: Shadow?
    /// Index of the tip cap in `caps`, drawn after the shadow.
    var tipCap: Int?
    // Colour tables (A, B), each `bins + 1` entries.
    var tableA: UnsafeMutablePointer<UInt32>? = nil
    var tableB: UnsafeMutablePointer<UInt32>? = nil
    /// A paint of one colour: the value's classes take it without tables.
    let solid: UInt32?
    // Relative-angle ranges the tables serve (turns), and the arc lengths they start at.
    let rangeA: (lo: Double, hi: Double, offset: Double)
    let rangeB: (lo: Double, hi: Double, offset: Double)
    let start: Double

    /// Whether `arc`'s numbers can be drawn at all (finite, positive, far from overflowing).
    static func drawable(_ arc: ArcStroke) -> Bool {
        arc.radius.isFinite && arc.width.isFinite && arc.radius > 0 && arc.width > 0
            && arc.center.x.isFinite && arc.center.y.isFinite && arc.start.isFinite
            // Far beyond any panel, and small enough for the integer row and band maths.
            && arc.radius + arc.width / 2 < 1e5 && abs(arc.center.x) < 1e6 && abs(arc.center.y) < 1e6
    }

    init?(_ arc: ArcStroke) {
        guard Self.drawable(arc) else { return nil }
        cx = arc.center.x
        cy = arc.center.y
        ro = arc.radius + arc.width / 2
        ri = max(0, arc.radius - arc.width / 2)
        rc = min(arc.width / 2, arc.radius)
        outerOut2 = (ro + halfDiagonal) * (ro + halfDiagonal)
        outerIn2 = ro > halfDiagonal ? (ro - halfDiagonal) * (ro - halfDiagonal) : -1
        innerIn2 = ri > halfDiagonal ? (ri - halfDiagonal) * (ri - halfDiagonal) : -1
        innerOut2 = (ri + halfDiagonal) * (ri + halfDiagonal)
        bandWidth = 2 * Int(ro) + 6
        start = fractionalPart(arc.start)
        let trackSweep = arc.trackSweep.isFinite ? min(max(arc.trackSweep, 0), 1) : 1
        closed = trackSweep >= 1
        var sweep = arc.sweep
        if let s = sweep, !(s.isFinite && s >= 0) { sweep = nil }
        if let s = sweep, !closed { sweep = min(s, trackSweep) }
        guard sweep != nil || (arc.track != nil && trackSweep > 0) else { return nil }
        trackColor = arc.track?.xrgb ?? 0
        solid = arc.paint.stops.count == 1 ? arc.paint.stops[0].color.xrgb : nil
        let trackSource: Source = arc.track == nil ? .none : .track

        // Classes by relative angle.
        var f: Double
        let p = sweep ?? 0
        if sweep == nil {
            f = 0
            sourceA = .none
            sourceB = trackSource
            rangeA = (0, 0, 0)
            rangeB = (0, 1, 0)
        } else if p <= 1 {
            f = p
            sourceA = .tableA
            sourceB = trackSource
            rangeA = (0, p, 0)
            rangeB = (0, 1, 0)
        } else {
            let laps = p - fractionalPart(p)
            f = p - laps
            sourceA = .tableA
            sourceB = .tableB
            rangeA = (0, f, laps)
            rangeB = (f, 1, laps - 1)
        }
        let T = closed ? 1 : trackSweep
        if f >= 1 {
            uniform = sourceA
        } else if f <= 0 && closed {
            uniform = sourceB
        } else {
            uniform = nil
        }
        d0 = Float(DiamondAngle.diamond(turns: start))
        df = Float(DiamondAngle.diamond(turns: start + f))
        dT = Float(DiamondAngle.diamond(turns: start + T))
        if uniform == nil {
            var turns = [start]
            if f > 0 && f < T { turns.append(start + f) }
            if !closed { turns.append(start + T) }
            for t in turns {
                let sc = Trigonometry.sinCos(turns: t)
                lineS[lineCount] = Float(sc.sin)
                lineC[lineCount] = Float(sc.cos)
                lineCount += 1
            }
        }

        // Caps, in painter's order.
        func cap(at turns: Double, forward: Bool, color: UInt32, underBody: Bool = false) -> Cap {
            let sc = Trigonometry.sinCos(turns: turns)
            let r = Double(arc.radius)
            let sign = forward ? 1.0 : -1.0
            return Cap(
                x: Float(Double(cx) + r * sc.sin), y: Float(Double(cy) - r * sc.cos),
                tx: Float(sign * sc.cos), ty: Float(sign * sc.sin), color: color, underBody: underBody)
        }
        if !closed, arc.track != nil {
            caps.append(cap(at: start, forward: false, color: trackColor))
            caps.append(cap(at: start + T, forward: true, color: trackColor))
        }
        if let sweep {
            if sweep < 1 {
                // The start cap lies under the value arc; near a full turn the arc's end reaches it.
                let reach = Double(rc + 2) / (2 * Double.pi * Double(max(ri, 1)))
                caps.append(
                    cap(at: start, forward: false, color: arc.paint.color(at: 0).xrgb, underBody: sweep > 1 - 2 * reach)
                )
            }
            let tip = cap(at: start + sweep, forward: true, color: arc.paint.color(at: sweep).xrgb)
            if sweep > 1, let s = arc.shadow, s.opacity > 0 {
                let blur = max(s.blur * arc.width / 2, 0.5)
                shadow = Shadow(
                    x: tip.x + tip.tx * s.offset * arc.width, y: tip.y + tip.ty * s.offset * arc.width,
                    inner: rc - blur, outer: rc + blur, opacity: min(s.opacity, 1))
            }
            tipCap = caps.count
            caps.append(tip)
        }
    }

    /// The colour source of the angle with diamond value `d`.
    @inline(__always)
    func source(diamond d: Float) -> Source {
        if let uniform { return uniform }
        if DiamondAngle.isWithin(d, from: d0, to: df) { return sourceA }
        if closed { return sourceB }
        return DiamondAngle.isWithin(d, from: df, to: dT) ? sourceB : .none
    }

    /// Whether the band can cover any pixel of `area`: not when the area lies wholly inside the
    /// ring's hole or wholly beyond its outer circle, each by more than a pixel's reach (a
    /// rectangle of text damage inside the rings, one at a corner of their box), where every
    /// pixel's coverage is zero.
    func bandMeets(_ area: IntRect) -> Bool {
        // The rectangle's nearest and farthest points from the centre, squared.
        let x0 = Float(area.x) - cx, x1 = Float(area.maxX) - cx
        let y0 = Float(area.y) - cy, y1 = Float(area.maxY) - cy
        let nx = x0 > 0 ? x0 : (x1 < 0 ? x1 : 0), ny = y0 > 0 ? y0 : (y1 < 0 ? y1 : 0)
        let fx = max(abs(x0), abs(x1)), fy = max(abs(y0), abs(y1))
        let reach: Float = 1
        if nx * nx + ny * ny > (ro + reach) * (ro + reach) { return false }
        if ri > reach && fx * fx + fy * fy < (ri - reach) * (ri - reach) { return false }
        return true
    }

    /// Coverage of the band at a pixel centre (u, v) from the centre, `dist` away.
    @inline(__always)
    func bandCoverage(u: Float, v: Float, dist: Float) -> Float {
        let outer = discCoverage(radius: ro, u: u, v: v, dist: dist)
        if ri <= 0 || outer <= 0 { return outer }
        return outer - discCoverage(radius: ri, u: u, v: v, dist: dist)
    }

    /// Pixel index range of centres in (c − h, c + h).
    @inline(__always)
    func span(_ c: Float, _ h: Float) -> (Int, Int) {
        (ceilToInt(c - h - 0.5), ceilToInt(c + h - 0.5))
    }

    /// Draws within `area`; `spans`: the band's (nil when the stroke's area does not meet it).
    func draw(into buffer: PixelBuffer, area: IntRect, spans: BandSpans?) {
        guard !area.isEmpty else { return }
        if let spans, bandMeets(area) {
            drawBand(into: buffer, area: area, spans: spans)
        }
        for (i, cap) in caps.enumerated() {
            if i == tipCap, let shadow { drawShadow(shadow, tip: cap, buffer: buffer, area: area) }
            drawCap(cap, buffer: buffer, area: area)
        }
    }
}
