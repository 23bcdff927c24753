/// The band of one ring geometry in one buffer, row by row: where each row's band pixels are, which
/// of them lie on an edge (and how much of each the band covers), and the angle of every pixel as
/// a colour-table bin.
///
/// None of this depends on the arc's start, sweep or colours, only on the centre and the two radii
/// (and the buffer's size, which clips it), so it is worked out once per geometry and kept in the
/// buffer's `DrawingCache`: a frame of the same rings is then colour lookups and edge blends.
///
/// Made cheaply, since a panel's first frame, a reload and every `glance render` pay for it: the
/// zones and edge coverage of a row mirrored about the centre are the same numbers (exactly, when
/// the centre lies on a whole or half pixel), so they are worked out for one row of the pair, and
/// for the right half of a row when the left mirrors it; the angles, a division per pixel, sixteen
/// pixels at a time, and only for the half-rows a colour table draws, when it first does (a track
/// or a solid paint needs none).
///
/// Every value is computed exactly as the rasterizer computed it per frame before (the same
/// expressions on the same operands), so the pixels are the same bit for bit.
final class BandSpans {
    typealias Edge = ArcRasterizer.Edge

    /// What one half-row is drawn from: its zones `[p0, p1)` edge, `[p1, p2)` inside, `[p2, p3)`
    /// edge; pixel x's angle is `angle[x]`, an edge pixel's alpha `alpha1[x]` or `alpha2[x]`; the
    /// first colour-table bin of its quadrant.
    struct HalfRow {
        var p0, p1, p2, p3: Int
        /// Filled on first use (`fillAngles`): until then `anglesReady` is false.
        var angle: UnsafeMutablePointer<UInt8>
        /// The angle as the last (run length mod 4) pixels of a run inside the band take it: the
        /// same memory as `angle` unless a pixel of the half-row rounds apart.
        var tailAngle: UnsafeMutablePointer<UInt8>
        var alpha1: UnsafeMutablePointer<UInt16>
        var alpha2: UnsafeMutablePointer<UInt16>
        var quadrantBase: Int
        /// The diamond angle of the middle pixel of [p0, p3): the class of a half-row no class
        /// boundary cuts.
        var midDiamond: Float
        var anglesReady: Bool
        /// The right half (angle rising with x).
        var right: Bool
    }

    /// Rows `[firstRow, firstRow + rowCount)`.
    let firstRow: Int
    let rowCount: Int
    /// Per band pixel: its colour-table bin less its quadrant's first bin (0...128), each
    /// half-row's from a multiple of 16 bytes with room for a whole last group of 16; then
    /// (`tailDistance` bytes on) the same again as the gradient's loop has always rounded it for
    /// the last pixels of a run that are not a group of four (rounded twice: once in a while one
    /// bin apart), written only for the half-rows where it differs.
    let angles: UnsafeMutablePointer<UInt8>
    let tailDistance: Int
    /// Per edge pixel: the band's coverage as an alpha in 0...256 (a row's mirror image about the
    /// centre's row shares its row's).
    let alphas: UnsafeMutablePointer<UInt16>
    let alphaCount: Int
    /// Per row its right half, then its left half (the order they are drawn in).
    let halves: UnsafeMutablePointer<HalfRow>

    /// Bytes held (for the cache's budget).
    var bytes: Int { rowCount * 2 * MemoryLayout<HalfRow>.stride + 2 * tailDistance + 2 * alphaCount }

    /// The first colour-table bin of the quadrant a half-row lies in.
    @inline(__always)
    static func quadrantBase(right: Bool, v: Float) -> Int {
        let n = DiamondAngle.bins / 4
        return right ? (v > 0 ? 0 : n) : (v >= 0 ? 3 * n : 2 * n)
    }

    /// Whether `2c` is a whole number (small enough for the pixel maths): then pixel `i` and pixel
    /// `2c − 1 − i` lie at exactly opposite offsets from `c` (both differences are exact).
    @inline(__always)
    static func mirror(_ c: Float) -> Int? {
        let twice = 2 * c
        return abs(twice) < 1e6 && Float(Int(twice)) == twice ? Int(twice) : nil
    }

