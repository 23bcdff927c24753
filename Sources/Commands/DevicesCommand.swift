import Display
import Input
import Platform

/// `glance devices`: the cards, connectors, modes, planes and input devices of this machine, with
/// the names `glance run` and the configuration take.
struct DevicesCommand {
    var directory = "/dev/dri"
    var inputDirectory = "/dev/input"

    static let help = """
        Usage: glance devices

        Lists what a configuration names:
          card PATH            driver, dumb buffers, atomic mode setting
            connector NAME     status, size in mm, its modes (WxH@HZ, the preferred one marked)
            crtc ID            the mode and framebuffer it shows now
            plane ID           primary/overlay/cursor, the CRTCs it feeds, its pixel formats
            try: glance run …  the options that pick the first connected display
          input PATH "NAME"    keys (their names when few), touchscreen or pointer with axis
                               ranges, multi-touch slots

        Exit status: 0 listed; 69 no DRM card (input devices are still listed).
        """

    static func parse(_ argv: [String]) throws(UsageError) -> DevicesCommand? {
        var args = Arguments(argv)
        while let option = try args.nextOption() {
            switch option {
            case "--help", "-h": return nil
            default: throw UsageError("devices: unknown option '\(option)' (see glance devices --help)")
            }
        }
        return DevicesCommand()
    }

    func run() -> Int32 {
        var status = ExitCode.ok
        do throws(DisplayError) {
            for path in try Card.discover(in: directory) { describeCard(path) }
        } catch {
            print("cards: none: \(error)")
            status = ExitCode.unavailable
        }
        let inputs = InputDevice.scan(inputDirectory)
        if inputs.isEmpty { print("input: none in \(inputDirectory)") }
        for result in inputs {
            switch result {
            case .success(let device):
                print("input \(device.path) \"\(device.name)\": \(device.capabilities.summary)")
            case .failure(let error):
                print("input \(error)")
            }
        }
        return status
    }

    private func describeCard(_ path: String) {
        let card: Card
        let snapshot: CardSnapshot
        do throws(DisplayError) {
            card = try Card(path: path)
            snapshot = try card.snapshot()
        } catch {
            print("card \(path): \(error)")
            return
        }
        print(
            "card \(path): driver \(snapshot.driver), dumb buffers \(snapshot.supportsDumbBuffers ? "yes" : "no"), "
                + "atomic \(snapshot.supportsAtomic ? "yes" : "no")")
        for c in snapshot.connectors {
            var line = "  connector \(c.name): \(c.status.rawValue)"
            if c.widthMillimetres > 0 || c.heightMillimetres > 0 {
                line += ", \(c.widthMillimetres)x\(c.heightMillimetres) mm"
            }
            if let crtc = c.currentCRTC { line += ", on crtc \(crtc)" }
            print(line)
            var seen = Set<String>()
            let modes = c.modes.compactMap { m -> String? in
                let text = m.description + (m.isPreferred ? " (preferred)" : "")
                return seen.insert(text).inserted ? text : nil
            }
            print("    modes: " + (modes.isEmpty ? "none" : modes.joined(separator: ", ")))
        }
        for crtc in snapshot.crtcs {
            let state = crtc.mode.map { "\($0), framebuffer \(crtc.framebuffer)" } ?? "off"
            print("  crtc \(crtc.id) (index \(crtc.index)): \(state)")
        }
        for p in snapshot.planes {
            let crtcs = (0..<32).filter { p.canDrive(crtcIndex: $0) }.map(String.init).joined(separator: ",")
            print(
                "  plane \(p.id) \(p.kind.rawValue), crtc index \(crtcs): "
                    + p.formats.map(fourCCName).joined(separator: " ")
                    + (p.acceptsDamageClips ? "; damage clips" : ""))
        }
        if let plan = try? OutputPlan.choose(in: snapshot, for: OutputRequest()) {
            print("  try: glance run --card \(path) --connector \(plan.connector.name) --mode \(plan.mode)")
        }
    }
}
