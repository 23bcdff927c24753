/// The band of one ring geometry in one buffer, row by row: where each row's band pixels are, which
/// of them lie on an edge (and how much of each the band covers), and the angle of every pixel as
/// a colour-table bin.
///
/// None of this depends on the arc's start, sweep or colours, only on the centre and the two radii
/// (and the buffer's size, which clips it), so it is worked out once per geometry and kept in the
/// buffer's `DrawingCache`: a frame of the same rings is then colour lookups and edge blends.
///
/// Every value is computed exactly as the rasterizer computed it per frame before (the same
/// expressions on the same operands), so the pixels are the same bit for bit.
final class BandSpans {
    typealias Edge = ArcRasterizer.Edge

    /// One row: each half (the left, angle falling with x, and the right, angle rising) is three
    /// adjacent zones `[p.0, p.1)` edge, `[p.1, p.2)` wholly inside, `[p.2, p.3)` edge, clipped to
    /// the buffer. `angles` and `alphas` are where the half's first pixel and first edge pixel are
    /// in those arrays.
    struct Row {
        var left: SIMD4<Int32>
        var right: SIMD4<Int32>
        var leftAngles: Int32, rightAngles: Int32
        var leftAlphas: Int32, rightAlphas: Int32
    }

    /// What one half-row is drawn from: its zones `[p0, p1)` edge, `[p1, p2)` inside, `[p2, p3)`
    /// edge; pixel x's angle is `angle[x]`, an edge pixel's alpha `alpha1[x]` or `alpha2[x]`; the
    /// first colour-table bin of its quadrant.
    struct HalfRow {
        var p0, p1, p2, p3: Int
        var angle: UnsafeMutablePointer<UInt8>
        /// The angle as the last (run length mod 4) pixels of a run inside the band take it.
        var tailAngle: UnsafeMutablePointer<UInt8>
        var alpha1: UnsafeMutablePointer<UInt16>
        var alpha2: UnsafeMutablePointer<UInt16>
        var quadrantBase: Int
        /// The diamond angle of the middle pixel of [p0, p3): the class of a half-row no class
        /// boundary cuts.
        var midDiamond: Float
    }

    /// Rows `[firstRow, firstRow + rowCount)`.
    let firstRow: Int
    let rowCount: Int
    let rows: UnsafeMutablePointer<Row>
    /// Per band pixel: its colour-table bin less its quadrant's first bin (0...128); then the
    /// same again as the gradient's loop has always rounded it for the last pixels of a run that
    /// are not a group of four (rounded twice: once in a while one bin apart).
    let angles: UnsafeMutablePointer<UInt8>
    /// Per edge pixel: the band's coverage as an alpha in 0...256.
    let alphas: UnsafeMutablePointer<UInt16>
    let angleCount: Int
    let alphaCount: Int
    /// Per row its right half, then its left half (the order they are drawn in).
    let halves: UnsafeMutablePointer<HalfRow>

    /// Bytes held (for the cache's budget).
    var bytes: Int {
        rowCount * (MemoryLayout<Row>.stride + 2 * MemoryLayout<HalfRow>.stride) + 2 * angleCount + 2 * alphaCount
    }

    /// The first colour-table bin of the quadrant a half-row lies in.
    @inline(__always)
    static func quadrantBase(right: Bool, v: Float) -> Int {
        let n = DiamondAngle.bins / 4
        return right ? (v > 0 ? 0 : n) : (v >= 0 ? 3 * n : 2 * n)
    }

