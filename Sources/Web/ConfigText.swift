import JSON

/// The configuration file's JSON text, edited in place (issue 41): an edit changes the value it
/// names and no other byte. Whitespace, the members' order, keys Glance does not know, numbers
/// spelled `1.0` or `1e3` and strings' escapes outside the edit are kept as written.
///
/// Every edit reads the whole text with the project's strict reader first (a text it refuses is
/// refused here, with its line and column: duplicate members too, as the configuration's reader
/// refuses them) and reads its result again before returning it: an edit never gives a text the
/// panel cannot read. The spans of the values on the path are found by a scanner of its own that
/// walks only the containers the path passes through; it needs no checks, as the text is valid.
public struct ConfigText: Sendable, Equatable {
    public var text: String

    /// "" or only whitespace is an empty file, edited as `{}` (and a newline at its end).
    public init(_ text: String) {
        self.text = text
    }

    /// A step of a path: a member's key or an array's index.
    public enum Step: Sendable, Equatable {
        case key(String)
        case index(Int)
    }

    /// The largest text edited: the most the configuration's reader takes (ConfigurationFile's
    /// maxSize, 4 MiB).
    public static let maxSize = 4 << 20

    /// The JSON text of the value at `path` (nil: absent, a step through a value that is not an
    /// object or array, or a text that is not valid JSON), as if it began a line: its continuation
    /// lines without the indentation of the line it starts on, its line ends `\n`. `setting` puts
    /// the same text back byte for byte (when its lines are indented at least as its first).
    public func value(at path: [Step]) -> String? {
        guard let document = try? Document(text), let walk = try? document.walk(path), walk.reached == path.count else {
            return nil
        }
        return String(decoding: document.deindented(walk.start, walk.end), as: UTF8.self)
    }

    /// Sets the value at `path` to `json` (a JSON text, inserted as given, its continuation lines
    /// indented as the line it lands on and ended as the file's lines), replacing it where it is,
    /// or adding the member at the end of the innermost existing object, the objects on the way
    /// made as needed, in that object's own style. An index equal to the array's count appends.
    public func setting(_ path: [Step], to json: String) throws(ConfigTextError) -> ConfigText {
        let value = try Self.checked(json)
        let document = try Document(text)
        let walk = try document.walk(path)
        if walk.reached == path.count {
            let base = document.indentation(ofLineAt: walk.start)
            return try document.replacing(walk.start, walk.end, with: document.reindented(value, base: base))
        }
        return try document.adding(path, walk: walk, value: value)
    }

    /// Removes the member or array element at `path`, with its comma; the neighbours' formatting
    /// kept. Absent: unchanged.
    public func removing(_ path: [Step]) throws(ConfigTextError) -> ConfigText {
        guard !path.isEmpty else { throw ConfigTextError("the whole file cannot be removed") }
        let document = try Document(text)
        let walk = try document.walk(path)
        guard walk.reached == path.count else { return self }
        let container = walk.containers[path.count - 1]
        let k = walk.taken[path.count - 1]
        let entries = container.entries
        if entries.count == 1 {
            return try document.replacing(container.open + 1, container.close, with: [])
        }
        if k < entries.count - 1 {
            return try document.replacing(entries[k].keyStart, entries[k + 1].keyStart, with: [])
        }
        return try document.replacing(entries[k - 1].end, entries[k].end, with: [])
    }

    /// Appends `json` to the array at `path` (the array made, as `setting` would, when absent).
    public func appending(_ json: String, to path: [Step]) throws(ConfigTextError) -> ConfigText {
        let value = try Self.checked(json)
        let document = try Document(text)
        let walk = try document.walk(path)
        guard walk.reached == path.count else {
            return try document.adding(path + [.index(0)], walk: walk, value: value)
        }
        guard document.bytes[walk.start] == UInt8(ascii: "[") else {
            throw ConfigTextError("\(Self.describe(path)) is \(document.kind(at: walk.start)), not a list")
        }
        let container = document.container(at: walk.start)
        return try document.inserting(value, key: nil, into: container, enclosing: walk.containers)
    }

