import Raster

/// The damage of what moves on the screens: arcs that sweep, text that changes.
enum ScreenDamage {
    /// The pixels a stroke of `width` along the circle of `radius` about `center` covers between
    /// the angles `a0` and `a1` (turns clockwise from 12 o'clock, any order, up to a turn apart),
    /// round caps and anti-aliased edges included: the box of the centre line grown by half the
    /// width and two pixels (an edge pixel reaches 0.71 px past the edge, a cap 0.5 px past its
    /// diameter).
    static func sweep(center: Point, radius: Float, width: Float, from a0: Double, to a1: Double) -> IntRect {
        let lo = min(a0, a1)
        let hi = max(a0, a1)
        var angles = [lo, hi]
        // The circle's extremes (12, 3, 6 and 9 o'clock) the sweep passes.
        var k = (lo * 4).rounded(.up)
        while k <= hi * 4 {
            angles.append(k / 4)
            k += 1
        }
        var x0 = Float.infinity, y0 = Float.infinity, x1 = -Float.infinity, y1 = -Float.infinity
        for a in angles {
            let sc = Trigonometry.sinCos(turns: a)
            let x = center.x + radius * Float(sc.sin)
            let y = center.y - radius * Float(sc.cos)
            x0 = min(x0, x)
            x1 = max(x1, x)
            y0 = min(y0, y)
            y1 = max(y1, y)
        }
        let grow = width / 2 + 2
        return Rect(x: x0 - grow, y: y0 - grow, width: x1 - x0 + 2 * grow, height: y1 - y0 + 2 * grow).enclosingPixels
    }

    /// The change of an arc from 12 o'clock whose sweep goes from `a0` to `a1` (turns, 0 to 1; 0
    /// is no arc, whose start the swept part covers): the swept part, and the start cap when the arc's end comes near enough to touch
    /// it (within three cap reaches of a turn: the arc's end cap then overlaps it, and the start
    /// cap goes under the arc). Short of that, the start cap is drawn the same in both frames.
    static func arcGrowth(center: Point, radius: Float, width: Float, from a0: Double, to a1: Double) -> Damage {
        var d = Damage(sweep(center: center, radius: radius, width: width, from: a0, to: a1))
        // A cap's reach along the inner edge, in turns (as the rasterizer reckons it, and more).
        let reach = Double(width / 2 + 2) / (2 * Double.pi * Double(max(radius - width / 2, 1)))
        if max(a0, a1) > 1 - 3 * reach {
            d.add(sweep(center: center, radius: radius, width: width, from: 0, to: 0))
        }
        return d
    }

    /// Every pixel a filled disc may touch (its anti-aliased edge included).
    static func disc(center: Point, radius: Float) -> IntRect {
        let r = radius + 2
        return Rect(x: center.x - r, y: center.y - r, width: 2 * r, height: 2 * r).enclosingPixels
    }

    /// Every pixel a whole ring (band, caps, shadow) may touch.
    static func ring(center: Point, radius: Float, width: Float) -> IntRect {
        let r = radius + width + 2
        return Rect(x: center.x - r, y: center.y - r, width: 2 * r, height: 2 * r).enclosingPixels
    }

    /// The pixels a line of text laid out in `box` (its advances, the font's ascent and descent)
    /// may ink: the box grown by 30 % of its height and two pixels (glyphs overhang them).
    static func text(_ box: Rect) -> IntRect {
        let grow = box.height * 0.3 + 2
        return Rect(x: box.x - grow, y: box.y - grow, width: box.width + 2 * grow, height: box.height + 2 * grow)
            .enclosingPixels
    }

    /// Where two pictures of one size (XRGB8888) differ, every differing pixel included: each
    /// row's differing spans (those fewer than `gap` pixels apart joined), grown down the rows
    /// while they continue within `gap` rows and columns, into rectangles (`Damage` merges the
    /// cheapest beyond its capacity).
    static func difference(_ a: PixelBuffer, _ b: PixelBuffer, gap: Int = 8) -> Damage {
        precondition(a.size == b.size && a.format == .xrgb8888 && b.format == .xrgb8888, "difference: \(a.size) \(b.size)")
        /// A rectangle growing down the rows: its columns, first row and last row that differs.
        struct Open { var x0: Int, x1: Int, y0: Int, last: Int }
        var d = Damage()
        var open: [Open] = []
        func close(_ o: Open) { d.add(IntRect(x: o.x0, y: o.y0, width: o.x1 - o.x0, height: o.last + 1 - o.y0)) }
        for y in 0..<a.height {
            let ra = (a.base + y * a.stride).assumingMemoryBound(to: UInt32.self)
            let rb = (b.base + y * b.stride).assumingMemoryBound(to: UInt32.self)
            // The row's spans, `gap` apart at least.
            var spans: [(Int, Int)] = []
            var x = 0
            while x < a.width {
                if ra[x] == rb[x] {
                    x += 1
                    continue
                }
                var end = x + 1
                while end < a.width && ra[end] != rb[end] { end += 1 }
                if let last = spans.last, x - last.1 < gap { spans[spans.count - 1].1 = end } else { spans.append((x, end)) }
                x = end
            }
            // Each span joins the rectangles it comes within `gap` of (and they one another).
            var next: [Open] = []
            for (x0, x1) in spans {
                var r = Open(x0: x0, x1: x1, y0: y, last: y)
                var joined = true
                while joined {
                    joined = false
                    for list in [0, 1] {
                        var i = 0
                        while i < (list == 0 ? open.count : next.count) {
                            let o = list == 0 ? open[i] : next[i]
                            if o.x0 < r.x1 + gap && r.x0 < o.x1 + gap {
                                r = Open(x0: min(r.x0, o.x0), x1: max(r.x1, o.x1), y0: min(r.y0, o.y0), last: y)
                                if list == 0 { open.remove(at: i) } else { next.remove(at: i) }
                                joined = true
                            } else {
                                i += 1
                            }
                        }
                    }
                }
                next.append(r)
            }
            // The others continue while fewer than `gap` rows went by without a span.
            for o in open {
                if y - o.last < gap { next.append(o) } else { close(o) }
            }
            open = next
        }
        for o in open { close(o) }
        return d
    }

    /// The change of a spinner (an arc `sweep` turns long turning once per `period`) from
    /// `time0` to `time1`: its tail's and its head's sweeps, or the whole circle when it moved
    /// half a turn or more, or back. `positions`: its angle is on a grid of that many steps a
    /// turn (`ProgressScreen.spinnerPhase`).
    static func spinner(
        center: Point, radius: Float, width: Float, sweep: Double, period: Double, positions: Double? = nil,
        from time0: Double, to time1: Double
    ) -> Damage {
        if time1 == time0 { return Damage() }
        var p0 = ProgressScreen.phase(time0, period: period)
        var p1 = ProgressScreen.phase(time1, period: period)
        if let positions {
            p0 = ProgressScreen.quantized(p0, positions: positions)
            p1 = ProgressScreen.quantized(p1, positions: positions)
        }
        if p1 < p0 { p1 += 1 }
        guard time1 > time0, time1 - time0 < period / 2, p1 - p0 < 0.5 else {
            return Damage(ring(center: center, radius: radius, width: width))
        }
        var d = Damage(Self.sweep(center: center, radius: radius, width: width, from: p0, to: p1))
        d.add(Self.sweep(center: center, radius: radius, width: width, from: p0 + sweep, to: p1 + sweep))
        return d
    }
}
