import Feeds
import Platform

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The household's tokens as files (docs/live-data.md): person 1's is `serve.tokenFile`, as it
/// always was; person N's (N ≥ 2) is `people/N.token` in that file's folder. A token file others
/// may read or write is refused (`ServeApp.readToken`'s rule), and so is every token of a people
/// folder others may write: anyone could put a token of their own there.
///
/// Written whole or not at all: a new token goes into a temporary file made exclusively beside
/// it (`O_EXCL`, mode 0640, the folder's group), flushed, then renamed over the old one, so a
/// server reading the folder sees the old token or the new one, never half of one.
public struct TokenFiles: Sendable {
    /// `serve.tokenFile`: person 1's token.
    public let tokenFile: String

    public init(tokenFile: String) {
        self.tokenFile = tokenFile
    }

    /// The folder of `tokenFile`.
    var parent: String {
        guard let slash = tokenFile.lastIndex(of: "/") else { return "." }
        return slash == tokenFile.startIndex ? "/" : String(tokenFile[..<slash])
    }

    /// Where person 2 and on keep their tokens: `people` beside `tokenFile`.
    public var folder: String { (parent == "/" ? "" : parent) + "/people" }

    /// The file of `person`'s token.
    public func file(_ person: Int) -> String { person == 1 ? tokenFile : "\(folder)/\(person).token" }

    /// The people (2 and on) whose token files are in the folder, in order; names that are not
    /// `N.token` (a temporary file, a backup) are not tokens. Empty when there is no folder.
    public func numbered() -> [Int] {
        guard let names = directoryEntries(folder) else { return [] }
        return names.compactMap(Self.person(named:)).sorted()
    }

    /// The person a file name in the folder is the token of: `N.token`, N from 2, written plainly
    /// (no sign, no leading zero).
    static func person(named name: String) -> Int? {
        guard name.hasSuffix(".token") else { return nil }
        let digits = name.dropLast(6)
        guard let first = digits.first, first != "0", digits.count <= 6, digits.allSatisfy({ $0 >= "0" && $0 <= "9" }),
            let n = Int(digits), n >= 2
        else { return nil }
        return n
    }

    /// The tokens read: person 1's (nil, and why in `problems`, when it cannot be used) and each
    /// other person's found in the folder; a file that cannot be used is left out and said.
    public struct Loaded: Sendable {
        public var tokens: [(person: Int, token: [UInt8])] = []
        /// Why person 1's token could not be read, when it could not.
        public var first: OutputFailure?
        /// One line for each other token file left out.
        public var problems: [String] = []
    }

    /// Every token, read now.
    public func load() -> Loaded {
        var loaded = Loaded()
        switch ServeApp.readToken(tokenFile) {
        case .success(let token): loaded.tokens.append((1, token))
        case .failure(let failure): loaded.first = failure
        }
        let people = numbered()
        guard !people.isEmpty else { return loaded }
        var st = stat()
        guard stat(folder, &st) == 0 else { return loaded }
        if st.st_mode & 0o002 != 0 {
            loaded.problems.append(
                "\(folder): others may write in it (mode \(String(st.st_mode & 0o777, radix: 8))), so anyone could put a token "
                    + "there: none of its tokens is taken. sudo chmod 750 \(folder), then make new tokens "
                    + "(glance people token NAME --new)")
            return loaded
        }
        for person in people {
            switch ServeApp.readToken(file(person)) {
            case .success(let token):
                if let same = loaded.tokens.first(where: { constantTimeEqual($0.token, token) }) {
                    loaded.problems.append(
                        "\(file(person)): the same token as person \(same.person)'s: neither is taken until one is made new "
                            + "(glance people token NAME --new)")
                    loaded.tokens.removeAll { $0.person == same.person }
                    continue
                }
                loaded.tokens.append((person, token))
            case .failure(let failure): loaded.problems.append(failure.message)
            }
        }
        return loaded
    }

    /// What the token files and the folder are now (device, inode, mode, size, times): when it
    /// differs from what it was at the last `load`, the tokens are read again. A stat each, for
    /// every request: a token made, renewed or removed counts from the next request on.
    public func state() -> [Int64] {
        var state: [Int64] = []
        for path in [tokenFile, folder] + numbered().map(file) {
            var st = stat()
            guard stat(path, &st) == 0 else {
                state.append(-Int64(errno))
                continue
            }
            state += [
                Int64(st.st_dev), Int64(st.st_ino), Int64(st.st_mode), Int64(st.st_uid), Int64(st.st_gid), Int64(st.st_size),
                Int64(st.st_mtim.tv_sec), Int64(st.st_mtim.tv_nsec), Int64(st.st_ctim.tv_sec), Int64(st.st_ctim.tv_nsec),
            ]
        }
        return state
    }

    // MARK: Writing

