import Testing

@testable import Raster

@Suite("Pixel buffers: stride, clipping, formats", .timeLimit(.minutes(10)))
struct PixelBufferTests {
    @Test("drawing respects the stride: padding bytes between rows are never written")
    func strideRespected() {
        let width = 37, height = 29, stride = 37 * 4 + 52
        let memory = UnsafeMutableRawPointer.allocate(byteCount: stride * height, alignment: 16)
        defer { memory.deallocate() }
        memory.initializeMemory(as: UInt8.self, repeating: 0xA5, count: stride * height)
        let buffer = PixelBuffer(wrapping: memory, width: width, height: height, stride: stride, format: .xrgb8888)
        buffer.fill(.black)
        buffer.stroke(ArcStroke(center: Point(x: 18.5, y: 14.5), radius: 11, width: 4, sweep: 1.3,
                                paint: .ramp(.white, Color(hex: 0x00FF00)), track: Color(hex: 0x202020),
                                shadow: ArcShadow(opacity: 0.6, offset: 0.1, blur: 0.33)))
        buffer.fillDisc(center: Point(x: 36, y: 2), radius: 5, color: .white)
        buffer.fillRoundedRect(Rect(x: -3, y: 20, width: 50, height: 12), radius: 4, color: .white)
        for y in 0..<height {
            let padding = (memory + y * stride + width * 4).assumingMemoryBound(to: UInt8.self)
            for i in 0..<(stride - width * 4) {
                #expect(padding[i] == 0xA5, "row \(y) padding byte \(i)")
            }
        }
        #expect(buffer.color(x: 18, y: 4) != .black)  // it did draw
    }

