import Foundation
import Testing

/// Where a command lives: every exit status a command declares is written as the `Outcome` it
/// stands for, so the number comes from the one map (`Outcome.exit`) and cannot drift from it.
@Suite("the commands' layout", .timeLimit(.minutes(10)))
struct CommandLayoutTests {
    static func swiftFiles(under module: String) -> [(path: String, text: String)] {
        let folder = ArchitectureTests.root + "/Sources/" + module
        let files = FileManager.default.enumerator(atPath: folder)?.compactMap { $0 as? String } ?? []
        return files.filter { $0.hasSuffix(".swift") }.sorted().compactMap { file in
            (try? String(contentsOfFile: folder + "/" + file, encoding: .utf8)).map { (module + "/" + file, $0) }
        }
    }

    /// `ExitStatusNote(66, …)`: a status written as a number.
    static func handNumbered(_ text: String) -> [Substring] {
        text.split(separator: "\n").filter { line in
            guard let r = line.range(of: "ExitStatusNote(") else { return false }
            return line[r.upperBound...].drop { $0 == " " }.first?.isNumber == true
        }
    }

    @Test("no command writes an exit status by its number")
    func noHandNumberedStatus() throws {
        let sources = ["Commands", "HelperCommands", "Runtime"].flatMap(Self.swiftFiles(under:))
        #expect(sources.count > 10)
        for (path, text) in sources {
            #expect(Self.handNumbered(text).isEmpty, "\(path): \(Self.handNumbered(text))")
        }
        // The check finds one.
        #expect(Self.handNumbered("x: [ExitStatusNote(66, \"no store\")]").count == 1)
        #expect(Self.handNumbered("x: [ExitStatusNote(.noInput, \"no store\")]").isEmpty)
    }
}
