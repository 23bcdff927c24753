import Activity
import Controls
import Raster
import Screens

/// The device's brain as a value: input becomes navigation, time becomes dimming and new days,
/// data becomes screens. Events come in through `handle(_:at:)` (input, time passing, a change in
/// the data, the console switched, a frame shown, the home's commands) and change the state; what
/// the world is to do goes out as `DeviceEffect`s (the light, grabbing input, the refresh
/// commands, the task's Cancel, what is kept in the store, the log), which App's `PanelController`
/// carries out. `scene(at:)` and `nextDeadline(now:)` only read: drawing changes nothing (a
/// `.frameShown` event says a frame was shown). It reads the data and the local clock through
/// `ShownData` and `LocalClock`, and calls nothing of theirs that changes them.
public struct DeviceState {
    public private(set) var navigation: Navigation
    public private(set) var idle: IdleLevel = .awake
    /// The screens shown now: the configured ones, or the schedule's.
    public private(set) var screens: [ScreenKind]
    /// The configuration's screens and cycle, which the schedule's windows stand in for.
    private var configuredScreens: [ScreenKind]
    private var configuredCycle: CycleRule?
    /// The household's hours (the configuration's "schedule"), what is in force now (the windows'
    /// or an override's), the override, and the next boundary on the monotonic clock.
    public private(set) var hours = Schedule()
    public private(set) var scheduled = ScheduledState()
    public private(set) var scheduleOverride: ScheduleOverride?
    private var boundary: Duration?
    /// An override changed the picture outside the loop's handling of input (a command over the
    /// control socket): the next update says so, and the session draws.
    private var overridden = false
    /// How the data becomes screens (fonts, language, shape, name).
    public private(set) var maker: ScreenMaker
    /// Where the numbers come from (read only: what changes the data goes out as effects).
    public private(set) var data: any ShownData
    /// Input into commands (each device's held keys and touches).
    public private(set) var router: InputRouter
    private var idleTimes: IdleSchedule
    /// The configuration's idle times (the ones a command's were set over).
    private var configuredIdle: IdleSchedule
    private let clock: LocalClock
    /// The panel's light where there is one that can be set (it dims and darkens the panel); else
    /// the picture is dimmed.
    public private(set) var backlight: PanelLightInfo?
    /// The awake brightness, 0...1 of full (the dim level is a fraction of it); nil: the
    /// backlight's as found at start (full without one).
    public private(set) var brightness: Double?
    /// The refresh control's state (nil: no refresh commands, and no control).
    public private(set) var refresh: RefreshState?
    /// Turns the screens by themselves (the configuration's "cycle"); nil: they stay.
    public private(set) var cycle: ScreenCycle?
    /// The configured cycle while a command has turned it off.
    public private(set) var pausedCycle: ScreenCycle?
    /// Dark by a command (Home Assistant's light turned off) until a command or an input wakes it.
    public private(set) var darkened = false
    /// When the last press or touch came (nil: none since the start).
    public private(set) var lastActivity: Duration?
    private var lastInput: Duration
    /// The next local midnight on the monotonic clock (nil: a day that never ends).
    private var midnight: Duration?
    /// The time on the panel (the minute drawn last), while a screen shows it.
    private(set) var minuteShown: TimeOfDay?
    /// The task seen at the last look (its label), and the screen shown before its progress
    /// appeared.
    private var taskShown: String?
    private var screenBeforeTask: ScreenKind?
    /// The progress shown, eased towards the task's reports (never backwards within a task).
    private var easing = ProgressEasing()
    private var reportedFraction: Double?
    /// The rings fill up on start, as on the watch when it wakes: from the first frame drawn (the
    /// store, the backlight and the rest of the start take a board a good part of the 900 ms, which
    /// would otherwise pass before anything is on the panel).
    private(set) var introPending = false
    private(set) var introStart: Duration?
    /// What each button of these devices does, for the hint (the key names are the input
    /// library's: App gives Input's `KeyMap.hints`); nil: no hint.
    let buttonHints: (@Sendable (KeyMap, [InputCapabilities]) -> [KeyHint])?
    /// The button hint on the panel until then (any input closes it first), and what it says.
    var hint: (until: Duration, rows: [ButtonHintOverlay.Row], chord: Bool, since: Duration, parts: Int)?
    /// The part of the hint's rows drawn last (`hintPart`).
    private var hintPartShown = 0
    /// The message over the screen (Home Assistant's notify, `glance message`) until a press, its
    /// time or the next message (`showMessage`).
    public private(set) var message: ShownMessage?
    /// The input devices are read (and grabbed while the panel is the app's).
    private var inputOpen = false
    /// What the input devices open now can do, and those input came from, by path.
    private var openDevices: [String: InputCapabilities] = [:]
    private var fedDevices: [String: InputCapabilities] = [:]
    /// The effects of the event being handled, in order.
    var effects: [DeviceEffect] = []

    /// The device at `now`: `screens` drawn by `maker` from `data`, input into commands by
    /// `router`, dimmed by `idle`, turned by `cycle`, the day and the time from `clock`; the rings
    /// fill up on the first frame when `intro`. `hints`: what each button does, for the hint.
    public init(
        screens: [ScreenKind], maker: ScreenMaker, data: any ShownData, router: InputRouter, idle: IdleSchedule,
        cycle: ScreenCycle? = nil, clock: LocalClock, intro: Bool = true, now: Duration,
        hints: (@Sendable (KeyMap, [InputCapabilities]) -> [KeyHint])? = nil
    ) {
        self.screens = screens.isEmpty ? [.rings] : screens
        configuredScreens = self.screens
        self.maker = maker
        self.data = data
        self.router = router
        idleTimes = Self.keptIdle(configured: idle, data: data)
        configuredIdle = idle
        self.cycle = cycle
        configuredCycle = cycle?.rule
        self.clock = clock
        buttonHints = hints
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
        if intro && navigation.screen == .rings { introPending = true }
        navigation.settle(available: available(now: now))
    }

