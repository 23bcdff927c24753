import Activity
import Controls
import Input
import Platform
import Raster
import Screens

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The local calendar: what today is and how long until it is tomorrow.
public protocol LocalClock {
    func today() -> CalendarDay
    /// Seconds until the next local midnight.
    func secondsUntilMidnight() -> Double
}

/// The system's clock in the local time zone (TZ).
public struct SystemLocalClock: LocalClock {
    public init() {}

    public func today() -> CalendarDay {
        var now = time(nil)
        var parts = tm()
        localtime_r(&now, &parts)
        return CalendarDay(year: Int(parts.tm_year) + 1900, month: Int(parts.tm_mon) + 1, day: Int(parts.tm_mday))
            ?? CalendarDay(daysSinceEpoch: Int(now / 86400))
    }

    /// Until tomorrow's 00:00 as the time zone has it (mktime: a day of 23 or 25 hours when
    /// daylight saving time starts or ends).
    public func secondsUntilMidnight() -> Double { secondsUntilMidnight(from: time(nil)) }

    func secondsUntilMidnight(from now: time_t) -> Double {
        var now = now
        var parts = tm()
        localtime_r(&now, &parts)
        parts.tm_mday += 1
        parts.tm_hour = 0
        parts.tm_min = 0
        parts.tm_sec = 0
        parts.tm_isdst = -1
        let midnight = mktime(&parts)
        guard midnight != -1, midnight > now else { return 3600 }
        return Double(midnight - now)
    }
}

/// A day that never ends (tests, `--today`).
public struct FixedClock: LocalClock {
    public var day: CalendarDay
    public init(_ day: CalendarDay) { self.day = day }
    public func today() -> CalendarDay { day }
    public func secondsUntilMidnight() -> Double { .infinity }
}

/// The device's brain: input becomes navigation, time becomes dimming and new days, data
/// becomes screens. The display loop draws what `scene()` returns.
public final class DeviceController: Controller {
    public private(set) var navigation: Navigation
    public private(set) var idle: IdleLevel = .awake
    public let screens: [ScreenKind]
    /// How the data becomes screens (fonts, language, shape, name).
    public let maker: ScreenMaker
    private let data: DataSource
    private let hub: InputHub?
    private let router: InputRouter
    private let schedule: IdleSchedule
    private let clock: LocalClock
    /// Wakes the loop when the wall clock is set, for today and midnight to be asked again.
    private let clockChanges: ClockChangeWatcher?
    private let log: (String) -> Void
    /// Dims and darkens the panel's light where there is one; else the picture is dimmed.
    public var backlight: Backlight?
    /// Runs the refresh commands when fresh data is asked for (a pull down, the refresh key).
    public var refresher: Refresher?
    private var lastInput: Duration
    /// The next local midnight on the monotonic clock (nil: a day that never ends).
    private var midnight: Duration?
    /// The task seen at the last look (its label), and the screen shown before its progress
    /// appeared.
    private var taskShown: String?
    private var screenBeforeTask: ScreenKind?
    /// The progress shown, eased towards the task's reports (never backwards within a task).
    private var easing = ProgressEasing()
    private var reportedFraction: Double?
    /// The rings fill up on start, as on the watch when it wakes.
    private var introStart: Duration?
    private let introDuration = Duration.milliseconds(900)

    public init(
        screens: [ScreenKind], maker: ScreenMaker, data: DataSource, hub: InputHub?, router: InputRouter, idle: IdleSchedule,
        clock: LocalClock = SystemLocalClock(), watchClockChanges: Bool = false, intro: Bool = true,
        now: Duration = monotonicNow(), log: @escaping (String) -> Void
    ) {
        self.screens = screens.isEmpty ? [.rings] : screens
        self.maker = maker
        self.data = data
        self.hub = hub
        self.router = router
        schedule = idle
        self.clock = clock
        self.log = log
        if watchClockChanges {
            do {
                clockChanges = try ClockChangeWatcher()
            } catch {
                log("\(error); a change of the clock shows at the next midnight or input")
                clockChanges = nil
            }
        } else {
            clockChanges = nil
        }
        lastInput = now
        navigation = Navigation(screen: self.screens.first ?? .rings, today: clock.today())
        midnight = Self.midnight(after: now, clock)
        // A task already running (the app restarted during an import): its progress first.
        let task = data.task()
        taskShown = task.map { $0.label }
        if task != nil, self.screens.contains(.progress), navigation.screen != .progress {
            screenBeforeTask = navigation.screen
            navigation.screen = .progress
        }
        if intro && navigation.screen == .rings { introStart = now }
        navigation.settle(available: available(now: now))
        _ = data.showGauges(navigation.screen == .gauges, now: now)
    }

