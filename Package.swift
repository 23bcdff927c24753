// swift-tools-version:6.0
// Glance: Activity rings, gauges and progress indicators drawn straight to a small panel.
import PackageDescription

/// libxml2's headers, in their own folder (/usr/include/libxml2, on the host and in the arm64
/// build root alike), for the targets that include them (its modulemap links the library).
let libxml2Headers = (
    c: CSetting.unsafeFlags(["-I/usr/include/libxml2"]),
    swift: SwiftSetting.unsafeFlags(["-Xcc", "-I/usr/include/libxml2"])
)

let package = Package(
    name: "Glance",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "glance", targets: ["glance"]),
        // The commands that take data from outside (files, the network), git-style: `glance import`
        // runs glance-import from the package's library folder (/usr/lib/glance), so glance run's
        // binary has neither their code nor their libraries, and they have none of the panel's
        // (they depend on neither Runtime nor Commands: no Display, Input or Text).
        .executable(name: "glance-import", targets: ["glance-import"]),
        .executable(name: "glance-serve", targets: ["glance-serve"]),
        .executable(name: "glance-mqtt", targets: ["glance-mqtt"]),
    ],
    targets: [
        // C wrappers: system libraries from Debian, no code of their own.
        .systemLibrary(
            name: "CPNG",
            pkgConfig: "libpng",
            providers: [.apt(["libpng-dev"])]
        ),
        .systemLibrary(
            name: "CDRM",
            pkgConfig: "libdrm",
            providers: [.apt(["libdrm-dev"])]
        ),
        .systemLibrary(
            name: "CEvdev",
            pkgConfig: "libevdev",
            providers: [.apt(["libevdev-dev"])]
        ),
        // Kernel interfaces Swift cannot import by itself (ioctl numbers built by function-like
        // macros, signalfd/timerfd) and the async-signal-safe crash restore of the panel.
        .target(name: "CKernelShims"),
        // The version `glance --version` prints (tools/build-deb.sh gives the package's).
        .target(name: "CBuildInfo"),
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        // glance-import's: export.xml and export.zip (libxml2's headers in /usr/include/libxml2,
        // given as a flag to the targets that include them).
        .systemLibrary(name: "CXML", providers: [.apt(["libxml2-dev"])]),
        .systemLibrary(name: "CArchive", providers: [.apt(["libarchive-dev"])]),

        .systemLibrary(
            name: "CFreeType",
            pkgConfig: "freetype2",
            providers: [.apt(["libfreetype-dev"])]
        ),
        // Opened on first use (CDeferred): fonts not found at their Debian paths.
        .systemLibrary(name: "CFontconfig", providers: [.apt(["libfontconfig-dev"])]),
        .systemLibrary(
            name: "CHarfBuzz",
            pkgConfig: "harfbuzz",
            providers: [.apt(["libharfbuzz-dev"])]
        ),
        // Where lines may break, by the Unicode rules (UAX #14), tailored by language.
        .systemLibrary(
            name: "CUnibreak",
            pkgConfig: "libunibreak",
            providers: [.apt(["libunibreak-dev"])]
        ),

        // libmicrohttpd, with C wrappers for its variadic calls (glance serve).
        .systemLibrary(name: "CMicroHTTPD", providers: [.apt(["libmicrohttpd-dev"])]),
        .target(name: "CHTTPD", dependencies: ["CMicroHTTPD"]),
        .systemLibrary(name: "CMosquitto", providers: [.apt(["libmosquitto-dev"])]),
        .systemLibrary(name: "CQREncode", providers: [.apt(["libqrencode-dev"])]),
        // fontconfig opened on its first call, not by the dynamic loader at every start (with expat
        // it was a good part of its work before glance run's first frame, for fonts that are
        // nearly always at their Debian paths); the functions Glance calls, as stubs made from
        // one list (stubs.def).
        .target(name: "CDeferred", dependencies: ["CFontconfig", "CKernelShims"], exclude: ["stubs.def"]),

        // Pure core: nothing but the standard library. Square roots without errno (C's
        // -fno-math-errno for the standard library's inline sqrtf): a negative operand's NaN
        // is the same, and SIMD lanes and scalars become one instruction each, not a guarded
        // libm call per lane.
        .target(name: "Raster", swiftSettings: [.unsafeFlags(["-Xcc", "-fno-math-errno"])]),
        .target(name: "Activity"),
        // Live data: what requests to glance serve say (Health Auto Export, Glance's own bodies),
        // routes, limits. Pure.
        .target(name: "Feeds", dependencies: ["Activity", "JSON"]),
        // The command line, declared: parsing, help, man page, shell completions.
        .target(name: "CLI"),
        // What a screen is configured by (language, the panel's shape and viewing, the clock's
        // format, gauges, a task's progress): values the configuration declares without the drawing.
        .target(name: "Faces", dependencies: ["Raster"]),
        .target(name: "Screens", dependencies: ["Raster", "Activity", "Faces"]),
        // Actions, screen kinds, touch axes: shared by Input, Configuration and Runtime.
        .target(name: "Controls", dependencies: ["Raster"]),
        // JSON: a strict reader (values with paths for errors) and a writer.
        .target(name: "JSON"),
        .target(name: "Configuration", dependencies: ["Controls", "CLI", "JSON", "Raster", "Activity", "Faces"]),
        // The device's logic, pure: navigation, idle, the cycle, the light, input routing, the
        // controller (its world through ports Runtime gives), how data becomes screens.
        .target(name: "DeviceLogic", dependencies: ["Activity", "Controls", "Raster", "Screens"]),
        // The local calendar and wall clock (TZ) as the C library has them, for the device's logic.
        .target(name: "Clocks", dependencies: ["Activity"]),
        // Where the running panel's control socket is, for the panel and its clients.
        .target(name: "ControlSocket", dependencies: ["Activity", "Platform", "Raster"]),
        // The configuration file read (and the command line layered over it), for glance and its helpers.
        .target(name: "ConfigurationFile", dependencies: ["Configuration", "Platform"]),

        // Edges.
        .target(name: "ImageFile", dependencies: ["Raster", "Platform", "CPNG"]),
        .target(name: "Text", dependencies: ["Raster", "CFreeType", "CFontconfig", "CHarfBuzz", "CUnibreak", "CDeferred"]),
        // Platform: file descriptors, errno-carrying errors, signalfd, timerfd, poll.
        .target(name: "Platform", dependencies: ["CKernelShims"]),
        // HTTP: a server on libmicrohttpd for the caller's poll loop.
        .target(name: "HTTP", dependencies: ["Platform", "CHTTPD"]),
        // MQTT: a client on libmosquitto for the caller's poll loop (gauges from the home).
        .target(name: "MQTT", dependencies: ["Platform", "CMosquitto"]),
        .target(name: "Display", dependencies: ["Raster", "Platform", "CDRM", "CKernelShims"]),
        // QR codes as text (libqrencode, opened on first use).
        .target(name: "QRCode", dependencies: ["CQREncode"]),
        // The panel's light: a backlight under /sys/class/backlight.
        .target(name: "Backlight", dependencies: ["Platform", "CKernelShims"]),
        .target(name: "Input", dependencies: ["Activity", "Platform", "CKernelShims", "CEvdev", "Controls", "Raster"]),
        .target(
            name: "Store",
            dependencies: ["Activity", "JSON", "Platform", "CSQLite"],
            resources: [.embedInCode("Resources/demo-activity.csv"), .embedInCode("Resources/demo-metrics.csv")]
        ),
        // Gadgetbridge's export (its SQLite database, opened read-only) into ring minutes and the
        // rings' figures: pure but for SQLite; glance-import's.
        .target(name: "Gadgetbridge", dependencies: ["Activity", "CSQLite"]),
        // export.xml (libxml2) and export.zip (libarchive) into the store's import: glance-import's.
        .target(
            name: "HealthExport",
            dependencies: ["Activity", "Store", "CXML", "CArchive"],
            // HealthXMLReader's `internal import CXML`: modules that import this do not read them.
            swiftSettings: [libxml2Headers.swift]
        ),
        .target(
            name: "Runtime",
            dependencies: [
                "Display", "Screens", "Activity", "Raster", "Platform", "Input", "Controls", "Configuration", "Store", "DeviceLogic",
                "Backlight", "Clocks", "ConfigurationFile", "ControlSocket",
                "ImageFile", "Text", "Feeds",
            ]),
        // The network's sides, each for its own executable: glance serve (HTTP, the token's QR
        // code) and glance mqtt (the broker, Home Assistant).
        // The panel's web page, pure: its pages (HTML, en and zh-Hans), the settings' forms made
        // from their declarations, form bodies, the configuration file's text edited in place,
        // sessions and CSRF tokens. glance-serve's (`glance web`), never the panel's.
        .target(name: "Web", dependencies: ["Activity", "CLI", "Configuration", "Controls", "Faces", "Feeds", "JSON"]),
        .target(
            name: "Server",
            dependencies: [
                "Activity", "Configuration", "Feeds", "HTTP", "JSON", "Platform", "Store", "QRCode",
                // glance people token NAME --panel: the phone's QR code to the running panel.
                "ControlSocket", "Controls",
                // glance web: the pages, the file checked as glance config check does, the frame as a PNG.
                "Web", "ConfigurationFile", "ImageFile", "Raster",
            ]),
        .target(
            name: "HomeBridge",
            dependencies: [
                "Activity", "Clocks", "Configuration", "ControlSocket", "Controls", "Feeds", "JSON", "MQTT", "Platform", "Store",
                // The Screenshot image: the panel's frame as a PNG (libpng; no drawing of its own).
                "ImageFile", "Raster",
            ]),
        // What glance and its helpers both declare: import, serve and mqtt (glance lists them, their
        // executables parse by them), the entry every command runs through, the exit statuses, the version.
        .target(name: "HelperCommands", dependencies: ["CLI", "Configuration", "Platform", "Store", "CBuildInfo"]),
        .target(
            name: "Commands",
            dependencies: [
                "Raster", "Activity", "Screens", "Configuration", "Display", "Runtime", "Platform", "Store", "CLI", "Controls", "DeviceLogic",
                "Clocks", "ConfigurationFile", "ControlSocket", "HelperCommands", "Input", "Text", "ImageFile", "JSON", "Feeds",
            ]
        ),

        // The executable: subcommands only.
        .executableTarget(name: "glance", dependencies: ["Commands"]),
        .executableTarget(
            name: "glance-import",
            dependencies: [
                "HelperCommands", "Activity", "HealthExport", "Gadgetbridge", "Clocks", "Store", "Platform", "Feeds",
                // --watch: the configuration's import.watch and database.
                "Configuration", "ConfigurationFile",
            ]),
        .executableTarget(name: "glance-serve", dependencies: ["HelperCommands", "Server", "ConfigurationFile", "Platform"]),
        .executableTarget(name: "glance-mqtt", dependencies: ["HelperCommands", "HomeBridge", "ConfigurationFile", "Platform"]),

        // What the test targets share: the process runner (and the glance executable, natively or
        // through an emulator), scratch folders, the repository's root.
        .target(name: "TestSupport", dependencies: ["Raster", "CSQLite"], path: "Tests/TestSupport"),

        .testTarget(name: "RasterTests", dependencies: ["Raster"]),
        .testTarget(name: "CLITests", dependencies: ["CLI"]),
        // docs/: the module table of docs/architecture.md against the imports.
        .testTarget(name: "RepositoryTests"),
        .testTarget(name: "ActivityTests", dependencies: ["Activity"]),
        .testTarget(name: "TextTests", dependencies: ["Text", "Raster", "ImageFile", "TestSupport"]),
        .testTarget(name: "ConfigurationTests", dependencies: ["Configuration", "Controls", "CLI", "Activity", "Raster"]),
        .testTarget(name: "JSONTests", dependencies: ["JSON"]),
        .testTarget(name: "WebTests", dependencies: ["Web", "Configuration", "Controls", "JSON", "Activity"]),
        // TestSupport's Browser (Debian's Chromium through chromedriver) against pages the test serves.
        .testTarget(name: "BrowserTests", dependencies: ["TestSupport"]),
        .testTarget(name: "FeedsTests", dependencies: ["Feeds", "Activity", "JSON"]),
        // Gadgetbridge databases made by the tests from the published schemas, read and imported.
        .testTarget(
            name: "GadgetbridgeTests",
            dependencies: ["Gadgetbridge", "Activity", "CSQLite", "Store", "TestSupport", "glance", "glance-import"]),
        .testTarget(
            name: "ScreensTests",
            // QRCode: real codes for the QR code screen's goldens (libqrencode is glance-serve's).
            dependencies: ["Screens", "Raster", "Activity", "ImageFile", "Text", "QRCode"],
            exclude: ["Goldens"]
        ),
        .testTarget(name: "CommandsTests", dependencies: ["Commands", "CLI", "ImageFile", "Raster", "TestSupport"]),
        .testTarget(name: "PlatformTests", dependencies: ["Platform", "TestSupport"]),
        .testTarget(name: "DisplayTests", dependencies: ["Display", "Raster"]),
        .testTarget(name: "DeviceLogicTests", dependencies: ["DeviceLogic", "Activity", "Controls", "Raster", "Screens"]),
        .testTarget(name: "InputTests", dependencies: ["Input", "Controls", "Raster"], exclude: ["Fixtures"]),
        .testTarget(
            name: "RuntimeTests",
            dependencies: [
                "Runtime", "Activity", "Screens", "Raster", "Input", "Controls", "Configuration", "Platform", "Store", "ImageFile", "DeviceLogic",
                "Backlight", "QRCode", "Server", "HomeBridge", "CDeferred", "Clocks", "ConfigurationFile",
                "CKernelShims", "TestSupport",
                // glance screenshot's client, against the session's control socket.
                "Commands",
            ]),
        // device/: the shipped configuration files, their documentation, the systemd unit.
        .testTarget(name: "DeviceTests", dependencies: ["Configuration", "Controls", "JSON", "TestSupport"]),
        // End-to-end on a real kernel: boots tools/vm/run-in-vm.sh with the built .build/debug/glance.
        .testTarget(name: "VMTests", dependencies: ["ImageFile", "Raster", "TestSupport"]),
        .testTarget(
            name: "StoreTests",
            dependencies: ["Store", "Activity", "Screens", "ImageFile", "Raster", "Runtime", "Configuration", "Platform", "HealthExport", "TestSupport",
                // glance people --panel: libqrencode's code of the link, to read the panel's frame by.
                "QRCode",
                // The executables the command tests run.
                "glance", "glance-import", "glance-serve", "glance-mqtt",
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)

// GLANCE_TEST_TARGETS="A B ...": a package of only those test targets and what they need (the
// targets they depend on, in turn), no executables. tools/arm64/test.sh builds the suites it runs
// under emulation this way: a build of every test target, Runtime's, the commands' and the
// store's with them, was most of the arm64 lane's time in make test, for suites it never runs.
if let only = Context.environment["GLANCE_TEST_TARGETS"], !only.isEmpty {
    let wanted = only.split(separator: " ").map(String.init)
    var kept: Set<String> = []
    var queue = wanted
    while let name = queue.popLast() {
        guard kept.insert(name).inserted, let target = package.targets.first(where: { $0.name == name }) else { continue }
        for dependency in target.dependencies {
            switch dependency {
            case .targetItem(let name, _), .byNameItem(let name, _): queue.append(name)
            default: break
            }
        }
    }
    package.targets.removeAll { !kept.contains($0.name) }
    package.products.removeAll { product in product.name.hasPrefix("glance") && !kept.contains(product.name) }
}

// The product's code asks for a generic type's metadata through its accessor, with the
// conformances it already knows, instead of by mangled name: by name, the Swift runtime demangles
// the name and looks each conformance up in every conformance record of the binary (2,300 in
// glance) the first time, about 150 K instructions a type; a quarter of `glance run`'s work before
// its first frame was that (docs/speed.md, the first frame).
for target in package.targets where target.type == .regular || target.type == .executable {
    target.swiftSettings =
        (target.swiftSettings ?? []) + [.unsafeFlags(["-Xfrontend", "-disable-concrete-type-metadata-mangled-name-accessors"])]
}
