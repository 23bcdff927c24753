/// The band: the ring between the stroke's inner and outer circles, row by row, each row cut
/// into runs by colour class (value, later turn, track, nothing) and by how it meets the edges.
extension ArcRasterizer {
    /// How a run of band pixels meets the band's edges.
    enum Edge {
        /// Every pixel wholly inside the band.
        case none
        /// Pixels near the outer circle only, near the inner circle only, or near both.
        case outer, inner, both
    }

    /// Draws the band's rows in `area` from its precomputed spans: per row, the class boundaries
    /// (which move with the arc) cut each half into pieces, and each piece is drawn zone by zone
    /// from its colour source.
    func drawBand(into buffer: PixelBuffer, area: IntRect, spans: BandSpans) {
        let y0 = max(area.y, spans.firstRow)
        let y1 = min(area.maxY, spans.firstRow + spans.rowCount)
        guard y0 < y1 else { return }
        // The boundary half-lines' sines and cosines, and where they cross the current row: plain
        // memory (a SIMD lane picked by a variable goes through the stack every time).
        withUnsafeTemporaryAllocation(of: Float.self, capacity: 8) { lineMemory in
            withUnsafeTemporaryAllocation(of: Int.self, capacity: 4) { splitMemory in
                let lineS = lineMemory.baseAddress!
                let lineC = lineS + 4
                for i in 0..<4 {
                    lineS[i] = self.lineS[i]
                    lineC[i] = self.lineC[i]
                }
                let splits = splitMemory.baseAddress!
                let lines = lineCount
                for y in y0..<y1 {
                    let v = cy - (Float(y) + 0.5)
                    // Where the class boundaries cross the row (pixels from there on lie past
                    // them), sorted.
                    var count = 0
                    for i in 0..<lines {
                        // The half-line t·(sin, −cos), t ≥ 0, meets the row where t·cos = v.
                        let c = lineC[i]
                        guard abs(c) > 1e-6 else { continue }
                        let t = v / c
                        guard t >= 0 else { continue }
                        let x = ceilToInt(cx + t * lineS[i] - 0.5)
                        var j = count
                        while j > 0 && splits[j - 1] > x {
                            splits[j] = splits[j - 1]
                            j -= 1
                        }
                        splits[j] = x
                        count += 1
                    }
                    let pixels = buffer.row32(y)
                    let halves = spans.halves + 2 * (y - spans.firstRow)
                    if halves[0].p0 < halves[0].p3 { drawHalf(pixels, v, halves[0], splits, count, area.x, area.maxX) }
                    if halves[1].p0 < halves[1].p3 { drawHalf(pixels, v, halves[1], splits, count, area.x, area.maxX) }
                }
            }
        }
    }

    /// One half of a row (angle monotone in x): pieces between class boundaries, each drawn zone
    /// by zone from one colour source, within [clipA, clipB). The pieces and their classes do not
    /// depend on the clip: a clipped draw gives the pixels a whole one gives.
    @inline(never)
    func drawHalf(
        _ row: UnsafeMutablePointer<UInt32>, _ v: Float, _ h: BandSpans.HalfRow, _ splits: UnsafeMutablePointer<Int>,
        _ splitCount: Int, _ clipA: Int, _ clipB: Int
    ) {
        var a = h.p0
        var i = 0
        while a < h.p3 {
            var b = h.p3
            while i < splitCount {
                let s = splits[i]
                if s <= a {
                    i += 1
                    continue
                }
                if s < b { b = s }
                break
            }
            let source = self.source(diamond: DiamondAngle.of(u: Float((a + b) / 2) + 0.5 - cx, v: v))
            let ca = max(a, clipA)
            let cb = min(b, clipB)
            if source != .none && ca < cb {
                let e1 = (max(ca, h.p0), min(cb, h.p1))
                let inside = (max(ca, h.p1), min(cb, h.p2))
                let e2 = (max(ca, h.p2), min(cb, h.p3))
                if source == .track {
                    edgeRun(row, e1.0, e1.1, trackColor, h.alpha1)
                    if inside.0 < inside.1 { fillRow32(row + inside.0, count: inside.1 - inside.0, value: trackColor) }
                    edgeRun(row, e2.0, e2.1, trackColor, h.alpha2)
                } else {
                    let table = (source == .tableA ? tableA! : tableB!) + h.quadrantBase
                    edgeRun(row, e1.0, e1.1, table, h.angle, h.alpha1)
                    if inside.0 < inside.1 {
                        // The run's last (length mod 4) pixels, counted on the whole run, take the
                        // angle as the gradient's tail rounds it.
                        let run = (max(a, h.p1), min(b, h.p2))
                        let tail = run.1 - (run.1 - run.0) & 3
                        tableRun(row, inside.0, min(inside.1, tail), table, h.angle)
                        tableRun(row, max(inside.0, tail), inside.1, table, h.tailAngle)
                    }
                    edgeRun(row, e2.0, e2.1, table, h.angle, h.alpha2)
                }
            }
            a = b
        }
    }

    /// Edge pixels [x0, x1) in one colour, blended by the band's coverage.
    @inline(__always)
    func edgeRun(
        _ row: UnsafeMutablePointer<UInt32>, _ x0: Int, _ x1: Int, _ color: UInt32,
        _ alpha: UnsafeMutablePointer<UInt16>
    ) {
        var x = x0
        while x < x1 {
            let a = UInt32(alpha[x])
            if a >= 256 {
                row[x] = color
            } else if a > 0 {
                row[x] = blend(color, over: row[x], alpha: a)
            }
            x &+= 1
        }
    }

    /// Edge pixels [x0, x1) coloured from `table` by angle, blended by the band's coverage.
    @inline(__always)
    func edgeRun(
        _ row: UnsafeMutablePointer<UInt32>, _ x0: Int, _ x1: Int, _ table: UnsafeMutablePointer<UInt32>,
        _ angle: UnsafeMutablePointer<UInt8>, _ alpha: UnsafeMutablePointer<UInt16>
    ) {
        var x = x0
        while x < x1 {
            let a = UInt32(alpha[x])
            if a >= 256 {
                row[x] = table[Int(angle[x])]
            } else if a > 0 {
                row[x] = blend(table[Int(angle[x])], over: row[x], alpha: a)
            }
            x &+= 1
        }
    }

    /// The conic gradient: an angle load and a table load per pixel, eight at a time.
    @inline(__always)
    func tableRun(
        _ row: UnsafeMutablePointer<UInt32>, _ x0: Int, _ x1: Int, _ table: UnsafeMutablePointer<UInt32>,
        _ angle: UnsafeMutablePointer<UInt8>
    ) {
        var x = x0
        while x &+ 8 <= x1 {
            row[x] = table[Int(angle[x])]
            row[x &+ 1] = table[Int(angle[x &+ 1])]
            row[x &+ 2] = table[Int(angle[x &+ 2])]
            row[x &+ 3] = table[Int(angle[x &+ 3])]
            row[x &+ 4] = table[Int(angle[x &+ 4])]
            row[x &+ 5] = table[Int(angle[x &+ 5])]
            row[x &+ 6] = table[Int(angle[x &+ 6])]
            row[x &+ 7] = table[Int(angle[x &+ 7])]
            x &+= 8
        }
        while x < x1 {
            row[x] = table[Int(angle[x])]
            x &+= 1
        }
    }
}
