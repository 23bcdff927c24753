import Controls
import Configuration
import Input
import Testing

@testable import Runtime

@Suite("Key map from the configuration", .timeLimit(.minutes(10)))
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

    @Test("the help's words for the default keys are what the default table does")
    func defaultsHelp() {
        let said: [(String, String, Action)] = [
            ("Left", "KEY_LEFT", .previousDay), ("Right", "KEY_RIGHT", .nextDay), ("Up/Down", "KEY_UP", .previousScreen),
            ("Up/Down", "KEY_DOWN", .nextScreen), ("Page Up/Down", "KEY_PAGEUP", .previousScreen),
            ("Page Up/Down", "KEY_PAGEDOWN", .nextScreen), ("Enter", "KEY_ENTER", .select), ("Space", "KEY_SPACE", .select),
            ("Home today", "KEY_HOME", .today), ("Esc", "KEY_ESC", .cancel), ("brightness keys", "KEY_BRIGHTNESSUP", .brighter),
            ("brightness keys", "KEY_BRIGHTNESSDOWN", .darker), ("F5", "KEY_F5", .refresh), ("Refresh", "KEY_REFRESH", .refresh),
        ]
        for (words, key, action) in said {
            #expect(KeyMap.defaultsHelp.contains(words), "the help names \(words)")
            #expect(KeyMap.defaultBindings[key] == action, "\(key) does \(action)")
        }
        #expect(KeyMap.defaultsHelp.contains("(held: today)") && Action.defaultLongPress[.select] == .today)
    }
}
