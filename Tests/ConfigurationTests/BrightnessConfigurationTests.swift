import Activity
import JSON
import Testing

@testable import Configuration

/// Issue 36, 6: a brightness in the file is a whole percentage, as on the control socket and in
/// Home Assistant; the older fraction of full (0 < x ≤ 1) is still read, with a note that says
/// what to write.
@Suite("Configuration: brightness in percent, the older fraction read with a note", .timeLimit(.minutes(10)))
struct BrightnessConfigurationTests {
    /// The file `{"display": {"brightness": VALUE}}` read: its brightness and notes, or its problems.
    static func awake(_ value: String) -> Result<NotedConfiguration, ConfigurationIssues> {
        Configuration.read(#"{"display": {"brightness": "# + value + "}}")
    }

    static func dim(_ value: String) -> Result<NotedConfiguration, ConfigurationIssues> {
        Configuration.read(#"{"idle": {"dimLevel": "# + value + "}}")
    }

    static func window(_ value: String) -> Result<NotedConfiguration, ConfigurationIssues> {
        Configuration.read(#"{"schedule": [{"from": "21:00", "to": "23:00", "brightness": "# + value + "}]}")
    }

    /// The one problem of a refused file, at `path`.
    static func problem(_ read: Result<NotedConfiguration, ConfigurationIssues>, at path: String) -> String? {
        guard case .failure(let found) = read else { return nil }
        guard found.issues.count == 1, found.issues[0].path == path else { return "\(found.issues)" }
        return found.issues[0].message
    }

    @Test("a percentage is read as one, without a note: 80 is 80 % of full; 30 of the awake brightness; a window's")
    func percent() throws {
        let read = try Configuration.read(
            #"""
            {"display": {"brightness": 80}, "idle": {"dimLevel": 30},
             "schedule": [{"from": "23:00", "to": "06:30", "brightness": 0}, {"from": "21:00", "to": "23:00", "brightness": 30}]}
            """#
        ).get()
        #expect(read.notes.isEmpty, "\(read.notes)")
        let c = read.configuration
        #expect(c.display.brightness == 0.8 && c.idle.dimLevel == 0.3)
        #expect(c.schedule[0].brightness == 0 && c.schedule[1].brightness == 0.3)
        #expect(try Configuration.parse(#"{"display": {"brightness": null}}"#).get().display.brightness == nil)
        #expect(Configuration().display.brightness == nil && Configuration().idle.dimLevel == 0.3)
    }

    @Test("the older fraction is read as before, each with a note at its path that says what to write")
    func olderFraction() throws {
        let read = try Configuration.read(
            #"""
            {"display": {"brightness": 0.8}, "idle": {"dimLevel": 0.25},
             "schedule": [{"from": "21:00", "to": "23:00", "brightness": 0.3}]}
            """#
        ).get()
        #expect(read.configuration.display.brightness == 0.8 && read.configuration.idle.dimLevel == 0.25)
        #expect(read.configuration.schedule[0].brightness == 0.3)
        #expect(
            read.notes.map(\.description) == [
                "$.display.brightness: 0.8 is read as the older fraction of full: 80 %; write 80",
                "$.idle.dimLevel: 0.25 is read as the older fraction of the awake brightness: 25 %; write 25",
                "$.schedule[0].brightness: 0.3 is read as the older fraction of full: 30 %; write 30",
            ])
        // 1 was full: it still is (1 % is no brightness the file takes).
        let full = try Self.awake("1").get()
        #expect(full.configuration.display.brightness == 1)
        #expect(full.notes.map(\.message) == ["1 is read as the older fraction of full: 100 %; write 100"])
        // A fraction with more places is rounded to a whole percentage, and says so; 0.29 (× 100
        // is 28.999999999999996) is not "rounded".
        let places = try Self.awake("0.425").get()
        #expect(places.configuration.display.brightness == 0.43)
        #expect(places.notes.map(\.message) == ["0.425 is read as the older fraction of full: 43 % (a whole percentage, rounded); write 43"])
        let exact = try Self.awake("0.29").get()
        #expect(exact.configuration.display.brightness == 0.29 && exact.notes.map(\.message) == [
            "0.29 is read as the older fraction of full: 29 %; write 29"
        ])
        // A fraction under the least: refused, with the least to write.
        #expect(
            Self.problem(Self.awake("0.04"), at: "$.display.brightness")
                == "0.04 is read as the older fraction of full: 4 %, under the least, 5 %: write 5 or more")
        #expect(
            Self.problem(Self.window("0.01"), at: "$.schedule[0].brightness")
                == "0.01 is read as the older fraction of full: 1 %, under the least, 5 %: write 5 or more (or 0: off)")
        #expect(Self.problem(Self.awake("1e-300"), at: "$.display.brightness")?.contains("0 %, under the least") == true)
    }

    /// Every whole percentage is the same Double as the older file's fraction: the level the keys
    /// kept over it (the store's `brightness.configured`, the fraction's text) stays when a file
    /// is rewritten from 0.8 to 80, and a store from before keeps working.
    @Test("each whole percentage from 5 to 100 is exactly the older fraction, as the store keeps it")
    func sameAsTheOlderFraction() throws {
        for n in 5...100 {
            let older = n == 100 ? "1" : n % 10 == 0 ? "0.\(n / 10)" : n < 10 ? "0.0\(n)" : "0.\(n)"
            let fromPercent = try Self.awake(String(n)).get().configuration.display.brightness
            let fromFraction = try Self.awake(older).get().configuration.display.brightness
            #expect(fromPercent == fromFraction && fromPercent == Double(older), "\(n) and \(older)")
            #expect(fromPercent.map(NumberText.plain) == older, "\(n): the store's text")
            // Written back as the percentage.
            #expect(Form<Double?>.awakeBrightness.write?(fromPercent) == .json(.number(Double(n))))
        }
    }

    @Test("edge values: 0, 1, 5, 100 taken where they mean something; 101, -1, 4.9, 2, 42.5 refused with what to write")
    func edges() throws {
        let awake = "$.display.brightness"
        let expected = "expected a whole percentage of full from 5 to 100, or null (as found)"
        #expect(Self.problem(Self.awake("0"), at: awake)?.hasPrefix(expected + ", found 0: the awake brightness is never off") == true)
        #expect(try Self.awake("5").get().configuration.display.brightness == 0.05)
        #expect(try Self.awake("100").get().configuration.display.brightness == 1)
        #expect(try Self.awake("100").get().notes.isEmpty)
        for bad in ["101", "-1", "4.9", "2", "1.5", "100.5", "1000000"] {
            #expect(Self.problem(Self.awake(bad), at: awake) == expected + ", found " + bad, "\(bad)")
        }
        #expect(Self.problem(Self.awake("42.5"), at: awake) == "expected a whole percentage of full, found 42.5: write 42 or 43")

        // A window: 0 is off; the least otherwise is 5 too.
        let at = "$.schedule[0].brightness"
        let windowExpected = "expected a whole percentage of full from 5 to 100, or 0 (off)"
        #expect(try Self.window("0").get().configuration.schedule[0].brightness == 0)
        #expect(try Self.window("0").get().notes.isEmpty)
        #expect(try Self.window("1").get().configuration.schedule[0].brightness == 1)
        #expect(try Self.window("5").get().configuration.schedule[0].brightness == 0.05)
        #expect(try Self.window("100").get().configuration.schedule[0].brightness == 1)
        for bad in ["101", "-1", "4.9"] {
            #expect(Self.problem(Self.window(bad), at: at) == windowExpected + ", found " + bad, "\(bad)")
        }
        #expect(Self.problem(Self.window("null"), at: at) == windowExpected + ", found null")

        // The dimmed level: 0 is dark; of the awake brightness.
        #expect(try Self.dim("0").get().configuration.idle.dimLevel == 0)
        #expect(try Self.dim("100").get().configuration.idle.dimLevel == 1)
        #expect(try Self.dim("5").get().configuration.idle.dimLevel == 0.05)
        #expect(
            Self.problem(Self.dim("101"), at: "$.idle.dimLevel")
                == "expected a whole percentage of the awake brightness from 5 to 100, or 0 (dark), found 101")
        #expect(
            Self.problem(Self.dim("33.3"), at: "$.idle.dimLevel")
                == "expected a whole percentage of the awake brightness, found 33.3: write 33 or 34")
    }

    @Test("not a number (\"NaN\", \"80%\", true, 1e999): refused, naming the key and what to write")
    func notANumber() throws {
        for text in ["NaN", "Infinity", "80%", "80 %", ""] {
            let message = Self.problem(Self.awake("\"\(text)\""), at: "$.display.brightness")
            #expect(message?.hasSuffix("found \"\(text)\": write the number without quotes or %, e.g. 80") == true, "\(text): \(message ?? "taken")")
        }
        #expect(
            Self.problem(Self.window("true"), at: "$.schedule[0].brightness")
                == "expected a whole percentage of full from 5 to 100, or 0 (off), found a boolean")
        #expect(Self.problem(Self.dim("[30]"), at: "$.idle.dimLevel")?.hasSuffix("found an array") == true)
        // JSON has no NaN or infinity: a number too large for a Double is the file's problem.
        guard case .failure(let huge) = Self.awake("1e999") else {
            Issue.record("1e999 was taken")
            return
        }
        #expect(huge.issues.map(\.path) == ["$"] && huge.issues[0].message.contains("1e999 is out of range"), "\(huge.issues)")
    }

    @Test("the pages speak percent: what each brightness takes, its default, its help")
    func pages() throws {
        for name in ["display.brightness", "idle.dimLevel"] {
            let setting = try #require(Configuration.setting(named: name))
            #expect(setting.expected.hasPrefix("a whole percentage of "), "\(name): \(setting.expected)")
            #expect(setting.expected.contains("the older fraction (0.8: 80 %)"), "\(name): \(setting.expected)")
            #expect(setting.help.contains("in percent of") && !setting.help.contains("fraction"), "\(name): \(setting.help)")
        }
        #expect(Configuration.setting(named: "idle.dimLevel")?.defaultText == "30")
        let window = try #require(ScheduleWindowSetting.settings.first { $0.key == "brightness" })
        #expect(window.expected.hasPrefix("a whole percentage of full from 5 to 100, or 0 (off)"), "\(window.expected)")
        #expect(window.help.contains("in percent of full") && !window.help.contains("fraction"))
        // The page says no brightness is a fraction but the older form's.
        let page = Configuration.settingsPage
        #expect(!page.contains("a fraction of"), "the settings page still says a fraction")
    }

    @Test("notes are not problems: a file of older fractions is valid, and parse gives its configuration")
    func notesAreNotProblems() throws {
        let text = #"{"display": {"brightness": 0.6}, "idle": {"dimLevel": 0.5}}"#
        let c = try Configuration.parse(text).get()
        #expect(c.display.brightness == 0.6 && c.idle.dimLevel == 0.5)
        // A file with a problem and an older fraction: the problem fails it.
        guard case .failure(let found) = Configuration.read(#"{"display": {"brightness": 0.6, "rotate": 45}}"#) else {
            Issue.record("a bad rotation was taken")
            return
        }
        #expect(found.issues.map(\.path) == ["$.display.rotate"])
    }
}
