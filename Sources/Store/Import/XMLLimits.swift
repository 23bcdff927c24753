/// The text encoding of an XML file, as far as the limits below need to know it.
enum XMLEncoding: Equatable {
    /// UTF-8 (or anything ASCII-compatible).
    case utf8
    case utf16LE, utf16BE

    /// From the first bytes: a UTF-16 byte order mark, or `<` as a 16-bit unit.
    static func detect(_ head: some Collection<UInt8>) -> XMLEncoding {
        let b = Array(head.prefix(2))
        guard b.count == 2 else { return .utf8 }
        if b == [0xFF, 0xFE] || b == [0x3C, 0x00] { return .utf16LE }
        if b == [0xFE, 0xFF] || b == [0x00, 0x3C] { return .utf16BE }
        return .utf8
    }
}

/// Bounds on one piece of markup, checked on the bytes before libxml2 parses them, so no input
/// can make the parser hold or rescan a huge token (libxml2 2.9's push parser is quadratic on one,
/// and checks an element's attributes for duplicates in quadratic time), and a refusal comes with
/// `line:column` in bounded time and memory:
///
/// - a start or end tag with its attributes, a comment, a processing instruction, a CDATA section,
///   or the DOCTYPE with its internal subset: at most `maxToken` bytes (1 MB; a real export's
///   largest tag is a few hundred bytes, its DTD about 10 KB);
/// - an element: at most `maxAttributes` attributes (a real export's have up to about 15).
///
/// Text between elements is not bounded: libxml2 reads it as it comes.
struct XMLLimits {
    static let maxToken = 1 << 20
    static let maxAttributes = 256

    /// What went wrong, and where the piece of markup starts (1-based).
    struct Exceeded: Error {
        let line: Int
        let column: Int
        let message: String
    }

    let encoding: XMLEncoding

    private enum State: UInt8 {
        case text, open, tag, tagQuote, pi, piQuestion
        case bang, bangDash, comment, commentDash, commentDashDash, cdata, cdataBracket, cdataBrackets
        case doctype, doctypeQuote, doctypeOpen, doctypeBang, doctypeBangDash, doctypeComment, doctypeCommentDash,
            doctypeCommentDashDash, doctypePI, doctypePIQuestion
    }

    private var state = State.text
    private var quote: UInt16 = 0
    private var depth = 0
    private var attributes = 0
    /// Units since the piece of markup began.
    private var length = 0
    private var line = 1
    /// Units on the current line so far.
    private var column = 0
    private var tokenLine = 1
    private var tokenColumn = 1
    /// The first byte of a UTF-16 unit split between two chunks.
    private var pendingByte: UInt8?

    init(encoding: XMLEncoding) { self.encoding = encoding }

    /// Checks the next bytes of the file.
    mutating func scan(_ bytes: UnsafeRawBufferPointer) throws(Exceeded) {
        guard !bytes.isEmpty else { return }
        switch encoding {
        case .utf8:
            for b in bytes.bindMemory(to: UInt8.self) { try step(UInt16(b)) }
        case .utf16LE, .utf16BE:
            var i = 0
            if let first = pendingByte {
                pendingByte = nil
                try step(unit(first, bytes[0]))
                i = 1
            }
            while i + 1 < bytes.count {
                try step(unit(bytes[i], bytes[i + 1]))
                i += 2
            }
            if i < bytes.count { pendingByte = bytes[i] }
        }
    }

    private func unit(_ a: UInt8, _ b: UInt8) -> UInt16 {
        encoding == .utf16LE ? UInt16(a) | UInt16(b) << 8 : UInt16(a) << 8 | UInt16(b)
    }

