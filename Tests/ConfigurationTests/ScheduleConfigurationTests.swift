import Activity
import Controls
import Testing

@testable import Configuration

/// The schedule as the file gives it: windows of the local clock, every mistake with its path.
@Suite("Configuration: schedule", .timeLimit(.minutes(10)))
struct ScheduleConfigurationTests {
    @Test("windows: from and to (24:00 ends a day), days by name, brightness, screens, cycle (null: none)")
    func windows() throws {
        #expect(Configuration().schedule.isEmpty)
        let c = try Configuration.parse(
            #"""
            {"screens": ["rings", "gauges", "clock"], "schedule": [
              {"from": "23:00", "to": "6:30", "brightness": 0},
              {"from": "21:00", "to": "23:00", "days": ["fri", "Saturday"], "screens": ["clock"], "brightness": 30, "cycle": null},
              {"from": "06:30", "to": "24:00", "screens": ["rings", "gauges"], "cycle": {"every": 30}}
            ]}
            """#
        ).get()
        #expect(c.schedule.count == 3)
        #expect(c.schedule[0].from == 23 * 60 && c.schedule[0].to == 6 * 60 + 30 && c.schedule[0].brightness == 0)
        #expect(c.schedule[0].days.isEmpty && c.schedule[0].screens == nil && c.schedule[0].cycle == .keep)
        #expect(c.schedule[1].days == [5, 6] && c.schedule[1].screens == [.clock] && c.schedule[1].cycle == .clear)
        #expect(c.schedule[1].brightness == 0.3 && c.schedule[2].brightness == nil)
        #expect(c.schedule[2].to == 1440 && c.schedule[2].cycle == .set(CycleRule(every: 30)))
        #expect(Configuration.reloads(from: Configuration(), to: c).contains(.schedule))
    }

    @Test("a bad window: each problem at its path")
    func mistakes() throws {
        guard
            case .failure(let found) = Configuration.parse(
                #"""
                {"schedule": [
                  {"to": "25:00", "brightness": 2},
                  {"from": "24:00", "to": "07:00", "days": ["mon", "funday", "mon"], "when": 1},
                  {"from": "07:00", "to": "07:00"},
                  {"from": "07:00", "to": "08:00", "screens": []}
                ]}
                """#)
        else {
            Issue.record("a bad schedule was accepted")
            return
        }
        let issues = found.issues.map(\.description)
        #expect(issues.contains { $0.hasPrefix("$.schedule[0].to: expected a time of day \"HH:MM\" from \"00:01\" to \"24:00\"") }, "\(issues)")
        #expect(issues.contains { $0.hasPrefix("$.schedule[0].brightness: expected a whole percentage of full from 5 to 100, or 0 (off), found 2") }, "\(issues)")
        #expect(issues.contains { $0.hasPrefix("$.schedule[0].from: missing") }, "\(issues)")
        #expect(issues.contains { $0.hasPrefix("$.schedule[1].from: expected a time of day") }, "\(issues)")
        #expect(issues.contains { $0.hasPrefix("$.schedule[1].days[1]: expected a day") }, "\(issues)")
        #expect(issues.contains { $0.hasPrefix("$.schedule[1].days[2]: \"mon\" is listed twice") }, "\(issues)")
        #expect(issues.contains { $0.hasPrefix("$.schedule[1].when") }, "\(issues)")
        #expect(issues.contains { $0.hasPrefix("$.schedule[2].to: the same time as from") }, "\(issues)")
        #expect(issues.contains { $0.hasPrefix("$.schedule[3].screens: expected at least one screen") }, "\(issues)")
        // A window may show a screen the day's do not list (the clock alone in the evening), but
        // its cycle only screens the window shows.
        let evening = try Configuration.parse(#"{"schedule": [{"from": "21:00", "to": "23:00", "screens": ["clock"]}]}"#).get()
        #expect(evening.screens == [.rings, .gauges, .progress] && evening.schedule[0].screens == [.clock])
        guard
            case .failure(let turning) = Configuration.parse(
                #"{"schedule": [{"from": "21:00", "to": "23:00", "screens": ["rings"], "cycle": {"screens": ["gauges"]}}]}"#)
        else {
            Issue.record("a window's cycle through a screen it does not show was accepted")
            return
        }
        #expect(turning.issues.map(\.path) == ["$.schedule[0].cycle.screens[0]"], "\(turning.issues)")
        #expect(turning.issues.first?.message.contains(#"not one of the window's screens ("rings")"#) == true, "\(turning.issues)")
    }

    @Test("issue 37: a window that could only show progress (\"Working…\" with no task) is refused; so are more than 100 windows")
    func refusedWindows() throws {
        for (file, path) in [
            (#"{"schedule": [{"from": "21:00", "to": "23:00", "screens": ["progress"]}]}"#, "$.schedule[0].screens"),
            (#"{"screens": ["progress"], "schedule": [{"from": "21:00", "to": "23:00", "brightness": 50}]}"#, "$.schedule[0]"),
        ] {
            guard case .failure(let found) = Configuration.parse(file) else {
                Issue.record("accepted: \(file)")
                continue
            }
            let issues = found.issues.map(\.description)
            #expect(issues.contains { $0.hasPrefix("\(path): only \"progress\"") }, "\(issues)")
        }
        #expect(throws: Never.self) {
            try Configuration.parse(#"{"schedule": [{"from": "21:00", "to": "23:00", "screens": ["clock", "progress"]}]}"#).get()
        }
        let window = #"{"from": "21:00", "to": "23:00", "brightness": 50}"#
        let many = #"{"schedule": ["# + Array(repeating: window, count: 101).joined(separator: ",") + "]}"
        guard case .failure(let found) = Configuration.parse(many) else {
            Issue.record("101 windows accepted")
            return
        }
        #expect(found.issues.map(\.description).contains { $0.hasPrefix("$.schedule: 101 windows: at most 100") }, "\(found.issues)")
        let hundred = #"{"schedule": ["# + Array(repeating: window, count: 100).joined(separator: ",") + "]}"
        #expect(throws: Never.self) { try Configuration.parse(hundred).get() }
    }
}
