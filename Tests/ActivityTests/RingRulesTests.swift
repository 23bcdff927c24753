import Testing

@testable import Activity

/// Each rule of the data → ring state table in rings.md, one test each.
@Suite("Ring rules (rings.md)", .timeLimit(.minutes(10)))
struct RingRulesTests {
    static let full = ActivitySummary(
        activeEnergyBurned: .kilocalories(350), activeEnergyBurnedGoal: .kilocalories(500),
        exerciseTime: 20, exerciseTimeGoal: 30, standHours: 8, standHoursGoal: 12)

    @Test("no summary for the day: every ring empty")
    func noSummary() {
        #expect(RingSet(nil) == .three(move: .empty, exercise: .empty, stand: .empty))
    }

    @Test("a ring whose value is missing is empty", arguments: [Ring.move, .exercise, .stand])
    func missingValue(ring: Ring) {
        var s = Self.full
        switch ring {
        case .move: s.activeEnergyBurned = nil
        case .exercise: s.exerciseTime = nil
        case .stand: s.standHours = nil
        }
        #expect(state(RingSet(s), ring) == .empty)
        // The other rings keep their progress.
        for other in Ring.allCases where other != ring {
            #expect(state(RingSet(s), other) != .empty)
        }
    }

    @Test("a ring whose goal is missing is empty (Move in energy mode)")
    func missingMoveGoal() {
        var s = Self.full
        s.activeEnergyBurnedGoal = nil
        #expect(RingSet(s) == .three(move: .empty, exercise: .progress(20.0 / 30), stand: .progress(8.0 / 12)))
    }

    @Test("one of exercise or stand goals missing keeps three rings, that ring empty")
    func oneGoalMissing() {
        var s = Self.full
        s.standHoursGoal = nil
        #expect(RingSet(s) == .three(move: .progress(0.7), exercise: .progress(20.0 / 30), stand: .empty))
    }

    @Test("value 0 with a goal: a dot", arguments: [Ring.move, .exercise, .stand])
    func zeroIsDot(ring: Ring) {
        var s = Self.full
        switch ring {
        case .move: s.activeEnergyBurned = .kilocalories(0)
        case .exercise: s.exerciseTime = 0
        case .stand: s.standHours = 0
        }
        #expect(state(RingSet(s), ring) == .dot)
    }

    @Test("value > 0: progress = value / goal, never clamped", arguments: [0.37, 1.0, 1.35, 2.5, 12.0])
    func progressNotClamped(p: Double) {
        var s = Self.full
        s.activeEnergyBurned = .kilocalories(500 * p)
        #expect(state(RingSet(s), .move) == .progress(p))
        #expect(state(RingSet(s), .move).turns == p)
    }

    @Test("move-time mode with no exercise or stand goal: Move only, from move time")
    func moveTimeOnly() {
        let s = ActivitySummary(
            activeEnergyBurned: .kilocalories(999), activeEnergyBurnedGoal: .kilocalories(100),
            moveTime: 45, moveTimeGoal: 60, exerciseTime: 10, standHours: 3, moveMode: .moveTime)
        #expect(RingSet(s) == .moveOnly(.progress(0.75)))
    }

    @Test("move-time mode with an exercise goal: three rings, Move from move time")
    func moveTimeThree() {
        let s = ActivitySummary(
            activeEnergyBurned: .kilocalories(999), activeEnergyBurnedGoal: .kilocalories(100),
            moveTime: 30, moveTimeGoal: 60, exerciseTime: 15, exerciseTimeGoal: 30, moveMode: .moveTime)
        #expect(RingSet(s) == .three(move: .progress(0.5), exercise: .progress(0.5), stand: .empty))
    }

    @Test("otherwise three rings: Move (outer), Exercise, Stand (inner)")
    func threeRingsOrder() {
        #expect(RingSet(Self.full).rings.map(\.ring) == [.move, .exercise, .stand])
    }

    @Test("Move in energy mode: active energy / energy goal, whatever the units")
    func energyUnits() {
        var s = Self.full
        s.activeEnergyBurned = Energy(1046, .kilojoule)  // 250 kcal
        s.activeEnergyBurnedGoal = Energy(500, .largeCalorie)
        guard case .progress(let p) = state(RingSet(s), .move) else {
            Issue.record("expected progress")
            return
        }
        #expect(abs(p - 1046 / 4.184 / 500) < 1e-12)
    }

    @Test("goals that are 0, negative, NaN or infinite carry no progress", arguments: [0, -5, .nan, .infinity])
    func badGoals(goal: Double) {
        var s = Self.full
        s.exerciseTimeGoal = goal
        #expect(state(RingSet(s), .exercise) == .empty)
        #expect(RingState(value: 10, goal: goal) == .empty)
    }

