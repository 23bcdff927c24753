/// Which of Gadgetbridge's tables hold what, and in which unit their `TIMESTAMP` is.
///
/// Gadgetbridge keeps its data in an SQLite database made by greenDAO from its generator
/// (`GBDaoGenerator`): one table per entity, named in UPPER_SNAKE (`MiBandActivitySample` is
/// `MI_BAND_ACTIVITY_SAMPLE`), columns too (`stepsGoalSPD` is `STEPS_GOAL_SPD`). Tables and
/// columns are found by name here, never by a schema version: a table this reader needs is
/// looked up in `sqlite_master`, its columns with `PRAGMA table_info`.
public enum Tables {
    /// How a table's `TIMESTAMP` counts time. greenDAO's generator gives every activity sample
    /// (`addCommonActivitySampleProperties`) an int `timestamp` in seconds, one row a minute, and
    /// every time sample (`addCommonTimeSampleProperties`: heart rate, stress, daily summaries) a
    /// long `timestamp` in milliseconds.
    public enum TimestampUnit: String, Sendable, Equatable {
        case seconds, milliseconds

        /// Seconds per unit's count: a value in this unit divided by it is seconds.
        var perSecond: Int64 { self == .seconds ? 1 : 1000 }
    }

    /// The earliest and the latest moment (seconds since 1970) a timestamp may be: 2000-01-01 to
    /// 2100-01-01 UTC. A watch's data lies well inside; a count of milliseconds read as seconds
    /// lies tens of thousands of years later, one of seconds read as milliseconds in January 1970.
    public static let plausibleSeconds: Range<Int64> = 946_684_800..<4_102_444_800

    /// The per-minute activity table of each device family, by `DEVICE.TYPE_NAME` (Gadgetbridge's
    /// `DeviceType` names; each coordinator's `getSampleProvider` gives the table). A type not
    /// listed takes `fallback`'s rule.
    public static let activityTables: [(table: String, types: [String])] = [
        // The first Mi Band, and Huami's bands and watches before Zepp OS (MiBand2SampleProvider).
        (
            "MI_BAND_ACTIVITY_SAMPLE",
            [
                "MIBAND", "MIBAND2", "MIBAND2_HRX", "MIBAND3", "MIBAND4", "MIBAND5", "MIBAND6",
                "AMAZFITBIP", "AMAZFITBIP_LITE", "AMAZFITBIPS", "AMAZFITBIPS_LITE", "AMAZFITBIPU", "AMAZFITBIPUPRO",
                "AMAZFITBIP3", "AMAZFITBIP3PRO", "AMAZFITCOR", "AMAZFITCOR2", "AMAZFITGTR", "AMAZFITGTR_LITE",
                "AMAZFITGTR2", "AMAZFITGTR2E", "AMAZFITGTS", "AMAZFITGTS2", "AMAZFITGTS2_MINI", "AMAZFITGTS2E",
                "AMAZFITTREX", "AMAZFITTREXPRO", "AMAZFITBAND5", "AMAZFITVERGEL", "AMAZFITNEO", "AMAZFITX",
                "AMAZFITPOP", "AMAZFITPOPPRO", "ZEPP_E",
            ]
        ),
        // Huami's Zepp OS watches and bands (HuamiExtendedSampleProvider).
        (
            "HUAMI_EXTENDED_ACTIVITY_SAMPLE",
            [
                "MIBAND7", "AMAZFITBAND7", "AMAZFITGTS3", "AMAZFITGTR3", "AMAZFITGTR3PRO", "AMAZFITGTR4", "AMAZFITGTS4",
                "AMAZFITGTS4MINI", "AMAZFITGTRMINI", "AMAZFITTREX2", "AMAZFITTREX3", "AMAZFITTREXULTRA",
                "AMAZFITCHEETAHPRO", "AMAZFITCHEETAHSQUARE", "AMAZFITCHEETAHROUND", "AMAZFITBIP5", "AMAZFITBIP5UNITY",
                "AMAZFITFALCON", "AMAZFITBALANCE", "AMAZFITACTIVE", "AMAZFITACTIVEEDGE",
            ]
        ),
        // Xiaomi's own protocol: Mi Band 7 Pro and later, Redmi and Xiaomi watches (XiaomiSampleProvider).
        (
            "XIAOMI_ACTIVITY_SAMPLE",
            [
                "MIBAND7PRO", "MIBAND8", "MIBAND8ACTIVE", "MIBAND8PRO", "MIBAND9", "MIBAND9PRO", "MIWATCHLITE",
                "MIWATCHCOLORSPORT", "REDMIWATCH2", "REDMIWATCH2LITE", "REDMIWATCH3", "REDMIWATCH3ACTIVE", "REDMIWATCH4",
                "REDMIWATCH5ACTIVE", "REDMIWATCH5LITE", "REDMISMARTBAND2", "REDMISMARTBANDPRO", "XIAOMI_WATCH_S1",
                "XIAOMI_WATCH_S1_ACTIVE", "XIAOMI_WATCH_S1_PRO", "XIAOMI_WATCH_S3",
            ]
        ),
        // Garmin (GarminActivitySampleProvider); every GARMIN_… type too (`table(forType:)`).
        ("GARMIN_ACTIVITY_SAMPLE", ["VIVOMOVE_HR"]),
        ("PEBBLE_HEALTH_ACTIVITY_SAMPLE", ["PEBBLE"]),
        ("PINE_TIME_ACTIVITY_SAMPLE", ["PINETIME_JF"]),
        ("BANGLE_JSACTIVITY_SAMPLE", ["BANGLEJS"]),
    ]

    /// The activity table `DEVICE.TYPE_NAME` names, or nil (then `fallback`'s rule).
    public static func table(forType type: String) -> String? {
        if let family = activityTables.first(where: { $0.types.contains(type) }) { return family.table }
        if type.hasPrefix("GARMIN_") { return "GARMIN_ACTIVITY_SAMPLE" }
        return nil
    }

    /// The fallback for a device of a type not listed (or whose listed table is missing or empty
    /// for it): any table whose name ends in `_ACTIVITY_SAMPLE` and that has the columns
    /// `TIMESTAMP`, `DEVICE_ID` and `STEPS`, the one holding most of the device's rows.
    public static let activitySuffix = "_ACTIVITY_SAMPLE"
    public static let activityColumns: Set<String> = ["TIMESTAMP", "DEVICE_ID", "STEPS"]

    /// Daily summaries the device makes itself: time samples (milliseconds). Only Xiaomi's is read
    /// (for its `STANDING`: a bit per hour of the day the watch saw its wearer stand).
    public static let xiaomiDailySummary = "XIAOMI_DAILY_SUMMARY_SAMPLE"

    /// The unit of a table's `TIMESTAMP`, by its kind: the activity samples' seconds, the time
    /// samples' milliseconds (the daily summaries among them).
    public static func timestampUnit(of table: String) -> TimestampUnit {
        table.hasSuffix(activitySuffix) ? .seconds : .milliseconds
    }
}
