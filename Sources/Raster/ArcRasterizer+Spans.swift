/// The band of one ring geometry in one buffer, row by row: where each row's band pixels are, which
/// of them lie on an edge (and how much of each the band covers), and the angle of every pixel as
/// a colour-table bin.
///
/// None of this depends on the arc's start, sweep or colours, only on the centre and the two radii
/// (and the buffer's size, which clips it), so it is worked out once per geometry and kept in the
/// buffer's `DrawingCache`: a frame of the same rings is then colour lookups and edge blends.
///
/// Made cheaply, since a panel's first frame, a reload and every `glance render` pay for it:
/// - the angles (a division per pixel) sixteen pixels at a time, and only for the half-rows a
///   colour table draws, when it first does (a track or a solid paint needs none);
/// - when the centre lies on a whole or half pixel (`symmetric`), pixel offsets from it are exact
///   and the band is its own mirror image: a row below the centre has the zones and edge coverage
///   of its mirror row above (shared), and its bins are 128 less those of that row's (see
///   `fillAngles`); a row's left half has the right half's coverage in reverse order.
///
/// Every value is computed exactly as the rasterizer computed it per frame before (the same
/// expressions on the same operands, or provably equal ones), so the pixels are the same bit for
/// bit.
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
        /// same memory as `angle` unless a pixel of the half-row rounds apart (until filled, where
        /// such angles would go).
        var tailAngle: UnsafeMutablePointer<UInt8>
        var alpha1: UnsafeMutablePointer<UInt16>
        var alpha2: UnsafeMutablePointer<UInt16>
        /// Where the half-row's colours start in a colour table's entries: its quadrant's first
        /// bin, or for a half-row whose bins are 128 less the angles it reads (a mirror image
        /// sharing another half-row's angles) the same colours in the table's reversed copy
        /// (`tableOffset(quadrant:negated:)`).
        var tableOffset: Int32
        /// The diamond angle of the middle pixel of [p0, p3): the class of a half-row no class
        /// boundary cuts.
        var midDiamond: Float
        /// The half-row whose angles it reads (itself; about a symmetric centre, for a row below
        /// the centre, the mirror row's, and for a left half mirroring its right half, the
        /// right's): that half-row's `anglesReady` says whether they are filled, and
        /// `fillAngles` of it fills them (`readyAngles`).
        var angleSource: UnsafeMutablePointer<HalfRow>
        /// `angleSource` lies in the mirror row (at −v).
        var sourceMirrored: Bool
        /// Its angles are another half-row's read backwards: pixel x's at `angle[-x]` (a left
        /// half mirroring its right half).
        var backward: Bool
        var anglesReady: Bool
        /// The right half (angle rising with x).
        var right: Bool
        /// Whether the tail's rounding can differ from the loop's here (not about a symmetric
        /// centre).
        var tails: Bool
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
    private let angleMemory: UnsafeMutablePointer<UInt8>
    let tailDistance: Int
    /// Per edge pixel: the band's coverage as an alpha in 0...256.
    let alphas: UnsafeMutablePointer<UInt16>
    let alphaCount: Int
    /// Per row its right half, then its left half (the order they are drawn in).
    let halves: UnsafeMutablePointer<HalfRow>
    /// The centre lies on a whole or half pixel both ways (and the band is not huge).
    let symmetric: Bool

    /// Bytes held (for the cache's budget).
    var bytes: Int { rowCount * 2 * MemoryLayout<HalfRow>.stride + 2 * tailDistance + 2 * alphaCount }

    /// The first colour-table bin of the quadrant a half-row lies in.
    @inline(__always)
    static func quadrantBase(right: Bool, v: Float) -> Int {
        let n = DiamondAngle.bins / 4
        return right ? (v > 0 ? 0 : n) : (v >= 0 ? 3 * n : 2 * n)
    }

    /// `tableOffset` for a half-row in the quadrant starting at bin `quadrant`: the bins it reads
    /// as they are, or (`negated`) as 128 less them: colour `T[quadrant + 128 − a]`, which is
    /// the reversed copy's `R[(bins − 128 − quadrant) + a]` (`R[j] = T[bins − j]`, stored after
    /// the table's `bins + 1` entries).
    @inline(__always)
    static func tableOffset(quadrant: Int, negated: Bool) -> Int32 {
        let bins = DiamondAngle.bins
        return Int32(truncatingIfNeeded: negated ? (bins &+ 1) &+ (bins &- 128 &- quadrant) : quadrant)
    }

    /// Whether a half-row's `tableOffset` reads the table reversed.
    @inline(__always)
    static func negated(_ offset: Int32) -> Bool { Int(offset) > DiamondAngle.bins }

    /// `2c` when it is a whole number (and small enough for the pixel maths): then pixel `i` and
    /// pixel `2c − 1 − i` lie at exactly opposite offsets from `c` (both differences are exact).
    @inline(__always)
    static func mirror(_ c: Float) -> Int? {
        let twice = 2 * c
        return abs(twice) < 1e6 && Float(Int(twice)) == twice ? Int(twice) : nil
    }

    /// What a row's zones depend on: the centre, the edge zones' squared radii, the band's columns
    /// (`lo`, the first pixel right of the centre `mid`, `hi`), the buffer's width and, when the
    /// centre's column is a whole or half pixel, 2·cx (`k`).
    struct ZoneGeometry {
        let cx, cy, outerOut2, outerIn2, innerOut2, innerIn2: Float
        let lo, mid, hi, width: Int32
        let k: Int32?

        /// The zones of four rows `y`: right `(a, b, c, d)`, left `(la, lb, lc, ld)`, clipped to
        /// the buffer, and whether each has a full zone: lane by lane what a row's own scalar
        /// expressions give (the same float operations, correctly rounded square roots, ⌈⌉ and ⌊⌋
        /// as `ceilSmall` and `floorSmall` take them, and integer clamps).
        func zones4(_ y: SIMD4<Int32>) -> (
            a: SIMD4<Int32>, b: SIMD4<Int32>, c: SIMD4<Int32>, d: SIMD4<Int32>,
            la: SIMD4<Int32>, lb: SIMD4<Int32>, lc: SIMD4<Int32>, ld: SIMD4<Int32>, full: SIMD4<Int32>
        ) {
            // Pixel positions as floats (whole numbers far below 2²⁴: exact, and their min and max
            // are the integers'), in one instruction each where integer lanes would take four.
            @inline(__always) func floorF(_ x: Float4) -> Float4 {
                let nearest = (x + 0x1.8p23) - 0x1.8p23  // x rounded to the nearest, as floorSmall
                return nearest - Float4(repeating: 1).replacing(with: 0, where: nearest .<= x)
            }
            @inline(__always) func ceilF(_ x: Float4) -> Float4 { -floorF(-x) }
            @inline(__always) func clamp(_ x: Float4, _ low: Float4, _ high: Float4) -> Float4 {
                minimum(maximum(x, low), high)
            }
            // A whole number's float as an integer (through the mantissa: exact, no rounding left).
            @inline(__always) func int(_ x: Float4) -> SIMD4<Int32> {
                SIMD4<Int32>(truncatingIfNeeded: unsafeBitCast(x + 0x1.8p23, to: SIMD4<UInt32>.self) & 0x7F_FFFF)
                    &- 0x40_0000
            }
            let v = cy - (Float4(y) + 0.5)
            let v2 = v * v
            let none = Float4(repeating: 0)
            let inBand = v2 .< outerOut2
            let outer = (outerOut2 - v2).squareRoot()
            let fullOuter = select(v2 .< outerIn2, (outerIn2 - v2).squareRoot(), Float4(repeating: -1))
            let fullInner = select(v2 .< innerOut2, (innerOut2 - v2).squareRoot(), none)
            let hole = select(v2 .< innerIn2, (innerIn2 - v2).squareRoot(), none)
            let hasFull = (fullOuter .>= fullInner) .& inBand
            let lo4 = Float4(repeating: Float(lo)), mid4 = Float4(repeating: Float(mid))
            let hi4 = Float4(repeating: Float(hi))
            // min(max(⌈cx + t − 0.5⌉, mid, lo), hi)
            @inline(__always) func rightEdge(_ t: Float4) -> Float4 {
                minimum(maximum(maximum(ceilF((cx + t) - 0.5), mid4), lo4), hi4)
            }
            // max(min(⌊cx − t − 0.5⌋ + 1, mid, hi), lo)
            @inline(__always) func leftEdge(_ t: Float4) -> Float4 {
                maximum(minimum(minimum(floorF((cx - t) - 0.5) + 1, mid4), hi4), lo4)
            }
            let a = rightEdge(hole)
            let d = rightEdge(outer)
            let b = select(hasFull, rightEdge(fullInner), d)
            let c = select(hasFull, rightEdge(fullOuter), d)
            var la: Float4, lb: Float4, lc: Float4, ld: Float4
            if let k {
                let k4 = Float4(repeating: Float(k))
                (la, lb, lc, ld) = (k4 - d, k4 - c, k4 - b, k4 - a)
            } else {
                la = leftEdge(outer)
                ld = leftEdge(hole)
                lb = select(hasFull, leftEdge(fullOuter), ld)
                lc = select(hasFull, leftEdge(fullInner), ld)
            }
            la = clamp(la, lo4, mid4)
            lb = clamp(lb, la, mid4)
            lc = clamp(lc, lb, mid4)
            ld = clamp(ld, lc, mid4)
            let w = Float4(repeating: Float(width))
            // Clipped to the buffer; without a full zone (b, c) = d and (lb, lc) = ld; outside the
            // band nothing.
            @inline(__always) func zone(_ x: Float4, _ otherwise: Float4) -> SIMD4<Int32> {
                int(select(inBand, clamp(select(hasFull, x, otherwise), none, w), none))
            }
            return (
                zone(a, a), zone(b, d), zone(c, d), zone(d, d), zone(la, la), zone(lb, ld), zone(lc, ld), zone(ld, ld),
                SIMD4<Int32>.zero.replacing(with: 1, where: hasFull)
            )
        }
    }

    init(_ r: ArcRasterizer, width: Int, height: Int) {
        let cx = r.cx, cy = r.cy
        let mirrorX = Self.mirror(cx)
        let k = Int32(truncatingIfNeeded: mirrorX ?? 0)
        let mirrorY = Self.mirror(cy)
        // Exact offsets both ways, and |u| + |v| < 8192 (see `fillAngles`).
        symmetric = mirrorX != nil && mirrorY != nil && r.ro < 4000
        // Rows whose centres can meet the band (the rest are empty).
        let reach = (r.outerOut2).squareRoot() + 1
        let top = max(0, floorToInt(cy - reach))
        let bottom = min(height, max(top, ceilToInt(cy + reach)))
        firstRow = top
        rowCount = bottom - top
        let rows = rowCount
        let origin = floorToInt(cx - r.ro - 2)
        let lo = origin
        let hi = origin + r.bandWidth
        let mid = ceilToInt(cx - 0.5)  // first pixel with u ≥ 0
        // Per row: the zones of its right and left halves; whether it has a full zone; the row it
        // mirrors (its index, or −1); where its alphas start.
        let zones = UnsafeMutablePointer<SIMD4<Int32>>.allocate(capacity: max(1, 2 * rows))
        let full = UnsafeMutablePointer<Bool>.allocate(capacity: max(1, rows))
        let source = UnsafeMutablePointer<Int>.allocate(capacity: max(1, rows))
        let alphaStart = UnsafeMutablePointer<Int>.allocate(capacity: max(1, rows))
        // Per row: its left half is its right half mirrored pixel for pixel (unclipped by the
        // buffer).
        let mirrorsRight = UnsafeMutablePointer<Bool>.allocate(capacity: max(1, rows))
        defer {
            mirrorsRight.deallocate()
            zones.deallocate()
            full.deallocate()
            source.deallocate()
            alphaStart.deallocate()
        }
        // First pass: the zones of every row, and how many pixels they hold. Rows that mirror a
        // row above (the same zones and alphas) are marked; the others' zones are worked out
        // four rows at a time (`zones4`, lane by lane the expressions per row), then counted in
        // row order.
        let computed = UnsafeMutablePointer<Int>.allocate(capacity: max(1, rows))
        defer { computed.deallocate() }
        var computedCount = 0
        for i in 0..<rows {
            let y = top &+ i
            let ym = mirrorY.map { $0 &- 1 &- y } ?? Int.max
            if ym >= top && ym < y {
                source[i] = ym &- top
            } else {
                source[i] = -1
                computed[computedCount] = i
                computedCount &+= 1
            }
        }
        let geometry = ZoneGeometry(
            cx: cx, cy: cy, outerOut2: r.outerOut2, outerIn2: r.outerIn2, innerOut2: r.innerOut2, innerIn2: r.innerIn2,
            lo: Int32(truncatingIfNeeded: lo), mid: Int32(truncatingIfNeeded: mid), hi: Int32(truncatingIfNeeded: hi),
            width: Int32(truncatingIfNeeded: width), k: mirrorX.map { Int32(truncatingIfNeeded: $0) })
        var g = 0
        while g < computedCount {
            // Four rows (the last group's missing lanes repeat its last row).
            let last = computedCount &- 1
            let index = SIMD4<Int>(
                computed[g], computed[min(g &+ 1, last)], computed[min(g &+ 2, last)], computed[min(g &+ 3, last)])
            let ys = SIMD4<Int32>(truncatingIfNeeded: index &+ top)
            let z = geometry.zones4(ys)
            for lane in 0..<min(4, computedCount &- g) {
                let i = index[lane]
                zones[2 &* i] = SIMD4(z.a[lane], z.b[lane], z.c[lane], z.d[lane])
                zones[2 &* i &+ 1] = SIMD4(z.la[lane], z.lb[lane], z.lc[lane], z.ld[lane])
                full[i] = z.full[lane] != 0
            }
            g &+= 4
        }
        var angleCount = 0
        var alphaCount = 0
        for i in 0..<rows {
            let y = top &+ i
            let j = source[i]
            if j >= 0 {
                zones[2 &* i] = zones[2 &* j]
                zones[2 &* i &+ 1] = zones[2 &* j &+ 1]
                full[i] = full[j]
                mirrorsRight[i] = mirrorsRight[j]
                alphaStart[i] = alphaStart[j]
            } else {
                let right = zones[2 &* i], left = zones[2 &* i &+ 1]
                mirrorsRight[i] =
                    mirrorX != nil && left == SIMD4(k &- right[3], k &- right[2], k &- right[1], k &- right[0])
                alphaStart[i] = alphaCount
                alphaCount &+= Int(right[1] &- right[0] &+ right[3] &- right[2])
                    &+ Int(left[1] &- left[0] &+ left[3] &- left[2])
            }
            // Angles are per half-row, from a 16-byte boundary, rounded up to whole groups of 16;
            // about a symmetric centre only for the half-rows that are no other's mirror image (a
            // row below the centre reads its mirror row's, a left half mirroring its right half
            // the right's).
            if !(symmetric && j >= 0) {
                let right = zones[2 &* i], left = zones[2 &* i &+ 1]
                angleCount &+= (Int(right[3] &- right[0]) &+ 15) & ~15
                if !(symmetric && mirrorsRight[i] && y &* 2 &+ 1 != mirrorY!) {
                    angleCount &+= (Int(left[3] &- left[0]) &+ 15) & ~15
                }
            }
        }
        self.alphaCount = alphaCount
        tailDistance = angleCount
        angleMemory = .allocate(capacity: max(16, 2 &* angleCount))
        angles = angleMemory
        alphas = .allocate(capacity: alphaCount + 4)  // four at a time
        halves = .allocate(capacity: max(1, 2 * rows))
        // Second pass: the half-rows, and every edge pixel's coverage (a mirrored row's is its
        // row's).
        var angleStart = 0
        for i in 0..<rows {
            let v = cy - (Float(top &+ i) + 0.5)
            if source[i] >= 0 {
                // A mirrored row: its mirror row's half-rows (zones, alphas, flags). About a
                // symmetric centre its bins are 128 less the mirror row's: it reads that row's
                // angles (the same memory, the same direction) through the table reversed, or as
                // they are where that row's are themselves negated; otherwise angles of its own.
                let j = source[i]
                for side in 0..<2 {
                    var h = halves[2 &* j &+ side]
                    let quadrant = Self.quadrantBase(right: side == 0, v: v)
                    if symmetric {
                        h.tableOffset = Self.tableOffset(quadrant: quadrant, negated: !Self.negated(h.tableOffset))
                        h.tailAngle = h.angle
                        h.sourceMirrored = true  // the mirror row's source, which is in that row
                    } else {
                        h.angle = angles + (angleStart &- h.p0)
                        h.tailAngle = h.angle + tailDistance
                        angleStart &+= (h.p3 &- h.p0 &+ 15) & ~15
                        h.tableOffset = Self.tableOffset(quadrant: quadrant, negated: false)
                        h.angleSource = halves + (2 &* i &+ side)
                        h.sourceMirrored = false
                    }
                    h.anglesReady = false
                    h.midDiamond = DiamondAngle.of(u: Float((h.p0 &+ h.p3) >> 1) + 0.5 - cx, v: v)
                    (halves + (2 &* i &+ side)).initialize(to: h)
                }
                continue
            }
            let right = zones[2 &* i], left = zones[2 &* i &+ 1]
            let rightAlphas = alphas + alphaStart[i]
            let leftAlphas = rightAlphas + Int(right[1] &- right[0] &+ right[3] &- right[2])
            let reversed = symmetric && mirrorsRight[i] && v != 0
            func half(_ p: SIMD4<Int32>, _ alpha: UnsafeMutablePointer<UInt16>, right: Bool) -> HalfRow {
                let p0 = Int(p[0]), p1 = Int(p[1]), p2 = Int(p[2]), p3 = Int(p[3])
                let quadrant = Self.quadrantBase(right: right, v: v)
                var angle: UnsafeMutablePointer<UInt8>
                var tailAngle: UnsafeMutablePointer<UInt8>
                let shared = !right && reversed
                if shared {
                    // The right half's angles read backwards from its pixel k − 1 (pixel x mirrors
                    // k − 1 − x), through the table reversed.
                    angle = halves[2 &* i].angle + (Int(k) &- 1)
                    tailAngle = angle
                } else {
                    angle = angles + (angleStart &- p0)
                    tailAngle = angle + tailDistance
                    angleStart &+= (p3 &- p0 &+ 15) & ~15
                }
                // angleSource: its own angles' half-row, itself or for a shared left half its right.
                return HalfRow(
                    p0: p0, p1: p1, p2: p2, p3: p3, angle: angle, tailAngle: tailAngle, alpha1: alpha - p0,
                    alpha2: alpha + (p1 &- p0 &- p2),
                    tableOffset: Self.tableOffset(quadrant: quadrant, negated: shared),
                    midDiamond: DiamondAngle.of(u: Float((p0 &+ p3) >> 1) + 0.5 - cx, v: v),
                    angleSource: halves + (2 &* i &+ (right ? 0 : 1) &- (shared ? 1 : 0)),
                    sourceMirrored: false, backward: shared, anglesReady: false, right: right, tails: !symmetric)
            }
            (halves + 2 &* i).initialize(to: half(right, rightAlphas, right: true))
            (halves + (2 &* i &+ 1)).initialize(to: half(left, leftAlphas, right: false))
        }
        assert(angleStart <= angleCount, "BandSpans: the half-rows' angles past the memory counted for them")
        // Third pass: every computed row's edge coverage (a mirrored row's is its row's).
        r.fillRowAlphas(
            alphas, zones: zones, full: full, mirrorsRight: mirrorsRight, source: source, alphaStart: alphaStart,
            rows: rows, top: top)
    }

    deinit {
        halves.deallocate()
        angleMemory.deallocate()
        alphas.deallocate()
    }

    /// Makes the angles half-row `h` (at `v`) reads ready: its own, or those of the half-row it
    /// reads (`angleSource`: in its row, at the same v, or its mirror row's, at −v).
    @inline(__always)
    static func readyAngles(_ h: UnsafeMutablePointer<HalfRow>, cx: Float, v: Float) {
        let source = h.pointee.angleSource
        if !source.pointee.anglesReady { fillAngles(source, cx: cx, v: h.pointee.sourceMirrored ? -v : v) }
    }

    /// The bins of the half-row `h` at `v`, less the quadrant's first bin: the diamond angle
    /// base ± 128·|u| / (|u| + |v|), rounded through the mantissa as the conic gradient's loop
    /// rounds it, and as its tail rounds it (the sum rounded to a float first), sixteen pixels at
    /// a time (lane by lane the scalar expressions, so the same bits).
    ///
    /// About a symmetric centre, the mirror images of a pixel about the centre's row and column
    /// have the same |u| and |v|, so the same q = |u| / (|u| + |v|), and each quadrant's base and
    /// sign make its bin R = round(128·q) or 128 − R: R above the centre on the right (base 0,
    /// 2²³ + 128·q) and below it on the left (2²³ + 256 + 128·q, less 256), 128 − R in the other
    /// two (2²³ + 256 − 128·q less 128, 2²³ + 512 − 128·q less 384) and on the centre's own row.
    /// Rounding to nearest, ties to even, commutes with adding an even number and with negation,
    /// so these are exact:
    /// - a row below the centre takes 128 less the bins of its mirror row above;
    /// - a left half off the centre's row that mirrors its right half takes 128 less the right's
    ///   bins in reverse order.
    /// - The tail's bins are the loop's: with |u| = a/2 and |v| = c/2 (whole a, c; a + c < 2¹⁴),
    ///   128·a / (a + c) lies at least 1 / (2(a + c)) > 2⁻¹⁵ from any half-integer unless it is
    ///   one; the float q is within 2⁻¹⁸/128 of it and the tail's first rounding moves the sum by
    ///   at most 2⁻¹⁶, so only an exact half-integer could round to one, and then q, 128·q and
    ///   the sum are exact (a/(a + c) = (2m + 1)/256): both roundings see the same number.
    static func fillAngles(_ h: UnsafeMutablePointer<HalfRow>, cx: Float, v: Float) {
        let p0 = h.pointee.p0, p3 = h.pointee.p3
        let out = h.pointee.angle + p0
        h.pointee.anglesReady = true
        let tails = h.pointee.tailAngle + p0
        h.pointee.tailAngle = h.pointee.angle
        let right = h.pointee.right
        let n = DiamondAngle.binsPerQuadrant
        let (qBase, scale): (Float, Float) =
            right ? (v > 0 ? (0, n) : (2 * n, -n)) : (v >= 0 ? (4 * n, -n) : (2 * n, n))
        let base = SIMD16<UInt32>(repeating: UInt32(quadrantBase(right: right, v: v)))
        let av = abs(v) + 1e-30
        let b = qBase + 0x1p23
        let mantissa = SIMD16<UInt32>(repeating: 0x7F_FFFF)
        let sign = SIMD16<UInt32>(repeating: 0x7FFF_FFFF)
        // Pixel centres x + 0.5 (exact), sixteen at a time.
        let first = SIMD16<Float>(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15) + (Float(p0) + 0.5)
        @inline(__always) func scaled(_ centre: SIMD16<Float>) -> SIMD16<Float> {
            let u = centre - cx
            // |u|: the sign bit cleared, as abs does.
            let t = unsafeBitCast(unsafeBitCast(u, to: SIMD16<UInt32>.self) & sign, to: SIMD16<Float>.self)
            return scale * (t / (t + av))
        }
        @inline(__always) func bins(_ sum: SIMD16<Float>) -> SIMD16<UInt8> {
            SIMD16<UInt8>(truncatingIfNeeded: (unsafeBitCast(sum, to: SIMD16<UInt32>.self) & mantissa) &- base)
        }
        var centre = first
        var i = 0
        guard h.pointee.tails else {
            while i < p3 &- p0 {
                UnsafeMutableRawPointer(out + i).storeBytes(of: bins(b + scaled(centre)), as: SIMD16<UInt8>.self)
                centre += 16
                i &+= 16
            }
            return
        }
        var differs = false
        while i < p3 &- p0 {
            let s = scaled(centre)
            let main = bins(b + s)
            differs = differs || main != bins((qBase + s) + 0x1p23)
            UnsafeMutableRawPointer(out + i).storeBytes(of: main, as: SIMD16<UInt8>.self)
            centre += 16
            i &+= 16
        }
        guard differs else { return }
        // Some pixel rounds one bin apart in the tail's way: the tail's bins of their own.
        centre = first
        i = 0
        while i < p3 &- p0 {
            UnsafeMutableRawPointer(tails + i).storeBytes(of: bins((qBase + scaled(centre)) + 0x1p23), as: SIMD16<UInt8>.self)
            centre += 16
            i &+= 16
        }
        h.pointee.tailAngle = tails - p0
    }
}

