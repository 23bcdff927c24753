import Testing

@testable import Raster

/// The ring band drawn from spans precomputed per geometry (issue 15) gives exactly the pixels of
/// the rasterizer that worked every row out again on every frame (`Reference/`), and a draw
/// clipped to any rectangle gives exactly the whole draw's pixels inside it.
@Suite("Arc spans: bit for bit the reference rasterizer, clipped or whole", .timeLimit(.minutes(10)))
struct ArcSpansTests {
    /// SplitMix64: the same strokes on every run.
    struct Generator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }
        mutating func float(_ lo: Float, _ hi: Float) -> Float { lo + (hi - lo) * Float(unit()) }
        mutating func int(_ n: Int) -> Int { Int(next() % UInt64(n)) }
        mutating func color() -> Color { Color(hex: UInt32(truncatingIfNeeded: next()) & 0xFF_FFFF) }
    }

    /// A stroke of every kind the screens draw and then some: centres on whole pixels, half
    /// pixels and anywhere (partly off the buffer too), thin and thick, dots, arcs under and past
    /// a turn, open and closed tracks, one to three colour stops, shadows.
    static func randomStroke(_ g: inout Generator, size: Int) -> ArcStroke {
        let s = Float(size)
        var center: Point
        switch g.int(3) {
        case 0: center = Point(x: Float(g.int(size)), y: Float(g.int(size)))
        case 1: center = Point(x: Float(g.int(size)) + 0.5, y: Float(g.int(size)) + 0.5)
        default: center = Point(x: g.float(-0.2 * s, 1.2 * s), y: g.float(-0.2 * s, 1.2 * s))
        }
        let radius = g.float(1, 0.6 * s)
        let width = g.float(0.5, min(0.4 * s, 2 * radius + 4))
        let sweep: Double?
        switch g.int(6) {
        case 0: sweep = nil
        case 1: sweep = 0
        case 2: sweep = 1
        case 3: sweep = 1 + g.unit() * 2
        default: sweep = g.unit()
        }
        let paint: ArcPaint
        switch g.int(3) {
        case 0: paint = .solid(g.color())
        case 1:
            let p = sweep ?? 0
            paint = p <= 1 ? .ramp(g.color(), g.color()) : .ramp(g.color(), g.color(), from: p - 1, to: p)
        default:
            paint = ArcPaint(stops: [.init(0, g.color()), .init(g.unit(), g.color()), .init(1, g.color())])
        }
        return ArcStroke(
            center: center, radius: radius, width: width, start: g.int(3) == 0 ? 0 : g.unit() * 2 - 0.5,
            sweep: sweep, paint: paint, track: g.int(4) == 0 ? nil : g.color(),
            trackSweep: g.int(3) == 0 ? g.unit() : 1,
            shadow: g.int(2) == 0 ? ArcShadow(opacity: Float(g.unit()), offset: 0.1, blur: 1.0 / 3) : nil)
    }

    /// A buffer of noise, so blending over what is there is compared as well.
    static func noise(_ size: Int, seed: UInt64) -> PixelBuffer {
        var g = Generator(state: seed)
        let buffer = PixelBuffer(width: size, height: size)
        for y in 0..<size {
            for x in 0..<size { buffer.row32(y)[x] = UInt32(truncatingIfNeeded: g.next()) & 0xFF_FFFF }
        }
        return buffer
    }

    static func firstDifference(_ a: PixelBuffer, _ b: PixelBuffer, in rect: IntRect? = nil) -> (Int, Int)? {
        let r = rect ?? a.bounds
        for y in r.y..<r.maxY {
            for x in r.x..<r.maxX where a.row32(y)[x] != b.row32(y)[x] { return (x, y) }
        }
        return nil
    }

    @Test("400 random strokes: every pixel as the reference draws it")
    func equalsReference() {
        var g = Generator(state: 15)
        var drawn = 0
        for i in 0..<400 {
            let size = [24, 48, 97, 160][i % 4]
            let arc = Self.randomStroke(&g, size: size)
            let expected = Self.noise(size, seed: UInt64(i))
            let actual = Self.noise(size, seed: UInt64(i))
            expected.referenceStroke(arc)
            actual.stroke(arc)
            if let (x, y) = Self.firstDifference(actual, expected) {
                Issue.record("stroke \(i) \(arc.center) r \(arc.radius) w \(arc.width) sweep \(String(describing: arc.sweep)): pixel (\(x), \(y)) is \(actual.color(x: x, y: y)), the reference \(expected.color(x: x, y: y))")
            }
            if Self.firstDifference(expected, Self.noise(size, seed: UInt64(i))) != nil { drawn += 1 }
        }
        #expect(drawn > 300, "most strokes draw something (\(drawn) of 400)")
    }

    @Test("an animation into one buffer: kept spans and tables, every frame as the reference")
    func sequenceEqualsReference() {
        var g = Generator(state: 150)
        let shapes = (0..<3).map { _ in Self.randomStroke(&g, size: 97) }
        let actual = Self.noise(97, seed: 7)
        let expected = Self.noise(97, seed: 7)
        for frame in 0..<120 {
            // One of three geometries, with a sweep, start, paint and track of its own.
            var arc = Self.randomStroke(&g, size: 97)
            let shape = shapes[g.int(3)]
            arc.center = shape.center
            arc.radius = shape.radius
            arc.width = shape.width
            if g.int(4) == 0 { arc = shape }
            actual.stroke(arc)
            expected.referenceStroke(arc)
            if let (x, y) = Self.firstDifference(actual, expected) {
                Issue.record("frame \(frame): pixel (\(x), \(y)) differs from the reference")
                return
            }
        }
        #expect(actual.cache.bandCount <= 3)
    }

    @Test("the rings as the screens draw them, at every size of the goldens, at many sweeps")
    func ringsEqualReference() {
        for size in [Size(width: 240, height: 240), Size(width: 480, height: 480), Size(width: 800, height: 480)] {
            let rect = Rect(x: 0, y: 0, width: Float(size.width), height: Float(size.height))
            let center = rect.center
            let diameter = min(rect.width, rect.height) / 1.014
            let width = diameter * 0.1
            for (k, p) in [0.0, 0.01, 0.25, 0.37, 0.5, 0.75, 0.999, 1, 1.2, 1.35, 2.5].enumerated() {
                let arc = ArcStroke(
                    center: center, radius: diameter / 2 - Float(k % 3) * width * 1.07 - width / 2, width: width,
                    sweep: p, paint: p <= 1 ? .ramp(.white, .black) : .ramp(.white, .black, from: p - 1, to: p),
                    track: Color(hex: 0x2D0004), shadow: p > 1 ? ArcShadow(opacity: 0.6, offset: 0.1, blur: 1.0 / 3) : nil)
                let expected = PixelBuffer(width: size.width, height: size.height)
                let actual = PixelBuffer(width: size.width, height: size.height)
                expected.referenceStroke(arc)
                actual.stroke(arc)
                if let (x, y) = Self.firstDifference(actual, expected) {
                    Issue.record("\(size) at \(p): pixel (\(x), \(y)) differs from the reference")
                }
            }
        }
    }

    @Test("a solid paint draws without colour tables, as the tables drew it")
    func solidPaint() {
        let buffer = PixelBuffer(width: 120, height: 120)
        let reference = PixelBuffer(width: 120, height: 120)
        for sweep in [0.3, 1.6] {
            let arc = ArcStroke(center: Point(x: 60.3, y: 59.5), radius: 40, width: 14, start: 0.7, sweep: sweep,
                                paint: .solid(Color(hex: 0x0A84FF)), track: Color(hex: 0x3A3A3C),
                                shadow: ArcShadow(opacity: 0.6, offset: 0.1, blur: 0.33))
            buffer.stroke(arc)
            reference.referenceStroke(arc)
        }
        #expect(buffer.cache.tableCount == 0)
        #expect(Self.firstDifference(buffer, reference) == nil)
    }

    @Test("a draw clipped to a rectangle is the whole draw inside it, and nothing outside")
    func clippedEqualsWhole() {
        var g = Generator(state: 1500)
        for i in 0..<200 {
            let size = [48, 97, 160][i % 3]
            let arc = Self.randomStroke(&g, size: size)
            let whole = Self.noise(size, seed: UInt64(i))
            whole.stroke(arc)
            let x = g.int(size), y = g.int(size)
            let clip = IntRect(x: x, y: y, width: 1 + g.int(size - x), height: 1 + g.int(size - y))
            let clipped = Self.noise(size, seed: UInt64(i))
            clipped.stroke(arc, clip: clip)
            // Inside: the whole draw. Outside: untouched.
            let reference = Self.noise(size, seed: UInt64(i))
            for py in 0..<size {
                for px in 0..<size {
                    let inside = px >= clip.x && px < clip.maxX && py >= clip.y && py < clip.maxY
                    let want = inside ? whole.row32(py)[px] : reference.row32(py)[px]
                    if clipped.row32(py)[px] != want {
                        Issue.record("stroke \(i) clipped to \(clip): pixel (\(px), \(py)) is \(clipped.color(x: px, y: py)), want \(Color(xrgb: want))")
                        return
                    }
                }
            }
        }
    }

    @Test("spans are kept per geometry, colour tables per paint and sweep, and reused; the cache keeps to its budget")
    func cacheReuse() {
        let buffer = PixelBuffer(width: 200, height: 200)
        let arc = ArcStroke(center: Point(x: 100, y: 100), radius: 80, width: 20, sweep: 0.4,
                            paint: .ramp(.white, Color(hex: 0x00FF00)), track: Color(hex: 0x202020))
        buffer.stroke(arc)
        #expect(buffer.cache.bandCount == 1)
        #expect(buffer.cache.tableCount == 1, "one colour table: the value arc's")
        buffer.stroke(arc)
        #expect(buffer.cache.tableCount == 1, "drawn again as it was: the same table")
        // Another sweep and colour of the same geometry: the same spans, new tables.
        var other = arc
        other.sweep = 1.7
        other.paint = .ramp(.white, Color(hex: 0xFF0000), from: 0.7, to: 1.7)
        buffer.stroke(other)
        #expect(buffer.cache.bandCount == 1)
        #expect(buffer.cache.tableCount == 3, "the last turn and the turn beneath have a table each")
        let reference = PixelBuffer(width: 200, height: 200)
        reference.referenceStroke(arc)
        reference.referenceStroke(arc)
        reference.referenceStroke(other)
        #expect(Self.firstDifference(buffer, reference) == nil, "drawn from kept spans: the reference's pixels")
        // Many geometries: never more than the budget, and still right.
        for r in 0..<(DrawingCache.entryBudget + 10) {
            var ring = arc
            ring.radius = 10 + Float(r)
            buffer.stroke(ring)
            reference.referenceStroke(ring)
        }
        #expect(buffer.cache.bandCount == DrawingCache.entryBudget)
        #expect(Self.firstDifference(buffer, reference) == nil)
        // A copy of the buffer value draws into the same pixels with the same cache.
        let copy = buffer
        #expect(copy.cache === buffer.cache)
    }
}