    // MARK: Events in, effects out

    /// Takes `event` at `now` (the monotonic clock); what the world is to do, in order (`.redraw`
    /// among them when the picture changes).
    public mutating func handle(_ event: DeviceEvent, at now: Duration) -> [DeviceEffect] {
        effects = []
        if take(event, now: now) { effects.append(.redraw) }
        defer { effects = [] }
        return effects
    }

    /// The scene at `now` and the state after it is shown, worked out once: `scene(at:)`, then
    /// `handle(.frameShown, at:)` (the runtime's way, one frame at a time).
    public mutating func showFrame(at now: Duration) -> any Scene { frame(now: now) }

    private mutating func take(_ event: DeviceEvent, now: Duration) -> Bool {
        switch event {
        case .started:
            effects.append(.showGauges(navigation.screen == .gauges, answer: false))
            return false
        case .input(let events, let device, let name): return feed(events, from: device, name: name, now: now)
        case .inputOpened(let devices, let refresh):
            take(devices)
            // Opened while another console has the panel: theirs until the switch back.
            if away { effects.append(.grabInput(false)) }
            self.refresh = refresh
            return offerFirstHint(now: now)
        case .inputAdded(let device):
            openDevices[device.path] = device.capabilities
            return false
        case .inputRemoved(let path):
            router.removed(path: path)
            fedDevices[path] = nil
            openDevices[path] = nil
            return false
        case .tick: return tick(now: now)
        case .update(let screenBefore): return update(now: now, screenBefore: screenBefore)
        case .refreshShown(let state):
            refresh = state
            return false
        case .refreshChanged(let state):
            refresh = state
            lastChange = .refresh
            return false
        case .dataChanged:
            dataChanged(now: now)
            return false
        case .gaugesRead:
            dataGeneration &+= 1
            pagesMemo = PagesMemo()
            lastChange = .gaugesRead
            return true
        case .clockWasSet:
            log("the clock was set")
            midnight = Self.midnight(after: now, clock)
            // The schedule is asked again at once (the update that follows).
            boundary = now
            return false
        case .displayReleased:
            displayReleased(now: now)
            return false
        case .displayRetaken:
            displayRetaken(now: now)
            return false
        case .frameShown:
            _ = frame(now: now)
            return false
        case .sceneClockRestarted:
            if introStart != nil { introStart = now }
            return false
        case .light(let light, let configured):
            backlight = light
            setUpBrightness(configured: configured)
            return false
        case .backlightFailed(let problem):
            guard let light = backlight else { return false }
            let before = self.light
            log(
                "backlight \(light.path): cannot write its brightness (\(problem)); dimming the picture "
                    + "instead (60-glance-backlight.rules lets group video write it)")
            backlight = nil
            return self.light.picture != before.picture
        case .command(let command): return perform(command, now: now)
        case .show(let kind): return show(screen: kind, now: now)
        case .showDay(let day):
            navigation.day = day
            return false
        case .showPage(let page):
            navigation.page = max(0, page)
            return false
        case .overrideSchedule(let change): return overrideSchedule(now: now, change)
        case .follow(let schedule):
            hours = schedule
            if scheduled.cycle == .keep { configuredCycle = cycle?.rule }
            scheduleOverride = nil
            _ = followSchedule(now: now, force: true, screensBefore: screens)
            return false
        case .wake:
            let wasDark = idle != .awake || darkened
            wake(now: now)
            return wasDark
        case .darken:
            guard !darkened else { return false }
            darkened = true
            log("light turned off by a command")
            return true
        case .lightOn:
            return scheduleDarkens ? overrideSchedule(now: now) { $0.brightness = nil } : false
        case .brightness(let level): return setBrightness(level, lowest: 0.01, now: now)
        case .idleTimes(let dim, let blank):
            idleTimes.dimAfter = dim
            idleTimes.blankAfter = blank
            log("idle times set by a command: dim \(Self.idleText(dim)), blank \(Self.idleText(blank))")
            effects.append(
                .keep([
                    KeptValue(Self.dimAfterKey, Self.idleText(dim)), KeptValue(Self.blankAfterKey, Self.idleText(blank)),
                    KeptValue(Self.idleBaseKey, Self.idleBase(configuredIdle)),
                ]))
            return false
        case .cycle(let on):
            if on {
                guard var turning = pausedCycle ?? cycle else { return false }
                if cycle == nil { turning.shown(at: now) }
                cycle = turning
                pausedCycle = nil
            } else if let turning = cycle {
                pausedCycle = turning
                cycle = nil
            }
            return false
        case .reconfigure(let setup):
            reconfigure(setup, now: now)
            return false
        case .message(let message):
            return showMessage(ShownMessage(text: message.text, since: now, until: now + .seconds(message.seconds)), now: now)
        case .qrCode(let code):
            return showMessage(
                ShownMessage(text: code.caption, since: now, until: now + .seconds(PanelQRCode.seconds), code: code), now: now)
        }
    }

    // MARK: Messages

