import QRCode
import Configuration
import HTTP
import Platform

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

extension ServeApp {
    /// `glance serve token`: the token, as a QR code a phone's camera can take and as text, with
    /// the addresses to give the phone.
    public static func showToken(_ configuration: Configuration, say: (String) -> Void, log: (String) -> Void) -> Outcome {
        let token: String
        switch readToken(configuration.serve.tokenFile) {
        case .success(let t): token = String(decoding: t, as: UTF8.self)
        case .failure(let failure):
            log(failure.message)
            return failure.status
        }
        if let picture = QRCode.text(token, colours: isatty(STDOUT_FILENO) == 1) { say(picture) }
        say("token: \(token)")
        say("header: Authorization: Bearer \(token)")
        for url in urls(configuration) { say(url) }
        if !TokenFiles(tokenFile: configuration.serve.tokenFile).numbered().isEmpty {
            say("this is person 1's token; each other person's, with their phone's QR code: glance people token NAME")
        }
        return .ok
    }

    /// The lines `glance serve token` says of where the phone sends: `urls(listen:…)` for the
    /// configuration's `serve`.
    static func urls(_ configuration: Configuration) -> [String] {
        let serve = configuration.serve
        return urls(listen: serve.listen, scheme: serve.tlsCertificate == nil ? "http" : "https", local: localAddresses())
    }

    /// The URLs to give the phone for what `listen` listens on: the loopback address alone when
    /// it is loopback (said so, with how to open it to the network), the address itself when it
    /// is one of the machine's, every address of the machine's for 0.0.0.0 or [::].
    static func urls(listen: String, scheme: String, local: [String]) -> [String] {
        let (urls, note) = endpoints(listen: listen, scheme: scheme, local: local)
        return (note.map { [$0] } ?? []) + urls.map { "URL: " + $0 }
    }

    /// Health Auto Export's endpoint on each address the phone may use, and a note when the
    /// server listens on this machine only.
    static func endpoints(listen: String, scheme: String, local: [String]) -> (urls: [String], note: String?) {
        guard let address = HTTPServer.Address(listen) else { return ([], nil) }
        let port = address.port
        func url(_ host: String) -> String {
            "\(scheme)://\(host.contains(":") ? "[\(host)]" : host):\(port)/v1/health-auto-export"
        }
        if address.host.hasPrefix("127.") || address.host == "::1" || address.host == "localhost" {
            return (
                [url(address.host)],
                "listening on \(listen) only (this machine): set \"serve\": {\"listen\": \"0.0.0.0:\(port)\"} for the network"
            )
        }
        if address.host == "0.0.0.0" || address.host == "::" { return (local.map(url), nil) }
        return ([url(address.host)], nil)
    }

    /// This machine's IPv4 addresses other than loopback.
    static func localAddresses() -> [String] {
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0, let first = list else { return [] }
        defer { freeifaddrs(list) }
        var result: [String] = []
        var item: UnsafeMutablePointer<ifaddrs>? = first
        while let current = item {
            if let address = current.pointee.ifa_addr, address.pointee.sa_family == sa_family_t(AF_INET) {
                var buffer = [CChar](repeating: 0, count: 64)
                address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { a in
                    var raw = a.pointee.sin_addr
                    _ = inet_ntop(AF_INET, &raw, &buffer, socklen_t(buffer.count))
                }
                let text = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
                if !text.hasPrefix("127.") && !result.contains(text) { result.append(text) }
            }
            item = current.pointee.ifa_next
        }
        return result
    }
}
