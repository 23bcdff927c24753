import Testing

@testable import JSON

@Suite("JSON parser", .timeLimit(.minutes(10)))
struct JSONTests {
    @Test("values of every kind, nested, in order")
    func values() throws {
        let v = try JSONParser.parse(#"{"a": [1, -2.5e3, true, false, null], "b": {"c": "d\u00e9\n\ud83d\ude00"}, "e": 0}"#)
        #expect(v["a"] == .array([.number(1), .number(-2500), .bool(true), .bool(false), .null]))
        #expect(v["b"]?["c"] == .string("dé\n😀"))
        guard case .object(let members) = v else { Issue.record("not an object"); return }
        #expect(members.map(\.key) == ["a", "b", "e"])
    }

    @Test("malformed input names the line and column", arguments: [
        ("{\"a\": 1,}", 1, 9), ("{\n  \"a\": tru\n}", 2, 8), ("[1 2]", 1, 4), ("{\"a\": 1, \"a\": 2}", 1, 10),
        ("", 1, 1), ("{\"a\": 01}", 1, 8), ("\"\\x\"", 1, 4), ("{\"a\": 1} x", 1, 10), ("{\"s\": \"a\nb\"}", 1, 9),
    ])
    func errors(text: String, line: Int, column: Int) {
        do {
            _ = try JSONParser.parse(text)
            Issue.record("\(text) parsed")
        } catch {
            #expect(error.line == line && error.column == column, "\(text): \(error)")
        }
    }

    /// Issue 24, X4: an 8 MiB body of [0, 0, …] peaked at 270 MB while parsed (a boxed value for
    /// each number). Values are unboxed now, and a caller may bound how many a text holds.
    @Test("a value is 24 bytes in place; maxValues refuses a text of too many, before building them")
    func valueBudget() throws {
        #expect(MemoryLayout<JSON>.stride <= 24, "\(MemoryLayout<JSON>.stride)")
        let many = Array(("[" + String(repeating: "0,", count: 999) + "0]").utf8)
        #expect(try JSONParser.parse(bytes: many, maxValues: 1001) == .array(Array(repeating: .number(0), count: 1000)))
        do {
            _ = try JSONParser.parse(bytes: many, maxValues: 1000)
            Issue.record("1001 values taken with a budget of 1000")
        } catch {
            #expect(error.message.contains("more values"), "\(error)")
        }
        // Commas inside strings are not values.
        let strings = Array("[\"a,b,c,d,e,f\", \"\\\",\"]".utf8)
        #expect(try JSONParser.parse(bytes: strings, maxValues: 3) == .array([.string("a,b,c,d,e,f"), .string("\",")]))
        #expect(try JSONParser.parse(bytes: Array("[-12, 123456789012345, 1234567890123456, 1.5]".utf8))
            == .array([.number(-12), .number(123456789012345), .number(1234567890123456), .number(1.5)]))
        #expect(JSONParser.isUTF8(Array("café".utf8)) && !JSONParser.isUTF8([0x7B, 0xFF, 0x7D]) && !JSONParser.isUTF8([0xC3]))
    }

    /// The nesting limit: 64 levels of values (63 arrays or objects around a number), so a
    /// hostile body cannot take the parser's recursion (a stack) where it likes. One level more
    /// is refused, naming where.
    @Test("nesting: 64 levels of values parse, the 65th is refused as nested too deeply", arguments: ["[", "{\"a\":"])
    func nestingLimit(open: String) throws {
        let close = open == "[" ? "]" : "}"
        func nested(_ levels: Int) -> String { String(repeating: open, count: levels) + "1" + String(repeating: close, count: levels) }
        #expect(throws: Never.self) { _ = try JSONParser.parse(nested(63)) }
        for levels in [64, 1_000] {
            do {
                _ = try JSONParser.parse(nested(levels))
                Issue.record("\(levels) levels parsed")
            } catch {
                #expect(error.message.contains("nested too deeply"), "\(levels) levels: \(error)")
                #expect(error.line == 1 && error.column == 64 * open.utf8.count + 1, "\(levels) levels: \(error)")
            }
        }
    }
}