extension ArcRasterizer {
    /// The edge coverage of every row that is no other's mirror image (`source` < 0), as alphas
    /// from `alphaStart`: a row's right half's zones, then its left half's (the right's in
    /// reverse order where it mirrors it). One loop for them all, its constants worked out once:
    /// the zones of a full row in `fillEdgeAlphas`'s lanes, the others by `fillAlphas`.
    func fillRowAlphas(
        _ alphas: UnsafeMutablePointer<UInt16>, zones: UnsafeMutablePointer<SIMD4<Int32>>,
        full: UnsafeMutablePointer<Bool>, mirrorsRight: UnsafeMutablePointer<Bool>, source: UnsafeMutablePointer<Int>,
        alphaStart: UnsafeMutablePointer<Int>, rows: Int, top: Int
    ) {
        let edges = EdgeLanes(self)
        for i in 0..<rows where source[i] < 0 {
            let right = zones[2 &* i], left = zones[2 &* i &+ 1]
            let rightAlphas = alphas + alphaStart[i]
            let leftAlphas = rightAlphas + Int(right[1] &- right[0] &+ right[3] &- right[2])
            let av = abs(cy - (Float(top &+ i) + 0.5))
            // The right half, then the left the same way: written out twice on purpose (one
            // helper for both halves, even inlined, cost the cold frame 1.5 K instructions).
            let r0 = Int(right[0]), r1 = Int(right[1]), r2 = Int(right[2]), r3 = Int(right[3])
            if full[i] {
                edges.fill(rightAlphas, r0, r1, r2, r3, av: av, firstOuter: false)
            } else {
                fillAlphas(rightAlphas, from: r0, to: r1, av: av, .both)
                fillAlphas(rightAlphas + (r1 &- r0), from: r2, to: r3, av: av, .none)
            }
            if mirrorsRight[i] {
                // The left half's alphas are the right's in reverse order ([p0, p1) mirrors [r2, r3)).
                let n = (r1 &- r0) &+ (r3 &- r2)
                for j in 0..<n { leftAlphas[j] = rightAlphas[n &- 1 &- j] }
            } else {
                let l0 = Int(left[0]), l1 = Int(left[1]), l2 = Int(left[2]), l3 = Int(left[3])
                if full[i] {
                    edges.fill(leftAlphas, l0, l1, l2, l3, av: av, firstOuter: true)
                } else {
                    fillAlphas(leftAlphas, from: l0, to: l1, av: av, .both)
                    fillAlphas(leftAlphas + (l1 &- l0), from: l2, to: l3, av: av, .none)
                }
            }
        }
    }

