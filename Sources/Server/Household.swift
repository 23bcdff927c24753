import Activity
import Configuration
import ControlSocket
import Controls
import Platform
import Store

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// `glance people`'s work (run as `glance-serve people …`): the store's people and their token
/// files (`TokenFiles`), and the QR code that sets up a person's phone (`PhoneSetup`). Every
/// change is whole or nothing: a person added whose token cannot be written is taken out again;
/// a person removed loses their token first (refused from then), then their days.
public struct Household {
    let configuration: Configuration
    let store: Store
    let files: TokenFiles
    let say: (String) -> Void
    let complain: (String) -> Void

    /// The store of the configuration (`--db` in it) and the token files beside `serve.tokenFile`.
    public static func open(
        _ configuration: Configuration, say: @escaping (String) -> Void, complain: @escaping (String) -> Void
    ) -> Result<Household, ExitStatus> {
        Service.openStore(configuration.database, log: complain).map { opened in
            Household(
                configuration: configuration, store: opened.store, files: TokenFiles(tokenFile: configuration.serve.tokenFile),
                say: say, complain: complain)
        }
    }

    /// A store error told, as its outcome.
    private func failed(_ error: StoreError) -> Outcome {
        complain(error.message)
        return error.exitStatus
    }

    private func failed(_ failure: OutputFailure) -> Outcome {
        complain(failure.message)
        return failure.status
    }

    // MARK: The commands

    /// `glance people`: id, name, colour, last push and token file of each.
    public func list() -> Outcome {
        let people: [Person]
        do throws(StoreError) {
            people = try store.people()
        } catch {
            return failed(error)
        }
        let rows = people.map { person -> [String] in
            [
                "\(person.id)", Quote.clip(person.name), person.colour, person.lastPush.map(Self.moment) ?? "never",
                fileExists(files.file(person.id)) ? files.file(person.id) : "none (glance people token \(person.id) --new)",
            ]
        }
        for line in Self.table(["ID", "NAME", "COLOUR", "LAST PUSH", "TOKEN"], rows) { say(line) }
        return .ok
    }

    /// Where a person's QR code goes besides the terminal: the running panel at `socket` (else
    /// the usual places: `ControlSocketLocation`).
    public struct Panel: Sendable, Equatable {
        public var socket: String?
        public init(socket: String?) { self.socket = socket }
    }

    /// `glance people add NAME`: the person, then their token, shown with the phone's QR code
    /// (on the `panel` too, when given).
    public func add(name: String, colour: String?, url: String?, panel: Panel? = nil) -> Outcome {
        let person: Person
        do throws(StoreError) {
            person = try store.addPerson(name: name, colour: colour, now: Int64(time(nil)))
        } catch {
            return failed(error)
        }
        let token: String
        do throws(OutputFailure) {
            token = try TokenFiles.newToken()
            try files.write(token, person: person.id)
        } catch {
            // Not a person without a token: taken out again.
            do throws(StoreError) {
                try store.removePerson(person.id)
            } catch let undo {
                complain("\(Quote.clip(name)) (id \(person.id)) stays in the store without a token: \(undo.message)")
            }
            complain(error.message + "; \(Quote.clip(name)) was not added")
            return error.status
        }
        say("added \(Quote.clip(person.name)) (id \(person.id), colour \(person.colour)); their token is in \(files.file(person.id))")
        let shown = show(person, token: token, url: url, panel: panel)
        if shown != .ok, panel != nil {
            complain("\(Quote.clip(person.name)) was added all the same; show the code on the panel with: glance people token \(person.id) --panel")
        }
        return shown
    }

    /// `glance people rename NAME NEW-NAME`.
    public func rename(_ who: String, to name: String) -> Outcome {
        do throws(StoreError) {
            let person = try store.requirePerson(who)
            try store.renamePerson(person.id, to: name)
            say("person \(person.id): \(Quote.clip(person.name)) is now \(Quote.clip(name))")
            return .ok
        } catch {
            return failed(error)
        }
    }

    /// `glance people colour NAME #rrggbb`.
    public func colour(_ who: String, _ colour: String) -> Outcome {
        do throws(StoreError) {
            let person = try store.requirePerson(who)
            try store.setColour(person.id, colour)
            say("\(Quote.clip(person.name))'s colour is now \(colour)")
            return .ok
        } catch {
            return failed(error)
        }
    }

