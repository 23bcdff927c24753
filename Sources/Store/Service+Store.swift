import Platform

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

extension Service {
    /// The store at `given` (else the default place), made when missing, as the unit runs it
    /// (UMask=0007): a store made here, its folder, -wal and -shm (SQLite gives them the
    /// database's mode) are for the owner and group glance only, whatever umask the shell that
    /// started it had. Told and an exit status when it cannot be opened.
    package static func openStore(_ given: String?, log: (String) -> Void) -> Result<(path: String, store: Store), ExitStatus> {
        let mask = umask(0o007)
        defer { umask(mask) }
        do throws(OutputFailure) {
            let path = try storePath(given)
            do throws(StoreError) {
                return .success((path, try Store(path: path)))
            } catch {
                throw OutputFailure(error.message, status: error.exitStatus)
            }
        } catch {
            log(error.message)
            return .failure(ExitStatus(error.status))
        }
    }
}
