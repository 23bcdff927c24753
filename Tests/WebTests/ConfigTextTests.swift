import Foundation
import JSON
import Testing

@testable import Web

/// The configuration file's text edited in place (issue 41: "unknown keys, order and formatting
/// of untouched parts preserved"). Every edit is checked four ways: the result is read by the
/// project's JSON reader, the value at the path reads back as set, every other value is the same
/// (the whole tree compared with the old one edited as a tree), and the bytes are the ones
/// written out by hand here (or, for the repository's files, the old text with the one span
/// replaced).
@Suite("ConfigText: the configuration file edited in place", .timeLimit(.minutes(20)))
struct ConfigTextTests {
    typealias Step = ConfigText.Step

    static let root: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.path
    }()

    static func file(_ name: String) throws -> String {
        try String(contentsOfFile: root + "/device/" + name, encoding: .utf8)
    }

    static func path(_ dotted: String) -> [Step] {
        guard let steps = ConfigText.path(dotted) else { fatalError("not a path: \(dotted)") }
        return steps
    }

    /// `tree` with the value at `path` changed by `change` (nil: removed), objects and arrays on
    /// the way made as the text's edit makes them.
    static func edited(_ tree: JSON?, _ path: ArraySlice<Step>, _ change: (JSON?) -> JSON?) -> JSON? {
        guard let step = path.first else { return change(tree) }
        switch step {
        case .key(let key):
            var members: [(key: String, value: JSON)] = []
            if case .object(let old)? = tree { members = old }
            let at = members.firstIndex { $0.key == key }
            let new = edited(at.map { members[$0].value }, path.dropFirst(), change)
            switch (at, new) {
            case (let at?, let new?): members[at].value = new
            case (let at?, nil): members.remove(at: at)
            case (nil, let new?): members.append((key, new))
            case (nil, nil): break
            }
            return .object(members)
        case .index(let index):
            var items: [JSON] = []
            if case .array(let old)? = tree { items = old }
            let new = edited(items.indices.contains(index) ? items[index] : nil, path.dropFirst(), change)
            switch (items.indices.contains(index), new) {
            case (true, let new?): items[index] = new
            case (true, nil): items.remove(at: index)
            case (false, let new?): items.append(new)
            case (false, nil): break
            }
            return .array(items)
        }
    }

    static func parsed(_ text: String) throws -> JSON {
        try JSONParser.parse(text.allSatisfy(\.isWhitespace) ? "{}" : text)
    }

    /// Sets and checks: the result parses, the value reads back, the rest of the tree is the
    /// same, the text is `expected`.
    @discardableResult
    static func set(_ text: String, _ dotted: String, _ json: String, expected: String? = nil) throws -> String {
        let path = path(dotted)
        let result = try ConfigText(text).setting(path, to: json).text
        let tree = try parsed(result)
        let value = try #require(ConfigText(result).value(at: path), "\(dotted) absent after setting it")
        #expect(try JSONParser.parse(value) == JSONParser.parse(json), "\(dotted): \(value)")
        #expect(tree == edited(try parsed(text), path[...], { _ in try? JSONParser.parse(json) }), "\(dotted): the other values changed")
        if let expected { #expect(result == expected, "\(dotted):\n\(result)\n--- expected ---\n\(expected)") }
        return result
    }

    @discardableResult
    static func remove(_ text: String, _ dotted: String, expected: String? = nil) throws -> String {
        let path = path(dotted)
        let result = try ConfigText(text).removing(path).text
        let tree = try parsed(result)
        if case .key? = path.last { #expect(ConfigText(result).value(at: path) == nil, "\(dotted) still there") }
        #expect(tree == edited(try parsed(text), path[...], { _ in nil }), "\(dotted): the other values changed")
        if let expected { #expect(result == expected, "\(dotted):\n\(result)\n--- expected ---\n\(expected)") }
        return result
    }

    @discardableResult
    static func append(_ text: String, _ dotted: String, _ json: String, expected: String? = nil) throws -> String {
        let path = path(dotted)
        let result = try ConfigText(text).appending(json, to: path).text
        let tree = try parsed(result)
        let edited = edited(try parsed(text), path[...]) { old in
            guard case .array(let items)? = old else { return .array([try! JSONParser.parse(json)]) }
            return .array(items + [try! JSONParser.parse(json)])
        }
        #expect(tree == edited, "\(dotted): the other values changed")
        if let expected { #expect(result == expected, "\(dotted):\n\(result)\n--- expected ---\n\(expected)") }
        return result
    }

    // MARK: Compact

    @Test("a compact file stays compact")
    func compact() throws {
        try Self.set(#"{"a":1}"#, "a", "2", expected: #"{"a":2}"#)
        try Self.set(#"{"a":1}"#, "b", #""x""#, expected: #"{"a":1,"b":"x"}"#)
        try Self.set(#"{"a":1}"#, "c.d", "true", expected: #"{"a":1,"c":{"d":true}}"#)
        try Self.set(#"{"a": 1, "b": 2}"#, "c", "3", expected: #"{"a": 1, "b": 2, "c": 3}"#)
        try Self.set(#"{ "a" : 1 }"#, "b", "2", expected: #"{ "a" : 1, "b" : 2 }"#)
        try Self.remove(#"{"a":1}"#, "a", expected: "{}")
        try Self.remove(#"{"a":1,"b":2,"c":3}"#, "b", expected: #"{"a":1,"c":3}"#)
        try Self.append(#"{"a":[1,2]}"#, "a", "3", expected: #"{"a":[1,2,3]}"#)
        try Self.append(#"{"a":[]}"#, "a", "1", expected: #"{"a":[1]}"#)
        try Self.append(#"{"a":[1]}"#, "a", "2", expected: #"{"a":[1,2]}"#)
        try Self.append(#"{"a": [1]}"#, "a", "2", expected: #"{"a": [1, 2]}"#)
        try Self.set(#"{"a": 1}"#, "b", "2", expected: #"{"a": 1, "b": 2}"#)
        // An empty object in a one-line file stays on the line (in a multi-line one it opens lines).
        try Self.set(#"{"a": {}}"#, "a.b", "2", expected: #"{"a": {"b": 2}}"#)
    }

    // MARK: Pretty files

    static let twoSpaces = """
        {
          "name": "Alex",
          "display": {
            "mode": "720x1280@60",
            "rotate": 90
          },
          "screens": ["rings", "clock"]
        }

        """

    @Test("a 2-space file: replaced in place, added at the end of the innermost object in its style")
    func twoSpace() throws {
        try Self.set(Self.twoSpaces, "display.rotate", "180", expected: Self.twoSpaces.replacingOccurrences(of: "90", with: "180"))
        try Self.set(
            Self.twoSpaces, "display.legacy", "false",
            expected: Self.twoSpaces.replacingOccurrences(of: "\"rotate\": 90", with: "\"rotate\": 90,\n    \"legacy\": false"))
        try Self.set(
            Self.twoSpaces, "touch", "{\n  \"swapXY\": true,\n  \"invertX\": false\n}",
            expected: Self.twoSpaces.replacingOccurrences(
                of: "\"clock\"]\n", with: "\"clock\"],\n  \"touch\": {\n    \"swapXY\": true,\n    \"invertX\": false\n  }\n"))
        try Self.set(
            Self.twoSpaces, "idle.dimAfter", "60",
            expected: Self.twoSpaces.replacingOccurrences(of: "\"clock\"]\n", with: "\"clock\"],\n  \"idle\": {\n    \"dimAfter\": 60\n  }\n"))
        // A whole object replaced by a multi-line text: indented as the line it lands on.
        try Self.set(
            Self.twoSpaces, "display", "{\n  \"mode\": null\n}",
            expected: Self.twoSpaces.replacingOccurrences(
                of: "{\n    \"mode\": \"720x1280@60\",\n    \"rotate\": 90\n  }", with: "{\n    \"mode\": null\n  }"))
        try Self.append(
            Self.twoSpaces, "screens", #""gauges""#,
            expected: Self.twoSpaces.replacingOccurrences(of: "\"clock\"]", with: "\"clock\", \"gauges\"]"))
    }

    @Test("a 4-space file: objects made on the way are indented by 4")
    func fourSpaces() throws {
        let text = "{\n    \"name\": \"Alex\",\n    \"display\": {\n        \"rotate\": 90\n    }\n}\n"
        try Self.set(
            text, "clock.format", #""24h""#,
            expected: "{\n    \"name\": \"Alex\",\n    \"display\": {\n        \"rotate\": 90\n    },\n    \"clock\": {\n        \"format\": \"24h\"\n    }\n}\n"
        )
        try Self.set(
            text, "display.mode", #""800x480@60""#,
            expected: "{\n    \"name\": \"Alex\",\n    \"display\": {\n        \"rotate\": 90,\n        \"mode\": \"800x480@60\"\n    }\n}\n")
    }

    @Test("a tab-indented file: tabs kept and used")
    func tabs() throws {
        let text = "{\n\t\"name\": \"Alex\",\n\t\"keys\": {}\n}\n"
        try Self.set(text, "keys.KEY_F1", #""help""#, expected: "{\n\t\"name\": \"Alex\",\n\t\"keys\": {\n\t\t\"KEY_F1\": \"help\"\n\t}\n}\n")
        try Self.set(
            text, "gauges[0].title", #""CPU""#,
            expected: "{\n\t\"name\": \"Alex\",\n\t\"keys\": {},\n\t\"gauges\": [\n\t\t{\n\t\t\t\"title\": \"CPU\"\n\t\t}\n\t]\n}\n")
    }

    @Test("CRLF line ends: kept, and used for the lines added")
    func crlf() throws {
        let text = "{\r\n  \"a\": 1,\r\n  \"b\": {\r\n    \"c\": 2\r\n  }\r\n}\r\n"
        try Self.set(text, "b.d", "3", expected: "{\r\n  \"a\": 1,\r\n  \"b\": {\r\n    \"c\": 2,\r\n    \"d\": 3\r\n  }\r\n}\r\n")
        try Self.set(text, "e", "{\n  \"f\": 4\n}", expected: "{\r\n  \"a\": 1,\r\n  \"b\": {\r\n    \"c\": 2\r\n  },\r\n  \"e\": {\r\n    \"f\": 4\r\n  }\r\n}\r\n")
        try Self.set(text, "x.y", "5", expected: "{\r\n  \"a\": 1,\r\n  \"b\": {\r\n    \"c\": 2\r\n  },\r\n  \"x\": {\r\n    \"y\": 5\r\n  }\r\n}\r\n")
        try Self.remove(text, "a", expected: "{\r\n  \"b\": {\r\n    \"c\": 2\r\n  }\r\n}\r\n")
        try Self.remove(text, "b", expected: "{\r\n  \"a\": 1\r\n}\r\n")
        #expect(ConfigText(text).value(at: [.key("b")]) == "{\n  \"c\": 2\n}")
    }

    @Test("an empty object, an empty file: members on lines of their own, 2 spaces a level")
    func nestedCreation() throws {
        let made = "{\n  \"display\": {\n    \"mode\": \"720x1280@60\"\n  }\n}"
        try Self.set("{}", "display.mode", #""720x1280@60""#, expected: made)
        try Self.set("{}\n", "display.mode", #""720x1280@60""#, expected: made + "\n")
        try Self.set("", "display.mode", #""720x1280@60""#, expected: made + "\n")
        try Self.set(" \n", "display.mode", #""720x1280@60""#, expected: made + "\n")
        try Self.set("{ }", "a", "1", expected: "{\n  \"a\": 1\n}")
        try Self.append("{}", "screens", #""rings""#, expected: "{\n  \"screens\": [\"rings\"]\n}")
        try Self.append("{}", "refresh", #"["/usr/bin/touch", "/tmp/r"]"#, expected: "{\n  \"refresh\": [\n    [\"/usr/bin/touch\", \"/tmp/r\"]\n  ]\n}")
        #expect(ConfigText("").value(at: []) == "{}")
        #expect(ConfigText("").value(at: [.key("a")]) == nil)
        #expect(try ConfigText("").removing([.key("a")]) == ConfigText(""))
    }

    @Test("removal of the first, a middle, the last and the only member: the neighbours' formatting kept")
    func removal() throws {
        let text = "{\n  \"a\": 1,\n  \"b\": [2, 3],\n  \"c\": {\"d\": 4},\n  \"e\": null\n}\n"
        try Self.remove(text, "a", expected: "{\n  \"b\": [2, 3],\n  \"c\": {\"d\": 4},\n  \"e\": null\n}\n")
        try Self.remove(text, "c", expected: "{\n  \"a\": 1,\n  \"b\": [2, 3],\n  \"e\": null\n}\n")
        try Self.remove(text, "e", expected: "{\n  \"a\": 1,\n  \"b\": [2, 3],\n  \"c\": {\"d\": 4}\n}\n")
        try Self.remove(text, "c.d", expected: "{\n  \"a\": 1,\n  \"b\": [2, 3],\n  \"c\": {},\n  \"e\": null\n}\n")
        try Self.remove(text, "b[0]", expected: "{\n  \"a\": 1,\n  \"b\": [3],\n  \"c\": {\"d\": 4},\n  \"e\": null\n}\n")
        try Self.remove(text, "b[1]", expected: "{\n  \"a\": 1,\n  \"b\": [2],\n  \"c\": {\"d\": 4},\n  \"e\": null\n}\n")
        try Self.remove("{\n  \"only\": true\n}\n", "only", expected: "{}\n")
        // Absent: unchanged.
        for absent in ["x", "c.x", "x.y", "b[2]"] {
            #expect(try ConfigText(text).removing(Self.path(absent)).text == text, "\(absent)")
        }
    }

    static let gauges = """
        {
          "gauges": [
            {
              "title": "CPU",
              "unit": "°C"
            },
            {
              "title": "Battery",
              "unit": "%"
            }
          ]
        }

        """

    @Test("a list of gauges: an element's member set, an element removed, one appended, set at the count")
    func gaugeList() throws {
        try Self.set(Self.gauges, "gauges[1].unit", #""‰""#, expected: Self.gauges.replacingOccurrences(of: "\"%\"", with: "\"‰\""))
        try Self.set(
            Self.gauges, "gauges[0].max", "85",
            expected: Self.gauges.replacingOccurrences(of: "\"°C\"\n", with: "\"°C\",\n      \"max\": 85\n"))
        let removedFirst = "{\n  \"gauges\": [\n    {\n      \"title\": \"Battery\",\n      \"unit\": \"%\"\n    }\n  ]\n}\n"
        try Self.remove(Self.gauges, "gauges[0]", expected: removedFirst)
        let removedLast = "{\n  \"gauges\": [\n    {\n      \"title\": \"CPU\",\n      \"unit\": \"°C\"\n    }\n  ]\n}\n"
        try Self.remove(Self.gauges, "gauges[1]", expected: removedLast)
        try Self.remove(removedLast, "gauges[0]", expected: "{\n  \"gauges\": []\n}\n")
        let added = Self.gauges.replacingOccurrences(
            of: "\"%\"\n    }\n", with: "\"%\"\n    },\n    {\n      \"title\": \"SoC\",\n      \"min\": 30\n    }\n")
        try Self.append(Self.gauges, "gauges", "{\n  \"title\": \"SoC\",\n  \"min\": 30\n}", expected: added)
        try Self.set(Self.gauges, "gauges[2]", "{\n  \"title\": \"SoC\",\n  \"min\": 30\n}", expected: added)
        try Self.set(
            Self.gauges, "gauges[2].title", #""SoC""#,
            expected: Self.gauges.replacingOccurrences(
                of: "\"%\"\n    }\n", with: "\"%\"\n    },\n    {\n      \"title\": \"SoC\"\n    }\n"))
        try Self.append(
            "{\n  \"gauges\": []\n}\n", "gauges", #"{"title": "CPU"}"#, expected: "{\n  \"gauges\": [\n    {\"title\": \"CPU\"}\n  ]\n}\n")
        #expect(ConfigText(Self.gauges).value(at: Self.path("gauges[1]")) == "{\n  \"title\": \"Battery\",\n  \"unit\": \"%\"\n}")
        #expect(ConfigText(Self.gauges).value(at: Self.path("gauges[2]")) == nil)
    }

    @Test("unicode, escapes and number spellings outside the edit kept byte for byte")
    func spellingsKept() throws {
        let text = #"{"title": "°C \u00b0 \"q\" \ud83d\ude00 \/", "long": 1.50, "big": 1e3, "neg": -0.0, "é\u0301": "x", "n": 1}"#
        try Self.set(text, "n", "2", expected: text.replacingOccurrences(of: #""n": 1}"#, with: #""n": 2}"#))
        try Self.set(text, "long", "1.5E0", expected: text.replacingOccurrences(of: "1.50", with: "1.5E0"))
        try Self.set(text, "é\u{301}", #""\u0079""#, expected: text.replacingOccurrences(of: #""x""#, with: #""\u0079""#))
        try Self.remove(text, "big", expected: text.replacingOccurrences(of: #" "big": 1e3,"#, with: ""))
        #expect(ConfigText(text).value(at: [.key("title")]) == #""°C \u00b0 \"q\" \ud83d\ude00 \/""#)
        #expect(ConfigText(text).value(at: [.key("long")]) == "1.50")
        // A key that needs escapes, added.
        try Self.set(#"{"a": 1}"#, "b", "2")
        let quoted = try ConfigText(#"{"a": 1}"#).setting([.key("q\"\\\n\u{1}")], to: "2").text
        #expect(quoted == #"{"a": 1, "q\"\\\n\u0001": 2}"#)
    }

    // MARK: The repository's files

    /// Every member and element of `text`, as paths.
    static func paths(_ tree: JSON, _ prefix: [Step] = []) -> [[Step]] {
        switch tree {
        case .object(let members): members.flatMap { [prefix + [.key($0.key)]] + paths($0.value, prefix + [.key($0.key)]) }
        case .array(let items): items.indices.flatMap { [prefix + [.index($0)]] + paths(items[$0], prefix + [.index($0)]) }
        default: []
        }
    }

    @Test("every member and element of the shipped files set to its own text: the file unchanged", arguments: ["config.example.json", "config.json"])
    func ownValues(name: String) throws {
        let text = try Self.file(name)
        let paths = Self.paths(try JSONParser.parse(text))
        #expect(paths.count > 30)
        for path in paths {
            let value = try #require(ConfigText(text).value(at: path))
            #expect(try ConfigText(text).setting(path, to: value).text == text, "\(ConfigText.describe(path))")
        }
    }

    @Test("edits of the shipped files: one span changed")
    func shippedFiles() throws {
        let example = try Self.file("config.example.json")
        try Self.set(
            example, "display.mode", #""800x480@60""#,
            expected: example.replacingOccurrences(of: #""mode": "720x1280@60""#, with: #""mode": "800x480@60""#))
        try Self.set(
            example, "longPressSeconds", "0.8",
            expected: example.replacingOccurrences(of: #""longPressSeconds": 1.0"#, with: #""longPressSeconds": 0.8"#))
        try Self.set(
            example, "gauges[3].min", "0",
            expected: example.replacingOccurrences(of: "\"humidity\"}\n    }", with: "\"humidity\"},\n      \"min\": 0\n    }"))
        try Self.set(
            example, "touch.swapXY", "false",
            expected: example.replacingOccurrences(of: #"{"swapXY": true"#, with: #"{"swapXY": false"#))
        try Self.set(
            example, "idle.dimLevel", "40",
            expected: example.replacingOccurrences(of: #""dimLevel": 25}"#, with: #""dimLevel": 40}"#))
        try Self.set(
            example, "clock.seconds", "true",
            expected: example.replacingOccurrences(of: #""tiny": "time"}"#, with: #""tiny": "time", "seconds": true}"#))
        try Self.set(
            example, "schedule[2].cycle.every", "20",
            expected: example.replacingOccurrences(of: #"{"every": 30"#, with: #"{"every": 20"#))
        try Self.remove(example, "refresh", expected: example.replacingOccurrences(of: ",\n  \"refresh\": [[\"/usr/bin/touch\", \"/var/lib/glance/refresh-requested\"]]", with: ""))
        try Self.remove(example, "name", expected: example.replacingOccurrences(of: "  \"name\": \"Alex\",\n", with: ""))
        try Self.append(
            example, "household.people", #""Bo""#,
            expected: example.replacingOccurrences(of: #"["Me", "Ann"]"#, with: #"["Me", "Ann", "Bo"]"#))

        let shipped = try Self.file("config.json")
        try Self.set(
            shipped, "keys.KEY_F1", #""help""#,
            expected: shipped.replacingOccurrences(of: "\"keys\": {},", with: "\"keys\": {\n    \"KEY_F1\": \"help\"\n  },"))
        try Self.append(
            shipped, "gauges", #"{"title": "CPU", "source": {"file": "/sys/class/thermal/thermal_zone0/temp"}}"#,
            expected: shipped.replacingOccurrences(
                of: "\"gauges\": [],",
                with: "\"gauges\": [\n    {\"title\": \"CPU\", \"source\": {\"file\": \"/sys/class/thermal/thermal_zone0/temp\"}}\n  ],"))
        try Self.remove(shipped, "display.brightness", expected: shipped.replacingOccurrences(of: ",\n    \"brightness\": null", with: ""))
        let display = try #require(shipped.range(of: #"\{\n    "card"[^}]*\}"#, options: .regularExpression))
        try Self.set(shipped, "display", "null", expected: shipped.replacingCharacters(in: display, with: "null"))
    }

    // MARK: Errors

    static func failure(_ text: String, _ edit: (ConfigText) throws -> ConfigText) -> String {
        do {
            let result = try edit(ConfigText(text))
            return "no error: \(result.text)"
        } catch let error as ConfigTextError {
            return error.message
        } catch {
            return "not a ConfigTextError: \(error)"
        }
    }

    @Test("refusals: a text that is not JSON, duplicates, steps through values that are not containers, indexes out of range")
    func errors() {
        let text = "{\n  \"a\": 1,\n  \"b\": [1, 2],\n  \"c\": {\"d\": \"x\"}\n}\n"
        #expect(Self.failure("{\n  \"a\": 1,\n}", { try $0.setting([.key("a")], to: "2") }) == "the file is not valid JSON: line 3, column 1: expected a member name in quotes")
        #expect(Self.failure("{\"a\": 1, \"a\": 2}", { try $0.setting([.key("b")], to: "2") }) == "the file is not valid JSON: line 1, column 10: member \"a\" appears twice")
        #expect(Self.failure(text, { try $0.setting(Self.path("a.b"), to: "2") }) == "a is a number, not an object: it has no \"b\"")
        #expect(Self.failure(text, { try $0.setting(Self.path("c.d.e"), to: "2") }) == "c.d is a string, not an object: it has no \"e\"")
        #expect(Self.failure(text, { try $0.setting(Self.path("c[0]"), to: "2") }) == "c is an object, not a list: it has no item 0")
        #expect(Self.failure("[1]", { try $0.setting(Self.path("a"), to: "2") }) == "the file is a list, not an object: it has no \"a\"")
        #expect(Self.failure(text, { try $0.setting(Self.path("b[3]"), to: "2") }) == "b[3] is out of range: the list has 2 items")
        #expect(Self.failure(text, { try $0.setting([.key("b"), .index(-1)], to: "2") }) == "b[-1] is out of range: the list has 2 items")
        #expect(Self.failure(text, { try $0.setting(Self.path("x[1]"), to: "2") }) == "x[1] is out of range: the list is new, only [0] can be set")
        #expect(Self.failure(text, { try $0.removing(Self.path("a.b")) }) == "a is a number, not an object: it has no \"b\"")
        #expect(Self.failure(text, { try $0.removing([]) }) == "the whole file cannot be removed")
        #expect(Self.failure(text, { try $0.appending("3", to: Self.path("c")) }) == "c is an object, not a list")
        #expect(Self.failure(text, { try $0.setting(Self.path("a"), to: "{") }).hasPrefix("the value is not valid JSON: line 1, column 2"))
        #expect(Self.failure(text, { try $0.setting(Self.path("a"), to: "") }).hasPrefix("the value is not valid JSON"))
        let deep = String(repeating: "[", count: 63) + String(repeating: "]", count: 63)
        #expect(Self.failure(text, { try $0.setting(Self.path("c.d"), to: deep) }).hasPrefix("the edit would give a file that is not valid JSON"))
        #expect(Self.failure(String(repeating: " ", count: ConfigText.maxSize + 1), { try $0.setting(Self.path("a"), to: "1") }) == "the file is larger than 4 MB")
        #expect(ConfigText("{").value(at: []) == nil)
        #expect(ConfigText(text).value(at: Self.path("a.b")) == nil)
    }

    @Test("dotted keys as paths")
    func paths() {
        #expect(ConfigText.path("display.mode") == [.key("display"), .key("mode")])
        #expect(ConfigText.path("gauges[2].unit") == [.key("gauges"), .index(2), .key("unit")])
        #expect(ConfigText.path("refresh[0][1]") == [.key("refresh"), .index(0), .index(1)])
        #expect(ConfigText.path("$.keys.KEY_LEFT") == [.key("keys"), .key("KEY_LEFT")])
        #expect(ConfigText.path("$") == [])
        #expect(ConfigText.path("[3]") == [.index(3)])
        #expect(ConfigText.path("name") == [.key("name")])
        for bad in ["", ".", "a..b", "a.", "a[", "a[]", "a[x]", "a[-1]", "a[1]b", "a]", "a.[1]", "a[99999999999999999999]"] {
            #expect(ConfigText.path(bad) == nil, "\(bad)")
        }
    }
}
