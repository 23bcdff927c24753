import CDRM
import CKernelShims
import Platform
import Raster

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// One connector showing frames: owns the card, its dumb buffers (two; the second made once the
/// first frame is up) and the CRTC state it found, and puts that state back when closed
/// (explicitly, by deinit, or on a fatal signal).
///
/// Frames are drawn into `drawingBuffer` and handed to `present(damage:)`: the first one sets the
/// mode (atomic: test-only commit, then the real one; legacy: SetCrtc), later ones are
/// non-blocking page flips that complete with an event on `descriptor` (see `handleEvents()`).
/// Never more than one flip is pending.
public final class DisplayOutput {
    public let card: Card
    public let plan: OutputPlan
    public let connectorName: String
    /// Why atomic or flipping was given up, if it was (for the log); see `takeNotes()`.
    public private(set) var notes: [String] = []
    public var size: Size { Size(width: plan.mode.width, height: plan.mode.height) }
    public var format: PixelFormat { plan.format }
    public var descriptor: FileDescriptor { card.descriptor }

    // MARK: - State

    /// How modes are set and frames committed.
    enum Interface {
        /// Atomic commits, with the property ids they set.
        case atomic(AtomicIDs)
        /// SetCrtc and PageFlip (and DirtyFB).
        case legacy
    }

    /// What is on screen and how the next frame gets there.
    enum Frames {
        /// Nothing of ours yet: the first `present` sets the mode with buffer 0.
        case beforeFirst
        /// Two buffers: `front` is on screen, the other is drawn into and flipped to.
        case flipping(front: Int, Flip)
        /// One buffer, on screen and drawn into where it is; its damage is reported unless the
        /// driver answered DirtyFB with ENOSYS (it scans the buffer directly).
        case inPlace(reportsDamage: Bool)
    }

    /// The page flips of a double-buffered output.
    enum Flip: Equatable {
        /// None has completed yet: a refused flip means the driver has none (one buffer from then).
        case untried
        /// One is queued, until its event is handled; `proven`: one completed before.
        case pending(proven: Bool)
        /// Flips work on this driver: a refused one is an error, not a reason to give them up.
        case working
    }

    /// Whose the display is.
    enum Hold: Equatable {
        /// Ours (DRM master); `poweredDown`: switched off by `setPower(on: false)` (DPMS).
        case master(poweredDown: Bool)
        /// Given up for a switch to another VT (not DRM master) until `resume()`; `poweredDown`
        /// as it was.
        case suspended(poweredDown: Bool)
        /// Put back as it was found by `restore()`: nothing more is shown or changed.
        case restored
    }

    private var interface: Interface
    private var frames = Frames.beforeFirst
    private var hold = Hold.master(poweredDown: false)

    /// Atomic mode setting in use (else SetCrtc + PageFlip).
    public var usesAtomic: Bool {
        if case .atomic = interface { return true }
        return false
    }
    /// Frames are drawn into the buffer on screen and reported as damage (DirtyFB / damage clips)
    /// instead of flipped.
    public var singleBuffered: Bool { !doubleBuffered }
    /// Frames are flipped between two buffers. The second is made when the first frame after
    /// the first is drawn: the first frame needs one buffer, and the start does not wait for the
    /// other's memory and framebuffer (the card's phase of the start 28.6 → 20.9 ms in the VM).
    private var doubleBuffered: Bool
    /// A flip is queued and its event not handled yet: nothing may be presented.
    public var flipPending: Bool {
        if case .flipping(_, .pending) = frames { return true }
        return false
    }
    /// DirtyFB answered ENOSYS: the driver scans the buffer directly and needs no damage reports.
    public var dirtyNotNeeded: Bool {
        if case .inPlace(reportsDamage: false) = frames { return true }
        return false
    }
    /// Given up for a VT switch (not DRM master): nothing may be shown until `resume()`.
    public var suspended: Bool {
        if case .suspended = hold { return true }
        return false
    }
    /// Whether the panel is powered down (DPMS off) by `setPower(on: false)`.
    public var poweredDown: Bool {
        switch hold {
        case .master(let down), .suspended(let down): down
        case .restored: false
        }
    }

