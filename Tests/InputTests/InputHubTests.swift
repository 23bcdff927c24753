import Platform
import Testing

@testable import Input

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A scratch directory standing in for /dev/input: plain files named like event nodes.
final class ScratchDirectory {
    let path: String
    private var files: [String] = []

    init() throws {
        var template = Array("/tmp/glance-input-XXXXXX".utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) != nil }
        try #require(made)
        path = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    func create(_ name: String, mode: mode_t = 0o600) throws {
        let fd = open(path + "/" + name, O_CREAT | O_WRONLY | O_CLOEXEC, mode)
        try #require(fd >= 0)
        close(fd)
        files.append(name)
    }

    deinit {
        for name in files { unlink(path + "/" + name) }
        rmdir(path)
    }
}

/// What the hub logged and which nodes it tried, with an opener that fails as told.
final class HubProbe {
    var lines: [String] = []
    var opened: [String] = []
    var failure: [String: Errno] = [:]

    func hub(_ directory: ScratchDirectory, grab: Bool = true) -> InputHub {
        InputHub(
            directory: directory.path, grab: grab, wanted: InputHub.anyKey,
            log: { [unowned self] in lines.append($0) },
            opener: { [unowned self] path throws(SystemError) in
                opened.append(path)
                throw SystemError("open \(path)", errno: failure[String(path.split(separator: "/").last!)] ?? .notTTY)
            })
    }
}

@Suite("Input hub: nodes opened, failures told", .timeLimit(.minutes(10)))
struct InputHubTests {
    @Test("at startup each node is opened once, in number order; other files are not")
    func opensEachNodeOnce() throws {
        let dir = try ScratchDirectory()
        for name in ["event10", "event2", "mouse0", "event0"] { try dir.create(name) }
        let probe = HubProbe()
        _ = probe.hub(dir)
        #expect(probe.opened == ["event0", "event2", "event10"].map { dir.path + "/" + $0 })
    }

    @Test("at startup, nodes that cannot be opened are told in one line, with the group to join")
    func unreadableAtStartup() throws {
        let dir = try ScratchDirectory()
        for name in ["event0", "event1", "event2"] { try dir.create(name, mode: 0) }
        let probe = HubProbe()
        probe.failure = ["event0": .permissionDenied, "event2": .permissionDenied, "event1": .noSuchDevice]
        _ = probe.hub(dir)
        let denied = probe.lines.filter { $0.contains("Permission denied") }
        #expect(
            denied == [
                "input: cannot open \(dir.path)/event0, \(dir.path)/event2: Permission denied (add the user to group input)"
            ])
        #expect(probe.lines.contains { $0.hasPrefix("input: \(dir.path)/event1: ") && $0.contains("No such device") })
        #expect(probe.lines.count == 2, "\(probe.lines)")
    }

    @Test("a node that appears unreadable is tried again quietly (udev sets its permissions after creating it)")
    func hotPlugPermission() throws {
        let dir = try ScratchDirectory()
        let probe = HubProbe()
        let hub = probe.hub(dir)
        let watch = try #require(hub.descriptors.first)
        probe.failure = ["event4": .permissionDenied]
        try dir.create("event4", mode: 0)
        _ = hub.handle([watch])
        #expect(probe.opened.contains(dir.path + "/event4"))
        #expect(probe.lines.isEmpty, "\(probe.lines)")
        // udev then gives it its group (IN_ATTRIB): it is tried again, each time its permissions
        // change, and still quietly while it cannot be opened.
        let tries = { probe.opened.filter { $0 == dir.path + "/event4" }.count }
        let first = tries()
        for (i, mode) in [0o640, 0o660].enumerated() {
            chmod(dir.path + "/event4", mode_t(mode))
            _ = hub.handle([watch])
            #expect(tries() == first + i + 1, "tried again once its permissions changed to \(String(mode, radix: 8))")
        }
        #expect(probe.lines.isEmpty, "\(probe.lines)")
        // Other failures are told.
        probe.failure = ["event5": .noSuchDevice]
        try dir.create("event5")
        _ = hub.handle([watch])
        #expect(probe.lines.count == 1 && probe.lines.first?.contains("event5") == true, "\(probe.lines)")
    }
}
