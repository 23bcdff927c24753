import Activity
import CSQLite
import Foundation
import Gadgetbridge
import TestSupport
import Testing

/// Gadgetbridge databases made here, from the CREATE TABLE statements greenDAO writes for
/// Gadgetbridge's generator (GBDaoGenerator: entities `Device`, `UserAttributes`,
/// `MiBandActivitySample`, `XiaomiActivitySample`, `XiaomiDailySummarySample`,
/// `GarminActivitySample`; an activity sample's `timestamp` an int of seconds, a time sample's a
/// long of milliseconds, greenDAO's dates milliseconds), with synthetic rows on two local days of
/// a zone without daylight saving time (UTC+2: `SAST-2`, South Africa).
enum GB {
    /// The board's zone of the tests: UTC+2 all year.
    static let offset = 7200
    static let tz = "SAST-2"
    struct Zone: UTCOffsets {
        func utcOffset(at unix: Int64) -> Int { GB.offset }
    }

    /// Local midnight starting 2024-03-04 in UTC+2 (2024-03-03T22:00:00Z).
    static let midnight: Int64 = 1_709_510_400 - 7200
    static let day0 = CalendarDay(year: 2024, month: 3, day: 4)!
    static let day1 = CalendarDay(year: 2024, month: 3, day: 5)!

    /// Seconds since 1970 of local day `d` (0 or 1), `h`:`m`.
    static func at(_ d: Int, _ h: Int, _ m: Int = 0) -> Int64 { midnight + Int64(d * 86_400 + h * 3600 + m * 60) }

    // The published schema (TestSupport's `GadgetbridgeSchema`, which the VM boot's file uses too).
    static let device = GadgetbridgeSchema.device
    static let userAttributes = GadgetbridgeSchema.userAttributes
    static let miBand = GadgetbridgeSchema.miBand
    static let xiaomi = GadgetbridgeSchema.xiaomi
    static let xiaomiDaily = GadgetbridgeSchema.xiaomiDaily
    static let garmin = GadgetbridgeSchema.garmin

    /// A family's database: its tables, rows and the figures its days must have.
    struct Family: Sendable, CustomTestStringConvertible {
        let name: String
        let sql: [String]
        let days: [DayFigures]
        var testDescription: String { name }
    }

    /// Minutes `m0..<m0+count` of local day `d`, hour `h`, as rows of `table`'s columns.
    static func minutes(
        _ table: String, device: Int, _ d: Int, _ h: Int, _ m0: Int, count: Int = 1, steps: Int, heart: Int = -1, kcal: Int? = nil
    ) -> String {
        let rows = (m0..<m0 + count).map { m -> String in
            let common = "\(at(d, h, m)), \(device), 1, 10, \(steps), 1, \(heart)"
            return kcal.map { "(\(common), \(steps * 70), \($0))" } ?? "(\(common))"
        }
        return "INSERT INTO \(table) VALUES " + rows.joined(separator: ", ") + ";"
    }

    static func deviceRow(_ id: Int, _ name: String, _ type: String) -> String {
        "INSERT INTO DEVICE VALUES (\(id), '\(name)', 'Maker', 'AA:BB:CC:00:00:0\(id)', 0, '\(type)', NULL, NULL, NULL);"
    }

