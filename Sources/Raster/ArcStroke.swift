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
    // Classes of angle, relative to the start: [0, f) A, [f, T) B, [T, 1) none.
    let sourceA: Source, sourceB: Source
    let uniform: Source?
    let closed: Bool
    let d0, df, dT: Float
    let trackColor: UInt32
    /// Boundary half-lines between classes: (sin, cos) of their angle.
    var lines: [(s: Float, c: Float)] = []
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
            arc.center.x.isFinite, arc.center.y.isFinite, arc.start.isFinite
        else { return nil }
        cx = arc.center.x
        cy = arc.center.y
        ro = arc.radius + arc.width / 2
        ri = max(0, arc.radius - arc.width / 2)
        rc = min(arc.width / 2, arc.radius)
        start = arc.start - arc.start.rounded(.down)
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
            let laps = p.rounded(.down)
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
            lines = turns.map { t in
                let sc = Trigonometry.sinCos(turns: t)
                return (Float(sc.sin), Float(sc.cos))
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
                    cap(at: start, forward: false, color: arc.paint.color(at: 0).xrgb, underBody: sweep > 1 - 2 * reach))
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
        let binTurns = DiamondAngle.binTurns
        func fill(_ table: UnsafeMutablePointer<UInt32>, _ range: (lo: Double, hi: Double, offset: Double)) {
            for i in 0...n {
                var rel = binTurns[i] - start
                rel -= rel.rounded(.down)
                if i == n && rel == 0 { rel = 1 }  // the end of the turn, reached from the left
                if rel < range.lo || rel > range.hi {
                    // Outside the class: use its nearer end (bins straddle the boundaries).
                    let before = (range.lo - rel + 1).truncatingRemainder(dividingBy: 1)
                    let after = (rel - range.hi + 1).truncatingRemainder(dividingBy: 1)
                    rel = before < after ? range.lo : range.hi
                }
                table[i] = paint.color(at: rel + range.offset).xrgb
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
        for y in area.y..<area.maxY {
            drawBandRow(buffer.row32(y), y: y, x0: area.x, x1: area.maxX)
        }
        for (i, cap) in caps.enumerated() {
            if i == tipCap, let shadow { drawShadow(shadow, tip: cap, buffer: buffer, area: area) }
            drawCap(cap, buffer: buffer, area: area)
        }
    }

    // MARK: - The band

    /// First pixel x whose centre is at least `a` right of the centre.
    @inline(__always) func rightIndex(_ a: Float) -> Int { Int((cx + a - 0.5).rounded(.up)) }
    /// One past the last pixel x whose centre is at least `a` left of the centre.
    @inline(__always) func leftIndex(_ a: Float) -> Int { Int((cx - a - 0.5).rounded(.down)) + 1 }

    func drawBandRow(_ row: UnsafeMutablePointer<UInt32>, y: Int, x0 clipX0: Int, x1 clipX1: Int) {
        let v = cy - (Float(y) + 0.5)
        let av = abs(v)
        let outerLimit = ro + halfDiagonal
        guard av < outerLimit else { return }
        let v2 = v * v
        let outer = (outerLimit * outerLimit - v2).squareRoot()
        let fullOuter: Float = ro - halfDiagonal > av ? ((ro - halfDiagonal) * (ro - halfDiagonal) - v2).squareRoot() : -1
        let fullInner: Float = ri + halfDiagonal > av ? ((ri + halfDiagonal) * (ri + halfDiagonal) - v2).squareRoot() : 0
        let hole: Float = ri - halfDiagonal > av ? ((ri - halfDiagonal) * (ri - halfDiagonal) - v2).squareRoot() : 0
        let mid = Int((cx - 0.5).rounded(.up))  // first pixel with u ≥ 0

        // Boundary crossings on this row, as pixel indices (pixels at or after one lie past it).
        var splits = SIMD4<Float>(repeating: .infinity)
        var count = 0
        for line in lines {
            // The half-line t·(sin, −cos), t ≥ 0, meets the row where t·cos = v.
            guard abs(line.c) > 1e-6 else { continue }
            let t = v / line.c
            guard t >= 0 else { continue }
            splits[count] = min(max((cx + t * line.s - 0.5).rounded(.up), -1e9), 1e9)
            count += 1
        }
        // Sort the few splits.
        if count > 1 {
            for i in 1..<count {
                var j = i
                while j > 0 && splits[j - 1] > splits[j] {
                    let t = splits[j]
                    splits[j] = splits[j - 1]
                    splits[j - 1] = t
                    j -= 1
                }
            }
        }

        // Right half, |u| increasing with x: inner fringe, full band, outer fringe.
        if fullOuter >= fullInner {
            let a = max(rightIndex(hole), mid), b = max(rightIndex(fullInner), mid)
            let c = max(rightIndex(fullOuter), mid), d = max(rightIndex(outer), mid)
            fringe(row, from: max(a, clipX0), to: min(b, clipX1), v: v)
            full(row, from: max(b, clipX0), to: min(c, clipX1), v: v, right: true, splits: splits, count: count)
            fringe(row, from: max(c, clipX0), to: min(d, clipX1), v: v)
            // Left half, |u| decreasing with x.
            let la = min(leftIndex(outer), mid), lb = min(leftIndex(fullOuter), mid)
            let lc = min(leftIndex(fullInner), mid), ld = min(leftIndex(hole), mid)
            fringe(row, from: max(la, clipX0), to: min(lb, clipX1), v: v)
            full(row, from: max(lb, clipX0), to: min(lc, clipX1), v: v, right: false, splits: splits, count: count)
            fringe(row, from: max(lc, clipX0), to: min(ld, clipX1), v: v)
        } else {
            // No fully covered pixels on this row: all of it is edge.
            let a = max(rightIndex(hole), mid), d = max(rightIndex(outer), mid)
            fringe(row, from: max(a, clipX0), to: min(d, clipX1), v: v)
            let la = min(leftIndex(outer), mid), ld = min(leftIndex(hole), mid)
            fringe(row, from: max(la, clipX0), to: min(ld, clipX1), v: v)
        }
    }

    /// Pixels at the band's edges: exact coverage each.
    @inline(__always)
    func fringe(_ row: UnsafeMutablePointer<UInt32>, from x0: Int, to x1: Int, v: Float) {
        guard x0 < x1 else { return }
        let v2 = v * v
        var u = Float(x0) + 0.5 - cx
        for x in x0..<x1 {
            defer { u += 1 }
            let dist = (u * u + v2).squareRoot()
            let coverage = bandCoverage(u: u, v: v, dist: dist)
            guard coverage > 0 else { continue }
            let d = DiamondAngle.of(u: u, v: v)
            guard let c = color(source(diamond: d), diamond: d) else { continue }
            row[x] = blend(c, over: row[x], alpha: alpha256(coverage))
        }
    }

    /// Fully covered pixels: split at class boundaries, then one colour source per run.
    @inline(__always)
    func full(
        _ row: UnsafeMutablePointer<UInt32>, from x0: Int, to x1: Int, v: Float, right: Bool,
        splits: SIMD4<Float>, count: Int
    ) {
        guard x0 < x1 else { return }
        var a = x0
        var i = 0
        while a < x1 {
            var b = x1
            while i < count {
                let s = Int(splits[i])
                if s <= a {
                    i += 1
                    continue
                }
                if s < b { b = s }
                break
            }
            let m = (a + b) / 2
            let d = DiamondAngle.of(u: Float(m) + 0.5 - cx, v: v)
            switch source(diamond: d) {
            case .none: break
            case .track: (row + a).update(repeating: trackColor, count: b - a)
            case .tableA: tableRun(row, from: a, to: b, v: v, right: right, table: tableA!)
            case .tableB: tableRun(row, from: a, to: b, v: v, right: right, table: tableB!)
            }
            a = b
        }
    }

    /// The conic-gradient inner loop: one division and one table load per pixel.
    @inline(__always)
    func tableRun(
        _ row: UnsafeMutablePointer<UInt32>, from x0: Int, to x1: Int, v: Float, right: Bool,
        table: UnsafeMutablePointer<UInt32>
    ) {
        let av = abs(v) + 1e-30
        let n = DiamondAngle.binsPerQuadrant
        // Diamond angle = base + sign · |u| / (|u| + |v|), by quadrant.
        let base: Float, scale: Float
        if right {
            (base, scale) = v > 0 ? (0, n) : (2 * n, -n)
        } else {
            (base, scale) = v >= 0 ? (4 * n, -n) : (2 * n, n)
        }
        var t = abs(Float(x0) + 0.5 - cx)
        let step: Float = right ? 1 : -1
        var p = row + x0
        let end = row + x1
        while p < end {
            let q = t / (t + av)
            p.pointee = table[DiamondAngle.index(scaled: base + scale * q)]
            t += step
            p += 1
        }
    }

    // MARK: - Caps and the shadow

    /// Pixel index range of centres in (c − h, c + h).
    @inline(__always)
    func span(_ c: Float, _ h: Float) -> (Int, Int) {
        (Int((c - h - 0.5).rounded(.up)), Int((c + h - 0.5).rounded(.up)))
    }

    func drawCap(_ cap: Cap, buffer: PixelBuffer, area: IntRect) {
        let outer = rc + halfDiagonal, inner = rc - halfDiagonal
        let y0 = max(area.y, Int((cap.y - outer).rounded(.down)))
        let y1 = min(area.maxY, Int((cap.y + outer).rounded(.up)))
        guard y0 < y1 else { return }
        for y in y0..<y1 {
            let yc = Float(y) + 0.5
            let dy = yc - cap.y
            guard abs(dy) < outer else { continue }
            var (a, b) = span(cap.x, (outer * outer - dy * dy).squareRoot())
            // Keep the cap's own side of its diameter.
            if abs(cap.tx) > 1e-6 {
                let s = Int((cap.x - dy * cap.ty / cap.tx - 0.5).rounded(.up))
                if cap.tx > 0 { a = max(a, s) } else { b = min(b, s) }
            } else if dy * cap.ty < 0 || (dy == 0 && cap.ty < 0) {
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
                (row + ia).update(repeating: cap.color, count: ib - ia)
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
        let y0 = max(area.y, Int((s.y - s.outer).rounded(.down)))
        let y1 = min(area.maxY, Int((s.y + s.outer).rounded(.up)))
        guard y0 < y1 else { return }
        let capInside = (rc - halfDiagonal) * (rc - halfDiagonal)
        let bandIn = max(0, ri - halfDiagonal), bandOut = ro + halfDiagonal
        for y in y0..<y1 {
            let yc = Float(y) + 0.5
            let dy = yc - s.y
            guard abs(dy) < s.outer else { continue }
            let (a, b) = span(s.x, (s.outer * s.outer - dy * dy).squareRoot())
            let xa = max(a, area.x), xb = min(b, area.maxX)
            guard xa < xb else { continue }
            let row = buffer.row32(y)
            let v = cy - yc
            for x in xa..<xb {
                let xc = Float(x) + 0.5
                // Only ahead of the tip, on the band, outside the cap that will cover it.
                let tu = xc - tip.x, tv = yc - tip.y
                guard tu * tip.tx + tv * tip.ty > 0, tu * tu + tv * tv > capInside else { continue }
                let u = xc - cx
                let dist = (u * u + v * v).squareRoot()
                guard dist > bandIn, dist < bandOut else { continue }
                let du = xc - s.x
                let ds = (du * du + dy * dy).squareRoot()
                let t = min(max((s.outer - ds) / (s.outer - s.inner), 0), 1)
                let m = t * t * (3 - 2 * t)  // smoothstep
                row[x] = scale(row[x], by: alpha256(1 - s.opacity * m))
            }
        }
    }
}

/// `dst · keep + src · coverage`, per channel, rounded and clamped.
@inline(__always)
func mixPremultiplied(_ dst: UInt32, keep: Float, add src: UInt32, coverage: Float) -> UInt32 {
    func channel(_ shift: UInt32) -> UInt32 {
        let d = Float((dst >> shift) & 0xFF), s = Float((src >> shift) & 0xFF)
        let c = d * keep + s * coverage + 0.5
        return UInt32(min(max(c, 0), 255)) << shift
    }
    return channel(16) | channel(8) | channel(0)
}