    @Test("iPhone-only days (exercise and stand goals 0) show the Move ring alone")
    func iPhoneOnly() {
        let s = ActivitySummary(
            activeEnergyBurned: .kilocalories(313), activeEnergyBurnedGoal: .kilocalories(300),
            exerciseTime: 0, exerciseTimeGoal: 0, standHours: 0, standHoursGoal: 0)
        #expect(RingSet(s) == .moveOnly(.progress(313.0 / 300)))
    }

    @Test("negative or NaN values are invalid input, named at the edge, and never drawn")
    func invalidValues() {
        var s = Self.full
        s.exerciseTime = -1
        s.standHours = .nan
        #expect(s.invalidFields == ["exerciseTime", "standHours"])
        #expect(Self.full.invalidFields.isEmpty)
        // Defensively, the model still draws nothing for them.
        #expect(state(RingSet(s), .exercise) == .empty)
        #expect(state(RingSet(s), .stand) == .empty)
    }

    @Test("figures outside their range are invalid input; a ratio never overflows to an empty ring")
    func figureRanges() {
        var s = Self.full
        s.activeEnergyBurned = .kilocalories(1e308)
        s.activeEnergyBurnedGoal = .kilocalories(1e-308)
        s.standHoursGoal = 25
        #expect(s.invalidFields == ["activeEnergyBurned", "activeEnergyBurnedGoal", "standHoursGoal"])
        #expect(s.problems.first?.problem == "is above 100000 (kcal or kJ)")
        #expect(FigureRange.minutes.problem(1440, goal: true) == nil)
        #expect(FigureRange.hours.problem(0.5, goal: false) == nil)
        #expect(FigureRange.hours.problem(0.5, goal: true)?.contains("a goal below 1") == true)
        // Issue 16, 12: the model draws the most turns for a ratio that overflows, not an empty ring.
        #expect(RingState(value: 1e308, goal: 1e-308) == .progress(RingState.maxTurns))
        #expect(RingState(value: 100_000, goal: 1) == .progress(100_000))
    }

    @Test("a zero goal is valid data, not invalid input")
    func zeroGoalIsValid() {
        var s = Self.full
        s.standHoursGoal = 0
        #expect(s.invalidFields.isEmpty)
    }

    private func state(_ set: RingSet, _ ring: Ring) -> RingState {
        set.rings.first { $0.ring == ring }?.state ?? .empty
    }
}

@Suite("Energy units", .timeLimit(.minutes(10)))
struct EnergyTests {
    @Test("kcal and Cal are the same; kJ converts at 4.184")
    func conversions() {
        #expect(Energy(100, .kilocalorie).kilocalories == 100)
        #expect(Energy(100, .largeCalorie).kilocalories == 100)
        #expect(abs(Energy(418.4, .kilojoule).kilocalories - 100) < 1e-12)
    }

    @Test("symbols from exports", arguments: [("kcal", EnergyUnit.kilocalorie), ("Cal", .largeCalorie), ("kJ", .kilojoule)])
    func symbols(symbol: String, unit: EnergyUnit) {
        #expect(EnergyUnit(symbol: symbol) == unit)
    }

    @Test("a small calorie or an unknown unit is not accepted", arguments: ["cal", "J", "", "kcals"])
    func unknownSymbols(symbol: String) {
        #expect(EnergyUnit(symbol: symbol) == nil)
    }
}

@Suite("Calendar days", .timeLimit(.minutes(10)))
struct CalendarDayTests {
    @Test("ISO dates parse exactly")
    func parse() {
        #expect(CalendarDay(iso: "2022-09-13") == CalendarDay(year: 2022, month: 9, day: 13))
        for bad in ["2022-9-13", "2022-02-30", "2023-02-29", "2022-13-01", "20220913", "2022-09-1x", ""] {
            #expect(CalendarDay(iso: bad) == nil, "\(bad)")
        }
        #expect(CalendarDay(iso: "2024-02-29") != nil)
    }

    @Test("days since the epoch round-trip, weekdays are right")
    func epoch() throws {
        let d = try #require(CalendarDay(year: 1970, month: 1, day: 1))
        #expect(d.daysSinceEpoch == 0)
        #expect(d.weekday == 4)  // Thursday
        let day = try #require(CalendarDay(iso: "2026-11-29"))
        #expect(day.weekday == 7)  // a Sunday
        for offset in [-800_000, -1, 0, 1, 59, 365, 19_000, 2_900_000] {
            #expect(CalendarDay(daysSinceEpoch: offset).daysSinceEpoch == offset)
        }
        #expect(day.adding(days: 3).description == "2026-12-02")
        #expect(day.adding(days: -29).description == "2026-10-31")
        #expect(day.days(since: day.adding(days: -7)) == 7)
    }
}
