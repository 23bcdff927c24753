import Controls
import Screens
import Testing

@testable import Configuration

/// The settings a wall panel or a wrist needs: the clock, screens that turn by themselves, the
/// brightness.
@Suite("Configuration: clock, cycle, brightness", .timeLimit(.minutes(10)))
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

    @Test("cycle: null is off; the screens it turns through must be configured ones, never progress")
    func cycle() throws {
        #expect(Configuration().cycle == nil)
        #expect(try Configuration.parse(#"{"cycle": null}"#).get().cycle == nil)
        let c = try Configuration.parse(
            #"{"screens": ["rings", "gauges", "clock"], "cycle": {"every": 20, "screens": ["clock", "rings"], "pauseOnInput": 0}}"#
        ).get()
        #expect(c.cycle == CycleRule(every: 20, screens: [.clock, .rings], pauseOnInput: 0))
        #expect(try Configuration.parse(#"{"cycle": {}}"#).get().cycle == CycleRule(every: 15, screens: [], pauseOnInput: 60))
        guard
            case .failure(let found) = Configuration.parse(
                #"{"cycle": {"every": 0.5, "screens": ["clock", "progress", "rings", "rings"], "pauseOnInput": -1}}"#)
        else {
            Issue.record("a bad cycle was accepted")
            return
        }
        let issues = found.issues.map(\.description)
        #expect(issues.contains { $0.hasPrefix("$.cycle.every: expected seconds from 1 to 86400") }, "\(issues)")
        #expect(issues.contains { $0.hasPrefix("$.cycle.pauseOnInput: expected seconds from 0 to 86400") }, "\(issues)")
        #expect(issues.contains { $0.hasPrefix(#"$.cycle.screens[1]: "progress" shows itself"#) }, "\(issues)")
        #expect(issues.contains { $0.hasPrefix(#"$.cycle.screens[3]: "rings" is listed twice"#) }, "\(issues)")
        // Valid by itself, but the clock screen is not configured.
        guard case .failure(let unlisted) = Configuration.parse(#"{"cycle": {"screens": ["rings", "clock"]}}"#) else {
            Issue.record("a cycle through an unconfigured screen was accepted")
            return
        }
        #expect(unlisted.issues.map(\.path) == ["$.cycle.screens[1]"], "\(unlisted.issues)")
        #expect(unlisted.issues[0].message.contains(#"not one of the configured screens ("screens": "rings", "gauges", "progress")"#))
    }

    @Test("display.brightness: a whole percentage from 5 to 100 (the older 0.05 to 1 too), null for as found")
    func brightness() throws {
        #expect(Configuration().display.brightness == nil)
        #expect(try Configuration.parse(#"{"display": {"brightness": 80}}"#).get().display.brightness == 0.8)
        #expect(try Configuration.parse(#"{"display": {"brightness": 0.8}}"#).get().display.brightness == 0.8)
        #expect(try Configuration.parse(#"{"display": {"brightness": null}}"#).get().display.brightness == nil)
        for bad in ["0", "1.5", "\"full\""] {
            guard case .failure(let found) = Configuration.parse(#"{"display": {"brightness": "# + bad + "}}") else {
                Issue.record("brightness \(bad) was accepted")
                continue
            }
            #expect(found.issues.map(\.path) == ["$.display.brightness"], "\(found.issues)")
            #expect(
                found.issues[0].message.contains("a whole percentage of full from 5 to 100, or null (as found)"), "\(found.issues)")
        }
    }
}
