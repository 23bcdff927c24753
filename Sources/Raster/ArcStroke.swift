/// The soft shadow an arc's tip casts on the turn beneath it once the arc runs past one turn.
public struct ArcShadow: Sendable, Hashable {
    /// How dark the shadow is at its centre (0...1).
    public var opacity: Float
    /// How far the shadow sits ahead of the tip, along the direction of travel, × stroke width.
    public var offset: Float
    /// Width of the shadow's soft edge, × stroke width.
    public var blur: Float

    public init(opacity: Float, offset: Float, blur: Float) {
        self.opacity = opacity
        self.offset = offset
        self.blur = blur
    }
}

/// A thick circular arc with round caps over an optional track, coloured along its length.
///
/// Angles are in turns clockwise from 12 o'clock. The value arc runs from `start` over `sweep`
/// turns; past one turn it runs on over itself, later turns on top, and the tip may cast a
/// `shadow` on the turn beneath. A sweep of 0 is a dot (a disc of the stroke's width). The track
/// is the part of the band the value does not cover: a closed ring when `trackSweep` is 1, else an
/// open arc of that many turns with round caps.
public struct ArcStroke {
    public var center: Point
    /// Radius of the stroke's centre line.
    public var radius: Float
    public var width: Float
    public var start: Double
    /// Turns of value; nil draws the track alone.
    public var sweep: Double?
    public var paint: ArcPaint
    public var track: Color?
    public var trackSweep: Double
    public var shadow: ArcShadow?

    public init(
        center: Point, radius: Float, width: Float, start: Double = 0, sweep: Double?,
        paint: ArcPaint, track: Color? = nil, trackSweep: Double = 1, shadow: ArcShadow? = nil
    ) {
        self.center = center
        self.radius = radius
        self.width = width
        self.start = start
        self.sweep = sweep
        self.paint = paint
        self.track = track
        self.trackSweep = trackSweep
        self.shadow = shadow
    }

    /// The pixels the stroke may touch.
    public var bounds: IntRect {
        let r = radius + width / 2 + 1
        return Rect(x: center.x - r, y: center.y - r, width: 2 * r, height: 2 * r).enclosingPixels
    }
}

extension PixelBuffer {
    /// Draws `arc` (XRGB8888 buffers; the renderer never throws: degenerate input draws nothing).
    public func stroke(_ arc: ArcStroke, clip: IntRect? = nil) {
        guard format == .xrgb8888 else { return }
        // Nothing to do outside the clip: not even the setup.
        guard ArcRasterizer.drawable(arc) else { return }
        let area = drawArea(clip).intersection(arc.bounds)
        guard !area.isEmpty, var raster = ArcRasterizer(arc) else { return }
        // The colour tables, kept with the buffer: a ring drawn again as it was (a still screen
        // redrawn) reuses them; held here for the draw whatever the cache lets go meanwhile.
        func table(_ range: ArcRasterizer.TableRange) -> ColorTable {
            cache.table(raster.tableKey(range, paint: arc.paint)) {
                raster.fillTable($0, range, base: cache.base(raster.baseKey(offset: range.offset, paint: arc.paint)))
            }
        }
        let tableA = raster.usesTableA ? table(raster.rangeA) : nil
        let tableB = raster.usesTableB ? table(raster.rangeB) : nil
        raster.tableA = tableA?.entries
        raster.tableB = tableB?.entries
        // The band's spans looked up once for all the areas of a damaged region.
        let spans = raster.bandMeets(area) ? cache.spans(raster, width: width, height: height) : nil
        withExtendedLifetime((tableA, tableB)) {
            forEachArea(area) { raster.draw(into: self, area: $0, spans: spans) }
        }
    }
}
