import Configuration
import DeviceLogic
import Activity
import Runtime
import CLI
import Store
import HelperCommands

/// `glance metric`: its declaration; the work is `StoreJobs.metric` (and `ScriptJSON.metrics`), beside it.
extension DataCommands {
    struct Metric {
        var json = false
        var minimum = FieldChange<Double>.keep
        var maximum = FieldChange<Double>.keep
        var unit = FieldChange<String>.keep
        var database: String?
        var job = StoreJobs.MetricJob.list
    }

    static let metric = CommandSpec<Metric>(
        "metric", summary: "set, list or remove the numbers gauges show",
        usage: [
            "metric set NAME VALUE [--min X] [--max Y] [--unit U] [--db PATH]", "metric list [--db PATH]",
            "metric remove NAME [--db PATH]",
        ],
        about: StoreJobs.metricAbout,
        groups: [
            OptionGroup(
                "",
                [
                    .value("--min", as: Value.clearableReal("X"),
                        help: "the gauge's range, low end (- clears it); min must be below max", to: \.minimum),
                    .value("--max", as: Value.clearableReal("Y"), help: "the high end (- clears it)", to: \.maximum),
                    .value("--unit", as: Value.unit, help: "shown after the value, e.g. °C or % (- clears it)", to: \.unit),
                    .flag(
                        "--json",
                        help: "list: one JSON document, {\"metrics\": [{\"name\", \"value\", \"min\", \"max\", \"unit\", \"updated\"}]} (null where unset; updated in seconds since 1970)", sets: \.json),
                    CommonOptions.store(\.database),
                ])
        ],
        operands: Operands(
            "set|list|remove [NAME [VALUE]]",
            verbs: [
                .init("set", ["--min", "--max", "--unit"], operands: "NAME VALUE") { (words, line) throws(UsageError) in
                    let value = words[1] == "-" ? nil : try Value.real(words[1], option: "VALUE")
                    line.job = .set(name: words[0], value: value, minimum: line.minimum, maximum: line.maximum, unit: line.unit)
                },
                .init("list", ["--json"]), .init("remove", operands: "NAME") { words, line in line.job = .remove(words[0]) },
            ], common: ["--db"]),
        epilogue: "Examples:\n  glance metric set cpu-temperature 47.5 --min 20 --max 90 --unit °C\n  glance metric list --json | jq '.metrics[].name'",
        exits: storeExits(
            ExitStatusNote(.dataError, "remove: no such metric; or --db is not a Glance store (left as it is)"),
            ExitStatusNote(.noInput, "list, remove: no store yet")))
}