    @inline(__always)
    private mutating func step(_ c: UInt16) throws(Exceeded) {
        if c == 10 {
            line += 1
            column = 0
        } else if c & 0xC0 != 0x80 || encoding != .utf8 {
            column += 1  // UTF-8 continuation bytes are not columns
        }
        if state == .text {
            if c == 0x3C {  // <
                state = .open
                length = 1
                attributes = 0
                tokenLine = line
                tokenColumn = column
            }
            return
        }
        length += 1
        if length > Self.maxToken {
            throw Exceeded(
                line: tokenLine, column: tokenColumn,
                message: "\(what) is longer than \(Self.maxToken >> 20) MB (no Apple Health export has one near that size)")
        }
        switch state {
        case .text: break
        case .open:
            switch c {
            case 0x21: state = .bang  // <!
            case 0x3F: state = .pi  // <?
            case 0x3E: state = .text  // <>: malformed, libxml2 says so
            default: state = .tag
            }
        case .tag:
            switch c {
            case 0x22, 0x27:
                quote = c
                state = .tagQuote
            case 0x3D:  // =
                attributes += 1
                if attributes > Self.maxAttributes {
                    throw Exceeded(
                        line: tokenLine, column: tokenColumn,
                        message: "an element with more than \(Self.maxAttributes) attributes (an export's have about 15)")
                }
            case 0x3E: state = .text
            default: break
            }
        case .tagQuote: if c == quote { state = .tag }
        case .pi: if c == 0x3F { state = .piQuestion }
        case .piQuestion: state = c == 0x3E ? .text : c == 0x3F ? .piQuestion : .pi
        case .bang:
            switch c {
            case 0x2D: state = .bangDash
            case 0x5B: state = .cdata  // <![CDATA[ …
            default:
                state = .doctype
                depth = 0
            }
        case .bangDash:
            if c == 0x2D {
                state = .comment
            } else {
                state = .doctype
                depth = 0
            }
        case .comment: if c == 0x2D { state = .commentDash }
        case .commentDash: state = c == 0x2D ? .commentDashDash : .comment
        case .commentDashDash: state = c == 0x3E ? .text : c == 0x2D ? .commentDashDash : .comment
        case .cdata: if c == 0x5D { state = .cdataBracket }
        case .cdataBracket: state = c == 0x5D ? .cdataBrackets : .cdata
        case .cdataBrackets: state = c == 0x3E ? .text : c == 0x5D ? .cdataBrackets : .cdata
        case .doctype:
            switch c {
            case 0x22, 0x27:
                quote = c
                state = .doctypeQuote
            case 0x5B: depth += 1
            case 0x5D: depth = max(0, depth - 1)
            case 0x3C: if depth > 0 { state = .doctypeOpen }
            case 0x3E: if depth == 0 { state = .text }
            default: break
            }
        case .doctypeQuote: if c == quote { state = .doctype }
        case .doctypeOpen:
            switch c {
            case 0x21: state = .doctypeBang
            case 0x3F: state = .doctypePI
            default: state = .doctype
            }
        case .doctypeBang: state = c == 0x2D ? .doctypeBangDash : .doctype
        case .doctypeBangDash: state = c == 0x2D ? .doctypeComment : .doctype
        case .doctypeComment: if c == 0x2D { state = .doctypeCommentDash }
        case .doctypeCommentDash: state = c == 0x2D ? .doctypeCommentDashDash : .doctypeComment
        case .doctypeCommentDashDash:
            state = c == 0x3E ? .doctype : c == 0x2D ? .doctypeCommentDashDash : .doctypeComment
        case .doctypePI: if c == 0x3F { state = .doctypePIQuestion }
        case .doctypePIQuestion: state = c == 0x3E ? .doctype : c == 0x3F ? .doctypePIQuestion : .doctypePI
        }
    }

    /// The piece of markup being read, in words.
    private var what: String {
        switch state {
        case .tag, .tagQuote, .open: "a tag (with its attributes)"
        case .pi, .piQuestion: "a processing instruction"
        case .comment, .commentDash, .commentDashDash, .bangDash: "a comment"
        case .cdata, .cdataBracket, .cdataBrackets: "a CDATA section"
        default: "the DOCTYPE (with its DTD)"
        }
    }
}
