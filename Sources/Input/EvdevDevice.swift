import Activity
import Controls
import CEvdev
import CKernelShims
import Platform

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// An open evdev device, read through libevdev: whole frames, SYN_DROPPED resynchronised,
/// optionally grabbed so its events reach no one else (the text console, a getty).
public final class EvdevDevice {
    public let path: String
    public let descriptor: FileDescriptor
    public let name: String
    public let capabilities: InputCapabilities
    public private(set) var grabbed = false
    /// Why event times are not the kernel's CLOCK_MONOTONIC stamps, if they are not: then they are
    /// stamped when read (the kernel's own would be CLOCK_REALTIME, ~1.7e9 s, decades away from
    /// the loop's deadlines).
    public let clockProblem: SystemError?
    /// How many times events were lost (SYN_DROPPED) and the state read back from the kernel.
    public private(set) var resynchronisations = 0
    private let device: OpaquePointer

    /// Opens `path` non-blocking and, when `grab`, takes it for this process alone.
    public init(path: String, grab: Bool = false) throws(SystemError) {
        let fd = try FileDescriptor.open(path, [.nonBlocking])
        var dev: OpaquePointer? = nil
        let rc = libevdev_new_from_fd(fd.rawValue, &dev)
        guard rc == 0, let dev else {
            fd.close()
            throw SystemError("libevdev_new_from_fd \(path)", errno: Errno(rawValue: -rc))
        }
        self.path = path
        descriptor = fd
        device = dev
        name = libevdev_get_name(dev).map { String(cString: $0) } ?? "?"
        var caps = InputCapabilities()
        for type in [InputCapabilities.evKey, InputCapabilities.evRel, InputCapabilities.evAbs]
        where libevdev_has_event_type(dev, UInt32(type)) != 0 {
            caps.eventTypes.insert(type)
        }
        for code in 0..<0x300 where libevdev_has_event_code(dev, UInt32(InputCapabilities.evKey), UInt32(code)) != 0 {
            caps.keys.insert(code)
        }
        for code in 0..<0x10 where libevdev_has_event_code(dev, UInt32(InputCapabilities.evRel), UInt32(code)) != 0 {
            caps.relativeAxes.insert(code)
        }
        for code in 0..<0x40 where libevdev_has_event_code(dev, UInt32(InputCapabilities.evAbs), UInt32(code)) != 0 {
            caps.absoluteAxes[code] = .init(
                minimum: Int(libevdev_get_abs_minimum(dev, UInt32(code))),
                maximum: Int(libevdev_get_abs_maximum(dev, UInt32(code))))
        }
        for p in 0..<0x20 where libevdev_has_property(dev, UInt32(p)) != 0 { caps.properties.insert(p) }
        capabilities = caps
        // Event times on the monotonic clock, the one the loop's deadlines use.
        clockProblem = Self.clockError(libevdev_set_clock_id(dev, CLOCK_MONOTONIC), path: path)
        if grab { self.grab() }
    }

    /// Takes the device for this process alone (EVIOCGRAB); false when another process has it.
    @discardableResult
    public func grab() -> Bool {
        if !grabbed { grabbed = libevdev_grab(device, LIBEVDEV_GRAB) == 0 }
        return grabbed
    }

    /// Whether a key or button of the device is down now (libevdev's state, current after
    /// `readEvents`).
    public var anyKeyDown: Bool {
        for code in capabilities.keys where libevdev_get_event_value(device, UInt32(EV_KEY), UInt32(code)) != 0 {
            return true
        }
        return false
    }

    /// Lets others have the device's events again.
    public func ungrab() {
        if grabbed { libevdev_grab(device, LIBEVDEV_UNGRAB) }
        grabbed = false
    }

    deinit {
        if grabbed { libevdev_grab(device, LIBEVDEV_UNGRAB) }
        libevdev_free(device)
        descriptor.close()
    }


    /// Every event waiting, in order; after a SYN_DROPPED, libevdev's synchronisation events
    /// bring the state (keys, slots) up to date. Throws ENODEV when the device went away.
    public func readEvents() throws(SystemError) -> [InputEvent] {
        var events: [InputEvent] = []
        var flags = LIBEVDEV_READ_FLAG_NORMAL.rawValue
        var ev = input_event()
        let clock = EventClock(kernelMonotonic: clockProblem == nil)
        var readAt: Double?
        while true {
            let rc = retryingInterrupts(.negativeErrno) { libevdev_next_event(device, flags, &ev) }
            if rc == LIBEVDEV_READ_STATUS_SUCCESS.rawValue || rc == LIBEVDEV_READ_STATUS_SYNC.rawValue {
                if rc == LIBEVDEV_READ_STATUS_SYNC.rawValue && flags != LIBEVDEV_READ_FLAG_SYNC.rawValue {
                    // Events were dropped: libevdev hands out the changes that bring keys and
                    // slots up to date, then normal reading goes on.
                    flags = LIBEVDEV_READ_FLAG_SYNC.rawValue
                    resynchronisations += 1
                }
                let time = clock.time(kernel: glance_input_event_seconds(&ev)) {
                    if readAt == nil { readAt = monotonicNow().inSeconds }
                    return readAt!
                }
                events.append(InputEvent(time: time, type: ev.type, code: ev.code, value: ev.value))
                continue
            }
            if rc == -EAGAIN {
                // The end of a resync returns to normal reading; the end of normal reading stops.
                if flags == LIBEVDEV_READ_FLAG_SYNC.rawValue {
                    flags = LIBEVDEV_READ_FLAG_NORMAL.rawValue
                    continue
                }
                return events
            }
            throw SystemError("read \(path)", errno: Errno(rawValue: -rc))
        }
    }

    /// What libevdev_set_clock_id's result (0, or minus an errno) means for event times.
    static func clockError(_ rc: Int32, path: String) -> SystemError? {
        rc == 0 ? nil : SystemError("libevdev_set_clock_id CLOCK_MONOTONIC \(path)", errno: Errno(rawValue: -rc))
    }
}

/// Event times on the loop's clock, CLOCK_MONOTONIC: the kernel's stamps when it stamps on that
/// clock, else the time the events are read.
struct EventClock {
    var kernelMonotonic: Bool

    func time(kernel: Double, readAt: () -> Double) -> Double { kernelMonotonic ? kernel : readAt() }
}
