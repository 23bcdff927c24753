import CDRM
import CKernelShims
import Platform
import Raster

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A dumb buffer: memory the display scans out, mapped so the renderer draws straight into it with
/// the driver's pitch, and registered as a framebuffer.
///
/// Owns the buffer handle, the framebuffer and the mapping; deinit undoes them in reverse order.
public final class DumbBuffer {
    public let card: Card
    public let size: Size
    public let format: PixelFormat
    /// The framebuffer id (for SetCrtc, PageFlip, atomic FB_ID).
    public let framebuffer: UInt32
    /// Bytes per row, as the driver chose.
    public let pitch: Int
    /// The mapped memory as a picture to draw into.
    public let pixels: PixelBuffer
    private let handle: UInt32
    private let mapping: UnsafeMutableRawPointer
    private let mappedBytes: Int

    public init(card: Card, size: Size, format: PixelFormat) throws(DisplayError) {
        self.card = card
        self.size = size
        self.format = format
        let fd = card.descriptor
        let what = "\(size.width)x\(size.height)"

        var create = drm_mode_create_dumb()
        create.width = UInt32(size.width)
        create.height = UInt32(size.height)
        create.bpp = UInt32(format.bytesPerPixel * 8)
        do {
            try fd.control(glance_DRM_IOCTL_MODE_CREATE_DUMB, &create, "DRM CREATE_DUMB \(what)")
        } catch {
            throw .system(Self.withHint(error))
        }
        handle = create.handle
        pitch = Int(create.pitch)
        mappedBytes = Int(create.size)

        var handles: (UInt32, UInt32, UInt32, UInt32) = (create.handle, 0, 0, 0)
        var pitches: (UInt32, UInt32, UInt32, UInt32) = (create.pitch, 0, 0, 0)
        var offsets: (UInt32, UInt32, UInt32, UInt32) = (0, 0, 0, 0)
        var fb: UInt32 = 0
        let added = withUnsafePointer(to: &handles) { h in
            withUnsafePointer(to: &pitches) { p in
                withUnsafePointer(to: &offsets) { o in
                    drmModeAddFB2(
                        fd.rawValue, UInt32(size.width), UInt32(size.height), format.fourCC,
                        UnsafeRawPointer(h).assumingMemoryBound(to: UInt32.self),
                        UnsafeRawPointer(p).assumingMemoryBound(to: UInt32.self),
                        UnsafeRawPointer(o).assumingMemoryBound(to: UInt32.self), &fb, 0)
                }
            }
        }
        if added != 0 {
            let code = drmErrno(added)
            Self.destroy(handle: create.handle, on: fd)
            throw .system(SystemError("DRM ADDFB2 \(what) \(fourCCName(format.fourCC))", errno: code))
        }
        framebuffer = fb

        var map = drm_mode_map_dumb()
        map.handle = create.handle
        do {
            try fd.control(glance_DRM_IOCTL_MODE_MAP_DUMB, &map, "DRM MAP_DUMB \(what)")
        } catch {
            drmModeRmFB(fd.rawValue, fb)
            Self.destroy(handle: create.handle, on: fd)
            throw .system(error)
        }
        let address = mmap(nil, Int(create.size), PROT_READ | PROT_WRITE, MAP_SHARED, fd.rawValue, off_t(map.offset))
        guard let address, address != MAP_FAILED else {
            let error = SystemError("mmap dumb buffer \(what)")
            drmModeRmFB(fd.rawValue, fb)
            Self.destroy(handle: create.handle, on: fd)
            throw .system(error)
        }
        mapping = address
        pixels = PixelBuffer(
            wrapping: address, width: size.width, height: size.height, stride: Int(create.pitch), format: format)
    }

    deinit {
        munmap(mapping, mappedBytes)
        drmModeRmFB(card.descriptor.rawValue, framebuffer)
        Self.destroy(handle: handle, on: card.descriptor)
    }

    private static func destroy(handle: UInt32, on fd: FileDescriptor) {
        var destroy = drm_mode_destroy_dumb()
        destroy.handle = handle
        _ = try? fd.control(glance_DRM_IOCTL_MODE_DESTROY_DUMB, &destroy, "DRM DESTROY_DUMB")
    }

    private static func withHint(_ error: SystemError) -> SystemError {
        var e = error
        if e.errno == .permissionDenied || e.errno == .notPermitted {
            e.hint = Card.videoGroupHint
        }
        return e
    }
}
