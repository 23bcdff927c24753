#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// An output file (`--output`, `--render-to`, a picture): whole or not at all, never through a
/// link planted beside it, never replacing what is not a regular file.
///
/// - A regular file, or a name that does not exist yet, is written into a temporary file created
///   exclusively (`O_EXCL | O_NOFOLLOW`, an unpredictable name) in the same folder, with the
///   target's permissions (and owner, for root), flushed to disk, and renamed over the target
///   only when complete and only if the target is still a regular file or missing.
/// - A symbolic link is followed to what it names: a regular file there is replaced as above
///   (the link stays); a link to nothing is refused.
/// - A device or a FIFO (`/dev/stdout`, a named pipe) is written in place, as the bytes come:
///   it is never replaced or removed.
/// - `-` is standard output.
/// - A folder or a socket is refused.
public final class OutputFile {
    /// Why the file could not be made (`cannotCreate`: exit 73) or written whole (else: 74);
    /// `denied` when the system said permission denied (exit 77, whichever it was).
    public struct Failure: Error, CustomStringConvertible, Sendable {
        public let reason: String
        public let cannotCreate: Bool
        public let denied: Bool
        public init(_ reason: String, cannotCreate: Bool, denied: Bool = false) {
            self.reason = reason
            self.cannotCreate = cannotCreate
            self.denied = denied
        }
        /// With `denied` taken from errno (EACCES or EPERM).
        static func system(_ reason: String, cannotCreate: Bool) -> Failure {
            Failure(reason, cannotCreate: cannotCreate, denied: errno == EACCES || errno == EPERM)
        }
        public var description: String { reason }
        /// The outcome: permission denied, the file cannot be made, or it could not be written whole.
        public var outcome: Outcome { Self.outcome(denied: denied, cannotCreate: cannotCreate) }
        /// The one map from an output's failure to its outcome (a PNG file's too, in ImageFile).
        public static func outcome(denied: Bool, cannotCreate: Bool) -> Outcome {
            denied ? .noPermission : cannotCreate ? .cannotCreate : .ioError
        }
    }

    /// How a path is written: the decision alone, from what the path names now.
    public enum Plan: Equatable, Sendable {
        case standardOutput
        /// A device or FIFO: opened and written as it is.
        case inPlace(String)
        /// A regular file (or none yet) at `target` (the link followed): a temporary file beside
        /// it, renamed over it.
        case replace(target: String)
    }

    /// The path as given, for messages.
    public let path: String
    public let plan: Plan
    private var fd: Int32
    private var temporary: String?
    private var buffer: [UInt8] = []
    private var finished = false

    static let bufferSize = 1 << 16

    /// What `path` names, and so how it is written; a failure says why it cannot be.
    public static func plan(_ path: String) throws(Failure) -> Plan {
        guard !path.isEmpty else { throw Failure("an empty path", cannotCreate: true) }
        if path == "-" { return .standardOutput }
        var st = stat()
        guard lstat(path, &st) == 0 else {
            if errno == ENOENT || errno == ENOTDIR {
                try checkFolder(of: path)
                return .replace(target: path)
            }
            throw Failure.system("cannot look at it: \(Self.text(errno))", cannotCreate: true)
        }
        var target = path
        if (st.st_mode & S_IFMT) == S_IFLNK {
            guard stat(path, &st) == 0 else {
                throw Failure(
                    "it is a symbolic link to nothing (\(Self.text(errno))); give the file itself", cannotCreate: true)
            }
            if (st.st_mode & S_IFMT) == S_IFREG {
                guard let resolved = realpath(path, nil) else {
                    throw Failure.system("cannot follow the symbolic link: \(Self.text(errno))", cannotCreate: true)
                }
                target = String(cString: resolved)
                free(resolved)
            }
        }
        switch st.st_mode & S_IFMT {
        case S_IFREG: return .replace(target: target)
        case S_IFDIR: throw Failure("it is a folder", cannotCreate: true)
        case S_IFCHR, S_IFBLK, S_IFIFO: return .inPlace(path)
        default: throw Failure("it is a socket, not a file", cannotCreate: true)
        }
    }

