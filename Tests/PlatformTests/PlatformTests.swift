import Testing

@testable import Platform

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

@Suite(.timeLimit(.minutes(10))) struct SystemErrorTests {
    @Test func namesTheCallTheErrorAndTheHint() {
        let error = SystemError(
            "DRM CREATE_DUMB 480x480", errno: .permissionDenied, hint: "add the user to group video")
        #expect(error.description == "DRM CREATE_DUMB 480x480: Permission denied (add the user to group video)")
        #expect(
            SystemError("open /dev/dri/card9", errno: .noSuchFile).description
                == "open /dev/dri/card9: No such file or directory")
    }

    @Test func interruptedCallsAreRetriedOthersAreNot() {
        var calls = 0
        let result = retryingInterrupts { () -> Int32 in
            calls += 1
            if calls < 3 {
                errno = EINTR
                return -1
            }
            return 7
        }
        #expect(result == 7 && calls == 3)
        calls = 0
        #expect(throws: SystemError.self) {
            try systemCall("ioctl X") { () -> Int32 in
                calls += 1
                errno = EBUSY
                return -1
            }
        }
        #expect(calls == 1)
    }

    @Test func interruptedCallsReportedAsMinusAnErrnoAreRetried() {
        var calls = 0
        let result = retryingInterrupts(.negativeErrno) { () -> Int32 in
            calls += 1
            return calls < 3 ? -EINTR : 5
        }
        #expect(result == 5 && calls == 3)
        calls = 0
        let again = retryingInterrupts(.negativeErrno) { () -> Int32 in
            calls += 1
            return -EAGAIN
        }
        #expect(again == -EAGAIN)
        #expect(calls == 1, "only EINTR is retried")
        calls = 0
        let n = retryingInterrupts { () -> Int in
            calls += 1
            errno = EAGAIN
            return -1
        }
        #expect(n == -1 && calls == 1, "another errno is handed back at once")
    }

    @Test func openFailureNamesThePath() {
        #expect {
            try FileDescriptor.open("/nonexistent/card0", [.readWrite])
        } throws: { error in
            "\(error)" == "open /nonexistent/card0: No such file or directory"
        }
    }
}

@Suite(.timeLimit(.minutes(10))) struct EventSourceTests {
    @Test func timerBecomesReadableWhenItExpires() throws {
        let timer = try MonotonicTimer()
        #expect(try waitForReadable([timer.descriptor], timeout: .zero).isEmpty)
        try timer.schedule(after: .milliseconds(2))
        let ready = try waitForReadable([timer.descriptor], timeout: .seconds(2))
        #expect(ready == [timer.descriptor])
        #expect(try timer.acknowledge() >= 1)
        try timer.cancel()
        #expect(try waitForReadable([timer.descriptor], timeout: .milliseconds(5)).isEmpty)
    }

    @Test func blockedSignalsArriveAsData() throws {
        let receiver = try SignalReceiver([SIGUSR2])
        #expect(try receiver.next() == nil)
        raise(SIGUSR2)  // blocked on this thread: pending, readable on the signalfd
        #expect(try waitForReadable([receiver.descriptor], timeout: .seconds(2)) == [receiver.descriptor])
        #expect(try receiver.next() == SIGUSR2)
        #expect(SignalReceiver.name(SIGTERM) == "SIGTERM")
    }
}

/// The one poll loop: a turn at once, then sleeps until a descriptor, a signal or the deadline.
@Suite("EventLoop", .timeLimit(.minutes(10)))
struct EventLoopTests {
    @Test("the first turn comes at once; a deadline wakes the loop with nothing ready; a readable pipe wakes it with the pipe")
    func turns() throws {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        defer {
            close(fds[0])
            close(fds[1])
        }
        let reader = FileDescriptor(rawValue: fds[0])
        let loop = try EventLoop(signals: nil)
        var wakeups: [EventLoop.Wakeup] = []
        let start = monotonicNow()
        let ending: String = try loop.run(
            watching: { [Interest(reader)] },
            turn: { (wakeup) throws(SystemError) -> EventLoop.Next<String> in
                wakeups.append(wakeup)
                switch wakeups.count {
                case 1: return .wait(until: wakeup.now + .milliseconds(30))
                case 2:
                    _ = write(fds[1], "x", 1)
                    return .wait(until: nil)
                default: return .end("read")
                }
            }, failed: { $0 })
        #expect(ending == "read")
        #expect(wakeups.count == 3)
        #expect(wakeups[0].ready.isEmpty && wakeups[0].now - start < .seconds(1), "the first turn is at once")
        #expect(wakeups[1].ready.isEmpty && wakeups[1].now - wakeups[0].now >= .milliseconds(30), "the deadline woke it")
        #expect(wakeups[2].ready.map(\.rawValue) == [fds[0]], "the pipe woke it, and only the pipe is reported ready")
    }

    @Test("a source that asks for writing wakes the loop when its descriptor takes bytes; asking for reading alone does not")
    func writeInterest() throws {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        defer {
            close(fds[0])
            close(fds[1])
        }
        let writer = FileDescriptor(rawValue: fds[1])
        let loop = try EventLoop(signals: nil)
        let start = monotonicNow()
        let idle = try loop.wait(watching: [Interest(writer)], until: start + .milliseconds(20))
        #expect(idle.ready.isEmpty, "a pipe's write end is never readable")
        let writable = try loop.wait(watching: [Interest(writer, read: false, write: true)], until: start + .seconds(5))
        #expect(writable.ready == [writer] && writable.now - start < .seconds(5), "an empty pipe takes bytes at once")
    }
}
