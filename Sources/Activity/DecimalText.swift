/// Numbers written as text, read the same way everywhere (import files, gauge files, command-line
/// values): a plain decimal, `[+-]? (digits [. digits?] | . digits) ([eE] [+-]? digits)?`. No
/// hex (`0x1p3`), NaN, infinity, digit separators or spaces, which `Double(String)` would let
/// through in part.
public enum DecimalText {
    /// Whether `text` is a plain decimal number (it may still be too large for a finite Double).
    public static func isDecimal(_ text: some StringProtocol) -> Bool {
        isDecimal(bytes: text.utf8)
    }

    static func isDecimal<Bytes: Collection<UInt8>>(bytes: Bytes) -> Bool {
        var i = bytes.startIndex
        func digits() -> Int {
            var n = 0
            while i != bytes.endIndex, (48...57).contains(bytes[i]) {
                n += 1
                i = bytes.index(after: i)
            }
            return n
        }
        if i != bytes.endIndex, bytes[i] == UInt8(ascii: "-") || bytes[i] == UInt8(ascii: "+") {
            i = bytes.index(after: i)
        }
        var mantissa = digits()
        if i != bytes.endIndex, bytes[i] == UInt8(ascii: ".") {
            i = bytes.index(after: i)
            mantissa += digits()
        }
        guard mantissa > 0 else { return false }
        if i != bytes.endIndex, bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E") {
            i = bytes.index(after: i)
            if i != bytes.endIndex, bytes[i] == UInt8(ascii: "-") || bytes[i] == UInt8(ascii: "+") {
                i = bytes.index(after: i)
            }
            guard digits() > 0 else { return false }
        }
        return i == bytes.endIndex
    }
}

extension StringProtocol {
    /// The text without the spaces, tabs and line breaks at either end.
    public var trimmingWhitespace: SubSequence {
        func isSpace(_ c: Character) -> Bool { c == " " || c == "\t" || c == "\n" || c == "\r" || c == "\r\n" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else {
            return self[endIndex...]
        }
        return self[first...last]
    }
}