    /// The coverage of a half-row's two edge zones, [a0, a1) then [b0, b1), at |v| = `av`, as
    /// alphas one after the other from `out`: the first zone near the outer circle and the second
    /// near the inner one (`firstOuter`), or the other way round. Four pixels at a time across
    /// both zones (most are one to three pixels wide: one pass, not one each), each lane the
    /// expressions `fillAlphas` computes for its pixel and zone (the same bits); writes up to
    /// three alphas past the last, as `fillAlphas` does. Its constants are made once, for all
    /// the rows.
    struct EdgeLanes {
        let cx: Float
        let ro, ri, curvatureOuter, curvatureInner: Float4
        let outerOut2, outerIn2, innerIn2, innerOut2: Float

        init(_ r: ArcRasterizer) {
            cx = r.cx
            ro = Float4(repeating: r.ro)
            ri = Float4(repeating: r.ri)
            curvatureOuter = Float4(repeating: 1 / r.ro)
            curvatureInner = Float4(repeating: -1 / r.ri)
            outerOut2 = r.outerOut2
            outerIn2 = r.outerIn2
            innerIn2 = r.innerIn2
            innerOut2 = r.innerOut2
        }

        @inline(__always)
        func fill(
            _ out: UnsafeMutablePointer<UInt16>, _ a0: Int, _ a1: Int, _ b0: Int, _ b1: Int, av: Float, firstOuter: Bool
        ) {
            let n1 = a1 &- a0
            let n = n1 &+ (b1 &- b0)
            guard n > 0 else { return }
            let v2 = av * av
            let zero = Float4(repeating: 0), one = Float4(repeating: 1)
            var j = SIMD4<Int32>(0, 1, 2, 3)
            let first = SIMD4<Int32>(repeating: Int32(truncatingIfNeeded: n1))
            let toA = SIMD4<Int32>(repeating: Int32(truncatingIfNeeded: a0))
            let toB = SIMD4<Int32>(repeating: Int32(truncatingIfNeeded: b0 &- n1))
            var i = 0
            while i < n {
                let inA = j .< first
                let x = (j &+ toB).replacing(with: j &+ toA, where: inA)
                let outer = firstOuter ? inA : .!inA
                // Pixel centres x + 0.5: exact, as fillAlphas's running sums are.
                let u = (Float4(x) + 0.5) - cx
                let d2 = u * u + v2
                let dist = d2.squareRoot()
                let inv = 1 / dist
                let edge = halfPlaneCoverage(
                    select(outer, ro - dist, dist - ri), u * inv, av * inv,
                    curvature: select(outer, curvatureOuter, curvatureInner))
                let coverage = select(
                    outer, select(d2 .>= outerOut2, zero, select(d2 .<= outerIn2, one, edge)),
                    select(d2 .<= innerIn2, zero, select(d2 .>= innerOut2, one, edge)))
                UnsafeMutableRawPointer(out + i).storeBytes(
                    of: SIMD4<UInt16>(truncatingIfNeeded: alpha256(coverage)), as: SIMD4<UInt16>.self)
                j &+= 4
                i &+= 4
            }
        }
    }