    /// Why a file cannot be written at `path`, or nil when it can (for checking arguments before
    /// any work is done). Writing may still fail later (a full disk).
    public static func check(_ path: String) -> Failure? {
        do {
            switch try Self.plan(path) {
            case .standardOutput: return nil
            case .inPlace(let device):
                return access(device, W_OK) == 0 ? nil : Failure.system("cannot write to it: \(text(errno))", cannotCreate: true)
            case .replace(let target):
                try checkFolder(of: target)
                if access(target, F_OK) == 0 && access(target, W_OK) != 0 {
                    return Failure.system("the file is not writable (\(text(errno)))", cannotCreate: true)
                }
                return nil
            }
        } catch {
            return error
        }
    }

    /// `check`'s reason alone.
    public static func problem(_ path: String) -> String? { check(path)?.reason }

    /// The folder a file of that name goes into must exist and be writable.
    static func checkFolder(of path: String) throws(Failure) {
        let folder = Self.folder(of: path)
        var st = stat()
        guard stat(folder, &st) == 0 else { throw Failure("folder \(folder) does not exist", cannotCreate: true) }
        guard (st.st_mode & S_IFMT) == S_IFDIR else { throw Failure("\(folder) is not a folder", cannotCreate: true) }
        guard access(folder, W_OK | X_OK) == 0 else {
            throw Failure.system("folder \(folder) is not writable (\(text(errno)))", cannotCreate: true)
        }
    }

    static func folder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// Opens `path` for writing as its plan says (nothing is replaced until `commit`).
    public init(_ path: String) throws(Failure) {
        self.path = path
        plan = try Self.plan(path)
        switch plan {
        case .standardOutput:
            fd = 1
        case .inPlace(let device):
            // Without O_NONBLOCK a FIFO nobody reads would hold the open forever.
            let opened = retryingInterrupts { open(device, O_WRONLY | O_NOCTTY | O_CLOEXEC | O_NONBLOCK) }
            guard opened >= 0 else {
                let reason = errno == ENXIO ? "no process reads this FIFO" : "cannot open: \(Self.text(errno))"
                throw Failure.system(reason, cannotCreate: true)
            }
            let flags = fcntl(opened, F_GETFL)
            if flags >= 0 { _ = fcntl(opened, F_SETFL, flags & ~O_NONBLOCK) }
            fd = opened
        case .replace(let target):
            let (opened, name) = try Self.createTemporary(beside: target)
            fd = opened
            temporary = name
            Self.copyPermissions(of: target, to: opened)
        }
        buffer.reserveCapacity(Self.bufferSize)
    }

    deinit {
        guard !finished else { return }
        if case .standardOutput = plan { return }
        close(fd)
        if let temporary { unlink(temporary) }
    }

