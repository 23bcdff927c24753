import Controls
import Platform

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The input devices in use, kept current as they come and go: `/dev/input` watched with
/// inotify, nodes opened as they appear (or become readable), closed when they vanish or read
/// ENODEV. Only devices with a key the key map uses, a touchscreen or an absolute pointer are
/// kept; one with the power button is grabbed only when it is a full keyboard
/// (`InputCapabilities.grabPolicy`), so logind still gets a power button on its own.
public final class InputHub {
    public let directory: String
    /// Devices are grabbed where their policy allows (the configuration's choice)…
    public let grab: Bool
    /// …and while the app is on the console in front (`setGrabbing`).
    public private(set) var grabbing: Bool
    /// Devices to grab again once no key on them is down (see `setGrabbing`).
    private var grabWhenReleased: Set<String> = []
    /// Key codes the app acts on.
    public let wanted: Set<Int>
    /// Nodes opened once and closed again: nothing on them is for the app. Not tried again (nor
    /// told again) until they go away.
    private var leftAlone: Set<String> = []
    /// Any key but pointer buttons (BTN_MOUSE…BTN_DIGI…) and the buttons logind handles.
    static let anyKey = Set(0..<0x300)
        .subtracting(InputCapabilities.btnLeft..<InputCapabilities.btnRangeEnd)
        .subtracting(InputCapabilities.systemKeys)
    public private(set) var devices: [EvdevDevice] = []
    private let inotify: FileDescriptor?
    private let log: (String) -> Void

    /// A device's events, read in one go.
    public struct Batch {
        public let device: EvdevDevice
        public let events: [InputEvent]
    }

    public enum Change {
        case added(EvdevDevice)
        case removed(path: String)
    }

    /// Opens a node (an `EvdevDevice` for real; tests give their own).
    typealias Opener = (_ path: String) throws(SystemError) -> EvdevDevice
    private let opener: Opener

    /// `wanted`: the key codes the key map uses (`KeyMap.codes`); a device with none of them that
    /// is not touch is left to the system. Without it, any key but a pointer button or the power,
    /// sleep and wake-up buttons counts.
    public convenience init(
        directory: String = "/dev/input", grab: Bool, wanted: Set<Int>? = nil, log: @escaping (String) -> Void
    ) {
        self.init(
            directory: directory, grab: grab, wanted: wanted ?? Self.anyKey, log: log,
            opener: { path throws(SystemError) in
                try EvdevDevice(path: path, grab: false)
            })
    }

    init(
        directory: String, grab: Bool, wanted: Set<Int>, log: @escaping (String) -> Void, opener: @escaping Opener
    ) {
        self.directory = directory
        self.grab = grab
        grabbing = grab
        self.wanted = wanted
        self.log = log
        self.opener = opener
        let fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        if fd >= 0 && inotify_add_watch(fd, directory, UInt32(IN_CREATE | IN_ATTRIB | IN_DELETE | IN_MOVED_TO)) >= 0 {
            inotify = FileDescriptor(rawValue: fd)
        } else {
            if fd >= 0 { close(fd) }
            inotify = nil
            log("input: cannot watch \(directory) for new devices (\(SystemError("inotify \(directory)")))")
        }
        // Each node opened once: the device's own capabilities say whether it is kept. Nodes that
        // cannot be read are told once, together: with none readable there is no input at all.
        var unreadable: [String] = []
        var denied: SystemError?
        for path in InputDevice.nodes(directory) {
            do throws(SystemError) {
                _ = try open(path)
            } catch  where error.errno == .permissionDenied || error.errno == .notPermitted {
                unreadable.append(path)
                denied = InputDevice.hinted(error)
            } catch  where error.errno == .noSuchFile {
                continue  // gone since the listing
            } catch {
                log("input: \(path): \(error)")
            }
        }
        if let denied {
            log(
                "input: cannot open \(unreadable.joined(separator: ", ")): \(denied.errno)"
                    + (denied.hint.map { " (\($0))" } ?? ""))
        }
    }

    deinit { inotify?.close() }

    /// What to poll: the watch and every device.
    public var descriptors: [FileDescriptor] { (inotify.map { [$0] } ?? []) + devices.map(\.descriptor) }

