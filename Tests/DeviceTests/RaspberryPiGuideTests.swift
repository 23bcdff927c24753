import Controls
import Foundation
import TestSupport
import Testing

@testable import Configuration

/// device/raspberry-pi/README.md, as a new Pi owner copies from it: the config.txt lines the
/// firmware reads as meant, every overlay and parameter one the Raspberry Pi kernel's
/// overlays/README (or the overlay's source) has, panel examples that choose their panel, the
/// Mini PiTFT's block as Adafruit publishes its pins, buttons wired the way their active_low and
/// gpio_pull say, the buttons the built-in map serves, commands that find their files on the
/// board, and a build whose packages come from the one list.
@Suite("the Raspberry Pi guide: config.txt lines, connectors", .timeLimit(.minutes(10)))
struct RaspberryPiGuideTests {
    /// The lines of every fenced block of `language` in `text` (the guide when nil).
    static func blocks(_ language: String, in text: String? = nil) throws -> [[String]] {
        let text = try text ?? DeviceFiles.text("raspberry-pi/README.md")
        var blocks: [[String]] = []
        var current: [String]?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if current == nil, line == "```" + language {
                current = []
            } else if current != nil, line == "```" {
                blocks.append(current!)
                current = nil
            } else if current != nil {
                current!.append(line)
            }
        }
        return blocks
    }

    /// What is wrong with config.txt lines, one message each.
    static func problems(_ lines: [String]) -> [String] {
        var found: [String] = []
        for line in lines where !line.isEmpty {
            if line.count > 98 { found.append("over the firmware's 98 characters (\(line.count)): \(line)") }
            if line.hasPrefix("#") { continue }
            if line.contains("#") { found.append("a comment after a setting: \(line)") }
            if line != line.trimmingCharacters(in: .whitespaces) { found.append("spaces around a setting: '\(line)'") }
            if !line.contains("=") { found.append("not a setting: \(line)") }
        }
        return found
    }

    @Test("config.txt lines: no comment after a setting (the firmware would read it), none over 98 characters")
    func configLines() throws {
        let lines = try Self.blocks("ini").flatMap { $0 }
        #expect(lines.count > 10, "the guide's ```ini blocks (config.txt) were not found")
        #expect(Self.problems(lines) == [])
    }

    @Test("every panel example names its connector (the first connected one may be HDMI)")
    func connectors() throws {
        let displays = try Self.blocks("json").flatMap { $0 }.filter { $0.contains("\"display\"") }
        #expect(displays.count >= 5, "the guide's panel examples were not found")
        for line in displays {
            #expect(line.contains("\"connector\": \""), "no connector: \(line)")
        }
    }

    @Test("the check catches a trailing comment and a long line")
    func theCheckCanFail() {
        let trailing = "dtoverlay=vc4-kms-dsi-7inch            # only when display_auto_detect=0"
        #expect(Self.problems([trailing]).count == 1)
        #expect(Self.problems(["dtparam=" + String(repeating: "x", count: 91)]).count == 1)
        #expect(Self.problems(["# a comment of its own", "dtparam=write-only"]) == [])
    }

    /// The overlays the guide uses and the parameters each takes, as the Raspberry Pi kernel's
    /// arch/arm/boot/dts/overlays/README lists them (vc4-kms-dsi-ili9881-*: that README's
    /// copy checked had no entry; these are the `__overrides__` of
    /// vc4-kms-dsi-ili9881-7inch-overlay.dts and Raspberry Pi's Touch Display 2 page).
    static let overlays: [String: Set<String>] = [
        "vc4-kms-v3d": [
            "cma-512", "cma-448", "cma-384", "cma-320", "cma-256", "cma-192", "cma-128", "cma-96", "cma-64", "cma-size",
            "cma-default", "audio", "noaudio", "composite", "nohdmi",
        ],
        "vc4-kms-dsi-7inch": ["sizex", "sizey", "invx", "invy", "swapxy", "disable_touch", "dsi0"],
        "vc4-kms-dsi-ili9881-7inch": ["sizex", "sizey", "invx", "invy", "swapxy", "disable_touch", "rotation", "dsi0"],
        "vc4-kms-dsi-ili9881-5inch": ["sizex", "sizey", "invx", "invy", "swapxy", "disable_touch", "rotation", "dsi0"],
        "vc4-kms-dpi-hyperpixel4": ["disable-touch", "touchscreen-inverted-x", "touchscreen-inverted-y", "touchscreen-swapped-x-y", "rotate"],
        "vc4-kms-dpi-hyperpixel4sq": ["disable-touch", "touchscreen-inverted-x", "touchscreen-inverted-y", "touchscreen-swapped-x-y", "rotate"],
        "vc4-kms-dpi-hyperpixel2r": ["disable-touch", "touchscreen-inverted-x", "touchscreen-inverted-y", "touchscreen-swapped-x-y", "rotate"],
        "mipi-dbi-spi": [
            "compatible", "spi0-0", "spi0-1", "spi1-0", "spi1-1", "spi1-2", "spi2-0", "spi2-1", "spi2-2", "speed", "cpha", "cpol",
            "write-only", "width", "height", "width-mm", "height-mm", "x-offset", "y-offset", "clock-frequency", "reset-gpio",
            "dc-gpio", "backlight-gpio", "backlight-pwm", "backlight-pwm-chan", "backlight-pwm-gpio", "backlight-pwm-func",
            "backlight-def-brightness",
        ],
        "gpio-key": ["gpio", "active_low", "gpio_pull", "label", "keycode"],
        "minipitft13": [], "adafruit-st7735r": [], "pwm-2chan": [], "gpio-shutdown": [],
    ]

    /// Every `dtoverlay=NAME,param=…` line of the guide's config.txt blocks with the `dtparam=`
    /// lines after it (which set the last overlay's parameters): (overlay, parameter names).
    static func overlayUses(_ lines: [String]) -> [(overlay: String, parameters: [String])] {
        var uses: [(String, [String])] = []
        for line in lines where !line.hasPrefix("#") {
            func names(_ list: some Sequence<Substring>) -> [String] {
                list.map { String($0.split(separator: "=", maxSplits: 1)[0]) }
            }
            if line.hasPrefix("dtoverlay=") {
                let parts = line.dropFirst("dtoverlay=".count).split(separator: ",")
                uses.append((String(parts[0]), names(parts.dropFirst())))
            } else if line.hasPrefix("dtparam="), !uses.isEmpty {
                uses[uses.count - 1].1 += names(line.dropFirst("dtparam=".count).split(separator: ","))
            }
        }
        return uses
    }

    /// What is wrong with the overlays of `lines`: names and parameters the README has not.
    static func overlayProblems(_ lines: [String]) -> [String] {
        overlayUses(lines).flatMap { use -> [String] in
            guard let known = overlays[use.overlay] else { return ["no overlay \(use.overlay) in the overlay README"] }
            return use.parameters.filter { !known.contains($0) }.map { "\(use.overlay) has no parameter \($0)" }
        }
    }

    @Test("every overlay and parameter the guide writes is one the kernel's overlay README lists")
    func overlaysAndParameters() throws {
        let lines = try Self.blocks("ini").flatMap { $0 }
        let uses = Self.overlayUses(lines)
        #expect(Set(uses.map(\.overlay)).isSuperset(of: ["vc4-kms-v3d", "mipi-dbi-spi", "gpio-key", "vc4-kms-dsi-7inch"]))
        #expect(Self.overlayProblems(lines) == [])
        // The prose names overlays and parameters too: each one in backquotes must be known.
        let text = try DeviceFiles.text("raspberry-pi/README.md")
        let quoted = text.split(separator: "`").enumerated().filter { $0.offset % 2 == 1 }.map { String($0.element) }
        let overlayNames = quoted.filter { $0.hasPrefix("vc4-kms-") || $0.hasPrefix("dtoverlay=") }
            .map { $0.replacingOccurrences(of: "dtoverlay=", with: "").split(separator: ",")[0] }.map(String.init)
        for name in overlayNames { #expect(Self.overlays[name] != nil, "the guide names an overlay the README has not: \(name)") }
        // What the issue found wrong: the HyperPixel parameter is rotate, the 7" panel has none.
        #expect(!text.contains("overlays' `rotation`"))
        #expect(Self.overlays["vc4-kms-dsi-7inch"]!.isDisjoint(with: ["rotate", "rotation"]))
    }

    @Test("the overlay check catches an unknown overlay and an unknown parameter, on its line or a dtparam")
    func overlayCheckCanFail() {
        #expect(Self.overlayProblems(["dtoverlay=vc4-kms-dsi-7inch,rotation=90"]) == ["vc4-kms-dsi-7inch has no parameter rotation"])
        #expect(Self.overlayProblems(["dtoverlay=mipi-dbi-spi,spi0-0", "dtparam=backlight=18"]) == ["mipi-dbi-spi has no parameter backlight"])
        #expect(Self.overlayProblems(["dtoverlay=st7789v-fb"]) == ["no overlay st7789v-fb in the overlay README"])
        #expect(Self.overlayProblems(["# dtoverlay=anything", "dtoverlay=gpio-key,gpio=5,keycode=28,label=ENTER"]) == [])
    }

    @Test("the connectors where they are: Touch Display 2 on a Pi 5's recommended port is DSI-2; the SPI panel is SPI-1")
    func pi5Connectors() throws {
        let text = try DeviceFiles.text("raspberry-pi/README.md")
        let displays = try Self.blocks("json").flatMap { $0 }.filter { $0.contains("\"display\"") }
        #expect(displays.contains { $0.contains("\"DSI-2\"") && $0.contains("720x1280") }, "\(displays)")
        #expect(displays.contains { $0.contains("\"SPI-1\"") && $0.contains("rgb565") })
        #expect(text.contains("CAM/DISP 0 is DSI-1, CAM/DISP 1 is DSI-2"))
        for card in ["drm-rp1-dsi", "drm-rp1-dpi", "v3d", "panel-mipi-dbi"] { #expect(text.contains(card), "\(card)") }
    }

    @Test("the backlights as they register under KMS: 10-0045 (255), Touch Display 2 (31), SPI backlight-pwm; no rpi_backlight")
    func backlights() throws {
        let text = try DeviceFiles.text("raspberry-pi/README.md")
        #expect(!text.contains("rpi_backlight"))
        #expect(text.contains("/sys/class/backlight/10-0045") && text.contains("255"))
        #expect(text.contains("`max_brightness` 31"))
        let ini = try Self.blocks("ini").flatMap { $0 }
        #expect(ini.contains("dtparam=backlight-pwm"), "the SPI example dims through backlight-pwm")
    }

    @Test("two buttons and three: gpio-key lines with the keys the built-in map serves, the holds as the defaults have them")
    func buttons() throws {
        let text = try DeviceFiles.text("raspberry-pi/README.md")
        #expect(text.contains("### Two buttons") && text.contains("### Three buttons"))
        for (heading, count) in [("### Two buttons", 2), ("### Three buttons", 3)] {
            let lines = try Self.blocks("ini", in: Self.section(heading, of: text)).flatMap { $0 }
            #expect(Self.overlayUses(lines).filter { $0.overlay == "gpio-key" }.count == count, "\(heading): \(lines)")
        }
        let lines = try Self.blocks("ini").flatMap { $0 }.filter { $0.hasPrefix("dtoverlay=gpio-key") }
        // KEY_LEFT, KEY_ENTER, KEY_RIGHT (the map's own buttons), never KEY_POWER (116).
        let codes = lines.compactMap { $0.split(separator: ",").first { $0.hasPrefix("keycode=") }?.dropFirst(8) }
        #expect(Set(codes) == ["105", "28", "106"], "\(codes)")
        #expect(!lines.contains { $0.contains("\"") }, "no quotes in config.txt values: \(lines)")
        // The written-out map: what the built-in one is (its holds included).
        let json = try Self.blocks("json").flatMap { $0 }.joined(separator: "\n")
        let longPress = try #require(json.split(separator: "\n").first { $0.contains("\"longPress\"") })
        let parsed = try Configuration.parse("{" + longPress + "}").get()
        #expect(parsed.longPress == Action.defaultLongPress && parsed.longPress == Configuration().longPress)
        let file = try Configuration.parse(try DeviceFiles.text("raspberry-pi/buttons.json")).get()
        #expect(file.longPress == Action.defaultLongPress)
        #expect(file.keys == ["KEY_LEFT": "previousDay", "KEY_ENTER": "select", "KEY_RIGHT": "nextDay"])
    }

    /// The part of `text` under `heading` (a line of its own), to the next heading of its level or
    /// above; lines inside fenced blocks (config.txt's `# comments`) are not headings.
    static func section(_ heading: String, of text: String) throws -> String {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let start = try #require(lines.firstIndex(of: heading), "no heading \(heading)")
        let level = heading.prefix { $0 == "#" }.count
        var inFence = false
        var end = lines.count
        for index in (start + 1)..<lines.count {
            let line = lines[index]
            if line.hasPrefix("```") { inFence.toggle() }
            let hashes = line.prefix { $0 == "#" }.count
            if !inFence, hashes > 0, hashes <= level, line.dropFirst(hashes).hasPrefix(" ") {
                end = index
                break
            }
        }
        return lines[start..<end].joined(separator: "\n")
    }

    /// The rows of the Markdown tables in `text`, each as its trimmed cells (the header row too,
    /// not the `---` row).
    static func tableRows(_ text: String) -> [[String]] {
        text.split(separator: "\n").map(String.init).filter { $0.hasPrefix("|") && !$0.hasPrefix("| ---") }.map { row in
            row.split(separator: "|", omittingEmptySubsequences: false).dropFirst().dropLast()
                .map { $0.trimmingCharacters(in: .whitespaces) }
        }
    }

    /// Like `overlayUses`, with the values: a parameter without `=` (a flag) has the value "".
    static func overlaySettings(_ lines: [String]) -> [(overlay: String, values: [String: String])] {
        var uses: [(String, [String: String])] = []
        func values(_ list: some Sequence<Substring>) -> [String: String] {
            Dictionary(
                list.map { part -> (String, String) in
                    let pair = part.split(separator: "=", maxSplits: 1).map(String.init)
                    return (pair[0], pair.count > 1 ? pair[1] : "")
                }, uniquingKeysWith: { $1 })
        }
        for line in lines where !line.hasPrefix("#") {
            if line.hasPrefix("dtoverlay=") {
                let parts = line.dropFirst("dtoverlay=".count).split(separator: ",")
                uses.append((String(parts[0]), values(parts.dropFirst())))
            } else if line.hasPrefix("dtparam="), !uses.isEmpty {
                let more = values(line.dropFirst("dtparam=".count).split(separator: ","))
                uses[uses.count - 1].1.merge(more, uniquingKeysWith: { $1 })
            }
        }
        return uses
    }

    /// The 40-pin header's pin of each GPIO the guide wires (Raspberry Pi's documentation, "GPIO
    /// and the 40-pin header": BCM numbering against physical pins).
    static let headerPin: [Int: Int] = [
        5: 29, 6: 31, 8: 24, 9: 21, 10: 19, 11: 23, 13: 33, 18: 12, 22: 15, 23: 16, 24: 18, 25: 22, 27: 13,
    ]

    /// Adafruit's Mini PiTFT 1.3" (240x240 ST7789, product 4484) as Adafruit's own sources give it:
    /// - adafruit/Raspberry-Pi-Installer-Scripts, adafruit-pitft.py, the display type
    ///   "st7789_240x240" ("PiTFT Mini 1.3\" or 1.54\" display"): `mipi-dbi-spi,spi0-0,speed=40000000`,
    ///   `dc-gpio=25,backlight-gpio=22` (no reset-gpio), `width=240,height=240` with no offset at
    ///   rotation 0 (`y-offset=80` only with the controller turned 180°, `0x36 0xC0` in its
    ///   mipi/adafruit_st7789_drm.txt);
    /// - adafruit/Adafruit_CircuitPython_RGB_Display, examples/rgb_display_minipitfttest.py: chip
    ///   select CE0, D/C D25, reset None, backlight D22, buttonA D23 and buttonB D24, read with
    ///   switch_to_input() and no pull of the Pi's (high at rest, pulled up on the board);
    /// - adafruit/Adafruit_CircuitPython_ST7789, examples/st7789_240x240_pitft_simpletest.py
    ///   ("Pinouts are for the 1.3\" PiTFT"): CE0, D25, rowstart=80 with rotation=180.
    /// The visible area, 23.4 mm square, is the common 1.3" 240x240 IPS panel's (0.0975 mm pixels;
    /// Waveshare's 1.3" LCD specifications): Adafruit does not state it.
    static let miniPiTFT = (
        signals: [
            "SPI0 SCLK": "11", "SPI0 MOSI": "10", "chip select (CE0)": "8", "D/C": "25", "backlight": "22",
            "reset": "none", "button A": "23", "button B": "24",
        ],
        overlay: [
            "spi0-0": "", "speed": "40000000", "width": "240", "height": "240", "dc-gpio": "25", "backlight-gpio": "22",
        ],
        millimetres: 23.4
    )

    @Test("the Mini PiTFT 1.3\" block is the board's published pinout, line by line, and its size")
    func miniPiTFTBlock() throws {
        let text = try DeviceFiles.text("raspberry-pi/README.md")
        let section = try Self.section("#### Adafruit Mini PiTFT 1.3\" (240x240 ST7789, two buttons)", of: text)
        // The table: every signal on Adafruit's GPIO, at that GPIO's header pin.
        let rows = Self.tableRows(section).dropFirst()
        #expect(Dictionary(rows.map { ($0[0], $0[1]) }, uniquingKeysWith: { $1 }) == Self.miniPiTFT.signals, "\(rows)")
        for row in rows where row[1] != "none" {
            let pin = Self.headerPin[Int(row[1]) ?? -1]
            #expect(pin != nil && Int(row[2]) == pin, "\(row): GPIO \(row[1]) is header pin \(pin ?? 0)")
        }
        // The config.txt lines: Adafruit's settings, no reset and no offset, its size, its buttons.
        let lines = try Self.blocks("ini", in: section).flatMap { $0 }
        #expect(Self.problems(lines) == [] && Self.overlayProblems(lines) == [])
        let settings = Self.overlaySettings(lines)
        let panel = try #require(settings.first { $0.overlay == "mipi-dbi-spi" }?.values)
        for (name, value) in Self.miniPiTFT.overlay {
            #expect(panel[name] == value, "\(name): \(panel[name] ?? "none"), Adafruit's \(value)")
        }
        for absent in ["reset-gpio", "x-offset", "y-offset", "backlight-pwm"] { #expect(panel[absent] == nil, "\(absent)") }
        let mm = Int(Self.miniPiTFT.millimetres.rounded())
        #expect(panel["width-mm"] == "\(mm)" && panel["height-mm"] == "\(mm)", "\(panel)")
        let keys = settings.filter { $0.overlay == "gpio-key" }.map(\.values)
        #expect(keys.map { $0["gpio"] ?? "" } == [Self.miniPiTFT.signals["button A"]!, Self.miniPiTFT.signals["button B"]!])
        #expect(keys.map { $0["keycode"] ?? "" } == ["105", "28"])
        // Its buttons pull up on the board: the overlay's defaults, never active_low=0.
        #expect(keys.allSatisfy { $0["active_low"] == nil && ($0["gpio_pull"] ?? "up") != "down" })
        // No offset holds because the firmware file leaves the controller unturned (MADCTL 0x00).
        let firmware = try DeviceFiles.text("raspberry-pi/st7789-240x240.txt")
        #expect(firmware.split(separator: "\n").contains { $0.hasPrefix("command 0x36 0x00") })
        let display = try #require(try Self.blocks("json", in: section).flatMap { $0 }.first)
        #expect(display.contains("\"SPI-1\"") && display.contains("\"rgb565\""))
    }

    @Test("the bare module's block is wired as its table says, each GPIO at its header pin")
    func bareModuleBlock() throws {
        let text = try DeviceFiles.text("raspberry-pi/README.md")
        let section = try Self.section("#### A bare ST7789 module, wired as below", of: text)
        let rows = Self.tableRows(section).dropFirst()
        var gpio: [String: Int] = [:]
        for row in rows {
            let words = row[1].split(separator: " ")
            guard words.first == "GPIO", let number = Int(words[1]) else { continue }
            gpio[row[0]] = number
            #expect(Int(row[2]) == Self.headerPin[number], "\(row)")
        }
        #expect(Set(gpio.keys) == ["SCL", "SDA", "CS", "DC", "RES", "BLK"], "\(rows)")
        let lines = try Self.blocks("ini", in: section).flatMap { $0 }
        #expect(Self.problems(lines) == [] && Self.overlayProblems(lines) == [])
        let panel = try #require(Self.overlaySettings(lines).first { $0.overlay == "mipi-dbi-spi" }?.values)
        #expect(panel["dc-gpio"] == gpio["DC"].map(String.init) && panel["reset-gpio"] == gpio["RES"].map(String.init))
        // spi0-0 is SPI0 with CE0: SCLK 11, MOSI 10, CE0 8; backlight-pwm is GPIO 18 unless moved.
        #expect(panel["spi0-0"] != nil && gpio["SCL"] == 11 && gpio["SDA"] == 10 && gpio["CS"] == 8)
        #expect(panel["backlight-pwm"] != nil && panel["backlight-pwm-gpio"] == nil && gpio["BLK"] == 18)
        #expect(panel["width-mm"] == "23" && panel["height-mm"] == "23")
    }

    /// gpio-key's `active_low` and `gpio_pull` with the defaults the overlays README gives them
    /// ("The default is 1 (active low)"; "Default is \"up\"").
    static let keyDefaults = (activeLow: "1", pull: "up")

    /// What is wrong with the gpio-key lines of `lines`: an `active_low` and `gpio_pull` pair that
    /// fits no wiring. A button to ground (pulled up) is active-low with the pull up or off; one
    /// to 3.3 V (pulled down) is active-high with the pull down or off.
    static func buttonProblems(_ lines: [String]) -> [String] {
        let fits: Set<[String]> = [["1", "up"], ["1", "off"], ["0", "down"], ["0", "off"]]
        return overlaySettings(lines).filter { $0.overlay == "gpio-key" }.compactMap { use in
            let pair = [use.values["active_low"] ?? keyDefaults.activeLow, use.values["gpio_pull"] ?? keyDefaults.pull]
            let gpio = use.values["gpio"] ?? "3"
            return fits.contains(pair) ? nil : "GPIO \(gpio): active_low=\(pair[0]) with gpio_pull=\(pair[1])"
        }
    }

    @Test("the button advice: each wiring with its active_low and gpio_pull, every gpio-key line a pair that fits one")
    func buttonWiring() throws {
        let text = try DeviceFiles.text("raspberry-pi/README.md")
        #expect(!text.contains("`gpio_pull=off` and `active_low=0` suit"), "the inverted advice is back")
        let lines = try Self.blocks("ini").flatMap { $0 }
        #expect(Self.buttonProblems(lines) == [])
        let pulledDown = Self.overlaySettings(lines).contains { $0.values["active_low"] == "0" && $0.values["gpio_pull"] == "down" }
        #expect(pulledDown, "an example of a button to 3.3 V")
        // The table: to ground reads low when pressed (active_low=1, pulled up or off); to 3.3 V reads
        // high (active_low=0, pulled down or off).
        let section = try Self.section("## 4. Buttons through `gpio-key`", of: text)
        let rows = Self.tableRows(section).filter { ["ground", "3.3 V"].contains($0[0]) }
        #expect(rows.count == 4, "\(rows)")
        for row in rows {
            let toGround = row[0] == "ground"
            #expect(row[2] == (toGround ? "high" : "low") && row[3] == (toGround ? "low" : "high"), "\(row)")
            let parameters = row[4]
            if toGround {
                #expect(!parameters.contains("active_low=0") && !parameters.contains("gpio_pull=down"), "\(row)")
                #expect(parameters.contains("active_low=1"), "\(row)")
            } else {
                #expect(parameters.contains("active_low=0") && !parameters.contains("gpio_pull=up"), "\(row)")
                #expect(parameters.contains("gpio_pull=down") || parameters.contains("gpio_pull=off"), "\(row)")
            }
        }
    }

    @Test("the wiring check catches a pull-up button made active-high and a pull-down one left active-low")
    func buttonCheckCanFail() {
        #expect(
            Self.buttonProblems(["dtoverlay=gpio-key,gpio=5,keycode=28,active_low=0"])
                == ["GPIO 5: active_low=0 with gpio_pull=up"])
        #expect(
            Self.buttonProblems(["dtoverlay=gpio-key,gpio=6,keycode=28,gpio_pull=down"])
                == ["GPIO 6: active_low=1 with gpio_pull=down"])
        let fine = [
            "dtoverlay=gpio-key,gpio=5,keycode=28", "dtoverlay=gpio-key,gpio=6,keycode=28,active_low=0,gpio_pull=off",
        ]
        #expect(Self.buttonProblems(fine) == [])
    }

    @Test("the panel files where the package puts them, converted in place; USER@BOARD; what make deb ARCH=arm64 takes")
    func onTheBoard() throws {
        let text = try DeviceFiles.text("raspberry-pi/README.md")
        let sh = try Self.blocks("sh").flatMap { $0 }
        // The firmware converter runs where the package installs it, on files that are there.
        let folder = "/usr/share/glance/raspberry-pi"
        #expect(sh.contains("cd " + folder))
        let convert = try #require(sh.first { $0.contains("mipi-dbi-firmware.py") })
        let words = convert.split(separator: " ").map(String.init)
        let script = try #require(words.firstIndex(of: "mipi-dbi-firmware.py"))
        #expect(words.count > script + 2 && words[script + 2] == "/lib/firmware/panel.bin", "\(convert)")
        for name in ["mipi-dbi-firmware.py", words[script + 1]] {
            #expect(FileManager.default.fileExists(atPath: DeviceFiles.device + "/raspberry-pi/" + name), "\(name)")
        }
        let build = try String(contentsOfFile: Repository.root + "/tools/build-deb.sh", encoding: .utf8)
        #expect(
            build.contains("!= README.md ] && install -m 644 \"$f\" \"$PKG\(folder)/\""),
            "build-deb.sh no longer installs the panel files in \(folder)")
        #expect(build.contains("raspberry-pi/README.md\" \"$PKG/usr/share/doc/glance-panel/raspberry-pi/\""))
        // Raspberry Pi OS has made no pi user since April 2022.
        #expect(!text.contains("pi@"))
        for line in sh where line.hasPrefix("scp ") || line.hasPrefix("ssh ") || line.hasPrefix("rsync ") {
            #expect(line.contains("USER@BOARD"), "\(line)")
        }
        // make deb ARCH=arm64 as root, with the download the build root's first run says.
        #expect(sh.contains { $0.hasPrefix("sudo make deb ARCH=arm64") })
        let root = try String(contentsOfFile: Repository.root + "/tools/arm64/build-root.sh", encoding: .utf8)
        let said = try #require(root.split(separator: "\n").first { $0.hasPrefix("say \"building the trixie build root") })
        // (Worked out first: Swift 6.0.3's #require cannot take the optional chain itself.)
        let found = said.components(separatedBy: "about ").dropFirst().first?.components(separatedBy: " downloaded").first
        let size = try #require(found)
        #expect(text.contains("about \(size) downloaded"), "build-root.sh says about \(size); the guide does not")
    }

    /// The packages marked "# build" in tools/debian-packages.txt, as install-deps.sh --build
    /// reads them.
    static func buildPackages() throws -> Set<String> {
        let list = try String(contentsOfFile: Repository.root + "/tools/debian-packages.txt", encoding: .utf8)
        return Set(
            list.split(separator: "\n").compactMap { line -> String? in
                guard let hash = line.firstIndex(of: "#") else { return nil }
                let name = line[..<hash].trimmingCharacters(in: .whitespaces)
                return !name.isEmpty && line[hash...].dropFirst().trimmingCharacters(in: .whitespaces) == "build" ? name : nil
            })
    }

    @Test("building on the board: the packages from tools/debian-packages.txt (install-deps.sh --build), no list of its own, no placeholder")
    func buildOnTheBoard() throws {
        let text = try DeviceFiles.text("raspberry-pi/README.md")
        let sh = try Self.blocks("sh").flatMap { $0 }
        #expect(!text.contains("REPOSITORY"))
        #expect(sh.contains { $0.hasPrefix("tools/install-deps.sh --build") })
        for line in sh where line.contains("apt install") || line.contains("apt-get install") {
            #expect(!line.contains("-dev") && !line.hasSuffix("\\"), "a package list of its own: \(line)")
        }
        // The one list has what the build takes: every C library's -dev package Package.swift
        // names, and the tools build-deb.sh runs.
        let manifest = try String(contentsOfFile: Repository.root + "/Package.swift", encoding: .utf8)
        var providers = Set<String>()
        for part in manifest.components(separatedBy: ".apt([").dropFirst() {
            let inside = part.prefix { $0 != "]" }
            providers.formUnion(inside.split(separator: ",").map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "\" ")) })
        }
        #expect(providers.count >= 12, "\(providers)")
        let build = try Self.buildPackages()
        #expect(providers.subtracting(build).isEmpty, "not marked # build: \(providers.subtracting(build))")
        #expect(build.isSuperset(of: ["pkg-config", "dpkg-dev", "patchelf", "file"]))
        #expect(build.isDisjoint(with: ["qemu-system-x86", "valgrind", "debootstrap"]), "test-only packages marked build")
        let script = try String(contentsOfFile: Repository.root + "/tools/install-deps.sh", encoding: .utf8)
        #expect(script.contains("--build) only='#[[:space:]]*build[[:space:]]*$'"))
    }
}
