import Activity
import JSON

/// The number in a message from the home (an MQTT payload, a command's output).
public enum Payload {
    /// Why a payload gave no number.
    public struct Problem: Error, Sendable, Equatable, CustomStringConvertible {
        public let message: String
        public var description: String { message }
    }

    /// A bare number (`21.5`, surrounding spaces ignored), or JSON from which `field` — a dotted
    /// path into objects and arrays (`state.attributes.temperature`, `values.0`) — picks a
    /// number (or a string holding one, as Home Assistant writes states). Without `field`, JSON
    /// must be a number itself.
    public static func number(_ payload: [UInt8], field: String?) -> Result<Double, Problem> {
        guard let text = String(validating: payload, as: UTF8.self) else {
            return .failure(Problem(message: "not UTF-8 text"))
        }
        let trimmed = text.trimmingCharacters
        if field == nil, let x = plainNumber(trimmed) { return .success(x) }
        let json: JSON
        do {
            json = try JSONParser.parse(String(trimmed))
        } catch {
            return .failure(Problem(message: field == nil ? "not a number: \(clip(trimmed))" : "not JSON: \(error)"))
        }
        var value = json
        var walked = "$"
        for key in (field ?? "").split(separator: ".", omittingEmptySubsequences: true) {
            switch value {
            case .object:
                guard let next = value[String(key)] else {
                    return .failure(Problem(message: "no \(key) in \(walked)"))
                }
                value = next
            case .array(let items):
                guard let i = Int(key), items.indices.contains(i) else {
                    return .failure(Problem(message: "no element \(key) in \(walked) (\(items.count) elements)"))
                }
                value = items[i]
            default:
                return .failure(Problem(message: "\(walked) is \(value.kind), not an object to find \(key) in"))
            }
            walked += "." + key
        }
        switch value {
        case .number(let x) where x.isFinite: return .success(x)
        case .string(let s):
            if let x = plainNumber(s.trimmingCharacters) { return .success(x) }
            return .failure(Problem(message: "\(walked) is \"\(clip(s))\", not a number"))
        default: return .failure(Problem(message: "\(walked) is \(value.kind), not a number"))
        }
    }

    /// `-12.5`, `3e2`: a finite decimal number and nothing else.
    static func plainNumber(_ s: Substring) -> Double? {
        guard !s.isEmpty, s.count <= 40,
            s.allSatisfy({ "0123456789+-.eE".contains($0) }), let x = Double(s), x.isFinite
        else { return nil }
        return x
    }

    /// The first number in a command's output, or the first group of `match` (nil: none).
    public static func firstNumber(in text: Substring) -> Double? {
        var i = text.startIndex
        while i < text.endIndex {
            let c = text[i]
            if c.isNumber || ((c == "-" || c == ".") && text.index(after: i) < text.endIndex && text[text.index(after: i)].isNumber) {
                var j = text.index(after: i)
                while j < text.endIndex, "0123456789.".contains(text[j]) { j = text.index(after: j) }
                if let x = Double(text[i..<j]), x.isFinite { return x }
                i = j
            } else {
                i = text.index(after: i)
            }
        }
        return nil
    }

    /// What the message held, briefly and on one line.
    static func clip(_ s: some StringProtocol) -> String { Quote.clip(s, 30) }
}

extension StringProtocol {
    var trimmingCharacters: Substring {
        var s = self[...]
        while let f = s.first, f.isWhitespace { s = s.dropFirst() }
        while let l = s.last, l.isWhitespace { s = s.dropLast() }
        return Substring(s)
    }
}
