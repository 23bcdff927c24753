@testable import DeviceLogic
import Backlight
import Controls
import Activity
import CKernelShims
import Foundation
import Configuration
import Input
import Platform
import Raster
import Screens
import Testing

@testable import Runtime
@testable import Clocks

/// A recorded stream from Tests/InputTests/Fixtures.
func recorded(_ name: String) throws -> [InputEvent] {
    var path = #filePath
    for _ in 0..<2 { path = String(path[..<path.lastIndex(of: "/")!]) }
    var text = ""
    // (unwrapped: Debian 13's glibc marks the FILE * of fgets and fclose non-null)
    let file = try #require(fopen(path + "/InputTests/Fixtures/" + name, "r"))
    defer { fclose(file) }
    var line = [CChar](repeating: 0, count: 512)
    while fgets(&line, 512, file) != nil { text += String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) }
    return try EventRecording.parse(text)
}

#if canImport(Glibc)
    import Glibc
#endif

@Suite("Input router: devices to commands, waking first", .timeLimit(.minutes(10)))
struct InputRouterTests {
    static let touchscreen = DeviceDescription(
        path: "/dev/input/event5",
        capabilities: InputCapabilities(
            eventTypes: [1, 3], keys: [0x14A],
            absoluteAxes: [0x2F: .init(minimum: 0, maximum: 9), 0x35: .init(minimum: 0, maximum: 4095),
                           0x36: .init(minimum: 0, maximum: 4095), 0x00: .init(minimum: 0, maximum: 4095),
                           0x01: .init(minimum: 0, maximum: 4095)],
            properties: [1]))
    static let tablet = DeviceDescription(
        path: "/dev/input/event3",
        capabilities: InputCapabilities(
            eventTypes: [1, 3], keys: [0x110, 0x111, 0x112],
            absoluteAxes: [0: .init(minimum: 0, maximum: 32767), 1: .init(minimum: 0, maximum: 32767)]))
    static let keyboard = DeviceDescription(
        path: "/dev/input/event1", capabilities: InputCapabilities(eventTypes: [1], keys: Set(1..<120)))

    static func router(rotation: Rotation = .none) throws -> InputRouter {
        InputRouter(keyMap: try KeyMap.make(Configuration()).get(), touch: TouchSetting(),
                    panel: Size(width: 800, height: 480), rotation: rotation)
    }

    @Test("a multi-touch swipe to the left shows the next day; a tablet drag up the next screen; a click is a tap")
    func touch() throws {
        var r = try Self.router()
        #expect(r.feed(try recorded("mt-swipe-left.events"), from: Self.touchscreen, asleep: false).commands == [.action(.nextDay)])
        #expect(r.feed(try recorded("tablet-drag-up.events"), from: Self.tablet, asleep: false).commands == [.action(.nextScreen)])
        let tap = r.feed(try recorded("tablet-tap.events"), from: Self.tablet, asleep: false).commands
        guard case .tap(let p) = tap.first else {
            Issue.record("no tap: \(tap)")
            return
        }
        #expect(abs(p.x - 400) < 1 && abs(p.y - 240) < 1)
    }

    @Test("on a panel turned a quarter, a swipe along the panel's long side browses days in the picture's terms")
    func rotated() throws {
        var r = try Self.router(rotation: .quarter)
        // The picture is turned 90° clockwise onto the panel: its top is the panel's right edge.
        // A finger moving from the panel's right to its left moves from the picture's top to its
        // bottom: a swipe down, the previous screen.
        #expect(r.feed(try recorded("mt-swipe-left.events"), from: Self.touchscreen, asleep: false).commands == [.action(.previousScreen)])
    }

