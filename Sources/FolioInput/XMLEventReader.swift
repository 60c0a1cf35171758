import CExpat

/// What an `XMLEventReader` reports, in document order.
protocol XMLEventHandler: AnyObject {
    /// An element opens, with its attributes (names as written: no namespace processing).
    func startElement(_ name: String, attributes: [String: String], reader: XMLEventReader)
    /// An element closes.
    func endElement(_ name: String, reader: XMLEventReader)
    /// Text, or a CDATA section's text; one run of text may come in several pieces.
    func characters(_ text: String, reader: XMLEventReader)
    /// A document type, element or entity declaration: what the handler refuses.
    func declaration(reader: XMLEventReader)
}

/// Reads XML markup with Expat (the parser fontconfig already loads into every process): events
/// only, no namespace processing, no external entity ever loaded, no parameter entities. One
/// reader reads one document.
final class XMLEventReader {
    private let parser: XML_Parser
    private let handler: XMLEventHandler

    /// A reader reporting to `handler`; nil when Expat cannot allocate a parser.
    init?(handler: XMLEventHandler) {
        guard let parser = XML_ParserCreate("UTF-8") else { return nil }
        self.parser = parser
        self.handler = handler
    }

    deinit { XML_ParserFree(parser) }

    /// The line (from 1) where reading is, or stopped.
    var lineNumber: Int { Int(XML_GetCurrentLineNumber(parser)) }

    /// The column (from 1) where reading is, or stopped.
    var columnNumber: Int { Int(XML_GetCurrentColumnNumber(parser)) + 1 }

    /// Stops reading after the event being reported: `read` then answers false.
    func stop() { _ = XML_StopParser(parser, XML_FALSE) }

    /// Reads `markup` (UTF-8) to its end: true when it is well-formed and was not stopped.
    func read(_ markup: [UInt8]) -> Bool {
        guard let length = Int32(exactly: markup.count) else { return false }
        XML_SetUserData(parser, Unmanaged.passUnretained(self).toOpaque())
        _ = XML_SetParamEntityParsing(parser, XML_PARAM_ENTITY_PARSING_NEVER)
        XML_SetElementHandler(
            parser,
            { data, name, attributes in
                guard let reader = XMLEventReader.reader(data), let name else { return }
                var named: [String: String] = [:]
                var index = 0
                while let key = attributes?[index], let value = attributes?[index + 1] {
                    named[String(cString: key)] = String(cString: value)
                    index += 2
                }
                reader.handler.startElement(String(cString: name), attributes: named, reader: reader)
            },
            { data, name in
                guard let reader = XMLEventReader.reader(data), let name else { return }
                reader.handler.endElement(String(cString: name), reader: reader)
            })
        XML_SetCharacterDataHandler(parser) { data, text, count in
            guard let reader = XMLEventReader.reader(data), let text, count > 0 else { return }
            let bytes = UnsafeRawBufferPointer(start: text, count: Int(count))
            reader.handler.characters(String(decoding: bytes, as: UTF8.self), reader: reader)
        }
        XML_SetStartDoctypeDeclHandler(parser) { data, _, _, _, _ in
            guard let reader = XMLEventReader.reader(data) else { return }
            reader.handler.declaration(reader: reader)
        }
        XML_SetElementDeclHandler(parser) { data, _, model in
            guard let reader = XMLEventReader.reader(data) else { return }
            XML_FreeContentModel(reader.parser, model)
            reader.handler.declaration(reader: reader)
        }
        XML_SetEntityDeclHandler(parser) { data, _, _, _, _, _, _, _, _ in
            guard let reader = XMLEventReader.reader(data) else { return }
            reader.handler.declaration(reader: reader)
        }
        // An external entity is never read: Expat reports a reference to one as an error.
        XML_SetExternalEntityRefHandler(parser) { _, _, _, _, _ in Int32(XML_STATUS_ERROR.rawValue) }
        return markup.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { XML_Parse(parser, $0.baseAddress, length, 1) == XML_STATUS_OK }
        }
    }

    /// The reader whose user data `data` is.
    private static func reader(_ data: UnsafeMutableRawPointer?) -> XMLEventReader? {
        data.map { Unmanaged<XMLEventReader>.fromOpaque($0).takeUnretainedValue() }
    }
}
