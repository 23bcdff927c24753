/// Why a Gadgetbridge export could not be read: the file's name, what is wrong with it, and what
/// to do. Nothing was imported when one is thrown.
public struct GadgetbridgeError: Error, CustomStringConvertible, Equatable, Sendable {
    public enum Kind: Sendable, Equatable {
        /// No such file (or it vanished while it was opened).
        case missing
        /// The file could not be read (permissions, an I/O error).
        case unreadable
        /// Not an SQLite database at all (an Apple Health export, a text file, an empty file).
        case notSQLite
        /// An SQLite file that is cut short (mid-page, a copy still being written) or damaged
        /// (`PRAGMA quick_check` fails).
        case damaged
        /// An SQLite database, but not a Gadgetbridge export this reader knows: no `DEVICE` table,
        /// or no activity-sample table with `TIMESTAMP`, `DEVICE_ID` and `STEPS`.
        case notGadgetbridge
        /// A table whose `TIMESTAMP`s make no sense in the unit its kind has (seconds or
        /// milliseconds): the 1000× mistake, or a table of another meaning under a known name.
        case badTimestamps
        /// A value of a row that cannot be taken (a step count below 0, say).
        case badValue
        /// The caller asked the read to stop.
        case stopped
    }

    public let kind: Kind
    /// The file as it was given.
    public let file: String
    /// What is wrong, then what to do; without the file's name.
    public let reason: String

    public init(_ kind: Kind, file: String, _ reason: String) {
        self.kind = kind
        self.file = file
        self.reason = reason
    }

    public var description: String { "\(file): \(reason)" }
}
