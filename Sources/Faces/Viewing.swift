import Raster

/// How large the panel is and how far from it its viewer's eyes are: what legibility depends on.
/// A figure is read by the angle it makes at the eye (its capitals' height over the distance), not
/// by its pixels: 40 pixels on a 1.3" panel at 261 pixels to the inch are 3.9 mm; the same on a 7"
/// panel at 133 are 7.6 mm.
///
/// Both are optional: what is not given is assumed from the picture (`resolved(for:shape:)`).
public struct Viewing: Sendable, Hashable {
    /// The visible area's diagonal in inches (a round panel's diameter); nil: unknown.
    public var diagonal: Double?
    /// Where the diagonal came from when given (the display's own size from DRM, or a setting).
    public var diagonalSource: Source
    /// The distance from the eye to the panel in centimetres; nil: the usual one for the panel's
    /// size (`usualDistance`).
    public var distance: Double?

    public enum Source: String, Sendable, Hashable {
        /// `display.diagonal` or `--diagonal`.
        case setting
        /// The connector's width and height in millimetres (DRM's `mmWidth`/`mmHeight`; for an
        /// SPI panel the mipi-dbi overlay's `width-mm`/`height-mm`).
        case display
        /// Neither: the usual panel of the picture's size (`usualDiagonal`).
        case assumed
    }

    public init(diagonal: Double? = nil, source: Source = .setting, distance: Double? = nil) {
        self.diagonal = diagonal
        diagonalSource = diagonal == nil ? .assumed : source
        self.distance = distance
    }

    /// The diagonal of a display of `width` × `height` millimetres, in inches; nil when either is
    /// unknown (DRM says 0) or the two are not a plausible panel (an aspect past 1:8).
    public static func diagonal(millimetres width: Int, _ height: Int) -> Double? {
        guard width > 0, height > 0, width <= 8 * height, height <= 8 * width else { return nil }
        let w = Double(width), h = Double(height)
        return (w * w + h * h).squareRoot() / 25.4
    }

    /// The size of the usual panel of a picture of `size`, in inches: the panels Glance is used on
    /// (a 1.3" ST7789 240x240, a 1.28" GC9A01 round 240, a 2.4" ILI9341 320x240, a 3.5" 480x320,
    /// a 4" 480x480 or 720x720 square, the 2.1" HyperPixel round 480, the 7" panels of 800x480,
    /// 1024x600 and 720x1280, a 10.1" 1280x800); any other size at a density of its class (160
    /// pixels to the inch up to a short side of 480, 130 up to 800, 96 beyond: a monitor).
    public static func usualDiagonal(for size: Size, shape: PanelShape) -> Double {
        let long = max(size.width, size.height), short = min(size.width, size.height)
        switch (long, short, shape) {
        case (240, 240, .round): return 1.28
        case (240, 240, _): return 1.3
        case (320, 240, _): return 2.4
        case (480, 320, _): return 3.5
        case (480, 480, .round): return 2.1
        case (480, 480, _), (720, 720, _): return 4
        case (800, 480, _), (1024, 600, _), (1280, 720, _): return 7
        case (1280, 800, _): return 10.1
        default:
            let ppi: Double = short <= 480 ? 160 : short <= 800 ? 130 : 96
            let diagonalPixels = shape == .round ? Double(short) : Self.pixelDiagonal(size)
            return diagonalPixels / ppi
        }
    }

    /// How far people usually are from a panel of `diagonal` inches, in centimetres: under 2"
    /// (a 1.3" gadget on a desk, a round 1.28" one) 50 cm, at arm's length; under 4.5" (a 2–4"
    /// desk clock or photo frame) 60 cm; under 9" (a 7" panel on a shelf or a kitchen counter)
    /// 80 cm; larger (a 10" wall panel) 100 cm, a step away. A watch is nearer (about 30 cm) and
    /// a wall panel across a room farther: `display.viewingDistance` says so.
    public static func usualDistance(diagonal: Double) -> Double {
        diagonal < 2 ? 50 : diagonal < 4.5 ? 60 : diagonal < 9 ? 80 : 100
    }