    /// The coverage of edge pixels [x0, x1) at |v| = `av`, as alphas (what `fillEdges` computed
    /// per frame before, then `alpha256` per pixel).
    ///
    /// An outer or inner zone four pixels at a time (writing up to three alphas past its end,
    /// which the next zone's overwrite: the buffer has room for them past the last).
    func fillAlphas(_ out: UnsafeMutablePointer<UInt16>, from x0: Int, to x1: Int, av: Float, _ edge: Edge) {
        guard x0 < x1 else { return }
        let v2 = av * av
        if edge == .outer || edge == .inner {
            let outer = edge == .outer
            let curvature: Float = outer ? 1 / ro : -1 / ri
            var centre = Float4(0, 1, 2, 3) + (Float(x0) + 0.5)
            var i = 0
            while i < x1 &- x0 {
                let u = centre - cx
                let d2 = u * u + v2
                let dist = d2.squareRoot()
                let inv = 1 / dist
                let edge = halfPlaneCoverage(outer ? ro - dist : dist - ri, u * inv, av * inv, curvature: curvature)
                let coverage =
                    outer
                    ? select(d2 .>= outerOut2, Float4(repeating: 0), select(d2 .<= outerIn2, Float4(repeating: 1), edge))
                    : select(d2 .<= innerIn2, Float4(repeating: 0), select(d2 .>= innerOut2, Float4(repeating: 1), edge))
                UnsafeMutableRawPointer(out + i).storeBytes(
                    of: SIMD4<UInt16>(truncatingIfNeeded: alpha256(coverage)), as: SIMD4<UInt16>.self)
                centre += 4
                i &+= 4
            }
            return
        }
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

/// A colour table of an arc: `bins + 1` colours by diamond angle, then the same reversed (entry
/// `bins + 1 + j` is entry `bins − j`: what a half-row that mirrors another reads, see
/// `BandSpans.tableOffset`), both written by `ArcRasterizer.fillTable`.
final class ColorTable {
    let entries: UnsafeMutablePointer<UInt32>
    init() { entries = .allocate(capacity: 2 * (DiamondAngle.bins + 1)) }
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

    /// A kept value and when it was last used. (A struct, not a tuple: a dictionary of tuples
    /// brings the runtime's tuple metadata code into the first frame, docs/speed.md.)
    struct Kept<Value> {
        var value: Value
        var used: Int
    }

    private var bands: [BandKey: Kept<BandSpans>] = [:]
    private var bases: [BaseKey: Kept<BaseTable>] = [:]
    private var tables: [TableKey: Kept<ColorTable>] = [:]
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
            return bands.values[index].value
        }
        let spans = BandSpans(raster, width: width, height: height)
        while !bands.isEmpty && (bytes + spans.bytes > Self.byteBudget || bands.count >= Self.entryBudget) {
            let oldest = bands.min { $0.value.used < $1.value.used }!
            bytes -= oldest.value.value.bytes
            bands[oldest.key] = nil
        }
        bands[key] = Kept(value: spans, used: clock)
        bytes += spans.bytes
        return spans
    }

