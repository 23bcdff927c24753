import Activity
import Foundation
import TestSupport
import Testing

@testable import Store

#if canImport(Glibc)
    import Glibc
#endif

/// Issue 39: a household, each person pushing from their own phone with their own token. The
/// real `glance serve` on loopback with a real store file, the real `glance people` making and
/// removing the tokens, and curl as the phones.
@Suite("glance serve and glance people: a token per person", .timeLimit(.minutes(10)))
struct HouseholdServeTests {
    typealias Server = ServeTests.Server

    /// `glance people …` against the server's configuration and store.
    static func people(_ server: Server, _ arguments: [String]) throws -> GlanceCLI.Result {
        try GlanceCLI.run(
            ["people"] + arguments + ["--config", server.scratch.file("config.json"), "--db", server.scratch.db], in: server.scratch)
    }

    /// The token `glance people add` or `token` printed (its `token: …` line).
    static func token(in output: String) -> String? {
        output.split(separator: "\n").first { $0.hasPrefix("token: ") }.map { String($0.dropFirst(7)) }
    }

    /// Adds `name` through the binary; their token.
    static func add(_ name: String, to server: Server) throws -> String {
        let r = try people(server, ["add", name])
        try #require(r.status == 0, "glance people add \(name): \(r.err)")
        return try #require(token(in: r.out), "no token line: \(r.out)")
    }

    /// The store's files as they are on disk, every byte (the database and its write-ahead log).
    static func bytes(_ server: Server) -> [Data?] {
        [server.scratch.db, server.scratch.db + "-wal"].map { FileManager.default.contents(atPath: $0) }
    }

    /// A day as shown for `person`.
    static func day(_ store: Store, _ person: Int, _ date: String) throws -> ActivitySummary? {
        store.person = person
        defer { store.person = 1 }
        return try store.shownSummary(for: CalendarDay(iso: date)!, defaults: ServeTests.configured)
    }

    /// The second phone's push: the same times as `ServeTests.healthAutoExportBody()`'s (so the
    /// two phones' samples share their keys but for the person) with other quantities: 1.5 kcal
    /// (6.276 kJ) a minute 07:00–21:59 on the 29th in Berlin, an exercise minute every other
    /// minute, every hour stood, and 0.5 kcal a minute 09:00–12:59 on the 30th in New York.
    static func secondPhone() -> (String, move29: Double, move30: Double, exercise29: Double, stand29: Double) {
        func clock(_ minute: Int) -> String {
            let h = minute / 60, m = minute % 60
            return (h < 10 ? "0\(h)" : "\(h)") + ":" + (m < 10 ? "0\(m)" : "\(m)") + ":00"
        }
        var kj: [String] = [], kcal: [String] = [], exercise: [String] = [], stand: [String] = []
        for minute in stride(from: 7 * 60, to: 22 * 60, by: 1) {
            kj.append("{\"qty\":6.276,\"date\":\"2026-11-29 \(clock(minute)) +0100\",\"source\":\"Watch\"}")
            if minute % 2 == 0 { exercise.append("{\"qty\":1,\"date\":\"2026-11-29 \(clock(minute)) +0100\"}") }
        }
        for minute in stride(from: 9 * 60, to: 13 * 60, by: 1) {
            kcal.append("{\"qty\":0.5,\"date\":\"2026-11-30 \(clock(minute)) -0500\"}")
        }
        for hour in 7..<22 { stand.append("{\"qty\":1,\"date\":\"2026-11-29 \(clock(hour * 60)) +0100\"}") }
        let body = """
            {"data":{"metrics":[
            {"name":"active_energy","units":"kJ","data":[\(kj.joined(separator: ","))]},
            {"name":"active_energy","units":"kcal","data":[\(kcal.joined(separator: ","))]},
            {"name":"apple_exercise_time","units":"min","data":[\(exercise.joined(separator: ","))]},
            {"name":"apple_stand_hour","units":"count","data":[\(stand.joined(separator: ","))]}
            ],"workouts":[]}}
            """
        return (body, 900 * 1.5, 240 * 0.5, 450, 15)
    }

