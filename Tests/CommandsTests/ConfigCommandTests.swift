import Foundation
import Testing

@Suite("glance config check", .timeLimit(.minutes(10)))
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

    /// Issue 36, 6: brightness is in percent; a file of the older fractions is valid, and what
    /// reads it says so, with what to write.
    @Test("an older fraction of full: valid, with a note that says what to write; render says it on standard error")
    func olderBrightness() throws {
        let dir = Executable.scratch("config-brightness")
        try #"{"display": {"brightness": 0.8}, "idle": {"dimLevel": 0.3}}"#
            .write(toFile: dir + "/older.json", atomically: true, encoding: .utf8)
        let check = try Executable.run(["config", "check", "--config", dir + "/older.json"])
        #expect(check.status == 0, "\(check.stderr)")
        #expect(
            check.stdout == dir + "/older.json: valid, with 2 notes:\n"
                + "  $.display.brightness: 0.8 is read as the older fraction of full: 80 %; write 80\n"
                + "  $.idle.dimLevel: 0.3 is read as the older fraction of the awake brightness: 30 %; write 30\n",
            "\(check.stdout)")
        let render = try Executable.run([
            "render", "--config", dir + "/older.json", "--size", "64x64", "--rings-only", "--output", dir + "/older.png",
        ])
        #expect(render.status == 0, "\(render.stderr)")
        #expect(
            render.stderr.contains(
                "glance: \(dir)/older.json: $.display.brightness: 0.8 is read as the older fraction of full: 80 %; write 80\n"),
            "\(render.stderr)")
        // Written in percent: valid, no note.
        try #"{"display": {"brightness": 80}, "idle": {"dimLevel": 30}}"#
            .write(toFile: dir + "/percent.json", atomically: true, encoding: .utf8)
        let percent = try Executable.run(["config", "check", "--config", dir + "/percent.json"])
        #expect(percent.status == 0 && percent.stdout == dir + "/percent.json: valid\n", "\(percent.stdout)")
        // A percentage with a fraction: refused, naming the key and what to write.
        try #"{"display": {"brightness": 42.5}}"#.write(toFile: dir + "/half.json", atomically: true, encoding: .utf8)
        let half = try Executable.run(["config", "check", "--config", dir + "/half.json"])
        #expect(half.status == 78)
        #expect(
            half.stderr.contains("$.display.brightness: expected a whole percentage of full, found 42.5: write 42 or 43"),
            "\(half.stderr)")
    }

    @Test(
        "without a file at the default place, check says so and that the defaults apply (not \"valid\"); settings lists them",
        .enabled(if: !FileManager.default.fileExists(atPath: "/etc/glance/config.json"), "this machine has /etc/glance/config.json"))
    func noDefaultFile() throws {
        let check = try Executable.run(["config", "check"])
        #expect(check.status == 0, "\(check.stderr)")
        #expect(check.stdout.contains("no such file; the built-in defaults apply") && !check.stdout.contains("valid"), "\(check.stdout)")
        let settings = try Executable.run(["config", "settings"])
        #expect(settings.status == 0 && settings.stdout.contains("| `display.mode`") == false && settings.stdout.contains("| `mode` | `--mode`"))
    }

    /// Issue 16, 7: a configuration that is a named pipe nobody writes to hung `config check` and
    /// `run` in open(); now it is refused at once.
    @Test func aPipeIsRefusedAtOnceNotWaitedOn() throws {
        let dir = Executable.scratch("config-fifo")
        #expect(mkfifo(dir + "/fifo", 0o600) == 0)
        let check = try Executable.run(["config", "check", "--config", dir + "/fifo"], killAfter: 10)
        #expect(check.status == 66 && check.stderr.contains("not a regular file"), "\(check.status) \(check.stderr)")
        let watch = try Executable.run(
            ["watch", "--config", dir + "/fifo", "--rings-only", "--render-to", dir + "/out.png", "--db", dir + "/s.db"],
            killAfter: 10)
        #expect(watch.status == 78 && watch.stderr.contains("not a regular file"), "\(watch.status) \(watch.stderr)")
    }

    /// Issue 16, 13: a file that is not UTF-8 is a bad configuration (78) like any other, not an
    /// unreadable one (66).
    @Test func aFileThatIsNotUTF8IsABadConfiguration() throws {
        let dir = Executable.scratch("config-utf8")
        try Data([0x7B, 0x22, 0x6E, 0x22, 0x3A, 0x22, 0xFF, 0x22, 0x7D]).write(to: URL(fileURLWithPath: dir + "/latin1.json"))
        let r = try Executable.run(["config", "check", "--config", dir + "/latin1.json"])
        #expect(r.status == 78 && r.stderr.contains("not UTF-8 text (byte 7"), "\(r.status) \(r.stderr)")
    }

    /// Issue 16, 10: an object of 200,000 members (3.9 MB) took 92 s (each name was looked for in
    /// the list of those before it); it is checked in linear time, and the report stays short.
    @Test func anObjectOf200000MembersIsCheckedAndTheReportStaysShort() throws {
        let dir = Executable.scratch("config-wide")
        var text = "{"
        for i in 0..<200_000 { text += (i == 0 ? "" : ",") + "\"member\(i)\": 1" }
        text += "}"
        try text.write(toFile: dir + "/wide.json", atomically: true, encoding: .utf8)
        let r = try Executable.run(["config", "check", "--config", dir + "/wide.json"], killAfter: 30)
        #expect(r.status == 78, "\(r.status)")
        #expect(r.stderr.contains("and 199900 more problems"), "\(r.stderr.suffix(200))")
        #expect(r.stderr.split(separator: "\n").count <= 102)
        // Duplicates are still found, at the end of a long object too.
        try (String(text.dropLast()) + ",\"member7\": 2}").write(toFile: dir + "/dup.json", atomically: true, encoding: .utf8)
        let dup = try Executable.run(["config", "check", "--config", dir + "/dup.json"], killAfter: 30)
        #expect(dup.status == 78 && dup.stderr.contains("member \"member7\" appears twice"), "\(dup.stderr.prefix(300))")
    }
}