    /// `glance people token NAME [--new]`: the person's token (a new one first with `new`: the old
    /// one is refused from the server's next request on) with the phone's QR code (on the `panel`
    /// too, when given).
    public func token(_ who: String, new: Bool, url: String?, panel: Panel? = nil) -> Outcome {
        let person: Person
        do throws(StoreError) {
            person = try store.requirePerson(who)
        } catch {
            return failed(error)
        }
        let file = files.file(person.id)
        if new {
            do throws(OutputFailure) {
                try files.write(try TokenFiles.newToken(), person: person.id)
            } catch {
                return failed(error)
            }
            say("a new token for \(Quote.clip(person.name)) in \(file): the old one is refused from now on")
        }
        if person.id != 1 && !fileExists(file) {
            complain("\(Quote.clip(person.name)) has no token (\(file)): glance people token \(person.id) --new makes one")
            return .noInput
        }
        switch ServeApp.readToken(file) {
        case .success(let token): return show(person, token: String(decoding: token, as: UTF8.self), url: url, panel: panel)
        case .failure(let failure): return failed(failure)
        }
    }

    /// `glance people remove NAME --yes`: their token first (refused from then), then their days,
    /// samples and goals. Without `--yes`, what would go is said and nothing is done.
    public func remove(_ who: String, confirmed: Bool) -> Outcome {
        do throws(StoreError) {
            let person = try store.requirePerson(who)
            if person.id == 1 {
                try store.removePerson(1)  // refused, with why
                return .software
            }
            guard confirmed else {
                store.person = person.id
                let days = try store.dayCount()
                store.person = 1
                complain(
                    "people remove \(Quote.clip(person.name)): this removes their token and their \(days) day\(days == 1 ? "" : "s"), "
                        + "their samples and goals; nothing was removed. To go on: glance people remove \(person.id) --yes")
                return .usage
            }
            do throws(OutputFailure) {
                try files.remove(person: person.id)
            } catch {
                complain(error.message + "; nothing was removed")
                return error.status
            }
            try store.removePerson(person.id)
            say("removed \(Quote.clip(person.name)) (id \(person.id)): their token (refused from now on), days, samples and goals")
            return .ok
        } catch {
            return failed(error)
        }
    }

    // MARK: Showing

    /// The person's token with the phone's QR code and settings, for `url` or the board's first
    /// address; the code on the running `panel` too, when given (the panel's log names whose it
    /// is, never the token).
    private func show(_ person: Person, token: String, url given: String?, panel: Panel?) -> Outcome {
        let serve = configuration.serve
        let (urls, note) = ServeApp.endpoints(
            listen: serve.listen, scheme: serve.tlsCertificate == nil ? "http" : "https", local: ServeApp.localAddresses())
        guard let url = given ?? urls.first else {
            complain("no address to give the phone (serve.listen \"\(serve.listen)\"): give it with --url URL")
            return .config
        }
        let setup = PhoneSetup(person: person.name, url: url, token: token)
        setup.show(say: say)
        say("token: \(token)")
        if given == nil {
            if let note { say(note) }
            if urls.count > 1 { say("other addresses of this machine (--url for one of them): " + urls.dropFirst().joined(separator: " ")) }
        }
        guard let panel else { return .ok }
        let code: PanelQRCode
        switch setup.panelCode() {
        case .success(let c): code = c
        case .failure(let failure): return failed(failure)
        }
        switch PanelClient.command(PanelRequest.qrCode(code).text, socket: panel.socket, what: "glance people --panel") {
        case .success:
            say("\(Quote.clip(person.name))'s QR code is on the panel for \(PanelQRCode.seconds) s, or until a press")
            return .ok
        case .failure(let failure): return failed(failure)
        }
    }

    /// A moment in the board's time zone: `2026-12-05 14:03`.
    static func moment(_ seconds: Int64) -> String {
        var t = time_t(seconds)
        var parts = tm()
        guard localtime_r(&t, &parts) != nil else { return "\(seconds)" }
        func two(_ n: Int32) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday)) \(two(parts.tm_hour)):\(two(parts.tm_min))"
    }

    /// Rows under a header, in columns two spaces apart (the last one not padded).
    static func table(_ header: [String], _ rows: [[String]]) -> [String] {
        let all = [header] + rows
        let widths = header.indices.map { column in all.map { $0[column].count }.max() ?? 0 }
        return all.map { row in
            row.indices.map { column in
                column == row.count - 1 ? row[column] : row[column] + String(repeating: " ", count: widths[column] - row[column].count)
            }.joined(separator: "  ")
        }
    }
}