    init(_ r: ArcRasterizer, width: Int, height: Int) {
        let cx = r.cx, cy = r.cy
        let twiceX = 2 * cx
        let mirrorX = abs(twiceX) < 1e6 && Float(Int(twiceX)) == twiceX
        let k = mirrorX ? Int(twiceX) : 0
        // Rows whose centres can meet the band (the rest are empty).
        let reach = (r.outerOut2).squareRoot() + 1
        let top = max(0, floorToInt(cy - reach))
        let bottom = min(height, max(top, ceilToInt(cy + reach)))
        firstRow = top
        rowCount = bottom - top
        rows = .allocate(capacity: max(1, rowCount))
        let origin = floorToInt(cx - r.ro - 2)
        let lo = origin
        let hi = origin + r.bandWidth
        let mid = ceilToInt(cx - 0.5)  // first pixel with u ≥ 0
        // First pass: the zones of every row, and how many pixels they hold.
        var angleCount = 0
        var alphaCount = 0
        var edges: [(left: (Edge, Edge), right: (Edge, Edge))] = []
        edges.reserveCapacity(rowCount)
        for y in top..<bottom {
            let v = cy - (Float(y) + 0.5)
            let v2 = v * v
            var row = Row(left: .zero, right: .zero, leftAngles: 0, rightAngles: 0, leftAlphas: 0, rightAlphas: 0)
            var kinds: (left: (Edge, Edge), right: (Edge, Edge)) = ((.none, .none), (.none, .none))
            if v2 < r.outerOut2 {
                // |u| where pixel centres cross each circle of the band's edge zones.
                let outer = (r.outerOut2 - v2).squareRoot()
                let fullOuter: Float = v2 < r.outerIn2 ? (r.outerIn2 - v2).squareRoot() : -1
                let fullInner: Float = v2 < r.innerOut2 ? (r.innerOut2 - v2).squareRoot() : 0
                let hole: Float = v2 < r.innerIn2 ? (r.innerIn2 - v2).squareRoot() : 0
                let hasFull = fullOuter >= fullInner
                func right(_ t: Float) -> Int { min(max(ceilToInt(cx + t - 0.5), mid, lo), hi) }
                let a = right(hole)
                let d = right(outer)
                let b = hasFull ? right(fullInner) : d
                let c = hasFull ? right(fullOuter) : d
                var la: Int
                var lb: Int
                var lc: Int
                var ld: Int
                if mirrorX {
                    (la, lb, lc, ld) = (k - d, k - c, k - b, k - a)
                } else {
                    func left(_ t: Float) -> Int { max(min(floorToInt(cx - t - 0.5) + 1, mid, hi), lo) }
                    la = left(outer)
                    ld = left(hole)
                    lb = hasFull ? left(fullOuter) : ld
                    lc = hasFull ? left(fullInner) : ld
                }
                la = min(max(la, lo), mid)
                lb = min(max(lb, la), mid)
                lc = min(max(lc, lb), mid)
                ld = min(max(ld, lc), mid)
                // Clipped to the buffer (the zones stay adjacent and in order).
                func clip(_ x: Int) -> Int32 { Int32(min(max(x, 0), width)) }
                if hasFull {
                    row.right = SIMD4(clip(a), clip(b), clip(c), clip(d))
                    row.left = SIMD4(clip(la), clip(lb), clip(lc), clip(ld))
                    kinds = ((.outer, .inner), (.inner, .outer))
                } else {
                    row.right = SIMD4(clip(a), clip(d), clip(d), clip(d))
                    row.left = SIMD4(clip(la), clip(ld), clip(ld), clip(ld))
                    kinds = ((.both, .none), (.both, .none))
                }
            }
            row.leftAngles = Int32(angleCount)
            angleCount += Int(row.left[3] - row.left[0])
            row.rightAngles = Int32(angleCount)
            angleCount += Int(row.right[3] - row.right[0])
            row.leftAlphas = Int32(alphaCount)
            alphaCount += Int(row.left[1] - row.left[0] + row.left[3] - row.left[2])
            row.rightAlphas = Int32(alphaCount)
            alphaCount += Int(row.right[1] - row.right[0] + row.right[3] - row.right[2])
            (rows + (y - top)).initialize(to: row)
            edges.append(kinds)
        }
        self.angleCount = angleCount
        self.alphaCount = alphaCount
        angles = .allocate(capacity: max(1, 2 * angleCount))
        alphas = .allocate(capacity: max(1, alphaCount))
        halves = .allocate(capacity: max(1, 2 * rowCount))
        // Second pass: every pixel's angle, and every edge pixel's coverage.
        for i in 0..<rowCount {
            let row = rows[i]
            let v = cy - (Float(top + i) + 0.5)
            let av = abs(v)
            func half(
                _ right: Bool, _ zones: SIMD4<Int32>, _ kinds: (Edge, Edge), _ angleStart: Int32, _ alphaStart: Int32
            ) {
                let p0 = Int(zones[0]), p1 = Int(zones[1]), p2 = Int(zones[2]), p3 = Int(zones[3])
                guard p0 < p3 else { return }
                Self.fillAngles(
                    angles + Int(angleStart), tails: angles + angleCount + Int(angleStart), from: p0, to: p3, cx: cx, v: v,
                    right: right)
                let alpha = alphas + Int(alphaStart)
                r.fillAlphas(alpha, from: p0, to: p1, av: av, kinds.0)
                r.fillAlphas(alpha + (p1 - p0), from: p2, to: p3, av: av, kinds.1)
            }
            half(false, row.left, edges[i].left, row.leftAngles, row.leftAlphas)
            half(true, row.right, edges[i].right, row.rightAngles, row.rightAlphas)
        }
        // What the drawing needs per half-row, ready to use.
        for i in 0..<rowCount {
            let row = rows[i]
            let v = cy - (Float(top + i) + 0.5)
            func half(_ p: SIMD4<Int32>, _ angleStart: Int32, _ alphaStart: Int32, right: Bool) -> HalfRow {
                let p0 = Int(p[0]), p1 = Int(p[1]), p2 = Int(p[2]), p3 = Int(p[3])
                let alpha = alphas + Int(alphaStart)
                return HalfRow(
                    p0: p0, p1: p1, p2: p2, p3: p3, angle: angles + Int(angleStart) - p0,
                    tailAngle: angles + angleCount + Int(angleStart) - p0, alpha1: alpha - p0,
                    alpha2: alpha + (p1 - p0) - p2, quadrantBase: Self.quadrantBase(right: right, v: v),
                    midDiamond: DiamondAngle.of(u: Float((p0 &+ p3) / 2) + 0.5 - cx, v: v))
            }
            (halves + 2 * i).initialize(to: half(row.right, row.rightAngles, row.rightAlphas, right: true))
            (halves + 2 * i + 1).initialize(to: half(row.left, row.leftAngles, row.leftAlphas, right: false))
        }
    }