    /// `shown` over whatever the panel shows, from `now` until its time; a message shown already
    /// is replaced (`.messageEnded(.replaced)`). While it shows the panel is lit at its awake
    /// brightness whatever dimmed or darkened it (the idle times, the light turned off by a
    /// command, the schedule's dark hours; not another console, which has the light), the button
    /// hint goes and the intro is not played. The first press or touch only dismisses it
    /// (`feed`). When it goes the panel is as it would be without it: dark again if it was dark
    /// by a command or the schedule, the idle times counted from the last input (a press that
    /// dismissed it is one). A phone's QR code is shown the same way; the log names whose it is,
    /// never its modules (they carry the person's token), and a message's text never.
    private mutating func showMessage(_ shown: ShownMessage, now: Duration) -> Bool {
        if message != nil { endMessage(.replaced) }
        message = shown
        let seconds = Int((shown.until - shown.since).inSeconds.rounded())
        if shown.code != nil {
            log("QR code for \(shown.text) shown for \(seconds) s")
        } else {
            log("message shown for \(seconds) s")
        }
        hint = nil
        introPending = false
        introStart = nil
        lastChange = .message
        if !away {
            idle = .awake
            applyBacklight()
        }
        return true
    }

    /// The message gone, said (the log, the control socket's watchers), the light as it is
    /// without it.
    private mutating func endMessage(_ why: MessageEnd) {
        message = nil
        log("message dismissed: \(why.rawValue)")
        effects.append(.messageEnded(why))
        lastChange = .message
        if !away { applyBacklight() }
    }

    mutating func log(_ line: String) { effects.append(.log(line)) }

    /// A new configuration in place (a reload): the screens, how they are drawn, the data, the
    /// input devices and key map (`router`), the idle times, the cycle, the refresh commands and
    /// the brightness. What stays: the screen shown (if it is still configured and has something
    /// to show), the day, how awake the panel is, the console it is on, the backlight.
    private mutating func reconfigure(_ setup: DeviceSetup, now: Duration) {
        screens = setup.screens.isEmpty ? [.rings] : setup.screens
        configuredScreens = screens
        maker = setup.maker
        data = setup.data
        dataGeneration &+= 1
        pagesMemo = PagesMemo()
        inputOpen = setup.input != nil
        openDevices = [:]
        for d in setup.input ?? [] { openDevices[d.path] = d.capabilities }
        if setup.newInput, inputOpen, away { effects.append(.grabInput(false)) }
        router = setup.router
        idleTimes = Self.keptIdle(configured: setup.idle, data: data)
        configuredIdle = setup.idle
        // A cycle turned off by a command stays off through a reload (until `cycle on`); with no
        // cycle in the new file there is nothing left to turn on.
        if pausedCycle != nil {
            pausedCycle = setup.cycle
        } else {
            cycle = setup.cycle
        }
        configuredCycle = setup.cycle?.rule
        hours = setup.schedule
        scheduleOverride = nil
        refresh = setup.refresh
        minuteShown = nil
        introPending = false
        introStart = nil
        // The task as the new data has it: its progress stays, or goes.
        taskShown = data.task().map { $0.label }
        reportedFraction = nil
        if !screens.contains(navigation.screen) { navigation.screen = screens[0] }
        navigation.settle(available: available(now: now))
        effects.append(.showGauges(
            navigation.screen == .gauges && idleTimes.level(idleFor: (now - lastInput).inSeconds) != .blank && !away
                && !scheduled.off,
            answer: false))
        setUpBrightness(configured: setup.brightness)
        // The schedule's windows over the new configuration (an override ends with a reload).
        let shown = screens
        screens = configuredScreens
        _ = followSchedule(now: now, force: true, screensBefore: shown)
        lastChange = .reload
    }

    /// What the input devices open now can do (and those input came from), by path.
    var inputDevices: [String: InputCapabilities] { fedDevices.merging(openDevices) { _, open in open } }

    private mutating func take(_ devices: [DeviceDescription]) {
        inputOpen = true
        openDevices = [:]
        for d in devices { openDevices[d.path] = d.capabilities }
    }

    /// Screens with something to show, in the configured order.
    public func available(now: Duration) -> [ScreenKind] {
        screens.filter { hasSomething($0, now: now) }
    }

    /// Whether a screen has something to show.
    func hasSomething(_ kind: ScreenKind, now: Duration) -> Bool {
        switch kind {
        case .gauges: !data.gauges(now: now).isEmpty
        case .progress: data.task() != nil
        default: true
        }
    }

    public var blanked: Bool { level == .blank }

    /// `blanked`, for a caller that keeps the state in a class (the runtime's controller, each
    /// turn of the loop): mutating only so that it is asked in place, where reading a property of
    /// a struct kept in a class copies the whole struct first (about 840 instructions).
    public mutating func blankedInPlace() -> Bool { level == .blank }

    /// How bright the panel is: the idle level, or dark while the schedule has it off.
    public var level: IdleLevel { scheduled.off && message == nil ? .blank : idle }

    public var endReason: String? { data.endReason }

    /// On another console (VT switch): its input is not for the app, and the panel's light is
    /// that console's (no dimming, no blanking).
    public private(set) var away = false

    private mutating func displayReleased(now: Duration) {
        guard !away else { return }
        away = true
        if inputOpen { effects.append(.grabInput(false)) }
        if backlight != nil { effects.append(.restoreBacklight) }
    }

    /// Back in front: the devices grabbed again, nothing held from before, and the switch back
    /// counts as input (awake, full brightness).
    private mutating func displayRetaken(now: Duration) {
        guard away else { return }
        away = false
        if inputOpen { effects.append(.grabInput(true)) }
        router.reset()
        lastInput = now
        idle = .awake
        applyBacklight()
    }

    /// What changed last, for a log of the frames drawn: `glance watch` prints it with each picture.
    public private(set) var lastChange = Change.start

    /// Long presses and gestures whose time has come; true when the picture changes.
    private mutating func tick(now: Duration) -> Bool {
        // Nothing held (asked every turn of the loop): no time to measure.
        guard !away, router.nextDeadline != nil else { return false }
        var changed = false
        for command in router.tick(time: now.inSeconds) where perform(command, now: now) {
            changed = true
            lastChange = .input
        }
        return changed
    }

