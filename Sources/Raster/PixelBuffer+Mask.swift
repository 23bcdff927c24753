extension PixelBuffer {
    /// Blends `color` through an 8-bit coverage mask (a glyph, an icon) whose top-left pixel lands
    /// at (x, y); rows of the mask are `pitch` bytes apart. XRGB8888 buffers only.
    public func fillMask(
        _ mask: UnsafePointer<UInt8>, width: Int, height: Int, pitch: Int, x: Int, y: Int, color: Color,
        clip: IntRect? = nil
    ) {
        guard format == .xrgb8888, width > 0, height > 0 else { return }
        let c = color.xrgb
        forEachArea(drawArea(clip).intersection(IntRect(x: x, y: y, width: width, height: height))) { area in
        for row in area.y..<area.maxY {
            let src = mask + (row - y) * pitch - x
            let dst = row32(row)
            for col in area.x..<area.maxX {
                let a = UInt32(src[col])
                guard a != 0 else { continue }
                dst[col] = a == 255 ? c : Raster.blend(c, over: dst[col], alpha: a + (a >> 7))
            }
        }
        }
    }
}
