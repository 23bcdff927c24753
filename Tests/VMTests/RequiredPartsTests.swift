import Foundation
import TestSupport
import Testing

/// `make test` (and so `.ci/run`) requires every part to have run: the VM suites, the device
/// boot and the arm64 boot. It sets GLANCE_REQUIRE_ALL_PARTS=1 (any value but an explicit no
/// turns it on: `RunSwitch`), and then a part that cannot run here is a failure naming why, where
/// a plain `swift test` reports it skipped.
@Suite("make test: every part runs", .timeLimit(.minutes(10)))
struct RequiredPartsTests {
    static let required = RunSwitch.required()
    static let why: Comment = "GLANCE_REQUIRE_ALL_PARTS is not set (make test and .ci/run set it to 1)"

    @Test("the VM suites run", .enabled(if: required, why))
    func vmSuites() {
        #expect(VMAvailability.problem == nil, "the VM suites cannot run: \(VMAvailability.problem ?? "")")
    }

    @Test("the device boot runs", .enabled(if: required, why))
    func deviceBoot() {
        #expect(VMAvailability.problem == nil && DeviceBoot.rootProblem == nil,
            "the device boot cannot run: \(VMAvailability.problem ?? DeviceBoot.rootProblem ?? "")")
        #expect(DeviceBoot.package() != nil, "no package for the device boot (GLANCE_DEB, else .build/deb)")
    }

    @Test("the arm64 boot runs", .enabled(if: required, why))
    func arm64Boot() {
        #expect(VMAvailability.problem == nil && ARM64Boot.problem == nil,
            "the arm64 boot cannot run: \(VMAvailability.problem ?? ARM64Boot.problem ?? "")")
        #expect(ARM64Boot.package() != nil, "\(ARM64Boot.noPackage)")
    }
}