    /// The data changed (the store, a gauge's source): a task's progress comes or goes.
    private mutating func dataChanged(now: Duration) {
        dataGeneration &+= 1
        pagesMemo = PagesMemo()
        lastChange = Change(data.lastChange)
        let before = navigation.screen
        followTask(now: now)
        // A task's progress came or went: the cycle counts from this screen.
        if navigation.screen != before { cycle?.shown(at: now) }
    }

    // MARK: The schedule

    /// Puts `change` of the state in force in place of the schedule's until its next boundary
    /// (none ahead: until another override or a reload): a Home Assistant command, a step of the
    /// brightness keys in a window that sets it, a touch waking the panel from a dark or dimmed
    /// window. E.g. `overrideSchedule(now: now) { $0.brightness = 0 }` turns the panel off,
    /// `{ $0.screens = nil }` gives back every configured screen, `{ $0.cycle = .clear }` stops the
    /// turning. True when the picture changes (and the next `update` says so too, for a caller
    /// outside the loop's input handling).
    @discardableResult
    private mutating func overrideSchedule(now: Duration, _ change: (inout ScheduledState) -> Void) -> Bool {
        var state = scheduled
        change(&state)
        if let unix = clock.unixTime().map(Self.seconds) {
            scheduleOverride = hours.override(state, at: unix, zone: clock)
        } else {
            scheduleOverride = ScheduleOverride(state: state, until: nil)
        }
        log("schedule overridden (" + Self.describe(state) + ") until " + (scheduleOverride?.until.map(localTime) ?? "a reload"))
        let changed = put(state, now: now, force: false, screensBefore: screens)
        if changed { overridden = true }
        return changed
    }

    /// What the schedule (or its override) puts in force at the wall clock's now, and when it is
    /// to be asked again (its next boundary). True when the picture changes.
    private mutating func followSchedule(now: Duration, force: Bool = false, screensBefore: [ScreenKind]? = nil) -> Bool {
        guard let wall = clock.unixTime() else {
            boundary = nil
            return put(scheduleOverride?.state ?? ScheduledState(), now: now, force: force, screensBefore: screensBefore ?? screens)
        }
        let unix = Self.seconds(wall)
        if let until = scheduleOverride?.until, unix >= until {
            scheduleOverride = nil
            log("the schedule's override ended at its boundary")
        }
        let decision = hours.decide(at: unix, zone: clock, override: scheduleOverride)
        // The wall clock and the monotonic one run at the same rate until the clock is set (which
        // asks again).
        boundary = decision.next.map { now + (.seconds($0) - wall) }
        return put(decision.state, now: now, force: force, screensBefore: screensBefore ?? screens)
    }

    /// `unix` as the local clock reads it, `HH:MM`, for the log.
    private func localTime(_ unix: Int64) -> String {
        let local = unix + Int64(clock.utcOffset(at: unix))
        let minute = Int((local - local.floorDivided(by: 86400) * 86400) / 60)
        return TimeOfDay(hour: minute / 60, minute: minute % 60)?.description ?? "\(unix)"
    }

    /// Whole seconds since the epoch (rounded down) of a time since the epoch.
    static func seconds(_ wall: Duration) -> Int64 {
        let (s, a) = wall.components
        return a < 0 ? s - 1 : s
    }

    /// `state` in force: the screens (the first of new ones shown), the cycle, the light. True
    /// when the picture changes.
    private mutating func put(_ state: ScheduledState, now: Duration, force: Bool, screensBefore: [ScreenKind]) -> Bool {
        guard force || state != scheduled else { return false }
        let before = scheduled
        let lightBefore = light
        scheduled = state
        if let listed = state.screens, !listed.isEmpty {
            // A task's progress shows itself in any window, where it is configured.
            screens = listed + (configuredScreens.contains(.progress) && !listed.contains(.progress) ? [.progress] : [])
        } else {
            screens = configuredScreens
        }
        if screens != screensBefore {
            if navigation.screen == .progress, data.task() != nil {
                screenBeforeTask = screens[0]
            } else if !force || !screens.contains(navigation.screen) {
                navigation.screen = screens[0]
                navigation.day = navigation.today
            }
            navigation.settle(available: available(now: now))
        }
        if force || state.cycle != before.cycle {
            // A cycle a command turned off stays off (the window's or the configured one waits
            // for `cycle on`).
            switch state.cycle {
            case .keep:
                if pausedCycle != nil {
                    pausedCycle = configuredCycle.map { ScreenCycle($0, now: now) }
                } else if !force || cycle == nil {
                    cycle = configuredCycle.map { ScreenCycle($0, now: now) }
                }
            case .clear: cycle = nil
            case .set(let rule):
                if pausedCycle != nil { pausedCycle = ScreenCycle(rule, now: now) } else { cycle = ScreenCycle(rule, now: now) }
            }
        }
        if !away { applyBacklight() }
        guard !force else { return true }
        log("schedule: " + Self.describe(state))
        lastChange = .schedule
        return state.screens != before.screens || state.cycle != before.cycle || light != lightBefore
            || screens != screensBefore
    }

    /// What a state sets, for the log.
    static func describe(_ state: ScheduledState) -> String {
        var parts: [String] = []
        if let b = state.brightness { parts.append(b == 0 ? "off" : "brightness \(NumberText.plain(b * 100)) %") }
        if let s = state.screens { parts.append("screens " + s.map(\.rawValue).joined(separator: ", ")) }
        switch state.cycle {
        case .keep: break
        case .clear: parts.append("no cycle")
        case .set(let r): parts.append("cycle every \(NumberText.plain(r.every)) s")
        }
        return parts.isEmpty ? "as configured" : parts.joined(separator: ", ")
    }

