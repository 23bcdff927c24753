import Foundation
import ImageFile
import Raster
import TestSupport

/// Where things are: the package, the built executable, the harness. Results go to a scratch
/// folder outside the source tree ($TMPDIR/glance-vmtests, or GLANCE_VM_OUT).
enum VMPaths {
    static let root = Repository.root
    /// The host's glance (the x86-64 build: the VM runs it, and it renders the references).
    static let glance = root + "/.build/debug/glance"
    static let harness = root + "/tools/vm/run-in-vm.sh"
    static let guestLibrary = root + "/tools/vm/e2e/guest-lib.sh"
    static let scratch: String = {
        let env = ProcessInfo.processInfo.environment
        let base = env["GLANCE_VM_OUT"] ?? ((env["TMPDIR"] ?? "/tmp") + "/glance-vmtests")
        try? FileManager.default.createDirectory(atPath: base, withIntermediateDirectories: true)
        return base
    }()
}

/// Why the VM tests cannot run here, if they cannot (printed as the skip reason).
enum VMAvailability {
    static let problem: String? = {
        let env = ProcessInfo.processInfo.environment
        if RunSwitch.on("GLANCE_SKIP_VM", env) { return "GLANCE_SKIP_VM=\(env["GLANCE_SKIP_VM"] ?? "") is set" }
        #if !(os(Linux) && arch(x86_64))
            return "the VM runs an x86_64 Debian kernel and the host's glance binary: needs Linux on x86_64"
        #else
            return nil
        #endif
    }()
    static var available: Bool { problem == nil }
    /// The skip reason (a plain value: Swift 6.0 crashes on string interpolation in a trait).
    static let skipped = "VM tests skipped: " + (problem ?? "")
}

/// The day the display tests show (`glance run` would otherwise read the store), as options
/// both `glance run` and `glance render` take.
let demoDay = ["--move", "375/500", "--exercise", "15/30", "--stand", "14.4/12"]

/// What both `glance run` in the VM and `glance render` on the host are given, so the pictures
/// cannot differ by the calendar, the time of day or the language of either machine.
let fixedDayAndLanguage = ["--today", "2026-11-29", "--locale", "en", "--time", "10:09", "--clock", "24h"]

/// The fonts the screens use, copied into the VM (fontconfig finds the same files as the host;
/// with GLANCE_FONT_ROOT set, run-in-vm.sh copies the pinned fonts under it instead).
let fontPackages = "fonts-inter fonts-wqy-microhei"

/// What a Debian image gets in place of its own font folders (device-image.sh `--add SRC:DEST`), so
/// the guest draws with the fonts the host's `glance render` draws with: the tests' pinned fonts
/// (GLANCE_FONT_ROOT, tools/test-fonts.sh) at their Debian paths, else the host's font packages'.
func imageFontAdditions() -> [String] {
    let root = ProcessInfo.processInfo.environment["GLANCE_FONT_ROOT"] ?? ""
    var files: [String] = []
    if !root.isEmpty {
        let fonts = root + "/usr/share/fonts"
        let found = FileManager.default.enumerator(atPath: fonts)?.compactMap { $0 as? String } ?? []
        files = found.map { "/usr/share/fonts/" + $0 }
    } else {
        for package in fontPackages.split(separator: " ") {
            let (status, list) = (try? runTool("/usr/bin/dpkg", ["-L", String(package)])) ?? (1, "")
            if status == 0 { files += list.split(separator: "\n").map(String.init) }
        }
    }
    let folders = Set(
        files.filter { $0.hasSuffix(".otf") || $0.hasSuffix(".ttf") || $0.hasSuffix(".ttc") }
            .map { String($0[..<$0.lastIndex(of: "/")!]) })
    return folders.sorted().flatMap { ["--add", root + $0 + ":" + $0] }
}

/// `glance run` options that choose the display, not the picture (not passed to render).
let displayOnlyOptions: [String: Bool] = [
    "--legacy": false, "--single-buffer": false, "--intro": false, "--report-startup": false, "--report-frames": false,
    "--mode": true, "--connector": true, "--card": true,
]

