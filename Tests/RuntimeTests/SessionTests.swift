@testable import DeviceLogic
import Activity
import Clocks
import Configuration
import Controls
import Input
import Platform
import Raster
import Screens
import Testing

@testable import Runtime

#if canImport(Glibc)
    import Glibc
#endif

/// The session's loop, turn by turn, against a recording sink and a made-up clock: what the VM
/// tests show on a real kernel (idle, blanking, console switches), here without one.
@Suite("Session: the loop against a recording sink", .timeLimit(.minutes(10)))
struct SessionTests {
    static let day = CalendarDay(year: 2026, month: 11, day: 30)!
    static let t0 = Duration.seconds(1000)
    static let size = Size(width: 64, height: 64)

    /// A session showing a fixed day (rings only: no fonts), with the idle times given.
    static func session(
        _ sink: RecordingSink, dimAfter: Double? = nil, blankAfter: Double? = nil, summary: ActivitySummary? = nil
    ) throws -> (Session, PanelController) {
        var settings = Settings()
        settings.show.ringsOnly = true
        settings.idle = IdleSchedule(dimAfter: dimAfter, blankAfter: blankAfter, dimLevel: 0.3)
        settings.show.today = .date(day)
        let data = FixedData(days: [day: summary ?? Self.summary])
        let app = try Assembly.make(
            settings, sink: sink, parts: .init(text: .some(nil), clock: FixedClock(day), data: data, now: t0), log: { _ in }).get()
        return (app.session, app.controller)
    }

    static let summary = ActivitySummary(
        activeEnergyBurned: .kilocalories(375), activeEnergyBurnedGoal: .kilocalories(500), exerciseTime: 15,
        exerciseTimeGoal: 30, standHours: 6, standHoursGoal: 12)

    /// The brightest channel of a frame.
    static func brightest(_ frame: PixelBuffer) -> UInt8 {
        var top: UInt8 = 0
        for y in 0..<frame.height {
            for x in 0..<frame.width {
                let c = frame.color(x: x, y: y)
                top = max(top, c.red, c.green, c.blue)
            }
        }
        return top
    }

    @Test("a still screen: one frame, then no timer at all until something happens")
    func stillScreenSleeps() throws {
        let sink = RecordingSink(size: Self.size)
        let (session, _) = try Self.session(sink)
        #expect(try session.turn(now: Self.t0, ready: [], signals: []) == .wait(until: nil))
        #expect(sink.frames.count == 1)
        #expect(try session.turn(now: Self.t0 + .seconds(5), ready: [], signals: []) == .wait(until: nil))
        #expect(sink.frames.count == 1, "nothing changed: nothing drawn")
        #expect(Self.brightest(sink.frames[0].picture) > 200, "the rings are on the first frame")
    }

    @Test("idle: the picture dims after dimAfter, goes black and powers down after blankAfter, and wakes on return")
    func dimThenBlank() throws {
        let sink = RecordingSink(size: Self.size)
        let (session, controller) = try Self.session(sink, dimAfter: 60, blankAfter: 300)
        #expect(try session.turn(now: Self.t0, ready: [], signals: []) == .wait(until: Self.t0 + .seconds(60)))
        let full = Self.brightest(sink.frames[0].picture)
        #expect(try session.turn(now: Self.t0 + .seconds(60), ready: [], signals: []) == .wait(until: Self.t0 + .seconds(300)))
        #expect(sink.frames.count == 2)
        let dimmed = Self.brightest(sink.frames[1].picture)
        #expect(dimmed < full && dimmed > 0, "dimmed: \(dimmed) of \(full)")
        #expect(abs(Double(dimmed) - Double(full) * 0.3) < 3, "to the dim level: \(dimmed) of \(full)")
        _ = try session.turn(now: Self.t0 + .seconds(300), ready: [], signals: [])
        #expect(sink.frames.count == 3)
        #expect(Self.brightest(sink.frames[2].picture) == 0, "blank is black")
        #expect(sink.poweredDown && sink.events.suffix(2) == ["present", "power off"])
        #expect(controller.blanked)
        // Nothing more while blank, however long.
        #expect(try session.turn(now: Self.t0 + .seconds(3600), ready: [], signals: []) == .wait(until: nil))
        #expect(sink.frames.count == 3)
    }

