/// Numbers as Glance writes them, everywhere (labels, CSV, messages, benchmarks): without
/// Foundation, and the same way on every machine.
public enum NumberText {
    /// A whole number without a fraction (`12`, not `12.0`), else the shortest decimal that reads
    /// back as the same Double (`0.1`, `47.5`); as CSV and messages write numbers.
    public static func plain(_ x: Double) -> String {
        if x == x.rounded(), abs(x) < 1e15 { return String(Int64(x)) }
        return "\(x)"
    }

    /// Rounded to `decimals` places (half away from zero). `trimmingZeros`: trailing zeros of the
    /// fraction go (`2.5`, `3`), else they stay (`2.500`). Not finite: `—`; too large for the
    /// digits: `∞`.
    public static func fixed(_ value: Double, decimals: Int, trimmingZeros: Bool = false) -> String {
        guard value.isFinite else { return "—" }
        var scale = 1
        for _ in 0..<max(0, decimals) { scale *= 10 }
        let scaled = (abs(value) * Double(scale)).rounded()
        guard scaled < 9e15 else { return value < 0 ? "-∞" : "∞" }
        let n = Int(scaled)
        var fraction = n % scale
        var places = max(0, decimals)
        while trimmingZeros && places > 0 && fraction % 10 == 0 {
            fraction /= 10
            places -= 1
        }
        var text = String(n / scale)
        if places > 0 {
            let digits = String(fraction)
            text += "." + String(repeating: "0", count: places - digits.count) + digits
        }
        return (value < 0 && n > 0 ? "-" : "") + text
    }
}

extension NumberText {
    /// As `fixed`, with the whole part's thousands grouped by commas from five digits on
    /// (`12,845`, `123,456.5`; `1050` stays as it is, as four-digit numbers are usually written).
    public static func grouped(_ value: Double, decimals: Int, trimmingZeros: Bool = false) -> String {
        let text = fixed(value, decimals: decimals, trimmingZeros: trimmingZeros)
        // Under five digits (however it rounds) there is nothing to group.
        guard abs(value) >= 9999 else { return text }
        let sign = text.hasPrefix("-") ? "-" : ""
        let unsigned = text.dropFirst(sign.count)
        let whole = unsigned.prefix { $0.isASCII && $0.isNumber }
        guard whole.count >= 5 else { return text }
        var out = ""
        for (i, digit) in whole.enumerated() {
            if i > 0 && (whole.count - i) % 3 == 0 { out += "," }
            out.append(digit)
        }
        return sign + out + unsigned.dropFirst(whole.count)
    }

    /// The scales a compact number is written in: thousands (`1.05k`, `123k`, `1.2M`, `3.4B`)
    /// or, as Chinese writes them, myriads (`12.3万`, `1.2亿`).
    public enum CompactScale: Sendable {
        case thousands, myriads

        var steps: [(Double, String)] {
            switch self {
            case .thousands: [(1e3, "k"), (1e6, "M"), (1e9, "B"), (1e12, "T")]
            case .myriads: [(1e4, "万"), (1e8, "亿"), (1e12, "万亿")]
            }
        }
    }

    /// `value` in the largest step of `scale` it reaches, rounded (half away from zero) to
    /// `significant` digits but never into its whole part: 1050 → `1.05k` (3) or `1.1k` (2),
    /// 123456 → `123k`, 1234567 → `1.23M`, 123456 → `12.3万`. nil below the first step (1000, or
    /// 10000 in myriads) and when not finite.
    public static func compact(_ value: Double, significant: Int, scale: CompactScale = .thousands) -> String? {
        guard value.isFinite else { return nil }
        let steps = scale.steps
        let a = abs(value)
        guard var index = steps.lastIndex(where: { a >= $0.0 }) else { return nil }
        while true {
            let (step, suffix) = steps[index]
            let m = a / step
            var digits = 1
            var p = 10.0
            while m >= p {
                digits += 1
                p *= 10
            }
            let text = fixed(m, decimals: max(0, significant - digits), trimmingZeros: true)
            // Rounded up into the next step (999.6k at three digits): written in that one.
            if index + 1 < steps.count, let next = Double(text), next * step >= steps[index + 1].0 {
                index += 1
                continue
            }
            return (value < 0 ? "-" : "") + text + suffix
        }
    }
}
