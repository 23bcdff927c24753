import Activity
import Controls
import DeviceLogic
import Raster
import Screens
import Testing

/// The control socket's `reload` and `panel` (issue 41, glance web): the requests' words, and the
/// panel's line written and read back as strictly as the state's.
@Suite("PanelFacts: reload and panel on the control socket", .timeLimit(.minutes(20)))
struct PanelFactsTests {
    static let t0 = DeviceLogicTests.t0

    @Test("reload and panel: one word each; with anything after or around them refused with a reason")
    func requests() {
        for (text, request) in [("reload", PanelRequest.reload), ("panel", .panel), ("reload\n", .reload)] {
            #expect((try? PanelRequest.parse(Array(text.utf8)).get()) == request, "\(text)")
            #expect(request.text == (text.hasSuffix("\n") ? String(text.dropLast()) : text))
            #expect(request.described == request.text)
        }
        for text in ["reload x", "panel 1", "reload now", "Reload", "PANEL", " panel", "panel ", "reload\n\n", "reloads", "panel\u{0}"] {
            guard case .failure(let refusal) = PanelRequest.parse(Array(text.utf8)) else {
                Issue.record("'\(text)' was taken")
                continue
            }
            #expect(!refusal.reason.isEmpty)
        }
        // An unknown request's refusal lists them among what this glance knows.
        guard case .failure(let unknown) = PanelRequest.parse(Array("reboot".utf8)) else {
            Issue.record("reboot was taken")
            return
        }
        #expect(unknown.reason.contains("restart, reload, panel,"), "\(unknown.reason)")
    }

    @Test("reload and panel are the socket's and the app's: no device event comes of them")
    func notCommands() {
        let device = DeviceLogicTests.controller(DeviceLogicTests.Data()).state
        for request in [PanelRequest.reload, .panel] {
            guard case .failure(let refusal) = PanelRemote.events(for: request, on: device, now: Self.t0) else {
                Issue.record("\(request.text) became the device's events")
                continue
            }
            #expect(refusal.reason.hasPrefix(request.text + " is the "), "\(refusal.reason)")
        }
    }

    static let sample = PanelFacts(
        width: 480, height: 480, rotation: .quarter, round: true, diagonalTenths: 21, measured: .display, distance: 60,
        connector: "DSI-1", format: "XR24")

    @Test("the panel's line and back: every key once, in order; junk, a value out of its bounds, a key out of order: no facts")
    func text() {
        let line = "panel width=480 height=480 rotation=90 shape=round diagonal=2.1 measured=display distance=60 connector=DSI-1 format=XR24"
        #expect(Self.sample.text == line)
        #expect(PanelFacts(text: line) == Self.sample)
        #expect(Self.sample.diagonal == 2.1)
        let none = PanelFacts(
            width: 120, height: 80, rotation: .none, round: false, diagonalTenths: 9, measured: .assumed, distance: 50, connector: nil,
            format: nil)
        #expect(none.text == "panel width=120 height=80 rotation=0 shape=rectangle diagonal=0.9 measured=assumed distance=50 connector=none format=none")
        #expect(PanelFacts(text: none.text) == none)
        let large = PanelFacts(
            width: 3840, height: 2160, rotation: .threeQuarters, round: false, diagonalTenths: 1234, measured: .setting, distance: 300,
            connector: "HDMI-A-1", format: "0x3231564e")
        #expect(large.text.contains(" diagonal=123.4 ") && PanelFacts(text: large.text) == large, "\(large.text)")
        for junk in [
            "", "panel", "state " + line.dropFirst(6), line + " extra", line + " ", " " + line,
            line.replacing("width=480", with: "width=0"), line.replacing("width=480", with: "width=0480"),
            line.replacing("width=480", with: "width=65536"), line.replacing("width=480", with: "width=-480"),
            line.replacing("height=480", with: "height=4e2"), line.replacing("rotation=90", with: "rotation=45"),
            line.replacing("shape=round", with: "shape=oval"), line.replacing("diagonal=2.1", with: "diagonal=2"),
            line.replacing("diagonal=2.1", with: "diagonal=2.10"), line.replacing("diagonal=2.1", with: "diagonal=.5"),
            line.replacing("diagonal=2.1", with: "diagonal=0.0"), line.replacing("diagonal=2.1", with: "diagonal=02.1"),
            line.replacing("diagonal=2.1", with: "diagonal=2,1"), line.replacing("measured=display", with: "measured=guess"),
            line.replacing("distance=60", with: "distance=0"), line.replacing("distance=60", with: "distance=100000"),
            line.replacing("connector=DSI-1", with: "connector="), line.replacing("connector=DSI-1", with: "connector=DSI/1"),
            line.replacing("connector=DSI-1", with: "connector=" + String(repeating: "A", count: 33)),
            line.replacing("format=XR24", with: "format=XR-24"), line.replacing("format=XR24", with: "format=XRGB88880000"),
            line.replacing("width=480 height=480", with: "height=480 width=480"),
            line.replacing("shape=round", with: "shape=round shape=round"),
            line.replacing("panel width", with: "panel  width"),
        ] {
            #expect(PanelFacts(text: junk) == nil, "\(junk)")
        }
    }