    @Test("while asleep, the first key only wakes: its release does not act; the next key does")
    func wakeKeys() throws {
        var r = try Self.router()
        let right = EventNames.keyCode(named: "KEY_RIGHT")!
        func key(_ v: Int32, _ t: Double) -> [InputEvent] {
            [InputEvent(time: t, type: 1, code: right, value: v), InputEvent(time: t, type: 0, code: 0, value: 0)]
        }
        let woke = r.feed(key(1, 1), from: Self.keyboard, asleep: true)
        #expect(woke.woke && woke.activity && woke.commands.isEmpty)
        #expect(r.feed(key(0, 1.1), from: Self.keyboard, asleep: false).commands.isEmpty)
        // Right has a long press (today): a tap acts on release.
        #expect(r.feed(key(1, 2), from: Self.keyboard, asleep: false).commands.isEmpty)
        #expect(r.feed(key(0, 2.1), from: Self.keyboard, asleep: false).commands == [.action(.nextDay)])
    }

    @Test("while asleep, a touch only wakes: the swipe it makes does nothing")
    func wakeTouch() throws {
        var r = try Self.router()
        let outcome = r.feed(try recorded("mt-swipe-left.events"), from: Self.touchscreen, asleep: true)
        #expect(outcome.woke && outcome.commands.isEmpty)
        #expect(r.feed(try recorded("mt-swipe-left.events"), from: Self.touchscreen, asleep: false).commands == [.action(.nextDay)])
    }

    @Test("two quick taps far apart in one slot are two taps, not a swipe")
    func retouch() throws {
        var r = try Self.router()
        let events = try EventRecording.parse(
            """
            0.00 EV_ABS ABS_MT_SLOT 0
            0.00 EV_ABS ABS_MT_TRACKING_ID 7
            0.00 EV_ABS ABS_MT_POSITION_X 3000
            0.00 EV_ABS ABS_MT_POSITION_Y 2000
            0.00 EV_SYN SYN_REPORT 0
            0.10 EV_ABS ABS_MT_TRACKING_ID -1
            0.10 EV_ABS ABS_MT_TRACKING_ID 8
            0.10 EV_ABS ABS_MT_POSITION_X 500
            0.10 EV_SYN SYN_REPORT 0
            0.20 EV_ABS ABS_MT_TRACKING_ID -1
            0.20 EV_SYN SYN_REPORT 0
            """)
        let commands = r.feed(events, from: Self.touchscreen, asleep: false).commands
        #expect(commands.count == 2 && commands.allSatisfy { if case .tap = $0 { true } else { false } }, "\(commands)")
    }

    @Test("a key's repeats and a finger's moves are activity, not only presses and touches")
    func activity() throws {
        var r = try Self.router()
        let right = EventNames.keyCode(named: "KEY_RIGHT")!
        let syn = InputEvent(time: 0, type: 0, code: 0, value: 0)
        _ = r.feed([InputEvent(time: 1, type: 1, code: right, value: 1), syn], from: Self.keyboard, asleep: false)
        let repeated = r.feed(
            [InputEvent(time: 1.5, type: 1, code: right, value: 2), syn], from: Self.keyboard, asleep: false)
        // The keyboard repeats Right: its press (held back for a long press) and the repeat.
        #expect(repeated.activity && repeated.commands == [.action(.nextDay), .action(.nextDay)])
        let swipe = try recorded("mt-swipe-left.events")
        let firstFrame = swipe.firstIndex { $0.isSynReport }! + 1
        _ = r.feed(Array(swipe[..<firstFrame]), from: Self.touchscreen, asleep: false)
        let moved = r.feed(Array(swipe[firstFrame..<firstFrame + 6]), from: Self.touchscreen, asleep: false)
        #expect(moved.activity && moved.commands.isEmpty)
    }

