/// A mode a connector offers (or a CRTC is set to).
public struct DisplayMode: Sendable, Hashable, CustomStringConvertible {
    public var width: Int
    public var height: Int
    /// Vertical refresh in millihertz, computed from the pixel clock and totals (59940 for 59.94 Hz).
    public var refreshMillihertz: Int
    /// The sink says this is its native mode.
    public var isPreferred: Bool
    /// Position in the connector's mode list (where the kernel's mode record is).
    public var index: Int

    public init(width: Int, height: Int, refreshMillihertz: Int, isPreferred: Bool = false, index: Int = 0) {
        self.width = width
        self.height = height
        self.refreshMillihertz = refreshMillihertz
        self.isPreferred = isPreferred
        self.index = index
    }

    /// Refresh rounded to whole hertz.
    public var refreshHz: Int { (refreshMillihertz + 500) / 1000 }

    /// "800x480@60", the form `--mode` takes.
    public var description: String { "\(width)x\(height)@\(refreshHz)" }

    /// Refresh in millihertz from a kernel mode's timings (as drm_mode_vrefresh computes it).
    public static func refreshMillihertz(
        clockKilohertz: Int, horizontalTotal: Int, verticalTotal: Int,
        interlaced: Bool = false, doubleScan: Bool = false, verticalScan: Int = 0
    ) -> Int {
        var numerator = clockKilohertz * 1_000_000
        var denominator = horizontalTotal * verticalTotal
        if interlaced { numerator *= 2 }
        if doubleScan { denominator *= 2 }
        if verticalScan > 1 { denominator *= verticalScan }
        guard denominator > 0 else { return 0 }
        return (numerator + denominator / 2) / denominator
    }
}

/// A requested mode, `WxH` or `WxH@Hz` (as given to `--mode` or in the configuration).
public struct ModeRequest: Sendable, Hashable, CustomStringConvertible {
    public var width: Int
    public var height: Int
    /// Whole hertz; nil takes the best refresh the connector offers at that size.
    public var refreshHz: Int?

    public init(width: Int, height: Int, refreshHz: Int? = nil) {
        self.width = width
        self.height = height
        self.refreshHz = refreshHz
    }

    /// Parses `WxH` or `WxH@Hz`; nil if it is neither.
    public init?(parsing text: String) {
        let atParts = text.split(separator: "@", omittingEmptySubsequences: false)
        guard atParts.count <= 2 else { return nil }
        let sides = atParts[0].split(separator: "x", omittingEmptySubsequences: false)
        guard sides.count == 2, let w = Int(sides[0]), let h = Int(sides[1]), w > 0, h > 0 else { return nil }
        var hz: Int? = nil
        if atParts.count == 2 {
            guard let r = Int(atParts[1]), r > 0 else { return nil }
            hz = r
        }
        self.init(width: w, height: h, refreshHz: hz)
    }

    public var description: String { "\(width)x\(height)" + (refreshHz.map { "@\($0)" } ?? "") }

    /// Whether `mode` is what this asks for.
    public func matches(_ mode: DisplayMode) -> Bool {
        mode.width == width && mode.height == height && (refreshHz == nil || mode.refreshHz == refreshHz)
    }
}