    /// A new token: 24 random bytes (the kernel's), base64url without padding: 32 characters of
    /// A–Z, a–z, 0–9, - and _, which a URL, a header and a deep link carry as they are.
    public static func newToken() throws(OutputFailure) -> String {
        let fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw OutputFailure("/dev/urandom: \(String(cString: strerror(errno)))", status: .unavailable) }
        defer { close(fd) }
        var bytes = [UInt8](repeating: 0, count: 24)
        var count = 0
        while count < bytes.count {
            let n = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress! + count, $0.count - count) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { throw OutputFailure("/dev/urandom: cannot read it", status: .ioError) }
            count += n
        }
        return base64url(bytes)
    }

    static func base64url(_ bytes: [UInt8]) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
        var out: [UInt8] = []
        var i = 0
        while i + 2 < bytes.count {
            let n = UInt32(bytes[i]) << 16 | UInt32(bytes[i + 1]) << 8 | UInt32(bytes[i + 2])
            out += [alphabet[Int(n >> 18 & 63)], alphabet[Int(n >> 12 & 63)], alphabet[Int(n >> 6 & 63)], alphabet[Int(n & 63)]]
            i += 3
        }
        let rest = bytes.count - i
        if rest > 0 {
            let n = UInt32(bytes[i]) << 16 | (rest > 1 ? UInt32(bytes[i + 1]) << 8 : 0)
            out += [alphabet[Int(n >> 18 & 63)], alphabet[Int(n >> 12 & 63)]]
            if rest > 1 { out.append(alphabet[Int(n >> 6 & 63)]) }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Writes `token` as `person`'s (a line), replacing the one there whole: mode 0640, the group
    /// of the folder (of the file it replaces, for person 1's), made in a temporary file beside it
    /// and renamed over it. The people folder is made when missing (mode 0750, the group of
    /// `tokenFile`, or of its folder).
    public func write(_ token: String, person: Int) throws(OutputFailure) {
        precondition(person >= 1)
        let target = file(person)
        let folder = person == 1 ? parent : self.folder
        if person != 1 { try makeFolder() }
        var st = stat()
        guard stat(folder, &st) == 0 else { throw Self.failure("\(folder): cannot use the folder", cannotCreate: true) }
        var group = st.st_gid
        var old = stat()
        if person == 1, stat(target, &old) == 0 { group = old.st_gid }
        var template = Array("\(folder)/.\(person).token.XXXXXX".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { throw Self.failure("\(folder): cannot make the token's file there", cannotCreate: true) }
        let temporary = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        var done = false
        defer {
            if !done { unlink(temporary) }
        }
        defer { close(fd) }
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        // The folder's group, so that the server (group glance) reads it; nobody else.
        if fchown(fd, uid_t.max, group) != 0 {
            throw Self.failure("\(target): cannot give the token the folder's group (\(group))", cannotCreate: true)
        }
        guard fchmod(fd, 0o640) == 0 else { throw Self.failure("\(target): cannot set its mode 0640", cannotCreate: true) }
        let bytes = Array((token + "\n").utf8)
        var written = 0
        while written < bytes.count {
            let n = bytes.withUnsafeBytes { writeBytes(fd, $0.baseAddress! + written, $0.count - written) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { throw Self.failure("\(target): cannot write the token", cannotCreate: false) }
            written += n
        }
        guard fsync(fd) == 0 else { throw Self.failure("\(target): cannot write the token", cannotCreate: false) }
        guard rename(temporary, target) == 0 else {
            throw Self.failure("\(target): cannot put the new token in place", cannotCreate: true)
        }
        done = true
        syncFolder(folder)
    }

    /// Removes `person`'s token file (N ≥ 2): from the next request on, it is refused. Whether
    /// there was one.
    @discardableResult
    public func remove(person: Int) throws(OutputFailure) -> Bool {
        precondition(person >= 2)
        guard unlink(file(person)) == 0 else {
            if errno == ENOENT { return false }
            throw Self.failure("\(file(person)): cannot remove the token", cannotCreate: false)
        }
        syncFolder(folder)
        return true
    }

    /// The people folder, made when missing: mode 0750, the group of `tokenFile` (root:glance on
    /// the board), else of its folder.
    func makeFolder() throws(OutputFailure) {
        var st = stat()
        if stat(folder, &st) == 0 {
            guard st.st_mode & S_IFMT == S_IFDIR else {
                throw OutputFailure("\(folder): not a folder; move it aside", status: .cannotCreate)
            }
            return
        }
        var source = stat()
        guard stat(tokenFile, &source) == 0 || stat(parent, &source) == 0 else {
            throw Self.failure("\(parent): cannot use the folder of serve.tokenFile", cannotCreate: true)
        }
        guard mkdir(folder, 0o700) == 0 || errno == EEXIST else {
            throw Self.failure("\(folder): cannot make the folder", cannotCreate: true)
        }
        if chown(folder, uid_t.max, source.st_gid) != 0 {
            throw Self.failure("\(folder): cannot give it the group of \(tokenFile)", cannotCreate: true)
        }
        guard chmod(folder, 0o750) == 0 else { throw Self.failure("\(folder): cannot set its mode 0750", cannotCreate: true) }
    }

    private func syncFolder(_ folder: String) {
        let fd = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return }
        _ = fsync(fd)
        close(fd)
    }

    /// A failure with errno's words: permission denied (77), cannot create (73) or a write that
    /// failed (74).
    static func failure(_ what: String, cannotCreate: Bool) -> OutputFailure {
        let denied = errno == EACCES || errno == EPERM
        return OutputFailure(
            "\(what): \(String(cString: strerror(errno)))"
                + (denied ? " (the tokens are root's: run it with sudo)" : ""),
            status: denied ? .noPermission : cannotCreate ? .cannotCreate : .ioError)
    }
}

/// write(2), by a name `TokenFiles.write` does not hide.
private func writeBytes(_ fd: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    write(fd, bytes, count)
}
