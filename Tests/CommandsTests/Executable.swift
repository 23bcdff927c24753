import Foundation
import TestSupport

/// Runs the built `glance` executable (tests drive the real program, as a user would): the one
/// TestSupport's `GlanceExecutable` names (the arm64 build under its emulator in the arm64 run).
enum Executable {
    static let root = Repository.root

    static var glance: String { GlanceExecutable.path }

    typealias Result = ProcessResult

    static func run(_ arguments: [String], environment: [String: String]? = nil) throws -> Result {
        try runGlance(arguments, environment: environment)
    }

    /// A fresh empty folder for a test's files (unique: test cases run in parallel).
    static func scratch(_ name: String) -> String { ScratchFolder.kept(name) }
}
