/// The soft shadow an arc's tip casts on the turn beneath it once the arc runs past one turn.
public struct ArcShadow: Sendable, Hashable {
    /// How dark the shadow is at its centre (0...1).
    public var opacity: Float
    /// How far the shadow sits ahead of the tip, along the direction of travel, × stroke width.
    public var offset: Float
    /// Width of the shadow's soft edge, × stroke width.
    public var blur: Float

    public init(opacity: Float, offset: Float, blur: Float) {
        self.opacity = opacity
        self.offset = offset
        self.blur = blur
    }
}

/// A thick circular arc with round caps over an optional track, coloured along its length.
///
/// Angles are in turns clockwise from 12 o'clock. The value arc runs from `start` over `sweep`
/// turns; past one turn it runs on over itself, later turns on top, and the tip may cast a
/// `shadow` on the turn beneath. A sweep of 0 is a dot (a disc of the stroke's width). The track
/// is the part of the band the value does not cover: a closed ring when `trackSweep` is 1, else an
/// open arc of that many turns with round caps.
public struct ArcStroke {
    public var center: Point
    /// Radius of the stroke's centre line.
    public var radius: Float
    public var width: Float
    public var start: Double
    /// Turns of value; nil draws the track alone.
    public var sweep: Double?
    public var paint: ArcPaint
    public var track: Color?
    public var trackSweep: Double
    public var shadow: ArcShadow?

    public init(
        center: Point, radius: Float, width: Float, start: Double = 0, sweep: Double?,
        paint: ArcPaint, track: Color? = nil, trackSweep: Double = 1, shadow: ArcShadow? = nil
    ) {
        self.center = center
        self.radius = radius
        self.width = width
        self.start = start
        self.sweep = sweep
        self.paint = paint
        self.track = track
        self.trackSweep = trackSweep
        self.shadow = shadow
    }

    /// The pixels the stroke may touch.
    public var bounds: IntRect {
        let r = radius + width / 2 + 1
        return Rect(x: center.x - r, y: center.y - r, width: 2 * r, height: 2 * r).enclosingPixels
    }
}

extension PixelBuffer {
    /// Draws `arc` (XRGB8888 buffers; the renderer never throws: degenerate input draws nothing).
    public func stroke(_ arc: ArcStroke, clip: IntRect? = nil) {
        guard format == .xrgb8888 else { return }
        let area = clip.map { $0.intersection(bounds) } ?? bounds
        guard !area.isEmpty, var raster = ArcRasterizer(arc) else { return }
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 2 * (DiamondAngle.bins + 1)) { tables in
            raster.fillTables(tables.baseAddress!, paint: arc.paint)
            raster.draw(into: self, area: area.intersection(arc.bounds))
        }
    }
}

/// Everything the stroke needs per pixel, computed once per draw.
struct ArcRasterizer {
    /// Where a band pixel takes its colour from, by its angle.
    enum Source {
        case none, track, tableA, tableB
    }

    /// A half-disc cap: the half of a disc of the stroke's width on the `t` side of its centre.
    struct Cap {
        var x, y: Float
        var tx, ty: Float
        var color: UInt32
        /// The cap lies beneath the value arc: pixels of class A keep their colour.
        var underBody: Bool
    }

    struct Shadow {
        var x, y: Float
        var inner, outer: Float
        var opacity: Float
    }

    let cx, cy, ro, ri, rc: Float
    /// Squared distances from the centre bounding the band's edge zones: beyond `outerOut2` and
    /// within `innerIn2` nothing is covered; between `innerOut2` and `outerIn2` everything is.
    let outerOut2, outerIn2, innerIn2, innerOut2: Float
    /// Pixels across the band's bounding square (the edge cache's size).
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
    // Relative-angle ranges the tables serve (turns), and the arc lengths they start at.
    let rangeA: (lo: Double, hi: Double, offset: Double)
    let rangeB: (lo: Double, hi: Double, offset: Double)
    let start: Double

