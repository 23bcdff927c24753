import Activity
import Configuration
import ConfigurationFile
import HelperCommands
import Platform
import Store

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// `glance import --watch [FOLDER]`: a folder watched (inotify) until SIGTERM, SIGINT or SIGHUP,
/// and each file written there (closed after writing) or moved in (Syncthing writes
/// `.syncthing.NAME.tmp` and renames it onto NAME) imported once it has been quiet for
/// `settle`, all or nothing as every import (`ImportJob.importFile`). A missing folder is waited
/// for; a refused file is said in one line and the watch goes on.
enum WatchJob {
    /// How long a file must be left alone (no write closed, no rename onto it, no change of its
    /// modification time) before it is imported.
    static let settle: Duration = .seconds(2)
    /// How often a missing folder is looked for.
    static let look: Duration = .seconds(2)

    static func run(_ line: ImportCommand.Line, console: Console) -> Outcome {
        let configuration: Configuration
        switch ConfigurationFile.configuration(line.config, commandLine: Layer(), console: console) {
        case .failure(let status): return status.code
        case .success(let read): configuration = read
        }
        guard var folder = line.file ?? configuration.imports.watch else {
            console.complain(
                "import --watch: no folder to watch: import.watch is null in \(line.config ?? Configuration.defaultPath) and no "
                    + "FOLDER was given; nothing to do (set import.watch to the folder Syncthing keeps the export in)")
            return Outcome.ok
        }
        while folder.count > 1 && folder.hasSuffix("/") { folder.removeLast() }
        let database: String
        do throws(OutputFailure) {
            database = try storePath(line.database ?? configuration.database)
        } catch {
            console.complain(error.message)
            return error.status
        }
        var st = stat()
        if stat(folder, &st) == 0, (st.st_mode & S_IFMT) != S_IFDIR {
            console.complain("import --watch: \(folder) is not a folder: give the folder the files arrive in")
            return Outcome.noInput
        }
        let signals: SignalReceiver
        let loop: EventLoop
        let watcher: FolderWatcher
        do {
            signals = try SignalReceiver([SIGINT, SIGTERM, SIGHUP])
            loop = try EventLoop(signals: signals)
            watcher = try FolderWatcher(folder: folder, say: console.complain)
        } catch {
            console.complain(error.description)
            return Outcome.software
        }
        let stop = ImportJob.StopSignals(signals)
        // A refusal in one line (the error and "the store is unchanged" together): a log's line.
        let oneLine = Console(write: console.write) { text in
            var body = text
            let ends = body.hasSuffix("\n")
            if ends { body.removeLast() }
            console.writeError(body.split(separator: "\n", omittingEmptySubsequences: false).joined(separator: "; ") + (ends ? "\n" : ""))
        }
        watcher.importFile = { path in
            ImportJob.importFile(
                path, skipInvalid: line.skipInvalid, taskName: line.task, showProgress: false, database: database,
                person: line.person, console: oneLine, stop: stop)
        }
        watcher.stopped = { stop.check() }
        console.complain(
            "import --watch: watching \(folder) for files to import (Gadgetbridge's export, an Apple Health export, a "
                + "glance-readings file) into \(database); SIGTERM or Ctrl-C ends it")
        if case .failure(let status) = watcher.start(now: monotonicNow()) { return status.code }
        let ended: Int32?? = try? loop.run(
            watching: { [Interest(watcher.descriptor)] },
            turn: { (wakeup) throws(SystemError) -> EventLoop.Next<Int32?> in
                if let signal = wakeup.signals.first { return .end(signal) }
                if watcher.turn(ready: wakeup.ready, now: wakeup.now) { return .end(stop.signal) }
                return .wait(until: watcher.deadline)
            },
            failed: { error in
                console.complain("import --watch: \(error.description)")
                return error
            })
        guard let ended else { return Outcome.ioError }
        console.complain("import --watch: stopped" + (ended.map { " by \(ImportJob.signalName($0))" } ?? ""))
        return Outcome.ok
    }
}

/// The watched folder: its inotify watch (or, while it is missing, the next look for it), the
/// files waiting to settle, and each file's identity when it was last imported. Bounded: one
/// entry per name in the folder, at most `limit` of either.
final class FolderWatcher {
    /// What tells one version of a file from another without reading it.
    struct Identity: Equatable {
        var device: UInt64
        var inode: UInt64
        var size: Int64
        var seconds: Int
        var nanoseconds: Int

