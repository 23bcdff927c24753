/// How a pixel is laid out in memory (little-endian, as DRM names them).
public enum PixelFormat: String, Sendable, CaseIterable {
    /// 32 bits: blue, green, red, unused byte. DRM `XR24`.
    case xrgb8888
    /// 16 bits: red 5, green 6, blue 5. DRM `RG16`; small SPI panels take it.
    case rgb565

    public var bytesPerPixel: Int {
        switch self {
        case .xrgb8888: 4
        case .rgb565: 2
        }
    }

    /// The DRM fourcc code of the format.
    public var fourCC: UInt32 {
        func code(_ s: String) -> UInt32 {
            s.utf8.enumerated().reduce(0) { $0 | UInt32($1.element) << (8 * UInt32($1.offset)) }
        }
        switch self {
        case .xrgb8888: return code("XR24")
        case .rgb565: return code("RG16")
        }
    }

    /// The format with this DRM fourcc code, if it is one we draw.
    public init?(fourCC: UInt32) {
        guard let format = Self.allCases.first(where: { $0.fourCC == fourCC }) else { return nil }
        self = format
    }
}
