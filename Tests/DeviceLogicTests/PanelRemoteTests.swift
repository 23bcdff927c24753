import Activity
import Controls
import DeviceLogic
import Raster
import Screens
import Testing

/// The control socket's requests, parsed strictly, and what the home's commands do to the device.
@Suite("PanelRemote: the home's commands on the device", .timeLimit(.minutes(10)))
struct PanelRemoteTests {
    static let t0 = DeviceLogicTests.t0

    @Test("requests: exact words, one space, at most 64 bytes; anything else refused with its reason")
    func parsing() {
        let good: [(String, PanelRequest)] = [
            ("screenshot", .screenshot), ("state", .state), ("watch\n", .watch), ("show clock", .show(.clock)), ("next", .next),
            ("refresh", .refresh), ("today", .today), ("cycle off", .cycle(on: false)), ("light on", .light(on: true)),
            ("brightness 40", .brightness(40)), ("brightness 100", .brightness(100)), ("restart", .restart), ("dim 0", .dim(0)),
            ("dim 120", .dim(120)), ("blank 86400", .blank(86400)),
        ]
        for (text, request) in good {
            #expect((try? PanelRequest.parse(Array(text.utf8)).get()) == request, "\(text)")
            if !text.hasSuffix("\n") { #expect(request.text == text) }
        }
        let bad = [
            "", " next", "next ", "show  clock", "SHOW clock", "show kitchen", "brightness 0", "brightness 101", "brightness 0040",
            "brightness -5", "light dim", "restart now", "dim 86401", "blank -1", "dim", "dim 1 2", "dim 000000120", "next\n\n", "show clock extra", "next\u{0}", "show clöck", String(repeating: "a", count: 65),
        ]
        for text in bad {
            guard case .failure(let refusal) = PanelRequest.parse(Array(text.utf8)) else {
                Issue.record("'\(text)' was taken")
                continue
            }
            #expect(!refusal.reason.isEmpty)
        }
    }

    @Test("the state's line and back; junk is no state")
    func stateText() {
        let state = PanelState(
            screen: .clock, screens: [.rings, .clock], cycle: false, light: true, brightness: 40, dimmable: true, touched: 1_764_651_234)
        #expect(
            state.text
                == "state screen=clock screens=rings,clock cycle=off light=on brightness=40 dimmable=yes touched=1764651234 dim=never blank=never")
        #expect(PanelState(text: state.text) == state)
        let none = PanelState(
            screen: .rings, screens: [.rings], cycle: nil, light: false, brightness: 100, dimmable: false, touched: nil, dimAfter: 60,
            blankAfter: 300)
        #expect(none.text.hasSuffix(" dim=60 blank=300"))
        #expect(PanelState(text: none.text) == none)
        for junk in [
            "state", "state screen=clock", state.text + " extra", state.text.replacingOccurrences("screen=clock", "screen=tv"),
            state.text.replacingOccurrences("dim=never", "dim=0"), state.text.replacingOccurrences("blank=never", "blank=-5"),
            state.text.replacingOccurrences("dim=never", "dim=123456789"),
        ] {
            #expect(PanelState(text: junk) == nil, "\(junk)")
        }
    }

