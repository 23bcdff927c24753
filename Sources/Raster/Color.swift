/// An opaque sRGB colour, 8 bits per channel.
public struct Color: Sendable, Hashable, CustomStringConvertible {
    public var red: UInt8
    public var green: UInt8
    public var blue: UInt8

    public init(red: UInt8, green: UInt8, blue: UInt8) {
        self.red = red
        self.green = green
        self.blue = blue
    }

    /// From `0xRRGGBB`.
    public init(hex: UInt32) {
        red = UInt8(truncatingIfNeeded: hex >> 16)
        green = UInt8(truncatingIfNeeded: hex >> 8)
        blue = UInt8(truncatingIfNeeded: hex)
    }

    public static let black = Color(hex: 0x000000)
    public static let white = Color(hex: 0xFFFFFF)

    /// The colour as an XRGB8888 pixel value (`0x00RRGGBB`).
    @inlinable public var xrgb: UInt32 { UInt32(red) << 16 | UInt32(green) << 8 | UInt32(blue) }

    /// The colour of an XRGB8888 pixel value.
    @inlinable public init(xrgb: UInt32) { self.init(hex: xrgb & 0xFF_FFFF) }

    /// `#RRGGBB`.
    public var description: String {
        let digits = Array("0123456789ABCDEF")
        return "#" + [red, green, blue].map { "\(digits[Int($0 >> 4)])\(digits[Int($0 & 15)])" }.joined()
    }

    /// Linear interpolation in sRGB: `t` = 0 gives `a`, 1 gives `b` (t is clamped to 0...1).
    public static func mix(_ a: Color, _ b: Color, _ t: Double) -> Color {
        let t = t.isNaN ? 0 : min(max(t, 0), 1)
        func channel(_ x: UInt8, _ y: UInt8) -> UInt8 {
            UInt8(Double(x) + (Double(y) - Double(x)) * t + 0.5)
        }
        return Color(red: channel(a.red, b.red), green: channel(a.green, b.green), blue: channel(a.blue, b.blue))
    }

    /// The colour at `factor` of its brightness (0...1) on black.
    public func scaled(by factor: Double) -> Color {
        Color.mix(.black, self, factor)
    }
}
