import Activity

/// Everything back out, as CSV: days in the CSV form of an export (so it imports again, exactly),
/// metrics and tasks.
extension Store {
    public enum Table: String, Sendable, CaseIterable {
        case days, metrics, tasks
    }

    /// The days' columns: Apple's, then the goal unit and move mode an export leaves implicit.
    public static let dayCSVHeader = ExportField.allCases.map(\.rawValue)

    /// Writes `table` as CSV, line by line (the store may be large); an error thrown by `write`
    /// (the output is full) stops the export.
    public func exportCSV(_ table: Table, write: (String) throws(StoreError) -> Void) throws(StoreError) {
        switch table {
        case .days:
            try write(Self.dayCSVHeader.joined(separator: ",") + "\n")
            // As shown: the sums of the samples, the standing goals where a day has none (so the
            // file imports to the same days without the history).
            let origins = try dayOrigins(from: .earliest, through: .latest)
            for shown in try allShownDays() {
                let day = shown.day, s = shown.summary
                let goalUnit = s.activeEnergyBurnedGoal.map(\.unit)
                let valueUnit = s.activeEnergyBurned.map(\.unit) ?? goalUnit
                let cells: [String] = [
                    day.description,
                    Self.csvNumber(s.activeEnergyBurned?.value), Self.csvNumber(s.activeEnergyBurnedGoal?.value),
                    valueUnit?.rawValue ?? "",
                    Self.csvNumber(s.moveTime), Self.csvNumber(s.moveTimeGoal),
                    Self.csvNumber(s.exerciseTime), Self.csvNumber(s.exerciseTimeGoal),
                    Self.csvNumber(s.standHours), Self.csvNumber(s.standHoursGoal),
                    goalUnit != nil && goalUnit != valueUnit ? goalUnit!.rawValue : "",
                    s.moveMode.rawValue,
                    Self.csvNumber(s.steps), Self.csvNumber(s.stepsGoal),
                    Self.csvText(origins[day] ?? ""),
                ]
                try write(cells.joined(separator: ",") + "\n")
            }
        case .metrics:
            try write("name,value,min,max,unit,updated\n")
            for m in try metrics() {
                let cells = [
                    Self.csvText(m.name), Self.csvNumber(m.value), Self.csvNumber(m.minimum), Self.csvNumber(m.maximum),
                    Self.csvText(m.unit ?? ""), Self.isoTime(m.updated),
                ]
                try write(cells.joined(separator: ",") + "\n")
            }
        case .tasks:
            try write("name,state,done,total,description,cancellable,cancelRequested,pid,started,updated\n")
            for t in try tasks() {
                let cells = [
                    Self.csvText(t.name), t.state.rawValue, Self.csvNumber(t.done), Self.csvNumber(t.total),
                    Self.csvText(t.description ?? ""), t.cancellable ? "1" : "0", t.cancelRequested ? "1" : "0",
                    t.pid.map { String($0) } ?? "", Self.isoTime(t.started), Self.isoTime(t.updated),
                ]
                try write(cells.joined(separator: ",") + "\n")
            }
        }
    }

    /// A number as the shortest text that reads back the same; whole numbers without `.0`.
    public static func csvNumber(_ x: Double?) -> String { x.map(NumberText.plain) ?? "" }

    /// A text cell, quoted when it holds a comma, quote or line break.
    static func csvText(_ s: String) -> String {
        guard s.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return s }
        return "\"" + s.replacingAll("\"", with: "\"\"") + "\""
    }

    /// Seconds since 1970 as `YYYY-MM-DDTHH:MM:SSZ` (UTC), for any Int64 a store may hold: the
    /// year gets more digits (or a sign) outside 0000...9999 instead of overflowing.
    static func isoTime(_ seconds: Int64) -> String {
        // Floor division, so times before 1970 count back from the day's start.
        var days = seconds / 86_400
        var second = seconds % 86_400
        if second < 0 {
            days -= 1
            second += 86_400
        }
        // Int is 64 bits on every target: |days| < 1.1e14 is far from overflowing.
        let civil = CalendarDay(daysSinceEpoch: Int(days))
        let (year, month, day) = (Int64(civil.year), Int64(civil.month), Int64(civil.day))
        func pad(_ n: Int64, _ width: Int = 2) -> String {
            let digits = String(n.magnitude)
            return (n < 0 ? "-" : "") + String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        let date = "\(pad(year, 4))-\(pad(month))-\(pad(day))"
        return "\(date)T\(pad(second / 3600)):\(pad(second / 60 % 60)):\(pad(second % 60))Z"
    }
}

extension String {
    func replacingAll(_ target: Character, with replacement: String) -> String {
        var out = ""
        for c in self { if c == target { out += replacement } else { out.append(c) } }
        return out
    }
}
