import Activity
import Raster
@testable import Screens
import Testing

/// A gauge's new value damages what it changes on a small panel: its number, the arc or bar
/// between the two values, the marker's two places; the frames drawn only there are the frames
/// drawn whole.
@Suite("Gauge screen: a new value's damage", .timeLimit(.minutes(20)))
struct GaugeDamageTests {
    static func screen(_ values: [Double?], _ style: GaugeStyle, shape: PanelShape, _ fonts: Fonts) throws -> GaugeScreen {
        GaugeScreen(
            gauges: values.enumerated().map { i, v in
                Gauge(style: style, value: v, minimum: 30, maximum: 90, title: i == 0 ? "CPU temperature" : "Gauge \(i + 1)", unit: "°")
            },
            context: ScreenContext(text: try fonts(.english), shape: shape))
    }

    /// The small panels the comparison is for.
    static let sizes: [(Size, PanelShape)] = [
        (Size(width: 240, height: 240), .rectangle), (Size(width: 240, height: 240), .round),
        (Size(width: 320, height: 240), .rectangle), (Size(width: 240, height: 320), .rectangle),
        (Size(width: 480, height: 480), .round),
    ]

    /// Pixels where two pictures differ that `damage` leaves out.
    static func missed(_ damage: Damage, _ a: PixelBuffer, _ b: PixelBuffer) -> Int {
        var n = 0
        for y in 0..<a.height {
            for x in 0..<a.width where a.color(x: x, y: y) != b.color(x: x, y: y) && !damage.contains(x: x, y: y) { n += 1 }
        }
        return n
    }

    @Test("one gauge's new value, every style, the small panels: every changed pixel in the damage, a small part of the picture")
    func newValue() throws {
        let fonts = Fonts()
        for (size, shape) in Self.sizes {
            let whole = FrameComposer(panel: size)
            for style in GaugeStyle.allCases {
                let name = "\(size) \(shape) \(style)"
                // A degree more, back, a number of another width, no value, the range's end.
                let values: [Double?] = [72, 73, 72, 88.5, nil, 30]
                let screens = try values.map { try Self.screen([$0], style, shape: shape, fonts) }
                let pictures = screens.map { whole.render($0) }
                for i in 1..<screens.count {
                    guard let d = screens[i].changes(since: screens[i - 1], at: 0, now: 0.1, size: size) else {
                        Issue.record("\(name) \(values[i - 1].map { "\($0)" } ?? "none") → \(values[i].map { "\($0)" } ?? "none"): drawn whole")
                        continue
                    }
                    #expect(Self.missed(d, pictures[i - 1], pictures[i]) == 0, "\(name) frame \(i): \(d)")
                    #expect(!d.isEmpty, "\(name) frame \(i)")
                    if i == 1 {
                        // 72° → 73°: the number and the marker's or the fill's end, a small part.
                        #expect(d.area < size.width * size.height / 8, "\(name) 72 → 73: \(d)")
                    }
                }
                DamageTests.expectDamagedEqualsWhole(
                    screens.enumerated().map { ($0.element, Double($0.offset) * 0.1) }, panel: size, name)
            }
        }
    }

    @Test("a grid of gauges, one new value: that gauge's cell only")
    func grid() throws {
        let fonts = Fonts()
        let size = Size(width: 480, height: 480)
        let a = try Self.screen([72, 50, 60, 80], .accessoryCircular, shape: .rectangle, fonts)
        let b = try Self.screen([72, 61, 60, 80], .accessoryCircular, shape: .rectangle, fonts)
        let d = try #require(b.changes(since: a, at: 0, now: 0.1, size: size))
        let g = b.grid(size)
        #expect(g.perPage >= 2, "more than one cell on the page: \(g.perPage)")
        let cell = g.cellRect(1).enclosingPixels
        #expect(!d.isEmpty && d.rects.allSatisfy { cell.intersection($0) == $0 }, "within the second cell \(cell): \(d)")
        DamageTests.expectDamagedEqualsWhole([(a, 0), (b, 0.1)], panel: size, "grid")
    }

    @Test("turned and converted (a 90° RGB565 panel): every frame as drawn whole")
    func turned() throws {
        let fonts = Fonts()
        let screens = try [72, 73, 88.5].map { try Self.screen([$0], .circular, shape: .rectangle, fonts) }
        for outcome in DamageTests.expectDamagedEqualsWhole(
            screens.enumerated().map { ($0.element, Double($0.offset) * 0.1) }, panel: Size(width: 240, height: 320),
            rotation: .quarter, format: .rgb565, "gauge turned")
        {
            #expect(outcome.partial >= 1)
        }
    }

    @Test("the same gauges again: nothing; a large picture, another context or another screen: drawn whole")
    func whole() throws {
        let fonts = Fonts()
        let a = try Self.screen([72], .circular, shape: .rectangle, fonts)
        let b = try Self.screen([73], .circular, shape: .rectangle, fonts)
        let small = Size(width: 240, height: 240)
        #expect(try Self.screen([72], .circular, shape: .rectangle, fonts).changes(since: a, at: 0, now: 1, size: small) == Damage())
        #expect(b.changes(since: a, at: 0, now: 1, size: Size(width: 800, height: 480)) == nil, "a large picture")
        let round = GaugeScreen(gauges: b.gauges, context: ScreenContext(text: try fonts(.english), shape: .round))
        #expect(round.changes(since: a, at: 0, now: 1, size: small) == nil, "another shape")
        let rings = try DamageTests.ringScreen(ScreenGoldenTests.todaySummary, .english, shape: .rectangle, fonts)
        #expect(b.changes(since: rings, at: 0, now: 1, size: small) == nil, "another screen")
    }
}