        init(_ st: stat) {
            device = UInt64(st.st_dev)
            inode = UInt64(st.st_ino)
            size = Int64(st.st_size)
            seconds = Int(st.st_mtim.tv_sec)
            nanoseconds = Int(st.st_mtim.tv_nsec)
        }
    }

    let folder: String
    let say: (String) -> Void
    /// Imports a file; its exit status (set by the owner).
    var importFile: (String) -> Outcome = { _ in Outcome.software }
    /// Whether a signal asked the watch to end (set by the owner).
    var stopped: () -> Bool = { false }

    private let inotify: FileDescriptor
    /// The folder's watch; nil while it is missing.
    private var watch: Int32?
    /// When to look for the missing folder again.
    private var nextLook: Duration?
    /// What was last said of the folder's absence (said once until it changes).
    private var absence: String?
    /// Files written or moved in, by name: when each may be imported.
    private var pending: [String: Duration] = [:]
    /// Each file's identity when it was last imported (or refused, or found not to be an import).
    private var last: [String: Identity] = [:]
    /// Events were lost (the kernel's queue overflowed, or too many files at once): the newest
    /// file is looked for again.
    private var rescan = false
    private let buffer = UnsafeMutableRawPointer.allocate(byteCount: 16384, alignment: 8)

    static let limit = 256

    init(folder: String, say: @escaping (String) -> Void) throws(SystemError) {
        self.folder = folder
        self.say = say
        let fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard fd >= 0 else { throw SystemError("inotify_init1") }
        inotify = FileDescriptor(rawValue: fd)
    }

    deinit {
        inotify.close()
        buffer.deallocate()
    }

    var descriptor: FileDescriptor { inotify }

    /// The next time the watcher must be asked without an event: a file to settle, a look for
    /// the folder.
    var deadline: Duration? { earliest(pending.values.min(), nextLook) }

    /// Watches the folder (or starts waiting for it) and takes the newest file already there.
    /// A failure only when this user may not read the folder at all.
    func start(now: Duration) -> Result<Void, ExitStatus> {
        if !attach(now: now), absence?.contains("ermission") == true {
            return .failure(ExitStatus(Outcome.noPermission))
        }
        return .success(())
    }

    /// One turn: the events read, the folder looked for, the settled files imported. True when
    /// the watch must end (a signal stopped an import).
    func turn(ready: [FileDescriptor], now: Duration) -> Bool {
        if ready.contains(inotify) { readEvents(now: now) }
        if watch == nil, let nextLook, now >= nextLook { attach(now: now) }
        if rescan {
            rescan = false
            takeNewest(now: now)
        }
        let due = pending.filter { $0.value <= now }.sorted { $0.value < $1.value }.map(\.key)
        for name in due {
            pending[name] = nil
            take(name, now: now)
            if stopped() { return true }
        }
        return false
    }

    /// Names never imported: dotfiles (Syncthing's `.syncthing.NAME.tmp`, `.stfolder`), its older
    /// `~syncthing~NAME.tmp`, and any `*.tmp`.
    static func ignored(_ name: String) -> Bool {
        name.hasPrefix(".") || name.hasPrefix("~syncthing~") || name.hasSuffix(".tmp")
    }