    /// What time does: the hint going, a new day, a new minute, dimming and blanking, the cycle,
    /// gauges followed while shown. True when the picture changes.
    private mutating func update(now: Duration, screenBefore: ScreenKind?) -> Bool {
        var changed = false
        let screenBefore = screenBefore ?? navigation.screen
        if let h = hint, now >= h.until {
            hint = nil
            changed = true
        }
        if let m = message, now >= m.until {
            endMessage(.timeout)
            changed = true
        }
        // The hint's next part of rows.
        if hint != nil, hintPart(now: now) != hintPartShown {
            hintPartShown = hintPart(now: now)
            changed = true
        }
        if let m = midnight, now >= m { midnight = Self.midnight(after: now, clock) }
        // A boundary of the schedule (or the clock set): what is in force now.
        if let b = boundary, now >= b, followSchedule(now: now) { changed = true }
        if overridden {
            overridden = false
            changed = true
        }
        // A new day: at midnight, or when the clock was set (checked against the calendar every
        // time; the timer only makes sure the loop wakes).
        if navigation.newDay(clock.today()) {
            log("a new day: \(navigation.today)")
            changed = true
            lastChange = .newDay
        }
        // A new minute on a screen that shows the time (woken by its deadline, or by anything
        // else once it has passed).
        if let shown = minuteShown, showsTime, clock.timeOfDay() != shown {
            changed = true
            if lastChange != .newDay { lastChange = .time }
        }
        // Dim and blank after the last input (not while on another console).
        // (A message keeps the panel lit while it shows.)
        let level = away ? idle : message != nil ? .awake : darkened ? .blank
            : idleTimes.neverIdles ? .awake : idleTimes.level(idleFor: (now - lastInput).inSeconds)
        if level != idle {
            idle = level
            log("idle: \(level)")
            changed = true
            lastChange = .idle
            applyBacklight()
        }
        // The screen shown still has something to show (each frame of a spinner asks): else the
        // first that has.
        let stays = screens.contains(navigation.screen) && hasSomething(navigation.screen, now: now)
        if !stays, navigation.settle(available: available(now: now)) { changed = true }
        if turnCycle(now: now, screenBefore: screenBefore) {
            changed = true
            lastChange = .cycle
        }
        // Gauges read from files are followed while they are on the panel.
        // (A change comes back as `.gaugesRead`.)
        effects.append(.showGauges(navigation.screen == .gauges && self.level != .blank && !away, answer: true))
        return changed
    }

    /// One device's events: activity, waking, commands. True when the picture changes.
    private mutating func feed(_ events: [InputEvent], from device: DeviceDescription, name: String, now: Duration) -> Bool {
        // While the hint shows, the first press or touch only closes it (as it would wake the panel).
        // So does the first one while the schedule has the panel dark or dimmed: it lifts that until
        // the schedule's next boundary. While a message shows, the first one only dismisses it.
        fedDevices[device.path] = device.capabilities
        let scheduledDark = scheduleDarkens
        let showing = message != nil
        let outcome = router.feed(events, from: device, asleep: idle != .awake || hint != nil || scheduledDark || showing)
        // On another console the events are that console's: the router follows the devices
        // (touch slots), nothing is acted on.
        if away { return false }
        var changed = false
        if outcome.activity {
            lastInput = now
            lastActivity = now
            cycle?.input(at: now)
        }
        if outcome.woke, showing {
            // Nothing else: no screen moves, and a panel dark before the message came (by a
            // command, by the schedule) is dark again; the press counts for the idle times.
            endMessage(.pressed)
            changed = true
        } else if outcome.woke, idle == .awake, hint != nil, !scheduledDark {
            hint = nil
            changed = true
        } else if outcome.woke {
            log("woken by \(name)")
            hint = nil
            if scheduledDark { overrideSchedule(now: now) { $0.brightness = nil } }
            wake(now: now)
            changed = true
        }
        for command in outcome.commands { changed = perform(command, now: now) || changed }
        if changed { lastChange = .input }
        return changed
    }

    /// The next screen when the cycle's time has come (today's, as a kiosk shows it); not while
    /// blank, away, or a task's progress is shown (the turn then counts from its end). True when
    /// it turned.
    private mutating func turnCycle(now: Duration, screenBefore: ScreenKind) -> Bool {
        guard var cycle else { return false }
        defer { self.cycle = cycle }
        if navigation.screen != screenBefore { cycle.shown(at: now) }
        guard level != .blank, !away else { return false }
        guard navigation.screen != .progress else {
            cycle.shown(at: now)
            return false
        }
        guard now >= cycle.nextTurn else { return false }
        let shown = available(now: now)
        // The screen's next page first (the day stays), then the next screen's first.
        if cycle.candidates(available: shown).contains(navigation.screen),
            let page = navigation.nextPage(pages: pageCount(of: navigation.screen, now: now))
        {
            navigation.page = page
            cycle.shown(at: now)
            return true
        }
        let page = navigation.page
        guard let next = cycle.turn(now: now, current: navigation.screen, available: shown, busy: false) else {
            // The one screen turned through, in pages: back to its first.
            guard page > 0 else { return false }
            navigation.page = 0
            return true
        }
        navigation.screen = next
        navigation.day = navigation.today
        return true
    }

    /// Back to full brightness, counted as input.
    private mutating func wake(now: Duration) {
        lastInput = now
        darkened = false
        guard idle != .awake else { return }
        idle = .awake
        applyBacklight()
    }

