import Testing

@testable import Raster

@Suite("A panel buffer read back upright (screenshots)", .timeLimit(.minutes(10)))
struct UprightTests {
    /// A picture where every pixel differs: position coded in the colour.
    static func picture(_ size: Size) -> PixelBuffer {
        let p = PixelBuffer(width: size.width, height: size.height)
        for y in 0..<size.height {
            for x in 0..<size.width { p.row32(y)[x] = UInt32(x & 0xFF) << 16 | UInt32(y & 0xFF) << 8 | UInt32((x * 7 + y * 3) & 0xFF) }
        }
        return p
    }

    @Test("turned onto the panel and back: the same picture, for every rotation", arguments: Rotation.allCases)
    func roundTrip(rotation: Rotation) {
        let picture = Self.picture(Size(width: 37, height: 23))
        let panelSize = rotation.logicalSize(forPanel: picture.size)  // a quarter turn is its own size swap
        let panel = PixelBuffer(width: panelSize.width, height: panelSize.height)
        panel.copy(from: picture, rotation: rotation)
        let back = panel.upright(rotation: rotation)
        #expect(back.size == picture.size)
        var differing = 0
        for y in 0..<picture.height {
            for x in 0..<picture.width where back.row32(y)[x] & 0xFF_FFFF != picture.row32(y)[x] { differing += 1 }
        }
        #expect(differing == 0, "\(differing) pixels differ after \(rotation.degrees)°")
    }

    @Test("an RGB565 panel reads back widened, each pixel as color(x:y:) reads it on the panel", arguments: Rotation.allCases)
    func rgb565(rotation: Rotation) {
        let picture = Self.picture(Size(width: 20, height: 12))
        let panelSize = rotation.logicalSize(forPanel: picture.size)
        let panel = PixelBuffer(width: panelSize.width, height: panelSize.height, format: .rgb565)
        panel.copy(from: picture, rotation: rotation)
        let back = panel.upright(rotation: rotation)
        for y in 0..<picture.height {
            for x in 0..<picture.width {
                let p = rotation.panelPoint(x: x, y: y, panel: panel.size)
                #expect(back.color(x: x, y: y) == panel.color(x: p.x, y: p.y))
                // Within one RGB565 step of what was drawn.
                let a = back.color(x: x, y: y), b = Color(xrgb: picture.row32(y)[x])
                #expect(abs(Int(a.red) - Int(b.red)) <= 8 && abs(Int(a.green) - Int(b.green)) <= 4 && abs(Int(a.blue) - Int(b.blue)) <= 8)
            }
        }
    }
}