    /// The buffer on screen; nil before the first frame.
    private var front: Int? {
        switch frames {
        case .beforeFirst: nil
        case .flipping(let front, _): front
        case .inPlace: 0
        }
    }

    private var buffers: [DumbBuffer]
    private var previousDamage: [IntRect]?
    /// Each commit's damage is sent as one window and no vblank is waited for (an SPI panel:
    /// `DamageCommits`): a frame whose damage lies in parts far apart is committed a group at a
    /// time, and a flip's damage is the frame's change alone (the panel's own memory holds the
    /// frame shown: frame damage, not the buffer's).
    public let splitsCommits: Bool
    /// The damage groups of the frame being flipped to still to commit, one after each flip
    /// event (the buffer is already the one shown).
    private var queuedDamage: [[IntRect]] = []
    /// Damage a commit that failed did not send: the next frame's commit carries it.
    private var owedDamage: [IntRect] = []
    private var saved: drmModeCrtc?
    private var savedConnectors: [UInt32]
    /// Connectors the first mode set takes off this output's CRTC (the one a predecessor drove).
    private var detachedConnectors: [UInt32] = []
    private let rawMode: drmModeModeInfo
    private var modeBlob: UInt32 = 0
    /// The console to put back into text mode after the CRTC (set before the first frame).
    public var terminal: VirtualTerminal?

    /// Opens the requested card (or the one whose connectors fit the request: `rankCards`), makes
    /// the choices the request leaves open and creates the buffers. Nothing on screen changes
    /// until the first `present`.
    public static func open(
        _ request: OutputRequest, singleBuffered: Bool = false
    ) throws(DisplayError) -> DisplayOutput {
        let paths: [String]
        if let card = request.card { paths = [card] } else { paths = try Card.discover() }
        // Every card read first (no mode set, nothing shown), so the choice is by connectors.
        var cards: [(card: Card, snapshot: CardSnapshot)] = []
        var failures: [(path: String, error: DisplayError)] = []
        for path in paths {
            do throws(DisplayError) {
                let card = try Card(path: path, legacy: request.forceLegacy)
                guard card.supportsDumbBuffers else { throw DisplayError.noDumbBuffers(card: path) }
                cards.append((card, try card.snapshot(probe: false)))
            } catch {
                failures.append((path, error))
            }
        }
        var error: DisplayError?
        if !cards.isEmpty {
            do throws(DisplayError) {
                for i in try OutputPlan.rankCards(cards.map(\.snapshot), for: request) {
                    let (card, snapshot) = cards[i]
                    do throws(DisplayError) {
                        try card.becomeMaster()
                        let plan = try OutputPlan.choose(in: snapshot, for: request)
                        return try DisplayOutput(card: card, snapshot: snapshot, plan: plan, singleBuffered: singleBuffered)
                    } catch let failure {
                        if error == nil { error = failure }
                    }
                }
            } catch let failure {
                error = failure
            }
        }
        // The most useful error: one a person can act on (a card this user may not open may be
        // the one asked for), then the best card's, then why no card could be read.
        if let denied = failures.first(where: { if case .permissionDenied = $0.error { true } else { false } }) {
            throw denied.error
        }
        if let error { throw error }
        if failures.count == 1 { throw failures[0].error }
        throw .noUsableCard(reasons: failures.map { "\($0.path): \($0.error)" })
    }

