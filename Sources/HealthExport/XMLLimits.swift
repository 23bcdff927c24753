import Store

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Bounds on the markup, checked on the bytes before libxml2 parses them, so no input can make
/// the parser hold or rescan a huge token (libxml2 2.9's push parser is quadratic on one, and
/// checks an element's attributes for duplicates in quadratic time), and a refusal comes with
/// `line:column` in bounded time and memory:
///
/// - a start or end tag with its attributes, a comment, a processing instruction, a CDATA section,
///   or the DOCTYPE with its internal subset: at most `maxToken` bytes (1 MB; a real export's
///   largest tag is a few hundred bytes, its DTD about 10 KB; checked at every 256 KB chunk, so
///   libxml2 never holds more than 1.25 MB of one);
/// - an element: at most `maxAttributes` attributes (a real export's have up to about 15).
///
/// (The names libxml2 keeps in its dictionary, which only grows, and slowly: 1.7 million different
/// names in 20 MB took 88 s and 120 MB, are bounded by the dictionary's own limit, set by
/// `HealthXMLReader` to `maxNameBytes`.)
///
/// Text between elements is not bounded: libxml2 reads it as it comes. Columns count bytes (UTF-16
/// units in a UTF-16 file).
struct XMLLimits {
    static let maxToken = 1 << 20
    static let maxAttributes = 256
    /// The most bytes of different element and attribute names (a real export's are about 3 KB).
    static let maxNameBytes = 256 << 10

    /// What went wrong, and where (1-based).
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
    private var quote: UInt8 = 0
    private var depth = 0
    private var attributes = 0
    /// Where the piece of markup being read begins (an offset in the file, in units).
    private var tokenStart = 0
    /// Its line and column, once worked out (when a chunk ends inside it).
    private var tokenPlace: (line: Int, column: Int)?
    /// The units before the chunk being scanned, the lines they hold, where the last one began.
    private var offset = 0
    private var lines = 1
    private var lineStart = 0
    /// The first byte of a UTF-16 unit split between two chunks.
    private var pendingByte: UInt8?
    /// UTF-16 units as bytes (ASCII as it is, anything else as 0x80), for the one scanner.
    private var narrowed: [UInt8] = []

    init(encoding: XMLEncoding) { self.encoding = encoding }

    /// Checks the next bytes of the file.
    mutating func scan(_ bytes: UnsafeRawBufferPointer) throws(Exceeded) {
        guard !bytes.isEmpty else { return }
        guard encoding != .utf8 else {
            try scanUnits(bytes.bindMemory(to: UInt8.self))
            return
        }
        narrowed.removeAll(keepingCapacity: true)
        var i = 0
        func add(_ a: UInt8, _ b: UInt8) {
            let unit = encoding == .utf16LE ? UInt16(a) | UInt16(b) << 8 : UInt16(a) << 8 | UInt16(b)
            narrowed.append(unit < 0x80 ? UInt8(unit) : 0x80)
        }
        if let first = pendingByte {
            pendingByte = nil
            add(first, bytes[0])
            i = 1
        }
        while i + 1 < bytes.count {
            add(bytes[i], bytes[i + 1])
            i += 2
        }
        if i < bytes.count { pendingByte = bytes[i] }
        let units = narrowed
        defer { narrowed = units }
        // (the error carried out by hand: Swift 6.0's withUnsafeBufferPointer rethrows untyped)
        var exceeded: Exceeded?
        units.withUnsafeBufferPointer { p in
            do throws(Exceeded) { try scanUnits(p) } catch { exceeded = error }
        }
        if let exceeded { throw exceeded }
    }

