import Testing

@testable import Activity

/// The competition's points against a table worked out by hand: a week of four people, Move in
/// energy (kcal and kJ), in move time and in steps, days over 100 %, capped days (600), missing
/// days and goals, and a tie.
@Suite("Competition (Apple's scoring: 1 point per 1 % of each ring, at most 600 a day)", .timeLimit(.minutes(10)))
struct CompetitionTests {
    static let start = CalendarDay(year: 2026, month: 11, day: 23)!

    static func energy(_ kcal: Double?, _ goal: Double?, _ exercise: Double?, _ exerciseGoal: Double?, _ stand: Double?,
                       _ standGoal: Double?) -> ActivitySummary {
        ActivitySummary(activeEnergyBurned: kcal.map { .kilocalories($0) }, activeEnergyBurnedGoal: goal.map { .kilocalories($0) },
                        exerciseTime: exercise, exerciseTimeGoal: exerciseGoal, standHours: stand, standHoursGoal: standGoal)
    }

    static func moveTime(_ minutes: Double, _ exercise: Double, _ stand: Double) -> ActivitySummary {
        ActivitySummary(moveTime: minutes, moveTimeGoal: 30, exerciseTime: exercise, exerciseTimeGoal: 30, standHours: stand,
                        standHoursGoal: 12, moveMode: .moveTime)
    }

    static func steps(_ steps: Double, _ exercise: Double?, _ exerciseGoal: Double, _ stand: Double, _ standGoal: Double)
        -> ActivitySummary
    {
        ActivitySummary(exerciseTime: exercise, exerciseTimeGoal: exerciseGoal, standHours: stand, standHoursGoal: standGoal,
                        moveMode: .steps, steps: steps, stepsGoal: 10_000)
    }

    /// Each person's seven days (nil: no summary that day) and the points worked out by hand,
    /// ring by ring (Move + Exercise + Stand, then the cap).
    static let table: [(person: Int, days: [ActivitySummary?], points: [Int])] = [
        // Ann: energy against 500 kcal, 30 min, 12 h.
        (1, [
            energy(250, 500, 15, 30, 6, 12),        // 50 + 50 + 50 = 150
            energy(500, 500, 30, 30, 12, 12),       // 100 + 100 + 100 = 300
            energy(1000, 500, 90, 30, 12, 12),      // 200 + 300 + 100 = 600, exactly the most
            energy(1500, 500, 120, 30, 16, 12),     // 300 + 400 + 133 = 833: capped at 600
            energy(375, 500, 11.1, 30, 4.44, 12),   // 75 + 37 + 37 = 149 (11.1 / 30 is 37 %, not 36)
            nil,                                    // no data: 0
            energy(0, 500, 0, 30, 0, 12),           // all at 0 (dots): 0
        ], [150, 300, 600, 600, 149, 0, 0]),
        // Bo: Move in minutes (Apple Watch for children), goals 30 min, 30 min, 12 h.
        (2, [
            moveTime(45, 20, 10),                   // 150 + 66 + 83 = 299
            moveTime(60, 60, 14),                   // 200 + 200 + 116 = 516
            moveTime(90, 120, 24),                  // 300 + 400 + 200 = 900: capped at 600
            moveTime(15, 10, 6),                    // 50 + 33 + 50 = 133
            moveTime(30, 30, 12),                   // 100 + 100 + 100 = 300
            moveTime(0, 0, 0),                      // 0
            moveTime(1, 1, 1),                      // 3 + 3 + 8 = 14
        ], [299, 516, 600, 133, 300, 0, 14]),
        // Cy: Move in steps against 10,000 (a band through Gadgetbridge).
        (3, [
            steps(12_500, 45, 30, 9, 12),           // 125 + 150 + 75 = 350
            steps(8_000, 0, 0, 0, 0),               // exercise and stand goals 0 (Move alone): 80
            steps(30_000, 100, 30, 20, 12),         // 300 + 333 + 166 = 799: capped at 600
            steps(10_000, 30, 30, 12, 12),          // 100 + 100 + 100 = 300
            steps(5_000, nil, 30, 6, 12),           // 50 + 0 (no value) + 50 = 100
            steps(9_999, 29.9, 30, 11, 12),         // 99 + 99 + 91 = 289 (never rounded up)
            steps(6_000, 15, 30, 4, 12),            // 60 + 50 + 33 = 143
        ], [350, 80, 600, 300, 100, 289, 143]),
        // Di: energy, one day in kilojoules, one without a Move goal, one with a Move goal of 0.
        (4, [
            ActivitySummary(activeEnergyBurned: Energy(3138, .kilojoule), activeEnergyBurnedGoal: Energy(2092, .kilojoule),
                            exerciseTime: 30, exerciseTimeGoal: 30, standHours: 12, standHoursGoal: 12),  // 150 + 100 + 100 = 350
            nil,                                    // 0
            energy(700, 500, 45, 30, 13, 12),       // 140 + 150 + 108 = 398
            energy(2000, 500, 300, 30, 24, 12),     // 400 + 1000 + 200 = 1600: capped at 600
            energy(600, 500, 36, 30, 12, 12),       // 120 + 120 + 100 = 340
            energy(800, nil, 60, 30, 12, 12),       // 0 (no goal) + 200 + 100 = 300
            energy(300, 0, 0, 30, 2, 12),           // 0 (goal 0) + 0 + 16 = 16
        ], [350, 0, 398, 600, 340, 300, 16]),
    ]

