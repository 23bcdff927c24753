import Activity
import Store
import Platform

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A one-line progress bar on a terminal (standard error): fraction, bytes, rate and time left.
public struct ProgressBar {
    /// Where the bar is drawn (standard error).
    let console: Console
    public init(console: Console, label: String) {
        self.console = console
        self.label = label
    }

    public let label: String
    var drawn = false

    /// Whether standard error is a terminal (else no bar: logs stay clean).
    public static var isAvailable: Bool { isatty(2) == 1 }

    public mutating func draw(_ p: ImportProgress) {
        let rate = p.elapsed > 0.05 ? Double(p.bytesDone) / p.elapsed : 0
        var line = label
        if let fraction = p.fraction, let total = p.bytesTotal {
            let width = 24
            let filled = Int((fraction * Double(width)).rounded(.down))
            line += " [" + String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled) + "]"
            line += " \(Self.pad(Int(fraction * 100), 3)) %"
            line += "  \(Self.bytes(p.bytesDone))/\(Self.bytes(total))"
            line += "  \(Self.bytes(Int64(rate)))/s"
            if rate > 0 && fraction < 1 {
                line += "  ETA \(Self.clock(Double(total - p.bytesDone) / rate))"
            } else {
                line += "  \(Self.clock(p.elapsed))"
            }
        } else {
            line += "  \(Self.bytes(p.bytesDone))  \(Self.bytes(Int64(rate)))/s  \(Self.clock(p.elapsed))"
        }
        line += "  \(p.days) days"
        console.writeError("\r\u{1B}[K" + line)
        drawn = true
    }

    /// Ends the bar's line.
    public mutating func finish() {
        guard drawn else { return }
        console.writeError("\n")
        drawn = false
    }

    static func pad(_ n: Int, _ width: Int) -> String {
        let s = String(n)
        return String(repeating: " ", count: max(0, width - s.count)) + s
    }

    /// 7.5 kB, 412.3 MB, 1.0 GB (decimal units).
    public static func bytes(_ n: Int64) -> String {
        let x = Double(n)
        if x < 1000 { return "\(n) B" }
        let units = ["kB", "MB", "GB", "TB"]
        var v = x / 1000
        var i = 0
        while v >= 1000 && i < units.count - 1 {
            v /= 1000
            i += 1
        }
        return "\(oneDecimal(v)) \(units[i])"
    }

    public static func oneDecimal(_ v: Double) -> String { NumberText.fixed(v, decimals: 1) }

    /// m:ss or h:mm:ss.
    static func clock(_ seconds: Double) -> String {
        guard seconds.isFinite, seconds >= 0 else { return "?" }
        let s = Int(seconds.rounded())
        let two = { (n: Int) in n < 10 ? "0\(n)" : "\(n)" }
        return s >= 3600 ? "\(s / 3600):\(two(s / 60 % 60)):\(two(s % 60))" : "\(s / 60):\(two(s % 60))"
    }
}