    /// The state machine over one chunk, its state in locals (the bytes of a 1 GB export pass
    /// through here: about a gigabyte a second).
    private mutating func scanUnits(_ p: UnsafeBufferPointer<UInt8>) throws(Exceeded) {
        guard let base = p.baseAddress else { return }
        let n = p.count
        var state = self.state
        var quote = self.quote
        var depth = self.depth
        var attributes = self.attributes
        var tokenStart = self.tokenStart
        var i = 0
        /// Stores the locals back (before a throw too, so `place` sees the state).
        func save() {
            self.state = state
            self.quote = quote
            self.depth = depth
            self.attributes = attributes
            self.tokenStart = tokenStart
        }
        func fail(_ message: String, at unit: Int? = nil) -> Exceeded {
            save()
            let (line, column) = unit.map { place(offset + $0, in: p) } ?? tokenPlace ?? place(tokenStart, in: p)
            return Exceeded(line: line, column: column, message: message)
        }
        func tooLong(_ what: String) -> Exceeded {
            fail("\(what) is longer than \(Self.maxToken >> 20) MB (no Apple Health export has one near that size)")
        }
        while i < n {
            let c = base[i]
            let before = state
            switch state {
            case .text:
                // Text is skipped to the next '<' at memchr's speed.
                guard let found = memchr(base + i, 0x3C, n - i) else {
                    i = n
                    continue
                }
                i = UnsafePointer<UInt8>(found.assumingMemoryBound(to: UInt8.self)) - base
                state = .open
                attributes = 0
                tokenStart = offset + i
                tokenPlace = nil
            case .open:
                switch c {
                case 0x21: state = .bang  // <!
                case 0x3F: state = .pi  // <?
                case 0x3E: state = .text  // <>: malformed, libxml2 says so
                default: state = .tag
                }
            case .tag:
                // The rest of a tag, in a loop of its own: only quotes, '=' and '>' matter.
                var ended = false
                while i < n {
                    let c = base[i]
                    if c == 0x22 || c == 0x27 {
                        quote = c
                        state = .tagQuote
                        ended = true
                        break
                    }
                    if c == 0x3D {
                        attributes += 1
                        if attributes > Self.maxAttributes {
                            throw fail("an element with more than \(Self.maxAttributes) attributes (an export's have about 15)")
                        }
                    } else if c == 0x3E {
                        state = .text
                        ended = true
                        break
                    }
                    i += 1
                }
                if !ended { continue }  // the chunk ended inside the tag
            case .tagQuote:
                // An attribute value: on to its closing quote at memchr's speed.
                if let found = memchr(base + i, Int32(quote), n - i) {
                    i = UnsafePointer<UInt8>(found.assumingMemoryBound(to: UInt8.self)) - base
                    state = .tag
                } else {
                    i = n
                    continue
                }
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
            // A piece of markup that ended in this chunk was checked where it ended (a tag), or
            // is checked here, at its end, for the kinds that are not tags.
            if state == .text && offset + i - tokenStart >= Self.maxToken { throw tooLong(Self.what(of: before)) }
            i += 1
        }
        save()
        // Inside a piece of markup at the end of the chunk: where it began (before the lines of
        // this chunk are counted), and whether it is already too long.
        if state != .text {
            if tokenPlace == nil && tokenStart >= offset { tokenPlace = place(tokenStart, in: p) }
            if offset + n - tokenStart > Self.maxToken { throw tooLong(Self.what(of: state)) }
        }
        countLines(p)
        offset += n
    }

    /// Line and column of `unit` (an offset in the file within or after the chunk's start).
    private func place(_ unit: Int, in p: UnsafeBufferPointer<UInt8>) -> (line: Int, column: Int) {
        var line = lines
        var start = lineStart
        let end = min(p.count, unit - offset)
        guard let base = p.baseAddress, end > 0 else { return (line, unit - start + 1) }
        var i = 0
        while i < end, let found = memchr(base + i, 10, end - i) {
            i = UnsafePointer<UInt8>(found.assumingMemoryBound(to: UInt8.self)) - base + 1
            line += 1
            start = offset + i
        }
        return (line, unit - start + 1)
    }

    /// Counts the chunk's line breaks (memchr, so text costs next to nothing).
    private mutating func countLines(_ p: UnsafeBufferPointer<UInt8>) {
        guard let base = p.baseAddress else { return }
        var i = 0
        while i < p.count, let found = memchr(base + i, 10, p.count - i) {
            i = UnsafePointer<UInt8>(found.assumingMemoryBound(to: UInt8.self)) - base + 1
            lines += 1
            lineStart = offset + i
        }
    }

    /// A piece of markup in words, from the state it is read in.
    private static func what(of state: State) -> String {
        switch state {
        case .tag, .tagQuote, .open: "a tag (with its attributes)"
        case .pi, .piQuestion: "a processing instruction"
        case .comment, .commentDash, .commentDashDash, .bangDash: "a comment"
        case .cdata, .cdataBracket, .cdataBrackets: "a CDATA section"
        default: "the DOCTYPE (with its DTD)"
        }
    }
}
