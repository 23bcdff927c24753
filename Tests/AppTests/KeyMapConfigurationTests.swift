import Controls
import Configuration
import Input
import Testing

@testable import App

@Suite("Key map from the configuration")
struct KeyMapConfigurationTests {
    @Test("the configuration's keys and long presses reach the map; bad key names come back with their path")
    func keys() throws {
        var c = Configuration()
        c.keys = ["KEY_VOLUMEUP": "nextScreen", "KEY_LEFT": "none"]
        c.longPress = [.cancel: .today]
        c.longPressSeconds = 1.5
        let map = try KeyMap.make(c).get()
        #expect(map.bindings[EventNames.keyCode(named: "KEY_VOLUMEUP")!] == .nextScreen)
        #expect(map.bindings[EventNames.keyCode(named: "KEY_LEFT")!] == nil)
        #expect(map.longPress == [.cancel: .today] && map.longPressSeconds == 1.5)
        c.keys = ["KEY_FROBNICATE": "today", "BTN_X9": "none"]
        guard case .failure(let found) = KeyMap.make(c) else {
            Issue.record("accepted an unknown key")
            return
        }
        #expect(found.issues.map(\.path) == ["$.keys.BTN_X9", "$.keys.KEY_FROBNICATE"])
        #expect(found.issues.allSatisfy { $0.message.contains("glance devices") })
    }
}