    init(
        card: Card, snapshot: CardSnapshot, plan: OutputPlan, singleBuffered: Bool
    ) throws(DisplayError) {
        self.card = card
        self.plan = plan
        self.connectorName = plan.connector.name
        self.splitsCommits = DamageCommits.splits(connector: plan.connector.name)
        guard let kernelMode = plan.kernelMode else { throw .connectorWithoutModes(plan.connector) }
        rawMode = kernelMode.info
        let size = Size(width: plan.mode.width, height: plan.mode.height)
        buffers = [try DumbBuffer(card: card, size: size, format: plan.format)]
        doubleBuffered = !singleBuffered
        if let c = drmModeGetCrtc(card.descriptor.rawValue, plan.crtc.id) {
            saved = c.pointee
            drmModeFreeCrtc(c)
        } else {
            saved = nil
        }
        savedConnectors = snapshot.connectors.filter { $0.currentCRTC == plan.crtc.id }.map(\.id)
        interface = .legacy
        if card.atomic && plan.plane != nil {
            if let ids = AtomicIDs(card: card, plan: plan) {
                interface = .atomic(ids)
            } else {
                notes.append("the driver lacks an atomic property glance needs: using SetCrtc + PageFlip")
            }
        }
    }

    deinit {
        restore()
        if modeBlob != 0 { drmModeDestroyPropertyBlob(card.descriptor.rawValue, modeBlob) }
    }

    /// The notes not taken yet, once each.
    public func takeNotes() -> [String] {
        defer { notes = [] }
        return notes
    }

    /// Where to draw the next frame: the back buffer (or the one on screen when single-buffered).
    public var drawingBuffer: PixelBuffer {
        guard case .flipping(let front, _) = frames else { return buffers[0].pixels }
        guard makeBackBuffer() else { return buffers[0].pixels }
        return buffers[1 - front].pixels
    }

    /// Makes the second buffer if it is not made yet; false when it cannot be: the frames are
    /// then drawn into the buffer on screen, as on a driver without flips (told in the notes).
    private func makeBackBuffer() -> Bool {
        guard buffers.count == 1 else { return true }
        do throws(DisplayError) {
            buffers.append(try DumbBuffer(card: card, size: size, format: plan.format))
            return true
        } catch {
            notes.append("no second buffer (\(error)): drawing into the buffer on screen")
            doubleBuffered = false
            frames = .inPlace(reportsDamage: true)
            return false
        }
    }

    /// The buffer holding the frame presented last (on screen, or queued to be at the next
    /// flip); nil before the first frame.
    public var presentedBuffer: PixelBuffer? {
        switch frames {
        case .beforeFirst: nil
        case .flipping(let front, .pending): buffers[1 - front].pixels
        case .flipping(let front, _): buffers[front].pixels
        case .inPlace: buffers[0].pixels
        }
    }

    /// Puts the frame drawn into `drawingBuffer` on screen; `damage` is what changed in it.
    public func present(damage: IntRect) throws(DisplayError) {
        try present(damage: [damage])
    }