    /// Starts on another day than today (the command line's --date).
    public func show(day: CalendarDay) {
        navigation.day = day
    }

    /// Screens with something to show, in the configured order.
    public func available(now: Duration) -> [ScreenKind] {
        screens.filter { kind in
            switch kind {
            case .rings: true
            case .gauges: !data.gauges(now: now).isEmpty
            case .progress: data.task() != nil
            }
        }
    }

    public var descriptors: [FileDescriptor] {
        (hub?.descriptors ?? []) + data.descriptors + (clockChanges.map { [$0.descriptor] } ?? [])
            + (refresher?.descriptors ?? [])
    }

    public var blanked: Bool { idle == .blank }

    public var endReason: String? { data.endReason }

    /// On another console (VT switch): its input is not for the app, and the panel's light is
    /// that console's (no dimming, no blanking).
    public private(set) var away = false

    public func displayReleased(now: Duration) {
        guard !away else { return }
        away = true
        hub?.setGrabbing(false)
        backlight?.restore()
    }

    /// Back in front: the devices grabbed again, nothing held from before, and the switch back
    /// counts as input (awake, full brightness).
    public func displayRetaken(now: Duration) {
        guard away else { return }
        away = false
        hub?.setGrabbing(true)
        router.reset()
        lastInput = now
        idle = .awake
        applyBacklight()
    }

    /// What changed last, for a log of the frames drawn ("start", "store changed", "new day",
    /// "input", "idle", "time"): `glance watch` prints it with each picture.
    public private(set) var lastChange = "start"

    public func handle(ready: [FileDescriptor], now: Duration) -> Bool {
        var changed = false
        if let hub {
            let (deviceChanges, batches) = hub.handle(ready)
            for change in deviceChanges {
                if case .removed(let path) = change { router.removed(path: path) }
            }
            for batch in batches {
                let device = DeviceDescription(path: batch.device.path, capabilities: batch.device.capabilities)
                let outcome = router.feed(batch.events, from: device, asleep: idle != .awake)
                // On another console the events are that console's: the router follows the
                // devices (touch slots), nothing is acted on.
                if away { continue }
                if outcome.activity { lastInput = now }
                if outcome.woke {
                    log("woken by \(batch.device.name)")
                    wake(now: now)
                    changed = true
                }
                for command in outcome.commands { changed = perform(command, now: now) || changed }
                if changed { lastChange = "input" }
            }
        }
        if !away {
            for command in router.tick(time: now.inSeconds) where perform(command, now: now) {
                changed = true
                lastChange = "input"
            }
        }
        if let refresher, refresher.handle(ready: ready, now: now) {
            changed = true
            lastChange = "refresh"
        }
        if data.handle(ready: ready, now: now) {
            changed = true
            lastChange = "store changed"
            followTask(now: now)
        }
        // A new day: at midnight, or when the clock was set (checked against the calendar every
        // time; the timer only makes sure the loop wakes).
        if let clockChanges, ready.contains(clockChanges.descriptor), clockChanges.acknowledge() {
            log("the clock was set")
            midnight = Self.midnight(after: now, clock)
        }
        if let m = midnight, now >= m { midnight = Self.midnight(after: now, clock) }
        if navigation.newDay(clock.today()) {
            log("a new day: \(navigation.today)")
            changed = true
            lastChange = "new day"
        }
        // Dim and blank after the last input (not while on another console).
        let level = away ? idle : schedule.level(idleFor: (now - lastInput).inSeconds)
        if level != idle {
            idle = level
            log("idle: \(level)")
            changed = true
            lastChange = "idle"
            applyBacklight()
        }
        if navigation.settle(available: available(now: now)) { changed = true }
        // Gauges read from files are followed while they are on the panel.
        if data.showGauges(navigation.screen == .gauges && idle != .blank && !away, now: now) {
            changed = true
            lastChange = "gauges read"
        }
        return changed
    }