    @Test("show, next, today, cycle, light and brightness act on the device and wake it; its state follows")
    func commands() {
        let data = DeviceLogicTests.Data()
        let device = DeviceLogicTests.controller(data, cycle: ScreenCycle(every: 30, screens: [], pauseOnInput: 0, now: Self.t0))
        let light = DeviceLogicTests.Light()
        device.use(light, configured: nil, now: Self.t0)
        let now = Self.t0 + .seconds(1)
        #expect(device.request(.show(.clock), now: now) == .failure(PanelRefusal("clock is not one of the configured screens (rings, progress)")))
        if case .success = device.request(.show(.progress), now: now) { Issue.record("progress has nothing to show without a task") }
        // Dimmed by time, then woken by a command.
        #expect(device.update(now: Self.t0 + .seconds(12)) && device.idle == .dimmed(0.3))
        #expect(device.request(.brightness(50), now: Self.t0 + .seconds(12)) == .success(true))
        #expect(device.idle == .awake && device.awakeBrightness == 0.5 && light.levels.last == 128)
        #expect(data.kept["brightness"] == "0.5", "kept as the keys' level is")
        // Light off: dark until a command (or an input) turns it on.
        #expect(device.request(.light(on: false), now: Self.t0 + .seconds(13)) == .success(true))
        _ = device.update(now: Self.t0 + .seconds(13))
        #expect(device.blanked && light.levels.last == 0)
        #expect(device.panelState(now: Self.t0 + .seconds(13), wallNow: 1000).light == false)
        _ = device.update(now: Self.t0 + .seconds(100))
        #expect(device.blanked, "the idle times do not light it again")
        #expect(device.request(.light(on: true), now: Self.t0 + .seconds(101)) == .success(true))
        _ = device.update(now: Self.t0 + .seconds(101))
        #expect(!device.blanked && light.levels.last == 128)
        // The cycle off and on again (the configured one).
        #expect(device.request(.cycle(on: false), now: Self.t0 + .seconds(102)) == .success(false))
        #expect(device.cycle == nil && device.panelState(now: Self.t0, wallNow: 0).cycle == false)
        _ = device.request(.cycle(on: true), now: Self.t0 + .seconds(103))
        #expect(device.cycle?.every == .seconds(30) && device.panelState(now: Self.t0, wallNow: 0).cycle == true)
        // Today from another day.
        _ = device.perform(.action(.previousDay), now: Self.t0 + .seconds(104))
        #expect(device.navigation.day != DeviceLogicTests.day)
        #expect(device.request(.today, now: Self.t0 + .seconds(105)) == .success(true))
        #expect(device.navigation.day == DeviceLogicTests.day)
        // The socket's own requests are not commands.
        if case .success = device.request(.watch, now: Self.t0) { Issue.record("watch taken as a command") }
        let state = device.panelState(now: Self.t0 + .seconds(106), wallNow: 2000)
        #expect(state.screen == .rings && state.screens == [.rings, .progress] && state.brightness == 50 && state.dimmable)
        #expect(state.touched == nil, "no press or touch yet")
    }
}

extension PanelRemoteTests {
    /// A reload of `device` with the same screens and `cycle`.
    static func reload(_ device: TestDevice, data: DeviceLogicTests.Data, cycle: ScreenCycle?, now: Duration) {
        let map = KeyMap(bindings: [105: .previousDay, 28: .select, 106: .nextDay])
        device.send(
            .reconfigure(DeviceSetup(
                screens: [.rings, .progress], maker: ScreenMaker(text: nil, locale: .english, ringsOnly: true), data: data,
                router: InputRouter(keyMap: map, touch: TouchSetting(), panel: Size(width: 64, height: 64), rotation: .none),
                idle: IdleSchedule(dimAfter: 10, blankAfter: 20, dimLevel: 0.3), cycle: cycle, refresh: nil, input: nil,
                newInput: false, brightness: nil)),
            at: now)
    }

    @Test("issue 37: a reload that changes nothing keeps a cycle turned off by a command off; with the cycle gone from the file, cycle on is refused")
    func cycleThroughReload() {
        let data = DeviceLogicTests.Data()
        let turning = ScreenCycle(every: 30, screens: [], pauseOnInput: 0, now: Self.t0)
        let device = DeviceLogicTests.controller(data, cycle: turning)
        #expect(device.request(.cycle(on: false), now: Self.t0 + .seconds(1)) == .success(false))
        Self.reload(device, data: data, cycle: ScreenCycle(every: 30, screens: [], pauseOnInput: 0, now: Self.t0 + .seconds(2)), now: Self.t0 + .seconds(2))
        #expect(device.cycle == nil, "the reload turned the paused cycle back on")
        #expect(device.panelState(now: Self.t0 + .seconds(2), wallNow: 0).cycle == false)
        // On again: the new file's cycle.
        #expect(device.request(.cycle(on: true), now: Self.t0 + .seconds(3)) == .success(false))
        #expect(device.cycle?.every == .seconds(30))
        // Off, then the cycle taken out of the file: nothing to turn on.
        _ = device.request(.cycle(on: false), now: Self.t0 + .seconds(4))
        Self.reload(device, data: data, cycle: nil, now: Self.t0 + .seconds(5))
        #expect(device.panelState(now: Self.t0 + .seconds(5), wallNow: 0).cycle == nil)
        #expect(device.request(.cycle(on: true), now: Self.t0 + .seconds(6)) == .failure(PanelRefusal("no cycle is configured (\"cycle\": {\"every\": SECONDS})")))
        #expect(device.cycle == nil)
    }

