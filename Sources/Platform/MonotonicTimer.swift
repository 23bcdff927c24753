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