    static func pixelDiagonal(_ size: Size) -> Double {
        let w = Double(size.width), h = Double(size.height)
        return (w * w + h * h).squareRoot()
    }

    /// The viewing of a picture of `size` (the panel turned upright: its diagonal is the same):
    /// what was given, the rest assumed.
    public func resolved(for size: Size, shape: PanelShape) -> ResolvedViewing {
        let diagonal = self.diagonal ?? Self.usualDiagonal(for: size, shape: shape)
        let distance = self.distance ?? Self.usualDistance(diagonal: diagonal)
        // A round panel's diagonal is its diameter: the short side's pixels.
        let pixels = shape == .round ? Double(min(size.width, size.height)) : Self.pixelDiagonal(size)
        return ResolvedViewing(
            diagonal: diagonal, diagonalSource: self.diagonal == nil ? .assumed : diagonalSource, distance: distance,
            distanceGiven: self.distance != nil, pixelsPerMillimetre: pixels / (diagonal * 25.4))
    }
}

/// A panel's viewing with everything known: how many pixels make a millimetre, and how far away
/// the eye is.
public struct ResolvedViewing: Sendable, Hashable {
    /// Inches (a round panel's diameter).
    public var diagonal: Double
    public var diagonalSource: Viewing.Source
    /// Centimetres.
    public var distance: Double
    /// Whether the distance was given, rather than the usual one for the diagonal.
    public var distanceGiven: Bool
    public var pixelsPerMillimetre: Double

    public init(diagonal: Double, diagonalSource: Viewing.Source, distance: Double, distanceGiven: Bool,
                pixelsPerMillimetre: Double) {
        self.diagonal = diagonal
        self.diagonalSource = diagonalSource
        self.distance = distance
        self.distanceGiven = distanceGiven
        self.pixelsPerMillimetre = pixelsPerMillimetre
    }

    /// The height in millimetres of `pixels`.
    public func millimetres(_ pixels: Double) -> Double { pixels / pixelsPerMillimetre }

    /// The angle `pixels` of height make at the eye, in minutes of arc.
    public func arcMinutes(_ pixels: Double) -> Double {
        Self.arcMinutes(height: millimetres(pixels), distance: distance * 10)
    }

    /// The pixels of height that make `minutes` of arc at the eye.
    public func pixels(arcMinutes minutes: Double) -> Double {
        Self.height(arcMinutes: minutes, distance: distance * 10) * pixelsPerMillimetre
    }

    /// The height (in the distance's unit) that makes `minutes` of arc at `distance`: d·tan(θ)
    /// (θ under a degree: tan θ = θ + θ³/3 + 2θ⁵/15 to better than 1e-12).
    static func height(arcMinutes minutes: Double, distance: Double) -> Double {
        let t = minutes / 60 * Double.pi / 180
        let t2 = t * t
        return distance * t * (1 + t2 / 3 + 2 * t2 * t2 / 15)
    }

    /// The angle a `height` makes at `distance`, in minutes of arc: atan(h/d) (the ratio under
    /// 0.02: atan x = x − x³/3 + x⁵/5; larger, by halving the angle until it is).
    static func arcMinutes(height: Double, distance: Double) -> Double {
        guard distance > 0 else { return .infinity }
        var x = height / distance
        var doublings = 0.0
        while abs(x) > 0.02 {
            // atan x = 2 atan(x / (1 + √(1 + x²)))
            x = x / (1 + (1 + x * x).squareRoot())
            doublings += 1
        }
        let x2 = x * x
        let angle = x * (1 - x2 / 3 + x2 * x2 / 5) * Self.power(2, doublings)
        return angle * 180 / Double.pi * 60
    }

    static func power(_ base: Double, _ n: Double) -> Double {
        var r = 1.0
        var i = 0.0
        while i < n {
            r *= base
            i += 1
        }
        return r
    }
}