    /// A session that blanks after 10 s, telling `log` what it tells.
    static func blanking(_ sink: any FrameSink, log: @escaping (String) -> Void) throws -> (Session, PanelController) {
        var settings = Settings()
        settings.show.ringsOnly = true
        settings.idle = IdleSchedule(dimAfter: nil, blankAfter: 10, dimLevel: 0.3)
        let app = try Assembly.make(
            settings, sink: sink,
            parts: .init(text: .some(nil), clock: FixedClock(Self.day), data: FixedData(days: [Self.day: Self.summary]), now: Self.t0),
            log: log
        ).get()
        return (app.session, app.controller)
    }

    @Test("a panel without power control stays black, told once")
    func blankWithoutPowerControl() throws {
        let sink = RecordingSink(size: Self.size)
        sink.hasPowerControl = false
        var told: [String] = []
        let (session, _) = try Self.blanking(sink, log: { told.append($0) })
        _ = try session.turn(now: Self.t0, ready: [], signals: [])
        _ = try session.turn(now: Self.t0 + .seconds(10), ready: [], signals: [])
        #expect(Self.brightest(sink.lastFrame!) == 0)
        #expect(!sink.poweredDown)
        #expect(told.filter { $0.contains("no power control") }.count == 1)
    }

    /// A sink of frames and nothing else: neither `PoweredOutput` nor `ConsoleHandover`.
    final class FramesOnlySink: FrameSink {
        let size = SessionTests.size
        let format = PixelFormat.xrgb8888
        let frameInterval = Duration.milliseconds(16)
        let drawingBuffer = PixelBuffer(width: SessionTests.size.width, height: SessionTests.size.height, format: .xrgb8888)
        var presented = 0
        func present(damage: IntRect) throws(OutputFailure) { presented += 1 }
    }

    @Test("a sink of frames only: blank stays black, told once; the console's signals are not its business")
    func framesOnlySink() throws {
        let sink = FramesOnlySink()
        var told: [String] = []
        let (session, controller) = try Self.blanking(sink, log: { told.append($0) })
        _ = try session.turn(now: Self.t0, ready: [], signals: [])
        _ = try session.turn(now: Self.t0 + .seconds(1), ready: [], signals: [SIGUSR1])
        #expect(!controller.device.away, "no console handover: a switch away is not answered")
        _ = try session.turn(now: Self.t0 + .seconds(10), ready: [], signals: [SIGUSR2])
        _ = try session.turn(now: Self.t0 + .seconds(20), ready: [], signals: [])
        #expect(Self.brightest(sink.drawingBuffer) == 0 && sink.presented == 2, "the black frame, once")
        #expect(told.filter { $0.contains("no power control") }.count == 1, "\(told)")
        #expect(throws: PictureRefusal.self, "it keeps no presented frame") { try session.screenshot().get() }
    }

    @Test("switched to another console: the panel is given up, nothing drawn or dimmed there; back: taken again and awake")
    func consoleSwitch() throws {
        let sink = RecordingSink(size: Self.size, switchesConsoles: true)
        let (session, controller) = try Self.session(sink, dimAfter: 60, blankAfter: 300)
        _ = try session.turn(now: Self.t0, ready: [], signals: [])
        #expect(sink.frames.count == 1)
        // Away for ten minutes: longer than both idle times.
        #expect(try session.turn(now: Self.t0 + .seconds(1), ready: [], signals: [SIGUSR1]) == .wait(until: nil))
        #expect(sink.suspended && sink.events.last == "release")
        #expect(controller.device.away)
        _ = try session.turn(now: Self.t0 + .seconds(600), ready: [], signals: [])
        #expect(sink.frames.count == 1, "nothing presented while away")
        // Back: acknowledged, taken, drawn at full brightness (the switch back counts as input).
        _ = try session.turn(now: Self.t0 + .seconds(601), ready: [], signals: [SIGUSR2])
        #expect(!sink.suspended)
        #expect(Array(sink.events.suffix(3)) == ["acknowledge", "retake", "present"])
        #expect(controller.device.idle == .awake)
        #expect(Self.brightest(sink.lastFrame!) == Self.brightest(sink.frames[0].picture))
    }

