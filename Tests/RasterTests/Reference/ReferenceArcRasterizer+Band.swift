@testable import Raster

/// The band: the ring between the stroke's inner and outer circles, row by row, each row cut
/// into runs by colour class (value, later turn, track, nothing) and by how it meets the edges.
extension ReferenceArcRasterizer {
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
}
