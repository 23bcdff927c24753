/// The round caps: half-discs at the ends of the value arc and of an open track, blended into
/// the band beneath them.
extension ArcRasterizer {
    /// A half-disc cap: the half of a disc of the stroke's width on the `t` side of its centre.
    struct Cap {
        var x, y: Float
        var tx, ty: Float
        var color: UInt32
        /// The cap lies beneath the value arc: pixels of class A keep their colour.
        var underBody: Bool
    }

    /// How far (px) a half-disc cap reaches past its diameter onto the arc's side.
    var capOverlap: Float { 0.5 }

    func drawCap(_ cap: Cap, buffer: PixelBuffer, area: IntRect) {
        let outer = rc + halfDiagonal
        let inner = rc - halfDiagonal
        let y0 = max(area.y, floorToInt(cap.y - outer))
        let y1 = min(area.maxY, ceilToInt(cap.y + outer))
        // Nothing of the disc in the area's rows or columns (a cap far from a damaged rectangle).
        guard y0 < y1, floorToInt(cap.x - outer) < area.maxX, ceilToInt(cap.x + outer) > area.x else { return }
        for y in y0..<y1 {
            let yc = Float(y) + 0.5
            let dy = yc - cap.y
            guard abs(dy) < outer else { continue }
            var (a, b) = smallSpan(cap.x, (outer * outer - dy * dy).squareRoot())
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
            var (ia, ib) = inner > abs(dy) ? smallSpan(cap.x, (inner * inner - dy * dy).squareRoot()) : (b, b)
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

    /// `span` of a cap's disc, whose centre and radius (a drawable arc's: within 1.2·10⁶ of the
    /// origin) lie where `ceilSmall` gives `ceilToInt`'s value in a few instructions.
    @inline(__always)
    func smallSpan(_ c: Float, _ h: Float) -> (Int, Int) {
        (ceilSmall(c - h - 0.5), ceilSmall(c + h - 0.5))
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
            // Inside both of the band's edge zones (squared distances: a correctly rounded square
            // root keeps their order) the band covers the pixel whole, without the root.
            let d2 = u * u + v * v
            let covBand: Float = d2 <= outerIn2 && d2 >= innerOut2 ? 1 : bandCoverage(u: u, v: v, dist: d2.squareRoot())
            guard covBand > 0 else { continue }
            // The band's colour (premultiplied, on black) gives up the share the cap takes.
            let keep = covCap >= 1 ? 0 : max(0, 1 - covCap / covBand)
            row[x] = mixPremultiplied(row[x], keep: keep, add: cap.color, coverage: min(covCap, covBand))
        }
    }

}

/// `dst · keep + src · coverage`, per channel, rounded and clamped: the three channels in the
/// lanes of one vector (each lane the scalar expression `⌊min(max(d·keep + s·coverage + 0.5, 0),
/// 255)⌋`, so the same bits as channel by channel, without the float-to-integer conversion's
/// range checks: 25 instructions a pixel, not 75).
@inline(__always)
func mixPremultiplied(_ dst: UInt32, keep: Float, add src: UInt32, coverage: Float) -> UInt32 {
    // Lanes B, G, R, X of each pixel (little-endian bytes), as floats.
    let d = Float4(SIMD4<Int32>(truncatingIfNeeded: unsafeBitCast(dst, to: SIMD4<UInt8>.self)))
    let s = Float4(SIMD4<Int32>(truncatingIfNeeded: unsafeBitCast(src, to: SIMD4<UInt8>.self)))
    let c = minimum(maximum(d * keep + s * coverage + 0.5, Float4(repeating: 0)), Float4(repeating: 255))
    return unsafeBitCast(SIMD4<UInt8>(truncatingIfNeeded: floorSmall(c)), to: UInt32.self) & 0xFF_FFFF
}
