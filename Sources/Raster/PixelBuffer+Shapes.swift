extension PixelBuffer {
    /// An anti-aliased disc.
    public func fillDisc(center: Point, radius: Float, color: Color, clip: IntRect? = nil) {
        guard format == .xrgb8888, radius > 0, radius.isFinite, center.x.isFinite, center.y.isFinite else { return }
        forEachArea(clip) { area in fillDisc(center: center, radius: radius, c: color.xrgb, area: area) }
    }

    private func fillDisc(center: Point, radius: Float, c: UInt32, area: IntRect) {
        let outer = radius + halfDiagonal, inner = radius - halfDiagonal
        let y0 = max(area.y, floorToInt(center.y - outer))
        let y1 = min(area.maxY, ceilToInt(center.y + outer))
        guard y0 < y1 else { return }
        for y in y0..<y1 {
            let v = Float(y) + 0.5 - center.y
            guard abs(v) < outer else { continue }
            let ho = (outer * outer - v * v).squareRoot()
            let a = max(area.x, ceilToInt(center.x - ho - 0.5))
            let b = min(area.maxX, ceilToInt(center.x + ho - 0.5))
            guard a < b else { continue }
            var ia = b, ib = b
            if inner > abs(v) {
                let hi = (inner * inner - v * v).squareRoot()
                ia = min(max(a, ceilToInt(center.x - hi - 0.5)), b)
                ib = min(max(ia, ceilToInt(center.x + hi - 0.5)), b)
            }
            let row = row32(y)
            for x in a..<ia { edgePixel(row, x, c, center: center, radius: radius, v: v) }
            (row + ia).update(repeating: c, count: ib - ia)
            for x in ib..<b { edgePixel(row, x, c, center: center, radius: radius, v: v) }
        }
    }

    @inline(__always)
    private func edgePixel(_ row: UnsafeMutablePointer<UInt32>, _ x: Int, _ c: UInt32, center: Point, radius: Float, v: Float) {
        let u = Float(x) + 0.5 - center.x
        let cov = discCoverage(radius: radius, u: u, v: v, dist: (u * u + v * v).squareRoot())
        if cov > 0 { row[x] = Raster.blend(c, over: row[x], alpha: alpha256(cov)) }
    }

    /// An anti-aliased rectangle with round corners of `radius` (clamped to half the short side).
    public func fillRoundedRect(_ rect: Rect, radius: Float, color: Color, clip: IntRect? = nil) {
        fillRoundedRect(rect, radius: radius, clip: clip) { _ in color.xrgb }
    }

    /// A rounded rectangle coloured left to right by `gradient`, whose stops run from x = `from`
    /// to x = `to` (clamped beyond).
    public func fillRoundedRect(
        _ rect: Rect, radius: Float, gradient: ArcPaint, from x0: Float, to x1: Float, clip: IntRect? = nil
    ) {
        let span = x1 - x0
        fillRoundedRect(rect, radius: radius, clip: clip) { x in
            let t = span > 0 ? Double((Float(x) + 0.5 - x0) / span) : 0
            return gradient.color(atFraction: t).xrgb
        }
    }

    /// The rounded rectangle with the colour of each column from `columnColor` (asked once per column).
    private func fillRoundedRect(_ rect: Rect, radius: Float, clip: IntRect?, columnColor: (Int) -> UInt32) {
        guard format == .xrgb8888, !rect.isEmpty, rect.x.isFinite, rect.y.isFinite, rect.width.isFinite,
            rect.height.isFinite
        else { return }
        let r = max(0, min(radius.isFinite ? radius : 0, rect.width / 2, rect.height / 2))
        forEachArea(drawArea(clip).intersection(rect.enclosingPixels)) { area in
            fillRoundedRect(rect, r: r, area: area, columnColor: columnColor)
        }
    }

    private func fillRoundedRect(_ rect: Rect, r: Float, area: IntRect, columnColor: (Int) -> UInt32) {
        // One colour per column, computed once.
        let colors = (area.x..<area.maxX).map(columnColor)
        let uniform = colors.allSatisfy { $0 == colors[0] }
        // Columns whose pixels lie wholly between the corner zones and inside the side edges.
        let midA = min(area.maxX, max(area.x, ceilToInt(rect.minX + r)))
        let midB = max(midA, min(area.maxX, floorToInt(rect.maxX - r)))
        colors.withUnsafeBufferPointer { colors in
            let color = colors.baseAddress! - area.x
            for y in area.y..<area.maxY {
                let row = row32(y)
                let yc = Float(y) + 0.5
                let covY = overlap(Float(y), rect.minY, rect.maxY)
                for x in area.x..<midA { roundedRectPixel(row, x, yc, covY, rect, r, color[x]) }
                if covY >= 1 {
                    if uniform {
                        fillRow32(row + midA, count: midB - midA, value: color[midA])
                    } else {
                        for x in midA..<midB { row[x] = color[x] }
                    }
                } else if covY > 0 {
                    let a = alpha256(covY)
                    for x in midA..<midB { row[x] = Raster.blend(color[x], over: row[x], alpha: a) }
                }
                for x in midB..<area.maxX { roundedRectPixel(row, x, yc, covY, rect, r, color[x]) }
            }
        }
    }

    @inline(__always)
    private func roundedRectPixel(
        _ row: UnsafeMutablePointer<UInt32>, _ x: Int, _ yc: Float, _ covY: Float, _ rect: Rect, _ r: Float,
        _ c: UInt32
    ) {
        let xc = Float(x) + 0.5
        let cornerX: Float? = xc < rect.minX + r ? rect.minX + r : (xc > rect.maxX - r ? rect.maxX - r : nil)
        let cornerY: Float? = yc < rect.minY + r ? rect.minY + r : (yc > rect.maxY - r ? rect.maxY - r : nil)
        let cov: Float
        if let cornerX, let cornerY {
            let u = xc - cornerX, v = yc - cornerY
            cov = discCoverage(radius: r, u: u, v: v, dist: (u * u + v * v).squareRoot())
        } else {
            cov = overlap(Float(x), rect.minX, rect.maxX) * covY
        }
        if cov > 0 { row[x] = Raster.blend(c, over: row[x], alpha: alpha256(cov)) }
    }

    /// Length of [p, p + 1] inside [lo, hi].
    @inline(__always)
    private func overlap(_ p: Float, _ lo: Float, _ hi: Float) -> Float {
        max(0, min(p + 1, hi) - max(p, lo))
    }

    /// An anti-aliased capsule: every point within `radius` of the segment from `a` to `b`.
    public func fillCapsule(from a: Point, to b: Point, radius: Float, color: Color, clip: IntRect? = nil) {
        guard format == .xrgb8888, radius > 0, radius.isFinite, a.x.isFinite, a.y.isFinite, b.x.isFinite,
            b.y.isFinite
        else { return }
        let box = Rect(
            x: min(a.x, b.x) - radius - 1, y: min(a.y, b.y) - radius - 1,
            width: abs(a.x - b.x) + 2 * radius + 2, height: abs(a.y - b.y) + 2 * radius + 2)
        let c = color.xrgb
        forEachArea(drawArea(clip).intersection(box.enclosingPixels)) { area in
            fillCapsule(from: a, to: b, radius: radius, c: c, area: area)
        }
    }

    private func fillCapsule(from a: Point, to b: Point, radius: Float, c: UInt32, area: IntRect) {
        let dx = b.x - a.x, dy = b.y - a.y
        let len2 = dx * dx + dy * dy
        let inner = radius - halfDiagonal
        for y in area.y..<area.maxY {
            let row = row32(y)
            let py = Float(y) + 0.5 - a.y
            for x in area.x..<area.maxX {
                let px = Float(x) + 0.5 - a.x
                let t = len2 > 0 ? min(max((px * dx + py * dy) / len2, 0), 1) : 0
                let u = px - t * dx, v = py - t * dy
                let dist = (u * u + v * v).squareRoot()
                if dist <= inner {
                    row[x] = c
                } else {
                    let cov = discCoverage(radius: radius, u: u, v: v, dist: dist)
                    if cov > 0 { row[x] = Raster.blend(c, over: row[x], alpha: alpha256(cov)) }
                }
            }
        }
    }
}
