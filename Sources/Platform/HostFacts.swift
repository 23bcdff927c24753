#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The machine's own figures, as a wall panel's diagnostics show them (Home Assistant's
/// diagnostic sensors): the CPU's temperature, when it booted, its network address, the Wi-Fi
/// signal and the free space where the store is. Each is nil where this machine has none (no
/// thermal zone in a VM, no Wi-Fi on a wired board). Read from the kernel's files and the C
/// library; the parsing is pure (`temperature`, `uptime`, `wirelessSignal`).
public struct HostFacts: Equatable, Sendable {
    /// Degrees Celsius, to a tenth.
    public var cpuTemperature: Double?
    /// When the machine booted, seconds since 1970, to the minute (so that it does not move with
    /// each reading's rounding).
    public var booted: Int64?
    /// The first address of an interface that is up and not the loopback: IPv4 first, else IPv6.
    public var address: String?
    /// The first wireless interface's signal level, dBm.
    public var wifiSignal: Int?
    /// Free space for an unprivileged user on the file system holding `storeFolder`, MiB.
    public var freeDisk: Int?

    public init(cpuTemperature: Double? = nil, booted: Int64? = nil, address: String? = nil, wifiSignal: Int? = nil, freeDisk: Int? = nil) {
        self.cpuTemperature = cpuTemperature
        self.booted = booted
        self.address = address
        self.wifiSignal = wifiSignal
        self.freeDisk = freeDisk
    }

    /// This machine's now; `storeFolder` is where the free space is measured, `now` the wall
    /// clock in seconds.
    public static func read(storeFolder: String, now: Int64, root: String = "") -> HostFacts {
        var facts = HostFacts()
        facts.cpuTemperature = cpuTemperature(root: root)
        if let text = readKernelFile(root + "/proc/uptime", limit: 256), let up = uptime(text) {
            facts.booted = (now - Int64(up)) / 60 * 60
        }
        facts.address = address()
        if let text = readKernelFile(root + "/proc/net/wireless", limit: 8192) { facts.wifiSignal = wirelessSignal(text) }
        var st = statvfs()
        if statvfs(storeFolder, &st) == 0 {
            facts.freeDisk = Int(UInt64(st.f_bavail) * UInt64(st.f_frsize) / (1 << 20))
        }
        return facts
    }

    /// The CPU's thermal zone (its type names the CPU or the SoC: `cpu-thermal` on a Raspberry
    /// Pi, `x86_pkg_temp`), else the first zone with a temperature.
    static func cpuTemperature(root: String) -> Double? {
        var first: Double?
        for zone in 0..<16 {
            let folder = root + "/sys/class/thermal/thermal_zone\(zone)"
            guard let text = readKernelFile(folder + "/temp", limit: 64), let t = temperature(millidegrees: text) else {
                if readKernelFile(folder + "/type", limit: 64) == nil { break }
                continue
            }
            let type = readKernelFile(folder + "/type", limit: 64) ?? ""
            if type.contains("cpu") || type.contains("soc") || type.contains("x86_pkg") { return t }
            if first == nil { first = t }
        }
        return first
    }

    /// A thermal zone's `temp` (millidegrees Celsius) in degrees, to a tenth; nil for anything
    /// else or beyond what a chip reads (−60…200 °C).
    public static func temperature(millidegrees text: String) -> Double? {
        guard let m = Int(text.split(whereSeparator: { $0 == "\n" || $0 == " " }).first ?? ""), (-60_000...200_000).contains(m) else {
            return nil
        }
        return (Double(m) / 100).rounded() / 10
    }

    /// `/proc/uptime`'s first field, seconds.
    public static func uptime(_ text: String) -> Double? {
        guard let field = text.split(separator: " ").first, let s = Double(field), s.isFinite, s >= 0 else { return nil }
        return s
    }

    /// The first interface's signal level in `/proc/net/wireless` (two header lines, then
    /// `wlan0: 0000   70.  -40.  -256 …`: status, link quality, level, noise), dBm; nil with no
    /// wireless interface or a level out of −120…0.
    public static func wirelessSignal(_ text: String) -> Int? {
        for line in text.split(separator: "\n").dropFirst(2) {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let fields = line[line.index(after: colon)...].split(separator: " ")
            guard fields.count >= 3 else { continue }
            var field = Substring(fields[2])
            if field.hasSuffix(".") { field = field.dropLast() }
            guard let level = Double(field), level.isFinite, abs(level) < 1000 else { continue }
            let dBm = Int(level.rounded())
            // Some drivers give the level as 256 + dBm.
            let value = dBm > 0 && dBm <= 256 ? dBm - 256 : dBm
            if (-120...0).contains(value) { return value }
        }
        return nil
    }

    /// The first address of an interface that is up, running and not the loopback (IPv4 before
    /// IPv6; an IPv6 link-local one last of all).
    static func address() -> String? {
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0, let first = list else { return nil }
        defer { freeifaddrs(first) }
        var v4: String?
        var v6: String?
        var linkLocal: String?
        var cursor: UnsafeMutablePointer<ifaddrs>? = first
        while let entry = cursor {
            defer { cursor = entry.pointee.ifa_next }
            let flags = Int32(bitPattern: entry.pointee.ifa_flags)
            guard let address = entry.pointee.ifa_addr, flags & Int32(IFF_UP) != 0, flags & Int32(IFF_RUNNING) != 0,
                flags & Int32(IFF_LOOPBACK) == 0
            else { continue }
            var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
            switch Int32(address.pointee.sa_family) {
            case AF_INET:
                guard v4 == nil else { continue }
                address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { a in
                    var bytes = a.pointee.sin_addr
                    if inet_ntop(AF_INET, &bytes, &text, socklen_t(text.count)) != nil { v4 = String(cString: text) }
                }
            case AF_INET6:
                address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { a in
                    var bytes = a.pointee.sin6_addr
                    guard inet_ntop(AF_INET6, &bytes, &text, socklen_t(text.count)) != nil else { return }
                    let s = String(cString: text)
                    if s.lowercased().hasPrefix("fe80") {
                        if linkLocal == nil { linkLocal = s }
                    } else if v6 == nil {
                        v6 = s
                    }
                }
            default: continue
            }
        }
        return v4 ?? v6 ?? linkLocal
    }
}