    @Test("a keyboard going away forgets its own held keys, not another's long press or waking key")
    func removedDevice() throws {
        var r = try Self.router()
        let other = DeviceDescription(path: "/dev/input/event2", capabilities: Self.keyboard.capabilities)
        let enter = EventNames.keyCode(named: "KEY_ENTER")!
        let right = EventNames.keyCode(named: "KEY_RIGHT")!
        _ = r.feed([InputEvent(time: 5, type: 1, code: enter, value: 1)], from: Self.keyboard, asleep: false)
        r.removed(path: other.path)
        #expect(r.nextDeadline == 5.8)
        #expect(r.tick(time: 5.8) == [.held(.today)])

        // Right held to wake the panel on one keyboard stays a waking key when the other goes.
        let woke = r.feed([InputEvent(time: 10, type: 1, code: right, value: 1)], from: other, asleep: true)
        #expect(woke.woke)
        r.removed(path: Self.keyboard.path)
        for (time, value) in [(10.5, 2), (10.6, 0)] as [(Double, Int32)] {
            let held = r.feed([InputEvent(time: time, type: 1, code: right, value: value)], from: other, asleep: false)
            #expect(held.commands.isEmpty)
        }

        // The device that went away: its held key is forgotten.
        _ = r.feed([InputEvent(time: 20, type: 1, code: enter, value: 1)], from: other, asleep: false)
        r.removed(path: other.path)
        #expect(r.nextDeadline == nil && r.tick(time: 21).isEmpty)
    }

    @Test("reset forgets every device's held keys (input went to another console meanwhile)")
    func reset() throws {
        var r = try Self.router()
        let enter = EventNames.keyCode(named: "KEY_ENTER")!
        let other = DeviceDescription(path: "/dev/input/event2", capabilities: Self.keyboard.capabilities)
        _ = r.feed([InputEvent(time: 5, type: 1, code: enter, value: 1)], from: Self.keyboard, asleep: false)
        _ = r.feed([InputEvent(time: 5.2, type: 1, code: enter, value: 1)], from: other, asleep: false)
        #expect(r.nextDeadline != nil)
        r.reset()
        #expect(r.nextDeadline == nil && r.tick(time: 6).isEmpty)
        // The release that comes later does nothing.
        #expect(r.feed([InputEvent(time: 7, type: 1, code: enter, value: 0)], from: Self.keyboard, asleep: false).commands.isEmpty)

        // A finger down through the reset, in slot 1: ignored until lifted (no tap from its
        // lift); the slot is still followed, so the next touch in slot 1 is a tap.
        let down = try EventRecording.parse(
            """
            10.00 EV_ABS ABS_MT_SLOT 1
            10.00 EV_ABS ABS_MT_TRACKING_ID 9
            10.00 EV_ABS ABS_MT_POSITION_X 2000
            10.00 EV_ABS ABS_MT_POSITION_Y 2000
            10.00 EV_KEY BTN_TOUCH 1
            10.00 EV_SYN SYN_REPORT 0
            """)
        _ = r.feed(down, from: Self.touchscreen, asleep: false)
        r.reset()
        let lift = try EventRecording.parse(
            """
            10.10 EV_ABS ABS_MT_TRACKING_ID -1
            10.10 EV_KEY BTN_TOUCH 0
            10.10 EV_SYN SYN_REPORT 0
            """)
        #expect(r.feed(lift, from: Self.touchscreen, asleep: false).commands.isEmpty, "a tap from a finger of before")
        let tap = try EventRecording.parse(
            """
            11.00 EV_ABS ABS_MT_TRACKING_ID 10
            11.00 EV_ABS ABS_MT_POSITION_X 2100
            11.00 EV_ABS ABS_MT_POSITION_Y 2100
            11.00 EV_KEY BTN_TOUCH 1
            11.00 EV_SYN SYN_REPORT 0
            11.08 EV_ABS ABS_MT_TRACKING_ID -1
            11.08 EV_KEY BTN_TOUCH 0
            11.08 EV_SYN SYN_REPORT 0
            """)
        let commands = r.feed(tap, from: Self.touchscreen, asleep: false).commands
        #expect(commands.count == 1 && commands.allSatisfy { if case .tap = $0 { true } else { false } }, "\(commands)")
    }

