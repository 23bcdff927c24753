import Controls
import Raster
import Screens
import Testing

@testable import Configuration

@Suite("Configuration file", .timeLimit(.minutes(10)))
struct ConfigurationTests {
    @Test("an empty object gives the defaults: no file is needed")
    func defaults() throws {
        let c = try Configuration.parse("{}").get()
        #expect(c == Configuration())
        #expect(c.screens == [.rings, .gauges, .progress] && c.grabInput && c.longPress[.select] == .today)
        #expect(c.idle.dimAfter == 60 && c.idle.blankAfter == 300 && c.display.rotation == .none)
    }

    @Test("a full file reads into every setting")
    func full() throws {
        let text = """
            {
              "name": "Alex", "locale": "zh-Hans", "screens": ["gauges", "rings"],
              "gauges": [
                {"style": "circularCapacity", "title": "CPU", "unit": "°", "min": 30, "max": 90,
                 "tint": ["#64D2FF", "#FF9F0A"],
                 "source": {"file": "/sys/class/thermal/thermal_zone0/temp", "scale": 0.001, "interval": 2}},
                {"style": "accessoryLinear", "source": {"metric": "load"}}
              ],
              "keys": {"KEY_VOLUMEUP": "previousDay", "KEY_POWER": "none"},
              "longPress": {"select": "today", "cancel": "previousScreen"}, "longPressSeconds": 1.2,
              "grabInput": false,
              "touch": {"swapXY": true, "invertY": true},
              "display": {"card": "/dev/dri/card1", "connector": "DSI-1", "mode": "720x1280@60", "format": "rgb565",
                          "rotate": 90, "legacy": true, "shape": "round"},
              "idle": {"dimAfter": 30, "blankAfter": null, "dimLevel": 20},
              "database": "/data/glance.db", "fonts": {"file": "/usr/share/fonts/x.ttf", "cjkFile": null}
            }
            """
        let c = try Configuration.parse(text).get()
        #expect(c.name == "Alex" && c.locale == .simplifiedChinese && c.screens == [.gauges, .rings])
        #expect(c.gauges.count == 2)
        #expect(c.gauges[0].style == .circularCapacity && c.gauges[0].tint == [Color(hex: 0x64D2FF), Color(hex: 0xFF9F0A)])
        #expect(c.gauges[0].source == .file(path: "/sys/class/thermal/thermal_zone0/temp", scale: 0.001, offset: 0, interval: 2))
        #expect(c.gauges[1].source == .metric("load") && c.gauges[1].maximum == 100)
        #expect(c.keys == ["KEY_VOLUMEUP": "previousDay", "KEY_POWER": "none"])
        #expect(c.longPress == [.select: .today, .cancel: .previousScreen] && c.longPressSeconds == 1.2 && !c.grabInput)
        #expect(c.touch == TouchSetting(swapXY: true, invertX: false, invertY: true))
        #expect(c.display.output.card == "/dev/dri/card1" && c.display.output.connector == "DSI-1" && c.display.output.mode == ModeRequest(parsing: "720x1280@60"))
        #expect(c.display.output.format == .rgb565 && c.display.rotation == .quarter && c.display.output.forceLegacy && c.display.shape == .round)
        #expect(c.idle.dimAfter == 30 && c.idle.blankAfter == nil && c.idle.dimLevel == 0.2)
        #expect(c.database == "/data/glance.db" && c.fontFile == "/usr/share/fonts/x.ttf" && c.cjkFontFile == nil)
    }

    @Test("every error is reported, each with its JSON path and the expected form")
    func everyError() {
        let text = """
            {"name": 3, "locale": "fr", "screnes": [],
             "gauges": [{"style": "dial", "min": 5, "max": "x", "source": {"metric": "a", "file": "/b"}},
                        {"source": {"file": "relative", "interval": 0}}, {"title": "no source"}],
             "keys": {"right": "next", "KEY_UP": "today"},
             "display": {"rotate": 45, "mode": "big", "card": "card0"},
             "idle": {"dimAfter": 600, "blankAfter": 60}}
            """
        guard case .failure(let found) = Configuration.parse(text) else {
            Issue.record("accepted a bad file")
            return
        }
        let issues = found.issues
        let paths = issues.map(\.path)
        for expected in [
            "$.name", "$.locale", "$.screnes", "$.gauges[0].style", "$.gauges[0].max", "$.gauges[0].source",
            "$.gauges[1].source.interval", "$.gauges[2].source", "$.keys.right", "$.display.rotate",
            "$.display.mode", "$.display.card", "$.idle.blankAfter",
        ] {
            #expect(paths.contains(expected), "\(expected) is reported: \(issues)")
        }
        #expect(issues.first { $0.path == "$.screnes" }?.message.contains("did you mean \"screens\"") == true)
        #expect(issues.first { $0.path == "$.locale" }?.message.contains("\"zh-Hans\"") == true)
        #expect(issues.first { $0.path == "$.name" }?.message.contains("expected a string") == true)
    }

    /// Issue 24, W1 and W2: a setting `config check` accepts never makes every later request fail.
    @Test("perSecond under 1 and goals the store would refuse are errors with their path")
    func rangesTheServerNeeds() {
        for (text, path) in [
            ("{\"serve\": {\"perSecond\": 0.5}}", "$.serve.perSecond"), ("{\"goals\": {\"stand\": 0.5}}", "$.goals.stand"),
            ("{\"goals\": {\"stand\": 25}}", "$.goals.stand"), ("{\"goals\": {\"exercise\": 1441}}", "$.goals.exercise"),
            ("{\"goals\": {\"move\": 0.2}}", "$.goals.move"),
        ] {
            guard case .failure(let found) = Configuration.parse(text) else {
                Issue.record("accepted \(text)")
                continue
            }
            #expect(found.issues.map(\.path) == [path], "\(text): \(found.issues)")
        }
        for text in [
            "{\"serve\": {\"perSecond\": 0}}", "{\"serve\": {\"perSecond\": 1}}", "{\"goals\": {\"stand\": 0, \"exercise\": 1, \"move\": null}}",
        ] {
            if case .failure(let found) = Configuration.parse(text) { Issue.record("refused \(text): \(found.issues)") }
        }
    }

    @Test("the locale takes the spellings --locale takes; anything else is an error naming the two")
    func localeSpellings() throws {
        #expect(try Configuration.parse(#"{"locale": "zh-CN"}"#).get().locale == .simplifiedChinese)
        #expect(try Configuration.parse(#"{"locale": "en-GB"}"#).get().locale == .english)
        guard case .failure(let problems) = Configuration.parse(#"{"locale": "fr"}"#) else {
            Issue.record("fr accepted")
            return
        }
        #expect("\(problems)".contains("locale") && "\(problems)".contains("zh-Hans"), "\(problems)")
    }

    @Test("malformed JSON names the line and column")
    func syntax() {
        guard case .failure(let found) = Configuration.parse("{\n  \"name\": \"Alex\",\n}") else {
            Issue.record("accepted malformed JSON")
            return
        }
        let issues = found.issues
        #expect(issues.count == 1 && issues[0].message.contains("line 3, column 1"))
    }
}
