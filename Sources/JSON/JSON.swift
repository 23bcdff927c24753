/// A parsed JSON value, with where each value started in the text (for error messages).
///
/// Not `indirect`: arrays and objects already hold their elements out of line, so a value is 24
/// bytes in place rather than a box of its own (an array of a million numbers was a million
/// allocations).
public enum JSON: Sendable, Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSON])
    /// Members in the order written (duplicates are a parse error).
    case object([(key: String, value: JSON)])

    public static func == (a: JSON, b: JSON) -> Bool {
        switch (a, b) {
        case (.null, .null): true
        case (.bool(let x), .bool(let y)): x == y
        case (.number(let x), .number(let y)): x == y
        case (.string(let x), .string(let y)): x == y
        case (.array(let x), .array(let y)): x == y
        case (.object(let x), .object(let y)): x.count == y.count && zip(x, y).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        default: false
        }
    }

    /// What the value is, in words, for "expected …, found …" messages.
    public var kind: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }

    public subscript(key: String) -> JSON? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.key == key }?.value
    }
}

/// Malformed JSON: where (line, column, 1-based) and what.
public struct JSONSyntaxError: Error, Sendable, CustomStringConvertible {
    public let line: Int
    public let column: Int
    public let message: String
    public var description: String { "line \(line), column \(column): \(message)" }
}

/// A strict RFC 8259 parser (no comments, no trailing commas), in plain Swift.
public struct JSONParser {
    private let bytes: [UInt8]
    private var i = 0
    /// Values still allowed (`maxValues` counts down).
    private var budget: Int

    public static func parse(_ text: String) throws(JSONSyntaxError) -> JSON {
        try parse(bytes: Array(text.utf8))
    }

    /// Parses UTF-8 bytes (the caller has checked they are UTF-8: a request body, in place). At
    /// most `maxValues` values (every number, string, literal, array and object counts): a text
    /// of tiny values cannot become a tree many times its size.
    public static func parse(bytes: [UInt8], maxValues: Int = .max) throws(JSONSyntaxError) -> JSON {
        var p = JSONParser(bytes: bytes, budget: maxValues)
        // Refused before any tree is built when it surely holds too many: a value is followed by a
        // comma or closes its container, so there are at most commas + containers + 1 of them.
        if maxValues < .max && Self.mostValues(bytes) > maxValues {
            throw JSONSyntaxError(line: 1, column: 1, message: "more values than a text of \(bytes.count) bytes may hold here")
        }
        p.skipSpace()
        let value = try p.value(depth: 0)
        p.skipSpace()
        guard p.i == p.bytes.count else { throw p.error("unexpected text after the value") }
        return value
    }

    private init(bytes: [UInt8], budget: Int) {
        self.bytes = bytes
        self.budget = budget
    }

    /// An upper bound of the values in `bytes`, counted in one pass: commas, `[` and `{` outside
    /// strings, and one.
    public static func mostValues(_ bytes: [UInt8]) -> Int {
        bytes.withUnsafeBufferPointer { b in
            var count = 1
            var inString = false
            var escaped = false
            for c in b {
                if inString {
                    if escaped {
                        escaped = false
                    } else if c == 0x5C {
                        escaped = true
                    } else if c == 0x22 {
                        inString = false
                    }
                } else if c == 0x22 {
                    inString = true
                } else if c == 0x2C || c == 0x5B || c == 0x7B {
                    count += 1
                }
            }
            return count
        }
    }

    /// Whether `bytes` are UTF-8 (no overlong form, surrogate or value past U+10FFFF), checked in
    /// place in one pass.
    public static func isUTF8(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBufferPointer { b in
            var i = 0
            let n = b.count
            while i < n {
                let c = b[i]
                if c < 0x80 {
                    i += 1
                    continue
                }
                var need = 0
                var v: UInt32 = 0
                var least: UInt32 = 0
                if c & 0xE0 == 0xC0 {
                    (need, v, least) = (1, UInt32(c & 0x1F), 0x80)
                } else if c & 0xF0 == 0xE0 {
                    (need, v, least) = (2, UInt32(c & 0x0F), 0x800)
                } else if c & 0xF8 == 0xF0 {
                    (need, v, least) = (3, UInt32(c & 0x07), 0x10000)
                } else {
                    return false
                }
                guard i + need < n else { return false }
                for k in 1...need {
                    let d = b[i + k]
                    guard d & 0xC0 == 0x80 else { return false }
                    v = v << 6 | UInt32(d & 0x3F)
                }
                guard v >= least, v <= 0x10FFFF, !(0xD800...0xDFFF).contains(v) else { return false }
                i += need + 1
            }
            return true
        }
    }

