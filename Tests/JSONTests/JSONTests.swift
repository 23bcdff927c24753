import Testing

@testable import JSON

@Suite("JSON parser")
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
}