    /// Handles the readable descriptors: devices that came or went, and the events read.
    public func handle(_ ready: [FileDescriptor]) -> (changes: [Change], batches: [Batch]) {
        var changes: [Change] = []
        var batches: [Batch] = []
        if let inotify, ready.contains(inotify) { changes += watch(inotify) }
        for device in devices where ready.contains(device.descriptor) {
            do throws(SystemError) {
                let before = device.resynchronisations
                let events = try device.readEvents()
                if device.resynchronisations > before {
                    log("input: \(device.name): events were dropped; state resynchronised")
                }
                if !events.isEmpty { batches.append(Batch(device: device, events: events)) }
                if grabWhenReleased.contains(device.path), !device.anyKeyDown {
                    grabWhenReleased.remove(device.path)
                    regrab(device)
                }
            } catch {
                // ENODEV: unplugged between the notification and the read, or before.
                log("input: \(device.name) (\(device.path)) went away: \(error.errno)")
                devices.removeAll { $0 === device }
                changes.append(.removed(path: device.path))
            }
        }
        return (changes, batches)
    }

    private func watch(_ fd: FileDescriptor) -> [Change] {
        var changes: [Change] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(fd.rawValue, $0.baseAddress, $0.count) }
            guard n > 0 else { break }
            var offset = 0
            while offset + MemoryLayout<inotify_event>.size <= n {
                let (mask, length, name): (UInt32, Int, String) = buffer.withUnsafeBytes { raw in
                    let e = raw.load(fromByteOffset: offset, as: inotify_event.self)
                    let nameStart = offset + MemoryLayout<inotify_event>.size
                    let nameBytes = raw[nameStart..<min(nameStart + Int(e.len), raw.count)]
                    return (e.mask, Int(e.len), String(decoding: nameBytes.prefix { $0 != 0 }, as: UTF8.self))
                }
                offset += MemoryLayout<inotify_event>.size + length
                guard name.hasPrefix("event") else { continue }
                let path = "\(directory)/\(name)"
                if mask & UInt32(IN_DELETE) != 0 {
                    leftAlone.remove(path)
                    if devices.contains(where: { $0.path == path }) {
                        devices.removeAll { $0.path == path }
                        log("input: \(path) removed")
                        changes.append(.removed(path: path))
                    }
                } else if !devices.contains(where: { $0.path == path }) && !leftAlone.contains(path) {
                    // Created, or its permissions set by udev: try (again) to open it.
                    do throws(SystemError) {
                        if let device = try open(path) { changes.append(.added(device)) }
                    } catch  where error.errno == .permissionDenied || error.errno == .noSuchFile {
                        // Not readable yet: udev sets the permissions after creating the node,
                        // and IN_ATTRIB comes then.
                    } catch {
                        log("input: \(path): \(error)")
                    }
                }
            }
        }
        return changes
    }

    /// Lets go of every grabbed device (the app's console switched away: the console or display
    /// server in front gets the keys and touches), or grabs them again (back in front). Devices
    /// that appear meanwhile follow the same state. Nothing happens when grabbing is off.
    ///
    /// A device with a key still down (Ctrl+Alt+F1 that brought the console back) is grabbed
    /// only once it is up: grabbed earlier, the console would never see those keys come up, and
    /// would take Ctrl and Alt as held on the next switch.
    public func setGrabbing(_ on: Bool) {
        guard grab, on != grabbing else { return }
        grabbing = on
        grabWhenReleased.removeAll()
        for device in devices {
            if !on {
                device.ungrab()
            } else if device.capabilities.grabPolicy(wanted: wanted) == .openAndGrab {
                if device.anyKeyDown {
                    grabWhenReleased.insert(device.path)
                } else {
                    regrab(device)
                }
            }
        }
    }

    private func regrab(_ device: EvdevDevice) {
        if !device.grab() { log("input: \(device.name) (\(device.path)): could not grab it again") }
    }

    /// Opens a node and keeps it if it is a device the app uses; grabs it when grabbing is on and
    /// the device's capabilities allow (`InputCapabilities.grabPolicy`).
    private func open(_ path: String) throws(SystemError) -> EvdevDevice? {
        let device = try opener(path)
        var what = device.capabilities.kinds.filter { $0 != .relativePointer }.map(\.rawValue)
        if what.isEmpty { what = ["buttons"] }
        switch device.capabilities.grabPolicy(wanted: wanted) {
        case .skip(let reason):
            leftAlone.insert(path)
            log("input: \(device.name) (\(path)): \(reason)")
            return nil
        case .open(let reason):
            if grab { what.append(reason) }
        case .openAndGrab:
            if grab && grabbing {
                what.append(device.grab() ? "grabbed" : "could not grab")
            } else if grab {
                what.append("grabbed once the app's console is back in front")
            }
        }
        devices.append(device)
        log("input: \(device.name) (\(path)): \(what.joined(separator: ", "))")
        if let problem = device.clockProblem {
            log("input: \(device.name): event times not on the monotonic clock (\(problem)); stamped when read")
        }
        return device
    }
}
