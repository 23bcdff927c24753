import CKernelShims
import Platform

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The text console the app was started on, switched to graphics mode (no console text or cursor
/// over the picture) while the app shows, and back to text mode when closed.
public final class VirtualTerminal {
    public let descriptor: FileDescriptor
    /// Where it came from: "standard input" or "/dev/tty0".
    public let source: String
    private let owned: Bool
    private var changed = false
    /// VT_SETMODE VT_PROCESS is in force: switches wait for the app.
    public private(set) var controlsSwitching = false

    /// The VT on standard input, else the foreground VT through /dev/tty0; nil with the reason when
    /// there is none that can be used (over SSH, in a container, without access to /dev/tty0).
    public static func open() -> (terminal: VirtualTerminal?, problem: String?) {
        if Self.isTerminal(FileDescriptor(rawValue: 0)) {
            return (VirtualTerminal(FileDescriptor(rawValue: 0), source: "standard input", owned: false), nil)
        }
        let path = "/dev/tty0"
        let fd: FileDescriptor
        do {
            fd = try FileDescriptor.open(path, [.readWrite, .noControllingTerminal])
        } catch {
            return (nil, "not on a virtual terminal and \(error); console text may show over the display")
        }
        guard Self.isTerminal(fd) else {
            fd.close()
            return (nil, "\(path) is not a virtual terminal; console text may show over the display")
        }
        return (VirtualTerminal(fd, source: path, owned: true), nil)
    }

    private init(_ descriptor: FileDescriptor, source: String, owned: Bool) {
        self.descriptor = descriptor
        self.source = source
        self.owned = owned
        // /dev/tty0 is the VT in front when it is opened, and stays that one.
        vtNumber = number ?? frontNumber()
    }

    /// The number of the VT the app is on (ttyN), nil if it cannot be told.
    public private(set) var vtNumber: Int?

    /// Whether the app's VT is the one in front (true when that cannot be told). A switch back
    /// and away again can both be pending when the loop looks: the acquire must not take the
    /// display when the release was already answered.
    public var isInFront: Bool {
        guard let vtNumber, let front = frontNumber() else { return true }
        return front == vtNumber
    }

    /// Whether `fd` is a VT (KDGETMODE answers).
    static func isTerminal(_ fd: FileDescriptor) -> Bool {
        var mode: Int32 = 0
        return (try? fd.control(UInt(KDGETMODE), &mode, "KDGETMODE")) != nil
    }

    /// N of /dev/ttyN when this is a numbered VT; nil for /dev/tty0 and /dev/console, which
    /// stand for whichever VT is in front.
    public var number: Int? {
        var info = stat()
        guard fstat(descriptor.rawValue, &info) == 0 else { return nil }
        let device = UInt64(info.st_rdev)
        let major = ((device >> 8) & 0xfff) | ((device >> 32) & ~0xfff)
        let minor = (device & 0xff) | ((device >> 12) & ~0xff)
        guard major == 4, (1...63).contains(minor) else { return nil }
        return Int(minor)
    }

    /// The number of the VT in front (VT_GETSTATE).
    public func frontNumber() -> Int? {
        var state = vt_stat()
        guard (try? descriptor.control(UInt(VT_GETSTATE), &state, "VT_GETSTATE")) != nil else { return nil }
        return Int(state.v_active)
    }

    /// How `bringToFront` went.
    public enum Front: Equatable, Sendable {
        /// It was in front already (or is the one in front by definition).
        case inFront
        /// It was brought to the front from VT `from`.
        case switched(from: Int)
        /// VT `on` stayed in front: its program holds the switch up (VT_PROCESS).
        case stuck(on: Int, reason: String)
        /// The switch may not be asked for (EPERM: not the caller's controlling terminal, and no
        /// CAP_SYS_TTY_CONFIG): VT `on` stays in front.
        case notAllowed(on: Int, reason: String)
    }

    /// A numbered VT that is not in front is brought there (VT_ACTIVATE, as chvt does), as
    /// display servers do at start: else the app would draw over another console, or find the
    /// display held by the display server in front. Waits up to `timeout` for the switch, which
    /// the program in front may hold up while it gives the display up.
    public func bringToFront(timeout: Duration) -> Front {
        guard let number, let front = frontNumber(), front != number else { return .inFront }
        do {
            try descriptor.control(UInt(VT_ACTIVATE), value: UInt(number), "VT_ACTIVATE \(number)")
        } catch where error.errno == .notPermitted || error.errno == .permissionDenied {
            return .notAllowed(on: front, reason: error.description)
        } catch {
            return .stuck(on: front, reason: error.description)
        }
        let deadline = monotonicNow() + timeout
        while true {
            if frontNumber() == number { return .switched(from: front) }
            if monotonicNow() >= deadline { break }
            usleep(20_000)
        }
        return .stuck(on: frontNumber() ?? front, reason: "the switch did not happen within \(timeout)")
    }

    /// KDSETMODE KD_GRAPHICS: the console stops drawing text and the cursor. From here on a
    /// crash puts it back too, and Ctrl+Z from the console cannot stop the app while it holds
    /// the display.
    public func enterGraphicsMode() throws(SystemError) {
        try descriptor.control(UInt(KDSETMODE), value: UInt(KD_GRAPHICS), "KDSETMODE KD_GRAPHICS on \(source)")
        changed = true
        glance_crash_restore_console(descriptor.rawValue)
        signal(SIGTSTP, SIG_IGN)
    }

    /// Graphics mode again, when the app had it: something reset the terminal meanwhile (systemd's
    /// TTYReset= for a command of the unit, such as its ExecReload=).
    public func reassertGraphicsMode() {
        guard changed else { return }
        _ = try? descriptor.control(UInt(KDSETMODE), value: UInt(KD_GRAPHICS), "KDSETMODE KD_GRAPHICS on \(source)")
    }

    /// VT_SETMODE VT_PROCESS: a switch to another VT (Ctrl+Alt+Fn, chvt) sends `release` and
    /// waits for `allowRelease()`; coming back sends `acquire`, answered by `acknowledgeAcquire()`.
    /// So the app gives up the display before the other console or display server takes it.
    public func controlSwitching(release: Int32, acquire: Int32) throws(SystemError) {
        var mode = vt_mode()
        mode.mode = CChar(VT_PROCESS)
        mode.relsig = Int16(release)
        mode.acqsig = Int16(acquire)
        try descriptor.control(UInt(VT_SETMODE), &mode, "VT_SETMODE VT_PROCESS on \(source)")
        controlsSwitching = true
    }

    /// Lets a requested switch away go ahead (VT_RELDISP 1), after the display is given up.
    public func allowRelease() throws(SystemError) {
        try descriptor.control(UInt(VT_RELDISP), value: 1, "VT_RELDISP 1")
    }

    /// Acknowledges the switch back (VT_RELDISP VT_ACKACQ), before taking the display again.
    public func acknowledgeAcquire() throws(SystemError) {
        try descriptor.control(UInt(VT_RELDISP), value: UInt(VT_ACKACQ), "VT_RELDISP VT_ACKACQ")
    }

    /// Back to automatic switching and text mode; the console redraws itself. (Always text, even
    /// if it was in graphics mode before: that is what a crashed display program leaves behind.)
    public func restore() {
        if controlsSwitching {
            controlsSwitching = false
            var mode = vt_mode()
            mode.mode = CChar(VT_AUTO)
            _ = try? descriptor.control(UInt(VT_SETMODE), &mode, "VT_SETMODE VT_AUTO")
        }
        guard changed else { return }
        changed = false
        _ = try? descriptor.control(UInt(KDSETMODE), value: UInt(KD_TEXT), "KDSETMODE KD_TEXT")
        glance_crash_restore_console(-1)
        signal(SIGTSTP, SIG_DFL)
    }

    deinit {
        restore()
        if owned { descriptor.close() }
    }
}
