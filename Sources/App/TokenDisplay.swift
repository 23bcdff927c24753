import CQREncode
import Configuration

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

extension ServeApp {
    /// `glance serve token`: the token, as a QR code a phone's camera can take and as text, with
    /// the addresses to give the phone.
    public static func showToken(_ configuration: Configuration, say: (String) -> Void, log: (String) -> Void) -> Int32 {
        let token: String
        switch readToken(configuration.serve.tokenFile) {
        case .success(let t): token = String(decoding: t, as: UTF8.self)
        case .failure(let failure):
            log(failure.message)
            return failure.status
        }
        if let picture = qrText(token) { say(picture) }
        say("token: \(token)")
        say("header: Authorization: Bearer \(token)")
        let serve = configuration.serve
        let port = serve.listen.split(separator: ":").last.map(String.init) ?? "8127"
        let scheme = serve.tlsCertificate == nil ? "http" : "https"
        if serve.listen.hasPrefix("127.") || serve.listen.hasPrefix("[::1]") {
            say("listening on \(serve.listen) only (this machine): set \"serve\": {\"listen\": \"0.0.0.0:\(port)\"} for the network")
        }
        for address in localAddresses() {
            say("URL: \(scheme)://\(address):\(port)/v1/health-auto-export")
        }
        return 0
    }

    /// The QR code of `text` in half blocks (two rows a line), light modules drawn, for a dark
    /// terminal; with a quiet zone of two modules. nil when libqrencode cannot encode it.
    public static func qrText(_ text: String) -> String? {
        guard let code = QRcode_encodeString(text, 0, QR_ECLEVEL_M, QR_MODE_8, 1) else { return nil }
        defer { QRcode_free(code) }
        let width = Int(code.pointee.width)
        let data = code.pointee.data!
        let quiet = 2
        let size = width + 2 * quiet
        func dark(_ x: Int, _ y: Int) -> Bool {
            let (cx, cy) = (x - quiet, y - quiet)
            guard cx >= 0, cy >= 0, cx < width, cy < width else { return false }
            return data[cy * width + cx] & 1 == 1
        }
        var out = ""
        for y in stride(from: 0, to: size, by: 2) {
            for x in 0..<size {
                let top = !dark(x, y), bottom = y + 1 < size ? !dark(x, y + 1) : false
                out += top ? (bottom ? "█" : "▀") : (bottom ? "▄" : " ")
            }
            out += "\n"
        }
        return String(out.dropLast())
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