    /// Puts the frame drawn into `drawingBuffer` on screen; `damage` is the rectangles that changed
    /// since the frame on screen (none: nothing did).
    ///
    /// The first call sets the mode and returns with the frame on screen. Later calls queue a flip
    /// (`flipPending` until its event is handled), or report the damage of a single buffer.
    public func present(damage: [IntRect]) throws(DisplayError) {
        let damage = (damage + owedDamage).filter { !$0.isEmpty }
        owedDamage = []
        precondition(!flipPending, "present: a flip is still pending")
        precondition(!suspended, "present: the display is suspended")
        precondition(hold != .restored, "present: the display was restored")
        let front: Int
        let flip: Flip
        switch frames {
        case .beforeFirst:
            try setMode(buffer: 0)
            return
        case .inPlace:
            try reportDamage(damage, framebuffer: buffers[0].framebuffer)
            return
        case .flipping(let f, let state):
            guard makeBackBuffer() else {
                try reportDamage(damage, framebuffer: buffers[0].framebuffer)
                return
            }
            (front, flip) = (f, state)
        }
        let back = 1 - front
        // Damage relative to both the frame on screen and this buffer's older content (drivers
        // differ in which one they use); a buffer's first flip after a mode set is whole (what a
        // driver uploads per buffer may never have had it). A panel with memory of its own (SPI)
        // needs only what changed since the frame it shows.
        let whole = [IntRect(x: 0, y: 0, width: size.width, height: size.height)]
        let clip = previousDamage.map { splitsCommits ? damage : $0 + damage } ?? whole
        // Nothing changed on such a panel: no commit (one without damage clips sends all of it);
        // the back buffer, drawn with the same frame, stays the one drawn into.
        if splitsCommits && clip.isEmpty { return }
        previousDamage = damage
        if case .atomic(let ids) = interface {
            var groups = commitGroups(clip)
            let first = groups.isEmpty ? [] : groups.removeFirst()
            try atomicFlip(ids, framebuffer: buffers[back].framebuffer, damage: first)
            queuedDamage = groups
        } else {
            let result = drmModePageFlip(
                card.descriptor.rawValue, plan.crtc.id, buffers[back].framebuffer, UInt32(DRM_MODE_PAGE_FLIP_EVENT),
                nil)
            if result != 0 {
                let code = drmErrno(result).rawValue
                guard flip != .working, code == EINVAL || code == ENOSYS || code == EOPNOTSUPP else {
                    throw .system(SystemError("DRM PAGE_FLIP", errno: Errno(rawValue: code)))
                }
                // The driver has no flips: show this buffer with SetCrtc and keep drawing into it
                // from now on; the other buffer is released.
                notes.append("page flip refused (\(Errno(rawValue: code))): drawing into the buffer on screen")
                try drmCheck(
                    setCrtc(framebuffer: buffers[back].framebuffer), "DRM SETCRTC \(plan.mode) on \(connectorName)")
                buffers = [buffers[back]]
                doubleBuffered = false
                frames = .inPlace(reportsDamage: true)
                return
            }
        }
        frames = .flipping(front: front, .pending(proven: flip == .working))
    }

