import Activity
import Raster

/// The ring screen: a day's Activity rings on black, as large as the picture allows.
public struct RingScreen: Screen {
    /// The day's summary; nil for a day without one (every ring empty).
    public var summary: ActivitySummary?

    public init(summary: ActivitySummary?) { self.summary = summary }

    public func draw(into buffer: PixelBuffer) {
        buffer.fill(.black)
        let rect = Rect(x: 0, y: 0, width: Float(buffer.width), height: Float(buffer.height))
        ActivityRingsView(rings: RingSet(summary)).draw(into: buffer, in: rect)
    }
}
