import Store

extension HealthImport {
    /// Imports the file at `path` (`-`: standard input): export.zip, export.xml or the CSV form of
    /// Activity summaries, told from its first bytes (see `HealthImport`: all or nothing).
    public static func run(_ path: String, into store: Store, options: ImportOptions = ImportOptions())
        throws(StoreError) -> ImportReport
    {
        let readers = ExportReaders(
            zip: { (input) throws(StoreError) -> any ByteSource in try ArchiveSource(input: input) },
            xml: { (source, monitor, collector) throws(StoreError) in
                try HealthXMLReader(source: source, monitor: monitor, collector: collector).run()
            })
        return try run(path, into: store, options: options, readers: readers)
    }
}
