/// Colour along the arc: the lookup tables the band indexes by diamond angle.
extension ArcRasterizer {
    /// A colour table's range of relative angles (turns) and the arc length it starts at.
    typealias TableRange = (lo: Double, hi: Double, offset: Double)

    /// Whether the band reads colour table A, and B.
    var usesTableA: Bool { solid == nil && (sourceA == .tableA || uniform == .tableA) }
    var usesTableB: Bool { solid == nil && sourceB == .tableB }

    /// Fills `table` (`bins + 1` entries, then the same reversed: `ColorTable`) with the colours
    /// of `paint` over `range`, by bin: each bin's colour at its angle (`base`, the same for every
    /// range of one paint, start and offset), bins outside the class the colour of its nearer end
    /// (bins straddle the class boundaries).
    func fillTable(_ table: UnsafeMutablePointer<UInt32>, _ range: TableRange, base: BaseTable) {
        let n = DiamondAngle.bins
        let gapMiddle = range.hi + (1 - (range.hi - range.lo)) / 2
        let hi = base.color(at: range.hi)
        let lo = base.color(at: range.lo)
        let rel = base.rel, colors = base.colors
        let reversed = table + (2 &* n &+ 1)  // reversed[-i] is entry n + 1 + (n − i)
        for i in 0...n {
            let r = rel[i]
            let c: UInt32
            if r > range.hi {
                c = r < gapMiddle ? hi : lo
            } else if r < range.lo {
                c = r + 1 < gapMiddle ? hi : lo
            } else {
                c = colors[i]
            }
            table[i] = c
            reversed[-i] = c
        }
    }

    /// The key of the colours by bin of `paint` from this arc's start, `offset` turns along.
    func baseKey(offset: Double, paint: ArcPaint) -> DrawingCache.BaseKey {
        DrawingCache.BaseKey(paint: paint, start: start.bitPattern, offset: offset.bitPattern)
    }

    /// The key of the table for `range`: everything its entries depend on.
    func tableKey(_ range: TableRange, paint: ArcPaint) -> DrawingCache.TableKey {
        DrawingCache.TableKey(
            paint: paint, start: start.bitPattern, lo: range.lo.bitPattern, hi: range.hi.bitPattern,
            offset: range.offset.bitPattern)
    }
}

/// The colour of every table bin of one paint from one start, `offset` turns along the arc: what
/// a colour table holds inside its class, whatever the class's range (a sweep that moves keeps
/// it).
final class BaseTable {
    /// Each bin's angle relative to the start, in turns (the last bin is the turn's end).
    let rel: UnsafeMutablePointer<Double>
    /// The paint's colour there.
    let colors: UnsafeMutablePointer<UInt32>
    let paint: ArcPaint
    let ramp: RampEvaluator?
    let offset: Double

    init(paint: ArcPaint, start: Double, offset: Double) {
        let n = DiamondAngle.bins
        let ramp = RampEvaluator(paint)
        let rel = UnsafeMutablePointer<Double>.allocate(capacity: n + 1)
        let colors = UnsafeMutablePointer<UInt32>.allocate(capacity: n + 1)
        DiamondAngle.binTurns.withUnsafeBufferPointer { binTurns in
            for i in 0...n {
                var r = binTurns[i] - start
                if r < 0 { r += 1 }
                rel[i] = r
            }
        }
        if rel[n] == 0 { rel[n] = 1 }  // the end of the turn, reached from the left
        // The colours in a loop of their own, the two-stop ramp's without a branch per bin.
        if let ramp {
            ramp.fill(colors, rel: rel, offset: offset, count: n + 1)
        } else {
            for i in 0...n { colors[i] = paint.color(at: rel[i] + offset).xrgb }
        }
        self.rel = rel
        self.colors = colors
        self.paint = paint
        self.ramp = ramp
        self.offset = offset
    }

    deinit {
        rel.deallocate()
        colors.deallocate()
    }

    /// The colour at relative angle `rel`.
    func color(at rel: Double) -> UInt32 { ramp?.xrgb(at: rel + offset) ?? paint.color(at: rel + offset).xrgb }
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

    /// `colors[i] = xrgb(at: rel[i] + offset)` for `i < count`, four at a time (lane by lane the
    /// same operations, `min` and `max` as the standard library picks them, so the same bits).
    func fill(_ colors: UnsafeMutablePointer<UInt32>, rel: UnsafePointer<Double>, offset: Double, count: Int) {
        var i = 0
        if span > 0 {
            let zero = SIMD4<Double>(repeating: 0), one = SIMD4<Double>(repeating: 1)
            @inline(__always) func channel(_ c0: Float, _ dc: Float, _ t: SIMD4<Float>) -> SIMD4<UInt32> {
                unsafeBitCast(c0 + dc * t + 0x1p23, to: SIMD4<UInt32>.self) & 0xFF
            }
            while i &+ 4 <= count {
                let s = UnsafeRawPointer(rel + i).loadUnaligned(as: SIMD4<Double>.self) + offset
                var x = (s - from) / span
                x = x.replacing(with: zero, where: zero .>= x)  // max(x, 0)
                x = x.replacing(with: one, where: one .< x)  // min(x, 1)
                let t = SIMD4<Float>(x)
                let c = channel(r0, dr, t) &<< 16 | channel(g0, dg, t) &<< 8 | channel(b0, db, t)
                UnsafeMutableRawPointer(colors + i).storeBytes(of: c, as: SIMD4<UInt32>.self)
                i &+= 4
            }
        }
        while i < count {
            colors[i] = xrgb(at: rel[i] + offset)
            i &+= 1
        }
    }

    @inline(__always)
    func xrgb(at s: Double) -> UInt32 {
        let t = Float(span > 0 ? min(max((s - from) / span, 0), 1) : (s >= from + span ? 1 : 0))
        // Rounded through the mantissa (channels are 0...255).
        @inline(__always) func channel(_ c0: Float, _ dc: Float) -> UInt32 { (c0 + dc * t + 0x1p23).bitPattern & 0xFF }
        return channel(r0, dr) << 16 | channel(g0, dg) << 8 | channel(b0, db)
    }
}
