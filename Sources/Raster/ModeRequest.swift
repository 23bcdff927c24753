/// A requested display mode, `WxH` or `WxH@Hz` (the configuration's `display.mode` and `--mode`
/// take the same text, read here): the size, and the refresh as written, whole (`@60`) or with
/// decimals (`@59.94`).
public struct ModeRequest: Sendable, Hashable, CustomStringConvertible {
    public var width: Int
    public var height: Int
    /// nil takes the best refresh the connector offers at that size.
    public var refresh: Refresh?

    /// A refresh rate as written: thousandths of a hertz, and how many decimals were given (a
    /// mode matches when its rate, rounded to them, is the same).
    public struct Refresh: Sendable, Hashable, CustomStringConvertible {
        public var millihertz: Int
        public var decimals: Int

        public init(millihertz: Int, decimals: Int) {
            self.millihertz = millihertz
            self.decimals = decimals
        }

        /// Whole hertz.
        public init(hertz: Int) { self.init(millihertz: hertz * 1000, decimals: 0) }

        /// `60`, `59.94`, `59.940`: digits, at most three decimals, above 0 and below 1000 Hz.
        public init?(parsing text: Substring) {
            let parts = text.split(separator: ".", omittingEmptySubsequences: false)
            guard parts.count <= 2, let whole = parts.first, !whole.isEmpty, whole.count <= 3,
                whole.allSatisfy({ $0.isASCII && $0.isNumber })
            else { return nil }
            var fraction = parts.count == 2 ? parts[1] : ""
            guard fraction.count <= 3, fraction.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
            if parts.count == 2 && fraction.isEmpty { return nil }
            let decimals = fraction.count
            while fraction.count < 3 { fraction += "0" }
            guard let w = Int(whole), let f = Int(fraction) else { return nil }
            let milli = w * 1000 + f
            guard milli > 0 else { return nil }
            self.init(millihertz: milli, decimals: decimals)
        }

        /// Whether a rate of `millihertz`, rounded to this one's decimals, is this one.
        public func matches(millihertz rate: Int) -> Bool {
            var step = 1000
            for _ in 0..<decimals { step /= 10 }
            return (rate + step / 2) / step == millihertz / step
        }

        public var description: String {
            guard decimals > 0 else { return String(millihertz / 1000) }
            var digits = String(millihertz % 1000)
            while digits.count < 3 { digits = "0" + digits }
            return "\(millihertz / 1000).\(digits.prefix(decimals))"
        }
    }

    public init(width: Int, height: Int, refresh: Refresh? = nil) {
        self.width = width
        self.height = height
        self.refresh = refresh
    }

    public init(width: Int, height: Int, refreshHz: Int?) {
        self.init(width: width, height: height, refresh: refreshHz.map { Refresh(hertz: $0) })
    }

    /// Parses `WxH` or `WxH@Hz` (sides 1 to 8192, a refresh with up to three decimals); nil if it
    /// is neither.
    public init?(parsing text: String) {
        let atParts = text.split(separator: "@", omittingEmptySubsequences: false)
        guard atParts.count <= 2 else { return nil }
        let sides = atParts[0].split(separator: "x", omittingEmptySubsequences: false)
        guard sides.count == 2, sides.allSatisfy({ !$0.isEmpty && $0.count <= 5 && $0.allSatisfy { $0.isASCII && $0.isNumber } }),
            let w = Int(sides[0]), let h = Int(sides[1]), (1...8192).contains(w), (1...8192).contains(h)
        else { return nil }
        var refresh: Refresh? = nil
        if atParts.count == 2 {
            guard let r = Refresh(parsing: atParts[1]) else { return nil }
            refresh = r
        }
        self.init(width: w, height: h, refresh: refresh)
    }

    public var description: String { "\(width)x\(height)" + (refresh.map { "@\($0)" } ?? "") }
}
