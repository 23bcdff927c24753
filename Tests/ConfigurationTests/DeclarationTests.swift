import Activity
import CLI
import Controls
import Raster
import Testing

@testable import Configuration

/// Each setting is declared once; the file's reader, the command line and the layering are made
/// from the declarations, so the two take the same values.
@Suite("Settings declared once", .timeLimit(.minutes(10)))
struct DeclarationTests {
    @Test("every option belongs to one setting, and every file setting has a unique dotted name")
    func unique() {
        let options = Configuration.leaves.flatMap(\.options)
        #expect(Set(options).count == options.count, "an option is declared twice: \(options)")
        let names = Configuration.leaves.map(\.name)
        #expect(Set(names).count == names.count, "a name is declared twice: \(names)")
        #expect(Configuration.leaves.allSatisfy { !$0.help.isEmpty }, "a setting without help")
        // The file's members are the declared keys, nested ones dotted.
        #expect(Configuration.fileKeys.contains("display") && Configuration.setting(named: "display.mode") != nil)
        #expect(Configuration.setting(option: "--mode")?.name == "display.mode")
        #expect(Configuration.setting(option: "--intro")?.inFile == false)
        // Each setting has one option at most (a command's option is made from its name alone
        // until given), and the lookup, which tries the command line's own settings first,
        // finds the setting the whole list has for each.
        #expect(Configuration.leaves.allSatisfy { $0.options.count <= 1 })
        for option in options {
            #expect(Configuration.setting(option: option)?.name == Configuration.leaves.first { $0.options.contains(option) }?.name)
        }
        // glance run's own options are made one alone (by name): each name makes its own.
        #expect(RunOptions.options.allSatisfy { RunOptions.setting(option: $0)?.options == [$0] })
        #expect(RunOptions.setting(option: "--card") == nil && RunOptions.setting(option: "intro") == nil)
        #expect(Configuration.runSettings.map(\.name) + Configuration.showSettings.map(\.name)
            == Configuration.settings.suffix(Configuration.runSettings.count + Configuration.showSettings.count).map(\.name))
        #expect(Configuration.settings.contains { $0.key == "display" && $0.members.map(\.name) == Configuration.displayObject.leaves.map(\.name) })
    }

    /// The file and the command line read a value through the same form: what one takes the
    /// other takes, and what one refuses the other refuses.
    @Test(
        "display.mode and --mode take and refuse the same text (59.94 Hz included)",
        arguments: [
            ("800x480", true), ("800x480@60", true), ("1920x1080@59.94", true), ("1920x1080@59.940", true),
            ("800x480@", false), ("800x480@60.5.1", false), ("800x480@0", false), ("800x480@1000", false), ("0x480", false),
            ("800X480", false), ("800x480@59.9401", false), ("big", false), ("9000x480", false), ("800x480@-60", false),
        ])
    func modeBothWays(text: String, valid: Bool) throws {
        let file = Configuration.parse(#"{"display": {"mode": "\#(text)"}}"#)
        var layer = Layer()
        let line: ModeRequest?? = (try? layer.set(option: "--mode", text)).map { _ in
            var c = Configuration()
            layer.apply(to: &c)
            return c.display.output.mode
        }
        switch file {
        case .success(let c):
            #expect(valid, "the file took \(text)")
            #expect(line != nil, "the file took \(text) but --mode refused it")
            #expect(line == .some(c.display.output.mode), "the two read \(text) differently")
        case .failure(let issues):
            #expect(!valid, "the file refused \(text): \(issues)")
            #expect(line == nil, "--mode took \(text) but the file refused it")
            #expect(issues.issues.first?.path == "$.display.mode")
        }
    }

    @Test("a refresh with decimals takes only that rate; a whole one any rate that rounds to it")
    func refreshMatching() throws {
        let exact = try #require(ModeRequest(parsing: "1920x1080@59.94")?.refresh)
        #expect(exact.matches(millihertz: 59940) && !exact.matches(millihertz: 60000))
        let whole = try #require(ModeRequest(parsing: "1920x1080@60")?.refresh)
        #expect(whole.matches(millihertz: 59940) && whole.matches(millihertz: 60000) && !whole.matches(millihertz: 50000))
        #expect(ModeRequest(parsing: "1920x1080@59.94")?.description == "1920x1080@59.94")
    }

    @Test("the command line's layer goes over the file, and a combination it makes is its error, naming the options")
    func layering() throws {
        let file = try Configuration.parse(#"{"name": "Alex", "idle": {"dimAfter": 120, "blankAfter": 600}}"#).get()
        var layer = Layer()
        try layer.set(option: "--name", "Karan")
        try layer.set(option: "--dim-after", "30")
        try layer.set(option: "--no-grab")
        let c = try file.applying(layer)
        #expect(c.name == "Karan" && c.idle.dimAfter == 30 && c.idle.blankAfter == 600 && !c.grabInput)
        #expect(layer.given == ["name", "idle.dimAfter", "grabInput"])
        // The same layer over a file read anew (a reload) still wins.
        let reread = try Configuration.parse(#"{"name": "Sam"}"#).get().applying(layer)
        #expect(reread.name == "Karan" && reread.idle.dimAfter == 30)
        // A blank before the dimming: refused, naming the options.
        var bad = Layer()
        try bad.set(option: "--blank-after", "60")
        #expect(throws: UsageError.self) { try file.applying(bad) }
        do {
            _ = try file.applying(bad)
        } catch {
            #expect(error.message.contains("--dim-after/--blank-after"), "\(error.message)")
        }
        // 0 is never on the command line, as null is in the file.
        var never = Layer()
        try never.set(option: "--blank-after", "0")
        #expect(try file.applying(never).idle.blankAfter == nil)
    }

    @Test("settings' options into a command's layer, by key path or through a function, set the same changes in order")
    func optionsThroughAccess() throws {
        struct Command: Sendable {
            var layer = Layer()
            var other = 0
        }
        let names = ["--dim-after", "--no-grab", "--name"]
        let byPath: [Option<Command>] = Configuration.options(names, into: \Command.layer)
        let through: [Option<Command>] = Configuration.options(
            names, through: { (command: inout Command, body) throws(UsageError) in try body(&command.layer) })
        func spec(_ options: [Option<Command>]) -> CommandSpec<Command> {
            CommandSpec<Command>(
                "try", summary: "s", usage: ["try"], about: "a", groups: [OptionGroup("Things", options)],
                exits: [ExitStatusNote(64, "bad arguments")])
        }
        let argv = ["--name", "Karan", "--no-grab", "--dim-after=30"]
        guard case .run(let a) = try spec(byPath).parse(argv, into: Command()),
            case .run(let b) = try spec(through).parse(argv, into: Command())
        else {
            Issue.record("no run")
            return
        }
        let aSettings = a.layer.changes.map { $0.setting }, bSettings = b.layer.changes.map { $0.setting }
        #expect(aSettings == ["name", "grabInput", "idle.dimAfter"])
        #expect(bSettings == aSettings)
        let c = try Configuration().applying(b.layer)
        #expect(c.name == "Karan" && !c.grabInput && c.idle.dimAfter == 30 && b.other == 0)
        #expect(through.map { $0.name } == names && through.map { $0.placeholder } == byPath.map { $0.placeholder })
        #expect(throws: UsageError.self) { try spec(through).parse(["--dim-after", "soon"], into: Command()) }
    }

    @Test("the reload's comparison comes from the declarations: each setting says what a reload does")
    func reloads() throws {
        let old = Configuration()
        var new = old
        #expect(Configuration.reloads(from: old, to: new).isEmpty)
        new.display.output.mode = ModeRequest(parsing: "800x480@60")
        new.display.rotation = .half
        new.name = "Karan"
        new.fontFile = "/x.ttf"
        new.serve.perSecond = 3
        #expect(Configuration.reloads(from: old, to: new) == [.fonts, .display, .rotation, .name, .serve])
        var gauges = old
        gauges.gauges = [
            GaugeSetting(style: .linear, title: "T", unit: "", minimum: nil, maximum: nil, tint: [], source: .metric("t"))
        ]
        #expect(Configuration.reloads(from: old, to: gauges) == [.data])
    }

    @Test("relative days: today and yesterday stay relative until the today in force is known")
    func relativeDays() throws {
        var layer = Layer()
        try layer.set(option: "--date", "yesterday")
        try layer.set(option: "--today", "2026-12-01")
        var c = Configuration()
        layer.apply(to: &c)
        let today = try #require(c.show.today).day(today: CalendarDay(year: 2000, month: 1, day: 1)!)
        #expect(today == CalendarDay(year: 2026, month: 12, day: 1))
        #expect(c.show.day?.day(today: today) == CalendarDay(year: 2026, month: 11, day: 30))
        #expect(throws: UsageError.self) { try layer.set(option: "--date", "tomorrow-ish") }
    }

    @Test("one set of screen names: gauge and gauges are the same screen, in the file and on the command line")
    func screenNames() throws {
        let c = try Configuration.parse(#"{"screens": ["rings", "gauge"]}"#).get()
        #expect(c.screens == [.rings, .gauges])
        var layer = Layer()
        try layer.set(option: "--screen", "gauge")
        var d = Configuration()
        layer.apply(to: &d)
        #expect(d.show.screen == .gauges)
    }
}
