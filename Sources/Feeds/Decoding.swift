import Activity
import JSON

/// A request body that is not what the endpoint takes: where (a JSON path such as
/// `$.data.metrics[2].data[5].qty`) and what was expected. Answered with 400.
public struct FeedError: Error, Sendable, Equatable, CustomStringConvertible {
    public let path: String
    public let message: String
    public init(path: String, _ message: String) {
        self.path = path
        self.message = message
    }
    public var description: String { "\(path): \(message)" }
}

/// A JSON value and where it is in the body, for errors that name the place.
public struct Located: Sendable {
    public let value: JSON
    public let path: String

    public init(_ value: JSON, path: String = "$") {
        self.value = value
        self.path = path
    }

    /// Values a body of `bytes` bytes may hold: one per 8 bytes (and 64 more). Every body an
    /// endpoint takes has fewer (a day in {"days": […]} is 3 values in 37 bytes, a Health Auto
    /// Export sample 3 in 45); `[0,0,0,…]` would be a value per 2 bytes, a tree 12 times its text.
    public static func valueLimit(_ bytes: Int) -> Int { bytes / 8 + 64 }

    /// Parses a body in place (no copy of it): malformed JSON is an error at `$` with line and
    /// column; more values than `valueLimit` an error too, so the tree is at most about 3 times
    /// the body.
    public static func parse(_ body: [UInt8]) throws(FeedError) -> Located {
        // The cheapest refusal first: a pass that counts, before the UTF-8 check and any tree.
        guard JSONParser.mostValues(body) <= valueLimit(body.count) else {
            throw FeedError(
                path: "$", "more JSON values than any request holds in \(body.count) bytes (at most one per 8 bytes)")
        }
        guard JSONParser.isUTF8(body) else {
            throw FeedError(path: "$", "the body is not UTF-8 text")
        }
        do {
            return Located(try JSONParser.parse(bytes: body, maxValues: valueLimit(body.count)))
        } catch {
            throw FeedError(path: "$", "malformed JSON: \(error)")
        }
    }

    func expected(_ what: String) -> FeedError {
        FeedError(path: path, "expected \(what), found \(value.kind)")
    }

    public func members() throws(FeedError) -> [(key: String, value: Located)] {
        guard case .object(let members) = value else { throw expected("an object") }
        return members.map { ($0.key, Located($0.value, path: path + "." + Quote.clip($0.key))) }
    }

    /// The member `key`, nil when absent.
    public func member(_ key: String) throws(FeedError) -> Located? {
        guard case .object(let members) = value else { throw expected("an object") }
        return members.first { $0.key == key }.map { Located($0.value, path: path + "." + key) }
    }

    public func required(_ key: String) throws(FeedError) -> Located {
        guard let m = try member(key) else { throw FeedError(path: path + "." + key, "missing") }
        return m
    }

    /// The elements, each with its path made when it is asked for (not a path string for every
    /// element of a long array at once).
    public func elements() throws(FeedError) -> Elements {
        guard case .array(let items) = value else { throw expected("an array") }
        return Elements(items: items, path: path)
    }

    public struct Elements: RandomAccessCollection, Sendable {
        let items: [JSON]
        let path: String
        public var startIndex: Int { 0 }
        public var endIndex: Int { items.count }
        public subscript(i: Int) -> Located { Located(items[i], path: path + "[\(i)]") }
    }

    public func string() throws(FeedError) -> String {
        guard case .string(let s) = value else { throw expected("a string") }
        return s
    }

    /// A string the store keeps and the panel may draw: no control character (a NUL would cut it
    /// short further on), at most `characters` characters or `bytes` bytes.
    public func text(characters: Int? = nil, bytes: Int? = nil) throws(FeedError) -> String {
        let s = try string()
        if let problem = TextLimit.problem(s, characters: characters, bytes: bytes) { throw FeedError(path: path, problem) }
        return s
    }

    public func number() throws(FeedError) -> Double {
        guard case .number(let x) = value, x.isFinite else { throw expected("a number") }
        return x
    }

    public func bool() throws(FeedError) -> Bool {
        guard case .bool(let b) = value else { throw expected("true or false") }
        return b
    }

    public var isNull: Bool { value == .null }

    /// Refuses members other than `known` (a misspelt field must not pass silently).
    public func only(_ known: Set<String>) throws(FeedError) {
        for (key, _) in try members() where !known.contains(key) {
            throw FeedError(
                path: path + "." + Quote.clip(key), "unknown field (the fields are \(known.sorted().joined(separator: ", ")))")
        }
    }
}
