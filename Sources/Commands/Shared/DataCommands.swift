import Configuration
import DeviceLogic
import Activity
import Runtime
import CLI
import Store
import HelperCommands

/// The store's commands: `log`, `goals`, `metric`, `task`, `export`, `demo-data` (`import` is
/// HelperCommands' `ImportCommand`).
public enum DataCommands {
    /// The store's commands' statuses, with a command's own words for some of them.
    static func storeExits(_ own: ExitStatusNote...) -> [ExitStatusNote] {
        storeExits.map { note in own.first { $0.code == note.code } ?? note } + own.filter { o in !storeExits.contains { $0.code == o.code } }
    }

    static let storeExits = [
        ExitStatusNote(.ok, "done"),
        ExitStatusNote(.dataError, "bad data, or --db is not a Glance store (left as it is)"),
        ExitStatusNote(.noInput, "no store (a command that only reads)"),
        ExitStatusNote(.cannotCreate, "the store cannot be made there (a command that writes)"), ExitStatusNote(.ioError, "a read or write failed"),
        ExitStatusNote(.temporaryFailure, "the store is busy; try again"),
        ExitStatusNote(.noPermission, "the store (or its folder) may not be opened or written by this user"),
    ]

}
