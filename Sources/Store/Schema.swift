/// The store's schema, as a list of migrations: migration i brings `user_version` from i to i+1.
///
/// Never edit a migration that has shipped; append a new one.
public enum Schema {
    static let migrations: [String] = [
        // 1: day summaries, metrics, tasks.
        """
        CREATE TABLE day_summaries (
            date TEXT PRIMARY KEY NOT NULL
                CHECK (date GLOB '[0-9][0-9][0-9][0-9]-[0-1][0-9]-[0-3][0-9]'),
            active_energy_burned REAL CHECK (active_energy_burned >= 0),
            active_energy_burned_unit TEXT CHECK (active_energy_burned_unit IN ('kcal', 'Cal', 'kJ')),
            active_energy_burned_goal REAL CHECK (active_energy_burned_goal >= 0),
            active_energy_burned_goal_unit TEXT CHECK (active_energy_burned_goal_unit IN ('kcal', 'Cal', 'kJ')),
            move_time REAL CHECK (move_time >= 0),
            move_time_goal REAL CHECK (move_time_goal >= 0),
            exercise_time REAL CHECK (exercise_time >= 0),
            exercise_time_goal REAL CHECK (exercise_time_goal >= 0),
            stand_hours REAL CHECK (stand_hours >= 0),
            stand_hours_goal REAL CHECK (stand_hours_goal >= 0),
            move_mode TEXT NOT NULL DEFAULT 'activeEnergy' CHECK (move_mode IN ('activeEnergy', 'moveTime'))
        ) WITHOUT ROWID;
        CREATE TABLE metrics (
            name TEXT PRIMARY KEY NOT NULL,
            value REAL,
            min REAL,
            max REAL,
            unit TEXT,
            updated INTEGER NOT NULL
        ) WITHOUT ROWID;
        CREATE TABLE tasks (
            name TEXT PRIMARY KEY NOT NULL,
            done REAL NOT NULL DEFAULT 0 CHECK (done >= 0),
            total REAL CHECK (total >= 0),
            description TEXT,
            cancellable INTEGER NOT NULL DEFAULT 0,
            cancel_requested INTEGER NOT NULL DEFAULT 0,
            state TEXT NOT NULL DEFAULT 'running' CHECK (state IN ('running', 'done', 'failed', 'cancelled')),
            pid INTEGER,
            started INTEGER NOT NULL,
            updated INTEGER NOT NULL
        ) WITHOUT ROWID;
        """,
        // 2: what the device remembers across restarts (the brightness chosen with its keys).
        """
        CREATE TABLE preferences (
            name TEXT PRIMARY KEY NOT NULL,
            value TEXT NOT NULL,
            updated INTEGER NOT NULL
        ) WITHOUT ROWID;
        """,
        // 3: samples as a source sends them (a day's figure is their sum), and the standing goals
        // with the date each starts.
        """
        CREATE TABLE samples (
            metric TEXT NOT NULL CHECK (metric IN ('active_energy', 'apple_exercise_time', 'apple_stand_hour')),
            start INTEGER NOT NULL,
            source TEXT NOT NULL DEFAULT '',
            quantity REAL NOT NULL CHECK (quantity >= 0),
            unit TEXT NOT NULL,
            value REAL NOT NULL CHECK (value >= 0),
            day TEXT NOT NULL CHECK (day GLOB '[0-9][0-9][0-9][0-9]-[0-1][0-9]-[0-3][0-9]'),
            PRIMARY KEY (metric, start, source)
        ) WITHOUT ROWID;
        CREATE INDEX samples_by_day ON samples (day, metric, unit, quantity, value);
        CREATE TABLE goals (
            start TEXT PRIMARY KEY NOT NULL
                CHECK (start GLOB '[0-9][0-9][0-9][0-9]-[0-1][0-9]-[0-3][0-9]'),
            move REAL CHECK (move >= 0),
            move_unit TEXT CHECK (move_unit IN ('kcal', 'Cal', 'kJ')),
            exercise REAL CHECK (exercise >= 0),
            stand REAL CHECK (stand >= 0),
            updated INTEGER NOT NULL
        ) WITHOUT ROWID;
        """,
        // 4: steps (Move from a step counter: a day's steps and step goal, samples of steps, a
        // standing step goal), where a day's own figures came from, and the feed each sample came
        // through (two feeds' samples of one moment are two samples; a day counts one feed's).
        // SQLite cannot change a CHECK: the two tables are made again and copied.
        """
        CREATE TABLE day_summaries_4 (
            date TEXT PRIMARY KEY NOT NULL
                CHECK (date GLOB '[0-9][0-9][0-9][0-9]-[0-1][0-9]-[0-3][0-9]'),
            active_energy_burned REAL CHECK (active_energy_burned >= 0),
            active_energy_burned_unit TEXT CHECK (active_energy_burned_unit IN ('kcal', 'Cal', 'kJ')),
            active_energy_burned_goal REAL CHECK (active_energy_burned_goal >= 0),
            active_energy_burned_goal_unit TEXT CHECK (active_energy_burned_goal_unit IN ('kcal', 'Cal', 'kJ')),
            move_time REAL CHECK (move_time >= 0),
            move_time_goal REAL CHECK (move_time_goal >= 0),
            exercise_time REAL CHECK (exercise_time >= 0),
            exercise_time_goal REAL CHECK (exercise_time_goal >= 0),
            stand_hours REAL CHECK (stand_hours >= 0),
            stand_hours_goal REAL CHECK (stand_hours_goal >= 0),
            move_mode TEXT NOT NULL DEFAULT 'activeEnergy' CHECK (move_mode IN ('activeEnergy', 'moveTime', 'steps')),
            steps REAL CHECK (steps >= 0),
            steps_goal REAL CHECK (steps_goal >= 0),
            source TEXT NOT NULL DEFAULT ''
        ) WITHOUT ROWID;
        INSERT INTO day_summaries_4 (date, active_energy_burned, active_energy_burned_unit, active_energy_burned_goal,
            active_energy_burned_goal_unit, move_time, move_time_goal, exercise_time, exercise_time_goal,
            stand_hours, stand_hours_goal, move_mode)
        SELECT date, active_energy_burned, active_energy_burned_unit, active_energy_burned_goal,
            active_energy_burned_goal_unit, move_time, move_time_goal, exercise_time, exercise_time_goal,
            stand_hours, stand_hours_goal, move_mode FROM day_summaries;
        DROP TABLE day_summaries;
        ALTER TABLE day_summaries_4 RENAME TO day_summaries;
        CREATE TABLE samples_4 (
            metric TEXT NOT NULL CHECK (metric IN ('active_energy', 'apple_exercise_time', 'apple_stand_hour', 'steps')),
            start INTEGER NOT NULL,
            feed TEXT NOT NULL DEFAULT 'health-auto-export',
            source TEXT NOT NULL DEFAULT '',
            quantity REAL NOT NULL CHECK (quantity >= 0),
            unit TEXT NOT NULL,
            value REAL NOT NULL CHECK (value >= 0),
            day TEXT NOT NULL CHECK (day GLOB '[0-9][0-9][0-9][0-9]-[0-1][0-9]-[0-3][0-9]'),
            PRIMARY KEY (metric, start, feed, source)
        ) WITHOUT ROWID;
        INSERT INTO samples_4 (metric, start, source, quantity, unit, value, day)
        SELECT metric, start, source, quantity, unit, value, day FROM samples;
        DROP TABLE samples;
        ALTER TABLE samples_4 RENAME TO samples;
        CREATE INDEX samples_by_day ON samples (day, metric, feed, unit, quantity, value);
        ALTER TABLE goals ADD COLUMN steps REAL CHECK (steps >= 0);
        """,
        // 5: people (issue 39: the household's rings). Person 1 is the one the store was for; every
        // day, sample and goal becomes someone's, first in each key, so each person's rows are
        // found (and removed) together. Metrics, tasks and preferences stay the panel's. The three
        // tables are made again (a key cannot change) and copied, every row as person 1's.
        // AUTOINCREMENT: a removed person's id is never given again (their token file names it).
        // Person 1's colour is the first of `Person.palette` (a test checks they agree).
        """
        CREATE TABLE people (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            name TEXT NOT NULL UNIQUE COLLATE NOCASE CHECK (length(name) BETWEEN 1 AND 128),
            colour TEXT NOT NULL CHECK (colour GLOB '#[0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f]'),
            created INTEGER NOT NULL,
            last_push INTEGER
        );
        INSERT INTO people (id, name, colour, created) VALUES (1, 'Me', '#ffb300', CAST(strftime('%s', 'now') AS INTEGER));
        CREATE TABLE day_summaries_5 (
            person INTEGER NOT NULL DEFAULT 1 REFERENCES people (id),
            date TEXT NOT NULL
                CHECK (date GLOB '[0-9][0-9][0-9][0-9]-[0-1][0-9]-[0-3][0-9]'),
            active_energy_burned REAL CHECK (active_energy_burned >= 0),
            active_energy_burned_unit TEXT CHECK (active_energy_burned_unit IN ('kcal', 'Cal', 'kJ')),
            active_energy_burned_goal REAL CHECK (active_energy_burned_goal >= 0),
            active_energy_burned_goal_unit TEXT CHECK (active_energy_burned_goal_unit IN ('kcal', 'Cal', 'kJ')),
            move_time REAL CHECK (move_time >= 0),
            move_time_goal REAL CHECK (move_time_goal >= 0),
            exercise_time REAL CHECK (exercise_time >= 0),
            exercise_time_goal REAL CHECK (exercise_time_goal >= 0),
            stand_hours REAL CHECK (stand_hours >= 0),
            stand_hours_goal REAL CHECK (stand_hours_goal >= 0),
            move_mode TEXT NOT NULL DEFAULT 'activeEnergy' CHECK (move_mode IN ('activeEnergy', 'moveTime', 'steps')),
            steps REAL CHECK (steps >= 0),
            steps_goal REAL CHECK (steps_goal >= 0),
            source TEXT NOT NULL DEFAULT '',
            PRIMARY KEY (person, date)
        ) WITHOUT ROWID;
        INSERT INTO day_summaries_5 (person, date, active_energy_burned, active_energy_burned_unit, active_energy_burned_goal,
            active_energy_burned_goal_unit, move_time, move_time_goal, exercise_time, exercise_time_goal,
            stand_hours, stand_hours_goal, move_mode, steps, steps_goal, source)
        SELECT 1, date, active_energy_burned, active_energy_burned_unit, active_energy_burned_goal,
            active_energy_burned_goal_unit, move_time, move_time_goal, exercise_time, exercise_time_goal,
            stand_hours, stand_hours_goal, move_mode, steps, steps_goal, source FROM day_summaries;
        DROP TABLE day_summaries;
        ALTER TABLE day_summaries_5 RENAME TO day_summaries;
        CREATE TABLE samples_5 (
            person INTEGER NOT NULL DEFAULT 1 REFERENCES people (id),
            metric TEXT NOT NULL CHECK (metric IN ('active_energy', 'apple_exercise_time', 'apple_stand_hour', 'steps')),
            start INTEGER NOT NULL,
            feed TEXT NOT NULL DEFAULT 'health-auto-export',
            source TEXT NOT NULL DEFAULT '',
            quantity REAL NOT NULL CHECK (quantity >= 0),
            unit TEXT NOT NULL,
            value REAL NOT NULL CHECK (value >= 0),
            day TEXT NOT NULL CHECK (day GLOB '[0-9][0-9][0-9][0-9]-[0-1][0-9]-[0-3][0-9]'),
            PRIMARY KEY (person, metric, start, feed, source)
        ) WITHOUT ROWID;
        INSERT INTO samples_5 (person, metric, start, feed, source, quantity, unit, value, day)
        SELECT 1, metric, start, feed, source, quantity, unit, value, day FROM samples;
        DROP TABLE samples;
        ALTER TABLE samples_5 RENAME TO samples;
        CREATE INDEX samples_by_day ON samples (person, day, metric, feed, unit, quantity, value);
        CREATE TABLE goals_5 (
            person INTEGER NOT NULL DEFAULT 1 REFERENCES people (id),
            start TEXT NOT NULL
                CHECK (start GLOB '[0-9][0-9][0-9][0-9]-[0-1][0-9]-[0-3][0-9]'),
            move REAL CHECK (move >= 0),
            move_unit TEXT CHECK (move_unit IN ('kcal', 'Cal', 'kJ')),
            exercise REAL CHECK (exercise >= 0),
            stand REAL CHECK (stand >= 0),
            updated INTEGER NOT NULL,
            steps REAL CHECK (steps >= 0),
            PRIMARY KEY (person, start)
        ) WITHOUT ROWID;
        INSERT INTO goals_5 (person, start, move, move_unit, exercise, stand, updated, steps)
        SELECT 1, start, move, move_unit, exercise, stand, updated, steps FROM goals;
        DROP TABLE goals;
        ALTER TABLE goals_5 RENAME TO goals;
        """,
    ]

