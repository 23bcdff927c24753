import Platform
import Testing

@Suite("POSIX extended regular expressions (the configuration's patterns, a command's output)", .timeLimit(.minutes(10)))
struct ExtendedRegexTests {
    @Test("a pattern is checked, and its problem said")
    func problems() {
        #expect(ExtendedRegex.problem("temp=([0-9.]+)") == nil)
        #expect(ExtendedRegex.problem("temp=([0-9.]+") != nil, "an unclosed group")
        #expect(ExtendedRegex.problem("a{2,1}") != nil)
    }

    @Test("the first group, else the whole match, else nothing")
    func firstGroup() {
        #expect(ExtendedRegex.firstGroup(of: "temp=([0-9.]+)'C", in: "temp=47.2'C\n") == "47.2")
        #expect(ExtendedRegex.firstGroup(of: "[0-9]+%", in: "load 72% of 100") == "72%")
        #expect(ExtendedRegex.firstGroup(of: "x(y)?z", in: "xz") == "xz", "a group that matched nothing: the whole match")
        #expect(ExtendedRegex.firstGroup(of: "volts=([0-9]+)", in: "amps=3") == nil)
        #expect(ExtendedRegex.firstGroup(of: "(", in: "(") == nil, "not a pattern")
        #expect(ExtendedRegex.firstGroup(of: "é(.)", in: "café!") == "!", "UTF-8 bytes, not characters")
    }
}