    /// Reads the card's events; returns how many flips completed (then the old front is the back).
    @discardableResult
    public func handleEvents() throws(DisplayError) -> Int {
        var completed = 0
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1024, alignment: 8)
        defer { buffer.deallocate() }
        while true {
            let n: Int?
            do throws(SystemError) {
                n = try card.descriptor.read(into: buffer, "DRM events")
            } catch {
                throw .system(error)
            }
            guard let n, n >= 8 else { break }
            var offset = 0
            while offset + 8 <= n {
                let type = buffer.loadUnaligned(fromByteOffset: offset, as: UInt32.self)
                let length = buffer.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self)
                if type == UInt32(DRM_EVENT_FLIP_COMPLETE), case .flipping(let front, .pending) = frames {
                    if queuedDamage.isEmpty {
                        frames = .flipping(front: 1 - front, .working)
                        completed += 1
                    } else {
                        // The frame's next group, on the buffer now shown; its event ends the flip.
                        try commitQueued(front: front)
                    }
                }
                guard length >= 8 else { break }
                offset += Int(length)
            }
        }
        return completed
    }

    /// Commits the next queued damage group of the flip to the buffer that was the back one
    /// (`1 - front`). A refused commit ends the flip (the buffer is shown: its first commit's event
    /// came) and leaves its damage and the groups after it to the next frame's commit.
    private func commitQueued(front: Int) throws(DisplayError) {
        guard case .atomic(let ids) = interface else { return }
        let group = queuedDamage.removeFirst()
        do throws(DisplayError) {
            try atomicFlip(ids, framebuffer: buffers[1 - front].framebuffer, damage: group)
        } catch {
            owedDamage = group + queuedDamage.flatMap { $0 }
            queuedDamage = []
            frames = .flipping(front: 1 - front, .working)
            throw error
        }
    }

    /// `damage` in the groups it is committed in: one commit, unless the driver sends each
    /// commit's damage as one window (`splitsCommits`).
    private func commitGroups(_ damage: [IntRect]) -> [[IntRect]] {
        guard splitsCommits, damage.count > 1 else { return damage.isEmpty ? [] : [damage] }
        return DamageCommits.groups(damage, bytesPerPixel: DamageCommits.wireBytesPerPixel)
    }

    /// Waits (at most `timeout`) for a pending flip to complete.
    public func waitForFlip(timeout: Duration = .seconds(1)) {
        let deadline = monotonicNow() + timeout
        while flipPending {
            let left = deadline - monotonicNow()
            guard left > .zero else { return }
            guard let ready = try? waitForReadable([card.descriptor], timeout: left), !ready.isEmpty else { return }
            if (try? handleEvents()) == nil { return }
        }
    }

    /// Puts back the CRTC as it was found (after a pending flip completes) and the console into
    /// text mode. Safe to call more than once; returns what went wrong, if anything.
    @discardableResult
    public func restore() -> SystemError? {
        guard hold != .restored else { return nil }
        defer { hold = .restored }
        // Powered down (blank): back on, so what is restored is seen.
        if poweredDown { setPower(on: true) }
        glance_crash_restore_disarm()
        guard front != nil else {
            terminal?.restore()
            return nil
        }
        waitForFlip()
        if suspended {
            // Switched away: the console or display server there owns the CRTC now.
            terminal?.restore()
            return nil
        }
        var problem: SystemError?
        let fd = card.descriptor.rawValue
        if let saved, saved.mode_valid != 0, saved.buffer_id != 0 {
            var mode = saved.mode
            var connectors = savedConnectors.isEmpty ? [plan.connector.id] : savedConnectors
            let result = drmModeSetCrtc(
                fd, saved.crtc_id, saved.buffer_id, saved.x, saved.y, &connectors, Int32(connectors.count), &mode)
            if result != 0 {
                problem = SystemError("DRM SETCRTC (restore)", errno: drmErrno(result))
            }
        } else {
            // Nothing was shown before: switch the CRTC off rather than leave our last frame.
            let result = drmModeSetCrtc(fd, plan.crtc.id, 0, 0, 0, nil, 0, nil)
            if result != 0 {
                problem = SystemError(
                    "DRM SETCRTC off (restore)", errno: drmErrno(result))
            }
        }
        terminal?.restore()
        return problem
    }

    // MARK: - Handing over (a new display configuration)

    /// An output for `request` that takes the panel over from this one without the console
    /// showing between (a reload that changes the connector, mode, format or card): it opens the
    /// card afresh (this one gives DRM master up to it; taken back if the new one cannot be made)
    /// and its first `present` sets its mode straight over this one's last frame. It puts back,
    /// at the end, what this one would have: the console as it was before the app. Keep this one
    /// until the new one's first frame is on screen (its buffers are on the panel till then),
    /// then `abandon()` it.
    public func successor(for request: OutputRequest, singleBuffered: Bool) throws(DisplayError) -> DisplayOutput {
        precondition(!suspended && hold != .restored, "successor: the display is not this output's")
        waitForFlip()
        card.dropMaster()
        let next: DisplayOutput
        do throws(DisplayError) {
            next = try DisplayOutput.open(request, singleBuffered: singleBuffered)
        } catch {
            _ = try? card.retakeMaster()
            throw error
        }
        if next.card.path == card.path {
            // The console's state as this output found it, not this output's frame.
            next.saved = saved
            next.savedConnectors = savedConnectors
            if plan.connector.id != next.plan.connector.id && plan.crtc.id == next.plan.crtc.id {
                next.detachedConnectors = [plan.connector.id]
            }
        }
        next.terminal = terminal
        terminal = nil
        return next
    }

    /// Given up to a successor that shows its own frame now: nothing is put back, and the
    /// buffers go (they are no longer on the panel).
    public func abandon() {
        hold = .restored
        terminal = nil
    }

    // MARK: - Power

    /// Powers the output down or up through the connector's DPMS property (the kernel turns
    /// that into an atomic commit of CRTC ACTIVE on atomic drivers). Returns false when the
    /// connector has no DPMS property or the call fails; the caller then keeps a black frame.
    /// Powering up falls back to setting the mode again, so a panel is never left dark with
    /// frames flipped at an inactive CRTC.
    @discardableResult
    public func setPower(on: Bool) -> Bool {
        guard case .master(poweredDown: on) = hold else { return true }
        let dpms = card.properties(of: plan.connector.id, type: UInt32(DRM_MODE_OBJECT_CONNECTOR))["DPMS"]
        if let dpms {
            waitForFlip()
            let value: UInt64 = on ? UInt64(DRM_MODE_DPMS_ON) : UInt64(DRM_MODE_DPMS_OFF)
            let result = drmModeConnectorSetProperty(card.descriptor.rawValue, plan.connector.id, dpms.id, value)
            if result == 0 {
                hold = .master(poweredDown: !on)
                return true
            }
            notes.append("\(SystemError("DRM DPMS \(on ? "on" : "off")", errno: drmErrno(result)))")
        }
        guard on, let front else { return false }
        do {
            try setMode(buffer: front)
            return true
        } catch {
            notes.append("powering up by a mode set: \(error)")
            return false
        }
    }

    // MARK: - VT switches

    /// Gives up the display for a switch to another VT: waits for a pending flip, then drops DRM
    /// master so the console (or display server) there can set its own mode.
    public func suspend() {
        guard case .master(let poweredDown) = hold else { return }
        waitForFlip()
        card.dropMaster()
        hold = .suspended(poweredDown: poweredDown)
    }

    /// Takes the display back after the switch back: DRM master again, and the mode set with
    /// the frame that was on screen. False (still suspended) while another program holds the
    /// card: try again later.
    public func resume() throws(DisplayError) -> Bool {
        guard case .suspended(let poweredDown) = hold else { return true }
        guard try card.retakeMaster() else { return false }
        hold = .master(poweredDown: poweredDown)
        if let front { try setMode(buffer: front) }
        return true
    }

    // MARK: - Mode setting

    private func setMode(buffer index: Int) throws(DisplayError) {
        let buffer = buffers[index]
        previousDamage = nil
        queuedDamage = []
        owedDamage = []
        if case .atomic(let ids) = interface {
            do {
                try atomicModeset(ids, framebuffer: buffer.framebuffer)
            } catch {
                notes.append("atomic mode set failed (\(error)): using SetCrtc + PageFlip")
                interface = .legacy
            }
        }
        if case .legacy = interface {
            try drmCheck(setCrtc(framebuffer: buffer.framebuffer), "DRM SETCRTC \(plan.mode) on \(connectorName)")
        }
        // The first frame is on screen (later mode sets show the frame that is there already).
        if case .beforeFirst = frames {
            frames = singleBuffered ? .inPlace(reportsDamage: true) : .flipping(front: index, .untried)
        }
        detachedConnectors = []
        // A mode set lights the CRTC, whatever DPMS said before (it is only set while master).
        if case .master = hold { hold = .master(poweredDown: false) }
        armCrashRestore()
    }

    private func setCrtc(framebuffer: UInt32) -> Int32 {
        var connector = plan.connector.id
        var mode = rawMode
        return drmModeSetCrtc(card.descriptor.rawValue, plan.crtc.id, framebuffer, 0, 0, &connector, 1, &mode)
    }

    private func armCrashRestore() {
        guard let saved, saved.mode_valid != 0, saved.buffer_id != 0 else {
            glance_crash_restore_arm(card.descriptor.rawValue, plan.crtc.id, 0, 0, 0, nil, 0, nil)
            return
        }
        var mode = saved.mode
        let connectors = savedConnectors.isEmpty ? [plan.connector.id] : savedConnectors
        connectors.withUnsafeBufferPointer { c in
            glance_crash_restore_arm(
                card.descriptor.rawValue, saved.crtc_id, saved.buffer_id, saved.x, saved.y, c.baseAddress,
                UInt32(c.count), &mode)
        }
    }

    // MARK: - Damage

    private func reportDamage(_ damage: [IntRect], framebuffer: UInt32) throws(DisplayError) {
        // Nothing changed: nothing to report.
        guard !damage.isEmpty else { return }
        // A group at a time (one commit each, blocking: on an SPI panel it returns when its window
        // is sent).
        let groups = commitGroups(damage)
        for (i, group) in groups.enumerated() {
            do throws(DisplayError) {
                if case .atomic(let ids) = interface, ids.damageClips != nil {
                    try atomicFlip(ids, framebuffer: framebuffer, damage: group, event: false)
                    continue
                }
                if dirtyNotNeeded { return }
                var clips = group.map {
                    drmModeClip(
                        x1: UInt16(clamping: $0.x), y1: UInt16(clamping: $0.y), x2: UInt16(clamping: $0.maxX),
                        y2: UInt16(clamping: $0.maxY))
                }
                let result = drmModeDirtyFB(card.descriptor.rawValue, framebuffer, &clips, UInt32(clips.count))
                if result != 0 {
                    let code = drmErrno(result).rawValue
                    if code == ENOSYS {
                        frames = .inPlace(reportsDamage: false)
                        return
                    }
                    throw DisplayError.system(SystemError("DRM DIRTYFB \(group)", errno: Errno(rawValue: code)))
                }
            } catch {
                // What was not sent goes with the next frame's.
                owedDamage = groups[i...].flatMap { $0 }
                throw error
            }
        }
    }

    // MARK: - Atomic

    /// The property ids atomic commits set.
    struct AtomicIDs {
        var connectorCRTC: UInt32
        var crtcMode: UInt32
        var crtcActive: UInt32
        var plane: UInt32
        var planeFB: UInt32
        var planeCRTC: UInt32
        var source: (x: UInt32, y: UInt32, w: UInt32, h: UInt32)
        var destination: (x: UInt32, y: UInt32, w: UInt32, h: UInt32)
        var damageClips: UInt32?

        init?(card: Card, plan: OutputPlan) {
            guard let plane = plan.plane else { return nil }
            let c = card.properties(of: plan.connector.id, type: UInt32(DRM_MODE_OBJECT_CONNECTOR))
            let k = card.properties(of: plan.crtc.id, type: UInt32(DRM_MODE_OBJECT_CRTC))
            let p = card.properties(of: plane.id, type: UInt32(DRM_MODE_OBJECT_PLANE))
            guard let connectorCRTC = c["CRTC_ID"]?.id, let mode = k["MODE_ID"]?.id, let active = k["ACTIVE"]?.id,
                let fb = p["FB_ID"]?.id, let crtc = p["CRTC_ID"]?.id, let sx = p["SRC_X"]?.id,
                let sy = p["SRC_Y"]?.id, let sw = p["SRC_W"]?.id, let sh = p["SRC_H"]?.id,
                let dx = p["CRTC_X"]?.id, let dy = p["CRTC_Y"]?.id, let dw = p["CRTC_W"]?.id, let dh = p["CRTC_H"]?.id
            else { return nil }
            self.connectorCRTC = connectorCRTC
            self.crtcMode = mode
            self.crtcActive = active
            self.plane = plane.id
            self.planeFB = fb
            self.planeCRTC = crtc
            self.source = (sx, sy, sw, sh)
            self.destination = (dx, dy, dw, dh)
            self.damageClips = p["FB_DAMAGE_CLIPS"]?.id
        }
    }

    /// An atomic request; freed by deinit.
    final class AtomicRequest {
        let pointer: drmModeAtomicReqPtr
        init() throws(DisplayError) {
            guard let p = drmModeAtomicAlloc() else {
                throw .system(SystemError("drmModeAtomicAlloc", errno: Errno(rawValue: ENOMEM)))
            }
            pointer = p
        }
        func add(_ object: UInt32, _ property: UInt32, _ value: UInt64) {
            _ = drmModeAtomicAddProperty(pointer, object, property, value)
        }
        deinit { drmModeAtomicFree(pointer) }
    }

    private func atomicModeset(_ ids: AtomicIDs, framebuffer: UInt32) throws(DisplayError) {
        let fd = card.descriptor.rawValue
        if modeBlob == 0 {
            var mode = rawMode
            try drmCheck(
                drmModeCreatePropertyBlob(fd, &mode, MemoryLayout<drmModeModeInfo>.size, &modeBlob),
                "DRM CREATEPROPBLOB mode \(plan.mode)")
        }
        let request = try AtomicRequest()
        request.add(plan.connector.id, ids.connectorCRTC, UInt64(plan.crtc.id))
        // A predecessor's connector on this CRTC no longer shows it.
        for connector in detachedConnectors { request.add(connector, ids.connectorCRTC, 0) }
        request.add(plan.crtc.id, ids.crtcMode, UInt64(modeBlob))
        request.add(plan.crtc.id, ids.crtcActive, 1)
        addPlane(request, ids, framebuffer: framebuffer)
        let flags = UInt32(DRM_MODE_ATOMIC_ALLOW_MODESET)
        try drmCheck(
            drmModeAtomicCommit(fd, request.pointer, flags | UInt32(DRM_MODE_ATOMIC_TEST_ONLY), nil),
            "DRM ATOMIC test-only commit \(plan.mode) on \(connectorName)")
        try drmCheck(
            drmModeAtomicCommit(fd, request.pointer, flags, nil), "DRM ATOMIC commit \(plan.mode) on \(connectorName)")
    }

    private func addPlane(_ request: AtomicRequest, _ ids: AtomicIDs, framebuffer: UInt32) {
        let w = UInt64(plan.mode.width)
        let h = UInt64(plan.mode.height)
        request.add(ids.plane, ids.planeFB, UInt64(framebuffer))
        request.add(ids.plane, ids.planeCRTC, UInt64(plan.crtc.id))
        request.add(ids.plane, ids.source.x, 0)
        request.add(ids.plane, ids.source.y, 0)
        request.add(ids.plane, ids.source.w, w << 16)
        request.add(ids.plane, ids.source.h, h << 16)
        request.add(ids.plane, ids.destination.x, 0)
        request.add(ids.plane, ids.destination.y, 0)
        request.add(ids.plane, ids.destination.w, w)
        request.add(ids.plane, ids.destination.h, h)
    }

    /// A non-blocking commit of `framebuffer` with its damage; with `event` it completes with a
    /// flip event (a page flip), without it is an in-place update that is done on return.
    private func atomicFlip(
        _ ids: AtomicIDs, framebuffer: UInt32, damage: [IntRect], event: Bool = true
    ) throws(DisplayError) {
        let fd = card.descriptor.rawValue
        let request = try AtomicRequest()
        request.add(ids.plane, ids.planeFB, UInt64(framebuffer))
        var blob: UInt32 = 0
        if let clipsProperty = ids.damageClips, !damage.isEmpty {
            var rects = damage.map {
                drm_mode_rect(x1: Int32($0.x), y1: Int32($0.y), x2: Int32($0.maxX), y2: Int32($0.maxY))
            }
            if drmModeCreatePropertyBlob(fd, &rects, MemoryLayout<drm_mode_rect>.stride * rects.count, &blob) == 0 {
                request.add(ids.plane, clipsProperty, UInt64(blob))
            }
        }
        defer { if blob != 0 { drmModeDestroyPropertyBlob(fd, blob) } }
        let flags = event ? UInt32(DRM_MODE_PAGE_FLIP_EVENT) | UInt32(DRM_MODE_ATOMIC_NONBLOCK) : 0
        try drmCheck(
            drmModeAtomicCommit(fd, request.pointer, flags, nil),
            event ? "DRM ATOMIC page flip" : "DRM ATOMIC damage commit")
    }
}
