import Activity
import Testing

@testable import Configuration

/// The household's settings (issue 39): when a person's rings are stale, the competition's days
/// and who takes part.
@Suite("Configuration: household", .timeLimit(.minutes(10)))
struct HouseholdConfigurationTests {
    @Test("household: staleAfter in hours, the competition's start, end (start + 6 by default) and people")
    func household() throws {
        let none = Configuration().household
        #expect(none.staleAfter == 12 && none.start == nil && none.lastDay == nil && none.people.isEmpty)
        let c = try Configuration.parse(
            #"{"household": {"staleAfter": 6, "start": "2026-12-07", "people": ["Me", "Ann", "3"]}}"#
        ).get().household
        #expect(c.staleAfter == 6 && c.start == CalendarDay(year: 2026, month: 12, day: 7) && c.people == ["Me", "Ann", "3"])
        #expect(c.lastDay == CalendarDay(year: 2026, month: 12, day: 13), "seven days, as Apple's")
        let ended = try Configuration.parse(#"{"household": {"start": "2026-12-07", "end": "2026-12-09"}}"#).get().household
        #expect(ended.lastDay == CalendarDay(year: 2026, month: 12, day: 9))
        guard
            case .failure(let found) = Configuration.parse(
                #"{"household": {"staleAfter": 0, "start": "2026-12-32", "end": "7 Dec", "people": [""]}}"#)
        else {
            Issue.record("a bad household section was accepted")
            return
        }
        let issues = found.issues.map(\.description)
        #expect(issues.contains { $0.hasPrefix("$.household.staleAfter: expected hours from 0.25") }, "\(issues)")
        #expect(issues.contains { $0.hasPrefix(#"$.household.start: expected a day like "2026-12-07", found "2026-12-32""#) }, "\(issues)")
        #expect(issues.contains { $0.hasPrefix(#"$.household.end: expected a day like "2026-12-07", found "7 Dec""#) }, "\(issues)")
        #expect(issues.contains { $0.hasPrefix("$.household.people[0]:") }, "\(issues)")
        guard case .failure(let backwards) = Configuration.parse(#"{"household": {"start": "2026-12-07", "end": "2026-12-06"}}"#)
        else {
            Issue.record("a competition ending before it starts was accepted")
            return
        }
        #expect(backwards.issues.map(\.path) == ["$.household.end"], "\(backwards.issues)")
    }

    @Test("the family and competition screens by name; the competition screen listed without a competition is refused")
    func screens() throws {
        let c = try Configuration.parse(#"{"screens": ["family", "competition", "rings"], "household": {"start": "2026-12-07"}}"#).get()
        #expect(c.screens == [.family, .competition, .rings])
        guard case .failure(let found) = Configuration.parse(#"{"screens": ["rings", "competition"]}"#) else {
            Issue.record("the competition screen without a competition was accepted")
            return
        }
        #expect(found.issues.map(\.path) == ["$.household.start"], "\(found.issues)")
        #expect(found.issues.first?.message.contains("the competition screen needs a competition") == true)
        // In a window of the schedule too.
        guard
            case .failure(let window) = Configuration.parse(
                #"{"schedule": [{"from": "18:00", "to": "22:00", "screens": ["competition"]}], "screens": ["rings", "competition"]}"#)
        else {
            Issue.record("a window showing the competition without one was accepted")
            return
        }
        #expect(window.issues.map(\.path).contains("$.household.start"), "\(window.issues)")
        #expect(try Configuration.parse(#"{"screens": ["family"]}"#).get().screens == [.family], "the family needs nothing more")
    }
}
