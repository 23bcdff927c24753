import CDRM
import Platform

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A KMS object property: its id (for atomic requests) and current value.
struct PropertyValue {
    var id: UInt32
    var value: UInt64
}

extension Card {
    /// Reads connectors, CRTCs and planes. Fails on render-only nodes (no mode setting).
    ///
    /// `probe` asks every connector's sink again (EDID over DDC: tens of milliseconds per
    /// connector on real hardware); without it the kernel's last probe is used, and a connector
    /// that has none yet is probed then.
    public func snapshot(probe: Bool = true) throws(DisplayError) -> CardSnapshot {
        let fd = descriptor.rawValue
        guard let resources = drmModeGetResources(fd) else {
            throw .system(SystemError("DRM GETRESOURCES \(path)", hint: "not a display controller?"))
        }
        defer { drmModeFreeResources(resources) }
        let r = resources.pointee
        let crtcIDs = Array(UnsafeBufferPointer(start: r.crtcs, count: Int(r.count_crtcs)))
        let encoderIDs = Array(UnsafeBufferPointer(start: r.encoders, count: Int(r.count_encoders)))
        let connectorIDs = Array(UnsafeBufferPointer(start: r.connectors, count: Int(r.count_connectors)))

        var crtcs: [CRTC] = []
        for (index, id) in crtcIDs.enumerated() {
            var crtc = CRTC(id: id, index: index)
            if let c = drmModeGetCrtc(fd, id) {
                crtc.framebuffer = c.pointee.buffer_id
                if c.pointee.mode_valid != 0 { crtc.mode = Self.mode(c.pointee.mode, index: -1) }
                drmModeFreeCrtc(c)
            }
            crtcs.append(crtc)
        }

        // encoder id -> (possible CRTC bit mask, current CRTC id)
        var encoders: [UInt32: (possible: UInt32, crtc: UInt32)] = [:]
        for id in encoderIDs {
            guard let e = drmModeGetEncoder(fd, id) else { continue }
            encoders[id] = (e.pointee.possible_crtcs, e.pointee.crtc_id)
            drmModeFreeEncoder(e)
        }

        var connectors: [Connector] = []
        for id in connectorIDs {
            var connector = probe ? nil : drmModeGetConnectorCurrent(fd, id)
            if let current = connector, current.pointee.connection != DRM_MODE_DISCONNECTED,
                current.pointee.count_modes == 0
            {
                drmModeFreeConnector(current)
                connector = nil
            }
            guard let c = connector ?? drmModeGetConnector(fd, id) else { continue }
            defer { drmModeFreeConnector(c) }
            let p = c.pointee
            let raw = Array(UnsafeBufferPointer(start: p.modes, count: Int(p.count_modes)))
            var mask: UInt32 = 0
            for e in UnsafeBufferPointer(start: p.encoders, count: Int(p.count_encoders)) {
                mask |= encoders[e]?.possible ?? 0
            }
            let status: ConnectionStatus =
                switch p.connection {
                case DRM_MODE_CONNECTED: .connected
                case DRM_MODE_DISCONNECTED: .disconnected
                default: .unknown
                }
            let current = p.encoder_id != 0 ? encoders[p.encoder_id]?.crtc : nil
            connectors.append(
                Connector(
                    id: id, name: Connector.name(type: Int(p.connector_type), typeID: Int(p.connector_type_id)),
                    status: status, modes: raw.enumerated().map { Self.mode($0.element, index: $0.offset) },
                    possibleCRTCIndexes: (0..<32).filter { mask & (1 << UInt32($0)) != 0 },
                    currentCRTC: current == 0 ? nil : current,
                    widthMillimetres: Int(p.mmWidth), heightMillimetres: Int(p.mmHeight),
                    kernelModes: raw.map(KernelMode.init)))
        }

        var planes: [Plane] = []
        if let planeResources = drmModeGetPlaneResources(fd) {
            defer { drmModeFreePlaneResources(planeResources) }
            let pr = planeResources.pointee
            for id in UnsafeBufferPointer(start: pr.planes, count: Int(pr.count_planes)) {
                guard let plane = drmModeGetPlane(fd, id) else { continue }
                defer { drmModeFreePlane(plane) }
                let props = properties(of: id, type: UInt32(DRM_MODE_OBJECT_PLANE))
                let kind: Plane.Kind =
                    switch props["type"]?.value {
                    case UInt64(DRM_PLANE_TYPE_PRIMARY): .primary
                    case UInt64(DRM_PLANE_TYPE_CURSOR): .cursor
                    case UInt64(DRM_PLANE_TYPE_OVERLAY): .overlay
                    // Without universal planes only overlays are listed.
                    default: .overlay
                    }
                let formats = Array(
                    UnsafeBufferPointer(start: plane.pointee.formats, count: Int(plane.pointee.count_formats)))
                planes.append(
                    Plane(
                        id: id, kind: kind, possibleCRTCs: plane.pointee.possible_crtcs, formats: formats,
                        acceptsDamageClips: props["FB_DAMAGE_CLIPS"] != nil))
            }
        }

        return CardSnapshot(
            path: path, driver: driverName, supportsDumbBuffers: supportsDumbBuffers, supportsAtomic: atomic,
            connectors: connectors, crtcs: crtcs, planes: planes)
    }

    /// The properties of a KMS object by name.
    func properties(of object: UInt32, type: UInt32) -> [String: PropertyValue] {
        let fd = descriptor.rawValue
        guard let list = drmModeObjectGetProperties(fd, object, type) else { return [:] }
        defer { drmModeFreeObjectProperties(list) }
        var result: [String: PropertyValue] = [:]
        for i in 0..<Int(list.pointee.count_props) {
            let id = list.pointee.props[i]
            guard let property = drmModeGetProperty(fd, id) else { continue }
            let name = withUnsafeBytes(of: property.pointee.name) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            result[name] = PropertyValue(id: id, value: list.pointee.prop_values[i])
            drmModeFreeProperty(property)
        }
        return result
    }

    static func mode(_ m: drmModeModeInfo, index: Int) -> DisplayMode {
        let millihertz = DisplayMode.refreshMillihertz(
            clockKilohertz: Int(m.clock), horizontalTotal: Int(m.htotal), verticalTotal: Int(m.vtotal),
            interlaced: m.flags & UInt32(DRM_MODE_FLAG_INTERLACE) != 0,
            doubleScan: m.flags & UInt32(DRM_MODE_FLAG_DBLSCAN) != 0, verticalScan: Int(m.vscan))
        return DisplayMode(
            width: Int(m.hdisplay), height: Int(m.vdisplay),
            refreshMillihertz: millihertz > 0 ? millihertz : Int(m.vrefresh) * 1000,
            isPreferred: m.type & UInt32(DRM_MODE_TYPE_PREFERRED) != 0, index: index)
    }
}
