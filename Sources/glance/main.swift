import Commands

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

exit(Glance.main(Array(CommandLine.arguments.dropFirst())))
