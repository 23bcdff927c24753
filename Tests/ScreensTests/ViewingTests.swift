import Raster
import Screens
import Testing

/// Legibility by the angle at the eye: a panel's size and distance, the angle a height makes, and
/// the type scale's floor and figure size they give.
@Suite("Viewing: a panel's size and distance, and the angle text makes at the eye", .timeLimit(.minutes(20)))
struct ViewingTests {
    @Test("a display's millimetres give its diagonal; nothing or an implausible shape gives none")
    func millimetres() throws {
        // The Mini PiTFT 1.3"'s 23 x 23 mm (its overlay's width-mm and height-mm).
        let pitft = try #require(Viewing.diagonal(millimetres: 23, 23))
        #expect(abs(pitft - 1.2806) < 0.001, "\(pitft)")
        // The 7" Touch Display's 155 x 86 mm.
        let seven = try #require(Viewing.diagonal(millimetres: 155, 86))
        #expect(abs(seven - 6.979) < 0.01, "\(seven)")
        #expect(Viewing.diagonal(millimetres: 0, 0) == nil)
        #expect(Viewing.diagonal(millimetres: 120, 0) == nil)
        #expect(Viewing.diagonal(millimetres: 900, 10) == nil, "a 90:1 'panel' is a broken EDID, not a panel")
    }

    @Test("the usual panel of a picture's size, and the usual distance by its class")
    func usual() {
        func d(_ w: Int, _ h: Int, _ shape: PanelShape = .rectangle) -> Double {
            Viewing.usualDiagonal(for: Size(width: w, height: h), shape: shape)
        }
        #expect(d(240, 240) == 1.3 && d(240, 240, .round) == 1.28 && d(320, 240) == 2.4 && d(240, 320) == 2.4)
        #expect(d(480, 480, .round) == 2.1 && d(800, 480) == 7 && d(720, 1280) == 7 && d(1280, 800) == 10.1)
        #expect(Viewing.usualDistance(diagonal: 1.3) == 50 && Viewing.usualDistance(diagonal: 2.4) == 60)
        #expect(Viewing.usualDistance(diagonal: 7) == 80 && Viewing.usualDistance(diagonal: 10.1) == 100)
        // Given wins over usual; the source says which.
        let given = Viewing(diagonal: 5, source: .display, distance: 200).resolved(for: Size(width: 800, height: 480), shape: .rectangle)
        #expect(given.diagonal == 5 && given.diagonalSource == .display && given.distance == 200 && given.distanceGiven)
        let assumed = Viewing().resolved(for: Size(width: 800, height: 480), shape: .rectangle)
        #expect(assumed.diagonal == 7 && assumed.diagonalSource == .assumed && assumed.distance == 80 && !assumed.distanceGiven)
    }

    @Test("20 arc minutes at 50 cm are 2.9 mm; the angle and the height go back and forth")
    func angle() {
        // 240x240 at 1.3": 339.4 pixels on 33.02 mm of diagonal, 10.28 to the millimetre.
        let v = Viewing().resolved(for: Size(width: 240, height: 240), shape: .rectangle)
        #expect(abs(v.pixelsPerMillimetre - 10.28) < 0.01, "\(v.pixelsPerMillimetre)")
        let px = v.pixels(arcMinutes: 20)
        #expect(abs(v.millimetres(px) - 2.909) < 0.005, "\(v.millimetres(px)) mm")
        #expect(abs(v.arcMinutes(px) - 20) < 1e-6)
        // Far: a 10" panel read from across a room.
        let far = Viewing(diagonal: 10.1, distance: 300).resolved(for: Size(width: 1280, height: 800), shape: .rectangle)
        #expect(abs(far.arcMinutes(far.pixels(arcMinutes: 12)) - 12) < 1e-6)
    }

    @Test("the type scale: text at 12′, figures at 20′ of capitals (Inter's 0.727 of the em), never under 12 px")
    func scale() {
        let small = TypeScale(size: Size(width: 240, height: 240), locale: .english)
        let v = small.viewing
        #expect(abs(v.arcMinutes(Double(small.floor * small.capRatio)) - 12) < 0.2, "floor \(small.floor)")
        #expect(abs(v.arcMinutes(Double(small.figure * small.capRatio)) - 20) < 0.2, "figure \(small.figure)")
        #expect(small.figure > 40 && small.figure < 42, "a 1.3\" panel's figure em is about 41 px: \(small.figure)")
        // A 7" 800x480 at 80 cm: larger ems in pixels are not needed.
        let seven = TypeScale(size: Size(width: 800, height: 480), locale: .english)
        #expect(seven.figure < small.figure)
        // Close up (a wrist at 20 cm): the pixel floor holds.
        let wrist = TypeScale(size: Size(width: 240, height: 240), locale: .english, viewing: Viewing(distance: 20))
        #expect(wrist.floor >= Legibility.pixelFloor)
        #expect(Legibility.isFigure("rings.figure.move.value") && Legibility.isFigure("gauge.3.value"))
        #expect(!Legibility.isFigure("gauge.3.title") && !Legibility.isFigure("rings.figure.move.unit"))
    }
}
