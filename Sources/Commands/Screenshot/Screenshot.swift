import CLI
import Runtime
import Activity
import ControlSocket
import DeviceLogic
import ImageFile
import Platform
import Raster

/// `glance screenshot`: the running app's frame, upright, into a PNG.
public enum Screenshot {
    /// How it ends, and why (its help's exit statuses: Commands maps each to its number).
    public static let outcomes: [ExitStatusNote] = [
        ExitStatusNote(.ok, "written"),
        ExitStatusNote(.unavailable, "no running glance answers (start it, or give --socket)"),
        ExitStatusNote(.cannotCreate, "FILE.png cannot be written"),
        ExitStatusNote(.ioError, "the app's answer could not be read"),
        ExitStatusNote(.temporaryFailure, "the app has no picture to give now (another console is in front, or it has drawn nothing yet)"),
        ExitStatusNote(.noPermission, "not allowed to ask (join group glance)"),
    ]

    /// `glance screenshot`'s description (its help), beside what it does.
    public static let about = """
        Asks the running glance (glance run, the service) for the frame it has on the panel and writes it \
        as a PNG, upright as a person sees it (a panel mounted turned is turned back; an RGB565 panel's \
        colours are as it shows them): for a bug report, or to look at a board from a distance (ssh \
        board glance screenshot -o /tmp/panel.png, then scp board:/tmp/panel.png .). The app answers on \
        a socket in its runtime directory, open to root and group glance; it never waits on the asker.
        """

    /// Asks the app at `socket` (else the usual places) and writes `output`; ends as `outcomes`
    /// says.
    public static func run(output: String, socket: String?, log: (String) -> Void, say: (String) -> Void) -> Outcome {
        let connection: PacketSocket
        switch PanelClient.connect(socket) {
        case .success(let c): connection = c
        case .failure(let failure):
            log(failure.message)
            return failure.status
        }
        let picture: PixelBuffer
        do throws(OutputFailure) {
            picture = try PanelClient.screenshot(connection)
        } catch {
            log(error.message)
            return error.status
        }
        do throws(PNGError) {
            try PNGFile.write(picture, to: output)
        } catch {
            log("--output '\(output)': \(error)")
            return error.outcome
        }
        say("\(output): \(picture.width)x\(picture.height), the frame on the panel")
        return Outcome.ok
    }

}
