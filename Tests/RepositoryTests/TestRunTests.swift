import Foundation
import Testing

/// The test run cannot hang or leak by how its tests are written: every suite has a time limit
/// (its tests inherit it), every test is in a suite, and every process a test starts is owned by
/// TestSupport's `OwnedProcess` (ended on every path, waited for within a bound).
@Suite("the test run: time limits and owned processes", .timeLimit(.minutes(10)))
struct TestRunTests {
    static func testFiles() -> [(path: String, text: String)] {
        let folder = ArchitectureTests.root + "/Tests"
        let files = FileManager.default.enumerator(atPath: folder)?.compactMap { $0 as? String } ?? []
        return files.filter { $0.hasSuffix(".swift") }.sorted().compactMap { file in
            (try? String(contentsOfFile: folder + "/" + file, encoding: .utf8)).map { ("Tests/" + file, $0) }
        }
    }

    /// Each suite attribute's text (a line starting with `@Suite`), up to the type it declares.
    static func suites(_ text: String) -> [String] {
        var found: [String] = []
        var current: String?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.drop { $0 == " " }
            if trimmed.hasPrefix("@Suite") { current = "" }
            guard current != nil else { continue }
            current! += line + "\n"
            if ["struct ", "class ", "enum ", "actor "].contains(where: { line.contains($0) }) {
                found.append(current!)
                current = nil
            }
        }
        return found
    }

    @Test("every suite has a time limit, and every test is in a suite")
    func everySuiteHasATimeLimit() {
        let files = Self.testFiles()
        #expect(files.count > 50)
        var suites = 0
        for (path, text) in files {
            for suite in Self.suites(text) {
                suites += 1
                #expect(suite.contains(".timeLimit(.minutes("), "\(path): \(suite.prefix(160)) has no .timeLimit")
            }
            // A file with tests declares a suite, or adds tests to one (an extension).
            if text.contains("@Test") {
                let topLevelTest = text.split(separator: "\n").contains { $0.hasPrefix("@Test") }
                #expect(!topLevelTest, "\(path): a @Test outside a type (no suite, no time limit)")
                #expect(!Self.suites(text).isEmpty || text.contains("\nextension "), "\(path): tests in a type without @Suite")
            }
        }
        #expect(suites > 100)
        // The check finds a suite without one.
        #expect(Self.suites("@Suite(\"x\") struct A {}\n@Suite(.timeLimit(.minutes(1))) struct B {}").map { $0.contains(".timeLimit(") } == [false, true])
    }

    @Test("no time limit under 10 minutes: a limit counts the time a test waits for a thread, and short ones ran out queued behind the VM boots")
    func noShortTimeLimits() {
        var short: [String] = []
        for (path, text) in Self.testFiles() where !path.hasSuffix("TestRunTests.swift") {
            var rest = Substring(text)
            while let r = rest.range(of: ".timeLimit(.minutes(") {
                let digits = rest[r.upperBound...].prefix { $0.isNumber }
                if let n = Int(digits), n < 10 { short.append("\(path): \(n) minutes") }
                rest = rest[r.upperBound...]
            }
        }
        #expect(short.isEmpty, "\(short)")
    }

    @Test("every process a test starts is owned (TestSupport's OwnedProcess), none a bare Process")
    func everyProcessIsOwned() {
        for (path, text) in Self.testFiles() where !path.hasPrefix("Tests/TestSupport/") {
            let bare = text.split(separator: "\n").filter { $0.contains("= Process()") && !$0.contains("contains(") }
            #expect(bare.isEmpty, "\(path): \(bare.map { $0.trimmingCharacters(in: .whitespaces) })")
        }
    }
}
