import Runtime
import Display
import Raster
import Input
import Platform

/// `glance devices`: the cards, connectors, modes, planes and input devices of this machine, with
/// the names `glance run` and the configuration take.
public enum DeviceList {
    /// What `glance devices` lists, beside the code that lists it (its help's description).
    public static let about = """
        Lists what a configuration names:
          card PATH            driver, dumb buffers, atomic mode setting
            connector NAME     status, size in mm, its modes (WxH@HZ, the preferred one marked)
            crtc ID            the mode and framebuffer it shows now
            plane ID           primary/overlay/cursor, the CRTCs it feeds, its pixel formats
            try: glance run …  the options that pick the first connected display
          input PATH "NAME"    keys (their names when few), touchscreen or pointer with axis
                               ranges, multi-touch slots
        """

    public static func run(directory: String = "/dev/dri", inputDirectory: String = "/dev/input", console: Console) -> Outcome {
        var status = Outcome.ok
        do throws(DisplayError) {
            for path in try Card.discover(in: directory) { describeCard(path, console: console) }
        } catch {
            console.say("cards: none: \(error)")
            console.complain("no display card: \(error)")
            status = Outcome.unavailable
        }
        let inputs = InputDevice.scan(inputDirectory)
        if inputs.isEmpty { console.say("input: none in \(inputDirectory)") }
        for result in inputs {
            switch result {
            case .success(let device): console.say("input \(device.path) \"\(device.name)\": \(device.capabilities.summary)")
            case .failure(let error): console.say("input \(error)")
            }
        }
        return status
    }

    static func describeCard(_ path: String, console: Console) {
        let card: Card
        let snapshot: CardSnapshot
        do throws(DisplayError) {
            card = try Card(path: path)
            snapshot = try card.snapshot()
        } catch {
            console.say("card \(path): \(error)")
            return
        }
        console.say(
            "card \(path): driver \(snapshot.driver), dumb buffers \(snapshot.supportsDumbBuffers ? "yes" : "no"), "
                + "atomic \(snapshot.supportsAtomic ? "yes" : "no")")
        for c in snapshot.connectors {
            var line = "  connector \(c.name): \(c.status.rawValue)"
            if c.widthMillimetres > 0 || c.heightMillimetres > 0 {
                line += ", \(c.widthMillimetres)x\(c.heightMillimetres) mm"
            }
            if let crtc = c.currentCRTC { line += ", on crtc \(crtc)" }
            console.say(line)
            var seen = Set<String>()
            let modes = c.modes.compactMap { m -> String? in
                let text = m.description + (m.isPreferred ? " (preferred)" : "")
                return seen.insert(text).inserted ? text : nil
            }
            console.say("    modes: " + (modes.isEmpty ? "none" : modes.joined(separator: ", ")))
        }
        for crtc in snapshot.crtcs {
            let state = crtc.mode.map { "\($0), framebuffer \(crtc.framebuffer)" } ?? "off"
            console.say("  crtc \(crtc.id) (index \(crtc.index)): \(state)")
        }
        for p in snapshot.planes {
            let crtcs = (0..<32).filter { p.canDrive(crtcIndex: $0) }.map(String.init).joined(separator: ",")
            console.say(
                "  plane \(p.id) \(p.kind.rawValue), crtc index \(crtcs): "
                    + p.formats.map(fourCCName).joined(separator: " ")
                    + (p.acceptsDamageClips ? "; damage clips" : ""))
        }
        if let plan = try? OutputPlan.choose(in: snapshot, for: OutputRequest()) {
            console.say("  try: glance run --card \(path) --connector \(plan.connector.name) --mode \(plan.mode)")
        }
    }
}