    @Test("back on the console while another program holds the panel: retried with backoff, drawn once taken")
    func retakeWithBackoff() throws {
        let sink = RecordingSink(size: Self.size, switchesConsoles: true)
        var told: [String] = []
        var settings = Settings()
        settings.show.ringsOnly = true
        let app = try Assembly.make(
            settings, sink: sink, parts: .init(text: .some(nil), clock: FixedClock(Self.day), data: FixedData(days: [:]), now: Self.t0),
            log: { told.append($0) }).get()
        let session = app.session
        _ = try session.turn(now: Self.t0, ready: [], signals: [])
        _ = try session.turn(now: Self.t0 + .seconds(1), ready: [], signals: [SIGUSR1])
        sink.retakesRefused = 3
        let back = Self.t0 + .seconds(2)
        #expect(try session.turn(now: back, ready: [], signals: [SIGUSR2]) == .wait(until: back + .milliseconds(100)))
        #expect(told.contains("back on the console, but another program holds the display: waiting for it"))
        let second = back + .milliseconds(100)
        #expect(try session.turn(now: second, ready: [], signals: []) == .wait(until: second + .milliseconds(200)))
        let third = second + .milliseconds(200)
        #expect(try session.turn(now: third, ready: [], signals: []) == .wait(until: third + .milliseconds(400)))
        #expect(sink.frames.count == 1, "nothing drawn while the panel is held")
        _ = try session.turn(now: third + .milliseconds(400), ready: [], signals: [])
        #expect(sink.events.filter { $0 == "retake refused" }.count == 3)
        #expect(sink.events.suffix(2) == ["retake", "present"])
        #expect(told.last == "back on the console: display taken again")
    }

    @Test("a stale switch back (the console is not in front any more) leaves the panel given up")
    func staleAcquire() throws {
        let sink = RecordingSink(size: Self.size, switchesConsoles: true)
        let (session, _) = try Self.session(sink)
        _ = try session.turn(now: Self.t0, ready: [], signals: [])
        _ = try session.turn(now: Self.t0 + .seconds(1), ready: [], signals: [SIGUSR1])
        sink.consoleInFront = false
        _ = try session.turn(now: Self.t0 + .seconds(2), ready: [], signals: [SIGUSR2])
        #expect(sink.suspended)
        #expect(!sink.events.contains("retake"))
        #expect(sink.frames.count == 1)
    }

    @Test("an output that does not switch consoles ignores SIGUSR1/SIGUSR2; SIGHUP reloads; SIGTERM and SIGINT end the session")
    func signals() throws {
        let sink = RecordingSink(size: Self.size)
        let (session, _) = try Self.session(sink)
        _ = try session.turn(now: Self.t0, ready: [], signals: [SIGUSR1, SIGUSR2])
        #expect(!sink.suspended && sink.frames.count == 1)
        // SIGHUP without a reloader (a session made without the assembly): told, nothing else.
        session.onReload = nil
        #expect(try session.turn(now: Self.t0, ready: [], signals: [SIGHUP]) == .wait(until: nil))
        var reloads: [(Duration, String)] = []
        session.onReload = { now, asker in
            reloads.append((now, asker))
            return .applied("nothing changed")
        }
        #expect(try session.turn(now: Self.t0 + .seconds(1), ready: [], signals: [SIGHUP]) == .wait(until: nil))
        #expect(reloads.map(\.0) == [Self.t0 + .seconds(1)] && reloads.map(\.1) == ["SIGHUP"] && sink.frames.count == 2, "a reload draws again")
        for signal in [SIGTERM, SIGINT] {
            #expect(try session.turn(now: Self.t0, ready: [], signals: [signal]) == .end(.signal(signal)))
        }
    }

    /// A session showing the rings filling up (rings only) at 50 frames a second, its controller
    /// made at `t0`.
    static func introSession() throws -> (RecordingSink, Session) {
        let sink = RecordingSink(size: Self.size, frameInterval: .milliseconds(20))
        var settings = Settings()
        settings.show.ringsOnly = true
        settings.run.intro = true
        settings.idle = IdleSchedule(dimAfter: nil, blankAfter: nil, dimLevel: 1)
        let app = try Assembly.make(
            settings, sink: sink,
            parts: .init(text: .some(nil), clock: FixedClock(Self.day), data: FixedData(days: [Self.day: Self.summary]), now: Self.t0),
            log: { _ in }).get()
        return (sink, app.session)
    }