    /// Progress appears when a task starts (waking the panel) and goes when it ends, back to the
    /// screen that was shown. A new task starts its bar afresh.
    private mutating func followTask(now: Duration) {
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

    /// The awake brightness in use: the schedule's, else the chosen one, else the backlight's as
    /// found.
    public var awakeBrightness: Double { scheduled.brightness ?? chosenBrightness }

    /// The awake brightness without the schedule: the chosen one, else the backlight's as found.
    public var chosenBrightness: Double { brightness ?? backlight?.foundLevel ?? 1 }

    /// The schedule has the panel dark, or dimmer than its own awake brightness (not while on
    /// another console: the light is that console's).
    public var scheduleDarkens: Bool {
        guard !away, let b = scheduled.brightness else { return false }
        return b < chosenBrightness
    }

    /// How bright the panel is now, and how: the backlight's value and the picture's part.
    public var light: LightPlan {
        let wanted: Double
        // A message lights a panel the schedule has dark at the chosen brightness.
        let awakeBrightness = message != nil && self.awakeBrightness <= 0 ? chosenBrightness : self.awakeBrightness
        switch level {
        case .awake: wanted = awakeBrightness
        case .dimmed(let level): wanted = awakeBrightness * level
        case .blank: wanted = 0
        }
        return LightPlan.make(wanted: wanted, maximum: backlight?.maximum)
    }

    /// The idle times in use: the configuration's, or a command's set over them.
    public var idleSchedule: IdleSchedule { idleTimes }

    /// The names a command's idle times are kept under in the store, and the configuration's
    /// they were set over (a changed configuration starts from its own, as the brightness does).
    static let dimAfterKey = "idle.dimAfter"
    static let blankAfterKey = "idle.blankAfter"
    static let idleBaseKey = "idle.configured"

    /// Seconds as kept (`never` for nil).
    static func idleText(_ seconds: Double?) -> String { seconds.map(NumberText.plain) ?? "never" }
    static func idleBase(_ s: IdleSchedule) -> String { idleText(s.dimAfter) + " " + idleText(s.blankAfter) }

    /// The idle times at start (or a reload): a command's kept in the store while the
    /// configuration's are the ones they were set over; else the configuration's.
    static func keptIdle(configured: IdleSchedule, data: any ShownData) -> IdleSchedule {
        guard data.preference(idleBaseKey) == idleBase(configured) else { return configured }
        var idle = configured
        func kept(_ key: String) -> Double?? {
            guard let text = data.preference(key) else { return .none }
            if text == "never" { return .some(nil) }
            guard let s = Double(text), s.isFinite, s > 0, s <= 86400 else { return .none }
            return .some(s)
        }
        if let d = kept(dimAfterKey) { idle.dimAfter = d }
        if let b = kept(blankAfterKey) { idle.blankAfter = b }
        return idle
    }

    /// The names the brightness is kept under in the store: the level, and the configured one it
    /// was chosen over (a changed configuration starts from its own).
    static let brightnessKey = "brightness"
    static let brightnessBaseKey = "brightness.configured"

    /// The awake brightness at start (or a reload): the one chosen with the keys and kept in the
    /// store, while the configuration's is the one it was chosen over; else the configuration's
    /// (nil: as found).
    private mutating func setUpBrightness(configured: Double?) {
        configuredBrightness = configured
        if data.preference(Self.brightnessBaseKey) == keptBase, let kept = data.preference(Self.brightnessKey).flatMap(Double.init),
            kept > 0, kept <= 1
        {
            brightness = kept
        } else {
            brightness = configured
        }
        // On another console the light is that console's until the switch back.
        if !away { applyBacklight() }
    }

    /// A step brighter or darker (`direction` ±1), kept in the store; true when the picture
    /// changes (a light that cannot do it alone).
    private mutating func stepBrightness(_ direction: Double, now: Duration) -> Bool {
        // At or below the keys' darkest step (a command may have set 5 %), down stays there.
        if direction < 0, awakeBrightness <= Self.lowestBrightness { return false }
        return setBrightness(((awakeBrightness + 0.1 * direction) * 10).rounded() / 10, now: now)
    }

    /// The awake brightness set to `wanted` (0...1, at least `lowest`: the keys' darkest step,
    /// or 1 % for a command, which is taken as asked), kept in the store (in a window of the
    /// schedule that sets the brightness: until its next boundary); true when the picture changes.
    private mutating func setBrightness(_ wanted: Double, lowest: Double = Self.lowestBrightness, now: Duration) -> Bool {
        let before = light
        let level = min(1, max(lowest, wanted))
        guard level != awakeBrightness else { return false }
        // In a window that sets the brightness the step holds until its next boundary, not kept.
        if scheduled.brightness != nil {
            overrideSchedule(now: now) { $0.brightness = level }
            log("brightness \(NumberText.plain(level * 100)) % until the schedule's next boundary")
            return light.picture != before.picture
        }
        brightness = level
        applyBacklight()
        log("brightness \(NumberText.plain(level * 100)) %")
        effects.append(.keep([KeptValue(Self.brightnessKey, NumberText.plain(level)), KeptValue(Self.brightnessBaseKey, keptBase)]))
        return light.picture != before.picture
    }

    /// The darkest awake level the keys go to.
    static let lowestBrightness = 0.1
    /// The configured brightness the keys' level is kept over (see `setUpBrightness`).
    public private(set) var configuredBrightness: Double?
    private var keptBase: String { configuredBrightness.map(NumberText.plain) ?? "none" }

    /// The backlight for the idle level and the brightness: full, dimmed, or off. One whose
    /// brightness cannot be written is given up: the picture itself is dimmed then, as without a
    /// backlight.
    private mutating func applyBacklight() {
        guard backlight != nil, let value = light.backlight else { return }
        effects.append(.setBacklight(value))
    }

    /// Does what a command asks; true when the picture changes.
    private mutating func perform(_ command: Command, now: Duration) -> Bool {
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
            effects.append(.cancelTask)
            return true
        case .held(let action):
            // On the progress screen a long press of any button is its Cancel.
            if navigation.screen == .progress, data.task()?.cancellable == true { return perform(.action(.cancel), now: now) }
            return perform(.action(action), now: now)
        case .action(.help):
            return showHint(now: now)
        case .action(.brighter): return stepBrightness(1, now: now)
        case .action(.darker): return stepBrightness(-1, now: now)
        case .action(.refresh):
            // A pull down on the progress screen is the swipe down it always was.
            guard navigation.screen != .progress else { return perform(.action(.previousScreen), now: now) }
            log("refresh asked for")
            // (The runtime draws when the data changed or the commands started.)
            effects.append(.refreshData)
            if refresh != nil { effects.append(.startRefresh) }
            return false
        case .action(let action):
            let shown = available(now: now)
            // Each screen's pages, counted before the navigation changes (they depend on its day).
            var pages: [ScreenKind: Int] = [:]
            if action == .select || action == .nextScreen || action == .previousScreen {
                for kind in Set(shown + [navigation.screen]) { pages[kind] = pageCount(of: kind, now: now) }
            }
            let changed = navigation.apply(action, available: shown) { pages[$0] ?? 1 }
            if changed { log("\(action): \(navigation.screen)\(pageNote) \(navigation.day)") }
            return changed
        }
    }