    /// Back to full brightness, counted as input.
    private func wake(now: Duration) {
        lastInput = now
        guard idle != .awake else { return }
        idle = .awake
        applyBacklight()
    }

    /// Progress appears when a task starts (waking the panel) and goes when it ends, back to the
    /// screen that was shown. A new task starts its bar afresh.
    private func followTask(now: Duration) {
        let task = data.task()
        let label = task.map { $0.label }
        guard label != taskShown else { return }
        taskShown = label
        reportedFraction = nil
        guard screens.contains(.progress) else { return }
        if task != nil {
            if navigation.screen != .progress { screenBeforeTask = navigation.screen }
            navigation.screen = .progress
            wake(now: now)
            log("a task started: progress shown")
        } else {
            if navigation.screen == .progress, let back = screenBeforeTask { navigation.screen = back }
            screenBeforeTask = nil
            log("the task ended")
        }
    }

    /// The backlight for the idle level: full, dimmed, or off. One whose brightness cannot be
    /// written is given up: the picture itself is dimmed then, as without a backlight.
    private func applyBacklight() {
        guard let backlight else { return }
        let written: Bool
        switch idle {
        case .awake: written = backlight.set(fraction: 1)
        case .dimmed(let level): written = backlight.set(fraction: level)
        case .blank: written = backlight.set(fraction: 0)
        }
        guard !written else { return }
        log(
            "backlight \(backlight.path): cannot write its brightness (\(Errno.current)); dimming the picture "
                + "instead (60-glance-backlight.rules lets group video write it)")
        self.backlight = nil
    }

    /// Does what a command asks; true when the picture changes.
    func perform(_ command: Command, now: Duration) -> Bool {
        switch command {
        case .tap(let p):
            if navigation.screen == .progress, let task = data.task(), task.cancellable,
                let button = cancelButton(task), p.x >= button.x, p.x <= button.maxX, p.y >= button.y,
                p.y <= button.maxY
            {
                return perform(.action(.cancel), now: now)
            }
            return perform(.action(.select), now: now)
        case .action(.cancel):
            guard navigation.screen == .progress, data.task()?.cancellable == true else { return false }
            log("cancel asked for the running task")
            data.cancelTask()
            return true
        case .action(.refresh):
            // A pull down on the progress screen is the swipe down it always was.
            guard navigation.screen != .progress else { return perform(.action(.previousScreen), now: now) }
            log("refresh asked for")
            var changed = data.refresh(now: now)
            if refresher?.start(now: now) == true { changed = true }
            return changed
        case .action(let action):
            let changed = navigation.apply(action, available: available(now: now))
            if changed { log("\(action): \(navigation.screen) \(navigation.day)") }
            return changed
        }
    }

    public func nextDeadline(now: Duration) -> Duration? {
        var deadlines: [Duration] = midnight.map { [$0] } ?? []
        if !away, let t = router.nextDeadline { deadlines.append(.seconds(t)) }
        if !away, let next = schedule.nextChange(idleFor: (now - lastInput).inSeconds) {
            deadlines.append(lastInput + .seconds(next))
        }
        if let d = data.nextDeadline(now: now) { deadlines.append(d) }
        if let d = refresher?.nextDeadline(now: now) { deadlines.append(d) }
        return deadlines.min()
    }

    public func scene(now: Duration) -> any Scene {
        switch idle {
        case .awake:
            if let start = introStart, navigation.screen == .rings {
                let intro = RingIntroScene(summary: ringSummary(), duration: introDuration) { [unowned self] in
                    ringScreen(summary: $0)
                }
                let (screen, animating) = intro.frame(at: now - start)
                if !animating { introStart = nil }
                return StillOrMoving(screen: screen, moving: animating)
            }
            introStart = nil
            let screen = withRefreshControl(currentScreen(now: now))
            return StillOrMoving(screen: screen, moving: screen.animates || easing.isMoving(at: now.inSeconds))
        case .dimmed(let level):
            // The backlight dims the panel where there is one; else the picture itself.
            let screen = currentScreen(now: now)
            return ScreenScene(backlight == nil ? DimmedScreen(screen: screen, level: level) : screen)
        case .blank: return ScreenScene(BlankScreen())
        }
    }