    /// The version this build writes.
    public static var currentVersion: Int { migrations.count }

    /// The schema version of `db`, once it is known to be a store this build can use. Only reads:
    /// a file that is not a Glance store is refused before anything is written to it.
    static func version(of db: Connection) throws(StoreError) -> Int {
        // Both from one snapshot: read in two transactions, another process's first migration
        // could commit between them, and its new tables would be taken for someone else's
        // database (two commands making the same new store at once). The first statement,
        // stepped to its row and not reset, holds the read transaction the second reads in (two
        // plain statements: `pragma_user_version` in one SELECT brought SQLite's virtual-table
        // code into every opening, a tenth of the SQLite code glance run's first frame ran).
        let version = try db.prepare("PRAGMA user_version")
        guard try version.step() else { return 0 }
        defer { version.reset() }
        let count = try db.prepare("SELECT count(*) FROM sqlite_master")
        guard try count.step() else { return 0 }
        let found = Int(version.int64(0) ?? 0)
        let tables = count.int64(0) ?? 0
        count.reset()
        if found > currentVersion {
            throw StoreError(
                .badData,
                "store \(db.path): schema version \(found) is newer than this Glance knows (\(currentVersion)); update Glance"
            )
        }
        // Version 0 is a new, empty file; one that already has tables is someone else's database.
        if found == 0, tables > 0 {
            throw StoreError(.badData, "not a Glance store: \(db.path) (give the Glance store with --db)")
        }
        return found
    }

    /// Applies the migrations the store lacks, each in its own transaction.
    static func migrate(_ db: Connection) throws(StoreError) {
        let found = try version(of: db)
        guard found < currentVersion else { return }
        for version in found..<currentVersion {
            try db.transaction { () throws(StoreError) in
                // Another process may have migrated while we waited for the lock.
                let now = Int(try db.integer("PRAGMA user_version") ?? 0)
                guard now == version else { return }
                try db.execute(migrations[version])
                try db.execute("PRAGMA user_version = \(version + 1)")
            }
        }
        // A store just made: the pages of the tables a later migration made again are given back
        // (its size is then what its rows take, as the store bound counts it). An older store's
        // are reused by its next writes. Best effort: another process may hold it open already.
        if found == 0 { try? db.execute("VACUUM") }
    }
}