    /// A new file with an unpredictable name in the target's folder: `.NAME.RANDOM.partial`.
    private static func createTemporary(beside target: String) throws(Failure) -> (Int32, String) {
        let folder = Self.folder(of: target)
        let base = target.split(separator: "/").last.map(String.init) ?? "output"
        for _ in 0..<16 {
            let random = String(UInt64.random(in: 0...UInt64.max), radix: 16)
            var name = ".\(base).\(random).partial"
            if name.utf8.count > 255 { name = ".glance.\(random).partial" }
            let path = folder == "/" ? "/\(name)" : "\(folder)/\(name)"
            let fd = retryingInterrupts { open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600) }
            if fd >= 0 { return (fd, path) }
            if errno == EEXIST { continue }
            throw Failure.system("cannot create a file in \(folder): \(text(errno))", cannotCreate: true)
        }
        throw Failure("cannot create a file in \(folder): every name tried exists", cannotCreate: true)
    }

    /// The replaced file's permissions (and, for root, its owner); a new file's are 0666 less the
    /// umask, as for any file a program creates.
    private static func copyPermissions(of target: String, to fd: Int32) {
        var st = stat()
        if stat(target, &st) == 0 {
            fchmod(fd, st.st_mode & 0o777)
            if geteuid() == 0 && (st.st_uid != 0 || st.st_gid != 0) { _ = fchown(fd, st.st_uid, st.st_gid) }
        } else {
            fchmod(fd, 0o666 & ~currentUmask())
        }
    }

    /// The process's umask, read without changing it: /proc/self/status's `Umask:` line (Linux 4.7
    /// and later). Else set and put back, which for a moment gives any file another thread creates
    /// 022 instead.
    static func currentUmask() -> mode_t {
        if let file = fopen("/proc/self/status", "re") {
            defer { fclose(file) }
            var line: UnsafeMutablePointer<CChar>?
            var capacity = 0
            defer { free(line) }
            while getline(&line, &capacity, file) > 0, let text = line.map({ String(cString: $0) }) {
                guard text.hasPrefix("Umask:") else { continue }
                if let mask = mode_t(text.dropFirst(6).filter { ("0"..."7").contains($0) }, radix: 8) { return mask & 0o777 }
                break
            }
        }
        let mask = umask(0o022)
        umask(mask)
        return mask
    }

    public func write(_ text: String) throws(Failure) {
        var text = text
        var failure: Failure?
        text.withUTF8 { bytes in
            do throws(Failure) { try write(UnsafeRawBufferPointer(bytes)) } catch { failure = error }
        }
        if let failure { throw failure }
    }

    public func write(_ bytes: [UInt8]) throws(Failure) {
        var failure: Failure?
        bytes.withUnsafeBytes { raw in
            do throws(Failure) { try write(raw) } catch { failure = error }
        }
        if let failure { throw failure }
    }

    public func write(_ bytes: UnsafeRawBufferPointer) throws(Failure) {
        if buffer.count + bytes.count > Self.bufferSize { try flush() }
        if bytes.count >= Self.bufferSize {
            try writeAll(bytes)
        } else {
            buffer.append(contentsOf: bytes)
        }
    }

    private func flush() throws(Failure) {
        guard !buffer.isEmpty else { return }
        var failure: Failure?
        buffer.withUnsafeBytes { raw in
            do throws(Failure) { try writeAll(raw) } catch { failure = error }
        }
        buffer.removeAll(keepingCapacity: true)
        if let failure { throw failure }
    }

    private func writeAll(_ bytes: UnsafeRawBufferPointer) throws(Failure) {
        var offset = 0
        while offset < bytes.count {
            let n = retryingInterrupts { systemWrite(fd, bytes.baseAddress! + offset, bytes.count - offset) }
            guard n > 0 else { throw Failure("cannot write: \(Self.text(n == 0 ? EIO : errno))", cannotCreate: false) }
            offset += n
        }
    }

    /// Everything written out: the temporary file on disk and renamed over the target, or the
    /// device given the last bytes. Without a commit (an error, a throw) the target is untouched.
    public func commit() throws(Failure) {
        precondition(!finished, "an output file is committed once")
        finished = true
        switch plan {
        case .standardOutput:
            try flush()
        case .inPlace:
            defer { close(fd) }
            try flush()
        case .replace(let target):
            let temporary = self.temporary!
            do throws(Failure) {
                try flush()
                guard fsync(fd) == 0 else { throw Failure("cannot write: \(Self.text(errno))", cannotCreate: false) }
                guard close(fd) == 0 else { throw Failure("cannot write: \(Self.text(errno))", cannotCreate: false) }
                fd = -1
                // Someone may have put something else there meanwhile: only a file is replaced.
                var st = stat()
                if lstat(target, &st) == 0 && (st.st_mode & S_IFMT) != S_IFREG {
                    throw Failure("it is no longer a regular file; nothing was replaced", cannotCreate: false)
                }
                guard rename(temporary, target) == 0 else {
                    throw Failure("cannot replace it: \(Self.text(errno))", cannotCreate: false)
                }
            } catch {
                if fd >= 0 { close(fd) }
                unlink(temporary)
                throw error
            }
            // The new name on disk too (best effort: the data already is).
            let folder = open(Self.folder(of: target), O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            if folder >= 0 {
                _ = fsync(folder)
                close(folder)
            }
        }
    }

    /// Writes `bytes` to `path` whole (see the type).
    public static func write(_ bytes: [UInt8], to path: String) throws(Failure) {
        let file = try OutputFile(path)
        try file.write(bytes)
        try file.commit()
    }

    static func text(_ code: Int32) -> String { String(cString: strerror(code)) }
}

/// write(2) by its C name (Glibc or Musl): inside OutputFile the plain name is its own method.
private func systemWrite(_ fd: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int { write(fd, bytes, count) }
