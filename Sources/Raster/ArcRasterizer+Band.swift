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
        let wide = Float(area.x) <= cx - ro - 1 && Float(area.maxX) >= cx + ro + 1
        // The boundary half-lines' sines and cosines, and where they cross the current row: plain
        // memory (a SIMD lane picked by a variable goes through the stack every time).
        withUnsafeTemporaryAllocation(of: Float.self, capacity: 8) { lineMemory in
            withUnsafeTemporaryAllocation(of: Int.self, capacity: 12) { splitMemory in
                let lineS = lineMemory.baseAddress!
                let lineC = lineS + 4
                let splits = splitMemory.baseAddress!
                // The rows where each line can cross the band: a crossing farther than a pixel
                // from the band's zones cuts no half-row, so it is not worked out (those rows
                // draw exactly as with it).
                let lineFirst = splits + 4, lineLast = splits + 8
                var lines = 0
                for i in 0..<lineCount where abs(self.lineC[i]) > 1e-6 {
                    let c = self.lineC[i]
                    lineS[lines] = self.lineS[i]
                    lineC[lines] = c
                    // t from just inside the hole to just past the outer circle: rows at v = t·c.
                    let near = cy - 0.5 - c * max(0, ri - 3), far = cy - 0.5 - c * (ro + 3)
                    lineFirst[lines] = floorToInt(min(near, far)) - 1
                    lineLast[lines] = ceilToInt(max(near, far)) + 1
                    lines += 1
                }
                var y = y0
                while y < y1 {
                    // Rows that no boundary line's rows reach, up to the next that one does:
                    // drawn whole, one call for them all, as far as their halves lie within the
                    // area's columns (most rows of a whole frame; an area narrower than the band,
                    // a spinner's box, goes row by row).
                    if wide {
                        var free = y1
                        var crossed = false
                        for i in 0..<lines {
                            if y >= lineFirst[i] && y <= lineLast[i] { crossed = true }
                            if lineFirst[i] > y && lineFirst[i] < free { free = lineFirst[i] }
                        }
                        if !crossed {
                            y = drawRows(buffer, area, spans, from: y, to: free)
                            if y >= free { continue }
                        }
                    }
                    defer { y &+= 1 }
                    let v = cy - (Float(y) + 0.5)
                    // Where the class boundaries cross the row (pixels from there on lie past
                    // them), sorted.
                    var count = 0
                    for i in 0..<lines where y >= lineFirst[i] && y <= lineLast[i] {
                        // The half-line t·(sin, −cos), t ≥ 0, meets the row where t·cos = v.
                        let c = lineC[i]
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
                    let halves = spans.halves + 2 &* (y &- spans.firstRow)
                    // A half outside the area's columns has nothing to draw (asked only of an
                    // area narrower than the band: a whole frame pays nothing for it).
                    if wide || (halves[0].p3 > area.x && halves[0].p0 < area.maxX) {
                        drawHalf(pixels, v, halves, splits, count, area.x, area.maxX)
                    }
                    if wide || (halves[1].p3 > area.x && halves[1].p0 < area.maxX) {
                        drawHalf(pixels, v, halves + 1, splits, count, area.x, area.maxX)
                    }
                }
            }
        }
    }

    /// The rows [y0, y1), which no class boundary crosses, each half whole (its own columns its
    /// clip; the pixels `drawHalf` gives them), up to the first row a half of which reaches past
    /// the area's columns: returns that row (or y1), which `drawHalf` draws clipped.
    @inline(never)
    func drawRows(_ buffer: PixelBuffer, _ area: IntRect, _ spans: BandSpans, from y0: Int, to y1: Int) -> Int {
        for y in y0..<y1 {
            let halves = spans.halves + 2 &* (y &- spans.firstRow)
            guard halves[0].p0 >= area.x && halves[0].p3 <= area.maxX,
                halves[1].p0 >= area.x && halves[1].p3 <= area.maxX
            else { return y }
            drawRow(buffer.row32(y), cy - (Float(y) + 0.5), halves)
        }
        return y1
    }

    /// Both halves of a row that no class boundary crosses, each whole.
    @inline(__always)
    func drawRow(_ row: UnsafeMutablePointer<UInt32>, _ v: Float, _ halves: UnsafeMutablePointer<BandSpans.HalfRow>) {
        drawWhole(row, v, halves)
        drawWhole(row, v, halves + 1)
    }

    /// A half-row no class boundary crosses, whole (its own columns are its clip): one piece,
    /// whose class is its middle pixel's, kept with the spans. `drawPiece`'s body without the clip
    /// on purpose: drawing through it (or through one shared helper) cost the warm ring frame
    /// 1 to 26 K instructions more, measured.
    @inline(__always)
    func drawWhole(_ row: UnsafeMutablePointer<UInt32>, _ v: Float, _ half: UnsafeMutablePointer<BandSpans.HalfRow>) {
        let p0 = half.pointee.p0, p3 = half.pointee.p3
        guard p0 < p3 else { return }
        let source = source(diamond: half.pointee.midDiamond)
        guard source != .none else { return }
        // The zones: edge [p0, p1), inside [p1, p2), edge [p2, p3) (p0 ≤ p1 ≤ p2 ≤ p3, as
        // the spans are built; drawPiece's clip would leave them so).
        let p1 = half.pointee.p1, p2 = half.pointee.p2
        if source == .track || solid != nil {
            let color = source == .track ? trackColor : solid.unsafelyUnwrapped
            if p0 < p1 { paintEdges(row + p0, half.pointee.alpha1 + p0, p1 &- p0, color) }
            if p1 < p2 { fillRow32(row + p1, count: p2 &- p1, value: color) }
            if p2 < p3 { paintEdges(row + p2, half.pointee.alpha2 + p2, p3 &- p2, color) }
        } else {
            BandSpans.readyAngles(half, cx: cx, v: v)
            let table = (source == .tableA ? tableA : tableB).unsafelyUnwrapped + Int(half.pointee.tableOffset)
            if half.pointee.backward {
                paintZones(row, half, table, p0, p1, p1, p2, p2, p3, p1, p2, -1)
            } else {
                paintZones(row, half, table, p0, p1, p1, p2, p2, p3, p1, p2, 1)
            }
        }
    }

    /// One half of a row (angle monotone in x): pieces between class boundaries, each drawn zone
    /// by zone from one colour source, within [clipA, clipB). The pieces and their classes do not
    /// depend on the clip: a clipped draw gives the pixels a whole one gives.
    @inline(never)
    func drawHalf(
        _ row: UnsafeMutablePointer<UInt32>, _ v: Float, _ half: UnsafeMutablePointer<BandSpans.HalfRow>,
        _ splits: UnsafePointer<Int>, _ splitCount: Int, _ clipA: Int, _ clipB: Int
    ) {
        let p0 = half.pointee.p0, p3 = half.pointee.p3
        guard p0 < p3 else { return }
        var i = 0
        while i < splitCount && splits[i] <= p0 { i &+= 1 }
        if i == splitCount || splits[i] >= p3 {
            // No boundary inside: one piece, whose class is kept with the spans.
            drawPiece(row, half, v, p0, p3, source(diamond: half.pointee.midDiamond), clipA, clipB)
            return
        }
        var a = p0
        while a < p3 {
            // The piece [a, b): up to the next boundary past a.
            while i < splitCount && splits[i] <= a { i &+= 1 }
            let b = i < splitCount && splits[i] < p3 ? splits[i] : p3
            let u = Float((a &+ b) / 2) + 0.5 - cx
            drawPiece(row, half, v, a, b, source(diamond: DiamondAngle.of(u: u, v: v)), clipA, clipB)
            a = b
        }
    }

    /// The piece [a, b) of a half-row from `source`, within [clipA, clipB); the half-row's angles
    /// are worked out when a colour table first draws it.
    @inline(__always)
    func drawPiece(
        _ row: UnsafeMutablePointer<UInt32>, _ half: UnsafeMutablePointer<BandSpans.HalfRow>, _ v: Float,
        _ a: Int, _ b: Int, _ source: Source, _ clipA: Int, _ clipB: Int
    ) {
        let ca = max(a, clipA)
        let cb = min(b, clipB)
        guard source != .none && ca < cb else { return }
        // Zones within the piece and the clip: edge [ca, e1), inside [i0, i1), edge [e2, cb).
        let p1 = half.pointee.p1, p2 = half.pointee.p2
        let e1 = min(cb, p1)
        let i0 = max(ca, p1)
        let i1 = min(cb, p2)
        let e2 = max(ca, p2)
        if source == .track || solid != nil {
            // One colour: the track's, or a solid paint's (whose table would hold it in every bin).
            let color = source == .track ? trackColor : solid.unsafelyUnwrapped
            if ca < e1 { paintEdges(row + ca, half.pointee.alpha1 + ca, e1 &- ca, color) }
            if i0 < i1 { fillRow32(row + i0, count: i1 &- i0, value: color) }
            if e2 < cb { paintEdges(row + e2, half.pointee.alpha2 + e2, cb &- e2, color) }
        } else {
            BandSpans.readyAngles(half, cx: cx, v: v)
            let table = (source == .tableA ? tableA : tableB).unsafelyUnwrapped + Int(half.pointee.tableOffset)
            // The piece's whole inside run (unclipped): its tail's pixels.
            let r0 = max(a, p1)
            let r1 = min(b, p2)
            if half.pointee.backward {
                paintZones(row, half, table, ca, e1, i0, i1, e2, cb, r0, r1, -1)
            } else {
                paintZones(row, half, table, ca, e1, i0, i1, e2, cb, r0, r1, 1)
            }
        }
    }

    /// The zones edge [ca, e1), inside [i0, i1), edge [e2, cb) of a half-row coloured from
    /// `table` by angle (the last (length mod 4) pixels of the whole inside run [r0, r1) with the
    /// tail's angles, as the gradient's tail rounds them): pixel x's angle at
    /// `angle[s·x]` (s = 1, or −1 for a half-row whose angles are another's read backwards).
    /// Transparent: inlined into each caller with its constant s (left a call, s is a variable
    /// in every pixel's address).
    @_transparent
    func paintZones(
        _ row: UnsafeMutablePointer<UInt32>, _ half: UnsafeMutablePointer<BandSpans.HalfRow>,
        _ table: UnsafeMutablePointer<UInt32>, _ ca: Int, _ e1: Int, _ i0: Int, _ i1: Int, _ e2: Int, _ cb: Int,
        _ r0: Int, _ r1: Int, _ s: Int
    ) {
        let angle = half.pointee.angle, tailAngle = half.pointee.tailAngle
        if ca < e1 { paintEdges(row + ca, angle + s &* ca, half.pointee.alpha1 + ca, e1 &- ca, table, s) }
        if i0 < i1 && tailAngle == angle {
            paintGradient(row + i0, angle + s &* i0, i1 &- i0, table, s)
        } else if i0 < i1 {
            let tail = min(max(r1 &- ((r1 &- r0) & 3), i0), i1)
            paintGradient(row + i0, angle + s &* i0, tail &- i0, table, s)
            paintGradient(row + tail, tailAngle + s &* tail, i1 &- tail, table, s)
        }
        if e2 < cb { paintEdges(row + e2, angle + s &* e2, half.pointee.alpha2 + e2, cb &- e2, table, s) }
    }
}

