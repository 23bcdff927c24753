import Activity
import CSQLite

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Someone whose rings the panel shows (issue 39: the household's rings). Each person has their
/// own days, samples and goals (`Store.person` says whose a call reads and writes); person 1 is
/// the one a store of schema 4 or before was for, and is never removed.
public struct Person: Sendable, Equatable {
    public var id: Int
    /// 1 to 32 characters, no control or reordering character, unique ignoring case, not all
    /// digits (`--person 2` is id 2, `--person Ann` a name).
    public var name: String
    /// `#rrggbb`, lower case: their name bar's colour.
    public var colour: String
    /// Seconds since 1970.
    public var created: Int64
    /// When their phone last pushed (seconds since 1970), nil before the first push.
    public var lastPush: Int64?

    public init(id: Int, name: String, colour: String, created: Int64, lastPush: Int64? = nil) {
        self.id = id
        self.name = name
        self.colour = colour
        self.created = created
        self.lastPush = lastPush
    }

    /// The most people a store keeps: a household's panel (four side by side at most, the rest
    /// paged).
    public static let maximum = 8

    /// The most characters a name has.
    public static let nameLimit = 32

    /// The colours a new person gets, in order, the first not taken: each at least 7:1 against
    /// black (WCAG's AAA contrast for text, so a name in it reads on the panel's black), any two
    /// at least 35 apart (CIE76 ΔE*, so no two are taken for one). Amber (person 1's), sky blue,
    /// pink, green, violet, orange, teal, light grey.
    public static let palette = ["#ffb300", "#4fc3f7", "#ff80ab", "#9ccc65", "#b388ff", "#ff7043", "#4db6ac", "#e0e0e0"]

    /// The least contrast against black a colour given by hand may have (WCAG's AA for text).
    public static let minimumContrast = 4.5

    /// `#rrggbb`'s contrast ratio against black (WCAG 2: (L + 0.05) / 0.05, L its relative
    /// luminance), or nil when it is not `#rrggbb`.
    public static func contrastOnBlack(_ colour: String) -> Double? {
        guard let rgb = rgb(colour) else { return nil }
        func linear(_ byte: Int) -> Double {
            let c = Double(byte) / 255
            return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
        }
        let luminance = 0.2126 * linear(rgb.0) + 0.7152 * linear(rgb.1) + 0.0722 * linear(rgb.2)
        return (luminance + 0.05) / 0.05
    }

    /// The three bytes of `#rrggbb` (either case), or nil.
    static func rgb(_ colour: String) -> (Int, Int, Int)? {
        let scalars = Array(colour.unicodeScalars)
        guard scalars.count == 7, scalars[0] == "#" else { return nil }
        var bytes: [Int] = []
        for i in stride(from: 1, to: 7, by: 2) {
            guard let high = hexDigit(scalars[i]), let low = hexDigit(scalars[i + 1]) else { return nil }
            bytes.append(high * 16 + low)
        }
        return (bytes[0], bytes[1], bytes[2])
    }

    private static func hexDigit(_ c: Unicode.Scalar) -> Int? {
        switch c.value {
        case 0x30...0x39: Int(c.value - 0x30)
        case 0x61...0x66: Int(c.value - 0x61 + 10)
        case 0x41...0x46: Int(c.value - 0x41 + 10)
        default: nil
        }
    }

    /// Why `name` cannot be a person's name, or nil (`isTaken` aside: the store knows that).
    public static func problem(name: String) -> String? {
        let shown = "'\(Quote.clip(name))'"
        if name.isEmpty { return "a person's name is empty: give 1 to \(nameLimit) characters, e.g. Ann" }
        if name.unicodeScalars.contains(where: { Quote.isControl($0) || Quote.reorders($0) || $0.value == 0x200E || $0.value == 0x200F || $0.value == 0x061C }) {
            return "the name \(shown) holds a control or reordering character (a line break, a tab, an escape, a "
                + "direction mark): give it as plain text"
        }
        if name.count > nameLimit || name.unicodeScalars.count > 4 * nameLimit {
            return "the name \(shown) is \(name.count) characters long: give at most \(nameLimit)"
        }
        if let first = name.unicodeScalars.first, let last = name.unicodeScalars.last,
            first.properties.isWhitespace || last.properties.isWhitespace
        {
            return "the name \(shown) begins or ends with a space: give it without"
        }
        if name.unicodeScalars.allSatisfy({ (0x30...0x39).contains($0.value) }) {
            return "the name \(shown) is only digits, which --person reads as an id: give a name with a letter in it"
        }
        if name.hasPrefix("-") {
            return "the name \(shown) begins with '-', which a command line reads as an option: give a name that does not"
        }
        return nil
    }

    /// Whether two names are one (ignoring case, in any script).
    public static func sameName(_ a: String, _ b: String) -> Bool {
        a.lowercased() == b.lowercased()
    }

    /// `colour` as stored (`#rrggbb` in lower case; the `#` may be left out); throws why it cannot
    /// be a person's colour (not six hex digits, or too dark to read on black: `.invalidArgument`).
    public static func normalised(colour: String) throws(StoreError) -> String {
        let given = colour.hasPrefix("#") ? colour : "#" + colour
        guard rgb(given) != nil, let contrast = contrastOnBlack(given) else {
            throw StoreError(
                .invalidArgument,
                "the colour '\(Quote.clip(colour))' is not #rrggbb (six hex digits, e.g. \(palette[1])): give it so")
        }
        let stored = given.lowercased()
        guard contrast >= minimumContrast else {
            let ratio = Double((contrast * 10).rounded()) / 10
            throw StoreError(
                .invalidArgument,
                "the colour \(stored) is too dark to read on the panel's black (contrast \(NumberText.plain(ratio)):1, "
                    + "at least \(NumberText.plain(minimumContrast)):1 is needed): give a lighter one, e.g. one of "
                    + palette.joined(separator: " "))
        }
        return stored
    }
}

extension Store {
    /// Everyone, by id (person 1 first).
    public func people() throws(StoreError) -> [Person] {
        let statement = try db.prepare("SELECT id, name, colour, created, last_push FROM people ORDER BY id")
        var found: [Person] = []
        while try statement.step() {
            found.append(
                Person(
                    id: Int(statement.int64(0) ?? 0), name: statement.text(1) ?? "", colour: statement.text(2) ?? "",
                    created: statement.int64(3) ?? 0, lastPush: statement.int64(4)))
        }
        return found
    }

    /// The person `idOrName` names: all digits, an id; else a name, ignoring case. Nil when there
    /// is none.
    public func person(_ idOrName: String) throws(StoreError) -> Person? {
        let everyone = try people()
        if !idOrName.isEmpty, idOrName.unicodeScalars.allSatisfy({ (0x30...0x39).contains($0.value) }) {
            guard let id = Int(idOrName) else { return nil }
            return everyone.first { $0.id == id }
        }
        return everyone.first { Person.sameName($0.name, idOrName) }
    }

    /// The person `idOrName` names (`person(_:)`), or an error naming what was given and the people
    /// there are (`.invalidArgument`: exit 64, as for a bad option).
    public func requirePerson(_ idOrName: String) throws(StoreError) -> Person {
        if let found = try person(idOrName) { return found }
        throw StoreError(
            .invalidArgument,
            "no person '\(Quote.clip(idOrName))' in the store \(path); the people are: \(try peopleList()) "
                + "(give a name or an id; glance people add NAME adds one)")
    }

    /// `1 Me, 2 Ann`: everyone, for messages.
    public func peopleList() throws(StoreError) -> String {
        try people().map { "\($0.id) \(Quote.clip($0.name))" }.joined(separator: ", ")
    }

    /// Adds a person named `name` (`Person.problem(name:)`, unique ignoring case), with `colour`
    /// (`#rrggbb`) or else the first colour of `Person.palette` nobody has. At most
    /// `Person.maximum` people.
    @discardableResult
    public func addPerson(name: String, colour: String? = nil, now: Int64) throws(StoreError) -> Person {
        try transaction { () throws(StoreError) -> Person in
            let everyone = try people()
            guard everyone.count < Person.maximum else {
                throw StoreError(
                    .invalidArgument,
                    "cannot add '\(Quote.clip(name))': the store keeps at most \(Person.maximum) people and has \(everyone.count) "
                        + "(\(everyone.map { "\($0.id) \(Quote.clip($0.name))" }.joined(separator: ", "))); remove one first")
            }
            try checkName(name, among: everyone, except: nil)
            let chosen: String
            if let colour {
                chosen = try Person.normalised(colour: colour)
            } else {
                let taken = Set(everyone.map(\.colour))
                chosen = Person.palette.first { !taken.contains($0) } ?? Person.palette[everyone.count % Person.palette.count]
            }
            try db.prepare("INSERT INTO people (name, colour, created) VALUES (?1, ?2, ?3)")
                .bind(.text(name), .text(chosen), .integer(now)).run()
            return Person(id: Int(sqlite3_last_insert_rowid(db.handle)), name: name, colour: chosen, created: now)
        }
    }

    /// Renames person `id` (the same rules as `addPerson`; their own name in another case is fine).
    public func renamePerson(_ id: Int, to name: String) throws(StoreError) {
        try transaction { () throws(StoreError) in
            let everyone = try people()
            try mustExist(id, among: everyone)
            try checkName(name, among: everyone, except: id)
            try db.prepare("UPDATE people SET name = ?2 WHERE id = ?1").bind(.integer(Int64(id)), .text(name)).run()
        }
    }

    /// Sets person `id`'s colour (`#rrggbb`, readable on black: `Person.normalised(colour:)`).
    public func setColour(_ id: Int, _ colour: String) throws(StoreError) {
        let stored = try Person.normalised(colour: colour)
        try transaction { () throws(StoreError) in
            try mustExist(id, among: try people())
            try db.prepare("UPDATE people SET colour = ?2 WHERE id = ?1").bind(.integer(Int64(id)), .text(stored)).run()
        }
    }

    /// Removes person `id` with their days, samples and goals, in one transaction; false when
    /// there is no such person. Person 1 is refused (the store's own; rename them instead).
    @discardableResult
    public func removePerson(_ id: Int) throws(StoreError) -> Bool {
        if id == 1 {
            throw StoreError(
                .invalidArgument,
                "person 1 (\(Quote.clip((try? person("1"))?.name ?? "Me"))) is the store's first person and cannot be removed; "
                    + "rename them instead")
        }
        return try transaction { () throws(StoreError) -> Bool in
            for table in ["samples", "day_summaries", "goals"] {
                try db.prepare("DELETE FROM \(table) WHERE person = ?1").bind(.integer(Int64(id))).run()
            }
            try db.prepare("DELETE FROM people WHERE id = ?1").bind(.integer(Int64(id))).run()
            return db.changes > 0
        }
    }

    /// Notes that person `person`'s phone pushed at `at` (seconds since 1970): their `lastPush`.
    /// Nothing when there is no such person (removed while their push was on its way).
    public func notePush(person: Int, at: Int64) throws(StoreError) {
        try db.prepare("UPDATE people SET last_push = ?2 WHERE id = ?1").bind(.integer(Int64(person)), .integer(at)).run()
    }

    /// Throws `.notFound`, naming `id` and the people there are, when nobody has it.
    private func mustExist(_ id: Int, among everyone: [Person]) throws(StoreError) {
        guard !everyone.contains(where: { $0.id == id }) else { return }
        throw StoreError(
            .notFound,
            "no person with id \(id) in the store \(path); the people are: "
                + everyone.map { "\($0.id) \(Quote.clip($0.name))" }.joined(separator: ", "))
    }

    /// Throws `.invalidArgument` when `name` breaks a rule or is someone else's (ignoring case).
    private func checkName(_ name: String, among everyone: [Person], except id: Int?) throws(StoreError) {
        if let problem = Person.problem(name: name) { throw StoreError(.invalidArgument, problem) }
        if let other = everyone.first(where: { $0.id != id && Person.sameName($0.name, name) }) {
            throw StoreError(
                .invalidArgument,
                "there is already a person named '\(Quote.clip(other.name))' (id \(other.id); names are told apart ignoring "
                    + "case): give another name")
        }
    }
}