    @Test("arcs with absurd sizes or places (NaN, huge radius, far centre) draw nothing and do not trap")
    func absurdArcs() {
        let buffer = PixelBuffer(width: 16, height: 16)
        buffer.fill(.black)
        for (center, radius, width) in [
            (Point(x: 8, y: 8), Float.nan, Float(2)), (Point(x: 8, y: 8), Float(1e19), Float(2)),
            (Point(x: 8, y: 8), Float(4), Float.infinity), (Point(x: 1e30, y: 8), Float(4), Float(2)),
            (Point(x: 8, y: -1e20), Float(4), Float(2)),
        ] {
            buffer.stroke(ArcStroke(center: center, radius: radius, width: width, sweep: 1, paint: .solid(.white)))
        }
        for y in 0..<16 { for x in 0..<16 { #expect(buffer.color(x: x, y: y) == .black) } }
    }

    @Test("a clip rectangle keeps drawing inside it")
    func clip() {
        let buffer = PixelBuffer(width: 40, height: 40)
        buffer.fill(Color(hex: 0x123456))
        let clip = IntRect(x: 10, y: 5, width: 15, height: 20)
        buffer.stroke(ArcStroke(center: Point(x: 20, y: 20), radius: 14, width: 6, sweep: 0.8, paint: .solid(.white),
                                track: .white), clip: clip)
        buffer.fillDisc(center: Point(x: 20, y: 20), radius: 30, color: .white, clip: clip)
        for y in 0..<40 {
            for x in 0..<40 {
                let inside = x >= 10 && x < 25 && y >= 5 && y < 25
                #expect((buffer.color(x: x, y: y) == Color(hex: 0x123456)) != inside, "(\(x), \(y))")
            }
        }
    }

    @Test("fill covers exactly the rectangle, in both formats")
    func fillRect() {
        for format in PixelFormat.allCases {
            let b = PixelBuffer(width: 70, height: 9, format: format)
            b.fill(IntRect(x: 3, y: 2, width: 61, height: 5), with: .white)
            for y in 0..<9 {
                for x in 0..<70 {
                    let inside = x >= 3 && x < 64 && y >= 2 && y < 7
                    #expect(b.color(x: x, y: y) == (inside ? .white : .black))
                }
            }
        }
    }

    @Test("DRM fourcc codes")
    func fourCC() {
        #expect(PixelFormat.xrgb8888.fourCC == 0x3432_5258)  // 'XR24'
        #expect(PixelFormat.rgb565.fourCC == 0x3631_4752)  // 'RG16'
        #expect(PixelFormat(fourCC: 0x3631_4752) == .rgb565)
        #expect(PixelFormat(fourCC: 0x1234) == nil)
    }
}

@Suite("Blending", .timeLimit(.minutes(10)))
struct BlendTests {
    @Test("alpha 0 keeps the destination, 256 gives the source, halves mix")
    func endpoints() {
        #expect(blend(0xFF_80_40, over: 0x10_20_30, alpha: 0) == 0x10_20_30)
        #expect(blend(0xFF_80_40, over: 0x10_20_30, alpha: 256) == 0xFF_80_40)
        let half = Color(xrgb: blend(0xFF_FF_FF, over: 0, alpha: 128))
        #expect(half == Color(red: 127, green: 127, blue: 127) || half == Color(red: 128, green: 128, blue: 128))
    }

    @Test("coverage maps to alpha with rounding and clamping")
    func alpha() {
        #expect(alpha256(0) == 0)
        #expect(alpha256(1) == 256)
        #expect(alpha256(0.5) == 128)
        #expect(alpha256(-0.2) == 0)
        #expect(alpha256(1.7) == 256)
    }
}

@Suite("Rotation and RGB565", .timeLimit(.minutes(10)))
struct CopyTests {
    @Test("every rotation puts each picture pixel where the panel expects it", arguments: Rotation.allCases)
    func rotations(rotation: Rotation) {
        let panel = Size(width: 7, height: 4)
        let logical = rotation.logicalSize(forPanel: panel)
        let picture = PixelBuffer(width: logical.width, height: logical.height)
        for y in 0..<logical.height {
            for x in 0..<logical.width { picture.row32(y)[x] = UInt32(y * 100 + x) }
        }
        let target = PixelBuffer(width: panel.width, height: panel.height)
        let damage = target.copy(from: picture, rotation: rotation)
        #expect(damage == target.bounds)
        for y in 0..<logical.height {
            for x in 0..<logical.width {
                let p = rotation.panelPoint(x: x, y: y, panel: panel)
                #expect(target.row32(p.y)[p.x] == UInt32(y * 100 + x))
            }
        }
        // A quarter turn clockwise puts the picture's top-left corner at the panel's top-right.
        if rotation == .quarter { #expect(rotation.panelPoint(x: 0, y: 0, panel: panel) == (6, 0)) }
    }

    @Test("a region copies only that region and reports it in panel coordinates", arguments: Rotation.allCases)
    func regions(rotation: Rotation) {
        let panel = Size(width: 12, height: 8)
        let logical = rotation.logicalSize(forPanel: panel)
        let picture = PixelBuffer(width: logical.width, height: logical.height)
        picture.fill(.white)
        let target = PixelBuffer(width: panel.width, height: panel.height)
        let region = IntRect(x: 1, y: 2, width: 3, height: 4)
        let damage = target.copy(from: picture, rotation: rotation, region: region)
        var written = IntRect(x: 0, y: 0, width: 0, height: 0)
        for y in 0..<panel.height {
            for x in 0..<panel.width where target.color(x: x, y: y) == .white {
                written = written.union(IntRect(x: x, y: y, width: 1, height: 1))
            }
        }
        #expect(written == damage)
        #expect(damage.width * damage.height == 12)
    }

    @Test("RGB565: white and black convert exactly; dithering keeps the average")
    func dithering() {
        #expect(PixelBuffer.rgb565(0xFF_FFFF, x: 3, y: 3) == 0xFFFF)
        #expect(PixelBuffer.rgb565(0, x: 0, y: 0) == 0)
        // A level between two 5-bit steps: the 4×4 pattern averages to it within 1/16 of a step.
        for value: UInt32 in [3, 100, 130, 201, 250] {
            var sum = 0.0
            for y in 0..<4 {
                for x in 0..<4 { sum += Double(PixelBuffer.rgb565(value << 16, x: x, y: y) >> 11) }
            }
            let mean = sum / 16, ideal = Double(value) * 31 / 255
            #expect(abs(mean - ideal) <= 1.0 / 16 + 1e-9, "red \(value): mean \(mean), ideal \(ideal)")
        }
    }

    @Test("an RGB565 panel shows the picture within one 565 step")
    func rgb565Panel() {
        let picture = PixelBuffer(width: 40, height: 30)
        picture.stroke(ArcStroke(center: Point(x: 20, y: 15), radius: 11, width: 5, sweep: 0.7,
                                 paint: .ramp(Color(hex: 0xE10014), Color(hex: 0xFF3287)), track: Color(hex: 0x2D0004)))
        let panel = PixelBuffer(width: 40, height: 30, format: .rgb565)
        panel.copy(from: picture)
        for y in 0..<30 {
            for x in 0..<40 {
                let a = picture.color(x: x, y: y), b = panel.color(x: x, y: y)
                #expect(abs(Int(a.red) - Int(b.red)) <= 8 && abs(Int(a.green) - Int(b.green)) <= 4
                    && abs(Int(a.blue) - Int(b.blue)) <= 8, "(\(x), \(y)): \(a) vs \(b)")
            }
        }
    }
}

extension PixelBufferTests {
    @Test("a run fill stores exactly its pixels, whatever its length and alignment")
    func fillRun() {
        let guardValue: UInt32 = 0xDEAD_BEEF
        let value: UInt32 = 0x0012_3456
        var memory = [UInt32](repeating: guardValue, count: 160)
        memory.withUnsafeMutableBufferPointer { all in
            let base = all.baseAddress!
            for offset in 0..<8 {
                for count in 0..<100 {
                    for i in 0..<all.count { all[i] = guardValue }
                    fillRow32(base + 16 + offset, count: count, value: value)
                    let wrong = (0..<all.count).first { i in
                        all[i] != (i >= 16 + offset && i < 16 + offset + count ? value : guardValue)
                    }
                    #expect(wrong == nil, "offset \(offset), count \(count): pixel \(wrong ?? 0)")
                    if wrong != nil { return }
                }
            }
        }
    }
}
