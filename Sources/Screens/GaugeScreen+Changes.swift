import Raster

extension GaugeScreen {
    /// The most pixels a picture may have for `changes` to compare two frames: the small panels,
    /// where each changed pixel is sent over a wire (SPI, 480x320 and smaller) and two drawings
    /// cost less than sending the panel whole. Larger pictures are drawn whole on a change.
    static let mostComparedPixels = 480 * 480

    /// What differs between two gauge screens: nothing for the same gauges on the same page;
    /// else, on a small picture, where the two frames drawn whole differ (a new value's number,
    /// the arc or bar between the two values, the marker's two places), exactly; nil for a large
    /// one, another context or another kind of screen (all of it).
    ///
    /// A gauge's layout follows from its value (a wider number takes another size, or a line of
    /// its own under a smaller dial), so the two frames are compared as drawn rather than as laid
    /// out; each screen is drawn whole once (kept for the next frame's comparison).
    public func changes(since previous: any Screen, at previousTime: Double, now time: Double, size: Size) -> Damage? {
        guard let before = previous as? GaugeScreen, context.drawsLike(before.context) else { return nil }
        if before.gauges == gauges && before.page == page { return Damage() }
        guard size.width * size.height <= Self.mostComparedPixels else { return nil }
        return ScreenDamage.difference(before.picture(size), picture(size))
    }

    /// The screen drawn whole on a picture of `size` (once per screen and size).
    func picture(_ size: Size) -> PixelBuffer {
        if let (s, p) = drawn.entry, s == size { return p }
        let p = PixelBuffer(width: size.width, height: size.height)
        var quiet = self
        quiet.context.probe = nil
        quiet.draw(into: p, at: 0)
        drawn.entry = (size, p)
        return p
    }
}

/// A screen's picture once drawn whole, with its size.
final class PictureMemo {
    var entry: (Size, PixelBuffer)?
}