/// The picture options among `glance run` arguments (what `glance render` must be given too).
func pictureOptions(_ arguments: [String]) -> [String] {
    var result: [String] = []
    var i = 0
    while i < arguments.count {
        if let takesValue = displayOnlyOptions[arguments[i]] {
            i += takesValue ? 2 : 1
            continue
        }
        result.append(arguments[i])
        i += 1
    }
    return result
}

/// One VM boot: a guest steps script (sourcing tools/vm/e2e/guest-lib.sh) and the matching host
/// QMP script, built step by step; `run()` boots it and returns what came out.
struct VMBoot {
    let name: String
    let gpu: String
    let width: Int
    let height: Int
    private(set) var guest: [String] = [". /app/guest-lib.sh"]
    private(set) var host: [String] = []
    /// The `show` steps: name, whether it animates (--intro), the picture options for render.
    private(set) var shows: [(name: String, animates: Bool, picture: [String])] = []
    /// More run-in-vm.sh arguments (files to add, kernel modules).
    var harnessExtras: [String] = []

    /// A line of the guest's steps script, as it is.
    mutating func guestLine(_ line: String) { guest.append(line) }
    /// A line of the host's QMP action script, as it is.
    mutating func hostLine(_ line: String) { host.append(line) }

    init(_ name: String, gpu: String, width: Int, height: Int) {
        self.name = name
        self.gpu = gpu
        self.width = width
        self.height = height
    }

    var size: String { "\(width)x\(height)" }

    /// `glance ARGS` run to its end; its output and "STEP name rc=N" land in the log.
    mutating func expect(_ step: String, _ arguments: String, asUser uid: Int? = nil) {
        let command =
            uid.map { "start-stop-daemon -S -c \($0):\($0) -x /app/glance -- " } ?? "$G "
        guest.append("expect \(step) \(command)\(arguments)")
    }

    /// Known text on the console, then a screendump of it ("console").
    mutating func console() {
        guest.append("console_text")
        guest.append("wait_host console")
        host += ["wait-console STEP console waiting 60", "screendump console", "send go"]
    }

    /// `glance run ARGS` shown (screendump NAME), then sent `signal` (screendump NAME-after).
    /// With --intro in ARGS the screendump waits until the animation has ended ("idle after").
    mutating func show(
        _ step: String, _ arguments: String = "", rotation: Int = 0, signal: String = "TERM",
        meanwhile: String? = nil, standardInput: String? = nil
    ) {
        let animates = arguments.contains("--intro")
        var env = "SHOW_SIGNAL=\(signal) "
        if let standardInput { env += "SHOW_STDIN=\(standardInput) " }
        if animates { env += "SHOW_UNTIL='idle after' " }
        if let meanwhile { env += "SHOW_ALSO='\(meanwhile)' " }
        var words = fixedDayAndLanguage + arguments.split(separator: " ").map(String.init)
        // The demo day unless the step gives its own day or store.
        if !["--move", "--no-summary", "--db"].contains(where: { arguments.contains($0) }) { words = demoDay + words }
        if rotation != 0 { words += ["--rotate", String(rotation)] }
        guest.append("\(env)show \(step) \(words.joined(separator: " "))")
        host += [
            // Until the frame equals what glance render draws (rendered before the boot, see
            // run()), for at most 5 s: a flush that reaches the host late is waited for.
            "wait-console STEP \(step) shown waiting 40", "screendump-until \(step) \(referencePrefix(step)) 5",
            "send go",
            "wait-console STEP \(step) exited rc=\\d+ waiting 20",
            // The console redraws itself after KD_TEXT, asynchronously: give it up to 3 s
            // (SIGKILL, the negative control, is not expected to bring it back).
            signal == "KILL" ? "screendump \(step)-after" : "screendump-until \(step)-after console 3", "send go",
        ]
        shows.append((step, animates, pictureOptions(words)))
    }

    /// The `animate` steps: name, the picture options for render, how many stops.
    private(set) var animations: [(name: String, picture: [String], stops: Int)] = []