    deinit {
        rows.deallocate()
        halves.deallocate()
        angles.deallocate()
        alphas.deallocate()
    }

    /// The bins of pixels [x0, x1) on the row at `v`, less the quadrant's first bin: the diamond
    /// angle base ± 128·|u| / (|u| + |v|), rounded through the mantissa as the conic gradient's
    /// loop rounds it (`out`), and as its tail rounds it (`tails`: the sum rounded to a float
    /// first).
    static func fillAngles(
        _ out: UnsafeMutablePointer<UInt8>, tails: UnsafeMutablePointer<UInt8>, from x0: Int, to x1: Int, cx: Float,
        v: Float, right: Bool
    ) {
        let n = DiamondAngle.binsPerQuadrant
        let (qBase, scale): (Float, Float) =
            right ? (v > 0 ? (0, n) : (2 * n, -n)) : (v >= 0 ? (4 * n, -n) : (2 * n, n))
        let base = quadrantBase(right: right, v: v)
        let av = abs(v) + 1e-30
        let b = qBase + 0x1p23
        for x in x0..<x1 {
            let t = abs(Float(x) + 0.5 - cx)
            let q = t / (t + av)
            let bin = Int((b + scale * q).bitPattern & 0x7F_FFFF)
            out[x - x0] = UInt8(truncatingIfNeeded: bin - base)
            tails[x - x0] = UInt8(truncatingIfNeeded: DiamondAngle.index(scaled: qBase + scale * q) - base)
        }
    }
}

extension ArcRasterizer {
    /// The coverage of edge pixels [x0, x1) at |v| = `av`, as alphas (what `fillEdges` computed
    /// per frame before, then `alpha256` per pixel).
    func fillAlphas(_ out: UnsafeMutablePointer<UInt16>, from x0: Int, to x1: Int, av: Float, _ edge: Edge) {
        guard x0 < x1 else { return }
        let v2 = av * av
        for x in x0..<x1 {
            let u = Float(x) + 0.5 - cx
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
            out[x - x0] = coverage > 0 ? UInt16(alpha256(coverage)) : 0
        }
    }
}

