import JSON
import Controls
import Activity
import Raster
import Screens

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

extension Configuration {
    /// Reads a configuration file's text; every problem is reported, each with its JSON path
    /// and the form expected.
    public static func parse(_ text: String) -> Result<Configuration, ConfigurationIssues> {
        let json: JSON
        do {
            json = try JSONParser.parse(text)
        } catch {
            return .failure(ConfigurationIssues([ConfigurationIssue(path: "$", message: "not valid JSON: \(error)")]))
        }
        var reader = Reader()
        let config = reader.configuration(json)
        if reader.more > 0 {
            reader.issues.append(
                ConfigurationIssue(path: "$", message: "and \(reader.more) more problems like these (fix these first)"))
        }
        return reader.issues.isEmpty ? .success(config) : .failure(ConfigurationIssues(reader.issues))
    }
}

/// Walks the JSON tree, filling a configuration from the defaults and collecting issues.
struct Reader {
    var issues: [ConfigurationIssue] = []
    /// Issues past the first `maxIssues`, counted, not kept (a file of 200,000 wrong members).
    var more = 0
    static let maxIssues = 100

    mutating func issue(_ path: String, _ message: String) {
        guard issues.count < Self.maxIssues else {
            more += 1
            return
        }
        // A path quotes member names from the file: at most a line of it.
        issues.append(ConfigurationIssue(path: Quote.clip(path, 120), message: message))
    }

    /// The members of an object, or nil (with an issue) when it is something else; members not in
    /// `known` are reported, with the nearest known name.
    mutating func members(_ json: JSON, _ path: String, known: [String]) -> [(key: String, value: JSON)]? {
        guard case .object(let members) = json else {
            issue(path, "expected an object {…}, found \(json.kind)")
            return nil
        }
        for m in members where !known.contains(m.key) {
            if issues.count >= Self.maxIssues {
                more += 1  // not shown: no hint to work out
                continue
            }
            // A near name only for a name of a setting's length (the distance costs its square).
            let near = m.key.utf8.count > 64 ? nil : known.min { distance($0, m.key) < distance($1, m.key) }
            let hint = near.map { distance($0, m.key) <= 3 ? " (did you mean \"\($0)\"?)" : "" } ?? ""
            issue("\(path).\(Quote.clip(m.key))", "unknown setting\(hint); known here: \(known.joined(separator: ", "))")
        }
        return members.filter { known.contains($0.key) }
    }

    mutating func string(_ json: JSON, _ path: String, nonEmpty: Bool = false) -> String? {
        guard case .string(let s) = json else {
            issue(path, "expected a string in quotes, found \(json.kind)")
            return nil
        }
        if nonEmpty && s.isEmpty {
            issue(path, "expected a non-empty string")
            return nil
        }
        return s
    }

    /// A string that may also be null (meaning: the default).
    mutating func optionalString(_ json: JSON, _ path: String) -> String?? {
        if json == .null { return .some(nil) }
        return string(json, path, nonEmpty: true).map { .some($0) }
    }

    mutating func number(_ json: JSON, _ path: String, range: ClosedRange<Double>? = nil, what: String = "a number")
        -> Double?
    {
        guard case .number(let v) = json else {
            issue(path, "expected \(what), found \(json.kind)")
            return nil
        }
        if let range, !range.contains(v) {
            issue(path, "expected \(what) from \(format(range.lowerBound)) to \(format(range.upperBound)), found \(format(v))")
            return nil
        }
        return v
    }

    mutating func bool(_ json: JSON, _ path: String) -> Bool? {
        guard case .bool(let b) = json else {
            issue(path, "expected true or false, found \(json.kind)")
            return nil
        }
        return b
    }

