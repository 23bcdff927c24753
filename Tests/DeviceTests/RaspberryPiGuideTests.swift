import Controls
import Foundation
import TestSupport
import Testing

@testable import Configuration

/// device/raspberry-pi/README.md, as a new Pi owner copies from it: the config.txt lines the
/// firmware reads as meant, every overlay and parameter one the Raspberry Pi kernel's
/// overlays/README (or the overlay's source) has, panel examples that choose their panel, the
/// buttons the built-in map serves, and a build whose packages come from the one list.
@Suite("the Raspberry Pi guide: config.txt lines, connectors")
struct RaspberryPiGuideTests {
    /// The lines of every fenced block of `language` in the guide.
    static func blocks(_ language: String) throws -> [[String]] {
        let text = try DeviceFiles.text("raspberry-pi/README.md")
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
        let keys = Self.overlayUses(try Self.blocks("ini").flatMap { $0 }).filter { $0.overlay == "gpio-key" }
        #expect(keys.count == 5, "two lines and three")
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
