// glance-serve: `glance serve`'s work, in an executable of its own (libmicrohttpd and libqrencode
// are linked here, not in glance), run by glance from the package's library folder.
import App
import Commands
import Configuration
import Server
import Platform
import ConfigurationFile

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

exit(
    Glance.helperMain(ServeCommand.spec, .init(), Array(CommandLine.arguments.dropFirst())) { line in
        let console = Console.standard
        return ConfigurationFile.withSettings(line.config, commandLine: line.layer, console: console) { settings in
            let configuration = settings.configuration
            if line.showToken { return ServeApp.showToken(configuration, say: console.say, log: console.complain) }
            switch ServeApp.make(configuration: configuration, database: nil, log: console.complain) {
            case .failure(let status): return status.code
            case .success(let app): return app.run()
            }
        }
    })
