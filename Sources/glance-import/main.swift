// glance-import: `glance import`'s work, in an executable of its own (libxml2 and libarchive are
// linked here, not in glance), run by glance from the package's library folder.
import HelperCommands
import Platform

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

exit(
    ImportCommand.spec.main(.init(), Array(CommandLine.arguments.dropFirst())) { line in
        // --watch: a folder watched until a signal (its own loop; each file imported as below).
        if line.watch { return WatchJob.run(line, console: Console.standard) }
        return ImportJob.run(
            line.file ?? "", skipInvalid: line.skipInvalid, taskName: line.task, showProgress: !line.quiet,
            database: line.database, person: line.person, console: Console.standard)
    })