    /// A name as a message quotes it: 40 characters at most, control characters as `?`.
    static func clip(_ text: String) -> String {
        var out = ""
        for (n, c) in text.unicodeScalars.enumerated() {
            if n == 40 { return out + "…" }
            out.unicodeScalars.append(c.value < 0x20 || c.value == 0x7F ? "?" : c)
        }
        return out
    }

    private func error(_ message: String) -> JSONSyntaxError {
        var line = 1, column = 1
        for b in bytes[..<min(i, bytes.count)] {
            if b == 0x0A {
                line += 1
                column = 1
            } else if b & 0xC0 != 0x80 {
                column += 1
            }
        }
        return JSONSyntaxError(line: line, column: column, message: message)
    }

    private mutating func skipSpace() {
        while i < bytes.count {
            switch bytes[i] {
            case 0x20, 0x09, 0x0A, 0x0D: i += 1
            default: return
            }
        }
    }

    private mutating func value(depth: Int) throws(JSONSyntaxError) -> JSON {
        guard depth < 64 else { throw error("nested too deeply") }
        budget -= 1
        guard budget >= 0 else { throw error("more values than a text of \(bytes.count) bytes may hold here") }
        guard i < bytes.count else { throw error("expected a value, found the end of the file") }
        switch bytes[i] {
        case UInt8(ascii: "{"): return try object(depth: depth)
        case UInt8(ascii: "["): return try array(depth: depth)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): return try literal("true", .bool(true))
        case UInt8(ascii: "f"): return try literal("false", .bool(false))
        case UInt8(ascii: "n"): return try literal("null", .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
        default: throw error("expected a value (object, array, string, number, true, false or null)")
        }
    }

    private mutating func literal(_ word: String, _ value: JSON) throws(JSONSyntaxError) -> JSON {
        let w = Array(word.utf8)
        guard i + w.count <= bytes.count, bytes[i..<(i + w.count)].elementsEqual(w) else {
            throw error("expected \(word)")
        }
        i += w.count
        return value
    }

    private mutating func object(depth: Int) throws(JSONSyntaxError) -> JSON {
        i += 1
        var members: [(key: String, value: JSON)] = []
        // The names seen, for the duplicate check: a set, so an object of 200,000 members is
        // checked in linear time (a search of the list took 92 s).
        var names = Set<String>()
        skipSpace()
        if i < bytes.count && bytes[i] == UInt8(ascii: "}") {
            i += 1
            return .object([])
        }
        while true {
            skipSpace()
            guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") else { throw error("expected a member name in quotes") }
            let start = i
            let key = try string()
            guard names.insert(key).inserted else {
                i = start
                throw error("member \"\(Self.clip(key))\" appears twice")
            }
            skipSpace()
            guard i < bytes.count, bytes[i] == UInt8(ascii: ":") else {
                throw error("expected ':' after \"\(Self.clip(key))\"")
            }
            i += 1
            skipSpace()
            members.append((key, try value(depth: depth + 1)))
            skipSpace()
            guard i < bytes.count else { throw error("expected ',' or '}', found the end of the file") }
            if bytes[i] == UInt8(ascii: ",") {
                i += 1
                continue
            }
            guard bytes[i] == UInt8(ascii: "}") else { throw error("expected ',' or '}'") }
            i += 1
            return .object(members)
        }
    }