    /// A dotted settings key ("display.mode", "gauges[2].unit", "$.keys.KEY_LEFT" as the
    /// configuration's messages write it) as steps; nil when it is not one. Keys cannot hold `.`,
    /// `[` or `]`.
    public static func path(_ dotted: String) -> [Step]? {
        var rest = Substring(dotted)
        if rest == "$" { return [] }
        if rest.hasPrefix("$.") || rest.hasPrefix("$[") { rest = rest.dropFirst() }
        if rest.hasPrefix(".") { rest = rest.dropFirst() }
        var steps: [Step] = []
        for (n, part) in rest.split(separator: ".", omittingEmptySubsequences: false).enumerated() {
            var part = part
            let key = part.prefix { $0 != "[" && $0 != "]" }
            if !key.isEmpty {
                steps.append(.key(String(key)))
            } else if n > 0 || !part.hasPrefix("[") {
                return nil
            }
            part = part.dropFirst(key.count)
            while !part.isEmpty {
                guard part.first == "[", let close = part.firstIndex(of: "]") else { return nil }
                let digits = part[part.index(after: part.startIndex)..<close]
                guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }), let index = Int(digits) else { return nil }
                steps.append(.index(index))
                part = part[part.index(after: close)...]
            }
        }
        return steps
    }

    /// A path as the messages write it: `gauges[2].unit`; the whole file when empty.
    static func describe(_ path: some Collection<Step>) -> String {
        var out = ""
        for step in path {
            switch step {
            case .key(let key): out += (out.isEmpty ? "" : ".") + JSONParser.clipped(key)
            case .index(let index): out += "[\(index)]"
            }
        }
        return out.isEmpty ? "the file" : out
    }

    /// `json` as bytes, checked, without the whitespace around it.
    static func checked(_ json: String) throws(ConfigTextError) -> [UInt8] {
        do {
            _ = try JSONParser.parse(json)
        } catch {
            throw ConfigTextError("the value is not valid JSON: \(error)")
        }
        var bytes = Array(json.utf8)
        while let last = bytes.last, Document.isSpace(last) { bytes.removeLast() }
        let lead = bytes.prefix { Document.isSpace($0) }.count
        return Array(bytes[lead...])
    }
}

/// Why an edit of the configuration's text was refused.
public struct ConfigTextError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) {
        self.message = message
    }
    public var description: String { message }
}

extension JSONParser {
    /// A key as a message quotes it, as the reader's messages do: 40 characters at most, control
    /// characters as `?`.
    static func clipped(_ key: String) -> String {
        var out = ""
        for (n, c) in key.unicodeScalars.enumerated() {
            if n == 40 { return out + "…" }
            out.unicodeScalars.append(c.value < 0x20 || c.value == 0x7F ? "?" : c)
        }
        return out
    }
}

/// A valid text's bytes and what edits need of its style.
struct Document {
    let bytes: [UInt8]
    /// `\r\n` when the file's first line ends so, else `\n`.
    let newline: [UInt8]

    /// An object or array: where its brackets are and its entries.
    struct Container {
        var open: Int
        /// The closing bracket's offset.
        var close: Int
        var isObject: Bool
        var entries: [Entry]
    }

    /// A member (its key from `keyStart`, the opening quote, to `keyEnd`, after the closing one)
    /// or an array's element (`keyStart == keyEnd == start`); the value from `start` to `end`.
    struct Entry {
        var keyStart: Int
        var keyEnd: Int
        var key: String?
        var start: Int
        var end: Int
    }

    /// The containers a path went through (`containers[k]`: the one step k looked in), the
    /// entries it took in them, and the value it reached (the root when none was taken).
    struct Walk {
        var containers: [Container] = []
        var taken: [Int] = []
        var start: Int
        var end: Int
        var reached: Int { taken.count }
    }

