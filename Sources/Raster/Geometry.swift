/// A point in pixel space: x right, y down; pixel (i, j) covers [i, i+1) × [j, j+1).
public struct Point: Sendable, Hashable {
    public var x: Float
    public var y: Float
    public init(x: Float, y: Float) {
        self.x = x
        self.y = y
    }
}

/// A size in pixels.
public struct Size: Sendable, Hashable, CustomStringConvertible {
    public var width: Int
    public var height: Int
    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }
    /// `WxH`.
    public var description: String { "\(width)x\(height)" }
}

/// A rectangle in pixel space with fractional edges.
public struct Rect: Sendable, Hashable {
    public var x: Float
    public var y: Float
    public var width: Float
    public var height: Float

    public init(x: Float, y: Float, width: Float, height: Float) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    public init(_ r: IntRect) {
        self.init(x: Float(r.x), y: Float(r.y), width: Float(r.width), height: Float(r.height))
    }

    public var minX: Float { x }
    public var minY: Float { y }
    public var maxX: Float { x + width }
    public var maxY: Float { y + height }
    public var center: Point { Point(x: x + width / 2, y: y + height / 2) }
    public var isEmpty: Bool { !(width > 0 && height > 0) }

    /// The rectangle shrunk by `d` on every side (grown when negative).
    public func insetBy(_ d: Float) -> Rect { Rect(x: x + d, y: y + d, width: width - 2 * d, height: height - 2 * d) }

    /// The smallest pixel rectangle that holds this one.
    public var enclosingPixels: IntRect {
        let x0 = Int(x.rounded(.down)), y0 = Int(y.rounded(.down))
        let x1 = Int(maxX.rounded(.up)), y1 = Int(maxY.rounded(.up))
        return IntRect(x: x0, y: y0, width: max(0, x1 - x0), height: max(0, y1 - y0))
    }
}

/// A rectangle of whole pixels (damage rects, clips, blits).
public struct IntRect: Sendable, Hashable, CustomStringConvertible {
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int

    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    public init(size: Size) { self.init(x: 0, y: 0, width: size.width, height: size.height) }

    public var maxX: Int { x + width }
    public var maxY: Int { y + height }
    public var isEmpty: Bool { width <= 0 || height <= 0 }

    public func intersection(_ o: IntRect) -> IntRect {
        let x0 = max(x, o.x), y0 = max(y, o.y)
        let x1 = min(maxX, o.maxX), y1 = min(maxY, o.maxY)
        return IntRect(x: x0, y: y0, width: max(0, x1 - x0), height: max(0, y1 - y0))
    }

    public func union(_ o: IntRect) -> IntRect {
        if isEmpty { return o }
        if o.isEmpty { return self }
        let x0 = min(x, o.x), y0 = min(y, o.y)
        return IntRect(x: x0, y: y0, width: max(maxX, o.maxX) - x0, height: max(maxY, o.maxY) - y0)
    }

    public var description: String { "\(width)x\(height)+\(x)+\(y)" }
}

/// Rotation of the picture on the panel, clockwise, in software.
public enum Rotation: Int, Sendable, CaseIterable {
    case none = 0
    case quarter = 90
    case half = 180
    case threeQuarters = 270

    public init?(degrees: Int) { self.init(rawValue: ((degrees % 360) + 360) % 360) }

    public var degrees: Int { rawValue }

    /// Whether width and height trade places between the picture and the panel.
    public var swapsAxes: Bool { self == .quarter || self == .threeQuarters }

    /// The size of the picture drawn for a panel of `panel` size.
    public func logicalSize(forPanel panel: Size) -> Size {
        swapsAxes ? Size(width: panel.height, height: panel.width) : panel
    }

    /// Where picture pixel (x, y) lands on a panel of size `panel`.
    public func panelPoint(x: Int, y: Int, panel: Size) -> (x: Int, y: Int) {
        switch self {
        case .none: (x, y)
        case .quarter: (panel.width - 1 - y, x)
        case .half: (panel.width - 1 - x, panel.height - 1 - y)
        case .threeQuarters: (y, panel.height - 1 - x)
        }
    }

    /// Where a point on the panel (continuous coordinates) is in the picture: the inverse of
    /// `panelPoint`, for touch.
    public func picturePoint(panelX x: Float, panelY y: Float, panel: Size) -> Point {
        let w = Float(panel.width), h = Float(panel.height)
        switch self {
        case .none: return Point(x: x, y: y)
        case .quarter: return Point(x: y, y: w - x)
        case .half: return Point(x: w - x, y: h - y)
        case .threeQuarters: return Point(x: h - y, y: x)
        }
    }

    /// The picture-space rectangle `r` in panel coordinates.
    public func panelRect(_ r: IntRect, panel: Size) -> IntRect {
        switch self {
        case .none: r
        case .quarter: IntRect(x: panel.width - r.maxY, y: r.x, width: r.height, height: r.width)
        case .half: IntRect(x: panel.width - r.maxX, y: panel.height - r.maxY, width: r.width, height: r.height)
        case .threeQuarters: IntRect(x: r.y, y: panel.height - r.maxX, width: r.height, height: r.width)
        }
    }
}
