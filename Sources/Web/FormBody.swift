// A form's body as browsers send it (application/x-www-form-urlencoded), read strictly and within
// bounds: a hostile body is refused with what is wrong, never half taken.
import Activity

/// The fields of a form, in order.
public struct FormBody: Sendable, Equatable {
    public var fields: [(name: String, value: String)]

    public static func == (a: FormBody, b: FormBody) -> Bool {
        a.fields.count == b.fields.count && zip(a.fields, b.fields).allSatisfy { $0.name == $1.name && $0.value == $1.value }
    }

    /// The most fields a form of the page has (the settings' biggest group is far fewer).
    public static let maximumFields = 200
    /// The longest value (a gauge or the schedule as JSON; the file itself is at most 4 MiB).
    public static let maximumValueBytes = 256 * 1024

    /// The first value of `name`.
    public subscript(name: String) -> String? { fields.first { $0.name == name }?.value }

    /// Every value of `name`, in order.
    public func all(_ name: String) -> [String] { fields.filter { $0.name == name }.map(\.value) }

    public init(fields: [(name: String, value: String)]) { self.fields = fields }

    /// `bytes` read as `name=value&…` with `+` for a space and `%XX` escapes; nil with the reason
    /// for a body that is not one (a bad escape, not UTF-8 once decoded, too many fields, a value
    /// too long).
    public static func parse(_ bytes: [UInt8]) -> Result<FormBody, FormBodyError> {
        var fields: [(String, String)] = []
        for part in bytes.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true) {
            guard fields.count < maximumFields else {
                return .failure(FormBodyError("more than \(maximumFields) fields"))
            }
            let pieces = part.split(separator: UInt8(ascii: "="), maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = decode(pieces[0]), !name.isEmpty else {
                return .failure(FormBodyError("a field's name is not a URL-encoded UTF-8 name"))
            }
            guard let value = pieces.count > 1 ? decode(pieces[1]) : "" else {
                return .failure(FormBodyError("the field \(Quote.clip(name, 40)) is not URL-encoded UTF-8 text"))
            }
            guard value.utf8.count <= maximumValueBytes else {
                return .failure(FormBodyError("the field \(Quote.clip(name, 40)) is longer than \(maximumValueBytes) bytes"))
            }
            fields.append((name, value))
        }
        return .success(FormBody(fields: fields))
    }

    /// A query's or a form's text decoded: `+` a space, `%XX` a byte; nil for a broken escape or
    /// bytes that are not UTF-8.
    public static func decode<C: Collection>(_ encoded: C) -> String? where C.Element == UInt8 {
        var out: [UInt8] = []
        out.reserveCapacity(encoded.count)
        var i = encoded.startIndex
        while i != encoded.endIndex {
            let b = encoded[i]
            if b == UInt8(ascii: "+") {
                out.append(0x20)
            } else if b == UInt8(ascii: "%") {
                let h = encoded.index(after: i)
                guard h != encoded.endIndex else { return nil }
                let l = encoded.index(after: h)
                guard l != encoded.endIndex, let hi = hexValue(encoded[h]), let lo = hexValue(encoded[l]) else { return nil }
                out.append(hi << 4 | lo)
                i = l
            } else {
                out.append(b)
            }
            i = encoded.index(after: i)
        }
        return String(validating: out, as: UTF8.self)
    }

    static func hexValue(_ b: UInt8) -> UInt8? {
        switch b {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): b - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): b - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): b - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}

public struct FormBodyError: Error, Sendable, Equatable {
    public var message: String
    public init(_ message: String) { self.message = message }
}
