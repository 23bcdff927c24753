import CKernelShims
import Platform

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A panel backlight under /sys/class/backlight: dims and turns it off for idle, and puts its
/// brightness back when the app wakes or ends. One that is only switched (`max_brightness` 1, as
/// gpio-backlight gives) is turned off to blank but never dimmed: see `dims(to:)`.
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

    /// The brightness for `fraction` of the original: 0 only for 0 (off); any other fraction
    /// leaves at least 1, so a dimmed panel never goes dark.
    func value(for fraction: Double) -> Int {
        if fraction >= 1 { return original }
        if fraction <= 0 { return 0 }
        return max(1, Int((Double(original) * fraction).rounded()))
    }

    /// Whether the light itself can show `fraction` of the original brightness: false for a
    /// switch (a gpio-backlight, `max_brightness` 1: on or off) and wherever the dimmed value
    /// would be no lower than the original. The picture is dimmed instead then.
    public func dims(to fraction: Double) -> Bool {
        maximum > 1 && value(for: fraction) < original
    }

    /// Sets the brightness to `fraction` of the original (0 turns it off, any other fraction
    /// keeps it on); true when written.
    @discardableResult
    public func set(fraction: Double) -> Bool {
        let value = value(for: fraction)
        guard value != current else { return true }
        guard Self.writeNumber(value, to: path + "/brightness") else { return false }
        current = value
        return true
    }

    public func restore() { set(fraction: 1) }

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