/// `count` edge pixels in one colour, blended by the band's coverage (alpha 0...256).
@inline(__always)
func paintEdges(
    _ pixels: UnsafeMutablePointer<UInt32>, _ alpha: UnsafeMutablePointer<UInt16>, _ count: Int, _ color: UInt32
) {
    for i in 0..<count {
        let a = UInt32(alpha[i])
        if a >= 256 {
            pixels[i] = color
        } else if a > 0 {
            let dst = pixels[i]
            // Over black (the background, mostly) the blend is the colour scaled: the same bits.
            pixels[i] = dst == 0 ? scale(color, by: a) : blend(color, over: dst, alpha: a)
        }
    }
}

/// `count` edge pixels coloured from `table` by angle (pixel i's at `angle[s·i]`), blended by the
/// band's coverage.
@inline(__always)
func paintEdges(
    _ pixels: UnsafeMutablePointer<UInt32>, _ angle: UnsafeMutablePointer<UInt8>,
    _ alpha: UnsafeMutablePointer<UInt16>, _ count: Int, _ table: UnsafeMutablePointer<UInt32>, _ s: Int
) {
    for i in 0..<count {
        let a = UInt32(alpha[i])
        if a >= 256 {
            pixels[i] = table[Int(angle[s &* i])]
        } else if a > 0 {
            let dst = pixels[i]
            let c = table[Int(angle[s &* i])]
            pixels[i] = dst == 0 ? scale(c, by: a) : blend(c, over: dst, alpha: a)
        }
    }
}