    @Test("a held key's long press comes from the clock")
    func longPress() throws {
        var r = try Self.router()
        let enter = EventNames.keyCode(named: "KEY_ENTER")!
        _ = r.feed([InputEvent(time: 5, type: 1, code: enter, value: 1)], from: Self.keyboard, asleep: false)
        #expect(r.nextDeadline == 5.8)
        #expect(r.tick(time: 5.8) == [.held(.today)])
    }
}

/// A calendar and wall clock that tests move by hand: the day, the time until midnight, and the
/// seconds since midnight (the time of day and the next minute follow from them).
final class TestClock: LocalClock {
    var day: CalendarDay
    var untilMidnight: Double
    var wall: Double
    init(_ day: CalendarDay, untilMidnight: Double, wall: Double = 15 * 3600) {
        self.day = day
        self.untilMidnight = untilMidnight
        self.wall = wall
    }
    func today() -> CalendarDay { day }
    func secondsUntilMidnight() -> Double { untilMidnight }
    func timeOfDay() -> TimeOfDay {
        let minutes = Int(wall / 60)
        return TimeOfDay(hour: (minutes / 60) % 24, minute: minutes % 60)!
    }
    func secondsUntilNextMinute() -> Double { 60 - wall.truncatingRemainder(dividingBy: 60) }
}

/// The local calendar of the C library (the device's decisions are tested in DeviceLogicTests).
@Suite("Clocks: the C library's calendar", .timeLimit(.minutes(10)))
struct SystemClockTests {
    @Test("midnight by the time zone's calendar: 23 hours on the day summer time starts, 25 when it ends")
    func daylightSaving() throws {
        // In a child process: TZ is the process's.
        for (utc, expected) in [
            // 2026-03-29 00:30 CET (23:30 UTC the day before): midnight is 22.5 h away.
            (1_774_740_600, 81_000.0),
            // 2026-10-25 00:30 CEST (22:30 UTC the day before): 24.5 h away.
            (1_792_881_000, 88_200.0),
        ] {
            let status = inChildProcess {
                setenv("TZ", "Europe/Berlin", 1)
                tzset()
                return SystemLocalClock().secondsUntilMidnight(from: time_t(utc)) == expected ? 0 : 1
            }
            #expect(status == 0, "midnight after \(utc) in Berlin")
        }
    }
}

/// Runs `body` in a forked child and returns its exit status, or 128 + the signal that ended it.
/// A child still running after 60 s is killed (SIGKILL, 137): forked from a process whose other
/// threads run tests, it could wait forever on a lock one of them held, and so would the run.
func inChildProcess(_ body: () -> Int32) -> Int32 {
    fflush(nil)
    let pid = fork()
    if pid == 0 { _exit(body()) }
    var status: Int32 = 0
    var waited = 0
    while waitpid(pid, &status, WNOHANG) == 0 {
        if waited >= 6000 {
            kill(pid, SIGKILL)
            waitpid(pid, &status, 0)
            break
        }
        usleep(10_000)
        waited += 1
    }
    let signal = status & 0x7F
    return signal == 0 ? (status >> 8) & 0xFF : 128 + signal
}

@Suite("Backlight", .timeLimit(.minutes(10)))
struct BacklightTests {
    /// A folder standing in for /sys/class/backlight with one light, `panel`.
    struct Folder {
        let root: String
        var light: String { root + "/panel" }
        init(_ name: String) {
            root = "/tmp/glance-backlight-\(name)-\(getpid())"
            mkdir(root, 0o755)
            mkdir(light, 0o755)
        }
        /// Writes one of the light's files.
        func put(_ file: String, _ text: String) {
            guard let f = fopen(light + "/" + file, "w") else { return }
            fputs(text, f)
            fclose(f)
        }
        func remove() { _ = system("rm -rf \(root)") }
    }

