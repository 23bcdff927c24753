@testable import Raster

/// Colour along the arc: the lookup tables the band indexes by diamond angle.
extension ReferenceArcRasterizer {
    /// Fills the colour tables for the classes that use them.
    mutating func fillTables(_ memory: UnsafeMutablePointer<UInt32>, paint: ArcPaint) {
        let n = DiamondAngle.bins
        let ramp = ReferenceRampEvaluator(paint)
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
}

/// A two-stop paint evaluated in single precision, for filling tables quickly; rounds exactly as
/// `Color.mix` does to within one level.
struct ReferenceRampEvaluator {
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
