// glance-mqtt: `glance mqtt`'s work, the bridge, in an executable of its own (libmosquitto is
// linked here, not in glance), run by glance from the package's library folder.
import ConfigurationFile
import HelperCommands
import HomeBridge
import Platform

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

exit(
    MQTTCommand.spec.main(.init(), Array(CommandLine.arguments.dropFirst())) { line in
        let console = Console.standard
        let made = ConfigurationFile.configuration(line.config, commandLine: line.layer, console: console).flatMap { configuration in
            MQTTBridge.make(configuration: configuration, database: nil, version: BuildInfo.version, log: console.complain)
        }
        switch made {
        case .failure(let status): return status.code
        case .success(let bridge): return bridge.run()
        }
    })
