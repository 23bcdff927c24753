import TestSupport
import Testing

@testable import Platform

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A datagram socket standing in for systemd's notification socket: bound to a file path, or to
/// an abstract name ("@name").
final class NotifySocket {
    let fd: Int32
    let name: String

    init(_ name: String) throws {
        self.name = name
        fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        try #require(fd >= 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        var path = Array(name.utf8)
        let abstract = path.first == UInt8(ascii: "@")
        if abstract { path[0] = 0 }
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: path) }
        let length = MemoryLayout<sockaddr_un>.offset(of: \.sun_path)! + path.count + (abstract ? 0 : 1)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(length)) }
        }
        try #require(bound == 0, "bind \(name): \(String(cString: strerror(errno)))")
    }

    /// The next datagram, or nil when none is queued (the sender's sendto has returned, so a
    /// datagram that was sent is already here).
    func receive() -> String? {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
        return n < 0 ? nil : String(decoding: buffer[0..<n], as: UTF8.self)
    }

    deinit {
        close(fd)
        if name.hasPrefix("/") { unlink(name) }
    }
}

@Suite(.timeLimit(.minutes(10))) struct SystemdNotifierTests {
    /// A socket path in a fresh scratch folder (TestSupport's).
    static func scratchPath() -> String { ScratchFolder.kept("notify") + "/notify.sock" }

    @Test("READY, WATCHDOG, STATUS and STOPPING reach a socket bound to a path")
    func pathSocket() throws {
        let receiver = try NotifySocket(Self.scratchPath())
        let notifier = try #require(SystemdNotifier(environment: ["NOTIFY_SOCKET": receiver.name]))
        try notifier.ready(status: "first frame on DSI-1")
        #expect(receiver.receive() == "READY=1\nSTATUS=first frame on DSI-1")
        try notifier.watchdog()
        #expect(receiver.receive() == "WATCHDOG=1")
        try notifier.stopping()
        #expect(receiver.receive() == "STOPPING=1")
        #expect(receiver.receive() == nil)
    }

    @Test("an abstract socket name ('@…') is reached without its '@' and without a trailing NUL")
    func abstractSocket() throws {
        let name = "@glance-notify-test-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let receiver = try NotifySocket(name)
        let notifier = try #require(SystemdNotifier(environment: ["NOTIFY_SOCKET": name]))
        try notifier.ready()
        #expect(receiver.receive() == "READY=1")
        // A name one byte longer is another socket: the length sent must be exact.
        let other = try #require(SystemdNotifier(environment: ["NOTIFY_SOCKET": name + "x"]))
        #expect(throws: SystemError.self) { try other.watchdog() }
        #expect(receiver.receive() == nil)
    }

    @Test("a socket nobody listens on gives an error naming NOTIFY_SOCKET")
    func nobodyListens() throws {
        let path = Self.scratchPath()
        let notifier = try #require(SystemdNotifier(environment: ["NOTIFY_SOCKET": path]))
        do {
            try notifier.ready()
            Issue.record("sending to \(path) succeeded with nobody listening")
        } catch {
            #expect(error.description.contains("NOTIFY_SOCKET \(path)"), "\(error)")
            #expect(error.errno == Errno(rawValue: ENOENT) || error.errno == Errno(rawValue: ECONNREFUSED))
        }
    }

    @Test("no or unusable NOTIFY_SOCKET: no notifier")
    func outsideSystemd() {
        #expect(SystemdNotifier(environment: [:]) == nil)
        #expect(SystemdNotifier(environment: ["NOTIFY_SOCKET": "relative/path"]) == nil)
        #expect(SystemdNotifier(environment: ["NOTIFY_SOCKET": "@"]) == nil)
        #expect(SystemdNotifier(environment: ["NOTIFY_SOCKET": "/" + String(repeating: "x", count: 120)]) == nil)
    }

    @Test("WATCHDOG_USEC sets the timeout, pinged at half of it; WATCHDOG_PID of another process disables it")
    func watchdogTimeout() throws {
        let env = ["NOTIFY_SOCKET": "/run/systemd/notify", "WATCHDOG_USEC": "10000000"]
        let mine = try #require(SystemdNotifier(environment: env, processID: 42))
        #expect(mine.watchdogTimeout == .seconds(10) && mine.watchdogInterval == .seconds(5))
        var forMe = env
        forMe["WATCHDOG_PID"] = "42"
        #expect(SystemdNotifier(environment: forMe, processID: 42)?.watchdogInterval == .seconds(5))
        var forAnother = env
        forAnother["WATCHDOG_PID"] = "43"
        #expect(SystemdNotifier(environment: forAnother, processID: 42)?.watchdogTimeout == nil)
        #expect(SystemdNotifier(environment: ["NOTIFY_SOCKET": "/x"])?.watchdogTimeout == nil)
        #expect(SystemdNotifier(environment: ["NOTIFY_SOCKET": "/x", "WATCHDOG_USEC": "0"])?.watchdogTimeout == nil)
    }

    @Test("the process environment is read when none is given")
    func processEnvironment() throws {
        let receiver = try NotifySocket(Self.scratchPath())
        let saved = getenv("NOTIFY_SOCKET").map { String(cString: $0) }
        setenv("NOTIFY_SOCKET", receiver.name, 1)
        defer {
            if let saved { setenv("NOTIFY_SOCKET", saved, 1) } else { unsetenv("NOTIFY_SOCKET") }
        }
        let notifier = try #require(SystemdNotifier())
        #expect(notifier.socket == receiver.name)
        try notifier.watchdog()
        // Among what came: a process another test starts meanwhile inherits the variable and may
        // tell this socket its own READY=1.
        var messages: [String] = []
        while let message = receiver.receive() { messages.append(message) }
        #expect(messages.contains("WATCHDOG=1"), "\(messages)")
    }
}
