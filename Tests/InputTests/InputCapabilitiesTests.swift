import Controls
import Testing

@testable import Input

@Suite(.timeLimit(.minutes(10))) struct InputCapabilitiesTests {
    typealias C = InputCapabilities
    let range = C.AxisRange(minimum: 0, maximum: 32767)

    @Test func qemuTabletIsAnAbsolutePointer() {
        let tablet = C(
            eventTypes: [C.evKey, C.evAbs], keys: [C.btnLeft, C.btnLeft + 1, C.btnLeft + 2],
            absoluteAxes: [C.absX: range, C.absY: range])
        #expect(tablet.kinds == [.absolutePointer])
        #expect(tablet.summary.hasPrefix("absolute pointer x 0..32767 y 0..32767"))
    }

    @Test func multiTouchPanelIsATouchscreenWithSlots() {
        let panel = C(
            eventTypes: [C.evKey, C.evAbs], keys: [C.btnTouch],
            absoluteAxes: [
                C.absX: range, C.absY: range, C.absMTSlot: .init(minimum: 0, maximum: 9),
                C.absMTPositionX: .init(minimum: 0, maximum: 799), C.absMTPositionY: .init(minimum: 0, maximum: 479),
            ], properties: [C.propDirect])
        #expect(panel.kinds == [.touchscreen])
        #expect(panel.summary == "touchscreen x 0..799 y 0..479, multi-touch (slots); direct input")
    }

    @Test func singleTouchResistivePanel() {
        let panel = C(
            eventTypes: [C.evKey, C.evAbs], keys: [C.btnTouch], absoluteAxes: [C.absX: range, C.absY: range])
        #expect(panel.kinds == [.touchscreen])
        #expect(panel.summary.hasSuffix("single touch"))
    }

    @Test func gpioKeysListTheirKeys() {
        let buttons = C(eventTypes: [C.evKey], keys: [103, 108, 28])
        #expect(buttons.kinds == [.keys])
        #expect(buttons.summary == "keys KEY_ENTER KEY_UP KEY_DOWN")
    }

    @Test func keyboardsAreCountedWithTheirNavigationKeys() {
        let keyboard = C(eventTypes: [C.evKey], keys: Set(1...120))
        #expect(keyboard.summary == "120 keys incl. UP DOWN LEFT RIGHT ENTER SPACE ESC PAGEUP PAGEDOWN")
    }

    @Test func mouseIsARelativePointerNotKeys() {
        let mouse = C(eventTypes: [C.evKey, C.evRel], keys: [C.btnLeft], relativeAxes: [0, 1, 8])
        #expect(mouse.kinds == [.relativePointer])
    }

    @Test func somethingElse() {
        #expect(C(eventTypes: [0x05]).summary == "no keys or pointer")
    }

    @Test func somethingElseIsLeftAlone() {
        #expect(
            C(eventTypes: [0x05]).grabPolicy(wanted: [28]) == .skip(reason: "no keys glance uses; left to the system"))
    }
}

@Suite("Which devices are opened and grabbed", .timeLimit(.minutes(10)))
struct GrabPolicyTests {
    typealias C = InputCapabilities
    static let wanted = (try? KeyMap.make(keys: [:]).get())?.codes ?? []
    static let leftAlone = C.GrabPolicy.skip(reason: "no keys glance uses; left to the system")
    static let powerButton = C.GrabPolicy.open(reason: "not grabbed: it has the power button, which logind handles")

    @Test("the default key map's codes: arrows and Enter, not KEY_POWER")
    func wantedCodes() {
        #expect(Self.wanted.isSuperset(of: [103, 108, 105, 106, 28, 0x100]))
        #expect(!Self.wanted.contains(C.keyPower))
    }

    @Test(
        "a power, sleep or brightness button alone (Pi gpio-shutdown, Pi 5 pwr_button, ACPI, Video Bus) is left to the system",
        arguments: [[116], [142], [143], [116, 142, 143], [224, 225]])
    func systemButtonsAlone(keys: Set<Int>) {
        #expect(C(eventTypes: [C.evKey], keys: keys).grabPolicy(wanted: Self.wanted) == Self.leftAlone)
    }

    @Test("brightness keys on a keyboard or remote with other keys glance uses: opened and grabbed (brighter, darker)")
    func brightnessOnAKeyboard() {
        #expect(Self.wanted.isSuperset(of: C.brightnessKeys), "brighter and darker are in the default key map")
        #expect(C(eventTypes: [C.evKey], keys: [103, 108, 224, 225]).grabPolicy(wanted: Self.wanted) == .openAndGrab)
    }

    @Test("a mouse is left to the system; a touchscreen or tablet is opened even with no mapped key")
    func pointers() {
        let mouse = C(eventTypes: [C.evKey, C.evRel], keys: [C.btnLeft, C.btnLeft + 1], relativeAxes: [0, 1])
        #expect(mouse.grabPolicy(wanted: Self.wanted) == Self.leftAlone)
        let range = C.AxisRange(minimum: 0, maximum: 4095)
        let touch = C(
            eventTypes: [C.evKey, C.evAbs], keys: [C.btnTouch], absoluteAxes: [C.absX: range, C.absY: range])
        #expect(touch.grabPolicy(wanted: Self.wanted) == .openAndGrab)
        let tablet = C(
            eventTypes: [C.evKey, C.evAbs], keys: [C.btnLeft], absoluteAxes: [C.absX: range, C.absY: range])
        #expect(tablet.grabPolicy(wanted: Self.wanted) == .openAndGrab)
    }

    @Test("buttons with the power button among them are opened but never grabbed, so logind still gets it")
    func buttonsWithPower() {
        let board = C(eventTypes: [C.evKey], keys: [103, 108, 28, 116])
        #expect(board.grabPolicy(wanted: Self.wanted) == Self.powerButton)
        // Even when the power button itself is mapped.
        #expect(C(eventTypes: [C.evKey], keys: [116]).grabPolicy(wanted: [116]) == Self.powerButton)
        #expect(
            C(eventTypes: [C.evKey], keys: [28, 142]).grabPolicy(wanted: Self.wanted)
                == .open(reason: "not grabbed: it has a sleep or wake-up button, which logind handles"))
    }

    @Test("buttons without system keys, and full keyboards (even with Power and Sleep), are grabbed")
    func grabbed() {
        #expect(C(eventTypes: [C.evKey], keys: [0x100, 0x101, 0x102]).grabPolicy(wanted: Self.wanted) == .openAndGrab)
        #expect(C(eventTypes: [C.evKey], keys: [103, 108, 28]).grabPolicy(wanted: Self.wanted) == .openAndGrab)
        let keyboard = C(eventTypes: [C.evKey], keys: Set(1...120).union([142, 143]))
        #expect(keyboard.isFullKeyboard)
        #expect(keyboard.grabPolicy(wanted: Self.wanted) == .openAndGrab)
    }

    @Test("without a key map the hub takes any key but pointer buttons and the system's")
    func anyKey() {
        #expect(InputHub.anyKey.isSuperset(of: [1, 28, 106, 0x100, 0x160]))
        #expect(InputHub.anyKey.isDisjoint(with: [116, 142, 143, C.btnLeft, C.btnTouch]))
        #expect(C(eventTypes: [C.evKey], keys: [116]).grabPolicy(wanted: InputHub.anyKey) == Self.leftAlone)
    }
}
