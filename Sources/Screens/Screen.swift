import Activity
import Raster

/// What every screen draws with: fonts, language, the panel's outline.
public struct ScreenContext {
    /// Draws text; nil draws every screen without its text (the benchmark's baseline).
    public var text: (any TextRenderer)?
    public var locale: AppLocale
    public var shape: PanelShape
    /// How large the panel is and how far away its viewer: the type's smallest sizes.
    public var viewing: Viewing
    /// Records what went where, for tests.
    public var probe: LayoutProbe?
    /// False lays text out (measured with `text`) without drawing its glyphs: the benchmark's way
    /// of pricing the labels on an otherwise identical frame.
    public var drawsText: Bool

    public init(
        text: (any TextRenderer)?, locale: AppLocale = .english, shape: PanelShape = .rectangle,
        viewing: Viewing = Viewing(), probe: LayoutProbe? = nil, drawsText: Bool = true
    ) {
        self.text = text
        self.locale = locale
        self.shape = shape
        self.viewing = viewing
        self.probe = probe
        self.drawsText = drawsText
    }

    public var strings: Strings { locale.strings }
}

/// Something the device shows: draws itself into a picture of any size, as a pure function of
/// its content and the time.
public protocol Screen {
    /// Draws the whole screen into `buffer` (XRGB8888, the picture's orientation) at `time`
    /// seconds on the animation clock. Every pixel within the buffer's clip is drawn (the
    /// background too), and a pixel comes out the same whatever the clip.
    func draw(into buffer: PixelBuffer, at time: Double)
    /// Whether the picture changes with time (the loop redraws on a timer only then).
    var animates: Bool { get }
    /// Where this screen at `time` can differ from `previous` at `previousTime`, in a picture of
    /// `size`: outside the damage the two pictures are the same pixel for pixel. nil when the
    /// screen cannot tell (another kind of screen, other content): then all of it is drawn.
    func changes(since previous: any Screen, at previousTime: Double, now time: Double, size: Size) -> Damage?
    /// Lays the screen out for a picture of `size` at `time` as `draw` does, drawing nothing, and
    /// records every line of text and shape into `probe` (`Explanation`). A screen that cannot
    /// say records nothing.
    func explain(into probe: LayoutProbe, size: Size, at time: Double)
    /// How many pages the screen has on a picture of `size` (where what it shows cannot be read
    /// on one: a small panel's rings and figures, a grid of gauges); 1 for most.
    func pageCount(for size: Size) -> Int
    /// The same screen showing `page` (0-based; past the last, the last).
    func showing(page: Int) -> Self
    /// The page shown.
    var page: Int { get }
}

extension Screen {
    public var animates: Bool { false }
    public func changes(since previous: any Screen, at previousTime: Double, now time: Double, size: Size) -> Damage? {
        nil
    }
    public func explain(into probe: LayoutProbe, size: Size, at time: Double) {}
    public func pageCount(for size: Size) -> Int { 1 }
    public func showing(page: Int) -> Self { self }
    public var page: Int { 0 }
}

/// A screen drawn over another (dimmed, the button hint, the refresh control): its pages are
/// those of the screen underneath.
public protocol OverlayScreen: Screen {
    var screen: any Screen { get set }
}

extension OverlayScreen {
    public func pageCount(for size: Size) -> Int { screen.pageCount(for: size) }
    public var page: Int { screen.page }
    public func showing(page: Int) -> Self {
        var copy = self
        copy.screen = screen.showing(page: page)
        return copy
    }
}

extension ScreenContext {
    /// Whether two contexts draw alike: the same fonts (the same renderer object), language,
    /// panel shape and text drawing.
    public func drawsLike(_ other: ScreenContext) -> Bool {
        laysOutLike(other) && drawsText == other.drawsText
    }

    /// Whether two contexts lay a screen out alike: the same fonts, language, panel shape and
    /// viewing (drawing the text or not moves nothing).
    func laysOutLike(_ other: ScreenContext) -> Bool {
        locale == other.locale && shape == other.shape && viewing == other.viewing
            && text.map(ObjectIdentifier.init) == other.text.map(ObjectIdentifier.init)
    }
}

/// Turns screens into panel frames: draws in place when the panel takes the picture as it is,
/// else into a picture buffer that is then turned and converted onto the panel.
///
/// With `shadow`, animation goes through a picture in memory even when the panel takes it as it
/// is: a frame that changed only in part draws that part into the picture, and a panel buffer is
/// brought up to date by copying from it. A flipping panel's back buffer, two frames behind, is
/// so copied the union of two changes instead of drawing it again, and animation's drawing
/// (whose edges blend over what is there) never reads a scanout buffer, which boards map
/// uncached. A frame drawn whole that is not part of an animation (a still screen, the first
/// frame after start) goes straight onto the panel; the picture is made when an animation first
/// needs it (then drawn whole once, if it missed frames), so a still screen costs neither its
/// memory nor a copy.
public struct FrameComposer {
    public let panel: Size
    public let rotation: Rotation
    public let format: PixelFormat
    /// The picture of a turned or converted panel, drawn every frame.
    private var picture: PixelBuffer?
    /// The shadow picture, when asked for.
    private let shadow: Shadow?