    private mutating func array(depth: Int) throws(JSONSyntaxError) -> JSON {
        i += 1
        var items: [JSON] = []
        skipSpace()
        if i < bytes.count && bytes[i] == UInt8(ascii: "]") {
            i += 1
            return .array([])
        }
        while true {
            skipSpace()
            items.append(try value(depth: depth + 1))
            skipSpace()
            guard i < bytes.count else { throw error("expected ',' or ']', found the end of the file") }
            if bytes[i] == UInt8(ascii: ",") {
                i += 1
                continue
            }
            guard bytes[i] == UInt8(ascii: "]") else { throw error("expected ',' or ']'") }
            i += 1
            return .array(items)
        }
    }

    private mutating func string() throws(JSONSyntaxError) -> String {
        i += 1
        var out: [UInt8] = []
        while true {
            guard i < bytes.count else { throw error("unterminated string") }
            let b = bytes[i]
            if b == UInt8(ascii: "\"") {
                i += 1
                return String(decoding: out, as: UTF8.self)
            }
            if b < 0x20 { throw error("control character in a string (write \\n, \\t …)") }
            if b != UInt8(ascii: "\\") {
                out.append(b)
                i += 1
                continue
            }
            i += 1
            guard i < bytes.count else { throw error("unterminated escape") }
            let e = bytes[i]
            i += 1
            switch e {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(e)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = try hex4()
                if (0xD800..<0xDC00).contains(scalar) {
                    guard i + 1 < bytes.count, bytes[i] == UInt8(ascii: "\\"), bytes[i + 1] == UInt8(ascii: "u") else {
                        throw error("a high surrogate must be followed by a low one")
                    }
                    i += 2
                    let low = try hex4()
                    guard (0xDC00..<0xE000).contains(low) else { throw error("invalid low surrogate") }
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                }
                guard let u = Unicode.Scalar(scalar) else { throw error("invalid \\u escape") }
                out.append(contentsOf: Array(String(Character(u)).utf8))
            default:
                throw error("unknown escape \\\(Character(Unicode.Scalar(e)))")
            }
        }
    }

    private mutating func hex4() throws(JSONSyntaxError) -> UInt32 {
        guard i + 4 <= bytes.count else { throw error("\\u needs four hex digits") }
        var v: UInt32 = 0
        for _ in 0..<4 {
            let b = bytes[i]
            let d: UInt32
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): d = UInt32(b - 48)
            case UInt8(ascii: "a")...UInt8(ascii: "f"): d = UInt32(b - 87)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): d = UInt32(b - 55)
            default: throw error("\\u needs four hex digits")
            }
            v = v << 4 | d
            i += 1
        }
        return v
    }

    private mutating func number() throws(JSONSyntaxError) -> JSON {
        let start = i
        if bytes[i] == UInt8(ascii: "-") { i += 1 }
        func digits(_ p: inout JSONParser) -> Int {
            let s = p.i
            while p.i < p.bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(p.bytes[p.i]) { p.i += 1 }
            return p.i - s
        }
        guard i < bytes.count else { throw error("expected digits") }
        if bytes[i] == UInt8(ascii: "0") {
            i += 1
        } else if digits(&self) == 0 {
            throw error("expected digits")
        }
        if i < bytes.count, bytes[i] == UInt8(ascii: ".") {
            i += 1
            guard digits(&self) > 0 else { throw error("expected digits after the decimal point") }
        }
        if i < bytes.count, bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E") {
            i += 1
            if i < bytes.count, bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") { i += 1 }
            guard digits(&self) > 0 else { throw error("expected digits in the exponent") }
        }
        // Up to 15 digits without a point or exponent: exact in a Double, made without a String.
        if i - start <= 15 {
            var n: Int64 = 0
            var plain = true
            for b in bytes[(bytes[start] == UInt8(ascii: "-") ? start + 1 : start)..<i] {
                guard b >= 48 && b <= 57 else {
                    plain = false
                    break
                }
                n = n * 10 + Int64(b - 48)
            }
            if plain { return .number(bytes[start] == UInt8(ascii: "-") ? -Double(n) : Double(n)) }
        }
        let text = String(decoding: bytes[start..<i], as: UTF8.self)
        guard let v = Double(text), v.isFinite else {
            i = start
            throw error("number \(text) is out of range")
        }
        return .number(v)
    }
}