/// A colour table of an arc: `bins + 1` colours by diamond angle.
final class ColorTable {
    let entries: UnsafeMutablePointer<UInt32>
    init() { entries = .allocate(capacity: DiamondAngle.bins + 1) }
    deinit { entries.deallocate() }
}

/// What drawing into a buffer keeps from one frame to the next: the row spans of the ring bands
/// drawn into it (a panel shows the same rings frame after frame, and an animation of a ring
/// changes its sweep, not its geometry), and the arcs' colour tables (the same ring drawn again
/// reads the same colours). Bounded: the least recently used go first.
///
/// Belongs to one buffer and is used by whoever draws into it, one thread at a time, like the
/// pixels themselves.
final class DrawingCache {
    struct BandKey: Hashable {
        var cx, cy, ro, ri: UInt32
    }

    /// Everything a colour table's entries depend on: the paint, the arc's start, the class's
    /// range of relative angles and the arc length it starts at (bit patterns).
    struct TableKey: Hashable {
        var paint: ArcPaint
        var start, lo, hi, offset: UInt64
    }

    /// Everything a paint's colours by bin depend on: the paint, the arc's start and the arc
    /// length the class starts at.
    struct BaseKey: Hashable {
        var paint: ArcPaint
        var start, offset: UInt64
    }

    private var bands: [BandKey: (spans: BandSpans, used: Int)] = [:]
    private var bases: [BaseKey: (table: BaseTable, used: Int)] = [:]
    private var tables: [TableKey: (table: ColorTable, used: Int)] = [:]
    private var clock = 0
    private var bytes = 0
    /// At most this many bytes of spans (a 480x480 ring screen holds about 300 KB) and entries.
    static let byteBudget = 4 << 20
    static let entryBudget = 64
    /// At most this many colour tables (2 KB each; a ring screen with its week uses about 30).
    static let tableBudget = 96

    /// The spans of `raster`'s band in a buffer of `width` × `height`, made when not kept.
    func spans(_ raster: ArcRasterizer, width: Int, height: Int) -> BandSpans {
        clock &+= 1
        let key = BandKey(
            cx: raster.cx.bitPattern, cy: raster.cy.bitPattern, ro: raster.ro.bitPattern, ri: raster.ri.bitPattern)
        if let index = bands.index(forKey: key) {  // one lookup; the entry's use stamped in place
            bands.values[index].used = clock
            return bands.values[index].spans
        }
        let spans = BandSpans(raster, width: width, height: height)
        while !bands.isEmpty && (bytes + spans.bytes > Self.byteBudget || bands.count >= Self.entryBudget) {
            let oldest = bands.min { $0.value.used < $1.value.used }!
            bytes -= oldest.value.spans.bytes
            bands[oldest.key] = nil
        }
        bands[key] = (spans, clock)
        bytes += spans.bytes
        return spans
    }

    /// The colour table for `key`, filled by `fill` when not kept.
    func table(_ key: TableKey, fill: (UnsafeMutablePointer<UInt32>) -> Void) -> ColorTable {
        clock &+= 1
        if let index = tables.index(forKey: key) {  // one lookup; the entry's use stamped in place
            tables.values[index].used = clock
            return tables.values[index].table
        }
        let table = ColorTable()
        fill(table.entries)
        if tables.count >= Self.tableBudget {
            let oldest = tables.min { $0.value.used < $1.value.used }!
            tables[oldest.key] = nil
        }
        tables[key] = (table, clock)
        return table
    }

    /// The colours by bin for `key`, made when not kept.
    func base(_ key: BaseKey) -> BaseTable {
        clock &+= 1
        if let index = bases.index(forKey: key) {  // one lookup; the entry's use stamped in place
            bases.values[index].used = clock
            return bases.values[index].table
        }
        let table = BaseTable(paint: key.paint, start: Double(bitPattern: key.start), offset: Double(bitPattern: key.offset))
        if bases.count >= Self.tableBudget / 2 {
            let oldest = bases.min { $0.value.used < $1.value.used }!
            bases[oldest.key] = nil
        }
        bases[key] = (table, clock)
        return table
    }

    /// Band spans and colour tables kept (for tests).
    var bandCount: Int { bands.count }
    var tableCount: Int { tables.count }
}
