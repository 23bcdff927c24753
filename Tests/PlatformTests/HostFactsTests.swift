import Foundation
import Platform
import TestSupport
import Testing

/// The machine's figures for Home Assistant's diagnostic sensors: the kernel's files parsed
/// (fixtures in a folder standing for /), and the C library's on this machine.
@Suite("HostFacts: temperature, boot time, address, Wi-Fi signal, free disk", .timeLimit(.minutes(10)))
struct HostFactsTests {
    @Test("a thermal zone's millidegrees, to a tenth; junk and impossible readings are none")
    func temperature() {
        #expect(HostFacts.temperature(millidegrees: "48312\n") == 48.3)
        #expect(HostFacts.temperature(millidegrees: "-5000") == -5)
        #expect(HostFacts.temperature(millidegrees: "48350") == 48.4)
        #expect(HostFacts.temperature(millidegrees: "") == nil)
        #expect(HostFacts.temperature(millidegrees: "hot") == nil)
        #expect(HostFacts.temperature(millidegrees: "999999") == nil, "a reading no chip gives")
    }

    @Test("/proc/uptime's first field; /proc/net/wireless's level in dBm (either way drivers give it)")
    func uptimeAndWireless() {
        #expect(HostFacts.uptime("12345.67 23456.78\n") == 12345.67)
        #expect(HostFacts.uptime("x") == nil)
        let header = """
            Inter-| sta-|   Quality        |   Discarded packets               | Missed | WE
             face | tus | link level noise |  nwid  crypt   frag  retry   misc | beacon | 22

            """
        #expect(HostFacts.wirelessSignal(header + " wlan0: 0000   70.  -40.  -256        0      0      0      0      0        0\n") == -40)
        #expect(HostFacts.wirelessSignal(header + " wlan0: 0000   54.  201.  0        0      0      0      0      0        0\n") == -55, "256 + dBm")
        #expect(HostFacts.wirelessSignal(header) == nil, "no wireless interface")
        #expect(HostFacts.wirelessSignal(header + " wlan0: 0000   70.  junk  -256\n") == nil)
    }

    @Test("read from a root of fixtures: the CPU's zone chosen by its type, boot time to the minute, free disk of the store's folder")
    func readFromRoot() throws {
        let root = ScratchFolder("host-facts")
        let fm = FileManager.default
        for (zone, type, temp) in [(0, "acpitz", "30000"), (1, "cpu-thermal", "51234")] {
            let folder = root.path + "/sys/class/thermal/thermal_zone\(zone)"
            try fm.createDirectory(atPath: folder, withIntermediateDirectories: true)
            try type.write(toFile: folder + "/type", atomically: true, encoding: .utf8)
            try temp.write(toFile: folder + "/temp", atomically: true, encoding: .utf8)
        }
        try fm.createDirectory(atPath: root.path + "/proc/net", withIntermediateDirectories: true)
        try "125.5 200.0\n".write(toFile: root.path + "/proc/uptime", atomically: true, encoding: .utf8)
        let facts = HostFacts.read(storeFolder: root.path, now: 1_764_651_234, root: root.path)
        #expect(facts.cpuTemperature == 51.2, "the cpu zone, not the first")
        let booted: Int64 = 1_764_651_060  // (now - 125 s of uptime) to the minute
        #expect(facts.booted == booted)
        #expect(facts.wifiSignal == nil, "no /proc/net/wireless there")
        #expect((facts.freeDisk ?? -1) > 0, "this file system has room")
        // No thermal zone at all: none, not a zero.
        let bare = ScratchFolder("host-facts-bare")
        #expect(HostFacts.read(storeFolder: bare.path, now: 0, root: bare.path).cpuTemperature == nil)
        #expect(HostFacts.read(storeFolder: bare.path + "/missing", now: 0, root: bare.path).freeDisk == nil)
    }
}
