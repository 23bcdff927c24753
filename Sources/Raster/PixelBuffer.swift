/// Pixels in memory: width, height, a stride in bytes per row and a format.
///
/// Either owns its memory (`init(width:height:format:)`) or draws into memory someone else owns,
/// such as a mapped DRM dumb buffer with the driver's pitch (`init(wrapping:…)`). The drawing
/// primitives work on XRGB8888 buffers; an RGB565 buffer is the target of `copy(from:…)`, which
/// converts with ordered dithering.
public struct PixelBuffer {
    public let width: Int
    public let height: Int
    /// Bytes from the start of one row to the start of the next (at least width × bytes per pixel).
    public let stride: Int
    public let format: PixelFormat
    /// The first byte of row 0.
    public let base: UnsafeMutableRawPointer
    private let storage: Storage?
    /// What drawing into this buffer keeps between frames (the ring bands' row spans, colour
    /// tables); shared by copies of this value, which draw into the same pixels.
    let cache: DrawingCache
    /// Where drawing may change pixels: every primitive draws only here (the whole buffer unless
    /// `clipped(to:)`). What a screen draws inside it is what it draws there unclipped, so a frame
    /// can redraw only what changed.
    public let clip: IntRect
    /// When not nil, drawing changes pixels only in these rectangles (within `clip`, disjoint):
    /// a frame redrawing a few separate places in one pass.
    let region: Damage?

    private final class Storage {
        let memory: UnsafeMutableRawPointer
        init(bytes: Int) {
            memory = .allocate(byteCount: max(bytes, 1), alignment: 64)
            memory.initializeMemory(as: UInt8.self, repeating: 0, count: max(bytes, 1))
        }
        deinit { memory.deallocate() }
    }

    /// A zeroed (black) buffer of its own; rows are padded to a multiple of 64 bytes.
    public init(width: Int, height: Int, format: PixelFormat = .xrgb8888) {
        precondition(width > 0 && height > 0, "PixelBuffer \(width)x\(height): width and height must be positive")
        let rowBytes = (width * format.bytesPerPixel + 63) & ~63
        let storage = Storage(bytes: rowBytes * height)
        self.width = width
        self.height = height
        self.stride = rowBytes
        self.format = format
        self.base = storage.memory
        self.storage = storage
        cache = DrawingCache()
        clip = IntRect(x: 0, y: 0, width: width, height: height)
        region = nil
    }

    /// A view of memory owned elsewhere; the caller keeps it alive and mapped while this is used.
    public init(wrapping base: UnsafeMutableRawPointer, width: Int, height: Int, stride: Int, format: PixelFormat) {
        precondition(width > 0 && height > 0 && stride >= width * format.bytesPerPixel,
            "PixelBuffer \(width)x\(height) stride \(stride): stride too small for the width")
        self.width = width
        self.height = height
        self.stride = stride
        self.format = format
        self.base = base
        self.storage = nil
        cache = DrawingCache()
        clip = IntRect(x: 0, y: 0, width: width, height: height)
        region = nil
    }

    /// The same pixels, drawn only within `rect` (and the current clip).
    public func clipped(to rect: IntRect) -> PixelBuffer {
        let r = clip.intersection(rect)
        return PixelBuffer(self, clip: r, region: region.map { $0.clipped(to: r) })
    }

    /// The same pixels, drawn only within the rectangles of `area` (and the current clip): one
    /// drawing pass for several places.
    public func clipped(to area: Damage) -> PixelBuffer {
        var inside = area.clipped(to: clip)
        if let region {
            var both = Damage()
            for a in region.rects {
                for b in inside.rects { both.add(a.intersection(b)) }
            }
            inside = both
        }
        if inside.rects.count <= 1 { return PixelBuffer(self, clip: inside.bounds, region: nil) }
        return PixelBuffer(self, clip: inside.bounds, region: inside)
    }

    private init(_ other: PixelBuffer, clip: IntRect, region: Damage?) {
        width = other.width
        height = other.height
        stride = other.stride
        format = other.format
        base = other.base
        storage = other.storage
        cache = other.cache
        self.clip = clip
        self.region = region
    }

    /// The rectangles drawing may change, disjoint and within the buffer: the region's, or the
    /// clip alone (empty when nothing is drawn).
    public var drawnAreas: [IntRect] {
        if let region { return region.rects }
        return clip.isEmpty ? [] : [clip]
    }

    /// Calls `body` with each area to draw in: `clip` (if any) within the buffer's clip, one per
    /// rectangle of its region; none when empty.
    @inline(__always)
    func forEachArea(_ clip: IntRect?, _ body: (IntRect) -> Void) {
        let area = drawArea(clip)
        guard !area.isEmpty else { return }
        guard let region = region?.rects else {
            body(area)
            return
        }
        for r in region {
            let a = r.intersection(area)
            if !a.isEmpty { body(a) }
        }
    }

    /// Whether drawing within `rect` can change any pixel (it meets the clip, and one of the
    /// region's rectangles when there is a region).
    public func draws(in rect: IntRect) -> Bool {
        let r = rect.intersection(clip)
        guard !r.isEmpty else { return false }
        guard let region else { return true }
        return region.rects.contains { !$0.intersection(r).isEmpty }
    }

    /// A buffer of `size` that draws nothing (its clip is empty): for laying a screen out, with
    /// everything it would draw clipped away. It holds one row of pixels, `stride` 0.
    public static func measuring(_ size: Size) -> PixelBuffer {
        let row = PixelBuffer(width: max(1, size.width), height: 1)
        return PixelBuffer(measuring: row, size: size)
    }

    private init(measuring row: PixelBuffer, size: Size) {
        width = max(1, size.width)
        height = max(1, size.height)
        stride = 0
        format = .xrgb8888
        base = row.base
        storage = row.storage
        cache = row.cache
        clip = IntRect(x: 0, y: 0, width: 0, height: 0)
        region = nil
    }

    public var size: Size { Size(width: width, height: height) }
    public var bounds: IntRect { IntRect(x: 0, y: 0, width: width, height: height) }

    /// Row `y` of an XRGB8888 buffer.
    @inlinable @inline(__always)
    public func row32(_ y: Int) -> UnsafeMutablePointer<UInt32> {
        (base + y &* stride).assumingMemoryBound(to: UInt32.self)
    }

    /// Row `y` of an RGB565 buffer.
    @inlinable @inline(__always)
    public func row16(_ y: Int) -> UnsafeMutablePointer<UInt16> {
        (base + y &* stride).assumingMemoryBound(to: UInt16.self)
    }

    /// The colour of pixel (x, y), whatever the format (RGB565 is widened by bit replication).
    public func color(x: Int, y: Int) -> Color {
        precondition(x >= 0 && x < width && y >= 0 && y < height, "pixel (\(x), \(y)) outside \(size)")
        switch format {
        case .xrgb8888:
            return Color(xrgb: row32(y)[x])
        case .rgb565:
            return Self.widen565(row16(y)[x])
        }
    }

    /// An RGB565 value widened to 8 bits per channel by bit replication.
    @inlinable public static func widen565(_ v: UInt16) -> Color {
        let r = UInt8(truncatingIfNeeded: v >> 11), g = UInt8(truncatingIfNeeded: (v >> 5) & 63)
        let b = UInt8(truncatingIfNeeded: v & 31)
        return Color(red: r << 3 | r >> 2, green: g << 2 | g >> 4, blue: b << 3 | b >> 2)
    }
}
