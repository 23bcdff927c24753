import Store

/// `glance metric`: the numbers gauges show.
struct MetricCommand {
    enum Action { case set, list, remove }
    var action = Action.list
    var store = StoreSelection()
    var name: String?
    var value: Double?
    var minimum = FieldChange<Double>.keep
    var maximum = FieldChange<Double>.keep
    var unit = FieldChange<String>.keep

    static let help = """
        Usage: glance metric set NAME VALUE [--min X] [--max Y] [--unit U] [--db PATH]
               glance metric list [--db PATH]
               glance metric remove NAME [--db PATH]

        Metrics are named numbers a gauge can show (a gauge binds to one by name). `set` changes
        the value; the range and unit change only when given, so a cron job can send the value
        alone. A running glance shows the change by itself.

          VALUE          a number, or - for unknown (the gauge shows —)
          --min X, --max Y
                         the gauge's range (- clears it); min must be below max
          --unit U       shown after the value, e.g. °C or % (- clears it)
        \(StoreSelection.help)

        Example: glance metric set cpu-temperature 47.5 --min 20 --max 90 --unit °C
        """

    static func parse(_ argv: [String]) throws(UsageError) -> MetricCommand? {
        var command = MetricCommand()
        var args = Arguments(argv)
        var plain: [String] = []
        while let item = try args.next() {
            switch item {
            case .plain(let text): plain.append(text)
            case .option(let option):
                if option == "--help" || option == "-h" { return nil }
                if try command.store.parse(option, &args) { continue }
                switch option {
                case "--min", "--max":
                    let text = try args.value(for: option)
                    let change: FieldChange<Double> =
                        text == "-" ? .clear : .set(try Parse.real(text, option: option))
                    if option == "--min" { command.minimum = change } else { command.maximum = change }
                case "--unit":
                    let text = try args.value(for: option)
                    guard text.utf8.count <= 16 else { throw UsageError("--unit '\(text)': at most 16 bytes") }
                    command.unit = text == "-" || text.isEmpty ? .clear : .set(text)
                default: throw UsageError("metric: unknown option '\(option)' (see glance metric --help)")
                }
            }
        }
        guard let verb = plain.first else {
            throw UsageError("metric: give set, list or remove (see glance metric --help)")
        }
        let operands = Array(plain.dropFirst())
        switch verb {
        case "set":
            guard operands.count == 2 else {
                throw UsageError("metric set: give NAME VALUE, e.g. metric set cpu-temperature 47.5")
            }
            command.action = .set
            command.name = operands[0]
            command.value = operands[1] == "-" ? nil : try Parse.real(operands[1], option: "VALUE")
        case "list":
            guard operands.isEmpty else { throw UsageError("metric list takes no names") }
            command.action = .list
        case "remove":
            guard operands.count == 1 else { throw UsageError("metric remove: give one NAME") }
            command.action = .remove
            command.name = operands[0]
        default:
            throw UsageError("metric: unknown action '\(verb)' (set, list or remove)")
        }
        if command.action != .set && (command.minimum != .keep || command.maximum != .keep || command.unit != .keep) {
            throw UsageError("metric: --min, --max and --unit go with set")
        }
        return command
    }

    func run() -> Int32 {
        store.run(create: action == .set) { store throws(StoreError) in
            switch action {
            case .set:
                let m = try store.setMetric(name!, value: value, minimum: minimum, maximum: maximum, unit: unit)
                writeOut(Self.describe(m) + "\n")
            case .list:
                for m in try store.metrics() { try writeResult(Self.describe(m) + "\n") }
            case .remove:
                return try removed(store.removeMetric(named: name!), "metric \(name!)")
            }
            return ExitCode.ok
        }
    }

    static func describe(_ m: Metric) -> String {
        var line = "\(m.name) \(m.value.map { Store.csvNumber($0) } ?? "—")"
        if let unit = m.unit { line += " \(unit)" }
        if m.minimum != nil || m.maximum != nil {
            line +=
                " (\(m.minimum.map { Store.csvNumber($0) } ?? "…") to \(m.maximum.map { Store.csvNumber($0) } ?? "…"))"
        }
        return line
    }
}
