#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The text encoding of an XML file, as far as the limits below need to know it.
package enum XMLEncoding: Equatable {
    /// UTF-8 (or anything ASCII-compatible).
    case utf8
    case utf16LE, utf16BE

    /// From the first bytes: a UTF-16 byte order mark, or `<` as a 16-bit unit.
    package static func detect(_ head: some Collection<UInt8>) -> XMLEncoding {
        let b = Array(head.prefix(2))
        guard b.count == 2 else { return .utf8 }
        if b == [0xFF, 0xFE] || b == [0x3C, 0x00] { return .utf16LE }
        if b == [0xFE, 0xFF] || b == [0x00, 0x3C] { return .utf16BE }
        return .utf8
    }
}
