import Testing

@testable import Raster

/// Damage as disjoint rectangles, and a buffer clipped to several of them: one drawing pass gives
/// inside each what the whole drawing gives there, blends once, and leaves the rest alone.
@Suite("Damage and drawing into several rectangles at once", .timeLimit(.minutes(10)))
struct RegionTests {
    @Test("damage: disjoint rectangles, overlaps merged when cheap and cut when not, bounded")
    func damage() {
        var d = Damage(IntRect(x: 0, y: 0, width: 10, height: 10))
        d.add(IntRect(x: 2, y: 2, width: 3, height: 3))
        #expect(d.rects == [IntRect(x: 0, y: 0, width: 10, height: 10)], "held: nothing added")
        d.add(IntRect(x: 5, y: 0, width: 10, height: 10))
        #expect(d.rects == [IntRect(x: 0, y: 0, width: 15, height: 10)], "a big overlap: one box")
        d.add(IntRect(x: 14, y: 9, width: 20, height: 2))
        #expect(d.area == 150 + 20 * 2 - 1, "a corner overlap is cut, counted once: \(d)")
        for (i, a) in d.rects.enumerated() {
            for b in d.rects[(i + 1)...] { #expect(a.intersection(b).isEmpty, "\(a) and \(b) overlap") }
        }
        #expect(d.contains(x: 33, y: 10) && !d.contains(x: 33, y: 8))
        var many = Damage()
        for i in 0..<(Damage.capacity + 5) { many.add(IntRect(x: i * 10, y: (i % 3) * 10, width: 2, height: 2)) }
        #expect(many.rects.count <= Damage.capacity, "past capacity: neighbours merged")
        #expect(many.area < (Damage.capacity + 5) * 4 + 400, "the cheapest pairs: \(many)")
        for i in 0..<(Damage.capacity + 5) { #expect(many.contains(x: i * 10, y: (i % 3) * 10)) }
        for (i, a) in many.rects.enumerated() {
            for b in many.rects[(i + 1)...] { #expect(a.intersection(b).isEmpty) }
        }
        #expect(Damage().isEmpty && Damage(IntRect(x: 3, y: 3, width: 0, height: 5)).isEmpty)
    }

    static func noise(_ size: Int) -> PixelBuffer {
        let b = PixelBuffer(width: size, height: size)
        for y in 0..<size { for x in 0..<size { b.row32(y)[x] = UInt32(truncatingIfNeeded: (x &* 7919) ^ (y &* 104_729)) & 0xFF_FFFF } }
        return b
    }

    /// Every primitive, blending over what is there.
    static func drawAll(_ b: PixelBuffer) {
        b.fill(IntRect(x: 5, y: 5, width: 30, height: 20), with: Color(hex: 0x203040))
        b.stroke(ArcStroke(center: Point(x: 40.5, y: 38), radius: 22, width: 9, start: 0.1, sweep: 1.3,
                           paint: .ramp(.white, Color(hex: 0xFF0000)), track: Color(hex: 0x102010),
                           shadow: ArcShadow(opacity: 0.6, offset: 0.1, blur: 0.33)))
        b.fillDisc(center: Point(x: 20.3, y: 60.7), radius: 9.4, color: Color(hex: 0x00FF80))
        b.fillRoundedRect(Rect(x: 44.2, y: 50.5, width: 30, height: 17.3), radius: 6, color: Color(hex: 0x8080FF))
        b.fillRoundedRect(Rect(x: 3, y: 70, width: 70, height: 6), radius: 3,
                          gradient: .ramp(.black, .white), from: 3, to: 73)
        b.fillCapsule(from: Point(x: 10, y: 10), to: Point(x: 70, y: 30), radius: 3.3, color: Color(hex: 0xFFFF00))
        let mask: [UInt8] = (0..<(12 * 9)).map { UInt8(truncatingIfNeeded: $0 &* 37) }
        mask.withUnsafeBufferPointer {
            b.fillMask($0.baseAddress!, width: 12, height: 9, pitch: 12, x: 33, y: 33, color: .white)
        }
        b.blend(x: 36, y: 36, color: .white, coverage: 0.5)
        b.scaleBrightness(0.8)
    }

    @Test("one pass into several rectangles: inside each the whole drawing, outside nothing")
    func region() {
        let whole = Self.noise(80)
        Self.drawAll(whole)
        let area = Damage([
            IntRect(x: 30, y: 30, width: 15, height: 15), IntRect(x: 38, y: 38, width: 20, height: 12),
            IntRect(x: 0, y: 60, width: 25, height: 20), IntRect(x: 60, y: 0, width: 20, height: 40),
        ])
        #expect(area.rects.count > 2)
        let parts = Self.noise(80)
        Self.drawAll(parts.clipped(to: area))
        let untouched = Self.noise(80)
        for y in 0..<80 {
            for x in 0..<80 {
                let want = area.contains(x: x, y: y) ? whole.row32(y)[x] : untouched.row32(y)[x]
                #expect(parts.row32(y)[x] == want, "(\(x), \(y))")
                if parts.row32(y)[x] != want { return }
            }
        }
    }

    @Test("clipped again: the rectangles within the new clip")
    func nested() {
        let b = Self.noise(40)
        let area = Damage([IntRect(x: 0, y: 0, width: 10, height: 10), IntRect(x: 20, y: 20, width: 10, height: 10)])
        let c = b.clipped(to: area).clipped(to: IntRect(x: 5, y: 5, width: 20, height: 20))
        c.fill(.white)
        for y in 0..<40 {
            for x in 0..<40 {
                let inside = (x >= 5 && x < 10 && y >= 5 && y < 10) || (x >= 20 && x < 25 && y >= 20 && y < 25)
                #expect((b.color(x: x, y: y) == .white) == inside, "(\(x), \(y))")
            }
        }
    }
}

extension RegionTests {
    @Test("draws(in:): true exactly when a rectangle meets the clip and the region")
    func drawsIn() {
        let b = PixelBuffer(width: 40, height: 40)
        #expect(b.draws(in: IntRect(x: 39, y: 39, width: 5, height: 5)))
        #expect(!b.draws(in: IntRect(x: 40, y: 0, width: 5, height: 5)))
        let c = b.clipped(to: Damage([IntRect(x: 0, y: 0, width: 10, height: 10), IntRect(x: 20, y: 20, width: 10, height: 10)]))
        #expect(c.draws(in: IntRect(x: 9, y: 9, width: 1, height: 1)))
        #expect(c.draws(in: IntRect(x: 25, y: 0, width: 1, height: 40)))
        #expect(!c.draws(in: IntRect(x: 12, y: 12, width: 6, height: 6)), "between the rectangles, inside their bounds")
        #expect(!PixelBuffer.measuring(Size(width: 40, height: 40)).draws(in: IntRect(x: 0, y: 0, width: 40, height: 40)))
    }
}
