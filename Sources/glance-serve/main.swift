// glance-serve: `glance serve`'s work, in an executable of its own (libmicrohttpd and libqrencode
// are linked here, not in glance), run by glance from the package's library folder.
import ConfigurationFile
import HelperCommands
import Platform
import Server

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

exit(
    ServeCommand.spec.main(.init(), Array(CommandLine.arguments.dropFirst())) { line in
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
