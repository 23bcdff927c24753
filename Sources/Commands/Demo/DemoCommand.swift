import Runtime
import CLI
import Configuration
import Controls
import Raster
import Platform
import ConfigurationFile
import HelperCommands

/// `glance demo`: its declaration; the work is `Pictures.demo`, beside it.
extension PictureCommands {
    static let demo = CommandSpec<Pictures.Demo>(
        "demo", summary: "draw the demo screens into a folder of PNG files, or the README's contact sheet",
        usage: ["demo [--output FOLDER] [--size WxH] [--today D] [--time HH:MM]", "demo --sheet FILE.png [--size WxH] …"],
        about: Pictures.demoAbout,
        groups: [
            OptionGroup(
                "",
                [
                    .value("--output", "-o", as: Value.folder, help: "where to write", default: "out", to: \.folder),
                    .value("--size", as: Value.size, help: "picture size", default: "800x480", to: \.size),
                    .value("--today", as: Value.day, help: "the date taken as today", default: "the system's", to: \.today),
                    .value("--time", as: Value.clockTime,
                        help: "the time the clock shows, HH:MM", default: "the system's", to: \.time),
                    .value("--sheet", as: Value.output("FILE.png", extensions: ["png"]),
                        help: "the contact sheet instead", to: \.sheet),
                ])
        ],
        exits: [
            ExitStatusNote(.ok, "written"), ExitStatusNote(.unavailable, "a font is missing"),
            ExitStatusNote(.cannotCreate, "FOLDER or a file in it cannot be created"),
        ])
}