    /// The colour table for `key`, filled by `fill` (its entries and their reversed copy) when not
    /// kept.
    func table(_ key: TableKey, fill: (UnsafeMutablePointer<UInt32>) -> Void) -> ColorTable {
        clock &+= 1
        if let index = tables.index(forKey: key) {  // one lookup; the entry's use stamped in place
            tables.values[index].used = clock
            return tables.values[index].value
        }
        let table = ColorTable()
        fill(table.entries)
        if tables.count >= Self.tableBudget {
            let oldest = tables.min { $0.value.used < $1.value.used }!
            tables[oldest.key] = nil
        }
        tables[key] = Kept(value: table, used: clock)
        return table
    }

    /// The colours by bin for `key`, made when not kept.
    func base(_ key: BaseKey) -> BaseTable {
        clock &+= 1
        if let index = bases.index(forKey: key) {  // one lookup; the entry's use stamped in place
            bases.values[index].used = clock
            return bases.values[index].value
        }
        let table = BaseTable(paint: key.paint, start: Double(bitPattern: key.start), offset: Double(bitPattern: key.offset))
        if bases.count >= Self.tableBudget / 2 {
            let oldest = bases.min { $0.value.used < $1.value.used }!
            bases[oldest.key] = nil
        }
        bases[key] = Kept(value: table, used: clock)
        return table
    }

    /// Band spans and colour tables kept (for tests).
    var bandCount: Int { bands.count }
    var tableCount: Int { tables.count }
}
