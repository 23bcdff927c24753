extension PixelBuffer {
    /// Every pixel set to `color`.
    public func fill(_ color: Color) {
        fill(bounds, with: color)
    }

    /// The pixels of `rect` (within the clip) set to `color`, in this buffer's format.
    public func fill(_ rect: IntRect, with color: Color) {
        forEachArea(rect) { r in
            switch format {
            case .xrgb8888:
                let value = color.xrgb
                if r.x == 0 && r.width == width && stride == width &* 4 {
                    // Whole rows one after the other in memory: one run (a full frame's
                    // background: 14 K instructions less than row by row at 480x480).
                    fillRow32(row32(r.y), count: r.width &* r.height, value: value)
                } else {
                    for y in r.y..<r.maxY { fillRow32(row32(y) + r.x, count: r.width, value: value) }
                }
            case .rgb565:
                let value = UInt16(color.red >> 3) << 11 | UInt16(color.green >> 2) << 5 | UInt16(color.blue >> 3)
                for y in r.y..<r.maxY { (row16(y) + r.x).update(repeating: value, count: r.width) }
            }
        }
    }

    /// Blends `color` over pixel (x, y) with coverage 0...1 (XRGB8888; outside pixels are ignored).
    public func blend(x: Int, y: Int, color: Color, coverage: Float) {
        guard format == .xrgb8888, x >= clip.x, y >= clip.y, x < clip.maxX, y < clip.maxY, coverage > 0,
            region?.contains(x: x, y: y) ?? true
        else { return }
        let p = row32(y) + x
        p.pointee = Raster.blend(color.xrgb, over: p.pointee, alpha: alpha256(coverage))
    }

    /// The area to draw in: the clip given (if any) within the buffer's clip.
    @usableFromInline
    func drawArea(_ clip: IntRect?) -> IntRect {
        clip.map { $0.intersection(self.clip) } ?? self.clip
    }
}

/// Stores `value` into `count` pixels, sixteen bytes at a time once aligned; the first and last
/// four pixels of a run of four or more as unaligned stores over the aligned ones (the same value
/// stored twice), so no run goes pixel by pixel.
@inlinable @inline(__always)
func fillRow32(_ start: UnsafeMutablePointer<UInt32>, count: Int, value: UInt32) {
    guard count >= 4 else {
        for i in 0..<max(count, 0) { start[i] = value }
        return
    }
    let v = SIMD4<UInt32>(repeating: value)
    // The first four, then on from the next sixteen-byte boundary.
    UnsafeMutableRawPointer(start).storeBytes(of: v, as: SIMD4<UInt32>.self)
    let ahead = 4 &- Int((UInt(bitPattern: start) & 15) >> 2)
    var n = count &- ahead
    var raw = UnsafeMutableRawPointer(start + ahead)
    // Sixty-four at a time: sixteen stores and three instructions of loop.
    while n >= 64 {
        for k in 0..<16 { raw.storeBytes(of: v, toByteOffset: k &* 16, as: SIMD4<UInt32>.self) }
        raw += 256
        n &-= 64
    }
    if n >= 32 {
        raw.storeBytes(of: v, as: SIMD4<UInt32>.self)
        raw.storeBytes(of: v, toByteOffset: 16, as: SIMD4<UInt32>.self)
        raw.storeBytes(of: v, toByteOffset: 32, as: SIMD4<UInt32>.self)
        raw.storeBytes(of: v, toByteOffset: 48, as: SIMD4<UInt32>.self)
        raw.storeBytes(of: v, toByteOffset: 64, as: SIMD4<UInt32>.self)
        raw.storeBytes(of: v, toByteOffset: 80, as: SIMD4<UInt32>.self)
        raw.storeBytes(of: v, toByteOffset: 96, as: SIMD4<UInt32>.self)
        raw.storeBytes(of: v, toByteOffset: 112, as: SIMD4<UInt32>.self)
        raw += 128
        n &-= 32
    }
    // The rest (a short run is mostly rest): sixteen, eight, then four at a time, unrolled (a
    // loop of fours costs a ring frame 20 K instructions more).
    if n >= 16 {
        raw.storeBytes(of: v, as: SIMD4<UInt32>.self)
        raw.storeBytes(of: v, toByteOffset: 16, as: SIMD4<UInt32>.self)
        raw.storeBytes(of: v, toByteOffset: 32, as: SIMD4<UInt32>.self)
        raw.storeBytes(of: v, toByteOffset: 48, as: SIMD4<UInt32>.self)
        raw += 64
        n &-= 16
    }
    if n >= 8 {
        raw.storeBytes(of: v, as: SIMD4<UInt32>.self)
        raw.storeBytes(of: v, toByteOffset: 16, as: SIMD4<UInt32>.self)
        raw += 32
        n &-= 8
    }
    if n >= 4 {
        raw.storeBytes(of: v, as: SIMD4<UInt32>.self)
        n &-= 4
    }
    // The last one to three pixels: the run's last four.
    if n > 0 { UnsafeMutableRawPointer(start + (count &- 4)).storeBytes(of: v, as: SIMD4<UInt32>.self) }
}

extension PixelBuffer {
    /// Every pixel (within the clip) of an XRGB8888 buffer at `factor` (0...1) of its brightness
    /// (dimming).
    public func scaleBrightness(_ factor: Float) {
        guard format == .xrgb8888 else { return }
        let a = alpha256(factor)
        guard a < 256 else { return }
        forEachArea(nil) { r in
            for y in r.y..<r.maxY {
                let row = row32(y)
                for x in r.x..<r.maxX { row[x] = scale(row[x], by: a) }
            }
        }
    }
}
