// glance-mqtt: `glance mqtt`'s work, the bridge, in an executable of its own (libmosquitto is
// linked here, not in glance), run by glance from the package's library folder.
import App
import Commands
import Configuration
import ConfigurationFile
import HomeBridge
import Platform

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

exit(
    Glance.helperMain(MQTTCommand.spec, .init(), Array(CommandLine.arguments.dropFirst())) { line in
        let console = Console.standard
        let made = ConfigurationFile.settings(line.config, commandLine: line.layer, console: console).flatMap { settings in
            MQTTBridge.make(configuration: settings.configuration, database: nil, version: Glance.version, log: console.complain)
        }
        switch made {
        case .failure(let status): return status.code
        case .success(let bridge): return bridge.run()
        }
    })
