import Activity
import Controls

/// What happens to the device, as `DeviceState.handle(_:at:)` takes it: input, time passing, the
/// data changing, the console switched, a frame shown, a command from the home. The runtime
/// (App's `PanelController`) turns what the operating system brings into these, in order.
public enum DeviceEvent {
    /// The device starts (once, after it is made): the gauge screen's sources followed if shown.
    case started
    /// One device's input events.
    case input([InputEvent], from: DeviceDescription, name: String)
    /// The input devices opened (`glance run` opens them once its first frame is on the panel):
    /// those there now, and whether the refresh commands come with them (`nil`: none).
    case inputOpened([DeviceDescription], refresh: RefreshState?)
    /// An input device plugged in later (it has buttons for the hint asked for; it gets no first hint).
    case inputAdded(DeviceDescription)
    /// An input device that went away: the router forgets its keys and touches.
    case inputRemoved(path: String)
    /// Long presses and gestures whose time has come.
    case tick
    /// What time does (the hint going, a new day, a new minute, dimming, the cycle); `screenBefore`:
    /// the screen shown when the turn began (the cycle counts from a screen changed in the turn).
    case update(screenBefore: ScreenKind?)
    /// The refresh control's state now (the spinner, a failure; nil: no refresh commands).
    case refreshShown(RefreshState?)
    /// The refresh commands changed what the control shows by themselves (the spinner went, a
    /// failure came): the state, and the last change is theirs.
    case refreshChanged(RefreshState?)
    /// The data changed (the store, a gauge's source): a task's progress comes or goes.
    case dataChanged
    /// Gauges read from their files changed as the device followed them (`DeviceEffect.showGauges`).
    case gaugesRead
    /// The wall clock was set (NTP, `date -s`): today and midnight are asked again.
    case clockWasSet
    /// On another console (VT switch): its input is not for the app, the light is that console's.
    case displayReleased
    /// Back in front: the devices grabbed again, and the switch back counts as input.
    case displayRetaken
    /// A frame of `scene(at:)` was shown at this time: the intro starts (or ends), the minute
    /// drawn is remembered, the progress bar's easing moves on.
    case frameShown
    /// The scene's clock starts again here (a first frame slow to draw): the intro from its start.
    case sceneClockRestarted
    /// The panel's light found at start (nil: none) and the configured awake brightness.
    case light(PanelLightInfo?, configured: Double?)
    /// The light could not be set (`DeviceEffect.setBacklight`): given up, the picture dims.
    case backlightFailed(String)
    /// What input or a command asks for.
    case command(Command)
    /// A screen shown by a command from the home (configured and with something to show).
    case show(ScreenKind)
    /// The day to start on (the command line's --date) and the page (--page).
    case showDay(CalendarDay)
    case showPage(Int)
    /// A change of what the schedule has in force, held until its next boundary (a Home Assistant
    /// command, a brightness step in a window that sets it).
    case overrideSchedule((inout ScheduledState) -> Void)
    /// The household's hours followed from now, over the screens and cycle configured now.
    case follow(Schedule)
    /// Woken as by input: full brightness, the idle times counted again, a command's darkness lifted.
    case wake
    /// The light turned off by a command (until a command or an input wakes the panel).
    case darken
    /// The light turned on by a command: a window of the schedule that darkens is lifted.
    case lightOn
    /// The awake brightness set to a fraction (0...1) by a command.
    case brightness(Double)
    /// The idle times set by a command (seconds; nil: never), kept in the store over the
    /// configuration's.
    case idleTimes(dimAfter: Double?, blankAfter: Double?)
    /// The cycle turned on (from where it was paused) or off by a command.
    case cycle(on: Bool)
    /// A new configuration in place (a reload).
    case reconfigure(DeviceSetup)
    /// A message shown over the screen (Home Assistant's notify, `glance message`): see
    /// `DeviceState.showMessage`.
    case message(PanelMessage)
    /// A phone's QR code shown over the screen as a message is (`glance people token NAME
    /// --panel`), for `PanelQRCode.seconds`.
    case qrCode(PanelQRCode)
}

/// What the device asks of the world in answer to an event; the runtime carries each out, in order.
public enum DeviceEffect: Equatable, Sendable {
    /// The picture changes: draw.
    case redraw
    /// The panel's light to this raw level (0...its maximum); a failure comes back as
    /// `DeviceEvent.backlightFailed`.
    case setBacklight(Int)
    /// The light back at the brightness it had when found (another console has the panel).
    case restoreBacklight
    /// The input devices grabbed for the app (EVIOCGRAB), or let go.
    case grabInput(Bool)
    /// The refresh commands started (a pull down, the refresh key); the runtime draws when they
    /// started, and tells their state back (`refreshShown`).
    case startRefresh
    /// The data's sources read again where they can (gauge files); the runtime draws when that
    /// changed something.
    case refreshData
    /// The running task asked to stop (its Cancel).
    case cancelTask
    /// Gauges read from files followed (and waking the loop) only while their screen is on the
    /// panel; `answer`: the device wants `gaugesRead` when that changed a gauge.
    case showGauges(Bool, answer: Bool)
    /// Values kept for the device in the store's preferences (nil forgets the name).
    case keep([KeptValue])
    /// A line for the log.
    case log(String)
    /// The message shown went, and why: told to the control socket's watchers (Home Assistant's
    /// Message dismissed event).
    case messageEnded(MessageEnd)
}

/// A value kept in the store's preferences.
public struct KeptValue: Equatable, Sendable {
    public var name: String
    public var value: String?
    public init(_ name: String, _ value: String?) {
        self.name = name
        self.value = value
    }
}

/// The panel's light as the decisions need it: where it is, its levels, and how bright it was found.
public struct PanelLightInfo: Equatable, Sendable {
    /// Where it is (`/sys/class/backlight/10-0045`), for what is told.
    public var path: String
    /// Its levels: 1 for a light that is only on or off.
    public var maximum: Int
    /// The brightness it had when the app found it, 0...1.
    public var foundLevel: Double
    public init(path: String, maximum: Int, foundLevel: Double) {
        self.path = path
        self.maximum = maximum
        self.foundLevel = foundLevel
    }
}

/// What a reload hands the device: the screens, how they are drawn, the data, the key map and
/// panel (`router`), the idle times, the cycle, the schedule, the refresh control, the brightness.
public struct DeviceSetup {
    public var screens: [ScreenKind]
    public var maker: ScreenMaker
    public var data: any ShownData
    public var router: InputRouter
    public var idle: IdleSchedule
    public var cycle: ScreenCycle?
    public var schedule: Schedule
    /// The refresh control's state (nil: no refresh commands).
    public var refresh: RefreshState?
    /// The input devices open now (nil: input is not read), and whether they are another set than
    /// before (let go at once while another console has the panel).
    public var input: [DeviceDescription]?
    public var newInput: Bool
    public var brightness: Double?
    public init(
        screens: [ScreenKind], maker: ScreenMaker, data: any ShownData, router: InputRouter, idle: IdleSchedule, cycle: ScreenCycle?,
        schedule: Schedule = Schedule(), refresh: RefreshState?, input: [DeviceDescription]?, newInput: Bool, brightness: Double?
    ) {
        self.screens = screens
        self.maker = maker
        self.data = data
        self.router = router
        self.idle = idle
        self.cycle = cycle
        self.schedule = schedule
        self.refresh = refresh
        self.input = input
        self.newInput = newInput
        self.brightness = brightness
    }
}