    /// Adds the folder's watch; true when it is watched. Said once for each reason it is not.
    @discardableResult
    private func attach(now: Duration) -> Bool {
        let mask = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR)
        let wd = inotify_add_watch(inotify.rawValue, folder, mask)
        guard wd >= 0 else {
            let reason = errno == ENOTDIR ? "it is not a folder" : String(cString: strerror(errno))
            if reason != absence {
                say("import --watch: waiting for \(folder) (\(reason)); looking again every \(Self.seconds(WatchJob.look))")
                absence = reason
            }
            nextLook = now + WatchJob.look
            return false
        }
        if absence != nil { say("import --watch: \(folder) is there: watching it") }
        watch = wd
        absence = nil
        nextLook = nil
        takeNewest(now: now)
        return true
    }

    /// The folder went (removed, moved away, its file system unmounted): waited for again.
    private func detach(now: Duration, _ what: String) {
        if let watch { inotify_rm_watch(inotify.rawValue, watch) }
        watch = nil
        pending.removeAll()
        say("import --watch: \(folder) was \(what)")
        attach(now: now)
    }

    private func readEvents(now: Duration) {
        let header = MemoryLayout<inotify_event>.size
        while true {
            let n = retryingInterrupts { read(inotify.rawValue, buffer, 16384) }
            guard n > 0 else { break }
            var offset = 0
            while offset + header <= n {
                let event = buffer.load(fromByteOffset: offset, as: inotify_event.self)
                let name =
                    event.len > 0 ? String(cString: (buffer + offset + header).assumingMemoryBound(to: CChar.self)) : ""
                offset += header + Int(event.len)
                if event.mask & UInt32(IN_Q_OVERFLOW) != 0 {
                    rescan = true
                    continue
                }
                guard let watch, event.wd == watch else { continue }  // an earlier watch's last events
                if event.mask & UInt32(IN_DELETE_SELF | IN_IGNORED | IN_UNMOUNT) != 0 {
                    detach(now: now, "removed")
                    continue
                }
                if event.mask & UInt32(IN_MOVE_SELF) != 0 {
                    detach(now: now, "moved away")
                    continue
                }
                guard !name.isEmpty, event.mask & UInt32(IN_ISDIR) == 0, !Self.ignored(name) else { continue }
                if event.mask & UInt32(IN_CLOSE_WRITE | IN_MOVED_TO) != 0 { schedule(name, at: now + WatchJob.settle) }
            }
        }
    }

    private func schedule(_ name: String, at due: Duration) {
        guard pending[name] != nil || pending.count < Self.limit else {
            rescan = true
            return
        }
        pending[name] = due
    }

    /// The newest file of a kind glance import takes, taken at once (the board may have been off
    /// while Syncthing delivered; events were lost).
    private func takeNewest(now: Duration) {
        guard let names = directoryEntries(folder) else { return }
        var newest: (name: String, seconds: Int, nanoseconds: Int)?
        for name in names.prefix(4096) where !Self.ignored(name) {
            var st = stat()
            guard stat(folder + "/" + name, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG else { continue }
            let time = (Int(st.st_mtim.tv_sec), Int(st.st_mtim.tv_nsec))
            if let newest, (newest.seconds, newest.nanoseconds) >= time { continue }
            guard Self.refusal(folder + "/" + name) == nil else { continue }
            newest = (name, time.0, time.1)
        }
        if let newest { schedule(newest.name, at: now) }
    }

    /// Why the file at `path` is not one glance import takes (nil: it is one), from its first bytes.
    static func refusal(_ path: String) -> String? {
        if GadgetbridgeJob.isSQLite(path) { return nil }
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
        guard fd >= 0 else { return "\(path): \(String(cString: strerror(errno)))" }
        defer { close(fd) }
        var head = [UInt8](repeating: 0, count: 512)
        let n = head.withUnsafeMutableBytes { bytes in retryingInterrupts { read(fd, bytes.baseAddress, 512) } }
        head = Array(head.prefix(max(0, n)))
        do throws(StoreError) {
            _ = try HealthImport.format(head: head, name: path)
            return nil
        } catch {
            return error.message
        }
    }

    /// Imports the settled file `name`, unless it is gone, not a file, unchanged since its last
    /// import, still being written, or not a kind glance import takes (said once).
    private func take(_ name: String, now: Duration) {
        let path = folder + "/" + name
        var st = stat()
        guard stat(path, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG else { return }
        let identity = Identity(st)
        guard last[name] != identity else { return }
        // A name another machine chose (Syncthing's peer) goes into the log only as it reads: one
        // with a control or reordering character (an escape sequence, a line break) is said
        // quoted and left alone.
        guard Quote.clip(name, 255) == name else {
            say("import --watch: \(Quote.clip(name)): a file name with a control or reordering character; left alone")
            remember(name, identity)
            return
        }
        // Written to within the settle time (by a writer that has not closed it): later.
        var clock = timespec()
        clock_gettime(CLOCK_REALTIME, &clock)
        let age = Duration.seconds(clock.tv_sec - st.st_mtim.tv_sec) + .nanoseconds(clock.tv_nsec - st.st_mtim.tv_nsec)
        if age >= .zero && age < WatchJob.settle {
            schedule(name, at: now + WatchJob.settle - age)
            return
        }
        if let refusal = Self.refusal(path) {
            say("import --watch: \(refusal); left alone")
            remember(name, identity)
            return
        }
        let status = importFile(path)
        if status == Outcome.temporaryFailure {
            // The store was busy: tried again later, the file unchanged or not.
            schedule(name, at: monotonicNow() + .seconds(10))
            return
        }
        remember(name, identity)
    }

    private func remember(_ name: String, _ identity: Identity) {
        if last[name] == nil && last.count >= Self.limit {
            last = last.filter { fileExists(folder + "/" + $0.key) }
            if last.count >= Self.limit { last.removeAll() }
        }
        last[name] = identity
    }

    static func seconds(_ d: Duration) -> String { "\(d.components.seconds) s" }
}
