import CDRM
import Platform

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// An open DRM card (/dev/dri/cardN). Owns the descriptor; closing it also gives up DRM master.
public final class Card {
    public let path: String
    public let descriptor: FileDescriptor
    /// The atomic client capability was granted (and not refused by `forceLegacy`).
    public private(set) var atomic = false

    /// Opens `path` read-write and non-blocking (events are read until EAGAIN), with universal
    /// planes (and atomic unless `legacy`) requested.
    ///
    /// Early in a boot the service can start before udev has run its rules for the card: the node
    /// is still root's alone (0600, as the kernel made it) and a member of group video may not
    /// open it yet. Then it waits for udev, up to `udevWait`, instead of ending with 77 and a
    /// restart (seen on the arm64 boot).
    public init(path: String, legacy: Bool = false, udevWait: Duration = .seconds(5)) throws(DisplayError) {
        self.path = path
        do {
            descriptor = try Self.openWaitingForUdev(path, wait: udevWait)
        } catch {
            if error.errno == .permissionDenied || error.errno == .notPermitted {
                var e = error
                e.hint = Card.videoGroupHint
                throw .permissionDenied(e)
            }
            if error.errno == .noSuchFile { throw .noDisplayDevice(directory: Self.directory(of: path)) }
            throw .system(error)
        }
        _ = drmSetClientCap(descriptor.rawValue, UInt64(DRM_CLIENT_CAP_UNIVERSAL_PLANES), 1)
        if !legacy {
            atomic = drmSetClientCap(descriptor.rawValue, UInt64(DRM_CLIENT_CAP_ATOMIC), 1) == 0
        }
    }

    deinit { descriptor.close() }

    private static func openWaitingForUdev(_ path: String, wait: Duration) throws(SystemError) -> FileDescriptor {
        let end = monotonicNow() + wait
        while true {
            do throws(SystemError) {
                return try FileDescriptor.open(path, [.readWrite, .nonBlocking])
            } catch {
                var st = stat()
                guard error.errno == .permissionDenied, monotonicNow() < end, stat(path, &st) == 0,
                    awaitsUdev(owner: st.st_uid, group: st.st_gid, mode: st.st_mode, euid: geteuid())
                else { throw error }
                usleep(50_000)
            }
        }
    }

    /// Whether a node this process may not open looks as the kernel made it, before udev gave it
    /// its group: root's, 0600. A node udev has set up (root:video 0660) refuses for good.
    static func awaitsUdev(owner: UInt32, group: UInt32, mode: UInt32, euid: UInt32) -> Bool {
        euid != 0 && owner == 0 && group == 0 && mode & 0o077 == 0
    }

    /// The card nodes under `directory` (card0, card1 …), in number order.
    public static func discover(in directory: String = "/dev/dri") throws(DisplayError) -> [String] {
        guard let cards = numberedNodes(in: directory, prefix: "card"), !cards.isEmpty else {
            throw .noDisplayDevice(directory: directory)
        }
        return cards
    }

    static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return String(path[..<slash])
    }

    /// The kernel driver's name ("virtio_gpu", "bochs-drm", "vc4").
    public var driverName: String {
        guard let version = drmGetVersion(descriptor.rawValue) else { return "unknown" }
        defer { drmFreeVersion(version) }
        guard let name = version.pointee.name else { return "unknown" }
        return String(cString: name)
    }

    /// DRM_CAP_DUMB_BUFFER.
    public var supportsDumbBuffers: Bool {
        var value: UInt64 = 0
        return drmGetCap(descriptor.rawValue, UInt64(DRM_CAP_DUMB_BUFFER), &value) == 0 && value != 0
    }

    /// Whether this descriptor is DRM master: it is as soon as it opens a card nobody holds.
    public var isMaster: Bool { drmIsMaster(descriptor.rawValue) != 0 }

    /// Becomes master if nobody is (after an earlier drop); throws `anotherMaster` otherwise.
    public func becomeMaster() throws(DisplayError) {
        if isMaster { return }
        if drmSetMaster(descriptor.rawValue) != 0 { throw .anotherMaster(card: path) }
    }

    /// Takes master back after `dropMaster` (the switch back to our VT): false while another
    /// program still holds the card (EBUSY; EINVAL before Linux 5.10), which happens when it does
    /// not take part in VT switching; throws for any other failure.
    public func retakeMaster() throws(DisplayError) -> Bool {
        if isMaster { return true }
        let result = drmSetMaster(descriptor.rawValue)
        guard result != 0 else { return true }
        let error = drmErrno(result)
        if error == .busy || error == .invalidArgument { return false }
        throw .system(SystemError("DRM SET_MASTER on \(path)", errno: error))
    }

    /// Gives up master (VT switch away).
    public func dropMaster() { _ = drmDropMaster(descriptor.rawValue) }
}

extension Card {
    /// What to do when the card may not be opened or used.
    static let videoGroupHint = "add the user to group video: sudo usermod -aG video $USER, then log in again"
}

/// The error of a failed libdrm call: libdrm returns either -1 with errno set or a negative errno.
@inline(__always)
func drmErrno(_ result: Int32) -> Errno { Errno(rawValue: result == -1 ? errno : -result) }

/// Turns a libdrm mode-setting result (negative errno, or -1 with errno set) into a SystemError.
@inline(__always)
func drmCheck(_ result: Int32, _ call: @autoclosure () -> String) throws(DisplayError) {
    guard result < 0 else { return }
    throw .system(SystemError(call(), errno: drmErrno(result)))
}
