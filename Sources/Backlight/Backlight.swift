import CKernelShims
import Platform

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A panel backlight under /sys/class/backlight: dims and turns it off for idle, and puts its
/// brightness back when the app wakes or ends.
public final class Backlight {
    public let path: String
    public let maximum: Int
    /// The brightness found at start, put back on wake and at exit.
    public let original: Int
    private var current: Int

    /// The first backlight in `directory` that can be read and written; nil when there is none
    /// (then dimming is done in the picture and blanking by DPMS alone).
    public static func find(in directory: String = "/sys/class/backlight", log: (String) -> Void) -> Backlight? {
        guard let names = directoryEntries(directory) else { return nil }
        for name in names.sorted() where !name.hasPrefix(".") {
            let path = directory + "/" + name
            guard let max = readNumber(path + "/max_brightness"), max > 0, let now = readNumber(path + "/brightness")
            else {
                continue
            }
            guard access(path + "/brightness", W_OK) == 0 else {
                log(
                    "backlight \(path): not writable (add a udev rule giving group video write access); dimming in software"
                )
                continue
            }
            // Off at start: a run that ended without putting it back (SIGKILL, power cut during
            // blank); full brightness is what a user wants then, not a dark panel for good.
            if now == 0 { log("backlight \(path): off at start; full brightness when awake") }
            return Backlight(path: path, maximum: max, original: now == 0 ? max : now)
        }
        return nil
    }

    init(path: String, maximum: Int, original: Int) {
        self.path = path
        self.maximum = maximum
        self.original = original
        current = original
    }

    /// The brightness found at start, as a fraction of the maximum.
    public var foundLevel: Double { Double(original) / Double(maximum) }

    /// An on/off light (`max_brightness` 1): any level below full is the picture's to dim.
    public var onOff: Bool { maximum == 1 }

    /// The brightness written last.
    public var value: Int { current }

    /// Sets the brightness to `value` (0 turns it off); true when written (or already so).
    @discardableResult
    public func set(value: Int) -> Bool {
        let value = min(max(0, value), maximum)
        guard value != current else { return true }
        guard Self.writeNumber(value, to: path + "/brightness") else { return false }
        current = value
        return true
    }

    /// The brightness found at start, back.
    public func restore() { set(value: original) }

    /// Has the fatal-signal handler (see DisplayOutput) put the original brightness back too.
    public func armCrashRestore() {
        _ = glance_crash_restore_backlight(path + "/brightness", "\(original)\n")
    }

    deinit { glance_crash_restore_backlight_disarm() }

    static func readNumber(_ file: String) -> Int? {
        let fd = open(file, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes = [UInt8](repeating: 0, count: 32)
        let n = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        guard n > 0 else { return nil }
        return Int(String(decoding: bytes.prefix(n), as: UTF8.self).filter { $0.isNumber })
    }

    static func writeNumber(_ value: Int, to file: String) -> Bool {
        let fd = open(file, O_WRONLY | O_CLOEXEC)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        let text = Array("\(value)\n".utf8)
        return text.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) } == text.count
    }
}