/// The floor and ceiling the band spans take in a few instructions give what `floorToInt` and
/// `ceilToInt` give over the range they are used in (every pixel position of a drawable arc).
@Suite("Whole-number rounding through the mantissa", .timeLimit(.minutes(10)))
struct SmallRoundingTests {
    @Test("floorSmall and ceilSmall equal floorToInt and ceilToInt for |x| ≤ 2^22 − 1")
    func equalsChecked() {
        var g = ArcSpansTests.Generator(state: 22)
        var values: [Float] = [0, -0.0, 0.5, -0.5, 1, -1, 1.5, -1.5, 2.5, -2.5, 0x1p22 - 1, -(0x1p22 - 1), 4_194_302.5, -4_194_302.5]
        // Typed: Swift 6.0.3 takes the literals of a mixed array as [Any].
        let edges: [Float] = [Float.leastNonzeroMagnitude, -Float.leastNonzeroMagnitude, 0.49999997, -0.49999997, 1e6 + 0.25]
        values += edges
        for _ in 0..<20000 {
            let magnitude = Float(g.unit()) * Float(1 << (g.int(23)))
            values.append(g.int(2) == 0 ? magnitude : -magnitude)
            let quarters: [Float] = [0, 0.5, 0.25, 0.75]
            values.append(Float(g.int(1 << 22)) + quarters[g.int(4)])
        }
        for x in values where abs(x) <= 0x1p22 - 1 {
            #expect(floorSmall(x) == floorToInt(x), "floor of \(x)")
            #expect(ceilSmall(x) == ceilToInt(x), "ceiling of \(x)")
        }
    }
}
