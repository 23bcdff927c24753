// A gauge's source: one kind (metric, file, MQTT topic, command) and what that kind takes.
import Activity
import JSON

extension Reader {
    static let sourceKinds = ["metric", "file", "mqtt", "command"]
    /// What each kind of source takes beside its own member.
    static let sourceExtras: [String: Set<String>] = [
        "metric": ["staleAfter"], "file": ["scale", "offset", "interval", "staleAfter"],
        "mqtt": ["field", "scale", "offset", "staleAfter"],
        "command": ["pattern", "scale", "offset", "interval", "timeout", "staleAfter"],
    ]

    /// A gauge's source, and its staleAfter (kept: the default; cleared: never).
    mutating func source(_ json: JSON, _ path: String) -> (GaugeSourceSetting, FieldChange<Double>)? {
        let known = Self.sourceKinds + ["field", "pattern", "scale", "offset", "interval", "timeout", "staleAfter"]
        guard let members = members(json, path, known: known) else { return nil }
        let kinds = members.filter { Self.sourceKinds.contains($0.key) }
        guard kinds.count == 1, let (kind, value) = kinds.first.map({ ($0.key, $0.value) }) else {
            issue(
                path,
                kinds.isEmpty
                    ? "expected one of {\"metric\": NAME}, {\"file\": PATH}, {\"mqtt\": TOPIC}, {\"command\": [PROGRAM, …]}"
                    : "expected one kind of source, found \(kinds.map { "\"\($0.key)\"" }.joined(separator: " and "))")
            return nil
        }
        var scale = 1.0, offset = 0.0, interval = kind == "command" ? 10.0 : 5.0, timeout = 5.0
        var field: String?, pattern: String?
        var staleAfter = FieldChange<Double>.keep
        var ok = true
        for (k, v) in members where k != kind {
            let p = "\(path).\(k)"
            guard Self.sourceExtras[kind]?.contains(k) == true else {
                issue(p, "a \(kind) source does not take \(k)")
                ok = false
                continue
            }
            switch k {
            case "scale": if let x = number(v, p) { scale = x } else { ok = false }
            case "offset": if let x = number(v, p) { offset = x } else { ok = false }
            case "interval": if let x = number(v, p, range: 0.1...86400, what: "seconds") { interval = x } else { ok = false }
            case "timeout": if let x = number(v, p, range: 0.1...600, what: "seconds") { timeout = x } else { ok = false }
            case "staleAfter":
                if v == .null {
                    staleAfter = .clear
                } else if let x = number(v, p, range: 1...(366 * 86400), what: "seconds (or null for never)") {
                    staleAfter = .set(x)
                } else {
                    ok = false
                }
            case "field":
                guard let f = string(v, p, nonEmpty: true) else {
                    ok = false
                    continue
                }
                if f.split(separator: ".", omittingEmptySubsequences: false).contains(where: \.isEmpty) {
                    issue(p, "expected a dotted path such as \"state.attributes.temperature\" (or \"values.0\"), found \"\(f)\"")
                    ok = false
                }
                field = f
            case "pattern":
                guard let text = string(v, p, nonEmpty: true) else {
                    ok = false
                    continue
                }
                if let problem = patternProblem?(text) {
                    issue(p, "not a regular expression (POSIX extended): \(problem)")
                    ok = false
                }
                pattern = text
            default: break
            }
        }
        let kp = "\(path).\(kind)"
        let source: GaugeSourceSetting?
        switch kind {
        case "metric": source = string(value, kp, nonEmpty: true).map { .metric($0) }
        case "file":
            source = string(value, kp, nonEmpty: true).flatMap { file in
                guard file.hasPrefix("/") else {
                    issue(kp, "expected an absolute path, found \"\(file)\"")
                    return nil
                }
                return .file(path: file, scale: scale, offset: offset, interval: interval)
            }
        case "mqtt":
            source = string(value, kp, nonEmpty: true).flatMap { topic in
                if let problem = MQTTTopic.subscribeProblem(topic) {
                    issue(kp, "expected one MQTT topic to take the gauge's number from: \(problem) (found \"\(Quote.clip(topic, 60))\")")
                    return nil
                }
                return .mqtt(topic: topic, field: field, scale: scale, offset: offset)
            }
        default:
            guard case .array(let words) = value, !words.isEmpty else {
                issue(kp, "expected a command: [\"/path/to/program\", \"argument\", …] (no shell), found \(value.kind)")
                return nil
            }
            let strings = words.enumerated().compactMap { string($0.element, "\(kp)[\($0.offset)]") }
            guard strings.count == words.count else { return nil }
            guard strings[0].hasPrefix("/") else {
                issue("\(kp)[0]", "expected the program's absolute path, e.g. \"/usr/bin/vcgencmd\", found \"\(strings[0])\"")
                return nil
            }
            if timeout >= interval { issue("\(path).timeout", "expected a timeout shorter than the interval (\(format(interval)) s)") }
            source = .command(arguments: strings, pattern: pattern, scale: scale, offset: offset, interval: interval, timeout: timeout)
        }
        guard ok, let source else { return nil }
        return (source, staleAfter)
    }

}

extension Form where Value == GaugeSourceSpec {
    /// `{"metric": NAME}`, `{"file": PATH, …}`, `{"mqtt": TOPIC, …}` or `{"command": [PROGRAM, …], …}`.
    static var gaugeSource: Form<GaugeSourceSpec> {
        Form<GaugeSourceSpec>(
            "", expected: "one of {\"metric\": NAME}, {\"file\": PATH}, {\"mqtt\": TOPIC}, {\"command\": [PROGRAM, …]} (below)",
            json: { json, at, reader in reader.source(json, at).map { GaugeSourceSpec(source: $0.0, staleAfter: $0.1) } },
            text: nil)
    }
}