    init(_ r: ArcRasterizer, width: Int, height: Int) {
        let cx = r.cx, cy = r.cy
        let mirrorX = Self.mirror(cx)
        let k = mirrorX ?? 0
        let mirrorY = Self.mirror(cy)
        // Rows whose centres can meet the band (the rest are empty).
        let reach = (r.outerOut2).squareRoot() + 1
        let top = max(0, floorToInt(cy - reach))
        let bottom = min(height, max(top, ceilToInt(cy + reach)))
        firstRow = top
        rowCount = bottom - top
        let origin = floorToInt(cx - r.ro - 2)
        let lo = origin
        let hi = origin + r.bandWidth
        let mid = ceilToInt(cx - 0.5)  // first pixel with u ≥ 0
        /// A row's zones and edges, where its angles and alphas go, and the row whose alphas it
        /// shares (its mirror image), if any.
        struct Zones {
            var left = SIMD4<Int32>.zero, right = SIMD4<Int32>.zero
            var full = false
            var leftAngles = 0, rightAngles = 0
            var leftAlphas = 0, rightAlphas = 0
            var mirrored = false
            /// The left half is the right half mirrored (its alphas are the right's, reversed).
            var leftMirrorsRight = false
        }
        // First pass: the zones of every row, and how many pixels they hold.
        var angleCount = 0
        var alphaCount = 0
        var zones = [Zones](repeating: Zones(), count: rowCount)
        for y in top..<bottom {
            var z = Zones()
            let ym = mirrorY.map { $0 - 1 - y } ?? Int.max
            if ym >= top && ym < y {
                // The mirror image of a row already done: the same zones and alphas.
                z = zones[ym - top]
                z.mirrored = true
            } else {
                let v = cy - (Float(y) + 0.5)
                let v2 = v * v
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
                    if mirrorX != nil {
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
                    z.full = hasFull
                    if hasFull {
                        z.right = SIMD4(clip(a), clip(b), clip(c), clip(d))
                        z.left = SIMD4(clip(la), clip(lb), clip(lc), clip(ld))
                    } else {
                        z.right = SIMD4(clip(a), clip(d), clip(d), clip(d))
                        z.left = SIMD4(clip(la), clip(ld), clip(ld), clip(ld))
                    }
                    // Unclipped by the buffer, the left half is the right one mirrored pixel for pixel.
                    if mirrorX != nil {
                        let m = Int32(k)
                        z.leftMirrorsRight = z.left == SIMD4(m - z.right[3], m - z.right[2], m - z.right[1], m - z.right[0])
                    }
                }
                z.leftAlphas = alphaCount
                alphaCount += Int(z.left[1] - z.left[0] + z.left[3] - z.left[2])
                z.rightAlphas = alphaCount
                alphaCount += Int(z.right[1] - z.right[0] + z.right[3] - z.right[2])
            }
            // Angles are per half-row, from a 16-byte boundary, rounded up to whole groups of 16.
            z.leftAngles = angleCount
            angleCount += (Int(z.left[3] - z.left[0]) + 15) & ~15
            z.rightAngles = angleCount
            angleCount += (Int(z.right[3] - z.right[0]) + 15) & ~15
            zones[y - top] = z
        }
        self.alphaCount = alphaCount
        tailDistance = angleCount
        angles = .allocate(capacity: max(16, 2 * angleCount))
        alphas = .allocate(capacity: max(1, alphaCount))
        halves = .allocate(capacity: max(1, 2 * rowCount))
        // Second pass: every edge pixel's coverage (a mirrored row's is its row's).
        for i in 0..<rowCount where !zones[i].mirrored {
            let z = zones[i]
            let av = abs(cy - (Float(top + i) + 0.5))
            let kinds: (left: (Edge, Edge), right: (Edge, Edge)) =
                z.full ? ((.outer, .inner), (.inner, .outer)) : ((.both, .none), (.both, .none))
            let right = alphas + z.rightAlphas
            let r0 = Int(z.right[0]), r1 = Int(z.right[1]), r2 = Int(z.right[2]), r3 = Int(z.right[3])
            r.fillAlphas(right, from: r0, to: r1, av: av, kinds.right.0)
            r.fillAlphas(right + (r1 - r0), from: r2, to: r3, av: av, kinds.right.1)
            let left = alphas + z.leftAlphas
            if z.leftMirrorsRight {
                // The right half's alphas in reverse order: [p0, p1) mirrors [r2, r3), [p2, p3) [r0, r1).
                let n = (r1 - r0) + (r3 - r2)
                for j in 0..<n { left[j] = right[n - 1 - j] }
            } else {
                let l0 = Int(z.left[0]), l1 = Int(z.left[1]), l2 = Int(z.left[2]), l3 = Int(z.left[3])
                r.fillAlphas(left, from: l0, to: l1, av: av, kinds.left.0)
                r.fillAlphas(left + (l1 - l0), from: l2, to: l3, av: av, kinds.left.1)
            }
        }
        // What the drawing needs per half-row, ready to use (the angles when first drawn).
        for i in 0..<rowCount {
            let z = zones[i]
            let v = cy - (Float(top + i) + 0.5)
            func half(_ p: SIMD4<Int32>, _ angleStart: Int, _ alphaStart: Int, right: Bool) -> HalfRow {
                let p0 = Int(p[0]), p1 = Int(p[1]), p2 = Int(p[2]), p3 = Int(p[3])
                let alpha = alphas + alphaStart
                return HalfRow(
                    p0: p0, p1: p1, p2: p2, p3: p3, angle: angles + angleStart - p0,
                    tailAngle: angles + angleStart - p0, alpha1: alpha - p0,
                    alpha2: alpha + (p1 - p0) - p2, quadrantBase: Self.quadrantBase(right: right, v: v),
                    midDiamond: DiamondAngle.of(u: Float((p0 &+ p3) / 2) + 0.5 - cx, v: v), anglesReady: false,
                    right: right)
            }
            (halves + 2 * i).initialize(to: half(z.right, z.rightAngles, z.rightAlphas, right: true))
            (halves + 2 * i + 1).initialize(to: half(z.left, z.leftAngles, z.leftAlphas, right: false))
        }
    }

