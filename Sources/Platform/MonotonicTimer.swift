import CKernelShims

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A monotonic timer that becomes readable when it expires (timerfd): paces animation frames on
/// drivers without vblank events, and sleeps for as long as nothing needs drawing.
public final class MonotonicTimer {
    public let descriptor: FileDescriptor

    public init() throws(SystemError) {
        let fd = try systemCall("timerfd_create") {
            timerfd_create(CLOCK_MONOTONIC, Int32(TFD_CLOEXEC | TFD_NONBLOCK))
        }
        descriptor = FileDescriptor(rawValue: fd)
    }

    /// Fires once after `delay` (at least 1 ns: a zero delay would disarm the timer).
    public func schedule(after delay: Duration) throws(SystemError) {
        var spec = itimerspec()
        let (seconds, attoseconds) = max(delay, .nanoseconds(1)).components
        spec.it_value.tv_sec = Int(seconds)
        spec.it_value.tv_nsec = Int(attoseconds / 1_000_000_000)
        if spec.it_value.tv_sec == 0 && spec.it_value.tv_nsec == 0 { spec.it_value.tv_nsec = 1 }
        try systemCall("timerfd_settime") { timerfd_settime(descriptor.rawValue, 0, &spec, nil) }
    }

    /// Stops the timer.
    public func cancel() throws(SystemError) {
        var spec = itimerspec()
        try systemCall("timerfd_settime") { timerfd_settime(descriptor.rawValue, 0, &spec, nil) }
    }

    /// Reads the expiry count (clears readability); 0 when it has not expired.
    @discardableResult
    public func acknowledge() throws(SystemError) -> UInt64 {
        var count: UInt64 = 0
        let n = try withUnsafeMutableBytes(of: &count) { (bytes) throws(SystemError) in
            try descriptor.read(into: bytes, "timerfd")
        }
        return n == 8 ? count : 0
    }

    deinit { descriptor.close() }
}

/// CLOCK_MONOTONIC now, as a duration since an arbitrary start (boot).
public func monotonicNow() -> Duration {
    var t = timespec()
    clock_gettime(CLOCK_MONOTONIC, &t)
    return .seconds(t.tv_sec) + .nanoseconds(t.tv_nsec)
}

/// CLOCK_BOOTTIME now: the time since the kernel started, suspend included.
public func bootTimeNow() -> Duration {
    var t = timespec()
    clock_gettime(CLOCK_BOOTTIME, &t)
    return .seconds(t.tv_sec) + .nanoseconds(t.tv_nsec)
}

/// Time since the kernel started this process (/proc/self/stat field 22, in clock ticks since
/// boot, so to 1/CLK_TCK s, usually 10 ms).
public func timeSinceProcessStart() -> Duration? {
    guard let file = fopen("/proc/self/stat", "r") else { return nil }
    defer { fclose(file) }
    var bytes = [CChar](repeating: 0, count: 1024)
    guard fgets(&bytes, Int32(bytes.count), file) != nil else { return nil }
    let text = String(decoding: bytes.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    // Fields after the command name (which may hold spaces) start after the last ')'.
    guard let close = text.lastIndex(of: ")") else { return nil }
    let fields = text[text.index(after: close)...].split(separator: " ")
    // fields[0] is field 3 (state); starttime is field 22.
    guard fields.count > 19, let ticks = Int(fields[19]) else { return nil }
    let hz = sysconf(Int32(_SC_CLK_TCK))
    guard hz > 0 else { return nil }
    return bootTimeNow() - .nanoseconds(ticks * (1_000_000_000 / hz))
}

/// The minor page faults this process has taken so far (first touches of memory it mapped):
/// what the startup report counts beside the first frame's times.
public func minorPageFaults() -> Int {
    var usage = rusage()
    // RUSAGE_SELF is 0 (Glibc imports it as an enum its getrusage does not take, Musl as an Int32).
    guard getrusage(0, &usage) == 0 else { return 0 }
    return Int(usage.ru_minflt)
}

/// Readable when the wall clock is set (NTP stepping a Pi without a real-time clock forward by
/// months, `date -s`, a time zone change through settimeofday): a CLOCK_REALTIME timerfd armed
/// far ahead with TFD_TIMER_CANCEL_ON_SET, which the kernel cancels on a clock change. The app
/// then asks the calendar again what today is and when midnight comes.
public final class ClockChangeWatcher {
    public let descriptor: FileDescriptor

    public init() throws(SystemError) {
        let fd = try systemCall("timerfd_create CLOCK_REALTIME") {
            timerfd_create(CLOCK_REALTIME, Int32(TFD_CLOEXEC | TFD_NONBLOCK))
        }
        descriptor = FileDescriptor(rawValue: fd)
        do {
            try arm()
        } catch {
            descriptor.close()
            throw error
        }
    }

    /// Arms (again) for the next change: an expiry that never comes, cancelled by a clock set.
    private func arm() throws(SystemError) {
        var spec = itimerspec()
        spec.it_value.tv_sec = Int(Int32.max)
        let flags = Int32(TFD_TIMER_ABSTIME) | Int32(TFD_TIMER_CANCEL_ON_SET)
        try systemCall("timerfd_settime TFD_TIMER_CANCEL_ON_SET") {
            timerfd_settime(descriptor.rawValue, flags, &spec, nil)
        }
    }

    /// After the descriptor became readable: true when the clock was set (and the watch is armed
    /// again), false when it was not.
    public func acknowledge() -> Bool {
        var count: UInt64 = 0
        let n = withUnsafeMutableBytes(of: &count) { read(descriptor.rawValue, $0.baseAddress, $0.count) }
        guard n < 0, errno == ECANCELED else { return false }
        try? arm()
        return true
    }

    deinit { descriptor.close() }
}
