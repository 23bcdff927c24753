import Activity
import Raster

/// The fixed look of the Activity rings (rings.md): colours no theme may change.
public enum RingStyle {
    /// Start and end colour of a ring's gradient.
    public static func colors(_ ring: Ring) -> (start: Color, end: Color) {
        switch ring {
        case .move: (Color(hex: 0xE10014), Color(hex: 0xFF3287))
        case .exercise: (Color(hex: 0x37DC00), Color(hex: 0xB7FF00))
        case .stand: (Color(hex: 0x00BAE1), Color(hex: 0x00FAD0))
        }
    }

    /// Brightness of the track: the start colour at 20 % on black.
    public static let trackBrightness = 0.2

    /// The dim track of a ring (the unfilled part, and an empty ring).
    public static func track(_ ring: Ring) -> Color { colors(ring).start.scaled(by: trackBrightness) }

    /// Ring line width as a fraction of the group's outer diameter.
    public static let widthPerDiameter: Float = 0.10
    /// Gap between neighbouring rings as a fraction of the line width (at least 1 px).
    public static let gapPerWidth: Float = 0.07

    /// The tip's shadow past one turn: offset w/10 along the travel, soft edge w/3.
    public static let shadow = ArcShadow(opacity: 0.6, offset: 0.1, blur: 1.0 / 3)

    /// How a ring in `state` colours its arc: one turn of gradient, or past one turn the last turn.
    public static func paint(_ ring: Ring, progress p: Double) -> ArcPaint {
        let (start, end) = colors(ring)
        return p <= 1 ? .ramp(start, end, from: 0, to: 1) : .ramp(start, end, from: p - 1, to: p)
    }
}

/// Where the rings of a group go: diameter, line width, gap and the radius of each ring.
public struct RingGeometry: Sendable, Equatable {
    public let center: Point
    /// Outer diameter of the group.
    public let diameter: Float
    public let lineWidth: Float
    public let gap: Float

    /// The largest group that fits `rect` with at least one gap of margin on every side.
    public init(fitting rect: Rect) {
        let side = max(0, min(rect.width, rect.height))
        let k = RingStyle.widthPerDiameter * RingStyle.gapPerWidth  // gap per diameter
        // D + 2g = side, g = max(1, k·D).
        var d = side / (1 + 2 * k)
        if k * d < 1 { d = side - 2 }
        diameter = max(0, d)
        lineWidth = diameter * RingStyle.widthPerDiameter
        gap = max(1, lineWidth * RingStyle.gapPerWidth)
        center = rect.center
    }

    /// The radius of the hole inside the innermost ring.
    public var holeRadius: Float { max(0, radius(ring: 2) - lineWidth / 2) }

    /// Whether `box` lies inside the hole, a gap clear of the innermost ring.
    public func holeHolds(_ box: Rect) -> Bool {
        let r = holeRadius - gap
        return [(box.x, box.y), (box.maxX, box.y), (box.x, box.maxY), (box.maxX, box.maxY)].allSatisfy {
            let dx = $0.0 - center.x, dy = $0.1 - center.y
            return dx * dx + dy * dy <= r * r
        }
    }

    /// Radius of the centre line of ring `index` (0 = outermost).
    public func radius(ring index: Int) -> Float {
        diameter / 2 - Float(index) * (lineWidth + gap) - lineWidth / 2
    }
}

/// Draws a day's rings, centred in a rect and sized to fit it, on black.
public struct ActivityRingsView {
    public var rings: RingSet

    public init(rings: RingSet) { self.rings = rings }

    public func draw(into buffer: PixelBuffer, in rect: Rect, clip: IntRect? = nil) {
        let geometry = RingGeometry(fitting: rect)
        guard geometry.lineWidth > 0 else { return }
        for (index, entry) in rings.rings.enumerated() {
            let radius = geometry.radius(ring: index)
            guard radius > 0 else { continue }
            buffer.stroke(Self.stroke(entry.ring, entry.state, center: geometry.center, radius: radius,
                                      width: geometry.lineWidth), clip: clip)
        }
    }

    /// The stroke for one ring in one state.
    public static func stroke(_ ring: Ring, _ state: RingState, center: Point, radius: Float, width: Float)
        -> ArcStroke
    {
        let sweep: Double?
        switch state {
        case .empty: sweep = nil
        case .dot: sweep = 0
        case .progress(let p): sweep = p
        }
        let p = sweep ?? 0
        return ArcStroke(
            center: center, radius: radius, width: width, start: 0, sweep: sweep,
            paint: RingStyle.paint(ring, progress: p), track: RingStyle.track(ring), trackSweep: 1,
            shadow: p > 1 ? RingStyle.shadow : nil)
    }
}