    deinit {
        halves.deallocate()
        angles.deallocate()
        alphas.deallocate()
    }

    /// The bins of the half-row `h` at `v`, less the quadrant's first bin: the diamond angle
    /// base ± 128·|u| / (|u| + |v|), rounded through the mantissa as the conic gradient's loop
    /// rounds it, and as its tail rounds it (the sum rounded to a float first), sixteen pixels at
    /// a time (lane by lane the scalar expressions, so the same bits).
    static func fillAngles(_ h: UnsafeMutablePointer<HalfRow>, tailDistance: Int, cx: Float, v: Float) {
        let p0 = h.pointee.p0, p3 = h.pointee.p3
        let right = h.pointee.right
        let n = DiamondAngle.binsPerQuadrant
        let (qBase, scale): (Float, Float) =
            right ? (v > 0 ? (0, n) : (2 * n, -n)) : (v >= 0 ? (4 * n, -n) : (2 * n, n))
        let base = SIMD16<UInt32>(repeating: UInt32(quadrantBase(right: right, v: v)))
        let av = abs(v) + 1e-30
        let b = qBase + 0x1p23
        let mantissa = SIMD16<UInt32>(repeating: 0x7F_FFFF)
        let out = h.pointee.angle + p0
        let lanes = SIMD16<Float>(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15)
        @inline(__always) func scaled(_ x: SIMD16<Float>) -> SIMD16<Float> {
            let u = (x + 0.5) - cx
            // |u|: the sign bit cleared, as abs does.
            let t = unsafeBitCast(unsafeBitCast(u, to: SIMD16<UInt32>.self) & 0x7FFF_FFFF, to: SIMD16<Float>.self)
            return scale * (t / (t + av))
        }
        @inline(__always) func bins(_ sum: SIMD16<Float>) -> SIMD16<UInt32> {
            (unsafeBitCast(sum, to: SIMD16<UInt32>.self) & mantissa) &- base
        }
        var differs = SIMD16<UInt32>.zero
        var i = 0
        while i < p3 - p0 {
            let s = scaled(lanes + Float(p0 + i))
            let main = bins(b + s)
            differs |= main ^ bins((qBase + s) + 0x1p23)
            UnsafeMutableRawPointer(out + i).storeBytes(of: SIMD16<UInt8>(truncatingIfNeeded: main), as: SIMD16<UInt8>.self)
            i += 16
        }
        h.pointee.anglesReady = true
        guard differs != .zero else { return }
        // Some pixel rounds one bin apart in the tail's way: the tail's bins of their own.
        let tails = out + tailDistance
        i = 0
        while i < p3 - p0 {
            let s = scaled(lanes + Float(p0 + i))
            UnsafeMutableRawPointer(tails + i).storeBytes(
                of: SIMD16<UInt8>(truncatingIfNeeded: bins((qBase + s) + 0x1p23)), as: SIMD16<UInt8>.self)
            i += 16
        }
        h.pointee.tailAngle = h.pointee.angle + tailDistance
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