    static var days: [Int: [CalendarDay: ActivitySummary]] {
        var all: [Int: [CalendarDay: ActivitySummary]] = [:]
        for entry in table {
            var mine: [CalendarDay: ActivitySummary] = [:]
            for (i, summary) in entry.days.enumerated() { mine[start.adding(days: i)] = summary }
            all[entry.person] = mine
        }
        return all
    }

    static let competition = Competition(start: start, participants: [1, 2, 3, 4])!

    @Test("every day of the table earns the points worked out by hand")
    func dailyPoints() {
        for entry in Self.table {
            #expect(entry.days.map(Competition.points) == entry.points, "person \(entry.person)")
        }
    }

    @Test("a ring's points: floor(100 × value / goal), uncapped by itself; none without a usable goal")
    func ringPoints() {
        #expect(Competition.points(RingState(value: 11.1, goal: 30)) == 37)
        #expect(Competition.points(RingState(value: 29.99, goal: 30)) == 99)
        #expect(Competition.points(RingState(value: 750, goal: 300)) == 250)
        #expect(Competition.points(RingState(value: 5, goal: 0)) == 0)
        #expect(Competition.points(RingState(value: 5, goal: nil)) == 0)
        #expect(Competition.points(RingState(value: nil, goal: 30)) == 0)
        #expect(Competition.points(RingState(value: 0, goal: 30)) == 0)
        #expect(Competition.points(nil as ActivitySummary?) == 0)
    }

    @Test("the week over: totals, ranks with a tie sharing second place, the winner")
    func finalStandings() {
        let s = Self.competition.standings(days: Self.days, today: Self.start.adding(days: 7))
        // Ann 150+300+600+600+149 = 1799; Bo 299+516+600+133+300+0+14 = 1862;
        // Cy 350+80+600+300+100+289+143 = 1862; Di 350+0+398+600+340+300+16 = 2004.
        #expect(s.rows.map(\.person) == [4, 2, 3, 1])
        #expect(s.rows.map(\.total) == [2004, 1862, 1862, 1799])
        #expect(s.rows.map(\.rank) == [1, 2, 2, 4])
        #expect(s.rows.map(\.today) == [0, 0, 0, 0])
        #expect(s.finished)
        #expect(s.day == nil)
        #expect(s.days == 7)
        #expect(s.winners == [4])
        for entry in Self.table {
            #expect(s.rows.first { $0.person == entry.person }?.daily == entry.points)
        }
    }

    @Test("the fourth day: totals over days 1–4, today's points, no winner yet")
    func midweek() {
        let today = Self.start.adding(days: 3)
        let s = Self.competition.standings(days: Self.days, today: today)
        // Ann 150+300+600+600 = 1650; Bo 299+516+600+133 = 1548; Cy 350+80+600+300 = 1330;
        // Di 350+0+398+600 = 1348.
        #expect(s.rows.map(\.person) == [1, 2, 4, 3])
        #expect(s.rows.map(\.total) == [1650, 1548, 1348, 1330])
        #expect(s.rows.map(\.today) == [600, 133, 600, 300])
        #expect(s.rows.map(\.rank) == [1, 2, 3, 4])
        #expect(s.day == 4)
        #expect(!s.finished)
        #expect(s.winners.isEmpty)
        #expect(Self.competition.dayNumber(today: today) == 4)
    }

    @Test("a tie for first: both win, in the order they were named; the next rank counts them")
    func tiedWinners() {
        let day = Self.energy(1500, 500, 120, 30, 16, 12)  // 600
        let days: [Int: [CalendarDay: ActivitySummary]] = [
            7: [Self.start: day], 5: [Self.start: day], 9: [Self.start: Self.energy(250, 500, 15, 30, 6, 12)],
        ]
        let c = Competition(start: Self.start, end: Self.start, participants: [9, 7, 5])!
        let s = c.standings(days: days, today: Self.start.adding(days: 1))
        #expect(s.rows.map(\.person) == [7, 5, 9])
        #expect(s.rows.map(\.rank) == [1, 1, 3])
        #expect(s.winners == [7, 5])
        #expect(s.days == 1)
    }

    @Test("before the start: nothing counted, days to go; seven days unless told; a bad range refused")
    func edges() {
        let s = Self.competition.standings(days: Self.days, today: Self.start.adding(days: -2))
        #expect(s.rows.allSatisfy { $0.total == 0 && $0.today == 0 && $0.rank == 1 && $0.daily.isEmpty })
        #expect(s.startsIn == 2)
        #expect(s.day == nil && !s.finished)
        #expect(Self.competition.end == Self.start.adding(days: 6))
        #expect(Self.competition.length == 7)
        #expect(Self.competition.days.count == 7)
        #expect(Competition(start: Self.start, end: Self.start.adding(days: -1), participants: [1]) == nil)
        #expect(Competition.problem(start: Self.start, end: Self.start.adding(days: -1)) != nil)
        #expect(Competition(start: Self.start, end: Self.start.adding(days: 366), participants: [1]) == nil)
        #expect(Competition(start: Self.start, participants: [1, 2, 1])?.participants == [1, 2])
        // A participant with no days at all earns nothing and still stands.
        let t = Competition(start: Self.start, participants: [1, 99])!.standings(days: Self.days, today: Self.start)
        #expect(t.rows.map(\.person) == [1, 99])
        #expect(t.rows.map(\.total) == [150, 0])
        #expect(t.rows.map(\.today) == [150, 0])
        #expect(t.day == 1)
    }
}
