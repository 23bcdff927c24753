import Activity
import Platform

/// Something the store could not do; the message names the file (and line and column for bad
/// input) and says what to do.
public struct StoreError: Error, CustomStringConvertible, Equatable {
    public enum Kind: Sendable, Equatable {
        /// The input is not what it should be (an import file, a value): exit 65.
        case badData
        /// A file could not be read or written, or SQLite failed: exit 74.
        case io
        /// The store file does not exist (and was not to be created): exit 66.
        case missing
        /// Another process holds the store, or the named thing is busy: exit 75.
        case busy
        /// The user (or a Cancel button) stopped the work: exit 75.
        case cancelled
        /// A name or value given by the caller is not acceptable: exit 64.
        case invalidArgument
        /// The named metric or task does not exist: exit 65.
        case notFound
        /// The store (or its folder) may not be opened or written by this user: exit 77.
        case permission
        /// A new store (or its folder) cannot be made there (a read-only mount, a full disk): exit 73.
        case cannotCreate
    }

    public let kind: Kind
    public let message: String
    /// A bad row that `--skip-invalid` would have skipped (not a broken file).
    public let isSkippableRow: Bool
    /// The store's file is damaged (or no longer a database at all): nothing more should be
    /// written to it until it is restored.
    public let isDamage: Bool
    /// The store cannot grow: the device is full, or the store reached the size it may grow to.
    public let isFull: Bool

    /// What a person refused by the store's permissions can do.
    static let permissionHint =
        " (the system store is for root and group glance: sudo adduser $USER glance, then log in again; or give --db PATH)"

    /// A store SQLite finds damaged: refused for writing, with the ways back.
    static func damaged(_ path: String, _ detail: String) -> StoreError {
        StoreError(
            .badData, isDamage: true,
            "store \(path) is damaged (\(Quote.clip(detail, 120))); nothing was written to it. To recover: restore a "
                + "backup of it, or move it aside and glance import your Health export into a new store (sqlite3's "
                + ".recover may save days the export does not have)")
    }

    public init(_ kind: Kind, isDamage: Bool = false, isFull: Bool = false, _ message: String, isSkippableRow: Bool = false) {
        self.kind = kind
        self.message = message
        self.isSkippableRow = isSkippableRow
        self.isDamage = isDamage
        self.isFull = isFull
    }

    public var description: String { message }
}

extension StoreError {
    /// The exit status for a store error (sysexits).
    public var exitStatus: Outcome {
        switch kind {
        case .badData, .notFound: Outcome.dataError
        case .io: Outcome.ioError
        case .missing: Outcome.noInput
        case .busy: Outcome.temporaryFailure
        case .cancelled: Outcome.cancelled
        case .invalidArgument: Outcome.usage
        case .permission: Outcome.noPermission
        case .cannotCreate: Outcome.cannotCreate
        }
    }
}
