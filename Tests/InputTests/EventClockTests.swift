import Controls
import Platform
import Testing

@testable import Input

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

@Suite("Event times on the monotonic clock", .timeLimit(.minutes(10)))
struct EventClockTests {
    @Test("libevdev_set_clock_id failing is an error, not ignored")
    func setClockResult() throws {
        #expect(EvdevDevice.clockError(0, path: "/dev/input/event0") == nil)
        let error = try #require(EvdevDevice.clockError(-EINVAL, path: "/dev/input/event0"))
        #expect(error.errno == .invalidArgument && error.call.hasPrefix("libevdev_set_clock_id"))
    }

    @Test("when the kernel does not stamp on CLOCK_MONOTONIC, events are stamped when read")
    func stampedWhenRead() {
        let realtime = 1.7e9  // what the kernel's CLOCK_REALTIME stamp would be
        let now = monotonicNow().inSeconds
        let stamped = EventClock(kernelMonotonic: false).time(kernel: realtime) { now }
        #expect(stamped == now)
        #expect(EventClock(kernelMonotonic: true).time(kernel: 12.5) { now } == 12.5)
        // The loop's clock: a held key's long press comes within a second, not decades later.
        var keys = KeyInterpreter(map: KeyMap(bindings: [28: .select]))
        _ = keys.key(28, value: 1, time: stamped)
        #expect(keys.tick(time: monotonicNow().inSeconds + 1) == [.today])
    }
}