    @Test("two phones' Health Auto Export pushes with two tokens land in two people's days, exactly; GET follows the token")
    func twoPhones() throws {
        let server = try Server(environment: ["TZ": "Europe/Berlin"])
        let ann = try Self.add("Ann", to: server)
        #expect(ann != server.token && ann.count == 32, "a token of its own: \(ann)")
        let (first, move29, move30, exercise29, stand29) = ServeTests.healthAutoExportBody()
        let (second, annMove29, annMove30, annExercise29, annStand29) = Self.secondPhone()
        let mine = try server.request("POST", "/v1/health-auto-export", first)
        #expect(mine.status == 200 && mine.body.hasPrefix("{\"days\":{\"new\":2,\"changed\":0,\"unchanged\":0},\"samples\":{\"new\":1448,"), "\(mine)")
        let hers = try server.request("POST", "/v1/health-auto-export", second, authorization: .some("Bearer \(ann)"))
        // 900 + 240 energy, 450 exercise, 15 stand: all new, none taken for person 1's of the same times.
        #expect(hers == (200, "{\"days\":{\"new\":2,\"changed\":0,\"unchanged\":0},\"samples\":{\"new\":1605,\"changed\":0,\"unchanged\":0},\"ignored\":[]}"), "\(hers)")

        let store = try Store(path: server.scratch.db, access: .read)
        let me29 = try #require(try Self.day(store, 1, "2026-11-29"))
        #expect(abs((me29.activeEnergyBurned?.kilocalories ?? 0) - move29) < 1e-6, "\(me29)")
        #expect(me29.exerciseTime == exercise29 && me29.standHours == stand29)
        #expect(try Self.day(store, 1, "2026-11-30")?.activeEnergyBurned?.kilocalories == move30)
        let ann29 = try #require(try Self.day(store, 2, "2026-11-29"))
        #expect(abs((ann29.activeEnergyBurned?.kilocalories ?? 0) - annMove29) < 1e-6, "\(ann29)")
        #expect(ann29.exerciseTime == annExercise29 && ann29.standHours == annStand29)
        #expect(try Self.day(store, 2, "2026-11-30")?.activeEnergyBurned?.kilocalories == annMove30)
        store.person = 1
        #expect(try store.sampleCount() == 1448)
        store.person = 2
        #expect(try store.sampleCount() == 1605)
        // Each push noted as its person's.
        let everyone = try store.people()
        #expect(everyone.map(\.id) == [1, 2] && everyone.allSatisfy { $0.lastPush != nil }, "\(everyone)")

        // GET answers follow the token's person.
        let myDays = try server.request("GET", "/v1/days?from=2026-11-29&to=2026-11-29")
        let herDays = try server.request("GET", "/v1/days?from=2026-11-29&to=2026-11-29", authorization: .some("Bearer \(ann)"))
        #expect(myDays.body.contains("\"exercise\":300") && !myDays.body.contains("\"exercise\":450"), "\(myDays)")
        #expect(herDays.body.contains("\"exercise\":450") && herDays.body.contains("\"stand\":15"), "\(herDays)")
        // Posting hers again changes nothing of anyone's.
        let again = try server.request("POST", "/v1/health-auto-export", second, authorization: .some("Bearer \(ann)"))
        #expect(again.body.hasPrefix("{\"days\":{\"new\":0,\"changed\":0,\"unchanged\":2}"), "\(again)")
        let log = server.expectAnswersAndStops()
        #expect(log.contains("POST /v1/health-auto-export 200 from 127.0.0.1 (person 2): days 2 new"), "\(log)")
        #expect(!log.contains(ann) && !log.contains(server.token), "no token in the log")
    }

