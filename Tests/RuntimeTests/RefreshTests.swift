@testable import DeviceLogic
import Activity
import Controls
import Platform
import Raster
import Screens
import Testing

@testable import Runtime
import Configuration
import Clocks

#if canImport(Glibc)
    import Glibc
#endif

/// The refresh control: the configuration's commands run in the background (real processes, a
/// pidfd in the poll loop), the spinner shows meanwhile, a failure shows a line for a while, and
/// input goes on.
@Suite("Refresh: commands in the background, the spinner, failures", .timeLimit(.minutes(10)))
struct RefreshTests {
    static let day = CalendarDay(year: 2026, month: 11, day: 30)!

    static func controller(_ commands: [[String]], timeout: Duration = .seconds(60)) -> PanelController {
        var settings = Settings()
        settings.show.ringsOnly = true
        settings.idle = IdleSchedule(dimAfter: nil, blankAfter: nil, dimLevel: 1)
        let app = try! Assembly.make(
            settings, sink: RecordingSink(size: Size(width: 240, height: 240)),
            parts: .init(text: .some(nil), clock: FixedClock(day), data: FixedData(days: [:])), log: { _ in }).get()
        let controller = app.controller
        controller.use(refresher: Refresher(commands: commands, timeout: timeout, failureShown: .seconds(2), log: { _ in }))
        return controller
    }

    /// Turns the controller's handling until `condition` (real time: the commands are processes).
    static func wait(_ c: PanelController, seconds: Double = 10, until condition: () -> Bool) -> Bool {
        let end = monotonicNow() + .milliseconds(Int64(seconds * 1000))
        while monotonicNow() < end {
            if condition() { return true }
            let ready = (try? waitForReadable(c.descriptors, timeout: .milliseconds(20))) ?? []
            _ = c.handle(ready: ready, now: monotonicNow())
        }
        return condition()
    }

    static func overlay(_ c: PanelController) -> RefreshOverlay.State? {
        (c.scene(now: monotonicNow()).frame(at: .zero).screen as? RefreshOverlay)?.state
    }

    @Test("the commands run one after another; the spinner shows until the last ends; input goes on meanwhile")
    func commandsRunInTheBackground() throws {
        let folder = "/tmp/glance-refresh-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        mkdir(folder, 0o755)
        defer { _ = try? FileManager_remove(folder) }
        let c = Self.controller([
            ["/bin/sh", "-c", "sleep 0.3; echo one > \(folder)/first"],
            ["/bin/sh", "-c", "test -f \(folder)/first && echo two > \(folder)/second"],
        ])
        #expect(c.perform(.action(.refresh), now: monotonicNow()))
        #expect(Self.overlay(c) == .spinning)
        #expect(c.refreshCommands?.isRunning == true)
        // Input is not held up: the day moves while the command runs.
        #expect(c.perform(.action(.previousDay), now: monotonicNow()))
        #expect(c.navigation.day == Self.day.adding(days: -1))
        #expect(Self.wait(c) { c.refreshCommands?.isRunning == false })
        #expect(access("\(folder)/second", F_OK) == 0, "the second ran after the first")
        #expect(Self.overlay(c) == nil, "the spinner has gone")
    }

    @Test("a failing or hanging command ends the refresh with the failure line, which goes after a while")
    func failures() throws {
        for (commands, timeout) in [
            ([["/bin/false"]], Duration.seconds(60)), ([["/nonexistent/program"]], .seconds(60)),
            ([["/bin/sleep", "30"]], .milliseconds(300)),
        ] {
            let c = Self.controller(commands, timeout: timeout)
            _ = c.perform(.action(.refresh), now: monotonicNow())
            #expect(Self.wait(c) { Self.overlay(c) == .failed }, "\(commands)")
            #expect(Self.wait(c) { Self.overlay(c) == nil }, "\(commands): the line goes")
        }
    }

    @Test("a command does not inherit the session's blocked signals")
    func signalsAreTheChildsOwn() throws {
        let receiver = try SignalReceiver([SIGTERM, SIGINT])  // as the session does: blocked here
        // grep reads its own signal mask: it must block nothing.
        let c = Self.controller([["/bin/grep", "-q", "^SigBlk:[[:space:]]*0*$", "/proc/self/status"]])
        _ = c.perform(.action(.refresh), now: monotonicNow())
        #expect(Self.wait(c) { c.refreshCommands?.isRunning == false })
        #expect(Self.overlay(c) == nil, "the command succeeded: nothing blocked in it")
        _ = receiver
    }

    @Test("a pull down on the progress screen is the swipe down it was; without commands nothing spins")
    func elsewhere() throws {
        var settings = Settings()
        settings.show.ringsOnly = true
        let data = FixedData(days: [:], task: ProgressContent(amount: .determinate(0.5)))
        let c = try Assembly.make(
            settings, sink: RecordingSink(size: Size(width: 240, height: 240)),
            parts: .init(text: .some(nil), clock: FixedClock(Self.day), data: data), log: { _ in }).get().controller
        c.use(refresher: Refresher(commands: [["/bin/true"]], log: { _ in }))
        #expect(c.navigation.screen == .progress, "the running task's progress first")
        _ = c.perform(.action(.refresh), now: monotonicNow())
        #expect(c.navigation.screen == .rings)
        #expect(c.refreshCommands?.isRunning == false, "nothing ran")
        let plain = Self.controller([])
        plain.use(refresher: nil)
        _ = plain.perform(.action(.refresh), now: monotonicNow())
        #expect(Self.overlay(plain) == nil)
    }
}

private func FileManager_remove(_ path: String) throws {
    _ = unlinkat(AT_FDCWD, path + "/first", 0)
    _ = unlinkat(AT_FDCWD, path + "/second", 0)
    rmdir(path)
}
