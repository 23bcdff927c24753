import Foundation
import Testing

@Suite("glance config check")
struct ConfigCommandTests {
    @Test("a valid file passes; an invalid one lists every problem with its path and exits 78")
    func check() throws {
        let dir = Executable.scratch("config")
        try "{\"name\": \"Alex\", \"screens\": [\"rings\"]}".write(toFile: dir + "/good.json", atomically: true, encoding: .utf8)
        let good = try Executable.run(["config", "check", "--config", dir + "/good.json"])
        #expect(good.status == 0 && good.stdout.contains("valid"))
        try "{\"name\": 3, \"display\": {\"rotate\": 45}, \"gauges\": [{\"style\": \"dial\"}]}"
            .write(toFile: dir + "/bad.json", atomically: true, encoding: .utf8)
        let bad = try Executable.run(["config", "check", "--config", dir + "/bad.json"])
        #expect(bad.status == 78)
        for path in ["$.name", "$.display.rotate", "$.gauges[0].style", "$.gauges[0].source"] {
            #expect(bad.stderr.contains(path), "\(path) in \(bad.stderr)")
        }
        let missing = try Executable.run(["config", "check", "--config", dir + "/none.json"])
        #expect(missing.status == 66 && missing.stderr.contains("none.json"))
        let verb = try Executable.run(["config", "fix"])
        #expect(verb.status == 64)
    }
}