    /// `glance run ARGS --report-frames` while it animates: `stops` times stopped (SIGSTOP) for a
    /// screendump of the monitor (NAME-stop-N, with the last two frames it reported before the
    /// stop as step NAME-stop-N's output), then continued; at the end SIGTERM, "STEP NAME exited
    /// rc=N" and screendump NAME-after (the console). Each stop comes 0.7 s after the last, or
    /// with `stopAt`, as soon as a line of the log matches it (the intro ends 0.9 s after its
    /// first frame: "^frame 3 " stops it in the middle).
    mutating func animate(_ step: String, _ arguments: String, stops: Int, stopAt: String? = nil) {
        let log = "/tmp/\(step).log"
        let words = demoDay + fixedDayAndLanguage + arguments.split(separator: " ").map(String.init)
        // render draws the intro's frame at a time with --intro (glance run's --intro is not a picture option).
        let picture = pictureOptions(words) + (words.contains("--intro") ? ["--intro"] : [])
        guest += [
            "$G run --report-startup --report-frames \(words.joined(separator: " ")) >\(log) 2>&1 & pid=$!",
            "wait_log \(log) \"first frame on screen\"",
        ]
        for i in 1...stops {
            // Stopped between two frames or in the middle of one: the monitor must show one of
            // the last two frames reported (a frame is reported before it is presented), whole.
            guest += [
                stopAt.map { "wait_log \(log) \"\($0)\"" } ?? "sleep 0.7", "kill -STOP $pid", "sleep 0.5",
                #"grep "^frame " \#(log) | tail -2 | sed "s/^/[\#(step)-stop-\#(i)] /""#,
                "wait_host \(step)-stop-\(i)", "kill -CONT $pid",
            ]
            host += ["wait-console STEP \(step)-stop-\(i) waiting 40", "screendump \(step)-stop-\(i)", "send go"]
        }
        guest += [
            "kill -TERM $pid; wait $pid; rc=$?", "sleep 0.3", #"sed "s/^/[\#(step)] /" \#(log)"#,
            "wait_host \"\(step) exited rc=$rc\"",
        ]
        host += [
            "wait-console STEP \(step) exited rc=\\d+ waiting 20", "screendump-until \(step)-after console 3", "send go",
        ]
        animations.append((step, picture, stops))
    }

    /// `glance run` with a switch to tty2 (which has its own text) and back while it shows:
    /// screendumps NAME-away (tty2's console) and NAME-back (the app again), then as `show`.
    /// With `staleAcquire`, the app also gets an acquire signal (SIGUSR2) while tty2 is in front,
    /// as when a switch back and away again were both pending: it must stay away.
    mutating func showAcrossVTSwitch(_ step: String, staleAcquire: Bool = false) {
        let stale = staleAcquire ? ["kill -USR2 $pid", "sleep 0.5"] : []
        let steps = [
            "printf \"\\033[2J\\033[H\\n  SECOND CONSOLE (tty2)\\n\" > /dev/tty2", "chvt 2",
            "wait_log \"$log\" \"display released\"",
        ] + stale + [
            "sleep 0.3", "wait_host \(step)-away",
            "chvt 1", "wait_log \"$log\" \"display taken again\"", "sleep 0.3", "wait_host \(step)-back",
        ]
        let meanwhile = steps.joined(separator: "; ")
        let before = host.count
        show(step, meanwhile: meanwhile)
        host.insert(
            contentsOf: [
                // Waited for (tty2's text in place of the app; the app's picture again), then compared.
                "wait-console STEP \(step)-away waiting 40", "screendump-until-console \(step)-away \(referencePrefix(step)) 100 5",
                "send go",
                "wait-console STEP \(step)-back waiting 20", "screendump-until \(step)-back \(referencePrefix(step)) 5", "send go",
            ], at: before)
    }

