import Activity
import Store
internal import CXML

/// Reads `ActivitySummary` elements from an Apple Health `export.xml` with libxml2's SAX2 push
/// parser, fed 256 KB chunks from a `ByteSource`: constant memory whatever the size, every byte
/// checked for well-formedness, everything but `ActivitySummary` skipped without leaving C.
/// (Push mode with large chunks measured faster than libxml2 pulling 4 KB reads.)
final class HealthXMLReader {
    let source: any ByteSource
    let monitor: ImportMonitor
    let collector: DayCollector
    private var parser: xmlParserCtxtPtr?
    /// Our own reason to stop (a bad row, a read error, a cancel), which wins over libxml2's.
    private var failure: StoreError?
    /// libxml2's first error: line, column, message.
    private var xmlError: (line: Int, column: Int, message: String)?

    init(source: any ByteSource, monitor: ImportMonitor, collector: DayCollector) {
        self.source = source
        self.monitor = monitor
        self.collector = collector
    }

    func run() throws(StoreError) {
        var sax = xmlSAXHandler()
        sax.initialized = UInt32(XML_SAX2_MAGIC)
        sax.startElementNs = { context, localname, prefix, uri, _, _, count, _, attributes in
            // Only names starting with "A" can be ActivitySummary: the millions of Records stay in C.
            // An export's elements have no namespace: h:ActivitySummary is another element.
            guard let context, let localname, localname[0] == UInt8(ascii: "A"), prefix == nil, uri == nil else { return }
            let reader = Unmanaged<HealthXMLReader>.fromOpaque(context).takeUnretainedValue()
            reader.startElement(localname, count: Int(count), attributes: attributes)
        }
        sax.serror = { context, error in
            guard let context, let error else { return }
            let reader = Unmanaged<HealthXMLReader>.fromOpaque(context).takeUnretainedValue()
            reader.noteError(
                level: Int(error.pointee.level.rawValue), line: Int(error.pointee.line),
                column: Int(error.pointee.int2), message: error.pointee.message)
        }
        sax.entityDecl = { context, name, _, _, _, _ in
            // libxml2 would keep the declaration out of our sight and later say the entity is "not
            // defined"; an export declares none, and none is expanded.
            guard let context else { return }
            let reader = Unmanaged<HealthXMLReader>.fromOpaque(context).takeUnretainedValue()
            let entity = name.map { Quote.clip(String(cString: $0)) } ?? ""
            reader.stop(
                StoreError(
                    .badData,
                    "\(reader.location(of: nil)): the DTD declares an entity (\(entity)): an Apple Health export declares "
                        + "none, and Glance expands none (is this an export?)"))
        }
        let me = Unmanaged.passUnretained(self).toOpaque()
        guard let parser = xmlCreatePushParserCtxt(&sax, me, nil, 0, nil) else {
            throw StoreError(.io, "\(source.name): libxml2 could not create a parser (out of memory?)")
        }
        self.parser = parser
        defer {
            self.parser = nil
            xmlFreeParserCtxt(parser)
        }
        // No network, no external DTD, and libxml2's own limits (no XML_PARSE_HUGE): with
        // XMLLimits in front no piece of markup reaches them, but they stay a second fence.
        xmlCtxtUseOptions(parser, Int32(XML_PARSE_NONET.rawValue))
        // libxml2 keeps every element and attribute name in a dictionary that only grows (and
        // slows down as it does): its limit, 10 MB by default, down to what no export comes near.
        xmlDictSetLimit(parser.pointee.dict, XMLLimits.maxNameBytes)
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: Self.chunkSize, alignment: 64)
        defer { chunk.deallocate() }
        // `self` (the SAX context) lives through this method, so the C callbacks may use it.
        var rc: Int32 = 0
        var atEnd = false
        var limits: XMLLimits?
        while failure == nil && rc == 0 && !atEnd {
            let n: Int
            do {
                n = try source.read(into: chunk.baseAddress!, count: chunk.count)
                try monitor.tick(source.position)
            } catch {
                failure = error
                break
            }
            atEnd = n == 0
            do throws(XMLLimits.Exceeded) {
                let bytes = UnsafeRawBufferPointer(start: chunk.baseAddress!, count: n)
                if limits == nil { limits = XMLLimits(encoding: XMLEncoding.detect(bytes)) }
                try limits!.scan(bytes)
            } catch {
                failure = StoreError(.badData, "\(source.name):\(error.line):\(error.column): \(error.message)")
                break
            }
            let base = chunk.baseAddress!.assumingMemoryBound(to: CChar.self)
            rc = xmlParseChunk(parser, atEnd ? nil : base, Int32(n), atEnd ? 1 : 0)
        }
        if let failure { throw failure }
        guard rc != 0 || parser.pointee.wellFormed == 0 else { return }
        var e =
            xmlError ?? (
                line: Int(xmlSAX2GetLineNumber(parser)), column: Int(xmlSAX2GetColumnNumber(parser)),
                message: "not well-formed XML"
            )
        var hint = "the file is not a complete, well-formed export.xml"
        if e.message.contains("Memory allocation failed"), xmlDictGetUsage(parser.pointee.dict) > XMLLimits.maxNameBytes / 4 {
            e.message = "more different element and attribute names than \(XMLLimits.maxNameBytes >> 10) KB hold"
            hint = "an Apple Health export uses about a hundred"
        }
        if atEnd
            && (parser.pointee.nameNr > 0 || e.message.hasPrefix("Extra content at the end")
                || e.message.contains("Premature end") || e.message.contains("Couldn't find end"))
        {
            // libxml2 says "Extra content at the end of the document" when the input simply stops.
            if parser.pointee.nameNr > 0 || e.message.hasPrefix("Extra content") {
                e.message = "the file ends before the document does"
            }
            hint = "the file looks cut short: export it again or copy it whole"
        } else if e.line <= 1 && e.message.contains("Start tag expected") {
            hint = "this is not an XML file"
        }
        throw StoreError(.badData, "\(source.name):\(e.line):\(e.column): \(e.message) (\(hint))")
    }

    static let chunkSize = 256 << 10

    private func noteError(level: Int, line: Int, column: Int, message: UnsafeMutablePointer<CChar>?) {
        guard level >= Int(XML_ERR_ERROR.rawValue), xmlError == nil else { return }
        var text = message.map { Quote.clip(String(cString: $0), 160) } ?? "XML error"
        while text.hasSuffix("\\n") || text.last == " " { text.removeLast(text.last == " " ? 1 : 2) }
        xmlError = (line, column, text)
    }

    fileprivate func stop(_ error: StoreError) {
        failure = failure ?? error
        if let parser { xmlStopParser(parser) }
    }

    private static let activitySummary = Array("ActivitySummary".utf8) + [0]
    private static let fieldsByName: [String: ExportField] = Dictionary(
        uniqueKeysWithValues: ExportField.allCases.filter { ![.moveMode, .activeEnergyBurnedGoalUnit, .steps, .stepsGoal, .source].contains($0) }
            .map { ($0.rawValue, $0) })

    private func startElement(
        _ localname: UnsafePointer<xmlChar>, count: Int, attributes: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?
    ) {
        let isSummary = Self.activitySummary.withUnsafeBufferPointer { strcmp(localname, $0.baseAddress!) == 0 }
        guard isSummary, failure == nil else { return }
        var fields = ExportDayFields()
        do {
            for i in 0..<count {
                guard let attributes, let name = attributes[5 * i], let start = attributes[5 * i + 3],
                    let end = attributes[5 * i + 4]
                else { continue }
                guard let field = Self.fieldsByName[String(cString: name)] else { continue }
                let value = String(decoding: UnsafeBufferPointer(start: start, count: end - start), as: UTF8.self)
                do {
                    try fields.set(field, value)
                } catch {
                    try collector.reject("ActivitySummary: \(error.message)", at: location(of: start))
                    return
                }
            }
            monitor.days += 1
            try collector.add(fields, at: self.location(of: nil))
        } catch {
            stop(error)
        }
    }

    /// `file:line:column` of an attribute value (or of the parser when it cannot be placed).
    fileprivate func location(of pointer: UnsafePointer<xmlChar>?) -> String {
        guard let parser, let input = parser.pointee.input else { return source.name }
        let line = Int(input.pointee.line)
        var column = Int(input.pointee.col)
        if let pointer, let base = input.pointee.base, let cur = input.pointee.cur, pointer >= base, pointer < cur {
            var p = pointer
            var sameLine = true
            while p < cur {
                if p.pointee == 10 {
                    sameLine = false
                    break
                }
                p += 1
            }
            if sameLine { column = max(1, column - (cur - pointer)) }
        }
        return "\(source.name):\(line):\(column)"
    }
}

private func strcmp(_ a: UnsafePointer<xmlChar>, _ b: UnsafePointer<UInt8>) -> Int32 {
    var i = 0
    while true {
        let x = a[i]
        let y = b[i]
        if x != y { return Int32(x) - Int32(y) }
        if x == 0 { return 0 }
        i += 1
    }
}
