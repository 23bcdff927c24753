import Controls
import Screens
import Testing

@testable import Configuration

/// The settings a wall panel or a wrist needs: the clock, screens that turn by themselves, the
/// brightness.
@Suite("Configuration: clock, cycle, brightness")
struct KioskConfigurationTests {
    @Test("clock: the format (null: by the locale) and what a tiny panel shows")
    func clock() throws {
        #expect(Configuration().clock == ClockSetting(format: nil, onTiny: false))
        let c = try Configuration.parse(#"{"screens": ["clock", "rings"], "clock": {"format": "12h", "tiny": "time"}}"#).get()
        #expect(c.screens == [.clock, .rings])
        #expect(c.clock == ClockSetting(format: .twelveHour, onTiny: true))
        #expect(try Configuration.parse(#"{"clock": {"format": null}}"#).get().clock.format == nil)
        #expect(try Configuration.parse(#"{"clock": {"format": "off"}}"#).get().clock.format == .off)
        guard case .failure(let found) = Configuration.parse(#"{"clock": {"format": "13h", "tiny": "date", "size": 2}}"#) else {
            Issue.record("a bad clock section was accepted")
            return
        }
        let paths = found.issues.map(\.path)
        #expect(paths == ["$.clock.size", "$.clock.format", "$.clock.tiny"], "\(found.issues)")
        #expect(found.issues[1].message.contains(#"expected one of "24h", "12h", "off""#))
        #expect(found.issues[2].message.contains(#""day", "time""#))
    }
}
