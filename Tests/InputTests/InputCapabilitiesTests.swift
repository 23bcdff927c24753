import Testing

@testable import Input

@Suite struct InputCapabilitiesTests {
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
}
