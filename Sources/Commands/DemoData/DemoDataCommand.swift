import Configuration
import DeviceLogic
import Activity
import Runtime
import CLI
import Store
import HelperCommands

/// `glance demo-data`: its declaration; the work is `StoreJobs.demoData`, beside it.
extension DataCommands {
    static let demoData = CommandSpec<StoreJobs.DemoDataLine>(
        "demo-data", summary: "load the bundled demo days and metrics into the store",
        usage: ["demo-data [--end D] [--print] [--person NAME|ID] [--db PATH]"],
        about: StoreJobs.demoDataAbout,
        groups: [
            OptionGroup(
                "",
                [
                    .value("--end", as: Value.day,
                        help: "the date of the last demo day: YYYY-MM-DD, today or yesterday", default: "today", to: \.end),
                    .flag("--print", help: "print the bundled days as CSV instead of loading them", sets: \.printOnly),
                    CommonOptions.person(
                        \.person, help: "whose days they become: a person's name or id (default: person 1, the store's first)"),
                    CommonOptions.store(\.database),
                ])
        ],
        exits: storeExits)
}
