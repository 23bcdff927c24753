import Platform

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// One bridge per store: `glance mqtt` holds an exclusive `flock` on `STORE-mqtt.lock` (next to
/// the store, in the folder the bridge may already write to) while it runs. A second bridge for
/// the same store would act on every Home Assistant command a second time (one "Next" press, two
/// steps) and, stopped cleanly, say `offline` for a device the first still serves. The lock goes
/// with the process (closed, killed): nothing is left to clean up.
final class BridgeLock {
    let path: String
    private let fd: Int32

    private init(path: String, fd: Int32) {
        self.path = path
        self.fd = fd
    }

    deinit { close(fd) }

    /// The lock's file beside the store at `store`.
    static func path(store: String) -> String { store + "-mqtt.lock" }

    enum Failure: Error {
        /// Another process holds it: another bridge for this store.
        case held(String)
        /// The file cannot be made or locked.
        case failed(String, Outcome)
    }

    /// Takes the lock beside `store`, without waiting.
    static func take(store: String) -> Result<BridgeLock, Failure> {
        let path = path(store: store)
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o660)
        guard fd >= 0 else {
            let e = errno
            let status = e == EACCES || e == EPERM || e == EROFS ? Outcome.noPermission : Outcome.cannotCreate
            return .failure(.failed("\(path): cannot open the bridge's lock: \(String(cString: strerror(e)))", status))
        }
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
            let e = errno
            if e == EINTR { continue }
            close(fd)
            if e == EWOULDBLOCK {
                return .failure(
                    .held(
                        "another glance mqtt already bridges the store \(store) (it holds \(path)): one bridge per panel, "
                            + "or each Home Assistant command acts twice; stop the other first (systemctl stop glance-mqtt, "
                            + "or the glance mqtt in a terminal)"))
            }
            return .failure(.failed("\(path): cannot lock it: \(String(cString: strerror(e)))", Outcome.ioError))
        }
        return .success(BridgeLock(path: path, fd: fd))
    }
}
