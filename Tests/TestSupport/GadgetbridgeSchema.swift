import CSQLite

/// Gadgetbridge's tables as greenDAO writes them for its generator (GBDaoGenerator: entities
/// `Device`, `UserAttributes`, `MiBandActivitySample`, `XiaomiActivitySample`,
/// `XiaomiDailySummarySample`, `GarminActivitySample`), for the databases tests make (no binary
/// fixture is committed): the Gadgetbridge suites and the device boot's watched folder.
public enum GadgetbridgeSchema {
    public static let device = """
        CREATE TABLE "DEVICE" ("_id" INTEGER PRIMARY KEY AUTOINCREMENT ,"NAME" TEXT NOT NULL ,"MANUFACTURER" TEXT NOT NULL ,\
        "IDENTIFIER" TEXT NOT NULL UNIQUE ,"TYPE" INTEGER NOT NULL ,"TYPE_NAME" TEXT NOT NULL ,"MODEL" TEXT,"ALIAS" TEXT,\
        "PARENT_FOLDER" TEXT);
        """
    public static let userAttributes = """
        CREATE TABLE "USER_ATTRIBUTES" ("_id" INTEGER PRIMARY KEY AUTOINCREMENT ,"HEIGHT_CM" INTEGER NOT NULL ,\
        "WEIGHT_KG" INTEGER NOT NULL ,"SLEEP_GOAL_HPD" INTEGER,"STEPS_GOAL_SPD" INTEGER,"VALID_FROM_UTC" INTEGER,\
        "VALID_TO_UTC" INTEGER,"USER_ID" INTEGER NOT NULL );
        """
    public static let miBand = """
        CREATE TABLE "MI_BAND_ACTIVITY_SAMPLE" ("TIMESTAMP" INTEGER  NOT NULL ,"DEVICE_ID" INTEGER  NOT NULL ,\
        "USER_ID" INTEGER NOT NULL ,"RAW_INTENSITY" INTEGER NOT NULL ,"STEPS" INTEGER NOT NULL ,"RAW_KIND" INTEGER NOT NULL ,\
        "HEART_RATE" INTEGER NOT NULL ,PRIMARY KEY ("TIMESTAMP" ,"DEVICE_ID" ) ON CONFLICT REPLACE) WITHOUT ROWID;
        """
    public static let xiaomi = """
        CREATE TABLE "XIAOMI_ACTIVITY_SAMPLE" ("TIMESTAMP" INTEGER  NOT NULL ,"DEVICE_ID" INTEGER  NOT NULL ,\
        "USER_ID" INTEGER NOT NULL ,"RAW_INTENSITY" INTEGER NOT NULL ,"STEPS" INTEGER NOT NULL ,"RAW_KIND" INTEGER NOT NULL ,\
        "HEART_RATE" INTEGER NOT NULL ,"STRESS" INTEGER,"SPO2" INTEGER,\
        PRIMARY KEY ("TIMESTAMP" ,"DEVICE_ID" ) ON CONFLICT REPLACE) WITHOUT ROWID;
        """
    public static let xiaomiDaily = """
        CREATE TABLE "XIAOMI_DAILY_SUMMARY_SAMPLE" ("TIMESTAMP" INTEGER  NOT NULL ,"DEVICE_ID" INTEGER  NOT NULL ,\
        "USER_ID" INTEGER NOT NULL ,"TIMEZONE" INTEGER,"STEPS" INTEGER,"HR_RESTING" INTEGER,"HR_MAX" INTEGER,"HR_MAX_TS" INTEGER,\
        "HR_MIN" INTEGER,"HR_MIN_TS" INTEGER,"HR_AVG" INTEGER,"STRESS_AVG" INTEGER,"STRESS_MAX" INTEGER,"STRESS_MIN" INTEGER,\
        "STANDING" INTEGER,"CALORIES" INTEGER,"SPO2_MAX" INTEGER,"SPO2_MAX_TS" INTEGER,"SPO2_MIN" INTEGER,"SPO2_MIN_TS" INTEGER,\
        "SPO2_AVG" INTEGER,"TRAINING_LOAD_DAY" INTEGER,"TRAINING_LOAD_WEEK" INTEGER,"TRAINING_LOAD_LEVEL" INTEGER,\
        "VITALITY_INCREASE_LIGHT" INTEGER,"VITALITY_INCREASE_MODERATE" INTEGER,"VITALITY_INCREASE_HIGH" INTEGER,\
        "VITALITY_CURRENT" INTEGER,PRIMARY KEY ("TIMESTAMP" ,"DEVICE_ID" ) ON CONFLICT REPLACE) WITHOUT ROWID;
        """
    public static let garmin = """
        CREATE TABLE "GARMIN_ACTIVITY_SAMPLE" ("TIMESTAMP" INTEGER  NOT NULL ,"DEVICE_ID" INTEGER  NOT NULL ,\
        "USER_ID" INTEGER NOT NULL ,"RAW_INTENSITY" INTEGER NOT NULL ,"STEPS" INTEGER NOT NULL ,"RAW_KIND" INTEGER NOT NULL ,\
        "HEART_RATE" INTEGER NOT NULL ,"DISTANCE_CM" INTEGER NOT NULL ,"ACTIVE_CALORIES" INTEGER NOT NULL ,\
        PRIMARY KEY ("TIMESTAMP" ,"DEVICE_ID" ) ON CONFLICT REPLACE) WITHOUT ROWID;
        """

    /// Makes the database `path` from `statements` (through SQLite's own library: no binary
    /// fixture is committed); `wal`: left in WAL mode, as Android keeps its databases.
    public static func make(_ path: String, _ statements: [String], wal: Bool = false) throws {
        var db: OpaquePointer?
        guard sqlite3_open(path, &db) == SQLITE_OK, let db else { throw MakeFailure("cannot make \(path)") }
        defer { sqlite3_close(db) }
        let all = (wal ? ["PRAGMA journal_mode=WAL;"] : []) + statements
        for sql in all {
            var message: UnsafeMutablePointer<CChar>?
            if sqlite3_exec(db, sql, nil, nil, &message) != SQLITE_OK {
                let text = message.map { String(cString: $0) } ?? "?"
                sqlite3_free(message)
                throw MakeFailure("\(sql.prefix(80)): \(text)")
            }
        }
    }

    /// Why a database could not be made.
    public struct MakeFailure: Error, CustomStringConvertible {
        public let description: String
        init(_ description: String) { self.description = description }
    }
}
