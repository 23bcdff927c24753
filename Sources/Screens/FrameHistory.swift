import Raster

/// Which part of a drawing buffer a frame must draw: everything that changed in the frames since
/// that buffer last held one. A single buffer (or a PNG file's) is one frame behind and redraws
/// the last change; a double-buffered panel's back buffer is two behind and redraws the union of
/// the last two; a buffer not seen before, or one that missed more frames than are remembered,
/// is drawn whole.
///
/// Pure: the session says which buffer it draws into and what changed; buffers are told apart
/// by where their pixels are.
public struct FrameHistory: Sendable {
    /// Frames recorded.
    public private(set) var frame = 0
    /// The changes of the last frames, oldest first (nil: all of the picture).
    private var changes: [Damage?] = []
    /// The frame each buffer holds, by its pixels' address: the buffers seen within the last
    /// `depth` frames (one further behind is drawn whole anyway), so a few, searched in turn.
    /// A buffer and the frame it last held. (A struct, not a tuple: an array of tuples brings the
    /// runtime's tuple metadata code into the first frame, docs/speed.md.)
    private struct Held {
        let buffer: UInt
        var frame: Int
    }
    private var held: [Held] = []
    /// How many frames back a buffer may be and still be brought up to date by parts.
    public static let depth = 3

    public init() {}

    /// A buffer's key: the address of its pixels.
    public static func key(_ buffer: PixelBuffer) -> UInt { UInt(bitPattern: buffer.base) }

    /// Records a frame drawn into `buffer` whose picture differs from the previous frame's by
    /// `change` (nil: anywhere), and returns what of `buffer` it must draw (nil: all of it).
    public mutating func redraw(buffer: UInt, change: Damage?) -> Damage? {
        frame += 1
        if changes.count == Self.depth { changes.removeFirst() }
        changes.append(change)
        // The buffer's frame, and the buffers too far behind to be brought up to date forgotten.
        var last: Int?
        var i = 0
        while i < held.count {
            if held[i].buffer == buffer {
                last = held[i].frame
                held[i].frame = frame
            } else if frame - held[i].frame > Self.depth {
                held.remove(at: i)
                continue
            }
            i += 1
        }
        guard let last else {
            held.append(Held(buffer: buffer, frame: frame))
            return nil
        }
        let behind = frame - last
        guard behind >= 1, behind <= changes.count else { return nil }
        // One frame behind (a single buffer): the last change as it is.
        guard var area = changes[changes.count - behind] else { return nil }
        for c in changes[(changes.count - behind + 1)...] {
            guard let c else { return nil }
            area.formUnion(c)
        }
        return area
    }

    /// What every buffer holds is unknown from now on (the panel was given up and taken back):
    /// each is drawn whole next time.
    public mutating func forget() { held = [] }
}

/// The damage path of a sequence of frames: each frame's changes asked of its screen, drawn only
/// where its buffer differs, and what changed on the panel. What the session runs, and what
/// `glance bench --animated` measures.
public struct FramePainter {
    public let composer: FrameComposer
    private var history = FrameHistory()
    /// The last frame's screen and time (kept apart: a tuple of an existential and a number is
    /// copied through generic value witnesses, each frame).
    private var previous: (any Screen)?
    private var previousTime = 0.0

    public init(composer: FrameComposer) { self.composer = composer }

    /// One frame: what changed in the picture (nil: all of it), what was drawn into the buffer
    /// (nil: all of it), and what changed on the panel.
    public struct Frame {
        public var change: Damage?
        public var redraw: Damage?
        public var panel: Damage
    }

    /// Draws `screen` at `time` into `target`, only where `target` differs from it (what changed
    /// since the frame `target` holds); `keepsFrames` false draws it whole. `animating`: more
    /// frames of an animation follow (see `FrameComposer.compose`).
    public mutating func paint(
        _ screen: any Screen, at time: Double, into target: PixelBuffer, keepsFrames: Bool = true, animating: Bool = false
    ) -> Frame {
        let picture = IntRect(size: composer.pictureSize)
        var change: Damage?
        if let previous {
            change = screen.changes(since: previous, at: previousTime, now: time, size: composer.pictureSize)?.clipped(to: picture)
        }
        let redraw = history.redraw(buffer: FrameHistory.key(target), change: keepsFrames ? change : nil)
        composer.compose(
            screen, into: target, at: time, change: change, redraw: keepsFrames ? redraw : nil, animating: animating)
        previous = screen
        previousTime = time
        return Frame(change: change, redraw: redraw, panel: composer.panelDamage(change))
    }

    /// Every buffer is drawn whole next time (its pixels are not known any more).
    public mutating func forget() { history.forget() }
}