    @Test("found in sysfs; dims, turns off and comes back to the brightness it had")
    func sysfs() throws {
        let folder = Folder("sysfs")
        defer { folder.remove() }
        let root = folder.root, light = folder.light, put = folder.put
        func get() -> String {
            guard let f = fopen(light + "/brightness", "r") else { return "?" }
            defer { fclose(f) }
            var b = [CChar](repeating: 0, count: 32)
            fgets(&b, 32, f)
            return String(decoding: b.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        }
        put("max_brightness", "255\n")
        put("brightness", "200\n")
        let b = try #require(Backlight.find(in: root, log: { _ in }))
        #expect(b.maximum == 255 && b.original == 200)
        #expect(b.set(value: 60) && get() == "60" && b.value == 60)
        #expect(b.set(value: 0) && get() == "0")
        b.restore()
        #expect(get() == "200")
        #expect(Backlight.find(in: root + "/none", log: { _ in }) == nil)
        // Off at start (a run killed while blank): awake means full brightness, not dark for good.
        put("brightness", "0\n")
        let off = try #require(Backlight.find(in: root, log: { _ in }))
        #expect(off.original == 255)
        // A crash while dimmed puts the brightness back, through the fatal-signal handler.
        put("brightness", "200\n")
        let crashed = inChildProcess {
            guard let light = Backlight.find(in: root, log: { _ in }) else { return 2 }
            light.armCrashRestore()
            light.set(value: 20)
            raise(SIGSEGV)
            return 3
        }
        #expect(crashed == 128 + SIGSEGV)
        #expect(get() == "200")
        // The same for Ctrl+\ (SIGQUIT) and for a stack overflow (the handler has its own stack).
        for (signal, overflow) in [(SIGQUIT, false), (SIGSEGV, true)] {
            put("brightness", "200\n")
            let status = inChildProcess {
                guard let light = Backlight.find(in: root, log: { _ in }) else { return 2 }
                light.armCrashRestore()
                light.set(value: 20)
                if overflow { return Int32(truncatingIfNeeded: recurseForever(1)) }
                // The test runner blocks some signals; the child takes them as the app does.
                var mask = sigset_t()
                sigemptyset(&mask)
                sigaddset(&mask, signal)
                sigprocmask(SIG_UNBLOCK, &mask, nil)
                raise(signal)
                return 3
            }
            #expect(status == 128 + signal, "signal \(signal), overflow \(overflow)")
            #expect(get() == "200", "signal \(signal), overflow \(overflow)")
        }
    }

    @Test("as the device's light (PanelLight): the level found, on or off only, and why it cannot be set")
    func panelLight() throws {
        let folder = Folder("port")
        defer { folder.remove() }
        let root = folder.root, light = folder.light, put = folder.put
        put("max_brightness", "100\n")
        put("brightness", "40\n")
        let pwm = try #require(Backlight.find(in: root, log: { _ in }))
        #expect(pwm.info == PanelLightInfo(path: light, maximum: 100, foundLevel: 0.4) && !pwm.onOff)
        #expect(pwm.set(level: 80) == nil)
        // One that is only switched (gpio-backlight).
        put("max_brightness", "1\n")
        put("brightness", "1\n")
        let switched = try #require(Backlight.find(in: root, log: { _ in }))
        #expect(switched.onOff && switched.info.maximum == 1 && switched.foundLevel == 1)
        // Its brightness can no longer be written (a directory: root may write any file): why not.
        unlink(light + "/brightness")
        mkdir(light + "/brightness", 0o755)
        #expect(switched.set(level: 0) != nil)
    }
}

/// Recursion without end (a stack overflow), kept from being turned into a loop.
@inline(never)
func recurseForever(_ n: Int) -> Int {
    var frame = [Int](repeating: n, count: 1)
    frame.withUnsafeMutableBufferPointer { _ in }
    return recurseForever(n &+ frame[0]) &+ 1
}
