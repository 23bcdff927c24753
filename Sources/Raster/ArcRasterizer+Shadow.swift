/// The soft shadow the tip of an arc past one turn casts ahead of itself on the turn beneath.
extension ArcRasterizer {
    /// The shadow's centre, the radii of its soft edge (full below `inner`, none beyond `outer`)
    /// and its darkness at the centre.
    struct Shadow {
        var x, y: Float
        var inner, outer: Float
        var opacity: Float
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
                var first = x0
                if x1 &- x0 >= 4 {
                    // Four pixels at a time: each lane steps by 1 four times, as the loop below
                    // steps u and du pixel by pixel (the same roundings).
                    @inline(__always) func steps(_ a: Float) -> Float4 { Float4(a, a + 1, (a + 1) + 1, ((a + 1) + 1) + 1) }
                    var us = steps(u), dus = steps(du)
                    let dy2 = dy * dy
                    let pixels = UnsafeMutableRawPointer(row)
                    while first &+ 4 <= x1 {
                        let d2 = us * us + v2
                        let onBand = (d2 .> bandIn2) .& (d2 .< bandOut2)
                        let ds = (dus * dus + dy2).squareRoot()
                        let t = minimum(maximum((s.outer - ds) * ramp, Float4(repeating: 0)), Float4(repeating: 1))
                        let m = t * t * (3 - 2 * t)
                        let a = alpha256(1 - s.opacity * m)
                        let old = pixels.loadUnaligned(fromByteOffset: 4 &* first, as: SIMD4<UInt32>.self)
                        pixels.storeBytes(
                            of: old.replacing(with: scale(old, by: a), where: onBand), toByteOffset: 4 &* first,
                            as: SIMD4<UInt32>.self)
                        for _ in 0..<4 {
                            us += 1
                            dus += 1
                        }
                        first &+= 4
                    }
                    u = us[0]
                    du = dus[0]
                }
                for x in first..<x1 {
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
