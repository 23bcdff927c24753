#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// POSIX extended regular expressions, as the C library's regcomp has them: what the
/// configuration's patterns are checked by (`problem`) and what a gauge's command output is read
/// with (`firstGroup`), so both agree on what a pattern means.
public enum ExtendedRegex {
    /// Why `pattern` is not a POSIX extended regular expression; nil when it is one.
    public static func problem(_ pattern: String) -> String? {
        var regex = regex_t()
        let rc = regcomp(&regex, pattern, REG_EXTENDED)
        defer { if rc == 0 { regfree(&regex) } }
        guard rc != 0 else { return nil }
        var buffer = [CChar](repeating: 0, count: 128)
        regerror(rc, &regex, &buffer, buffer.count)
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The first group of `pattern`'s first match in `text` (the whole match when the pattern has
    /// no group, or the group matched nothing); nil: no match, or not a pattern.
    public static func firstGroup(of pattern: String, in text: String) -> String? {
        var regex = regex_t()
        guard regcomp(&regex, pattern, REG_EXTENDED) == 0 else { return nil }
        defer { regfree(&regex) }
        var matches = [regmatch_t](repeating: regmatch_t(), count: 2)
        let bytes = Array(text.utf8) + [0]
        let found = bytes.withUnsafeBufferPointer { buffer in
            buffer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: buffer.count) {
                regexec(&regex, $0, 2, &matches, 0) == 0
            }
        }
        guard found else { return nil }
        let m = matches[1].rm_so >= 0 ? matches[1] : matches[0]
        return String(decoding: bytes[Int(m.rm_so)..<Int(m.rm_eo)], as: UTF8.self)
    }
}
