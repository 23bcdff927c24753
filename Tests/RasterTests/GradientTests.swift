import Testing

@testable import Raster

#if canImport(Glibc)
    import Glibc
#endif

@Suite("Conic gradients along arcs", .timeLimit(.minutes(10)))
struct GradientTests {
    static let start = Color(hex: 0xE10014), end = Color(hex: 0xFF3287)

    /// The colour drawn on the centre line at `turns` of a ring of radius 150 (caps avoided by the caller).
    static func sample(_ buffer: PixelBuffer, turns: Double) -> Color {
        let d = Trigonometry.direction(turns: turns)
        let x = 160 + 150 * d.dx, y = 160 + 150 * d.dy
        return buffer.color(x: Int(x), y: Int(y))
    }

    static func close(_ a: Color, _ b: Color, _ levels: Int = 2) -> Bool {
        abs(Int(a.red) - Int(b.red)) <= levels && abs(Int(a.green) - Int(b.green)) <= levels
            && abs(Int(a.blue) - Int(b.blue)) <= levels
    }

    static func ring(progress p: Double) -> PixelBuffer {
        let buffer = PixelBuffer(width: 320, height: 320)
        let paint: ArcPaint = p <= 1 ? .ramp(start, end) : .ramp(start, end, from: p - 1, to: p)
        buffer.stroke(ArcStroke(center: Point(x: 160, y: 160), radius: 150, width: 20, sweep: p, paint: paint,
                                track: start.scaled(by: 0.2)))
        return buffer
    }

    @Test("p ≤ 1: colour(s) = mix(start, end, s); the rest is the track", arguments: [0.37, 0.8])
    func belowOneTurn(p: Double) {
        let b = Self.ring(progress: p)
        for s in stride(from: 0.05, to: p - 0.04, by: 0.05) {
            let expected = Color.mix(Self.start, Self.end, s)
            #expect(Self.close(Self.sample(b, turns: s), expected), "s = \(s)")
        }
        #expect(Self.sample(b, turns: p + 0.1) == Self.start.scaled(by: 0.2))
        // The tip's cap carries the colour at p.
        #expect(Self.close(Self.sample(b, turns: p + 0.005), Color.mix(Self.start, Self.end, p)))
    }

    @Test("p > 1: colour(s) = mix(start, end, clamp(1 − (p − s))), the tip on top", arguments: [1.35, 2.5])
    func pastOneTurn(p: Double) {
        let b = Self.ring(progress: p)
        let tip = p - p.rounded(.down)
        for a in stride(from: 0.05, to: 0.96, by: 0.05) where abs(a - tip) > 0.06 {
            // The visible turn at angle a is the last one that reached it.
            let s = a < tip ? a + p.rounded(.down) : a + p.rounded(.down) - 1
            let expected = Color.mix(Self.start, Self.end, min(max(1 - (p - s), 0), 1))
            #expect(Self.close(Self.sample(b, turns: a), expected), "angle \(a), s = \(s)")
        }
        #expect(Self.close(Self.sample(b, turns: tip - 0.005), Self.end), "the tip is the end colour")
    }

    @Test("the tip's shadow darkens the turn beneath just ahead of the tip, and stays on the band")
    func shadow() {
        let p = 1.3
        let paint = ArcPaint.ramp(Self.start, Self.end, from: p - 1, to: p)
        func draw(_ shadow: ArcShadow?) -> PixelBuffer {
            let b = PixelBuffer(width: 320, height: 320)
            b.stroke(ArcStroke(center: Point(x: 160, y: 160), radius: 150, width: 20, sweep: p, paint: paint,
                               track: nil, shadow: shadow))
            return b
        }
        let with = draw(ArcShadow(opacity: 0.6, offset: 0.1, blur: 1.0 / 3)), without = draw(nil)
        // Just past the cap (cap radius 10 px ≈ 0.0106 turns at r = 150).
        let ahead = Self.sample(with, turns: 0.3 + 0.013), plain = Self.sample(without, turns: 0.3 + 0.013)
        #expect(Int(ahead.red) < Int(plain.red) - 30, "shadowed \(ahead) vs \(plain)")
        // Far ahead, no shadow.
        #expect(Self.sample(with, turns: 0.45) == Self.sample(without, turns: 0.45))
        // Nothing off the band is touched: the buffers agree wherever one of them is black.
        for y in 0..<320 {
            for x in 0..<320 where without.color(x: x, y: y) == .black {
                #expect(with.color(x: x, y: y) == .black, "(\(x), \(y))")
            }
        }
    }
}

@Suite("Trigonometry and diamond angles", .timeLimit(.minutes(10)))
struct TrigonometryTests {
    @Test("sin, cos and atan match the C library to 1e-14")
    func accuracy() {
        for i in -400...400 {
            let t = Double(i) / 97.3
            let sc = Trigonometry.sinCos(turns: t)
            #expect(abs(sc.sin - sin(2 * .pi * t)) < 1e-14)
            #expect(abs(sc.cos - cos(2 * .pi * t)) < 1e-14)
            let x = Double(i) / 13.7
            #expect(abs(Trigonometry.atanTurns(x) - atan(x) / (2 * .pi)) < 1e-14)
        }
    }

    @Test("directions and angles clockwise from 12 o'clock round-trip")
    func directions() {
        for i in 0..<360 {
            let t = Double(i) / 360
            let d = Trigonometry.direction(turns: t)
            #expect(abs(Trigonometry.turnsClockwiseFromUp(dx: d.dx, dy: d.dy) - t) < 1e-12 || (i == 0))
        }
        #expect(Trigonometry.turnsClockwiseFromUp(dx: 1, dy: 0) == 0.25)  // 3 o'clock
        #expect(Trigonometry.turnsClockwiseFromUp(dx: 0, dy: 1) == 0.5)  // 6 o'clock
    }

    @Test("the diamond angle is monotone in the true angle and round-trips")
    func diamond() {
        var previous = -1.0
        for i in 0..<1000 {
            let t = Double(i) / 1000
            let d = DiamondAngle.diamond(turns: t)
            #expect(d > previous)
            previous = d
            #expect(abs(DiamondAngle.turns(diamond: d) - t) < 1e-12)
            let dir = Trigonometry.direction(turns: t)
            let of = DiamondAngle.of(u: Float(dir.dx * 100), v: Float(-dir.dy * 100))
            #expect(abs(Double(of) - d) < 1e-5 || abs(Double(of) - d) > 3.99)
        }
    }
}
