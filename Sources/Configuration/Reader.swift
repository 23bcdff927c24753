import JSON
import Controls
import Activity
import Raster

extension Configuration {
    /// Reads a configuration file's text; every problem is reported, each with its JSON path
    /// and the form expected. `patternProblem` says why a command gauge's pattern is not a
    /// regular expression (the C library's regcomp, given by whoever reads the file for real).
    public static func parse(_ text: String, patternProblem: (@Sendable (String) -> String?)? = nil)
        -> Result<Configuration, ConfigurationIssues>
    {
        read(text, patternProblem: patternProblem).map(\.configuration)
    }

    /// As `parse`, with the notes of a valid file: what it says that is read, but not as it is
    /// written now (an older form: a brightness as a fraction of full).
    public static func read(_ text: String, patternProblem: (@Sendable (String) -> String?)? = nil)
        -> Result<NotedConfiguration, ConfigurationIssues>
    {
        let json: JSON
        do {
            json = try JSONParser.parse(text)
        } catch {
            return .failure(ConfigurationIssues([ConfigurationIssue(path: "$", message: "not valid JSON: \(error)")]))
        }
        var reader = Reader()
        reader.patternProblem = patternProblem
        let config = reader.configuration(json)
        if reader.more > 0 {
            reader.issues.append(
                ConfigurationIssue(path: "$", message: "and \(reader.more) more problems like these (fix these first)"))
        }
        return reader.issues.isEmpty
            ? .success(NotedConfiguration(configuration: config, notes: reader.notes)) : .failure(ConfigurationIssues(reader.issues))
    }
}

/// A valid configuration, and what its file says that is read but not as it is written now (each
/// note with its JSON path: `$.display.brightness: 0.8 is read as the older fraction of full: 80 %;
/// write 80`). `glance config check` lists the notes; `glance run` and a reload log them.
public struct NotedConfiguration: Sendable {
    public var configuration: Configuration
    public var notes: [ConfigurationIssue]

    public init(configuration: Configuration, notes: [ConfigurationIssue] = []) {
        self.configuration = configuration
        self.notes = notes
    }
}

/// Walks the JSON tree, filling a configuration from the defaults and collecting issues.
struct Reader {
    var issues: [ConfigurationIssue] = []
    /// What is read, but not as it is written now (an older form); not problems. At most
    /// `maxIssues`, as the problems.
    var notes: [ConfigurationIssue] = []
    /// Issues past the first `maxIssues`, counted, not kept (a file of 200,000 wrong members).
    var more = 0
    static let maxIssues = 100
    /// Why a pattern is not a POSIX extended regular expression (nil: not checked).
    var patternProblem: (@Sendable (String) -> String?)?

    /// The file's settings over the defaults, then the checks of several together.
    mutating func configuration(_ json: JSON) -> Configuration {
        var c = Configuration()
        guard let members = members(json, "$", known: Configuration.fileKeys) else { return c }
        for (key, value) in members {
            guard let setting = Configuration.settings.first(where: { $0.key == key }) else { continue }
            setting.read(value, "$.\(key)", &self, &c)
        }
        // A problem already told at its own path is not told again as a combination.
        let told = Set(issues.map(\.path))
        for check in Configuration.checks {
            guard let path = check.path, let problem = check.problem(c) else { continue }
            if told.contains(where: { $0 == path || $0.hasPrefix(path + ".") || $0.hasPrefix(path + "[") }) { continue }
            issue(check.at?(c) ?? path, problem)
        }
        return c
    }

    mutating func issue(_ path: String, _ message: String) {
        guard issues.count < Self.maxIssues else {
            more += 1
            return
        }
        // A path quotes member names from the file: at most a line of it.
        issues.append(ConfigurationIssue(path: Quote.clip(path, 120), message: message))
    }

    mutating func note(_ path: String, _ message: String) {
        guard notes.count < Self.maxIssues else { return }
        notes.append(ConfigurationIssue(path: Quote.clip(path, 120), message: message))
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

        /// `HOST:PORT` (an IPv4 address or `[IPv6]`) with a port of 1 to 65535.
    static func isListenAddress(_ s: String) -> Bool {
        guard let colon = s.lastIndex(of: ":"), let port = Int(s[s.index(after: colon)...]), (0...65535).contains(port)
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
