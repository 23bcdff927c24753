import CDRM

/// The kernel's own record of a mode (`drmModeModeInfo`), as a connector lists it: what a mode
/// set is given. Only a snapshot of a real card has them; the choices made from a snapshot never
/// look inside, they carry the record of the mode they chose.
public struct KernelMode: Sendable {
    let info: drmModeModeInfo

    init(_ info: drmModeModeInfo) { self.info = info }
}