    init(_ text: String) throws(ConfigTextError) {
        var bytes = Array(text.utf8)
        guard bytes.count <= ConfigText.maxSize else {
            throw ConfigTextError("the file is larger than \(ConfigText.maxSize >> 20) MB")
        }
        if bytes.allSatisfy(Self.isSpace) { bytes = Array("{}\n".utf8) }
        do {
            _ = try JSONParser.parse(bytes: bytes)
        } catch {
            throw ConfigTextError("the file is not valid JSON: \(error)")
        }
        self.bytes = bytes
        let lf = bytes.firstIndex(of: 0x0A)
        newline = lf.map { $0 > 0 && bytes[$0 - 1] == 0x0D } == true ? [0x0D, 0x0A] : [0x0A]
    }

    static func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D }

    func skipSpace(_ from: Int) -> Int {
        var i = from
        while i < bytes.count, Self.isSpace(bytes[i]) { i += 1 }
        return i
    }

    /// After the string that starts (its quote) at `from`.
    func stringEnd(_ from: Int) -> Int {
        var i = from + 1
        while bytes[i] != UInt8(ascii: "\"") { i += bytes[i] == UInt8(ascii: "\\") ? 2 : 1 }
        return i + 1
    }

    /// After the value that starts at `from` (brackets counted, strings skipped: no recursion).
    func valueEnd(_ from: Int) -> Int {
        switch bytes[from] {
        case UInt8(ascii: "\""):
            return stringEnd(from)
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            var depth = 0
            var i = from
            repeat {
                switch bytes[i] {
                case UInt8(ascii: "\""):
                    i = stringEnd(i)
                    continue
                case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"): depth -= 1
                default: break
                }
                i += 1
            } while depth > 0
            return i
        default:
            var i = from
            while i < bytes.count {
                switch bytes[i] {
                case UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"), 0x20, 0x09, 0x0A, 0x0D: return i
                default: i += 1
                }
            }
            return i
        }
    }

    /// The object or array that starts at `open`, its entries found.
    func container(at open: Int) -> Container {
        let isObject = bytes[open] == UInt8(ascii: "{")
        var entries: [Entry] = []
        var i = skipSpace(open + 1)
        while bytes[i] != UInt8(ascii: "}") && bytes[i] != UInt8(ascii: "]") {
            let keyStart = i
            var keyEnd = i
            var key: String?
            if isObject {
                keyEnd = stringEnd(i)
                key = decodedKey(keyStart, keyEnd)
                i = skipSpace(skipSpace(keyEnd) + 1)  // the colon
            }
            let end = valueEnd(i)
            entries.append(Entry(keyStart: keyStart, keyEnd: keyEnd, key: key, start: i, end: end))
            i = skipSpace(end)
            if bytes[i] == UInt8(ascii: ",") { i = skipSpace(i + 1) }
        }
        return Container(open: open, close: i, isObject: isObject, entries: entries)
    }

    /// The key whose quoted text is `start..<end`: its bytes when it has no escape, else read by
    /// the JSON reader.
    func decodedKey(_ start: Int, _ end: Int) -> String {
        let inner = bytes[(start + 1)..<(end - 1)]
        if !inner.contains(UInt8(ascii: "\\")) { return String(decoding: inner, as: UTF8.self) }
        if case .string(let key)? = try? JSONParser.parse(bytes: Array(bytes[start..<end])) { return key }
        return String(decoding: inner, as: UTF8.self)
    }

    /// What the value at `at` is, in the reader's words.
    func kind(at i: Int) -> String {
        switch bytes[i] {
        case UInt8(ascii: "{"): "an object"
        case UInt8(ascii: "["): "a list"
        case UInt8(ascii: "\""): "a string"
        case UInt8(ascii: "t"), UInt8(ascii: "f"): "a boolean"
        case UInt8(ascii: "n"): "null"
        default: "a number"
        }
    }

    /// Follows `path` as far as it exists. A step through a value that is not an object (a key)
    /// or not an array (an index) is an error; a key or index not there ends the walk.
    func walk(_ path: [ConfigText.Step]) throws(ConfigTextError) -> Walk {
        let root = skipSpace(0)
        var walk = Walk(start: root, end: valueEnd(root))
        for (k, step) in path.enumerated() {
            let here = walk.start
            let found: Int?
            switch step {
            case .key(let key):
                guard bytes[here] == UInt8(ascii: "{") else {
                    throw ConfigTextError("\(ConfigText.describe(path[..<k])) is \(kind(at: here)), not an object: it has no \"\(JSONParser.clipped(key))\"")
                }
                let container = container(at: here)
                walk.containers.append(container)
                // The last of the name (the reader refuses a text naming a member twice).
                found = container.entries.lastIndex { $0.key == key }
            case .index(let index):
                guard bytes[here] == UInt8(ascii: "[") else {
                    throw ConfigTextError("\(ConfigText.describe(path[..<k])) is \(kind(at: here)), not a list: it has no item \(index)")
                }
                let container = container(at: here)
                walk.containers.append(container)
                found = container.entries.indices.contains(index) ? index : nil
            }
            guard let found else { return walk }
            walk.taken.append(found)
            let entry = walk.containers[k].entries[found]
            walk.start = entry.start
            walk.end = entry.end
        }
        return walk
    }

    // MARK: Style

    /// The spaces and tabs that begin the line `at` is on.
    func indentation(ofLineAt at: Int) -> [UInt8] {
        var start = at
        while start > 0 && bytes[start - 1] != 0x0A { start -= 1 }
        var end = start
        while end < at, bytes[end] == 0x20 || bytes[end] == 0x09 { end += 1 }
        return Array(bytes[start..<end])
    }

    /// One indentation level: how far the root's first entry is indented past the root's line
    /// when it has a line of its own, else the indentation of the file's first indented line; two
    /// spaces in a file with none.
    var indentUnit: [UInt8] {
        let root = skipSpace(0)
        if root < bytes.count, bytes[root] == UInt8(ascii: "{") || bytes[root] == UInt8(ascii: "[") {
            let first = skipSpace(root + 1)
            let outer = indentation(ofLineAt: root)
            let inner = indentation(ofLineAt: first)
            if bytes[(root + 1)..<first].contains(0x0A) && inner.count > outer.count && inner.starts(with: outer) {
                return Array(inner.dropFirst(outer.count))
            }
        }
        var i = 0
        while let lf = bytes[i...].firstIndex(of: 0x0A) {
            i = lf + 1
            let unit = bytes[i...].prefix { $0 == 0x20 || $0 == 0x09 }
            if !unit.isEmpty && unit.endIndex < bytes.count && !Self.isSpace(bytes[unit.endIndex]) { return Array(unit) }
        }
        return [0x20, 0x20]
    }

    /// Whether a container with entries puts them on lines of their own (a line end before its
    /// first).
    func isMultiline(_ container: Container) -> Bool {
        guard let first = container.entries.first else { return false }
        return bytes[(container.open + 1)..<first.keyStart].contains(0x0A)
    }

    /// Whether entries added to an empty container (or containers made) go on lines of their own:
    /// as the nearest enclosing container with entries, else (the root `{}`) yes.
    func multilineInside(_ enclosing: [Container]) -> Bool {
        guard let nearest = enclosing.last(where: { !$0.entries.isEmpty }) else { return true }
        return isMultiline(nearest)
    }

    /// What goes between a key and its value: as the nearest object with members writes it (if
    /// on one line), else `": "`.
    func colon(_ containers: [Container]) -> [UInt8] {
        for container in containers.reversed() where container.isObject {
            guard let last = container.entries.last else { continue }
            let between = Array(bytes[last.keyEnd..<last.start])
            return between.contains(0x0A) || between.contains(0x0D) ? Array(": ".utf8) : between
        }
        return Array(": ".utf8)
    }

    /// `value` (with `\n` or `\r\n` line ends) placed on a line indented by `base`: each
    /// continuation line but blank ones indented by it, every line ended as the file's.
    func reindented(_ value: [UInt8], base: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(value.count)
        for (n, line) in Self.lines(value).enumerated() {
            if n > 0 {
                out += newline
                if !line.isEmpty { out += base }
            }
            out += line
        }
        return out
    }

    /// The value `start..<end` as if it began a line: the indentation of the line it starts on
    /// taken from its continuation lines (or as much of it as they have), line ends `\n`.
    func deindented(_ start: Int, _ end: Int) -> [UInt8] {
        let base = indentation(ofLineAt: start)
        var out: [UInt8] = []
        for (n, line) in Self.lines(bytes[start..<end]).enumerated() {
            if n == 0 {
                out += line
                continue
            }
            out.append(0x0A)
            if line.starts(with: base) {
                out += line.dropFirst(base.count)
            } else {
                let lead = line.prefix { $0 == 0x20 || $0 == 0x09 }.count
                out += line.dropFirst(min(lead, base.count))
            }
        }
        return out
    }

    /// The lines of `text`, without their `\n` or `\r\n`.
    static func lines(_ text: some Collection<UInt8>) -> [ArraySlice<UInt8>] {
        let all = Array(text)
        return all.split(separator: 0x0A, omittingEmptySubsequences: false).map { line in
            line.last == 0x0D ? line.dropLast() : line
        }
    }

    /// `key` as a JSON string.
    static func quoted(_ key: String) -> [UInt8] {
        var out: [UInt8] = [UInt8(ascii: "\"")]
        for b in key.utf8 {
            switch b {
            case UInt8(ascii: "\""): out += Array(#"\""#.utf8)
            case UInt8(ascii: "\\"): out += Array(#"\\"#.utf8)
            case 0x0A: out += Array(#"\n"#.utf8)
            case 0x0D: out += Array(#"\r"#.utf8)
            case 0x09: out += Array(#"\t"#.utf8)
            case 0..<0x20, 0x7F:
                let hex = Array("0123456789abcdef".utf8)
                out += Array(#"\u00"#.utf8) + [hex[Int(b >> 4)], hex[Int(b & 15)]]
            default: out.append(b)
            }
        }
        out.append(UInt8(ascii: "\""))
        return out
    }

    // MARK: Edits

    /// The text with `start..<end` replaced, read again: an edit never gives a text the reader
    /// refuses (one nested deeper than it takes, say).
    func replacing(_ start: Int, _ end: Int, with new: [UInt8]) throws(ConfigTextError) -> ConfigText {
        var out = bytes
        out.replaceSubrange(start..<end, with: new)
        guard out.count <= ConfigText.maxSize else {
            throw ConfigTextError("the file would be larger than \(ConfigText.maxSize >> 20) MB")
        }
        do {
            _ = try JSONParser.parse(bytes: out)
        } catch {
            throw ConfigTextError("the edit would give a file that is not valid JSON: \(error)")
        }
        return ConfigText(String(decoding: out, as: UTF8.self))
    }

    /// Adds what `path` names past where `walk` stopped: the member (or element, an index equal
    /// to the count) missing from the container where it stopped, holding the containers the rest
    /// of the path makes and `value` in the innermost.
    func adding(_ path: [ConfigText.Step], walk: Walk, value: [UInt8]) throws(ConfigTextError) -> ConfigText {
        let k = walk.reached
        let container = walk.containers[k]
        var key: String?
        switch path[k] {
        case .key(let name):
            key = name
        case .index(let index):
            guard index == container.entries.count else {
                throw ConfigTextError(
                    "\(ConfigText.describe(path[...k])) is out of range: the list has \(container.entries.count) item\(container.entries.count == 1 ? "" : "s")")
            }
        }
        let enclosing = Array(walk.containers[...k])
        let multiline = container.entries.isEmpty ? multilineInside(Array(walk.containers[..<k])) : isMultiline(container)
        let made = try made(path[(k + 1)...], value: value, multiline: multiline, colon: colon(enclosing), done: path[...k])
        return try inserting(made, key: key, into: container, enclosing: Array(walk.containers[..<k]))
    }

    /// The containers `rest` makes around `value`, as text beginning a line: an object a member,
    /// an array of the one element (index 0: nothing else is in range).
    func made(
        _ rest: ArraySlice<ConfigText.Step>, value: [UInt8], multiline: Bool, colon: [UInt8], done: ArraySlice<ConfigText.Step>
    ) throws(ConfigTextError) -> [UInt8] {
        guard let step = rest.first else { return value }
        let inner = try made(rest.dropFirst(), value: value, multiline: multiline, colon: colon, done: done + [step])
        let unit = indentUnit
        switch step {
        case .key(let name):
            let member = Self.quoted(name) + colon
            return multiline
                ? Array("{\n".utf8) + unit + member + indentedLines(inner, unit) + Array("\n}".utf8)
                : Array("{".utf8) + member + inner + Array("}".utf8)
        case .index(let index):
            guard index == 0 else {
                throw ConfigTextError("\(ConfigText.describe(done + [step])) is out of range: the list is new, only [0] can be set")
            }
            return multiline && Self.opensLines(inner)
                ? Array("[\n".utf8) + unit + indentedLines(inner, unit) + Array("\n]".utf8)
                : Array("[".utf8) + inner + Array("]".utf8)
        }
    }

    /// Whether an element goes on a line of its own in a multi-line array made or filled here: an
    /// object or array does, a number or string stays on the bracket's line (`["rings"]`).
    static func opensLines(_ value: [UInt8]) -> Bool {
        value.first == UInt8(ascii: "{") || value.first == UInt8(ascii: "[") || value.contains(0x0A)
    }

    /// `text`'s continuation lines indented by `unit` (`\n` line ends, as made text has).
    func indentedLines(_ text: [UInt8], _ unit: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        for (n, line) in Self.lines(text).enumerated() {
            if n > 0 {
                out.append(0x0A)
                if !line.isEmpty { out += unit }
            }
            out += line
        }
        return out
    }

    /// Adds an entry (`key`'s member, or an element when nil) holding `value` (text beginning a
    /// line) after the container's last, in their style: on a line of its own as they are, with
    /// the separator and the colon they have. An empty container's first entry goes on a line of
    /// its own, one level in, when its enclosing container's are (or it is the root).
    func inserting(_ value: [UInt8], key: String?, into container: Container, enclosing: [Container]) throws(ConfigTextError) -> ConfigText {
        let head = key.map { Self.quoted($0) + colon(enclosing + [container]) } ?? []
        if let last = container.entries.last {
            let n = container.entries.count
            let before = n >= 2 ? container.entries[n - 2].end : container.open + 1
            let gap = Array(bytes[before..<last.keyStart])
            let base = indentation(ofLineAt: last.keyStart)
            let separator: [UInt8]
            if gap.contains(0x0A) {
                separator = [UInt8(ascii: ",")] + newline + base
            } else if n >= 2 {
                separator = gap
            } else {
                // One entry, nothing before it on its line: `{"a":1}` takes `,`, `{"a": 1}` `, `.
                let spaced = gap.isEmpty && colon(enclosing + [container]).last == 0x20
                separator = [UInt8(ascii: ",")] + (spaced ? [0x20] : gap)
            }
            return try replacing(last.end, last.end, with: separator + head + reindented(value, base: base))
        }
        let multiline = multilineInside(enclosing) && (key != nil || Self.opensLines(value))
        if multiline {
            let outer = indentation(ofLineAt: container.open)
            let base = outer + indentUnit
            // In steps: Swift 6.0.3 cannot type-check the sum as one expression in reasonable time.
            var new: [UInt8] = [bytes[container.open]]
            new += newline
            new += base
            new += head
            new += reindented(value, base: base)
            new += newline
            new += outer
            new.append(bytes[container.close])
            return try replacing(container.open, container.close + 1, with: new)
        }
        let base = indentation(ofLineAt: container.open)
        return try replacing(container.open + 1, container.close, with: head + reindented(value, base: base))
    }
}