    @Test("the intro starts at the first frame, however long the start took before it")
    func introStartsAtFirstFrame() throws {
        /// The frames of a session whose first turn comes `delay` after its controller was made.
        func frames(after delay: Duration) throws -> [PixelBuffer] {
            let (sink, session) = try Self.introSession()
            var now = Self.t0 + delay
            while now < Self.t0 + delay + .seconds(2) {
                _ = try session.turn(now: now, ready: [], signals: [])
                now += .milliseconds(20)
            }
            return sink.frames.map(\.picture)
        }
        let atOnce = try frames(after: .zero)
        // Half the intro's length (a board's store, backlight and the rest) before the first frame.
        let later = try frames(after: .milliseconds(450))
        #expect((44...48).contains(later.count), "all of the intro's 900 ms at 20 ms a frame: \(later.count) frames")
        #expect(later.count == atOnce.count)
        for (i, (a, b)) in zip(atOnce, later).enumerated() {
            #expect(DamageCheck.firstDifference(a, b) == nil, "frame \(i) differs from the intro started at once")
        }
        #expect(DamageCheck.firstDifference(later[0], later[later.count - 1]) != nil, "the first frame is not the day")
    }

    @Test("the intro is seen from its start however long its first frame took to draw and show")
    func introClockRestartsAfterSlowFirstFrame() throws {
        /// The frames and their reported times when the second turn comes `firstFrame` after the first.
        func frames(firstFrame: Duration) throws -> (pictures: [PixelBuffer], times: [Double]) {
            let (sink, session) = try Self.introSession()
            var times: [Double] = []
            session.onDrawn = { time, _ in times.append(time) }
            _ = try session.turn(now: Self.t0, ready: [], signals: [])
            var now = Self.t0 + firstFrame
            while now < Self.t0 + firstFrame + .seconds(2) {
                _ = try session.turn(now: now, ready: [], signals: [])
                now += .milliseconds(20)
            }
            return (sink.frames.map(\.picture), times)
        }
        let quick = try frames(firstFrame: .milliseconds(20))
        // A board's first frame: fonts, glyphs, the buffers' first touches (400 ms under TCG).
        let slow = try frames(firstFrame: .milliseconds(400))
        #expect(slow.times.count == quick.times.count, "slow \(slow.times), quick \(quick.times)")
        #expect(slow.times.prefix(3) == [0, 0.02, 0.04], "\(slow.times.prefix(3))")
        for (i, (a, b)) in zip(quick.pictures, slow.pictures).enumerated() {
            #expect(DamageCheck.firstDifference(a, b) == nil, "frame \(i) differs from the intro whose first frame was quick")
        }
        // The second frame is the intro's first step, not 400 ms into its 900.
        #expect(DamageCheck.firstDifference(slow.pictures[1], slow.pictures[slow.pictures.count - 1]) != nil)
    }

    @Test("an animated screen is drawn once per frame interval, and not at all while a flip is pending")
    func animationPacing() throws {
        let (sink, session) = try Self.introSession()
        #expect(try session.turn(now: Self.t0, ready: [], signals: []) == .wait(until: Self.t0 + .milliseconds(20)))
        #expect(try session.turn(now: Self.t0 + .milliseconds(10), ready: [], signals: []) == .wait(until: Self.t0 + .milliseconds(20)))
        #expect(sink.frames.count == 1)
        var now = Self.t0
        while now < Self.t0 + .seconds(2) {
            now += .milliseconds(20)
            _ = try session.turn(now: now, ready: [], signals: [])
        }
        // The intro's 900 ms at 20 ms a frame, then still: the last frame is the day itself.
        #expect((44...48).contains(sink.frames.count), "\(sink.frames.count) frames")
        #expect(try session.turn(now: now + .seconds(1), ready: [], signals: []) == .wait(until: nil))
    }
}

/// The assembly's parts let go of each other when it goes: nothing holds the store open (its
/// write-ahead log is folded into the file when the last connection closes).
@Suite("Assembly", .timeLimit(.minutes(10)))
struct AssemblyTests {
    @Test("when the assembly goes, its data, controller, session and reloader go with it")
    func releases() throws {
        weak var data: FixedData?
        weak var session: Session?
        weak var reloader: Reloader?
        weak var controller: PanelController?
        do {
            let fixed = FixedData(days: [:])
            var settings = Settings()
            settings.show.ringsOnly = true
            let app = try Assembly.make(
                settings, sink: RecordingSink(size: Size(width: 32, height: 32)),
                parts: .init(text: .some(nil), clock: FixedClock(SessionTests.day), data: fixed), log: { _ in }).get()
            _ = try app.session.turn(now: .seconds(1), ready: [], signals: [])
            data = fixed
            session = app.session
            reloader = app.reloader
            controller = app.controller
            #expect(data != nil && session != nil)
        }
        #expect(data == nil && session == nil && reloader == nil && controller == nil, "a cycle keeps the app alive")
    }
}
