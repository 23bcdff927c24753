/// What a Gadgetbridge export holds for the rings, read whole: each device with its minutes, and
/// the person's step goal.
public struct Export: Sendable, Equatable {
    /// The file as given.
    public var file: String
    /// `USER_ATTRIBUTES.STEPS_GOAL_SPD` (the latest valid one above 0), or nil.
    public var stepGoal: Int?
    /// The devices with activity rows, in `DEVICE._id` order.
    public var devices: [DeviceData]

    public init(file: String, stepGoal: Int?, devices: [DeviceData]) {
        self.file = file
        self.stepGoal = stepGoal
        self.devices = devices
    }
}

/// A row of `DEVICE`.
public struct Device: Sendable, Equatable {
    public var id: Int64
    public var name: String
    /// Its MAC address, usually.
    public var identifier: String
    /// Gadgetbridge's `DeviceType` name (`MIBAND6`, `GARMIN_VENU_2`, …).
    public var typeName: String

    public init(id: Int64, name: String, identifier: String, typeName: String) {
        self.id = id
        self.name = name
        self.identifier = identifier
        self.typeName = typeName
    }

    /// What the samples of this device are kept as: `Gadgetbridge: <DEVICE.NAME>`.
    public var source: String { "Gadgetbridge: \(name)" }
}

/// One row of an activity-sample table: one minute.
public struct Minute: Sendable, Equatable {
    /// When the minute starts, seconds since 1970.
    public var start: Int64
    /// Steps in the minute (a value below 0, "not measured", is 0).
    public var steps: Int
    /// Active kilocalories in the minute, where the table has them (Garmin's `ACTIVE_CALORIES`);
    /// a value below 0 is 0.
    public var activeCalories: Double?
    /// Beats a minute, nil for no reading (Gadgetbridge writes −1, 0 or 255 then).
    public var heartRate: Int?

    public init(start: Int64, steps: Int, activeCalories: Double? = nil, heartRate: Int? = nil) {
        self.start = start
        self.steps = steps
        self.activeCalories = activeCalories
        self.heartRate = heartRate
    }
}

/// A day as the device summed it itself (`XIAOMI_DAILY_SUMMARY_SAMPLE`).
public struct DeviceDay: Sendable, Equatable {
    /// The day's start, seconds since 1970 (the table's milliseconds / 1000).
    public var start: Int64
    public var steps: Int?
    /// A bit per hour from the day's start (bit 0: 00:00 to 01:00) in which the wearer stood.
    public var standing: UInt32?

    public init(start: Int64, steps: Int? = nil, standing: UInt32? = nil) {
        self.start = start
        self.steps = steps
        self.standing = standing
    }
}

/// A device and what its tables hold.
public struct DeviceData: Sendable, Equatable {
    public var device: Device
    /// The activity table read.
    public var table: String
    /// Whether the table has active energy (`ACTIVE_CALORIES`): Move is energy then, else steps.
    public var hasActiveEnergy: Bool
    /// In time order.
    public var minutes: [Minute]
    public var deviceDays: [DeviceDay]

    public init(device: Device, table: String, hasActiveEnergy: Bool, minutes: [Minute], deviceDays: [DeviceDay] = []) {
        self.device = device
        self.table = table
        self.hasActiveEnergy = hasActiveEnergy
        self.minutes = minutes
        self.deviceDays = deviceDays
    }
}

extension Export {
    /// Whether `head` (a file's first bytes) starts as an SQLite 3 database does: what a
    /// Gadgetbridge export is. `read` then says whether it is one.
    public static func isSQLite(head: [UInt8]) -> Bool { head.starts(with: SQLiteFile.magic) }