    @Test("a third, unknown token gets 401 and the store stays byte for byte as it was")
    func unknownToken() throws {
        let server = try Server()
        let ann = try Self.add("Ann", to: server)
        #expect(try server.request("PUT", "/v1/days/2026-11-29", "{\"move\": 300}", authorization: .some("Bearer \(ann)")).status == 200)
        let snapshot = try server.snapshot()
        let before = Self.bytes(server)
        let (body, _, _, _, _) = ServeTests.healthAutoExportBody()
        for third in ["Bearer stranger-token-0123456789abcdef", "Bearer \(ann)x", "Bearer \(ann.dropLast())", "Bearer \(server.token)\(ann)"] {
            let r = try server.request("POST", "/v1/health-auto-export", body, authorization: .some(third))
            #expect(r.status == 401 && r.body.contains("wrong token"), "\(third): \(r)")
            let put = try server.request("PUT", "/v1/days/2026-11-29", "{\"move\": 1}", authorization: .some(third))
            #expect(put.status == 401, "\(put)")
        }
        #expect(Self.bytes(server) == before, "the store's files changed")
        #expect(try server.snapshot() == snapshot)
        let store = try Store(path: server.scratch.db, access: .read)
        #expect(try store.people().map(\.id) == [1, 2], "no third person appeared")
        server.expectAnswersAndStops()
    }

    @Test("a removed person's token and a renewed token's old value get 401 at once, without a restart; the new one works")
    func revokedAndRenewed() throws {
        let server = try Server()
        let ann = try Self.add("Ann", to: server)
        let bob = try Self.add("Bob", to: server)
        #expect(try server.request("PUT", "/v1/days/2026-11-29", "{\"move\": 111}", authorization: .some("Bearer \(ann)")).status == 200)
        #expect(try server.request("PUT", "/v1/days/2026-11-29", "{\"move\": 222}", authorization: .some("Bearer \(bob)")).status == 200)
        let pid = server.process.processIdentifier

        // Ann removed: her token refused from the next request, her days gone, nothing more written.
        var r = try Self.people(server, ["remove", "Ann", "--yes"])
        #expect(r.status == 0 && r.out.contains("removed Ann (id 2)"), "\(r.out) \(r.err)")
        #expect(!FileManager.default.fileExists(atPath: server.scratch.file("people/2.token")))
        let afterRemoval = try server.snapshot()
        let refused = try server.request("PUT", "/v1/days/2026-11-30", "{\"move\": 5}", authorization: .some("Bearer \(ann)"))
        #expect(refused.status == 401, "\(refused)")
        #expect(try server.snapshot() == afterRemoval, "a revoked token changed the store")

        // Bob's token made new: the old value refused, the new one taken, the same server.
        r = try Self.people(server, ["token", "Bob", "--new"])
        #expect(r.status == 0 && r.out.contains("the old one is refused from now on"), "\(r.out) \(r.err)")
        let renewed = try #require(Self.token(in: r.out))
        #expect(renewed != bob)
        let old = try server.request("PUT", "/v1/days/2026-11-30", "{\"move\": 5}", authorization: .some("Bearer \(bob)"))
        #expect(old.status == 401, "\(old)")
        #expect(try server.snapshot() == afterRemoval, "an old token changed the store")
        let new = try server.request("GET", "/v1/days?from=2026-11-29&to=2026-11-29", authorization: .some("Bearer \(renewed)"))
        #expect(new.status == 200 && new.body.contains("\"move\":222"), "Bob's days, with his new token: \(new)")

        // Person 1's own file, rewritten in place by hand: the new line counts, the old one is refused.
        let fresh = "a-new-token-for-me-0123456789"
        let file = server.scratch.file("token")
        let handle = try #require(FileHandle(forWritingAtPath: file))
        handle.truncateFile(atOffset: 0)
        handle.write(Data((fresh + "\n").utf8))
        try handle.close()
        #expect(try server.request("GET", "/v1/metrics").status == 401, "the old token of person 1")
        #expect(try server.request("GET", "/v1/metrics", authorization: .some("Bearer \(fresh)")).status == 200)

        // A token file others may read: refused (it may be known), said in the log.
        chmod(server.scratch.file("people/3.token"), 0o644)
        #expect(try server.request("GET", "/v1/metrics", authorization: .some("Bearer \(renewed)")).status == 401)
        chmod(server.scratch.file("people/3.token"), 0o640)
        #expect(try server.request("GET", "/v1/metrics", authorization: .some("Bearer \(renewed)")).status == 200)

        #expect(server.process.processIdentifier == pid && server.process.isRunning, "no restart")
        let log = server.expectAnswersAndStops()
        #expect(log.contains("people/3.token: others may read the token"), "\(log)")
    }
}