    /// tty2 (with its own text) in front, then `glance run` started on tty1 (its standard
    /// input): it must bring tty1 to the front itself. Then as `show`.
    mutating func showFromConsoleBehind(_ step: String) {
        guest.append(#"printf "\033[2J\033[H\n  SECOND CONSOLE (tty2)\n" > /dev/tty2; chvt 2; sleep 0.3"#)
        show(step, standardInput: "/dev/tty1")
    }

    /// `glance run` on tty1 with a switch to tty2, where a second glance that takes no part in VT
    /// switching (started as a user without access to /dev/tty0, OTHER its options) takes the
    /// card; back on tty1 the first must wait for it, and take the display once it has ended.
    /// Screendumps NAME-other (the second's picture), NAME-waiting (still it, after the switch
    /// back) and NAME-back (the first app again); then as `show`.
    mutating func showAcrossHeldVTSwitch(_ step: String, other: String) {
        let meanwhile = [
            #"printf "\033[2J\033[H\n  SECOND CONSOLE (tty2)\n" > /dev/tty2"#, "chvt 2", "sleep 0.3",
            "card_mode=$(stat -c %a /dev/dri/card0)", "chmod 666 /dev/dri/card0",
            "start-stop-daemon -S -u 1000 -c 1000:1000 -x /app/glance -- run --report-startup --no-input \(other) "
                + "</dev/null >/tmp/\(step)-other.log 2>&1 & other=$!",
            "wait_log /tmp/\(step)-other.log \"first frame on screen\"", "sleep 0.3",
            #"sed "s/^/[\#(step)-other] /" /tmp/\#(step)-other.log"#, "wait_host \(step)-other",
            "chvt 1", "wait_log \"$log\" \"another program holds the display\"", "sleep 0.3",
            "wait_host \(step)-waiting",
            "kill $other", "wait $other", "wait_log \"$log\" \"display taken again\"", "sleep 0.3",
            "wait_host \(step)-back", "chmod $card_mode /dev/dri/card0",
        ].joined(separator: "; ")
        let before = host.count
        show(step, meanwhile: meanwhile, standardInput: "/dev/tty1")
        // The first app's picture waited for once it may take the display back, then compared
        // (the other's, and that it stays after the switch back, have no state to wait for).
        host.insert(
            contentsOf: ["other", "waiting", "back"].flatMap { stage in
                [
                    "wait-console STEP \(step)-\(stage) waiting 40",
                    stage == "back" ? "screendump-until \(step)-back \(referencePrefix(step)) 5" : "screendump \(step)-\(stage)",
                    "send go",
                ]
            }, at: before)
    }

    /// `glance run` on a store (a day logged for 2026-11-29), then another database renamed over
    /// it: the app must end by itself (exit 75) with the console back. "STEP NAME exited rc=N",
    /// then screendump NAME-after.
    mutating func runUntilStoreReplaced(_ step: String) {
        let db = "/tmp/\(step).db"
        guest += [
            "$G log --db \(db) --date 2026-11-29 --move 100 >/dev/null 2>&1",
            "$G run --db \(db) \(fixedDayAndLanguage.joined(separator: " ")) >/tmp/\(step).log 2>&1 & pid=$!",
            "wait_log /tmp/\(step).log \"first frame on screen\"",
            "$G log --db /tmp/\(step)-new.db --date 2026-11-29 --move 300 >/dev/null 2>&1",
            "mv /tmp/\(step)-new.db \(db)",
            "i=0; while kill -0 $pid 2>/dev/null && [ $i -lt 200 ]; do sleep 0.05; i=$((i + 1)); done",
            "kill $pid 2>/dev/null; wait $pid; rc=$?",
            "sleep 0.3", #"sed "s/^/[\#(step)] /" /tmp/\#(step).log"#, "wait_host \"\(step) exited rc=$rc\"",
        ]
        host += [
            "wait-console STEP \(step) exited rc=\\d+ waiting 40",
            "screendump-until \(step)-after console 3", "send go",
        ]
    }

    /// tty2 held by a program that never lets a switch away complete (tools/vm/e2e/vt-hold.c,
    /// added as /app/vt-hold), then `glance run` started on tty1: it cannot bring tty1 forward
    /// and must say so and exit (75) without taking the display. "STEP NAME rc=N".
    mutating func runWhileConsoleHeld(_ step: String) {
        let words = (fixedDayAndLanguage + demoDay).joined(separator: " ")
        guest += [
            "/app/vt-hold 2 >/tmp/vt-hold.log 2>&1 & holder=$!",
            "wait_log /tmp/vt-hold.log \"holding tty2\"",
            "expect \(step) sh -c \"$G run \(words) < /dev/tty1\"",
            "kill $holder; wait $holder 2>/dev/null; true",
        ]
    }

    /// `show` step NAME's picture dumped from qemu's display device `screen` (a second card's
    /// monitor) instead of the first, and `alsoDumping` the first monitor while it shows.
    mutating func retarget(_ step: String, screen: String, alsoDumping other: String) {
        guard let i = host.firstIndex(where: { $0.hasPrefix("screendump-until \(step) ") }) else { return }
        host.insert(contentsOf: ["screen \(screen)"], at: i)
        host.insert(contentsOf: ["screen default", "screendump \(other)"], at: i + 2)
    }

    /// Where `show` step NAME's expected picture is (without the .ppm vmctl adds).
    func referencePrefix(_ step: String) -> String { VMPaths.scratch + "/" + name + "/ref-" + step }

    /// `glance render` at this boot's size of `picture` (after the demo day, whose options
    /// `picture` may override), as a PNG at `path`.
    func render(_ picture: [String], to path: String) throws -> PixelBuffer {
        // The std VGA's monitor says its size (qemu's EDID): glance run sizes its text for it, so
        // the reference is drawn for the same panel.
        let measured = measuredDiagonal.map { ["--diagonal", $0] } ?? []
        let (status, output) = try runTool(
            VMPaths.glance, ["render", "--size", size, "--output", path] + demoDay + measured + picture)
        guard status == 0 else { throw VMTestError("glance render failed (\(status)): \(output)") }
        return try PNGFile.read(path)
    }

    /// The millimetres the std VGA's monitor reports for `pixels` (qemu's EDID at its 100 dots
    /// to the inch, in whole centimetres as the kernel reads the EDID's size: 480 px → 120 mm);
    /// virtio's has no EDID (run-in-vm.sh: edid=off), so no size.
    func measuredMillimetres(_ pixels: Int) -> Int { pixels * 254 / 1000 / 10 * 10 }

    /// The diagonal in inches glance run takes from that size (nil: none reported).
    var measuredDiagonal: String? {
        guard gpu == "std" else { return nil }
        let w = Double(measuredMillimetres(width)), h = Double(measuredMillimetres(height))
        return "\((w * w + h * h).squareRoot() / 25.4)"
    }

    /// Boots the VM and plays both scripts.
    func run(timeout: Int = 150) throws -> VMResult {
        let out = VMPaths.scratch + "/" + name
        try? FileManager.default.removeItem(atPath: out)
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        // The pictures the `show` steps must put on the monitor, for the host's screendump-until.
        for show in shows {
            let picture = try render(show.picture, to: referencePrefix(show.name) + ".png")
            try writePPM(picture, to: referencePrefix(show.name) + ".ppm")
        }
        let steps = out + "/steps.sh"
        let qmp = out + "/host.qmp"
        try (guest.joined(separator: "\n") + "\n").write(toFile: steps, atomically: true, encoding: .utf8)
        try ((host + ["wait-exit 30"]).joined(separator: "\n") + "\n").write(
            toFile: qmp, atomically: true, encoding: .utf8)
        let arguments = [
            "--gpu", gpu, "--res", size, "--binary", VMPaths.glance,
            "--add", VMPaths.guestLibrary + ":/app/guest-lib.sh", "--add", steps + ":/app/steps.sh",
            "--fonts", fontPackages,
        ] + harnessExtras + [
            "--cmd", "sh /app/steps.sh", "--qmp-script", qmp, "--out", out + "/vm", "--timeout", String(timeout),
        ]
        let started = Date()
        let (status, output) = try runTool(VMPaths.harness, arguments)
        let seconds = Date().timeIntervalSince(started)
        let log = (try? String(contentsOfFile: out + "/vm/console.log", encoding: .utf8)) ?? ""
        return VMResult(boot: self, status: status, harnessOutput: output, log: log, folder: out, seconds: seconds)
    }
}

/// What a boot left: the harness's exit status and output, the guest log, the screendumps.
struct VMResult {
    let boot: VMBoot
    let status: Int32
    let harnessOutput: String
    let log: String
    let folder: String
    let seconds: Double