    /// The day's summary shown on the ring screen (none for a day still to come).
    private func ringSummary() -> ActivitySummary? {
        ScreenMaker.shownSummary(day: navigation.day, today: navigation.today, data: data)
    }

    /// The ring screen for the day shown, with `summary` (the day's, or a stage of the intro).
    private func ringScreen(summary: ActivitySummary?) -> any Screen {
        maker.ringScreen(day: navigation.day, today: navigation.today, summary: summary, data: data)
    }

    /// The refresh control over the ring and gauge screens while fresh data is fetched (a
    /// spinner) or when that failed (a line).
    func withRefreshControl(_ screen: any Screen) -> any Screen {
        guard let refresher, navigation.screen != .progress else { return screen }
        switch refresher.state {
        case .idle: return screen
        case .running: return RefreshOverlay(screen: screen, state: .spinning, context: maker.context)
        case .failed: return RefreshOverlay(screen: screen, state: .failed, context: maker.context)
        }
    }

    /// The screen the navigation points at.
    func currentScreen(now: Duration) -> any Screen {
        switch navigation.screen {
        case .rings:
            return ringScreen(summary: ringSummary())
        case .gauges:
            return maker.gaugeScreen(data.gauges(now: now))
        case .progress:
            var task = data.task() ?? ProgressContent(amount: .indeterminate)
            if case .determinate(let f) = task.amount {
                // Reported values ease in at an even pace and never move the bar backwards.
                let t = now.inSeconds
                if reportedFraction == nil { easing = ProgressEasing(fraction: f, at: t) }
                if f != reportedFraction { easing.update(f, at: t) }
                reportedFraction = f
                task.amount = .determinate(easing.value(at: t))
            } else {
                reportedFraction = nil
            }
            return maker.progressScreen(task)
        }
    }

    /// Where the progress screen of `task` has its Cancel button, in the picture taps are
    /// points in (the same layout the screen is drawn by; the bar's fraction does not move it).
    func cancelButton(_ task: ProgressContent) -> Rect? {
        ProgressScreen(content: task, context: maker.context).layout(for: router.pictureSize).cancelButton
    }

    /// A screen that moves while `moving` (an easing progress, the intro) or by itself (a spinner).
    struct StillOrMoving: Scene {
        let screen: any Screen
        let moving: Bool
        func frame(at time: Duration) -> (screen: any Screen, animating: Bool) { (screen, moving) }
    }

    static func midnight(after now: Duration, _ clock: LocalClock) -> Duration? {
        let s = clock.secondsUntilMidnight()
        return s.isFinite ? now + .milliseconds(Int64((s * 1000).rounded())) : nil
    }
}

/// A screen drawn at a fraction of its brightness (dimmed, where no backlight can do it).
public struct DimmedScreen: Screen {
    public var screen: any Screen
    public var level: Double
    public func draw(into buffer: PixelBuffer, at time: Double) {
        screen.draw(into: buffer, at: time)
        buffer.scaleBrightness(Float(level))
    }
    public var animates: Bool { screen.animates }

    /// The screen's changes, at the same level.
    public func changes(since previous: any Screen, at previousTime: Double, now time: Double, size: Size) -> Damage? {
        guard let before = previous as? DimmedScreen, before.level == level else { return nil }
        return screen.changes(since: before.screen, at: previousTime, now: time, size: size)
    }
}

/// Nothing: the panel is blank.
public struct BlankScreen: Screen {
    public init() {}
    public func draw(into buffer: PixelBuffer, at time: Double) { buffer.fill(.black) }

    /// Blank again: nothing changed.
    public func changes(since previous: any Screen, at previousTime: Double, now time: Double, size: Size) -> Damage? {
        previous is BlankScreen ? Damage() : nil
    }
}