/// The conic gradient: `count` pixels from `table` by angle (pixel i's at `angle[s·i]`, s = ±1),
/// an angle load and a table load each, sixteen at a time, then eight, then four, and the last one
/// to three as the run's last four again.
@inline(__always)
func paintGradient(
    _ pixels: UnsafeMutablePointer<UInt32>, _ angle: UnsafeMutablePointer<UInt8>, _ count: Int,
    _ table: UnsafeMutablePointer<UInt32>, _ s: Int
) {
    @inline(__always) func four(_ p: UnsafeMutablePointer<UInt32>, _ q: UnsafeMutablePointer<UInt8>) {
        p[0] = table[Int(q[0])]
        p[1] = table[Int(q[s])]
        p[2] = table[Int(q[2 &* s])]
        p[3] = table[Int(q[3 &* s])]
    }
    // One index for both arrays (three instructions of loop for sixteen pixels).
    var i = 0
    let last16 = count &- 16
    while i <= last16 {
        let p = pixels + i, q = angle + s &* i
        four(p, q)
        four(p + 4, q + 4 &* s)
        four(p + 8, q + 8 &* s)
        four(p + 12, q + 12 &* s)
        i &+= 16
    }
    var p = pixels + i
    var q = angle + s &* i
    var n = count &- i
    if n >= 8 {
        four(p, q)
        four(p + 4, q + 4 &* s)
        p += 8
        q += 8 &* s
        n &-= 8
    }
    if n >= 4 {
        four(p, q)
        p += 4
        q += 4 &* s
        n &-= 4
    }
    guard n > 0 else { return }
    if count >= 4 {
        // The last one to three: the run's last four again (the same values stored twice).
        four(pixels + (count &- 4), angle + s &* (count &- 4))
        return
    }
    while n > 0 {
        p.pointee = table[Int(q.pointee)]
        p += 1
        q += s
        n &-= 1
    }
}