    /// Exit code of `expect` step NAME ("STEP NAME rc=N").
    func rc(_ step: String) -> Int? {
        firstMatch(#"STEP \#(step) rc=(\d+)"#).flatMap { Int($0) }
    }

    /// Exit code of `show` step NAME after its signal.
    func exitRC(_ step: String) -> Int? {
        firstMatch(#"STEP \#(step) exited rc=(\d+)"#).flatMap { Int($0) }
    }

    /// The output lines of step NAME (without the "[NAME] " prefix), joined.
    func output(_ step: String) -> String {
        log.split(separator: "\n").compactMap { line -> Substring? in
            let prefix = "[\(step)] "
            return line.hasPrefix(prefix) ? line.dropFirst(prefix.count) : nil
        }.joined(separator: "\n")
    }

    /// The startup report of step NAME: (ms after exec, ms after main).
    func startup(_ step: String) -> String? {
        output(step).split(separator: "\n").first { $0.hasPrefix("startup:") }.map(String.init)
    }

    func firstMatch(_ pattern: String) -> String? {
        guard let regex = try? NSRegularExpression(pattern: pattern) else { return nil }
        let range = NSRange(log.startIndex..., in: log)
        guard let m = regex.firstMatch(in: log, range: range), m.numberOfRanges > 1,
            let r = Range(m.range(at: 1), in: log)
        else { return nil }
        return String(log[r])
    }

    /// Screendump NAME as a picture (nil if it was not taken).
    func screendump(_ name: String) -> PixelBuffer? {
        readPPM(folder + "/vm/" + name + ".ppm")
    }

    /// What `show` step NAME had to put on the monitor: its reference, rendered before the boot.
    func reference(_ step: String) throws -> PixelBuffer {
        try PNGFile.read(boot.referencePrefix(step) + ".png")
    }

    /// Where to look when something failed.
    var context: String {
        "boot \(boot.name) (\(boot.gpu) \(boot.size)), results in \(folder)/vm; harness status \(status):\n"
            + harnessOutput.split(separator: "\n").suffix(8).joined(separator: "\n")
    }
}

struct VMTestError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Runs a program to its end; returns its exit status and its combined output (TestSupport's runner).
func runTool(_ path: String, _ arguments: [String]) throws -> (Int32, String) {
    let result = try TestSupport.runProcess(path, arguments, combined: true)
    return (result.status, result.stdout)
}

/// A binary PPM (P6, maxval 255) as an XRGB8888 picture.
func readPPM(_ path: String) -> PixelBuffer? {
    guard let data = FileManager.default.contents(atPath: path) else { return nil }
    let bytes = [UInt8](data)
    // Header: "P6" width height maxval, each followed by whitespace.
    var fields: [Int] = []
    var i = 2
    guard bytes.count > 2, bytes[0] == UInt8(ascii: "P"), bytes[1] == UInt8(ascii: "6") else { return nil }
    while fields.count < 3 && i < bytes.count {
        while i < bytes.count && (bytes[i] == 32 || bytes[i] == 10 || bytes[i] == 13 || bytes[i] == 9) { i += 1 }
        var n = 0
        while i < bytes.count && bytes[i] >= 48 && bytes[i] <= 57 {
            n = n * 10 + Int(bytes[i] - 48)
            i += 1
        }
        fields.append(n)
    }
    i += 1  // the one whitespace byte after maxval
    let (w, h) = (fields[0], fields[1])
    guard fields.count == 3, fields[2] == 255, w > 0, h > 0, bytes.count >= i + w * h * 3 else { return nil }
    let picture = PixelBuffer(width: w, height: h)
    for y in 0..<h {
        let row = picture.row32(y)
        for x in 0..<w {
            let p = i + (y * w + x) * 3
            row[x] = UInt32(bytes[p]) << 16 | UInt32(bytes[p + 1]) << 8 | UInt32(bytes[p + 2])
        }
    }
    return picture
}

/// nil if the pictures are the same; else the size mismatch or the first differing pixel and how
/// many differ, with `NAME-expected.png` and `NAME-diff.png` (differing pixels red) written beside.
func difference(_ actual: PixelBuffer, _ expected: PixelBuffer, name: String, folder: String) -> String? {
    guard actual.size == expected.size else { return "\(name): size \(actual.size), expected \(expected.size)" }
    var first: (Int, Int)?
    var count = 0
    let diff = PixelBuffer(width: actual.width, height: actual.height)
    for y in 0..<actual.height {
        let a = actual.row32(y)
        let e = expected.row32(y)
        let d = diff.row32(y)
        for x in 0..<actual.width {
            if a[x] & 0xFF_FFFF != e[x] & 0xFF_FFFF {
                count += 1
                if first == nil { first = (x, y) }
                d[x] = 0xFF_0000
            } else {
                d[x] = (e[x] >> 2) & 0x3F_3F3F
            }
        }
    }
    guard let (x, y) = first else { return nil }
    try? PNGFile.write(expected, to: folder + "/\(name)-expected.png")
    try? PNGFile.write(diff, to: folder + "/\(name)-diff.png")
    return "\(name): \(count) pixels differ; first at (\(x), \(y)): \(actual.color(x: x, y: y)), expected "
        + "\(expected.color(x: x, y: y)) (see \(folder)/\(name)-diff.png)"
}

/// Pixels that are not black (the console's text, for example).
func litPixels(_ picture: PixelBuffer) -> Int {
    var n = 0
    for y in 0..<picture.height {
        let row = picture.row32(y)
        for x in 0..<picture.width where row[x] & 0xFF_FFFF != 0 { n += 1 }
    }
    return n
}

/// Whether a screendump is qemu's picture of an output with no scanout: "Display output is not
/// active." in its VGA font, gray (0xAAAAAA) on black, one line centred by character cells
/// (`qemu_create_placeholder_surface`), at the size the monitor had. virtio-gpu shows it while a
/// CRTC is off: after DPMS off, and for the moment of a mode set (the kernel's atomic helper turns
/// the CRTC off, then sets the new mode's scanout). Nothing else lit, nothing outside that line.
func isQemuOutputOff(_ picture: PixelBuffer) -> Bool {
    let message = 29  // "Display output is not active." in 8x16 cells
    guard picture.width / 8 >= message, picture.height >= 16 else { return false }
    let left = (picture.width / 8 - message) / 2 * 8, top = (picture.height / 16 - 1) / 2 * 16
    var lit = 0
    for y in 0..<picture.height {
        let row = picture.row32(y)
        for x in 0..<picture.width {
            let color = row[x] & 0xFF_FFFF
            if color == 0 { continue }
            guard color == 0xAA_AAAA, (left..<left + message * 8).contains(x), (top..<top + 16).contains(y) else {
                return false
            }
            lit += 1
        }
    }
    return lit > 0
}

/// A picture as a binary PPM (P6), the form vmctl's screendump-until compares.
func writePPM(_ picture: PixelBuffer, to path: String) throws {
    var ppm = Data("P6\n\(picture.width) \(picture.height)\n255\n".utf8)
    ppm.reserveCapacity(ppm.count + picture.width * picture.height * 3)
    for y in 0..<picture.height {
        for x in 0..<picture.width {
            let c = picture.color(x: x, y: y)
            ppm.append(contentsOf: [c.red, c.green, c.blue])
        }
    }
    try ppm.write(to: URL(fileURLWithPath: path))
}
