import Activity
import Store

/// `glance log`: sets a day's figures from a script or an integration.
struct LogCommand {
    var store = StoreSelection()
    var day: CalendarDay?
    var changes: [(inout ActivitySummary) -> Void] = []
    var moveMode: MoveMode?
    /// --move-goal or --move-time-goal was given: the mode follows the goals unless --move-mode says.
    var moveGoalGiven = false
    var remove = false

    static let help = """
        Usage: glance log [--date D] [--move V] [--move-goal G] [--exercise V] … [--db PATH]

        Sets figures of one day in the store; the figures not given keep their values. A running
        glance shows the change by itself. Prints the day as stored.

          --date D                 YYYY-MM-DD, today or yesterday (default: today, local time)
          --move V, --move-goal G  active energy and its goal; kcal unless a unit follows:
                                   350kcal, 350Cal (= kcal), 1460kJ
          --move-time V, --move-time-goal G
                                   move minutes and goal (Apple Watch move-time mode)
          --exercise V, --exercise-goal G
                                   exercise minutes and goal
          --stand V, --stand-goal G
                                   stand hours and goal
          --move-mode activeEnergy|moveTime
                                   what the Move ring measures. Without it, giving --move-goal or
                                   --move-time-goal infers the mode as for an import (move time
                                   when there is a move-time goal and no energy goal); otherwise
                                   the day keeps its mode
          --remove                 remove the day's summary (every ring empty)
        \(StoreSelection.help)

        A value of - clears that figure. Values and goals are numbers of 0 or more; a goal of 0
        is kept (the ring then shows no progress).

        Example: glance log --move 420 --move-goal 500 --exercise 25 --exercise-goal 30
        """

    static func parse(_ argv: [String]) throws(UsageError) -> LogCommand? {
        var command = LogCommand()
        var args = Arguments(argv)
        while let option = try args.nextOption() {
            if option == "--help" || option == "-h" { return nil }
            if try command.store.parse(option, &args) { continue }
            switch option {
            case "--date": command.day = try Parse.day(try args.value(for: option), option: option)
            case "--move", "--move-goal":
                let isGoal = option == "--move-goal"
                if isGoal { command.moveGoalGiven = true }
                let e = try Parse.optionalEnergy(try args.value(for: option), option: option, defaultUnit: .kilocalorie)
                command.changes.append { s in
                    if isGoal { s.activeEnergyBurnedGoal = e } else { s.activeEnergyBurned = e }
                }
            case "--move-time", "--move-time-goal", "--exercise", "--exercise-goal", "--stand", "--stand-goal":
                let v = try Parse.optionalQuantity(try args.value(for: option), option: option)
                if option == "--move-time-goal" { command.moveGoalGiven = true }
                let path: WritableKeyPath<ActivitySummary, Double?> =
                    switch option {
                    case "--move-time": \.moveTime
                    case "--move-time-goal": \.moveTimeGoal
                    case "--exercise": \.exerciseTime
                    case "--exercise-goal": \.exerciseTimeGoal
                    case "--stand": \.standHours
                    default: \.standHoursGoal
                    }
                command.changes.append { s in s[keyPath: path] = v }
            case "--move-mode":
                let text = try args.value(for: option)
                guard let mode = MoveMode(rawValue: text) else {
                    throw UsageError("--move-mode '\(text)': expected activeEnergy or moveTime")
                }
                command.moveMode = mode
            case "--remove": command.remove = true
            default: throw UsageError("log: unknown option '\(option)' (see glance log --help)")
            }
        }
        if command.remove && (!command.changes.isEmpty || command.moveMode != nil) {
            throw UsageError("log: --remove removes the whole day; give no figures with it")
        }
        if !command.remove && command.changes.isEmpty && command.moveMode == nil {
            throw UsageError("log: give at least one figure, e.g. --move 350 (see glance log --help)")
        }
        return command
    }

    func run() -> Int32 {
        let day = self.day ?? Parse.today()
        return store.run { store throws(StoreError) in
            if remove {
                try store.setSummary(nil, for: day)
                writeOut(describe(day, nil) + "\n")
                return ExitCode.ok
            }
            let summary = try store.updateSummary(for: day) { s in
                for change in changes { change(&s) }
                if let moveMode {
                    s.moveMode = moveMode
                } else if moveGoalGiven {
                    s.moveMode = .inferred(energyGoal: s.activeEnergyBurnedGoal?.value, moveTimeGoal: s.moveTimeGoal)
                }
            }
            writeOut(describe(day, summary) + "\n")
            return ExitCode.ok
        }
    }
}
