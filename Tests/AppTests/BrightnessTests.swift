@testable import DeviceLogic
import Backlight
import Activity
import Configuration
import Controls
import Foundation
import Input
import Platform
import Raster
import Screens
import Store
import Testing
import Clocks

@testable import App

/// The brightness: the configured level, the keys, the level kept in the store, the dim level
/// relative to it; through a fake sysfs backlight with PWM levels and one that is only on or off.
@Suite("Brightness: levels, keys, kept across restarts, PWM and on/off backlights")
struct BrightnessTests {
    static let t0 = Duration.seconds(100)

    /// A folder standing in for /sys/class/backlight with one light.
    final class FakeSysfs {
        let root: String
        var light: String { root + "/panel" }
        init(maximum: Int, brightness: Int) {
            var template = Array((NSTemporaryDirectory() + "/glance-backlight-XXXXXX").utf8CString)
            root = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)) }
            mkdir(light, 0o755)
            write("max_brightness", "\(maximum)\n")
            write("brightness", "\(brightness)\n")
        }
        deinit { try? FileManager.default.removeItem(atPath: root) }
        func write(_ file: String, _ text: String) {
            _ = FileManager.default.createFile(atPath: light + "/" + file, contents: Data(text.utf8))
        }
        /// What the app wrote last.
        var brightness: String {
            ((try? String(contentsOfFile: light + "/brightness", encoding: .utf8)) ?? "?").trimmingCharacters(in: .whitespacesAndNewlines)
        }
        func backlight() throws -> Backlight { try #require(Backlight.find(in: root, log: { _ in })) }
    }

    static func controller(
        data: DataSource = FixedData(days: [:]), idle: IdleSchedule = IdleSchedule(dimAfter: 10, blankAfter: 20, dimLevel: 0.3)
    ) throws -> DeviceController {
        DeviceController(
            screens: [.rings], maker: ScreenMaker(text: nil, locale: .english), data: data, input: nil,
            router: InputRouter(keyMap: try KeyMap.make(Configuration()).get(), touch: TouchSetting(),
                                panel: Size(width: 64, height: 64), rotation: .none),
            idle: idle, clock: FixedClock(CalendarDay(year: 2026, month: 11, day: 29)!, time: TimeOfDay(hour: 10, minute: 9)),
            intro: false, now: t0, log: { _ in })
    }

    /// The picture's brightness in the controller's scene (1: not dimmed in the picture).
    static func pictureLevel(_ c: DeviceController) -> Double {
        let screen = c.scene(now: t0).frame(at: .zero).screen
        return (screen as? DimmedScreen)?.level ?? 1
    }

    @Test("the plan: a PWM light takes the level, an on/off light is on with the picture dimmed, none: the picture")
    func plan() {
        #expect(LightPlan.make(wanted: 0.8, maximum: 100) == LightPlan(backlight: 80, picture: 1))
        #expect(LightPlan.make(wanted: 0.001, maximum: 100) == LightPlan(backlight: 1, picture: 1), "never off while lit")
        #expect(LightPlan.make(wanted: 0, maximum: 100) == LightPlan(backlight: 0, picture: 1))
        #expect(LightPlan.make(wanted: 0.24, maximum: 1) == LightPlan(backlight: 1, picture: 0.24))
        #expect(LightPlan.make(wanted: 1, maximum: 1) == LightPlan(backlight: 1, picture: 1))
        #expect(LightPlan.make(wanted: 0, maximum: 1) == LightPlan(backlight: 0, picture: 1))
        #expect(LightPlan.make(wanted: 0.5, maximum: nil) == LightPlan(backlight: nil, picture: 0.5))
    }

    @Test("PWM: the configured level when awake, the dim level a fraction of it, off when blank, back on waking")
    func pwm() throws {
        let sysfs = FakeSysfs(maximum: 100, brightness: 40)
        let c = try Self.controller()
        c.backlight = try sysfs.backlight()
        c.setUpBrightness(configured: 0.8)
        #expect(sysfs.brightness == "80" && Self.pictureLevel(c) == 1)
        #expect(c.advance(to: Self.t0 + .seconds(10)) && c.idle == .dimmed(0.3))
        #expect(sysfs.brightness == "24" && Self.pictureLevel(c) == 1, "dimmed to 0.3 of 0.8")
        #expect(c.advance(to: Self.t0 + .seconds(20)) && c.blanked && sysfs.brightness == "0")
        // Without a configured level: as found (40 of 100), dimmed to 12.
        let found = try Self.controller()
        let sysfs2 = FakeSysfs(maximum: 100, brightness: 40)
        found.backlight = try sysfs2.backlight()
        found.setUpBrightness(configured: nil)
        #expect(found.awakeBrightness == 0.4 && sysfs2.brightness == "40")
        #expect(found.advance(to: Self.t0 + .seconds(10)) && sysfs2.brightness == "12")
        found.backlight?.restore()
        #expect(sysfs2.brightness == "40", "the level found at start is put back at the end")
    }

    @Test("an on/off backlight (maximum 1) stays on and the picture dims below full; blank turns it off")
    func onOff() throws {
        let sysfs = FakeSysfs(maximum: 1, brightness: 1)
        let c = try Self.controller()
        c.backlight = try sysfs.backlight()
        #expect((c.backlight as? Backlight)?.onOff == true)
        c.setUpBrightness(configured: 0.8)
        #expect(sysfs.brightness == "1" && abs(Self.pictureLevel(c) - 0.8) < 1e-9)
        #expect(c.advance(to: Self.t0 + .seconds(10)))
        #expect(sysfs.brightness == "1" && abs(Self.pictureLevel(c) - 0.24) < 1e-9)
        #expect(c.advance(to: Self.t0 + .seconds(20)) && sysfs.brightness == "0")
        #expect(c.scene(now: Self.t0).frame(at: .zero).screen is BlankScreen)
        // Full: the picture as drawn.
        let full = try Self.controller()
        let sysfs2 = FakeSysfs(maximum: 1, brightness: 1)
        full.backlight = try sysfs2.backlight()
        full.setUpBrightness(configured: nil)
        #expect(sysfs2.brightness == "1" && Self.pictureLevel(full) == 1)
    }

    @Test("KEY_BRIGHTNESSUP/DOWN step by a tenth (held, they repeat), between a tenth and full")
    func keys() throws {
        let sysfs = FakeSysfs(maximum: 100, brightness: 100)
        let c = try Self.controller(idle: IdleSchedule(dimAfter: nil, blankAfter: nil, dimLevel: 0.3))
        c.backlight = try sysfs.backlight()
        c.setUpBrightness(configured: 0.5)
        let keyboard = DeviceDescription(
            path: "/dev/input/event1", capabilities: InputCapabilities(eventTypes: [1], keys: Set(1..<300)))
        func key(_ name: String, _ value: Int32) {
            let code = EventNames.keyCode(named: name)!
            _ = c.feed([InputEvent(time: 1, type: 1, code: code, value: value), InputEvent(time: 1, type: 0, code: 0, value: 0)],
                       from: keyboard, name: "keyboard", now: Self.t0)
        }
        key("KEY_BRIGHTNESSUP", 1)
        key("KEY_BRIGHTNESSUP", 0)
        #expect(c.awakeBrightness == 0.6 && sysfs.brightness == "60")
        // Held: the key's repeats go on up, and stop at full.
        key("KEY_BRIGHTNESSUP", 1)
        for _ in 0..<10 { key("KEY_BRIGHTNESSUP", 2) }
        key("KEY_BRIGHTNESSUP", 0)
        #expect(c.awakeBrightness == 1 && sysfs.brightness == "100")
        for _ in 0..<12 {
            key("KEY_BRIGHTNESSDOWN", 1)
            key("KEY_BRIGHTNESSDOWN", 0)
        }
        #expect(c.awakeBrightness == 0.1 && sysfs.brightness == "10", "darker than a tenth is for idle dimming")
    }

    @Test("the level chosen with the keys is kept in the store and comes back after a restart, until the configuration changes")
    func keptInTheStore() throws {
        let folder = StoreDataTests.Folder()
        let db = folder.path + "/glance.db"
        let sysfs = FakeSysfs(maximum: 100, brightness: 100)
        do {
            let data = try StoreData(path: db, gauges: [], log: { _ in })
            let c = try Self.controller(data: data)
            c.backlight = try sysfs.backlight()
            c.setUpBrightness(configured: 0.8)
            #expect(c.perform(.action(.darker), now: Self.t0) == false, "a PWM light: the picture is unchanged")
            _ = c.perform(.action(.darker), now: Self.t0)
            #expect(sysfs.brightness == "60")
        }
        // In the store, as the app kept it (another connection reads it).
        let store = try Store(path: db, access: .read)
        #expect(try store.preference("brightness") == "0.6" && store.preference("brightness.configured") == "0.8")
        // Started again with the same configuration: the kept level.
        let again = try Self.controller(data: try StoreData(path: db, gauges: [], log: { _ in }))
        again.backlight = try sysfs.backlight()
        again.setUpBrightness(configured: 0.8)
        #expect(again.awakeBrightness == 0.6 && sysfs.brightness == "60")
        // The configuration's level changed since: its own.
        let changed = try Self.controller(data: try StoreData(path: db, gauges: [], log: { _ in }))
        changed.backlight = try sysfs.backlight()
        changed.setUpBrightness(configured: 0.9)
        #expect(changed.awakeBrightness == 0.9 && sysfs.brightness == "90")
        // Without a backlight the keys dim the picture, and the level is kept all the same.
        let bare = try Self.controller(data: try StoreData(path: db, gauges: [], log: { _ in }))
        bare.setUpBrightness(configured: 0.9)
        #expect(bare.perform(.action(.darker), now: Self.t0), "the picture changes")
        #expect(abs(Self.pictureLevel(bare) - 0.8) < 1e-9)
        #expect(try store.preference("brightness") == "0.8" && store.preference("brightness.configured") == "0.9")
    }
}