    /// How many pages `kind` has on the panel now (a small or round panel's rings, then each
    /// figure; a grid of gauges too large for one page); 1 for the others.
    public func pageCount(of kind: ScreenKind, now: Duration) -> Int {
        // Asked at every turn of the loop while a cycle turns pages: worked out once for what is
        // shown (the screen, the day, the data as it last changed).
        let key = PagesKey(kind: kind, day: navigation.day, today: navigation.today, data: dataGeneration)
        if let memo = pagesMemo.entry, memo.key == key { return memo.count }
        let count = countPages(of: kind, now: now)
        pagesMemo.entry = (key, count)
        return count
    }

    private struct PagesKey: Equatable {
        var kind: ScreenKind
        var day: CalendarDay
        var today: CalendarDay
        var data: Int
    }
    /// The last count, remembered (a cache: the same answer for the same key; a new one for
    /// every change of the data, so copies of the state that go separate ways share none).
    private final class PagesMemo {
        var entry: (key: PagesKey, count: Int)?
    }
    private var pagesMemo = PagesMemo()
    /// Counts the changes of what the screens are made of (the data, the gauges read, a reload).
    private var dataGeneration = 0

    private func countPages(of kind: ScreenKind, now: Duration) -> Int {
        switch kind {
        case .rings:
            // Without the time: the minute is not noted for a count of pages.
            guard !maker.ringsOnly else { return 1 }
            return maker.ringScreen(day: navigation.day, today: navigation.today, summary: ringSummary(), data: data)
                .pageCount(for: router.pictureSize)
        case .gauges: return maker.gaugeScreen(data.gauges(now: now)).pageCount(for: router.pictureSize)
        case .family, .competition: return householdScreen(kind, page: 0).pageCount(for: router.pictureSize)
        default: return 1
        }
    }

    /// What the ring screen leaves out on this panel, and why (a name a small panel has no line
    /// for): what glance run logs once it starts, rather than drop it silently.
    public func ringScreenOmissions() -> [Omission] {
        guard !maker.ringsOnly else { return [] }
        let screen = maker.ringScreen(day: navigation.day, today: navigation.today, summary: ringSummary(), data: data)
        var omitted: [Omission] = []
        for page in 0..<screen.pageCount(for: router.pictureSize) {
            let probe = LayoutProbe()
            screen.showing(page: page).explain(into: probe, size: router.pictureSize, at: 0)
            omitted += probe.omitted.filter { o in !omitted.contains(o) }
        }
        return omitted
    }

    /// " page N of M" for the log, where the screen shown is in pages.
    private var pageNote: String { navigation.page > 0 ? " page \(navigation.page + 1)" : "" }

    /// `kind` shown (a command from the home), when it is configured and has something to show;
    /// true when it changed.
    private mutating func show(screen kind: ScreenKind, now: Duration) -> Bool {
        guard screens.contains(kind), available(now: now).contains(kind), navigation.screen != kind else { return false }
        navigation.screen = kind
        log("shown by a command: \(kind)")
        return true
    }

    /// Whether the panel shows the time now: the clock screen, or the ring screen with the time
    /// in its header, or the family screen (whose people turn stale, and their "3 h ago", as the
    /// clock goes); awake or dimmed, on this console.
    public var showsTime: Bool {
        guard level != .blank, !away, message == nil else { return false }
        switch navigation.screen {
        case .clock, .family: return true
        case .rings: return maker.ringScreenShowsTime(size: router.pictureSize)
        default: return false
        }
    }

    /// How far past the minute the loop wakes for it: the timer is never early, and the wall
    /// clock and the monotonic one run at the same rate between settings of the clock.
    static let minuteMargin = Duration.milliseconds(2)

