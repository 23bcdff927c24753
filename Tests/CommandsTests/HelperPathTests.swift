import Runtime
import Testing

@testable import Commands

/// Where glance looks for the executables it runs git-style (glance-import, glance-serve,
/// glance-mqtt): pure, from the program's own path and GLANCE_EXEC_PATH.
@Suite("The helpers' executables, where glance finds them", .timeLimit(.minutes(10)))
struct HelperPathTests {
    @Test("installed: beside /usr/bin/glance, then /usr/lib/glance; a build folder: beside the program")
    func places() {
        #expect(Helper.candidates("glance-serve", execPath: nil, program: "/usr/bin/glance") == [
            "/usr/bin/glance-serve", "/usr/bin/../lib/glance/glance-serve",
        ])
        #expect(Helper.candidates("glance-mqtt", execPath: "", program: "/src/glance/.build/debug/glance").first == "/src/glance/.build/debug/glance-mqtt")
    }

    @Test("GLANCE_EXEC_PATH, when set, is the only place")
    func execPath() {
        #expect(Helper.candidates("glance-import", execPath: "/opt/glance", program: "/usr/bin/glance") == ["/opt/glance/glance-import"])
    }

    @Test("each helper command has its executable's name, and the command of that name is declared")
    func names() {
        #expect(Helper.allCases.map(\.executable) == ["glance-import", "glance-serve", "glance-mqtt", "glance-serve", "glance-serve"])
        #expect(Helper.web.leading == ["web"], "glance-serve is told it is web")
        #expect(Helper.people.leading == ["people"] && Helper.serve.leading.isEmpty, "glance-serve is told it is people")
        for helper in Helper.allCases { #expect(Glance.program.command(helper.rawValue) != nil, "\(helper.rawValue) declared") }
    }
}
