import Raster

/// Something the device shows: draws itself into a picture of any size.
public protocol Screen {
    /// Draws the whole screen into `buffer` (XRGB8888, the picture's orientation).
    func draw(into buffer: PixelBuffer)
}

/// Turns screens into panel frames: draws in place when the panel takes the picture as it is,
/// else into a picture buffer that is then turned and converted onto the panel.
public struct FrameComposer {
    public let panel: Size
    public let rotation: Rotation
    public let format: PixelFormat
    private var picture: PixelBuffer?

    public init(panel: Size, rotation: Rotation = .none, format: PixelFormat = .xrgb8888) {
        self.panel = panel
        self.rotation = rotation
        self.format = format
        if rotation != .none || format != .xrgb8888 {
            let logical = rotation.logicalSize(forPanel: panel)
            picture = PixelBuffer(width: logical.width, height: logical.height)
        }
    }

    /// Size of the picture screens draw (the panel's, turned by the rotation).
    public var pictureSize: Size { rotation.logicalSize(forPanel: panel) }

    /// Draws `screen` onto `target` (a buffer of the panel's size and format); returns the damage.
    @discardableResult
    public func compose(_ screen: some Screen, into target: PixelBuffer) -> IntRect {
        precondition(target.size == panel && target.format == format,
            "compose: target is \(target.size) \(target.format), the panel \(panel) \(format)")
        guard let picture else {
            screen.draw(into: target)
            return target.bounds
        }
        screen.draw(into: picture)
        return target.copy(from: picture, rotation: rotation)
    }

    /// A new panel buffer holding `screen`.
    public func render(_ screen: some Screen) -> PixelBuffer {
        let target = PixelBuffer(width: panel.width, height: panel.height, format: format)
        compose(screen, into: target)
        return target
    }
}