    public func nextDeadline(now: Duration) -> Duration? {
        // Asked every turn of the loop (each frame of an animation): the earliest kept as it
        // goes, no array of them.
        var next = midnight
        func add(_ deadline: Duration) { next = next.map { min($0, deadline) } ?? deadline }
        // The next minute while the time is shown: one wake-up a minute, none in between.
        if showsTime {
            let s = clock.secondsUntilNextMinute()
            if s.isFinite { add(now + .nanoseconds(Int64((s * 1e9).rounded())) + Self.minuteMargin) }
        }
        if !away, let t = router.nextDeadline { add(.seconds(t)) }
        // (Not while a message keeps the panel lit: its end is the next change.)
        if !away, message == nil, !idleTimes.neverIdles, let change = idleTimes.nextChange(idleFor: (now - lastInput).inSeconds) {
            add(lastInput + .seconds(change))
        }
        if let h = hint { add(h.until) }
        if let m = message { add(m.until) }
        if let part = nextHintPart(after: now) { add(part) }
        // The schedule's next boundary: one wake-up then, none before.
        if let b = boundary { add(b + Self.minuteMargin) }
        if let cycle, level != .blank, !away, navigation.screen != .progress,
            cycle.turns(current: navigation.screen, available: available(now: now))
                || navigation.page > 0 || pageCount(of: navigation.screen, now: now) > 1
        {
            add(cycle.nextTurn)
        }
        return next
    }

    /// The scene to draw at `now`; changes nothing (what showing it changes, `.frameShown` does).
    public func scene(at now: Duration) -> any Scene {
        var shown = self
        return shown.frame(now: now)
    }

    /// The scene at `now`, and what showing it changes: the intro started at the first frame (and
    /// ended after its last), the minute drawn, the progress bar's easing.
    private mutating func frame(now: Duration) -> any Scene {
        // What the backlight cannot do (there is none, or it is only on or off), the picture does.
        let picture = light.picture
        func lit(_ screen: any Screen) -> any Screen { picture < 1 ? DimmedScreen(screen: screen, level: picture) : screen }
        if let message, level != .blank {
            if let code = message.code {
                return ScreenScene(
                    lit(QRCodeScreen(width: code.width, modules: code.modules, name: code.caption, context: maker.context)))
            }
            return ScreenScene(lit(MessageScreen(text: message.text, context: maker.context)))
        }
        switch level {
        case .awake:
            if introPending {
                introPending = false
                if navigation.screen == .rings { introStart = now }
            }
            if let start = introStart, navigation.screen == .rings {
                let time = shownTime()
                let me = self
                let intro = RingIntroScene(summary: ringSummary()) { me.ringScreen(summary: $0, time: time) }
                let (screen, animating) = intro.frame(at: now - start)
                if !animating { introStart = nil }
                return StillOrMoving(screen: lit(screen), moving: animating)
            }
            // (The screen made first: a non-mutating call whose argument mutates self copies
            // the whole state for the call, about 840 instructions a frame.)
            if let hint {
                introStart = nil
                let current = currentScreen(now: now)
                let screen = ButtonHintOverlay(
                    screen: withRefreshControl(current), rows: hint.rows, chord: hint.chord,
                    context: maker.context, part: hintPart(now: now))
                return StillOrMoving(screen: lit(screen), moving: screen.animates)
            }
            introStart = nil
            let current = currentScreen(now: now)
            let screen = withRefreshControl(current)
            return StillOrMoving(screen: lit(screen), moving: screen.animates || easing.isMoving(at: now.inSeconds))
        case .dimmed:
            return ScreenScene(lit(currentScreen(now: now)))
        case .blank: return ScreenScene(BlankScreen())
        }
    }

    /// The day's summary shown on the ring screen (none for a day still to come).
    private func ringSummary() -> ActivitySummary? {
        ScreenMaker.shownSummary(day: navigation.day, today: navigation.today, data: data)
    }

    /// The ring screen for the day shown, with `summary` (the day's, or a stage of the intro).
    private func ringScreen(summary: ActivitySummary?, time: TimeOfDay) -> any Screen {
        maker.ringScreen(day: navigation.day, today: navigation.today, summary: summary, data: data, time: time,
                         page: navigation.page)
    }

    /// The time to draw now; remembered, so the next minute is noticed.
    private mutating func shownTime() -> TimeOfDay {
        let time = clock.timeOfDay()
        minuteShown = time
        return time
    }

    /// The refresh control over the ring and gauge screens while fresh data is fetched (a
    /// spinner) or when that failed (a line).
    func withRefreshControl(_ screen: any Screen) -> any Screen {
        guard let refresh, navigation.screen != .progress else { return screen }
        switch refresh {
        case .idle: return screen
        case .running: return RefreshOverlay(screen: screen, state: .spinning, context: maker.context)
        case .failed: return RefreshOverlay(screen: screen, state: .failed, context: maker.context)
        }
    }

    /// The screen the navigation points at.
    mutating func currentScreen(now: Duration) -> any Screen { screen(for: navigation.screen, now: now) }

    /// The one place a kind of screen becomes a screen, from the data at `now` (a new kind is its
    /// `Screen` and a case here; the other places that name kinds have a default).
    mutating func screen(for kind: ScreenKind, now: Duration) -> any Screen {
        switch kind {
        case .rings:
            return ringScreen(summary: ringSummary(), time: shownTime())
        case .gauges:
            return maker.gaugeScreen(data.gauges(now: now), page: navigation.page)
        case .clock:
            return maker.clockScreen(day: navigation.today, summary: data.summary(for: navigation.today), time: shownTime())
        case .family, .competition:
            return householdScreen(kind, page: navigation.page)
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

    /// The family's rings today, or the competition's standings, from the household's days.
    func householdScreen(_ kind: ScreenKind, page: Int) -> any Screen {
        let today = navigation.today
        let unixNow = clock.unixTime().map { $0.components.seconds }
        if kind == .family { return maker.familyScreen(data.household([today]), today: today, unixNow: unixNow, page: page) }
        return maker.competitionScreen(data.household(maker.competitionDays(today: today)), today: today, page: page)
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
public struct DimmedScreen: OverlayScreen {
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
