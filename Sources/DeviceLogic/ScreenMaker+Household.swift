import Activity
import Raster
import Screens

/// The household's screens (issue 39): the family's rings and the competition's standings, made
/// from the people the data has.
extension ScreenMaker {
    /// A person's colour, `#rrggbb` (the store's form), as drawn; white where it is not one.
    static func colour(_ text: String) -> Color { Color(rgb: text) ?? .white }

    /// Whether a person last pushed longer ago than `staleAfter` at `unixNow` (nil: the time is
    /// not known, and nobody is stale). A person whose figures never came by a push (imported,
    /// logged) is not stale: nothing says when to expect them.
    public func isStale(_ person: HouseholdPerson, unixNow: Int64?) -> Bool {
        guard let now = unixNow, let pushed = person.lastPush else { return false }
        return Double(now - pushed) > staleAfter
    }

    /// The family screen for `today`: everyone's rings, a stale person's last push said.
    public func familyScreen(_ people: [HouseholdPerson], today: CalendarDay, unixNow: Int64?, page: Int = 0) -> any Screen {
        let strings = context.strings
        let members = people.map { person in
            let stale = isStale(person, unixNow: unixNow)
            let ago = stale ? strings.pushedAgo(seconds: unixNow.flatMap { now in person.lastPush.map { Double(now - $0) } }) : ""
            return FamilyMember(
                name: person.name, colour: Self.colour(person.colour), summary: person.days[today], stale: stale, lastPush: ago)
        }
        return FamilyScreen(members: members, context: context, page: page)
    }

    /// The configured competition among `people` (its participants named by name or id; none
    /// named: everyone), nil where none is configured.
    public func competition(among people: [HouseholdPerson]) -> Competition? {
        guard let start = competitionStart else { return nil }
        let ids: [Int] =
            competitionPeople.isEmpty
            ? people.map(\.id)
            : competitionPeople.compactMap { named in
                people.first { String($0.id) == named || $0.name.lowercased() == named.lowercased() }?.id
            }
        return Competition(start: start, end: competitionEnd, participants: ids)
    }

    /// The days the competition's standings read on `today`: its first up to today or its last.
    public func competitionDays(today: CalendarDay) -> [CalendarDay] {
        guard let start = competitionStart else { return [] }
        let last = min(today, competitionEnd ?? start.adding(days: Competition.usualDays - 1))
        guard last >= start else { return [] }
        return (0...last.days(since: start)).map { start.adding(days: $0) }
    }

    /// The competition's standings on `today` from `people`'s days.
    public func competitionScreen(_ people: [HouseholdPerson], today: CalendarDay, page: Int = 0) -> any Screen {
        guard let competition = competition(among: people) else {
            // (`glance config check` refuses the screen in the list without one; `glance render
            // --screen competition` says what to set.)
            var none = CompetitionContent(entries: [], day: nil, days: 0, finished: false)
            none.notice = context.strings.competitionNone
            return CompetitionScreen(content: none, context: context)
        }
        var days: [Int: [CalendarDay: ActivitySummary]] = [:]
        for person in people { days[person.id] = person.days }
        let standings = competition.standings(days: days, today: today)
        let content = CompetitionContent(standings: standings) { id in
            let person = people.first { $0.id == id }
            return (person?.name ?? "\(id)", Self.colour(person?.colour ?? ""))
        }
        return CompetitionScreen(content: content, context: context, page: page)
    }
}
