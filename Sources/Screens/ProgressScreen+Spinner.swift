import Raster

extension ProgressScreen {
    /// The spinner's positions in a turn: its angle is a multiple of 1/3600 turn (0.1°, a fifth of
    /// a pixel along the circle of a 480-pixel panel), so that at a steady frame rate its
    /// positions repeat exactly, turn after turn, and the frames of one turn can be kept.
    static let spinnerPositions = 3600.0

    /// The spinner's angle at `time`, in turns: its phase on the grid of `spinnerPositions`.
    static func spinnerPhase(_ time: Double) -> Double {
        quantized(phase(time, period: spinnerPeriod), positions: spinnerPositions)
    }

    /// `phase` (0..<1) on a grid of `positions` steps a turn: 0..<1 again.
    static func quantized(_ phase: Double, positions: Double) -> Double {
        let q = (phase * positions).rounded() / positions
        return q < 1 ? q : 0
    }

    /// The frame of a spinner drawn in part (`buffer` clipped to what changed): taken from the
    /// frames kept when the same part was drawn at the same position before, else drawn and kept.
    /// Everything in the part is drawn (it is filled black first), so the pixels kept are the
    /// pixels drawing would give, whatever the buffer held. Returns false when the frame is not
    /// one to keep (drawn whole, or a large part, a probe listening, another pixel format): the
    /// caller draws it.
    func drawKeptSpinner(into buffer: PixelBuffer, at time: Double) -> Bool {
        guard case .indeterminate = content.amount, context.probe == nil, buffer.format == .xrgb8888,
            buffer.stride > 0
        else { return false }
        let areas = buffer.drawnAreas
        var pixels = 0
        for r in areas { pixels += r.width * r.height }
        // A part of the picture, not all of it (a first frame, a buffer that missed frames).
        guard pixels > 0, pixels * 8 <= buffer.width * buffer.height else { return false }
        guard case .circle = layout(for: buffer.size).indicator else { return false }
        // The position's index on the grid: one small key (a frame's size is its layout's).
        let position = Int((Self.spinnerPhase(time) * Self.spinnerPositions).rounded())
        let frames = memo.spinner
        if frames.restore(position, size: buffer.size, areas: areas, into: buffer) { return true }
        drawWhole(into: buffer, at: time)
        frames.keep(position, size: buffer.size, areas: areas, pixels: pixels, from: buffer)
        return true
    }
}

/// The pixels of spinner frames drawn in part, by the spinner's position, with what was drawn
/// (the picture's size and the rectangles: a frame is taken only for the same ones). Kept with
/// the layout they were drawn with (the size, the content but its amount, the context:
/// `LayoutMemo`) and dropped with it; the colours and the geometry are the layout's. One frame a
/// position (a later one drawn in other rectangles takes its place), at most `maxBytes` of pixels
/// (the oldest frames dropped first): at a steady rate a turn's frames (30 or 60, a few
/// kilobytes each at 480x480) fit many times over.
final class SpinnerFrames {
    struct Frame {
        var size: Size
        var areas: [IntRect]
        var pixels: [UInt32]
    }

    /// At most this many bytes of pixels kept: 1 MiB.
    static let maxBytes = 1 << 20

    /// By position (0..<`ProgressScreen.spinnerPositions`): a small key, hashed once a frame.
    private var frames: [Int: Frame] = [:]
    /// Positions in the order kept (the oldest first).
    private var order: [Int] = []
    private var first = 0
    private(set) var bytes = 0
    /// Frames taken from those kept, and frames drawn and kept (for tests).
    private(set) var hits = 0
    private(set) var kept = 0

    var count: Int { frames.count }

    /// Drops every frame (the layout they were drawn with changed).
    func removeAll() {
        frames = [:]
        order = []
        first = 0
        bytes = 0
    }

    /// The frame of `position` copied into `buffer`'s areas, if one was kept drawn in the same.
    func restore(_ position: Int, size: Size, areas: [IntRect], into buffer: PixelBuffer) -> Bool {
        guard let frame = frames[position], frame.size == size, frame.areas == areas else { return false }
        frame.pixels.withUnsafeBytes { src in
            var offset = 0
            for r in areas {
                let rowBytes = r.width &* 4
                var dst = buffer.base + (r.y &* buffer.stride &+ r.x &* 4)
                for _ in 0..<r.height {
                    dst.copyMemory(from: src.baseAddress! + offset, byteCount: rowBytes)
                    offset &+= rowBytes
                    dst += buffer.stride
                }
            }
        }
        hits += 1
        return true
    }

    /// Keeps the pixels of `areas` of `buffer` (`pixels` of them) as `position`'s frame, the
    /// oldest frames dropped to make room.
    func keep(_ position: Int, size: Size, areas: [IntRect], pixels: Int, from buffer: PixelBuffer) {
        let bytesNeeded = pixels * 4
        guard bytesNeeded <= Self.maxBytes else { return }
        if let old = frames.removeValue(forKey: position) { bytes -= old.pixels.count * 4 }
        while bytes + bytesNeeded > Self.maxBytes, first < order.count {
            if let old = frames.removeValue(forKey: order[first]) { bytes -= old.pixels.count * 4 }
            first += 1
        }
        if first > 64 && first * 2 > order.count {
            order.removeFirst(first)
            first = 0
        }
        let copy = [UInt32](unsafeUninitializedCapacity: pixels) { dst, initialized in
            let raw = UnsafeMutableRawPointer(dst.baseAddress!)
            var offset = 0
            for r in areas {
                let rowBytes = r.width &* 4
                var src = UnsafeRawPointer(buffer.base + (r.y &* buffer.stride &+ r.x &* 4))
                for _ in 0..<r.height {
                    (raw + offset).copyMemory(from: src, byteCount: rowBytes)
                    offset &+= rowBytes
                    src += buffer.stride
                }
            }
            initialized = pixels
        }
        frames[position] = Frame(size: size, areas: areas, pixels: copy)
        order.append(position)
        bytes += bytesNeeded
        kept += 1
    }
}