    /// Mi Band 6 (Huami before Zepp OS): goal 8,000 steps. Day 0: 07:00–07:29 at 110 steps a
    /// minute (brisk), 12:10 40 steps, 15:00–15:04 no steps (heart rate only), 23:59 20 steps.
    /// Day 1: 00:30 exactly 100 (brisk), 09:00–09:09 at 99 (not brisk), 18:00–18:19 at 130.
    static let miBandFamily = Family(
        name: "Mi Band (MI_BAND_ACTIVITY_SAMPLE)",
        sql: [
            device, userAttributes, miBand, deviceRow(1, "Mi Band 6", "MIBAND6"),
            "INSERT INTO USER_ATTRIBUTES VALUES (1, 175, 70, 8, 8000, 1700000000000, NULL, 1);",
            minutes("MI_BAND_ACTIVITY_SAMPLE", device: 1, 0, 7, 0, count: 30, steps: 110, heart: 95),
            minutes("MI_BAND_ACTIVITY_SAMPLE", device: 1, 0, 12, 10, steps: 40, heart: -1),
            minutes("MI_BAND_ACTIVITY_SAMPLE", device: 1, 0, 15, 0, count: 5, steps: 0, heart: 70),
            minutes("MI_BAND_ACTIVITY_SAMPLE", device: 1, 0, 23, 59, steps: 20, heart: 0),
            minutes("MI_BAND_ACTIVITY_SAMPLE", device: 1, 1, 0, 30, steps: 100, heart: 255),
            minutes("MI_BAND_ACTIVITY_SAMPLE", device: 1, 1, 9, 0, count: 10, steps: 99),
            minutes("MI_BAND_ACTIVITY_SAMPLE", device: 1, 1, 18, 0, count: 20, steps: 130, heart: 120),
        ],
        days: [
            // 30×110 + 40 + 20 = 3,360 steps; 30 brisk minutes; hours 7, 12, 23 moving (15 not).
            DayFigures(
                day: day0, source: "Gadgetbridge: Mi Band 6", activeEnergy: nil, steps: 3360, stepGoal: 8000, stepGoalIsDefault: false,
                exerciseMinutes: 30, standHours: 3),
            // 100 + 10×99 + 20×130 = 3,690 steps; 1 + 20 brisk; hours 0, 9, 18.
            DayFigures(
                day: day1, source: "Gadgetbridge: Mi Band 6", activeEnergy: nil, steps: 3690, stepGoal: 8000, stepGoalIsDefault: false,
                exerciseMinutes: 21, standHours: 3),
        ])

    /// The standing bits of Xiaomi's day 0: hours 8, 9, 13 and 17.
    static let standing = 1 << 8 | 1 << 9 | 1 << 13 | 1 << 17

    /// Xiaomi Smart Band 8 (Xiaomi's protocol), no step goal (NULL): the default 10,000. Day 0:
    /// 08:00–08:44 at 105, 13:00 30 steps, and the band's own daily summary (milliseconds) with
    /// standing hours 8, 9, 13, 17. Day 1 (no summary): 10:00–10:14 at 120, 11:05 10 steps.
    static let xiaomiFamily = Family(
        name: "Xiaomi (XIAOMI_ACTIVITY_SAMPLE, XIAOMI_DAILY_SUMMARY_SAMPLE)",
        sql: [
            device, userAttributes, xiaomi, xiaomiDaily, deviceRow(1, "Xiaomi Smart Band 8", "MIBAND8"),
            "INSERT INTO USER_ATTRIBUTES VALUES (1, 175, 70, 8, NULL, 1700000000000, NULL, 1);",
            minutes("XIAOMI_ACTIVITY_SAMPLE (TIMESTAMP, DEVICE_ID, USER_ID, RAW_INTENSITY, STEPS, RAW_KIND, HEART_RATE)", device: 1, 0, 8, 0, count: 45, steps: 105),
            minutes("XIAOMI_ACTIVITY_SAMPLE (TIMESTAMP, DEVICE_ID, USER_ID, RAW_INTENSITY, STEPS, RAW_KIND, HEART_RATE)", device: 1, 0, 13, 0, steps: 30),
            minutes("XIAOMI_ACTIVITY_SAMPLE (TIMESTAMP, DEVICE_ID, USER_ID, RAW_INTENSITY, STEPS, RAW_KIND, HEART_RATE)", device: 1, 1, 10, 0, count: 15, steps: 120),
            minutes("XIAOMI_ACTIVITY_SAMPLE (TIMESTAMP, DEVICE_ID, USER_ID, RAW_INTENSITY, STEPS, RAW_KIND, HEART_RATE)", device: 1, 1, 11, 5, steps: 10),
            "INSERT INTO XIAOMI_DAILY_SUMMARY_SAMPLE (TIMESTAMP, DEVICE_ID, USER_ID, TIMEZONE, STEPS, STANDING, CALORIES) "
                + "VALUES (\(at(0, 0) * 1000), 1, 1, 8, 4755, \(standing), 260);",
        ],
        days: [
            // 45×105 + 30 = 4,755; 45 brisk; stand from the band's own bits: 4 (minutes alone: 2).
            DayFigures(
                day: day0, source: "Gadgetbridge: Xiaomi Smart Band 8", activeEnergy: nil, steps: 4755, stepGoal: 10_000,
                stepGoalIsDefault: true, exerciseMinutes: 45, standHours: 4),
            // 15×120 + 10 = 1,810; 15 brisk; hours 10 and 11.
            DayFigures(
                day: day1, source: "Gadgetbridge: Xiaomi Smart Band 8", activeEnergy: nil, steps: 1810, stepGoal: 10_000,
                stepGoalIsDefault: true, exerciseMinutes: 15, standHours: 2),
        ])

