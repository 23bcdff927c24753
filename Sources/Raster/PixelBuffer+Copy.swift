extension PixelBuffer {
    /// 4×4 Bayer thresholds for ordered dithering.
    @usableFromInline static let bayer4: [UInt32] = [0, 8, 2, 10, 12, 4, 14, 6, 3, 11, 1, 9, 15, 7, 13, 5]

    /// Copies the XRGB8888 picture `source` onto this buffer turned by `rotation`, converting to this
    /// buffer's format (RGB565 with ordered dithering).
    ///
    /// `region` is the part of the picture to copy (default: all of it); this buffer's size must be
    /// the picture's size turned by `rotation`. Returns the panel rectangle written (for damage).
    @discardableResult
    public func copy(from source: PixelBuffer, rotation: Rotation = .none, region: IntRect? = nil) -> IntRect {
        precondition(source.format == .xrgb8888, "copy(from:) reads XRGB8888 pictures")
        precondition(
            rotation.logicalSize(forPanel: size) == source.size,
            "copy(from:): a \(source.size) picture turned \(rotation.degrees)° does not fill a \(size) panel")
        let r = (region ?? source.bounds).intersection(source.bounds)
        guard !r.isEmpty else { return IntRect(x: 0, y: 0, width: 0, height: 0) }
        if rotation == .none && format == .xrgb8888 {
            // The same pixels in the same place: a row copy each (a frame's damage, many times
            // a second).
            var src = UnsafeRawPointer(source.row32(r.y) + r.x)
            var dst = base + (r.y &* stride &+ r.x &* 4)
            for _ in 0..<r.height {
                dst.copyMemory(from: src, byteCount: r.width &* 4)
                src += source.stride
                dst += stride
            }
            return r
        }
        // Where the picture's pixel (r.x, y) lands and how far one step right in the picture moves.
        let bpp = format.bytesPerPixel
        let step: Int
        switch rotation {
        case .none: step = bpp
        case .quarter: step = stride
        case .half: step = -bpp
        case .threeQuarters: step = -stride
        }
        let dither = format == .rgb565
        for y in r.y..<r.maxY {
            let src = source.row32(y) + r.x
            let p0 = rotation.panelPoint(x: r.x, y: y, panel: size)
            var dst = base + (p0.y &* stride &+ p0.x &* bpp)
            var px = p0.x, py = p0.y
            let (sx, sy): (Int, Int)
            switch rotation {
            case .none: (sx, sy) = (1, 0)
            case .quarter: (sx, sy) = (0, 1)
            case .half: (sx, sy) = (-1, 0)
            case .threeQuarters: (sx, sy) = (0, -1)
            }
            for i in 0..<r.width {
                let c = src[i]
                if dither {
                    dst.assumingMemoryBound(to: UInt16.self).pointee = Self.rgb565(c, x: px, y: py)
                } else {
                    dst.assumingMemoryBound(to: UInt32.self).pointee = c
                }
                dst += step
                px &+= sx
                py &+= sy
            }
        }
        return rotation.panelRect(r, panel: size)
    }

    /// An XRGB8888 colour as RGB565, dithered by its position on the panel.
    @inlinable @inline(__always)
    public static func rgb565(_ c: UInt32, x: Int, y: Int) -> UInt16 {
        let t = bayer4[(y & 3) << 2 | (x & 3)] * 2 + 1  // threshold (t / 32) of a level
        // floor(c · (levels − 1) / 255 + t / 32), in integers.
        let r = (((c >> 16) & 0xFF) * 31 * 32 + t * 255) / (255 * 32)
        let g = (((c >> 8) & 0xFF) * 63 * 32 + t * 255) / (255 * 32)
        let b = ((c & 0xFF) * 31 * 32 + t * 255) / (255 * 32)
        return UInt16(r << 11 | g << 5 | b)
    }
}

extension PixelBuffer {
    /// The picture this panel buffer shows, as a person sees it: turned back by `rotation` (the
    /// inverse of `copy(from:rotation:)`) and in XRGB8888 (RGB565 widened by bit replication, as
    /// `color(x:y:)` reads it). What a screenshot of the panel is.
    public func upright(rotation: Rotation = .none) -> PixelBuffer {
        let size = rotation.logicalSize(forPanel: self.size)
        let picture = PixelBuffer(width: size.width, height: size.height)
        let bpp = format.bytesPerPixel
        // One step right in the picture, on the panel.
        let step: Int
        switch rotation {
        case .none: step = bpp
        case .quarter: step = stride
        case .half: step = -bpp
        case .threeQuarters: step = -stride
        }
        for y in 0..<size.height {
            let row = picture.row32(y)
            let p0 = rotation.panelPoint(x: 0, y: y, panel: self.size)
            var src = UnsafeRawPointer(base + (p0.y &* stride &+ p0.x &* bpp))
            switch format {
            case .xrgb8888:
                if rotation == .none {
                    row.update(from: src.assumingMemoryBound(to: UInt32.self), count: size.width)
                    continue
                }
                for x in 0..<size.width {
                    row[x] = src.load(as: UInt32.self) & 0xFF_FFFF
                    src += step
                }
            case .rgb565:
                for x in 0..<size.width {
                    row[x] = Self.widen565(src.load(as: UInt16.self)).xrgb
                    src += step
                }
            }
        }
        return picture
    }
}