    mutating func choice<T>(_ json: JSON, _ path: String, _ options: [(String, T)]) -> T? {
        guard let s = string(json, path) else { return nil }
        if let hit = options.first(where: { $0.0 == s }) { return hit.1 }
        issue(path, "expected one of \(options.map { "\"\($0.0)\"" }.joined(separator: ", ")), found \"\(Quote.clip(s))\"")
        return nil
    }

    mutating func color(_ json: JSON, _ path: String) -> Color? {
        guard let s = string(json, path) else { return nil }
        let hex = s.hasPrefix("#") ? String(s.dropFirst()) : s
        guard hex.count == 6, let v = UInt32(hex, radix: 16) else {
            issue(path, "expected a colour as \"#RRGGBB\", found \"\(Quote.clip(s))\"")
            return nil
        }
        return Color(hex: v)
    }

    // MARK: The file

    static let top = [
        "name", "locale", "screens", "gauges", "keys", "longPress", "longPressSeconds", "grabInput", "touch", "display",
        "idle", "clock", "cycle", "database", "fonts", "serve", "goals", "refresh", "mqtt",
    ]

    mutating func configuration(_ json: JSON) -> Configuration {
        var c = Configuration()
        guard let members = members(json, "$", known: Self.top) else { return c }
        for (key, value) in members {
            let path = "$.\(key)"
            switch key {
            case "name": if let s = string(value, path) { c.name = s }
            case "locale":
                if value == .null {
                    c.locale = nil
                } else if case .string(let name) = value, let l = AppLocale(name: name) {
                    c.locale = l  // the spellings --locale takes too ("zh-CN", "en-GB", …)
                } else if let l = choice(value, path, AppLocale.allCases.map { ($0.rawValue, $0) }) {
                    c.locale = l
                }
            case "screens": if let s = screens(value, path) { c.screens = s }
            case "gauges": if let g = gauges(value, path) { c.gauges = g }
            case "keys": if let k = keys(value, path) { c.keys = k }
            case "longPress": if let l = longPress(value, path) { c.longPress = l }
            case "longPressSeconds":
                if let v = number(value, path, range: 0.2...10, what: "seconds") { c.longPressSeconds = v }
            case "grabInput": if let b = bool(value, path) { c.grabInput = b }
            case "touch": c.touch = touch(value, path, c.touch)
            case "display": c.display = display(value, path, c.display)
            case "idle": c.idle = idle(value, path, c.idle)
            case "clock": c.clock = clock(value, path, c.clock)
            case "cycle": if let cycle = cycle(value, path) { c.cycle = cycle }
            case "serve": c.serve = serve(value, path, c.serve)
            case "goals": c.goals = goals(value, path, c.goals)
            case "refresh": if let r = refresh(value, path) { c.refresh = r }
            case "mqtt": c.mqtt = value == .null ? nil : mqtt(value, path)
            case "database": if let s = optionalString(value, path) { c.database = s }
            case "fonts":
                guard let fonts = self.members(value, path, known: ["file", "cjkFile"]) else { break }
                for (k, v) in fonts {
                    guard let s = optionalString(v, "\(path).\(k)") else { continue }
                    if k == "file" { c.fontFile = s } else { c.cjkFontFile = s }
                }
            default: break
            }
        }
        // The cycle turns through configured screens (whichever order the two come in).
        if let cycle = c.cycle {
            for (i, screen) in cycle.screens.enumerated() where !c.screens.contains(screen) {
                issue(
                    "$.cycle.screens[\(i)]",
                    "\"\(screen.rawValue)\" is not one of the configured screens (\"screens\": "
                        + c.screens.map { "\"\($0.rawValue)\"" }.joined(separator: ", ") + ")")
            }
        }
        if let dim = c.idle.dimAfter, let blank = c.idle.blankAfter, blank < dim {
            issue("$.idle.blankAfter", "expected at least dimAfter (\(format(dim)) s): the screen dims before it blanks")
        }
        if c.mqtt == nil, let i = c.gauges.firstIndex(where: { if case .mqtt = $0.source { true } else { false } }) {
            issue("$.gauges[\(i)].source.mqtt", "a topic needs the broker: \"mqtt\": {\"broker\": \"mqtt://HOST:1883\"}")
        }
        return c
    }

    mutating func screens(_ json: JSON, _ path: String) -> [ScreenKind]? {
        guard case .array(let items) = json else {
            issue(path, "expected an array of screen names like [\"rings\", \"gauges\"], found \(json.kind)")
            return nil
        }
        var result: [ScreenKind] = []
        for (i, item) in items.enumerated() {
            guard let s = choice(item, "\(path)[\(i)]", ScreenKind.allCases.map { ($0.rawValue, $0) }) else { continue }
            if result.contains(s) {
                issue("\(path)[\(i)]", "\"\(s.rawValue)\" is listed twice")
            } else {
                result.append(s)
            }
        }
        if items.isEmpty { issue(path, "expected at least one screen") }
        return result
    }

    mutating func gauges(_ json: JSON, _ path: String) -> [GaugeSetting]? {
        guard case .array(let items) = json else {
            issue(path, "expected an array of gauges [{…}, …], found \(json.kind)")
            return nil
        }
        var result: [GaugeSetting] = []
        for (i, item) in items.enumerated() {
            if let g = gauge(item, "\(path)[\(i)]") { result.append(g) }
        }
        return result
    }

    mutating func gauge(_ json: JSON, _ path: String) -> GaugeSetting? {
        let known = ["style", "title", "unit", "min", "max", "tint", "source"]
        guard let members = members(json, path, known: known) else { return nil }
        var g = GaugeSetting(style: .circular, title: "", unit: "", minimum: nil, maximum: nil, tint: Gauge.defaultTint,
                             source: .metric(""))
        var ok = true
        var hasSource = false
        for (key, value) in members {
            let p = "\(path).\(key)"
            switch key {
            case "style":
                if let s = choice(value, p, GaugeStyle.allCases.map { ($0.rawValue, $0) }) { g.style = s } else { ok = false }
            case "title": if let s = string(value, p) { g.title = s } else { ok = false }
            case "unit": if let s = string(value, p) { g.unit = s } else { ok = false }
            case "min": if let v = number(value, p) { g.givenMinimum = v } else { ok = false }
            case "max": if let v = number(value, p) { g.givenMaximum = v } else { ok = false }
            case "tint":
                guard case .array(let colors) = value, !colors.isEmpty else {
                    issue(p, "expected an array of colours like [\"#64D2FF\", \"#FF9F0A\"], found \(value.kind)")
                    ok = false
                    continue
                }
                var tint: [Color] = []
                for (j, c) in colors.enumerated() {
                    if let color = color(c, "\(p)[\(j)]") { tint.append(color) } else { ok = false }
                }
                g.tint = tint
            case "source":
                hasSource = true
                if let (s, stale) = source(value, p) {
                    g.source = s
                    g.givenStaleAfter = stale
                } else {
                    ok = false
                }
            default: break
            }
        }
        if !hasSource {
            issue("\(path).source", "missing: a gauge needs {\"metric\": NAME}, {\"file\": PATH}, {\"mqtt\": TOPIC} or {\"command\": [PROGRAM, …]}")
            ok = false
        }
        if g.maximum <= g.minimum && ok {
            issue("\(path).max", "expected a maximum above the minimum (\(format(g.minimum)))")
            ok = false
        }
        return ok ? g : nil
    }

    static let sourceKinds = ["metric", "file", "mqtt", "command"]
    /// What each kind of source takes beside its own member.
    static let sourceExtras: [String: Set<String>] = [
        "metric": ["staleAfter"], "file": ["scale", "offset", "interval", "staleAfter"],
        "mqtt": ["field", "scale", "offset", "staleAfter"],
        "command": ["pattern", "scale", "offset", "interval", "timeout", "staleAfter"],
    ]

    /// A gauge's source, and its staleAfter (nil: the default; .some(nil): never).
    mutating func source(_ json: JSON, _ path: String) -> (GaugeSourceSetting, Double??)? {
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
        var staleAfter: Double?? = nil
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
                    staleAfter = .some(nil)
                } else if let x = number(v, p, range: 1...(366 * 86400), what: "seconds (or null for never)") {
                    staleAfter = .some(x)
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
                if let problem = Self.regexProblem(text) {
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
                guard !topic.contains("+"), !topic.contains("#") else {
                    issue(kp, "expected one topic, without the wildcards + and #, found \"\(topic)\"")
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

    /// Why `pattern` is not a POSIX extended regular expression; nil when it is one.
    static func regexProblem(_ pattern: String) -> String? {
        var regex = regex_t()
        let rc = regcomp(&regex, pattern, REG_EXTENDED)
        defer { if rc == 0 { regfree(&regex) } }
        guard rc != 0 else { return nil }
        var buffer = [CChar](repeating: 0, count: 128)
        regerror(rc, &regex, &buffer, buffer.count)
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    mutating func mqtt(_ json: JSON, _ path: String) -> MQTTSetting? {
        let known = ["broker", "username", "passwordFile", "tls", "clientId", "keepAlive"]
        guard let members = members(json, path, known: known) else { return nil }
        guard let broker = members.first(where: { $0.key == "broker" }) else {
            issue("\(path).broker", "missing: e.g. \"mqtt://192.168.1.10:1883\"")
            return nil
        }
        guard let url = string(broker.value, "\(path).broker", nonEmpty: true) else { return nil }
        guard let (host, port, tls) = MQTTSetting.parse(url) else {
            issue("\(path).broker", "expected mqtt://HOST[:PORT] or mqtts://HOST[:PORT], found \"\(url)\"")
            return nil
        }
        var m = MQTTSetting(broker: url, host: host, port: port, tls: tls)
        for (k, v) in members where k != "broker" {
            let p = "\(path).\(k)"
            switch k {
            case "username": m.username = string(v, p, nonEmpty: true)
            case "passwordFile": m.passwordFile = string(v, p, nonEmpty: true)
            case "clientId":
                if let id = string(v, p, nonEmpty: true) {
                    if id.utf8.count > 23 { issue(p, "at most 23 bytes (MQTT 3.1)") } else { m.clientId = id }
                }
            case "keepAlive": if let x = number(v, p, range: 5...3600, what: "seconds") { m.keepAlive = Int(x) }
            case "tls":
                guard let t = self.members(v, p, known: ["ca", "cert", "key"]) else { continue }
                for (tk, tv) in t {
                    let value = string(tv, "\(p).\(tk)", nonEmpty: true)
                    switch tk {
                    case "ca": m.caFile = value
                    case "cert": m.certificateFile = value
                    default: m.keyFile = value
                    }
                }
                if (m.certificateFile == nil) != (m.keyFile == nil) { issue(p, "give both \"cert\" and \"key\", or neither") }
                if !m.tls { issue(p, "TLS settings need an mqtts:// broker") }
            default: break
            }
        }
        return m
    }

    mutating func keys(_ json: JSON, _ path: String) -> [String: String]? {
        guard case .object(let members) = json else {
            issue(path, "expected an object like {\"KEY_RIGHT\": \"nextDay\"}, found \(json.kind)")
            return nil
        }
        var result: [String: String] = [:]
        let actions = Action.allCases.map(\.rawValue) + ["none"]
        for (key, value) in members {
            let p = "\(path).\(key)"
            let okName = (key.hasPrefix("KEY_") || key.hasPrefix("BTN_")) && key.count > 4
                && key.utf8.allSatisfy { (65...90).contains($0) || (48...57).contains($0) || $0 == 95 }
            if !okName { issue(p, "expected a key name such as KEY_RIGHT or BTN_0 (see glance devices)") }
            guard let action = choice(value, p, actions.map { ($0, $0) }) else { continue }
            if okName { result[key] = action }
        }
        return result
    }

    mutating func longPress(_ json: JSON, _ path: String) -> [Action: Action]? {
        guard case .object(let members) = json else {
            issue(path, "expected an object like {\"select\": \"today\"}, found \(json.kind)")
            return nil
        }
        var result: [Action: Action] = [:]
        let options = Action.allCases.map { ($0.rawValue, $0) }
        for (key, value) in members {
            guard let from = Action(rawValue: key) else {
                issue("\(path).\(key)", "expected an action name: \(Action.allCases.map(\.rawValue).joined(separator: ", "))")
                continue
            }
            if let to = choice(value, "\(path).\(key)", options) { result[from] = to }
        }
        return result
    }

    mutating func touch(_ json: JSON, _ path: String, _ base: TouchSetting) -> TouchSetting {
        var t = base
        guard let members = members(json, path, known: ["swapXY", "invertX", "invertY"]) else { return t }
        for (k, v) in members {
            guard let b = bool(v, "\(path).\(k)") else { continue }
            switch k {
            case "swapXY": t.swapXY = b
            case "invertX": t.invertX = b
            default: t.invertY = b
            }
        }
        return t
    }

    mutating func display(_ json: JSON, _ path: String, _ base: DisplaySetting) -> DisplaySetting {
        var d = base
        let known = ["card", "connector", "mode", "format", "rotate", "legacy", "shape", "brightness"]
        guard let members = members(json, path, known: known) else { return d }
        for (k, v) in members {
            let p = "\(path).\(k)"
            switch k {
            case "card":
                if let s = optionalString(v, p) {
                    if let s, !s.hasPrefix("/dev/dri/") { issue(p, "expected a device like \"/dev/dri/card0\"") }
                    d.card = s
                }
            case "connector": if let s = optionalString(v, p) { d.connector = s }
            case "mode":
                if let s = optionalString(v, p) {
                    if let s, !Self.isMode(s) { issue(p, "expected WxH or WxH@Hz, e.g. \"800x480@60\", found \"\(Quote.clip(s))\"") }
                    d.mode = s
                }
            case "format":
                if v == .null {
                    d.format = nil
                } else if let f = choice(v, p, PixelFormat.allCases.map { ($0.rawValue, $0) }) {
                    d.format = f
                }
            case "rotate":
                if let n = number(v, p), let r = Rotation(rawValue: Int(exactly: n) ?? -1) {
                    d.rotation = r
                } else if case .number = v {
                    issue(p, "expected 0, 90, 180 or 270")
                }
            case "legacy": if let b = bool(v, p) { d.legacy = b }
            case "shape": if let s = choice(v, p, PanelShape.allCases.map { ($0.rawValue, $0) }) { d.shape = s }
            case "brightness":
                if v == .null {
                    d.brightness = nil
                } else if let b = number(v, p, range: 0.05...1, what: "a brightness (or null: as found)") {
                    d.brightness = b
                }
            default: break
            }
        }
        return d
    }

    mutating func idle(_ json: JSON, _ path: String, _ base: IdleSetting) -> IdleSetting {
        var i = base
        guard let members = members(json, path, known: ["dimAfter", "blankAfter", "dimLevel"]) else { return i }
        for (k, v) in members {
            let p = "\(path).\(k)"
            switch k {
            case "dimAfter", "blankAfter":
                let value: Double??
                if v == .null {
                    value = .some(nil)
                } else {
                    value = number(v, p, range: 1...86400, what: "seconds (or null for never)").map { .some($0) }
                }
                guard let value else { continue }
                if k == "dimAfter" { i.dimAfter = value } else { i.blankAfter = value }
            case "dimLevel": if let x = number(v, p, range: 0...1, what: "a brightness") { i.dimLevel = x }
            default: break
            }
        }
        return i
    }

    mutating func clock(_ json: JSON, _ path: String, _ base: ClockSetting) -> ClockSetting {
        var c = base
        guard let members = members(json, path, known: ["format", "tiny"]) else { return c }
        for (k, v) in members {
            let p = "\(path).\(k)"
            switch k {
            case "format":
                if v == .null {
                    c.format = nil
                } else if let f = choice(v, p, ClockFormat.allCases.map { ($0.rawValue, $0) }) {
                    c.format = f
                }
            case "tiny": if let t = choice(v, p, [("day", false), ("time", true)]) { c.onTiny = t }
            default: break
            }
        }
        return c
    }

    /// `{"every": 15, "screens": [...], "pauseOnInput": 60}`, or null for none. `.some(nil)` is
    /// null; nil a problem (reported).
    mutating func cycle(_ json: JSON, _ path: String) -> CycleSetting?? {
        if json == .null { return .some(nil) }
        guard let members = members(json, path, known: ["every", "screens", "pauseOnInput"]) else { return nil }
        var c = CycleSetting()
        var ok = true
        for (k, v) in members {
            let p = "\(path).\(k)"
            switch k {
            case "every":
                if let n = number(v, p, range: 1...86400, what: "seconds") { c.every = n } else { ok = false }
            case "pauseOnInput":
                if let n = number(v, p, range: 0...86400, what: "seconds") { c.pauseOnInput = n } else { ok = false }
            case "screens":
                guard case .array(let items) = v else {
                    issue(p, "expected an array of screen names like [\"rings\", \"clock\"], found \(v.kind)")
                    ok = false
                    continue
                }
                var list: [ScreenKind] = []
                for (i, item) in items.enumerated() {
                    let ip = "\(p)[\(i)]"
                    guard let s = choice(item, ip, ScreenKind.allCases.map { ($0.rawValue, $0) }) else {
                        ok = false
                        continue
                    }
                    if s == .progress {
                        issue(ip, "\"progress\" shows itself while a task runs (and stops the turning); it is not turned to")
                        ok = false
                    } else if list.contains(s) {
                        issue(ip, "\"\(s.rawValue)\" is listed twice")
                        ok = false
                    } else {
                        list.append(s)
                    }
                }
                c.screens = list
            default: break
            }
        }
        return ok ? .some(c) : nil
    }

    mutating func serve(_ json: JSON, _ path: String, _ base: ServeSetting) -> ServeSetting {
        var s = base
        guard let members = members(json, path, known: ["listen", "tokenFile", "maxBody", "perSecond", "timeout", "tls"]) else {
            return s
        }
        for (k, v) in members {
            let p = "\(path).\(k)"
            switch k {
            case "listen":
                guard let text = string(v, p, nonEmpty: true) else { continue }
                guard Self.isListenAddress(text) else {
                    issue(p, "expected HOST:PORT, e.g. \"0.0.0.0:8127\" or \"[::]:8127\", found \"\(text)\"")
                    continue
                }
                s.listen = text
            case "tokenFile": if let t = string(v, p, nonEmpty: true) { s.tokenFile = t }
            case "maxBody":
                if let n = number(v, p, range: 1024...268_435_456, what: "bytes") { s.maxBody = Int(n) }
            case "timeout": if let n = number(v, p, range: 1...3600, what: "seconds") { s.timeout = n }
            case "perSecond":
                // A bucket under one request never lets one through: 0 (no limit), or 1 and up.
                guard let n = number(v, p, range: 0...10000, what: "requests a second (0: no limit)") else { continue }
                guard n == 0 || n >= 1 else {
                    issue(p, "expected 0 (no limit) or from 1 to 10000 requests a second, found \(format(n)): under 1, no request would ever be let through")
                    continue
                }
                s.perSecond = n
            case "tls":
                if v == .null {
                    s.tlsCertificate = nil
                    s.tlsKey = nil
                    continue
                }
                guard let tls = self.members(v, p, known: ["cert", "key"]) else { continue }
                for (tk, tv) in tls {
                    let value = string(tv, "\(p).\(tk)", nonEmpty: true)
                    if tk == "cert" { s.tlsCertificate = value } else { s.tlsKey = value }
                }
                if (s.tlsCertificate == nil) != (s.tlsKey == nil) { issue(p, "give both \"cert\" and \"key\" (PEM files)") }
            default: break
            }
        }
        return s
    }

    mutating func goals(_ json: JSON, _ path: String, _ base: GoalSetting) -> GoalSetting {
        var g = base
        guard let members = members(json, path, known: ["move", "exercise", "stand"]) else { return g }
        for (k, v) in members {
            let p = "\(path).\(k)"
            // As the store takes goals (FigureRange): a goal the store refused would fail every
            // day written later, and blame the phone.
            let range: FigureRange = k == "move" ? .energy : k == "exercise" ? .minutes : .hours
            var value: Double?? = nil
            if v == .null {
                value = .some(nil)
            } else if let x = number(v, p, what: "a goal (or null for none)") {
                if let problem = range.problem(x, goal: true) { issue(p, "\(format(x)) \(problem)") } else { value = .some(x) }
            }
            guard let value else { continue }
            switch k {
            case "move": g.move = value
            case "exercise": g.exercise = value
            default: g.stand = value
            }
        }
        return g
    }

    /// `[["/usr/local/bin/sync", "--quick"], …]`: programs by absolute path, with arguments.
    mutating func refresh(_ json: JSON, _ path: String) -> [[String]]? {
        guard case .array(let items) = json else {
            issue(path, "expected an array of commands, each [\"/path/to/program\", \"argument\", …], found \(json.kind)")
            return nil
        }
        guard items.count <= 8 else {
            issue(path, "at most 8 commands")
            return nil
        }
        var commands: [[String]] = []
        for (i, item) in items.enumerated() {
            let p = "\(path)[\(i)]"
            guard case .array(let words) = item, !words.isEmpty else {
                issue(p, "expected a command: [\"/path/to/program\", \"argument\", …] (no shell)")
                continue
            }
            let strings = words.enumerated().compactMap { string($0.element, "\(p)[\($0.offset)]") }
            guard strings.count == words.count else { continue }
            guard strings[0].hasPrefix("/") else {
                issue("\(p)[0]", "expected the program's absolute path, e.g. \"/usr/local/bin/sync\", found \"\(strings[0])\"")
                continue
            }
            commands.append(strings)
        }
        return commands
    }

    /// `HOST:PORT` (an IPv4 address or `[IPv6]`) with a port of 1 to 65535.
    static func isListenAddress(_ s: String) -> Bool {
        guard let colon = s.lastIndex(of: ":"), let port = Int(s[s.index(after: colon)...]), (1...65535).contains(port)
        else { return false }
        let host = s[..<colon]
        if host.hasPrefix("[") { return host.hasSuffix("]") && host.count > 2 }
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts.allSatisfy { Int($0).map { (0...255).contains($0) } ?? false }
    }

    /// `WxH` or `WxH@Hz` with positive numbers.
    static func isMode(_ s: String) -> Bool {
        let parts = s.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count <= 2 else { return false }
        let size = parts[0].split(separator: "x", omittingEmptySubsequences: false)
        guard size.count == 2, let w = Int(size[0]), let h = Int(size[1]), w > 0, h > 0 else { return false }
        if parts.count == 2 {
            guard let hz = Double(parts[1]), hz > 0, hz < 1000 else { return false }
        }
        return true
    }

    func format(_ v: Double) -> String { NumberText.plain(v) }

    /// Edit distance, for "did you mean".
    func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a.lowercased()), b = Array(b.lowercased())
        var row = Array(0...b.count)
        for i in 1...max(1, a.count) where !a.isEmpty {
            var previous = row[0]
            row[0] = i
            for j in 1...max(1, b.count) where !b.isEmpty {
                let old = row[j]
                row[j] = min(row[j] + 1, row[j - 1] + 1, previous + (a[i - 1] == b[j - 1] ? 0 : 1))
                previous = old
            }
        }
        return row[b.count]
    }
}
