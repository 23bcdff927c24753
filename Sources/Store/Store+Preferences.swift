extension Store {
    /// A setting the device remembers across restarts (the brightness chosen with its keys);
    /// nil when none was kept.
    public func preference(_ name: String) throws(StoreError) -> String? {
        let statement = try db.prepare("SELECT value FROM preferences WHERE name = ?1")
        statement.bind(.text(name))
        guard try statement.step() else { return nil }
        return statement.text(0)
    }

    /// Keeps `values` (nil: forgets the name), all together.
    public func setPreferences(_ values: [(name: String, value: String?)]) throws(StoreError) {
        try transaction { () throws(StoreError) in
            for (name, value) in values {
                if let value {
                    try db.prepare("INSERT OR REPLACE INTO preferences (name, value, updated) VALUES (?1, ?2, ?3)")
                        .bind(.text(name), .text(value), .integer(unixTime())).run()
                } else {
                    try db.prepare("DELETE FROM preferences WHERE name = ?1").bind(.text(name)).run()
                }
            }
        }
    }
}