    /// A picture made on first need, and whether it holds the frame composed last.
    final class Shadow {
        var picture: PixelBuffer?
        var current = false
    }

    public init(panel: Size, rotation: Rotation = .none, format: PixelFormat = .xrgb8888, shadow: Bool = false) {
        self.panel = panel
        self.rotation = rotation
        self.format = format
        if rotation != .none || format != .xrgb8888 {
            let logical = rotation.logicalSize(forPanel: panel)
            picture = PixelBuffer(width: logical.width, height: logical.height)
        }
        self.shadow = shadow && picture == nil ? Shadow() : nil
    }

    /// Size of the picture screens draw (the panel's, turned by the rotation).
    public var pictureSize: Size { rotation.logicalSize(forPanel: panel) }

    /// Whether frames that change in part are drawn into a picture of the composer's own and
    /// copied onto the panel (a shadow, a turned or a converted panel), rather than drawn in place.
    public var drawsIntoPicture: Bool { picture != nil || shadow != nil }

    /// Draws `screen` at `time` onto `target` (a buffer of the panel's size and format); returns
    /// the damage.
    @discardableResult
    public func compose(_ screen: some Screen, into target: PixelBuffer, at time: Double = 0) -> IntRect {
        compose(screen, into: target, at: time, change: nil, redraw: nil).bounds
    }

    /// Draws `screen` at `time` onto `target`, but only within `redraw` (picture coordinates; nil:
    /// all of it): the rest of `target` keeps what it holds. `change` is where the picture differs
    /// from the one composed last (nil: anywhere); a turned or converted panel redraws that much
    /// of its picture, then copies `redraw` onto `target`. Returns the panel area written.
    ///
    /// `animating`: more frames of this animation follow (with a shadow, the frame goes through
    /// the picture even when drawn whole, so that the next ones find it there).
    @discardableResult
    public func compose(
        _ screen: some Screen, into target: PixelBuffer, at time: Double, change: Damage?, redraw: Damage?,
        animating: Bool = false
    ) -> Damage {
        precondition(target.size == panel && target.format == format,
            "compose: target is \(target.size) \(target.format), the panel \(panel) \(format)")
        let whole = IntRect(size: pictureSize)
        if let shadow {
            guard change != nil || animating else {
                // A still frame drawn whole: straight onto the panel; the picture no longer holds
                // the last frame.
                shadow.current = false
                Self.draw(screen, into: target, at: time, only: redraw)
                return redraw?.clipped(to: whole) ?? Damage(whole)
            }
            let picture = shadow.picture ?? PixelBuffer(width: whole.width, height: whole.height)
            shadow.picture = picture
            // The picture holds the last frame (then only the change is drawn) or is drawn whole.
            Self.draw(screen, into: picture, at: time, only: shadow.current ? change : nil)
            shadow.current = true
            return Self.copy(redraw?.clipped(to: whole) ?? Damage(whole), from: picture, onto: target, rotation: .none)
        }
        guard let picture else {
            Self.draw(screen, into: target, at: time, only: redraw)
            return redraw?.clipped(to: whole) ?? Damage(whole)
        }
        // The picture holds the last frame composed: what changed is drawn into it, what this
        // target needs is copied from it (a superset, for a buffer that missed frames).
        Self.draw(screen, into: picture, at: time, only: change)
        return Self.copy(redraw?.clipped(to: whole) ?? Damage(whole), from: picture, onto: target, rotation: rotation)
    }

    /// The rectangles of `area` of `picture` copied onto `target`, turned by `rotation`: the panel
    /// area written.
    static func copy(_ area: Damage, from picture: PixelBuffer, onto target: PixelBuffer, rotation: Rotation) -> Damage {
        var written = Damage()
        for r in area.rects { written.add(target.copy(from: picture, rotation: rotation, region: r)) }
        return written
    }

    /// `change` (picture coordinates; nil: all of it) on the panel.
    public func panelDamage(_ change: Damage?) -> Damage {
        guard let change else { return Damage(IntRect(size: panel)) }
        if rotation == .none { return change }
        return Damage(change.rects.map { rotation.panelRect($0, panel: panel) })
    }

    /// `screen` drawn into `buffer` within the rectangles of `area` (nil: the whole buffer), in
    /// one pass.
    static func draw(_ screen: some Screen, into buffer: PixelBuffer, at time: Double, only area: Damage?) {
        guard let area else {
            screen.draw(into: buffer, at: time)
            return
        }
        guard !area.isEmpty else { return }
        screen.draw(into: buffer.clipped(to: area), at: time)
    }

    /// A new panel buffer holding `screen` at `time`.
    public func render(_ screen: some Screen, at time: Double = 0) -> PixelBuffer {
        let target = PixelBuffer(width: panel.width, height: panel.height, format: format)
        compose(screen, into: target, at: time)
        return target
    }
}