    /// Reads the export at `path`, read-only (see `SQLiteFile`), whole: every device with rows in
    /// its activity table. `progress` is called with the fraction of rows read; false from it
    /// stops the read (`.stopped`).
    public static func read(_ path: String, progress: (Double) -> Bool = { _ in true }) throws(GadgetbridgeError) -> Export {
        let db = try SQLiteFile(path: path)
        let tables = Set(try db.tables())
        guard tables.contains("DEVICE"), try db.columns("DEVICE").isSuperset(of: ["_ID", "NAME", "TYPE_NAME"]) else {
            throw GadgetbridgeError(
                .notGadgetbridge, file: path,
                "an SQLite database without Gadgetbridge's DEVICE table (_id, NAME, TYPE_NAME), so not Gadgetbridge's export; "
                    + "export it from Gadgetbridge (Settings › Data management › Export DB)")
        }
        // Every table that may hold a device's minutes: named …_ACTIVITY_SAMPLE with the columns.
        var activity: [String: Set<String>] = [:]
        for table in tables.sorted() where table.hasSuffix(Tables.activitySuffix) {
            let columns = try db.columns(table)
            if columns.isSuperset(of: Tables.activityColumns) { activity[table] = columns }
        }
        guard !activity.isEmpty else {
            throw GadgetbridgeError(
                .notGadgetbridge, file: path,
                "no activity table this reader knows (none named …_ACTIVITY_SAMPLE with TIMESTAMP, DEVICE_ID and STEPS); "
                    + "a Gadgetbridge export of a newer or older kind than any published one? Please report it")
        }
        for table in activity.keys.sorted() { try checkTimestamps(db, table: table, unit: .seconds) }
        let summaries = tables.contains(Tables.xiaomiDailySummary) ? try db.columns(Tables.xiaomiDailySummary) : []
        let readSummaries = summaries.isSuperset(of: ["TIMESTAMP", "DEVICE_ID"])
        if readSummaries { try checkTimestamps(db, table: Tables.xiaomiDailySummary, unit: .milliseconds) }

        let goal = tables.contains("USER_ATTRIBUTES") ? try stepGoal(db) : nil
        var devices: [DeviceData] = []
        let rows = try deviceRows(db)
        // Rows per table and device, for the fallback and for progress.
        var counts: [String: [Int64: Int]] = [:]
        for table in activity.keys {
            let count = try db.prepare("SELECT DEVICE_ID, count(*) FROM \(SQLiteFile.quoted(table)) GROUP BY DEVICE_ID")
            while try count.step() { counts[table, default: [:]][count.int64(0) ?? -1] = Int(count.int64(1) ?? 0) }
        }
        let total = max(1, counts.values.reduce(0) { $0 + $1.values.reduce(0, +) })
        var done = 0
        guard progress(0) else { throw GadgetbridgeError(.stopped, file: path, "the read was stopped") }
        for device in rows {
            let known = Tables.table(forType: device.typeName).flatMap { activity[$0] == nil ? nil : $0 }
            let table: String?
            if let known, (counts[known]?[device.id] ?? 0) > 0 {
                table = known
            } else {
                // The fallback: the activity table with most of this device's rows.
                table = counts.filter { ($0.value[device.id] ?? 0) > 0 }
                    .max { ($0.value[device.id] ?? 0, $1.key) < ($1.value[device.id] ?? 0, $0.key) }?.key
            }
            guard let table, let columns = activity[table] else { continue }
            let minutes = try readMinutes(db, table: table, columns: columns, device: device.id, file: path) { n throws(GadgetbridgeError) in
                done += n
                guard progress(Double(done) / Double(total)) else {
                    throw GadgetbridgeError(.stopped, file: path, "the read was stopped")
                }
            }
            let days = readSummaries ? try readDeviceDays(db, columns: summaries, device: device.id) : []
            devices.append(DeviceData(device: device, table: table, hasActiveEnergy: columns.contains("ACTIVE_CALORIES"), minutes: minutes, deviceDays: days))
        }
        guard progress(1) else { throw GadgetbridgeError(.stopped, file: path, "the read was stopped") }
        return Export(file: path, stepGoal: goal, devices: devices)
    }

    /// Throws, naming the table, when its `TIMESTAMP`s (every one but 0 or NULL) do not all lie in
    /// `Tables.plausibleSeconds` read in `unit`; says which unit they would make sense in.
    public static func checkTimestamps(_ path: String, table: String, unit: Tables.TimestampUnit) throws(GadgetbridgeError) {
        let db = try SQLiteFile(path: path)
        try checkTimestamps(db, table: table, unit: unit)
    }

    static func checkTimestamps(_ db: SQLiteFile, table: String, unit: Tables.TimestampUnit) throws(GadgetbridgeError) {
        let row = try db.prepare(
            "SELECT min(TIMESTAMP), max(TIMESTAMP), count(*) - count(CAST(TIMESTAMP AS INTEGER) = TIMESTAMP OR NULL) "
                + "FROM \(SQLiteFile.quoted(table)) WHERE TIMESTAMP IS NOT NULL AND TIMESTAMP != 0")
        guard try row.step(), let low = row.int64(0), let high = row.int64(1) else { return }
        if (row.int64(2) ?? 0) > 0 {
            throw GadgetbridgeError(
                .badTimestamps, file: db.name,
                "table \(table): a TIMESTAMP that is no whole number; not Gadgetbridge's export, or one changed by hand")
        }
        for value in [low, high] {
            let seconds = value / unit.perSecond
            guard !Tables.plausibleSeconds.contains(seconds) else { continue }
            let other: Tables.TimestampUnit = unit == .seconds ? .milliseconds : .seconds
            let otherFits = Tables.plausibleSeconds.contains(value / other.perSecond)
            let why =
                otherFits
                ? "it makes sense only read as \(other.rawValue) (the 1000× mistake: a table of \(other.rawValue) under a name "
                    + "whose kind holds \(unit.rawValue))"
                : "it is no moment between 2000 and 2100 in either unit (a watch whose clock was never set?)"
            throw GadgetbridgeError(
                .badTimestamps, file: db.name,
                "table \(table): TIMESTAMP \(value) read in \(unit.rawValue) is no moment between 2000 and 2100; \(why). "
                    + "Nothing was imported; if the export came from a current Gadgetbridge, please report it")
        }
    }

