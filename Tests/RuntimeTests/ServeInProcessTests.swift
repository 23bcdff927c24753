import Activity
import Configuration
import Foundation
import Platform
import Store
import TestSupport
import Testing

@testable import Runtime
@testable import Server

#if canImport(Glibc)
    import Glibc
#endif

/// `glance serve`'s server inside the test's own process (its loop on a thread), answered by a
/// real HTTP client (curl): the same code as the unit runs, reachable from the test's side too.
@Suite("glance serve in-process", .timeLimit(.minutes(10)))
struct ServeInProcessTests {
    /// A value a thread may take (the server runs on one; nothing else touches it meanwhile).
    struct Handed<T>: @unchecked Sendable { let value: T }

    @Test("a day PUT through curl is in the store the test reads; the loop stops when asked")
    func inProcess() throws {
        let folder = NSTemporaryDirectory() + "glance-serve-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let token = "in-process-token-0123456789"
        try (token + "\n").write(toFile: folder + "/token", atomically: true, encoding: .utf8)
        chmod(folder + "/token", 0o600)  // serve refuses a token others may read
        var configuration = Configuration()
        configuration.serve.tokenFile = folder + "/token"
        // Port 0: the kernel picks a free one (a random port once met another test's socket).
        configuration.serve.listen = "127.0.0.1:0"
        var lines: [String] = []
        let lock = NSLock()
        let app = try ServeApp.make(configuration: configuration, database: folder + "/glance.db", log: { line in
            lock.lock()
            lines.append(line)
            lock.unlock()
        }).get()
        var pipeFDs: [Int32] = [-1, -1]
        #expect(pipe(&pipeFDs) == 0)
        let stop = FileDescriptor(rawValue: pipeFDs[0])
        let handed = Handed(value: app)
        let done = DispatchSemaphore(value: 0)
        let status = Handed(value: UnsafeMutablePointer<Outcome>.allocate(capacity: 1))
        let listening = Handed(value: UnsafeMutablePointer<Int>.allocate(capacity: 1))
        listening.value.pointee = 0
        let ready = DispatchSemaphore(value: 0)
        Thread {
            status.value.pointee = handed.value.run(stop: stop, onReady: { _, port in
                listening.value.pointee = port
                ready.signal()
            })
            done.signal()
            ready.signal()  // when it failed before listening
        }.start()
        #expect(ready.wait(timeout: .now() + 10) == .success, "the server listens")
        let port = listening.value.pointee
        lock.lock()
        #expect(port > 0, "\(lines)")
        lock.unlock()
        let body = folder + "/day.json"
        try "{\"move\": 420, \"exercise\": 12}".write(toFile: body, atomically: true, encoding: .utf8)
        // Listening already (onReady came): one request.
        let answer = try runProcess(
            "/usr/bin/curl",
            ["-s", "-m", "30", "-X", "PUT", "-H", "Authorization: Bearer \(token)", "--data-binary", "@" + body,
             "http://127.0.0.1:\(port)/v1/days/2026-11-30"], seconds: 60
        ).stdout
        #expect(answer == "{\"days\":{\"new\":1,\"changed\":0,\"unchanged\":0}}\n")
        let store = try Store(path: folder + "/glance.db", access: .read)
        #expect(try store.summary(for: CalendarDayForServe.day)?.activeEnergyBurned?.value == 420)
        var byte: UInt8 = 1
        _ = write(pipeFDs[1], &byte, 1)
        #expect(done.wait(timeout: .now() + 10) == .success, "the loop stopped")
        #expect(status.value.pointee == .ok)
        lock.lock()
        #expect(lines.contains { $0.contains("PUT /v1/days/2026-11-30 200 from 127.0.0.1") }, "\(lines)")
        lock.unlock()
        close(pipeFDs[0])
        close(pipeFDs[1])
        status.value.deallocate()
        listening.value.deallocate()
    }
}

enum CalendarDayForServe {
    static let day = CalendarDay(year: 2026, month: 11, day: 30)!
}