    @Test("a connector or format with other characters is told with _ in their place and cut; none, empty or out of bounds kept in bounds")
    func bounded() {
        let odd = PanelFacts(
            width: 0, height: 100_000, rotation: .half, round: false, diagonalTenths: 0, measured: .assumed, distance: 1_000_000,
            connector: "HDMI A/1\n" + String(repeating: "x", count: 40), format: "XR 24")
        #expect(odd.width == 1 && odd.height == PanelFacts.maximumPixels && odd.diagonalTenths == 1 && odd.distance == PanelFacts.maximumDistance)
        #expect(odd.connector == "HDMI_A_1_" + String(repeating: "x", count: 23) && odd.format == "XR_24", "\(odd.text)")
        #expect(PanelFacts(text: odd.text) == odd, "\(odd.text)")
        let empty = PanelFacts(
            width: 10, height: 10, rotation: .none, round: false, diagonalTenths: 5, measured: .setting, distance: 40, connector: "",
            format: "none")
        #expect(empty.connector == nil && empty.format == nil && empty.text.hasSuffix(" connector=none format=none"))
        #expect(PanelFacts.tenths(1.28) == 13 && PanelFacts.tenths(0.01) == 1 && PanelFacts.tenths(.nan) == 1 && PanelFacts.tenths(1e9) == 99999)
    }

    @Test("the facts of a device: its maker's outline and viewing resolved for the picture, as the screens are drawn for them")
    func ofDevice() {
        let data = DeviceLogicTests.Data()
        let router = InputRouter(keyMap: KeyMap(bindings: [:]), touch: TouchSetting(), panel: Size(width: 480, height: 480), rotation: .none)
        func device(shape: PanelShape, viewing: Viewing) -> DeviceState {
            var maker = ScreenMaker(text: nil, locale: .english, shape: shape, ringsOnly: true)
            maker.viewing = viewing
            return DeviceState(
                screens: [.rings], maker: maker, data: data, router: router, idle: IdleSchedule(dimAfter: nil, blankAfter: nil, dimLevel: 1),
                cycle: nil, clock: DeviceLogicTests.Clock(), intro: false, now: Self.t0)
        }
        // The display's own size (DRM's millimetres): a round 2.1" at its usual 60 cm.
        let measured = PanelRemote.facts(
            of: device(shape: .round, viewing: Viewing(diagonal: 2.1, source: .display)), picture: Size(width: 480, height: 480),
            rotation: .quarter, connector: "DSI-1", format: "XR24")
        #expect(measured == Self.sample, "\(measured.text)")
        // Nothing known: the usual panel of the picture (800x480: 7") at its usual distance (80 cm).
        let assumed = PanelRemote.facts(
            of: device(shape: .rectangle, viewing: Viewing()), picture: Size(width: 800, height: 480), rotation: .none, connector: nil,
            format: nil)
        #expect(assumed.text == "panel width=800 height=480 rotation=0 shape=rectangle diagonal=7.0 measured=assumed distance=80 connector=none format=none")
        // Set: the diagonal and the distance as the file has them.
        let set = PanelRemote.facts(
            of: device(shape: .rectangle, viewing: Viewing(diagonal: 1.28, distance: 30.4)), picture: Size(width: 240, height: 240),
            rotation: .half, connector: "SPI-1", format: "RG16")
        #expect(set.text == "panel width=240 height=240 rotation=180 shape=rectangle diagonal=1.3 measured=setting distance=30 connector=SPI-1 format=RG16")
    }
}