    /// Garmin Venu 2 (ACTIVE_CALORIES): goals 6,000 (older) then 9,000 (newer). Day 0: 06:00–06:29
    /// at 150 steps and 8 kcal a minute; 14:00 no steps, 3 kcal (cycling: energy, not standing);
    /// 14:01 −1 kcal (none). Day 1: 19:00–19:09 at 60 steps, 2 kcal.
    static let garminFamily = Family(
        name: "Garmin (GARMIN_ACTIVITY_SAMPLE)",
        sql: [
            device, userAttributes, garmin, deviceRow(1, "Venu 2", "GARMIN_VENU_2"),
            "INSERT INTO USER_ATTRIBUTES VALUES (1, 175, 70, 8, 6000, 1600000000000, 1700000000000, 1);",
            "INSERT INTO USER_ATTRIBUTES VALUES (2, 175, 70, 8, 9000, 1700000000000, NULL, 1);",
            minutes("GARMIN_ACTIVITY_SAMPLE", device: 1, 0, 6, 0, count: 30, steps: 150, heart: 130, kcal: 8),
            minutes("GARMIN_ACTIVITY_SAMPLE", device: 1, 0, 14, 0, steps: 0, heart: 110, kcal: 3),
            minutes("GARMIN_ACTIVITY_SAMPLE", device: 1, 0, 14, 1, steps: 0, heart: 100, kcal: -1),
            minutes("GARMIN_ACTIVITY_SAMPLE", device: 1, 1, 19, 0, count: 10, steps: 60, heart: 90, kcal: 2),
        ],
        days: [
            // 30×8 + 3 = 243 kcal; 30×150 = 4,500 steps; 30 brisk; hour 6 only (14 had no steps).
            DayFigures(
                day: day0, source: "Gadgetbridge: Venu 2", activeEnergy: 243, steps: 4500, stepGoal: 9000, stepGoalIsDefault: false,
                exerciseMinutes: 30, standHours: 1),
            // 10×2 = 20 kcal; 600 steps; none brisk; hour 19.
            DayFigures(
                day: day1, source: "Gadgetbridge: Venu 2", activeEnergy: 20, steps: 600, stepGoal: 9000, stepGoalIsDefault: false,
                exerciseMinutes: 0, standHours: 1),
        ])

    static let families = [miBandFamily, xiaomiFamily, garminFamily]

    /// Makes the database `path` from `statements` (`GadgetbridgeSchema.make`).
    static func make(_ path: String, _ statements: [String], wal: Bool = false) throws {
        do { try GadgetbridgeSchema.make(path, statements, wal: wal) } catch { throw Failure("\(error)") }
    }

    /// Every row of `sql` as text, columns joined with |.
    static func rows(_ path: String, _ sql: String) throws -> [String] {
        var db: OpaquePointer?
        guard sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, nil) == SQLITE_OK, let db else { throw Failure("cannot open \(path)") }
        defer { sqlite3_close(db) }
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(db, sql, -1, &statement, nil) == SQLITE_OK else {
            throw Failure("\(sql): \(String(cString: sqlite3_errmsg(db)))")
        }
        defer { sqlite3_finalize(statement) }
        var out: [String] = []
        while sqlite3_step(statement) == SQLITE_ROW {
            let n = sqlite3_column_count(statement)
            out.append((0..<n).map { sqlite3_column_text(statement, $0).map { String(cString: $0) } ?? "NULL" }.joined(separator: "|"))
        }
        return out
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
}
