import Controls
import CKernelShims
import Platform

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// An evdev device node and what it reports, read once (for `glance devices`).
public struct InputDevice: Sendable {
    public var path: String
    public var name: String
    public var capabilities: InputCapabilities

    /// The event nodes under `directory`, in number order, each read; a node that cannot be opened
    /// is returned as the error naming it.
    public static func scan(_ directory: String = "/dev/input") -> [Result<InputDevice, SystemError>] {
        nodes(directory).map { path in
            do throws(SystemError) {
                return .success(try read(path))
            } catch {
                return .failure(hinted(error))
            }
        }
    }

    /// The paths of the event nodes under `directory`, in number order.
    public static func nodes(_ directory: String = "/dev/input") -> [String] {
        numberedNodes(in: directory, prefix: "event") ?? []
    }

    /// An error opening a node, with what to do when it is the permission.
    static func hinted(_ error: SystemError) -> SystemError {
        var e = error
        if e.errno == .permissionDenied { e.hint = "add the user to group input" }
        return e
    }

    /// Opens `path` and reads its name and capability bits.
    public static func read(_ path: String) throws(SystemError) -> InputDevice {
        let fd = try FileDescriptor.open(path, [.nonBlocking])
        defer { fd.close() }
        var nameBytes = [UInt8](repeating: 0, count: 256)
        let length = nameBytes.withUnsafeMutableBytes {
            glance_ioctl(fd.rawValue, glance_EVIOCGNAME(256), $0.baseAddress)
        }
        let name = length > 0 ? String(decoding: nameBytes.prefix(while: { $0 != 0 }), as: UTF8.self) : "?"

        func bits(_ type: Int, count: Int) -> Set<Int> {
            var bytes = [UInt8](repeating: 0, count: (count + 7) / 8)
            let request =
                type < 0 ? glance_EVIOCGPROP(UInt32(bytes.count)) : glance_EVIOCGBIT(UInt32(type), UInt32(bytes.count))
            let n = bytes.withUnsafeMutableBytes { glance_ioctl(fd.rawValue, request, $0.baseAddress) }
            guard n > 0 else { return [] }
            var set = Set<Int>()
            for (i, byte) in bytes.prefix(Int(n)).enumerated() where byte != 0 {
                for b in 0..<8 where byte & (1 << b) != 0 { set.insert(i * 8 + b) }
            }
            return set
        }
        var caps = InputCapabilities()
        caps.eventTypes = bits(0, count: 32)
        if caps.eventTypes.contains(InputCapabilities.evKey) { caps.keys = bits(InputCapabilities.evKey, count: 0x300) }
        if caps.eventTypes.contains(InputCapabilities.evRel) {
            caps.relativeAxes = bits(InputCapabilities.evRel, count: 0x10)
        }
        if caps.eventTypes.contains(InputCapabilities.evAbs) {
            for axis in bits(InputCapabilities.evAbs, count: 0x40) {
                var info = input_absinfo()
                if glance_ioctl(fd.rawValue, glance_EVIOCGABS(UInt32(axis)), &info) == 0 {
                    caps.absoluteAxes[axis] = .init(minimum: Int(info.minimum), maximum: Int(info.maximum))
                }
            }
        }
        caps.properties = bits(-1, count: 0x20)
        return InputDevice(path: path, name: name, capabilities: caps)
    }
}
