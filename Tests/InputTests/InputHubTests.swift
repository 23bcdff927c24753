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
            directory: directory.path, grab: grab, log: { [unowned self] in lines.append($0) },
            opener: { [unowned self] path throws(SystemError) in
                opened.append(path)
                throw SystemError("open \(path)", errno: failure[String(path.split(separator: "/").last!)] ?? .notTTY)
            })
    }
}

@Suite("Input hub: nodes opened, failures told")
struct InputHubTests {
    @Test("at startup each node is opened once, in number order; other files are not")
    func opensEachNodeOnce() throws {
        let dir = try ScratchDirectory()
        for name in ["event10", "event2", "mouse0", "event0"] { try dir.create(name) }
        let probe = HubProbe()
        _ = probe.hub(dir)
        #expect(probe.opened == ["event0", "event2", "event10"].map { dir.path + "/" + $0 })
    }
}
