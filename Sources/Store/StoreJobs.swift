import Platform

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// What the data commands do to the store (`glance log`, `metric`, `task`, `export`,
/// `demo-data`: App's jobs; `import`: glance-import's): each opens the store here, does its work in
/// the store's transactions, says what it did, and turns a store error into its message and exit
/// status.
public enum StoreJobs {
    /// Opens the store at `path` (the default place when nil) and runs `body` with the store's
    /// `person` set to the one `person` names (`--person NAME|ID`; nil: person 1); a store error,
    /// opening, finding the person (`.invalidArgument`, 64, listing the people there are) or in
    /// `body`, is told and becomes the exit status.
    public static func with(
        _ path: String?, access: Store.Access = .create, person: String? = nil, console: Console,
        _ body: (Store) throws(StoreError) -> Outcome
    ) -> Outcome {
        do throws(OutputFailure) {
            let file = try storePath(path)
            do throws(StoreError) {
                let store = try Store(path: file, access: access)
                if let person { store.person = try store.requirePerson(person).id }
                let status = try body(store)
                // A user feeding the service's store says so (the personal store is the other one).
                if access == .create && path == nil && status == Outcome.ok && geteuid() != 0 {
                    if file == StoreLocation.systemPath {
                        console.complain("wrote to the system store \(file) (as a member of group glance)")
                    } else if fileExists(StoreLocation.systemPath) {
                        console.complain(
                            "wrote to your own store \(file); the panel shows \(StoreLocation.systemPath): "
                                + "sudo adduser $USER glance (then log in again) to feed it")
                    }
                }
                return status
            } catch {
                return fail(error, console: console)
            }
        } catch {
            console.complain(error.message)
            return error.status
        }
    }

    /// Tells a store error (and a hint) and returns its exit status.
    public static func fail(_ error: StoreError, _ hint: String? = nil, console: Console) -> Outcome {
        console.complain(hint.map { "\(error.message)\n\($0)" } ?? error.message)
        return error.exitStatus
    }
}
