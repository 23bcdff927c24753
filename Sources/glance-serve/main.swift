// glance-serve: `glance serve`'s work, in an executable of its own (libmicrohttpd and libqrencode
// are linked here, not in glance), run by glance from the package's library folder; and `glance
// people`'s (`glance-serve people …`): the household's store and token files, and the phones' QR codes.
import ConfigurationFile
import HelperCommands
import Platform
import Server

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

let arguments = Array(CommandLine.arguments.dropFirst())

if arguments.first == "people" {
    exit(
        PeopleCommand.spec.main(.init(), Array(arguments.dropFirst())) { line in
            let console = Console.standard
            switch ConfigurationFile.configuration(line.config, commandLine: line.layer, console: console) {
            case .failure(let status): return status.code
            case .success(let configuration):
                switch Household.open(configuration, say: console.say, complain: console.complain) {
                case .failure(let status): return status.code
                case .success(let household):
                    let panel = line.panel ? Household.Panel(socket: line.socket) : nil
                    switch line.job {
                    case .list: return household.list()
                    case .add(let name, let colour): return household.add(name: name, colour: colour, url: line.url, panel: panel)
                    case .rename(let person, let name): return household.rename(person, to: name)
                    case .colour(let person, let colour): return household.colour(person, colour)
                    case .token(let person, let new): return household.token(person, new: new, url: line.url, panel: panel)
                    case .remove(let person, let confirmed): return household.remove(person, confirmed: confirmed)
                    }
                }
            }
        })
}

if arguments.first == "web" {
    exit(
        WebCommand.spec.main(.init(), Array(arguments.dropFirst())) { line in
            let console = Console.standard
            switch ConfigurationFile.configuration(line.config, commandLine: line.layer, console: console) {
            case .failure(let status): return status.code
            case .success(let configuration):
                switch line.job {
                case .link: return WebApp.link(configuration, url: line.url, panel: line.panel ? line.socket ?? "" : nil, say: console.say, complain: console.complain)
                case .serve:
                    // glance, beside this program (a build folder) or on the PATH's usual place, draws previews.
                    let here = executablePath().map { path in path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "." }
                    let glance = [here.map { $0 + "/glance" }, "/usr/bin/glance"].compactMap { $0 }.first { (path: String) in access(path, X_OK) == 0 }
                    let app = WebApp(
                        configuration: configuration, configPath: line.config, socket: line.socket, glance: glance, version: BuildInfo.version,
                        log: console.complain)
                    return app.run()
                }
            }
        })
}

exit(
    ServeCommand.spec.main(.init(), arguments) { line in
        let console = Console.standard
        switch ConfigurationFile.configuration(line.config, commandLine: line.layer, console: console) {
        case .failure(let status): return status.code
        case .success(let configuration):
            if line.showToken { return ServeApp.showToken(configuration, say: console.say, log: console.complain) }
            switch ServeApp.make(configuration: configuration, database: nil, log: console.complain) {
            case .failure(let status): return status.code
            case .success(let app): return app.run()
            }
        }
    })
