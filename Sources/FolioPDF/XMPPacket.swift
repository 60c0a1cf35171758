import FolioGraphics
import FolioModel
import Foundation

/// The document's XMP metadata packet: Dublin Core title, author, subject and language,
/// dates, producer, and the conformance claims (PDF/UA-1; PDF/A-2u or PDF/A-3u when archival).
/// Every value is written through `XMLText`, so no value can break out of its element.
struct XMPPacket {
    var title: String
    var author: String?
    var subject: String?
    var keywords: [String]
    var language: String
    var date: Date
    var producer: String
    var claimsUniversalAccessibility: Bool
    /// The part of PDF/A claimed (2 or 3, conformance level U), or nil.
    var archivalPart: Int?
    /// The files the PDF carries (`attachments`), each described in the packet: "name (MIME type,
    /// relationship): description".
    var attachments: [String] = []

    private var claimsArchival: Bool { archivalPart != nil }

    /// The packet as UTF-8 XML.
    var xml: String {
        let stamp = ISODate.dateTime(date.timeIntervalSince1970)
        var lines = [
            "<?xpacket begin=\"\u{FEFF}\" id=\"W5M0MpCehiHzreSzNTczkc9d\"?>",
            "<x:xmpmeta xmlns:x=\"adobe:ns:meta/\">",
            "<rdf:RDF xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\">",
            "<rdf:Description rdf:about=\"\" xmlns:dc=\"http://purl.org/dc/elements/1.1/\""
                + " xmlns:xmp=\"http://ns.adobe.com/xap/1.0/\" xmlns:pdf=\"http://ns.adobe.com/pdf/1.3/\""
                + (claimsUniversalAccessibility ? " xmlns:pdfuaid=\"http://www.aiim.org/pdfua/ns/id/\"" : "")
                + (claimsArchival
                    ? " xmlns:pdfaid=\"http://www.aiim.org/pdfa/ns/id/\""
                        + " xmlns:pdfaExtension=\"http://www.aiim.org/pdfa/ns/extension/\""
                        + " xmlns:pdfaSchema=\"http://www.aiim.org/pdfa/ns/schema#\""
                        + " xmlns:pdfaProperty=\"http://www.aiim.org/pdfa/ns/property#\"" : "")
                + (attachments.isEmpty ? "" : " xmlns:folioaf=\"\(XMPPacket.attachmentsNamespace)\"") + ">",
            "<dc:format>application/pdf</dc:format>",
            "<dc:title><rdf:Alt><rdf:li xml:lang=\"x-default\">\(XMLText(title))</rdf:li></rdf:Alt></dc:title>",
            "<dc:language><rdf:Bag><rdf:li>\(XMLText(language))</rdf:li></rdf:Bag></dc:language>",
        ]
        if let author {
            lines.append("<dc:creator><rdf:Seq><rdf:li>\(XMLText(author))</rdf:li></rdf:Seq></dc:creator>")
        }
        if let subject {
            lines.append("<dc:description><rdf:Alt><rdf:li xml:lang=\"x-default\">\(XMLText(subject))</rdf:li></rdf:Alt></dc:description>")
        }
        if !keywords.isEmpty {
            lines.append("<pdf:Keywords>\(XMLText(keywords.joined(separator: ", ")))</pdf:Keywords>")
        }
        lines += [
            "<pdf:Producer>\(XMLText(producer))</pdf:Producer>",
            "<xmp:CreatorTool>Folio</xmp:CreatorTool>",
            "<xmp:CreateDate>\(stamp)</xmp:CreateDate>",
            "<xmp:ModifyDate>\(stamp)</xmp:ModifyDate>",
            "<xmp:MetadataDate>\(stamp)</xmp:MetadataDate>",
        ]
        if claimsUniversalAccessibility { lines.append("<pdfuaid:part>1</pdfuaid:part>") }
        if !attachments.isEmpty {
            lines.append("<folioaf:files><rdf:Bag>")
            lines += attachments.map { "<rdf:li>\(XMLText($0))</rdf:li>" }
            lines.append("</rdf:Bag></folioaf:files>")
        }
        if claimsArchival {
            lines += ["<pdfaid:part>\(archivalPart ?? 2)</pdfaid:part>", "<pdfaid:conformance>U</pdfaid:conformance>"]
            // PDF/A allows only predefined XMP schemas unless the packet describes them.
            let schemas =
                (claimsUniversalAccessibility ? XMPPacket.universalAccessibilitySchema : [])
                + (attachments.isEmpty ? [] : XMPPacket.attachmentsSchema)
            if !schemas.isEmpty { lines += ["<pdfaExtension:schemas><rdf:Bag>"] + schemas + ["</rdf:Bag></pdfaExtension:schemas>"] }
        }
        lines += ["</rdf:Description>", "</rdf:RDF>", "</x:xmpmeta>", "<?xpacket end=\"w\"?>"]
        return lines.joined(separator: "\n")
    }

    /// PDF/A allows only predefined XMP schemas unless described: this describes pdfuaid.
    private static let universalAccessibilitySchema = [
        "<rdf:li rdf:parseType=\"Resource\">",
        "<pdfaSchema:schema>PDF/UA Universal Accessibility Schema</pdfaSchema:schema>",
        "<pdfaSchema:namespaceURI>http://www.aiim.org/pdfua/ns/id/</pdfaSchema:namespaceURI>",
        "<pdfaSchema:prefix>pdfuaid</pdfaSchema:prefix>",
        "<pdfaSchema:property><rdf:Seq><rdf:li rdf:parseType=\"Resource\">",
        "<pdfaProperty:name>part</pdfaProperty:name>",
        "<pdfaProperty:valueType>Integer</pdfaProperty:valueType>",
        "<pdfaProperty:category>internal</pdfaProperty:category>",
        "<pdfaProperty:description>Indicates, which part of ISO 14289 standard is followed</pdfaProperty:description>",
        "</rdf:li></rdf:Seq></pdfaSchema:property>",
        "</rdf:li>",
    ]

    /// The namespace of Folio's description of the files a PDF carries.
    static let attachmentsNamespace = "http://ns.folio-reports.org/attachments/1.0/"

    /// Describes folioaf, Folio's list of the attached files, for PDF/A.
    private static let attachmentsSchema = [
        "<rdf:li rdf:parseType=\"Resource\">",
        "<pdfaSchema:schema>Folio attached files</pdfaSchema:schema>",
        "<pdfaSchema:namespaceURI>\(attachmentsNamespace)</pdfaSchema:namespaceURI>",
        "<pdfaSchema:prefix>folioaf</pdfaSchema:prefix>",
        "<pdfaSchema:property><rdf:Seq><rdf:li rdf:parseType=\"Resource\">",
        "<pdfaProperty:name>files</pdfaProperty:name>",
        "<pdfaProperty:valueType>Bag Text</pdfaProperty:valueType>",
        "<pdfaProperty:category>external</pdfaProperty:category>",
        "<pdfaProperty:description>The files the PDF carries as associated files: name (MIME type, relationship): description</pdfaProperty:description>",
        "</rdf:li></rdf:Seq></pdfaSchema:property>",
        "</rdf:li>",
    ]

}

/// Text for an XML element's content, escaped when interpolated.
struct XMLText: CustomStringConvertible {
    let raw: String

    init(_ raw: String) { self.raw = raw }

    var description: String { MarkupEscaping.escape(raw) }
}