    static func deviceRows(_ db: SQLiteFile) throws(GadgetbridgeError) -> [Device] {
        let columns = try db.columns("DEVICE")
        let identifier = columns.contains("IDENTIFIER") ? "IDENTIFIER" : "''"
        let row = try db.prepare("SELECT _id, NAME, \(identifier), TYPE_NAME FROM DEVICE ORDER BY _id")
        var devices: [Device] = []
        while try row.step() {
            guard let id = row.int64(0) else { continue }
            devices.append(
                Device(id: id, name: row.text(1) ?? "", identifier: row.text(2) ?? "", typeName: row.text(3) ?? ""))
        }
        return devices
    }

    /// The step goal: the `USER_ATTRIBUTES` row valid last (greatest `VALID_FROM_UTC`, then `_id`)
    /// with a `STEPS_GOAL_SPD` above 0.
    static func stepGoal(_ db: SQLiteFile) throws(GadgetbridgeError) -> Int? {
        let columns = try db.columns("USER_ATTRIBUTES")
        guard columns.contains("STEPS_GOAL_SPD") else { return nil }
        let order = (columns.contains("VALID_FROM_UTC") ? "VALID_FROM_UTC IS NULL, VALID_FROM_UTC DESC, " : "")
            + (columns.contains("_ID") ? "_id DESC" : "rowid DESC")
        let row = try db.prepare(
            "SELECT STEPS_GOAL_SPD FROM USER_ATTRIBUTES WHERE STEPS_GOAL_SPD > 0 ORDER BY \(order) LIMIT 1")
        guard try row.step(), let goal = row.int64(0), goal <= 1_000_000 else { return nil }
        return Int(goal)
    }

    static func readMinutes(
        _ db: SQLiteFile, table: String, columns: Set<String>, device: Int64, file: String,
        tick: (Int) throws(GadgetbridgeError) -> Void
    ) throws(GadgetbridgeError) -> [Minute] {
        let heart = columns.contains("HEART_RATE") ? "HEART_RATE" : "NULL"
        let energy = columns.contains("ACTIVE_CALORIES") ? "ACTIVE_CALORIES" : "NULL"
        let row = try db.prepare(
            "SELECT TIMESTAMP, STEPS, \(heart), \(energy) FROM \(SQLiteFile.quoted(table)) "
                + "WHERE DEVICE_ID = ?1 AND TIMESTAMP IS NOT NULL AND TIMESTAMP != 0 ORDER BY TIMESTAMP"
        ).bind(1, device)
        var minutes: [Minute] = []
        var since = 0
        while try row.step() {
            guard let start = row.int64(0) else { continue }
            let steps = row.int64(1) ?? 0
            guard steps <= 100_000 else {
                throw GadgetbridgeError(
                    .badValue, file: file,
                    "table \(table): \(steps) steps in the minute at \(start) s, more than anyone takes; not Gadgetbridge's export, "
                        + "or one changed by hand")
            }
            let rate = row.int64(2).flatMap { (1...254).contains($0) ? Int($0) : nil }
            let kcal = energy == "NULL" ? nil : max(0, row.double(3) ?? 0)
            minutes.append(Minute(start: start, steps: Int(max(0, steps)), activeCalories: kcal, heartRate: rate))
            since += 1
            if since == 4096 {
                try tick(since)
                since = 0
            }
        }
        try tick(since)
        return minutes
    }

    static func readDeviceDays(_ db: SQLiteFile, columns: Set<String>, device: Int64) throws(GadgetbridgeError) -> [DeviceDay] {
        let steps = columns.contains("STEPS") ? "STEPS" : "NULL"
        let standing = columns.contains("STANDING") ? "STANDING" : "NULL"
        let row = try db.prepare(
            "SELECT TIMESTAMP, \(steps), \(standing) FROM \(SQLiteFile.quoted(Tables.xiaomiDailySummary)) "
                + "WHERE DEVICE_ID = ?1 AND TIMESTAMP IS NOT NULL AND TIMESTAMP != 0 ORDER BY TIMESTAMP"
        ).bind(1, device)
        var days: [DeviceDay] = []
        while try row.step() {
            guard let ms = row.int64(0) else { continue }
            days.append(
                DeviceDay(
                    start: ms / 1000, steps: row.int64(1).map { Int(max(0, $0)) },
                    standing: row.int64(2).map { UInt32(truncatingIfNeeded: $0) & 0xFF_FFFF }))
        }
        return days
    }
}