    init?(_ arc: ArcStroke) {
        guard arc.radius.isFinite, arc.width.isFinite, arc.radius > 0, arc.width > 0,
            arc.center.x.isFinite, arc.center.y.isFinite, arc.start.isFinite,
            // Far beyond any panel, and small enough for the integer row and band maths.
            arc.radius + arc.width / 2 < 1e5, abs(arc.center.x) < 1e6, abs(arc.center.y) < 1e6
        else { return nil }
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

    /// Fills the colour tables for the classes that use them.
    mutating func fillTables(_ memory: UnsafeMutablePointer<UInt32>, paint: ArcPaint) {
        let n = DiamondAngle.bins
        let ramp = RampEvaluator(paint)
        let start = self.start
        DiamondAngle.binTurns.withUnsafeBufferPointer { binTurns in
            func fill(_ table: UnsafeMutablePointer<UInt32>, _ range: (lo: Double, hi: Double, offset: Double)) {
                // Bins outside the class take its nearer end (bins straddle the class boundaries).
                let gapMiddle = range.hi + (1 - (range.hi - range.lo)) / 2
                for i in 0...n {
                    var rel = binTurns[i] - start
                    if rel < 0 { rel += 1 }
                    if i == n && rel == 0 { rel = 1 }  // the end of the turn, reached from the left
                    if rel > range.hi {
                        rel = rel < gapMiddle ? range.hi : range.lo
                    } else if rel < range.lo {
                        rel = rel + 1 < gapMiddle ? range.hi : range.lo
                    }
                    if let ramp {
                        table[i] = ramp.xrgb(at: rel + range.offset)
                    } else {
                        table[i] = paint.color(at: rel + range.offset).xrgb
                    }
                }
            }
            if sourceA == .tableA || uniform == .tableA {
                tableA = memory
                fill(memory, rangeA)
            }
            if sourceB == .tableB {
                tableB = memory + (n + 1)
                fill(memory + (n + 1), rangeB)
            }
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

    @inline(__always)
    func color(_ source: Source, diamond d: Float) -> UInt32? {
        switch source {
        case .none: return nil
        case .track: return trackColor
        case .tableA: return tableA![DiamondAngle.index(scaled: d * DiamondAngle.binsPerQuadrant)]
        case .tableB: return tableB![DiamondAngle.index(scaled: d * DiamondAngle.binsPerQuadrant)]
        }
    }

    /// Coverage of the band at a pixel centre (u, v) from the centre, `dist` away.
    @inline(__always)
    func bandCoverage(u: Float, v: Float, dist: Float) -> Float {
        let outer = discCoverage(radius: ro, u: u, v: v, dist: dist)
        if ri <= 0 || outer <= 0 { return outer }
        return outer - discCoverage(radius: ri, u: u, v: v, dist: dist)
    }

    func draw(into buffer: PixelBuffer, area: IntRect) {
        guard !area.isEmpty else { return }
        let origin = floorToInt(cx - ro - 2)
        withUnsafeTemporaryAllocation(of: Float.self, capacity: 2 * bandWidth) { memory in
            let cache = EdgeCache(
                coverage: memory.baseAddress!, fraction: memory.baseAddress! + bandWidth, origin: origin, mirror: nil)
            drawBand(into: buffer, area: area, cache: cache)
        }
        for (i, cap) in caps.enumerated() {
            if i == tipCap, let shadow { drawShadow(shadow, tip: cap, buffer: buffer, area: area) }
            drawCap(cap, buffer: buffer, area: area)
        }
    }

    // MARK: - The band

    /// How a run of band pixels meets the band's edges.
    enum Edge {
        /// Every pixel wholly inside the band.
        case none
        /// Pixels near the outer circle only, near the inner circle only, or near both.
        case outer, inner, both
    }

    /// A class's colour for a run: a table indexed by angle, one colour, or nothing.
    struct RunPaint {
        var table: UnsafeMutablePointer<UInt32>?
        var color: UInt32
        var draws: Bool
    }

    @inline(__always)
    func runPaint(_ source: Source) -> RunPaint {
        switch source {
        case .none: RunPaint(table: nil, color: 0, draws: false)
        case .track: RunPaint(table: nil, color: trackColor, draws: true)
        case .tableA: RunPaint(table: tableA, color: 0, draws: true)
        case .tableB: RunPaint(table: tableB, color: 0, draws: true)
        }
    }

    /// Diamond angle on a half-row as `base + scale · |u| / (|u| + |v|)`, in table bins.
    struct Quadrant {
        var base: Float
        var scale: Float
        var right: Bool

        @inline(__always)
        init(right: Bool, v: Float) {
            let n = DiamondAngle.binsPerQuadrant
            self.right = right
            if right {
                (base, scale) = v > 0 ? (0, n) : (2 * n, -n)
            } else {
                (base, scale) = v >= 0 ? (4 * n, -n) : (2 * n, n)
            }
        }
    }

    /// Pixels [x0, x1) of a half-row and how they meet the band's edges.
    struct Zone {
        var x0: Int
        var x1: Int
        var edge: Edge
    }

    /// Up to four sorted pixel indices where the colour class changes along a row.
    struct Splits {
        var values = SIMD4<Int32>(repeating: .max)
        var count = 0

        @inline(__always)
        mutating func insert(_ x: Int) {
            guard count < 4 else { return }
            var i = count
            let v = Int32(clamping: x)
            while i > 0 && values[i - 1] > v {
                values[i] = values[i - 1]
                i -= 1
            }
            values[i] = v
            count += 1
        }
    }

    /// Edge pixels' coverage and diamond fraction |u| / (|u| + |v|), by x, for the current row.
    struct EdgeCache {
        let coverage: UnsafeMutablePointer<Float>
        let fraction: UnsafeMutablePointer<Float>
        /// x of entry 0.
        let origin: Int
        /// When not nil, left-half pixels read the entry of their mirror image, `mirror − 1 − x`.
        var mirror: Int?
    }

    /// Draws the band: row by row, or by pairs of rows mirrored about the centre, which share
    /// their edge coverage (it depends on |u| and |v| only).
    func drawBand(into buffer: PixelBuffer, area: IntRect, cache: EdgeCache) {
        var cache = cache
        let twiceX = 2 * cx
        let twiceY = 2 * cy
        let mirrorX = abs(twiceX) < 1e6 && Float(Int(twiceX)) == twiceX
        let mirrorY = abs(twiceY) < 1e6 && Float(Int(twiceY)) == twiceY
        let k = mirrorX ? Int(twiceX) : 0
        cache.mirror = mirrorX ? k : nil
        let yMirror = mirrorY ? Int(twiceY) - 1 : 0
        for y in area.y..<area.maxY {
            let v = cy - (Float(y) + 0.5)
            var partner = -1
            if mirrorY {
                let ym = yMirror - y
                if ym != y && ym >= area.y && ym < area.maxY {
                    if v < 0 { continue }  // drawn with its partner above
                    partner = ym
                }
            }
            let v2 = v * v
            guard v2 < outerOut2 else { continue }
            // |u| where pixel centres cross each circle of the band's edge zones.
            let outer = (outerOut2 - v2).squareRoot()
            let fullOuter: Float = v2 < outerIn2 ? (outerIn2 - v2).squareRoot() : -1
            let fullInner: Float = v2 < innerOut2 ? (innerOut2 - v2).squareRoot() : 0
            let hole: Float = v2 < innerIn2 ? (innerIn2 - v2).squareRoot() : 0
            let hasFull = fullOuter >= fullInner
            let mid = ceilToInt(cx - 0.5)  // first pixel with u ≥ 0
            let lo = cache.origin
            let hi = cache.origin + bandWidth
            // Right half, |u| growing with x: [a, b) inner edge, [b, c) full band, [c, d) outer edge.
            @inline(__always) func r(_ t: Float) -> Int { min(max(ceilToInt(cx + t - 0.5), mid, lo), hi) }
            let a = r(hole)
            let d = r(outer)
            let b = hasFull ? r(fullInner) : d
            let c = hasFull ? r(fullOuter) : d
            // Left half, |u| shrinking with x: [la, lb) outer edge, [lb, lc) full, [lc, ld) inner edge.
            var la: Int
            var lb: Int
            var lc: Int
            var ld: Int
            if mirrorX {
                (la, lb, lc, ld) = (k - d, k - c, k - b, k - a)
            } else {
                @inline(__always) func l(_ t: Float) -> Int { max(min(floorToInt(cx - t - 0.5) + 1, mid, hi), lo) }
                la = l(outer)
                ld = l(hole)
                lb = hasFull ? l(fullOuter) : ld
                lc = hasFull ? l(fullInner) : ld
            }
            la = min(max(la, lo), mid)
            lb = min(max(lb, la), mid)
            lc = min(max(lc, lb), mid)
            ld = min(max(ld, lc), mid)
            // Edge coverage, once for the rows of the pair (and for both halves when mirrored).
            let av = abs(v)
            if hasFull {
                fillEdges(cache, a, b, av, .inner)
                fillEdges(cache, c, d, av, .outer)
                if !mirrorX {
                    fillEdges(cache, la, lb, av, .outer)
                    fillEdges(cache, lc, ld, av, .inner)
                }
            } else {
                fillEdges(cache, a, d, av, .both)
                if !mirrorX { fillEdges(cache, la, ld, av, .both) }
            }
            let clipA = area.x
            let clipB = area.maxX
            @inline(__always) func zone(_ x0: Int, _ x1: Int, _ edge: Edge) -> Zone {
                Zone(x0: max(x0, clipA), x1: min(x1, clipB), edge: edge)
            }
            let right =
                hasFull
                ? (zone(a, b, .inner), zone(b, c, .none), zone(c, d, .outer))
                : (zone(a, d, .both), Zone(x0: 0, x1: 0, edge: .none), Zone(x0: 0, x1: 0, edge: .none))
            let left =
                hasFull
                ? (zone(la, lb, .outer), zone(lb, lc, .none), zone(lc, ld, .inner))
                : (zone(la, ld, .both), Zone(x0: 0, x1: 0, edge: .none), Zone(x0: 0, x1: 0, edge: .none))
            for pass in 0..<2 {
                let row = pass == 0 ? y : partner
                guard row >= 0 else { break }
                let rv = cy - (Float(row) + 0.5)
                let pixels = buffer.row32(row)
                let splits = self.splits(v: rv)
                halfRow(pixels, rv, Quadrant(right: true, v: rv), right.0, right.1, right.2, splits, cache)
                halfRow(pixels, rv, Quadrant(right: false, v: rv), left.0, left.1, left.2, splits, cache)
            }
        }
    }

    /// Where the class boundaries cross the row at `v` (pixels from there on lie past them), sorted.
    @inline(__always)
    func splits(v: Float) -> Splits {
        var splits = Splits()
        for i in 0..<lineCount {
            // The half-line t·(sin, −cos), t ≥ 0, meets the row where t·cos = v.
            let c = lineC[i]
            guard abs(c) > 1e-6 else { continue }
            let t = v / c
            guard t >= 0 else { continue }
            splits.insert(ceilToInt(cx + t * lineS[i] - 0.5))
        }
        return splits
    }

    /// Computes coverage and diamond fraction of the edge pixels [x0, x1) at |v| = `av`.
    @inline(never)
    func fillEdges(_ cache: EdgeCache, _ x0: Int, _ x1: Int, _ av: Float, _ edge: Edge) {
        guard x0 < x1 else { return }
        let v2 = av * av
        let ave = av + 1e-30
        var u = Float(x0) + 0.5 - cx
        for x in x0..<x1 {
            defer { u += 1 }
            let d2 = u * u + v2
            var coverage: Float = 0
            switch edge {
            case .none:
                coverage = 1
            case .outer:
                if d2 >= outerOut2 {
                    coverage = 0
                } else if d2 <= outerIn2 {
                    coverage = 1
                } else {
                    let dist = d2.squareRoot()
                    let inv = 1 / dist
                    coverage = halfPlaneCoverage(ro - dist, u * inv, av * inv, curvature: 1 / ro)
                }
            case .inner:
                if d2 <= innerIn2 {
                    coverage = 0
                } else if d2 >= innerOut2 {
                    coverage = 1
                } else {
                    let dist = d2.squareRoot()
                    let inv = 1 / dist
                    coverage = halfPlaneCoverage(dist - ri, u * inv, av * inv, curvature: -1 / ri)
                }
            case .both:
                coverage = bandCoverage(u: u, v: av, dist: d2.squareRoot())
            }
            let t = abs(u)
            cache.coverage[x - cache.origin] = coverage
            cache.fraction[x - cache.origin] = t / (t + ave)
        }
    }

    /// One half of a row (angle monotone in x): pieces between class boundaries, each drawn zone
    /// by zone from one colour source.
    @inline(__always)
    func halfRow(
        _ row: UnsafeMutablePointer<UInt32>, _ v: Float, _ quadrant: Quadrant, _ z0: Zone, _ z1: Zone, _ z2: Zone,
        _ splits: Splits, _ cache: EdgeCache
    ) {
        var lo = z0.x0
        var hi = z0.x1
        if z1.x0 < z1.x1 {
            lo = z0.x0 < z0.x1 ? lo : z1.x0
            hi = z1.x1
        }
        if z2.x0 < z2.x1 {
            lo = (z0.x0 < z0.x1 || z1.x0 < z1.x1) ? lo : z2.x0
            hi = z2.x1
        }
        guard lo < hi else { return }
        var a = lo
        var i = 0
        while a < hi {
            var b = hi
            while i < splits.count {
                let s = Int(splits.values[i])
                if s <= a {
                    i += 1
                    continue
                }
                if s < b { b = s }
                break
            }
            let paint = runPaint(source(diamond: DiamondAngle.of(u: Float((a + b) / 2) + 0.5 - cx, v: v)))
            if paint.draws {
                zoneRun(row, max(a, z0.x0), min(b, z0.x1), v, quadrant, paint, z0.edge, cache)
                zoneRun(row, max(a, z1.x0), min(b, z1.x1), v, quadrant, paint, z1.edge, cache)
                zoneRun(row, max(a, z2.x0), min(b, z2.x1), v, quadrant, paint, z2.edge, cache)
            }
            a = b
        }
    }

    @inline(__always)
    func zoneRun(
        _ row: UnsafeMutablePointer<UInt32>, _ x0: Int, _ x1: Int, _ v: Float, _ quadrant: Quadrant, _ paint: RunPaint,
        _ edge: Edge, _ cache: EdgeCache
    ) {
        guard x0 < x1 else { return }
        if edge != .none {
            edgeRun(row, x0, x1, quadrant, paint, cache)
        } else if let table = paint.table {
            tableRun(row, x0, x1, v, quadrant, table)
        } else {
            fillRow32(row + x0, count: x1 - x0, value: paint.color)
        }
    }

    /// Edge pixels from the cache: colour from the run's source, blended by coverage.
    @inline(__always)
    func edgeRun(
        _ row: UnsafeMutablePointer<UInt32>, _ x0: Int, _ x1: Int, _ quadrant: Quadrant, _ paint: RunPaint,
        _ cache: EdgeCache
    ) {
        // Left-half pixels of a mirrored band read their mirror image's entry.
        let mirrored = !quadrant.right && cache.mirror != nil
        let base = (mirrored ? cache.mirror! - 1 : 0) - cache.origin
        let sign = mirrored ? -1 : 1
        let binBase = quadrant.base + 0x1p23
        for x in x0..<x1 {
            let i = base &+ sign &* x
            let coverage = cache.coverage[i]
            guard coverage > 0 else { continue }
            var c = paint.color
            if let table = paint.table {
                c = table[Int((binBase + quadrant.scale * cache.fraction[i]).bitPattern & 0x7F_FFFF)]
            }
            row[x] = coverage >= 1 ? c : blend(c, over: row[x], alpha: alpha256(coverage))
        }
    }

    /// The conic-gradient inner loop, four pixels at a time: one division and one table load
    /// per pixel.
    @inline(never)
    func tableRun(
        _ row: UnsafeMutablePointer<UInt32>, _ x0: Int, _ x1: Int, _ v: Float, _ quadrant: Quadrant,
        _ table: UnsafeMutablePointer<UInt32>
    ) {
        let av = abs(v) + 1e-30
        let step: Float = quadrant.right ? 1 : -1
        let t0 = abs(Float(x0) + 0.5 - cx)
        var p = row + x0
        var n = x1 - x0
        // base + 2²³ + scale·q rounds to the nearest bin in the low mantissa bits.
        let base = SIMD4<Float>(repeating: quadrant.base + 0x1p23)
        let scale = SIMD4<Float>(repeating: quadrant.scale)
        let avv = SIMD4<Float>(repeating: av)
        var t = SIMD4<Float>(t0, t0 + step, t0 + 2 * step, t0 + 3 * step)
        let stride = SIMD4<Float>(repeating: 4 * step)
        let mask = SIMD4<UInt32>(repeating: 0x7F_FFFF)
        // Eight pixels per turn of the loop: two vectors of bins, then eight loads and stores.
        while n >= 8 {
            let t2 = t + stride
            let a = unsafeBitCast(base + scale * (t / (t + avv)), to: SIMD4<UInt32>.self) & mask
            let b = unsafeBitCast(base + scale * (t2 / (t2 + avv)), to: SIMD4<UInt32>.self) & mask
            p[0] = table[Int(a[0])]
            p[1] = table[Int(a[1])]
            p[2] = table[Int(a[2])]
            p[3] = table[Int(a[3])]
            p[4] = table[Int(b[0])]
            p[5] = table[Int(b[1])]
            p[6] = table[Int(b[2])]
            p[7] = table[Int(b[3])]
            t = t2 + stride
            p += 8
            n -= 8
        }
        if n >= 4 {
            let q = t / (t + avv)
            let bins = unsafeBitCast(base + scale * q, to: SIMD4<UInt32>.self) & mask
            p[0] = table[Int(bins[0])]
            p[1] = table[Int(bins[1])]
            p[2] = table[Int(bins[2])]
            p[3] = table[Int(bins[3])]
            t += stride
            p += 4
            n -= 4
        }
        var ts = t[0]
        while n > 0 {
            let q = ts / (ts + av)
            p.pointee = table[DiamondAngle.index(scaled: quadrant.base + quadrant.scale * q)]
            ts += step
            p += 1
            n -= 1
        }
    }

    // MARK: - Caps and the shadow

    /// How far (px) a half-disc cap reaches past its diameter onto the arc's side.
    let capOverlap: Float = 0.5

    /// Pixel index range of centres in (c − h, c + h).
    @inline(__always)
    func span(_ c: Float, _ h: Float) -> (Int, Int) {
        (ceilToInt(c - h - 0.5), ceilToInt(c + h - 0.5))
    }

    func drawCap(_ cap: Cap, buffer: PixelBuffer, area: IntRect) {
        let outer = rc + halfDiagonal
        let inner = rc - halfDiagonal
        let y0 = max(area.y, floorToInt(cap.y - outer))
        let y1 = min(area.maxY, ceilToInt(cap.y + outer))
        guard y0 < y1 else { return }
        for y in y0..<y1 {
            let yc = Float(y) + 0.5
            let dy = yc - cap.y
            guard abs(dy) < outer else { continue }
            var (a, b) = span(cap.x, (outer * outer - dy * dy).squareRoot())
            // Keep the cap's own side of its diameter, and half a pixel of the other side: the
            // colours meet there without a step, and pixels on the line itself stay covered
            // whichever way rounding classed them in the band.
            let reach = dy * cap.ty + capOverlap
            if abs(cap.tx) > 1e-6 {
                let s = ceilToInt(cap.x - reach / cap.tx - 0.5)
                if cap.tx > 0 { a = max(a, s) } else { b = min(b, s) }
            } else if reach <= 0 {
                continue
            }
            a = max(a, area.x)
            b = min(b, area.maxX)
            guard a < b else { continue }
            let row = buffer.row32(y)
            var (ia, ib) = inner > abs(dy) ? span(cap.x, (inner * inner - dy * dy).squareRoot()) : (b, b)
            ia = min(max(ia, a), b)
            ib = min(max(ib, ia), b)
            if cap.underBody {
                capFringe(cap, row, from: a, to: b, yc: yc)
            } else {
                capFringe(cap, row, from: a, to: ia, yc: yc)
                fillRow32(row + ia, count: ib - ia, value: cap.color)
                capFringe(cap, row, from: ib, to: b, yc: yc)
            }
        }
    }

    /// Cap pixels that are not wholly inside it: the cap takes its share of the band's coverage.
    @inline(__always)
    func capFringe(_ cap: Cap, _ row: UnsafeMutablePointer<UInt32>, from x0: Int, to x1: Int, yc: Float) {
        guard x0 < x1 else { return }
        let dy = yc - cap.y
        let v = cy - yc
        for x in x0..<x1 {
            let xc = Float(x) + 0.5
            let du = xc - cap.x
            let covCap = discCoverage(radius: rc, u: du, v: dy, dist: (du * du + dy * dy).squareRoot())
            guard covCap > 0 else { continue }
            let u = xc - cx
            if cap.underBody && source(diamond: DiamondAngle.of(u: u, v: v)) == .tableA { continue }
            let covBand = bandCoverage(u: u, v: v, dist: (u * u + v * v).squareRoot())
            guard covBand > 0 else { continue }
            // The band's colour (premultiplied, on black) gives up the share the cap takes.
            let keep = covCap >= 1 ? 0 : max(0, 1 - covCap / covBand)
            row[x] = mixPremultiplied(row[x], keep: keep, add: cap.color, coverage: min(covCap, covBand))
        }
    }

    func drawShadow(_ s: Shadow, tip: Cap, buffer: PixelBuffer, area: IntRect) {
        let y0 = max(area.y, floorToInt(s.y - s.outer))
        let y1 = min(area.maxY, ceilToInt(s.y + s.outer))
        guard y0 < y1 else { return }
        let capInside = rc - halfDiagonal
        let bandIn = max(0, ri - halfDiagonal)
        let bandOut = ro + halfDiagonal
        let bandIn2 = bandIn * bandIn
        let bandOut2 = bandOut * bandOut
        let ramp = 1 / (s.outer - s.inner)
        for y in y0..<y1 {
            let yc = Float(y) + 0.5
            let dy = yc - s.y
            guard abs(dy) < s.outer else { continue }
            var (a, b) = span(s.x, (s.outer * s.outer - dy * dy).squareRoot())
            // Only ahead of the tip: its side of the tip cap's diameter.
            let ty = yc - tip.y
            if abs(tip.tx) > 1e-6 {
                let split = ceilToInt(tip.x - ty * tip.ty / tip.tx - 0.5)
                if tip.tx > 0 { a = max(a, split) } else { b = min(b, split) }
            } else if ty * tip.ty <= 0 {
                continue
            }
            a = max(a, area.x)
            b = min(b, area.maxX)
            guard a < b else { continue }
            // Not under the tip cap, which covers it next.
            var (ia, ib) = capInside > abs(ty) ? span(tip.x, (capInside * capInside - ty * ty).squareRoot()) : (b, b)
            ia = min(max(ia, a), b)
            ib = min(max(ib, ia), b)
            let row = buffer.row32(y)
            let v = cy - yc
            let v2 = v * v
            for pass in 0..<2 {
                let (x0, x1) = pass == 0 ? (a, ia) : (ib, b)
                guard x0 < x1 else { continue }
                var u = Float(x0) + 0.5 - cx
                var du = Float(x0) + 0.5 - s.x
                for x in x0..<x1 {
                    defer {
                        u += 1
                        du += 1
                    }
                    let d2 = u * u + v2
                    guard d2 > bandIn2, d2 < bandOut2 else { continue }  // on the band only
                    let ds = (du * du + dy * dy).squareRoot()
                    let t = min(max((s.outer - ds) * ramp, 0), 1)
                    let m = t * t * (3 - 2 * t)  // smoothstep
                    row[x] = scale(row[x], by: alpha256(1 - s.opacity * m))
                }
            }
        }
    }
}

/// `dst · keep + src · coverage`, per channel, rounded and clamped.
@inline(__always)
func mixPremultiplied(_ dst: UInt32, keep: Float, add src: UInt32, coverage: Float) -> UInt32 {
    func channel(_ shift: UInt32) -> UInt32 {
        let d = Float((dst >> shift) & 0xFF)
        let s = Float((src >> shift) & 0xFF)
        let c = d * keep + s * coverage + 0.5
        return UInt32(min(max(c, 0), 255)) << shift
    }
    return channel(16) | channel(8) | channel(0)
}

/// A two-stop paint evaluated in single precision, for filling tables quickly; rounds exactly as
/// `Color.mix` does to within one level.
struct RampEvaluator {
    let from: Double, span: Double
    let r0, g0, b0, dr, dg, db: Float

    init?(_ paint: ArcPaint) {
        guard paint.stops.count <= 2, let first = paint.stops.first, let last = paint.stops.last,
            first.position == 0, last.position == 1 || paint.stops.count == 1
        else { return nil }
        from = paint.from
        span = paint.to - paint.from
        r0 = Float(first.color.red)
        g0 = Float(first.color.green)
        b0 = Float(first.color.blue)
        dr = Float(last.color.red) - r0
        dg = Float(last.color.green) - g0
        db = Float(last.color.blue) - b0
    }

    @inline(__always)
    func xrgb(at s: Double) -> UInt32 {
        let t = Float(span > 0 ? min(max((s - from) / span, 0), 1) : (s >= from + span ? 1 : 0))
        // Rounded through the mantissa (channels are 0...255).
        @inline(__always) func channel(_ c0: Float, _ dc: Float) -> UInt32 { (c0 + dc * t + 0x1p23).bitPattern & 0xFF }
        return channel(r0, dr) << 16 | channel(g0, dg) << 8 | channel(b0, db)
    }
}
