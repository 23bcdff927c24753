import Raster

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

extension ModeRequest {
    /// Whether `mode` is what this asks for: its size, and its refresh written to as many decimals
    /// as the request gives (`@60` takes 59.94 Hz and 60 Hz, `@59.94` only the first).
    public func matches(_ mode: DisplayMode) -> Bool {
        mode.width == width && mode.height == height && (refresh.map { $0.matches(millihertz: mode.refreshMillihertz) } ?? true)
    }
}