/// `glance people` through the real binary: its commands, its refusals, its files.
@Suite("glance people: the household's commands", .timeLimit(.minutes(10)))
struct PeopleCommandTests {
    final class Household {
        let scratch = Scratch()
        let config: String
        let tokenFile: String
        init() {
            tokenFile = scratch.write("serve.token", "my-own-token-0123456789\n")
            chmod(tokenFile, 0o640)
            config = scratch.write(
                "config.json", "{\"serve\": {\"tokenFile\": \"\(tokenFile)\", \"listen\": \"192.168.1.20:8127\"}}")
        }

        func run(_ arguments: [String]) throws -> GlanceCLI.Result {
            try GlanceCLI.run(["people"] + arguments + ["--config", config, "--db", scratch.db], in: scratch)
        }

        func mode(_ path: String) -> (mode: mode_t, group: gid_t)? {
            var st = stat()
            guard stat(path, &st) == 0 else { return nil }
            return (st.st_mode & 0o7777, st.st_gid)
        }
    }

    @Test("list, add, rename, colour, token, token --new, remove --yes: each as it says, the files 0640 in a 0750 folder")
    func commands() throws {
        let home = Household()
        var r = try home.run([])
        #expect(r.status == 0, "\(r.err)")
        let header = r.out.split(separator: "\n").first.map(String.init) ?? ""
        #expect(header.hasPrefix("ID  NAME  COLOUR   LAST PUSH  TOKEN"), "\(r.out)")
        #expect(r.out.contains("1   Me    #ffb300  never      \(home.tokenFile)"), "\(r.out)")

        r = try home.run(["add", "Ann", "--colour", "#4FC3F7"])
        #expect(r.status == 0, "\(r.err)")
        #expect(r.out.contains("added Ann (id 2, colour #4fc3f7); their token is in \(home.scratch.path)/people/2.token"), "\(r.out)")
        let ann = try #require(HouseholdServeTests.token(in: r.out))
        #expect(ann.count == 32 && ann.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }, "\(ann)")
        #expect(r.out.contains("link: com.HealthExport://automation?url=http%3A%2F%2F192.168.1.20%3A8127%2Fv1%2Fhealth-auto-export"
            + "&name=Glance%20Ann&format=json&datatype=healthmetrics&headers=Authorization,Bearer%20\(ann)\n"), "\(r.out)")
        #expect(r.out.contains("█"), "the QR code")
        let file = home.scratch.file("people/2.token")
        #expect(home.mode(file)?.mode == 0o640, "mode \(String(home.mode(file)?.mode ?? 0, radix: 8))")
        #expect(home.mode(file)?.group == home.mode(home.scratch.file("people"))?.group, "the folder's group")
        #expect(home.mode(home.scratch.file("people"))?.mode == 0o750)
        #expect(home.mode(home.scratch.file("people"))?.group == home.mode(home.tokenFile)?.group, "the token file's group")
        #expect((try? String(contentsOfFile: file, encoding: .utf8)) == ann + "\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: home.scratch.file("people")) == ["2.token"], "no temporary file left")

        r = try home.run(["token", "ann"])
        #expect(r.status == 0 && HouseholdServeTests.token(in: r.out) == ann, "shown again, by any case of the name: \(r.out) \(r.err)")
        r = try home.run(["token", "2", "--new", "--url", "https://board.local:8127/v1/health-auto-export"])
        let renewed = try #require(HouseholdServeTests.token(in: r.out))
        #expect(renewed != ann && (try? String(contentsOfFile: file, encoding: .utf8)) == renewed + "\n")
        #expect(r.out.contains("url=https%3A%2F%2Fboard.local%3A8127%2Fv1%2Fhealth-auto-export&"), "--url: \(r.out)")
        #expect(home.mode(file)?.mode == 0o640)

        r = try home.run(["rename", "Ann", "Anna"])
        #expect(r.status == 0 && r.out.contains("person 2: Ann is now Anna"), "\(r.out) \(r.err)")
        r = try home.run(["colour", "anna", "ff80ab"])
        #expect(r.status == 0 && r.out.contains("Anna's colour is now #ff80ab"), "\(r.out) \(r.err)")
        r = try home.run(["token", "Me"])
        #expect(r.status == 0 && HouseholdServeTests.token(in: r.out) == "my-own-token-0123456789", "person 1's is serve.tokenFile's: \(r.out)")
        r = try home.run(["list"])
        #expect(r.out.contains("2   Anna  #ff80ab  never      \(file)"), "\(r.out)")

        // Remove: without --yes nothing happens; with it the token and the days go.
        let store = try Store(path: home.scratch.db)
        store.person = 2
        try store.setSummary(ActivitySummary(exerciseTime: 20), for: CalendarDay(iso: "2026-11-29")!)
        r = try home.run(["remove", "Anna"])
        #expect(r.status == 64 && r.err.contains("this removes their token and their 1 day") && r.err.contains("--yes"), "\(r.err)")
        let kept = try store.dayCount()
        #expect(FileManager.default.fileExists(atPath: file) && kept == 1, "nothing removed")
        r = try home.run(["remove", "Anna", "--yes"])
        #expect(r.status == 0, "\(r.err)")
        let left = try store.dayCount()
        #expect(!FileManager.default.fileExists(atPath: file) && left == 0)
        #expect(try store.people().map(\.id) == [1])
    }

    @Test("refused: unknown people, bad names and colours, a ninth person, person 1's removal; nothing changed by any")
    func refusals() throws {
        let home = Household()
        for name in ["Ann", "Bob", "Cy", "Di", "Ed", "Flo", "Gus"] {
            let r = try home.run(["add", name])
            #expect(r.status == 0, "\(name): \(r.err)")
        }
        let folder = home.scratch.file("people")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
        #expect(files == (2...8).map { "\($0).token" }, "\(files)")
        let cases: [([String], Int32, String)] = [
            (["add", "Hal"], 64, "at most 8 people"),
            (["add", "ann"], 64, "at most 8 people"),
            (["add", "42"], 64, "only digits"),
            (["add", "Zoe\u{1B}[2J"], 64, "control or reordering character"),
            (["add", String(repeating: "x", count: 33)], 64, "at most 32"),
            (["add", "Hal", "--colour", "#123"], 64, "not #rrggbb"),
            (["add", "Hal", "--colour", "#101010"], 64, "too dark"),
            (["token", "Nobody"], 64, "no person 'Nobody'"),
            (["token", "9"], 64, "no person '9'"),
            (["rename", "Nobody", "Else"], 64, "no person 'Nobody'"),
            (["rename", "Bob", "Ann"], 64, "already a person named 'Ann'"),
            (["colour", "Bob", "red"], 64, "not #rrggbb"),
            (["remove", "Nobody", "--yes"], 64, "no person 'Nobody'"),
            (["remove", "Me", "--yes"], 64, "cannot be removed"),
            (["remove", "1", "--yes"], 64, "cannot be removed"),
            (["remove", "Bob", "--new"], 64, "--new does not go with remove"),
            (["dance"], 64, "unknown verb 'dance'"),
        ]
        let before = try snapshot(home.scratch.db)
        let people = try Store(path: home.scratch.db, access: .read).people()
        for (arguments, status, message) in cases {
            let r = try home.run(arguments)
            #expect(r.status == status, "\(arguments): \(r.status) \(r.err)")
            #expect(r.err.contains(message), "\(arguments): \(r.err)")
            #expect(!r.err.contains("\u{1B}"), "no escape reaches the terminal: \(r.err.debugDescription)")
        }
        #expect(try snapshot(home.scratch.db) == before)
        #expect(try Store(path: home.scratch.db, access: .read).people() == people)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == files, "no token file made or removed")
        #expect(FileManager.default.fileExists(atPath: home.tokenFile), "person 1's token kept")
    }

    @Test("a token that cannot be written leaves no person behind")
    func unwritable() throws {
        let home = Household()
        // A file where the folder would be.
        _ = home.scratch.write("people", "not a folder")
        let r = try home.run(["add", "Ann"])
        #expect(r.status == 73 && r.err.contains("not a folder") && r.err.contains("Ann was not added"), "\(r.status) \(r.err)")
        #expect(try Store(path: home.scratch.db, access: .read).people().map(\.id) == [1], "Ann taken out again")
    }
}
