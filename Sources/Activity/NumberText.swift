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