    @Test("issue 37: brightness 5 sets 5 % (not the keys' darkest step of 10 %); a key down from there stays, up goes to 20 %")
    func brightnessExact() {
        let data = DeviceLogicTests.Data()
        let device = DeviceLogicTests.controller(data)
        let light = DeviceLogicTests.Light()
        device.use(light, configured: nil, now: Self.t0)
        for percent in [5, 1, 37, 100] {
            _ = device.request(.brightness(percent), now: Self.t0 + .seconds(1))
            #expect(device.panelState(now: Self.t0 + .seconds(1), wallNow: 0).brightness == percent, "brightness \(percent)")
        }
        _ = device.request(.brightness(5), now: Self.t0 + .seconds(2))
        _ = device.perform(.action(.darker), now: Self.t0 + .seconds(3))
        #expect(device.panelState(now: Self.t0 + .seconds(3), wallNow: 0).brightness == 5)
        _ = device.perform(.action(.brighter), now: Self.t0 + .seconds(4))
        #expect(device.panelState(now: Self.t0 + .seconds(4), wallNow: 0).brightness == 20)
    }
}

extension PanelRemoteTests {
    @Test("dim and blank: the idle times set, 0 never, kept in the store over the configuration's; a dim after the blank refused")
    func idleTimes() {
        let data = DeviceLogicTests.Data()
        let device = DeviceLogicTests.controller(data)  // dims at 10 s, blanks at 20 s
        #expect(device.request(.dim(15), now: Self.t0) == .success(false))
        #expect(device.state.idleSchedule.dimAfter == 15 && device.state.idleSchedule.blankAfter == 20)
        #expect(data.kept["idle.dimAfter"] == "15" && data.kept["idle.blankAfter"] == "20" && data.kept["idle.configured"] == "10 20")
        _ = device.update(now: Self.t0 + .seconds(12))
        #expect(device.idle == .awake, "not dimmed at 12 s any more")
        _ = device.update(now: Self.t0 + .seconds(16))
        #expect(device.idle == .dimmed(0.3))
        #expect(device.request(.blank(0), now: Self.t0 + .seconds(17)) == .success(true), "woken: a command is input")
        _ = device.update(now: Self.t0 + .seconds(1000))
        #expect(device.idle == .dimmed(0.3), "never blank")
        #expect(data.kept["idle.blankAfter"] == "never")
        let state = device.panelState(now: Self.t0 + .seconds(1000), wallNow: 0)
        #expect(state.dimAfter == 15 && state.blankAfter == nil)
        // A dim after the blank time, a blank before the dim time: refused, as the file refuses them.
        _ = device.request(.blank(20), now: Self.t0 + .seconds(1001))
        if case .success = device.request(.dim(30), now: Self.t0 + .seconds(1002)) { Issue.record("a dim after the blank taken") }
        if case .success = device.request(.blank(10), now: Self.t0 + .seconds(1003)) { Issue.record("a blank before the dim taken") }
        // Started again with the same configuration: the kept times; with another: its own.
        let again = DeviceLogicTests.controller(data)
        #expect(again.state.idleSchedule.dimAfter == 15 && again.state.idleSchedule.blankAfter == 20)
        let changed = DeviceLogicTests.controller(data, idle: IdleSchedule(dimAfter: 30, blankAfter: 60, dimLevel: 0.3))
        #expect(changed.state.idleSchedule.dimAfter == 30 && changed.state.idleSchedule.blankAfter == 60)
        // Junk in the store is not taken.
        data.kept["idle.dimAfter"] = "-4"
        #expect(DeviceLogicTests.controller(data).state.idleSchedule.dimAfter == 10)
    }
}

extension String {
    fileprivate func replacingOccurrences(_ target: String, _ replacement: String) -> String {
        split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
    }
}
