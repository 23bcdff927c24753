import Foundation
import ImageFile
import Raster
import Testing

@Suite("glance render: gauges, progress, languages, fonts, animation", .timeLimit(.minutes(10)))
struct ScreensCommandTests {
    /// A fontconfig configuration that knows only the given font folders.
    static func fontconfig(_ folders: [String], name: String) throws -> String {
        let dir = Executable.scratch("fontconfig-\(name)")
        let dirs = folders.map { "<dir>\($0)</dir>" }.joined()
        let xml = "<?xml version=\"1.0\"?><!DOCTYPE fontconfig SYSTEM \"fonts.dtd\"><fontconfig>\(dirs)<cachedir>\(dir)/cache</cachedir></fontconfig>"
        try xml.write(toFile: dir + "/fonts.conf", atomically: true, encoding: .utf8)
        return dir + "/fonts.conf"
    }

    static func env(_ extra: [String: String]) -> [String: String] {
        var e = ProcessInfo.processInfo.environment
        for (k, v) in extra { e[k] = v }
        return e
    }

    @Test("no fonts at all: exit 69 naming the font and its Debian package, nothing written")
    func missingLatinFont() throws {
        let conf = try Self.fontconfig([], name: "none")
        let out = Executable.scratch("nofont") + "/x.png"
        let r = try Executable.run(["render", "--size", "120x120", "--output", out],
                                   environment: Self.env(["FONTCONFIG_FILE": conf]))
        #expect(r.status == 69)
        #expect(r.stderr.contains("Inter") && r.stderr.contains("fonts-inter"), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out))
        // The rings alone need no font.
        let rings = try Executable.run(["render", "--rings-only", "--size", "120x120", "--output", out],
                                       environment: Self.env(["FONTCONFIG_FILE": conf]))
        #expect(rings.status == 0)
    }

    @Test("no Chinese font: exit 69 naming zh-Hans and the package that provides one")
    func missingChineseFont() throws {
        let conf = try Self.fontconfig(["/usr/share/fonts/opentype/inter"], name: "inter")
        let out = Executable.scratch("nocjk") + "/x.png"
        let r = try Executable.run(["render", "--size", "120x120", "--locale", "zh-Hans", "--output", out],
                                   environment: Self.env(["FONTCONFIG_FILE": conf]))
        #expect(r.status == 69)
        #expect(r.stderr.contains("zh-Hans") && r.stderr.contains("fonts-wqy-microhei"), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out))
        let en = try Executable.run(["render", "--size", "120x120", "--locale", "en", "--output", out],
                                    environment: Self.env(["FONTCONFIG_FILE": conf]))
        #expect(en.status == 0, "\(en.stderr)")
    }

    @Test("LANG chooses the language; --locale wins over it")
    func languageFromEnvironment() throws {
        let dir = Executable.scratch("lang")
        let common = ["render", "--size", "240x240", "--date", "2026-11-25", "--today", "2026-11-29", "--move", "1/2"]
        _ = try Executable.run(common + ["--output", dir + "/env.png"], environment: Self.env(["LANG": "zh_CN.UTF-8", "LC_ALL": ""]))
        _ = try Executable.run(common + ["--locale", "zh-Hans", "--output", dir + "/zh.png"])
        _ = try Executable.run(common + ["--locale", "en", "--output", dir + "/en.png"],
                               environment: Self.env(["LANG": "zh_CN.UTF-8"]))
        let env = try Data(contentsOf: URL(fileURLWithPath: dir + "/env.png"))
        // (read first: Swift 6.0 refuses a `try` on the right of == inside #expect)
        let zh = try Data(contentsOf: URL(fileURLWithPath: dir + "/zh.png"))
        let en = try Data(contentsOf: URL(fileURLWithPath: dir + "/en.png"))
        #expect(env == zh)
        #expect(env != en)
    }

    @Test("gauge and progress screens render from the command line")
    func screens() throws {
        let dir = Executable.scratch("screens")
        for args in [
            ["--screen", "gauge", "--style", "linearCapacity", "--value", "41", "--title", "Disk", "--unit", "%"],
            ["--screen", "gauge", "--value", "-", "--min", "-20", "--max", "40", "--tint", "#00FF00,#FF0000"],
            ["--screen", "progress", "--style", "circular", "--fraction", "0.25", "--label", "Copying", "--cancellable"],
            ["--screen", "progress", "--indeterminate", "--time", "0.5"],
        ] {
            let out = dir + "/s.png"
            let r = try Executable.run(["render", "--size", "200x200"] + args + ["--output", out])
            #expect(r.status == 0, "\(args): \(r.stderr)")
            #expect((try PNGFile.read(out)).size == Size(width: 200, height: 200))
        }
    }

    @Test("--frames N --fps F writes numbered frames of the animation")
    func frames() throws {
        let dir = Executable.scratch("frames")
        let r = try Executable.run(["render", "--screen", "progress", "--style", "circular", "--indeterminate", "--size", "96x96",
                                    "--frames", "3", "--fps", "8", "--output", dir + "/spin.png"])
        #expect(r.status == 0, "\(r.stderr)")
        let names = try FileManager.default.contentsOfDirectory(atPath: dir).sorted()
        #expect(names == ["spin-0001.png", "spin-0002.png", "spin-0003.png"])
        let a = try Data(contentsOf: URL(fileURLWithPath: dir + "/spin-0001.png"))
        let b = try Data(contentsOf: URL(fileURLWithPath: dir + "/spin-0002.png"))
        #expect(a != b, "the spinner moves between frames")
    }

    static let bad: [([String], String)] = [
        (["--screen", "gauge", "--style", "dial"], "--style"),
        (["--screen", "gauge", "--min", "5", "--max", "5"], "--max"),
        (["--screen", "gauge", "--value", "warm"], "--value"),
        (["--screen", "gauge", "--value", "inf"], "--value"),
        (["--screen", "gauge", "--tint", "blue"], "--tint"),
        (["--screen", "progress", "--fraction", "0.5", "--indeterminate"], "--indeterminate"),
        (["--screen", "progress", "--fraction", "1.5"], "--fraction"),
        (["--screen", "progress"], "--fraction"),
        (["--screen", "progress", "--style", "spinner", "--indeterminate"], "--style"),
        (["--screen", "rings", "--style", "circular"], "--style"),
        (["--locale", "fr"], "--locale"),
        (["--date", "2026-02-30"], "--date"),
        (["--shape", "oval"], "--shape"),
        (["--frames", "0"], "--frames"),
        (["--fps", "0"], "--fps"),
    ]

    @Test("bad values: one line naming the option, exit 64, nothing written", arguments: bad)
    func badValues(args: [String], named: String) throws {
        let dir = Executable.scratch("badscreen")
        let r = try Executable.run(["render", "--size", "64x64"] + args + ["--output", dir + "/x.png"])
        #expect(r.status == 64)
        #expect(r.stderr.split(separator: "\n").count == 1 && r.stderr.contains(named), "\(r.stderr)")
        #expect((try FileManager.default.contentsOfDirectory(atPath: dir)).isEmpty)
    }
}
