import CCairoPango
import CPDFFinish
import FolioModel
import Foundation

/// Completes the PDF Cairo wrote with what Cairo 1.16 cannot write, using libqpdf (see
/// `Sources/CPDFFinish`): for a tagged document, PDF/UA-1 (decoration as Artifacts, figure
/// /Alt, header-cell /Scope, one Table element per table, link /Contents, /Tabs,
/// /MarkInfo, XMP with pdfuaid); for every document, /Lang, DisplayDocTitle and XMP; for an
/// archival one, PDF/A-2u's output intent and claim.
struct PDFFinisher {
    let document: Document
    let structure: StructureRecord
    let date: Date

    func finish(_ pdf: Data) throws -> Data {
        let metadata = document.metadata
        let tagged = metadata.tagged
        let archival = metadata.conformance == .archival
        let profile = archival ? try PDFFinisher.outputProfile() : nil
        let xmp = XMPPacket(
            title: document.title, author: metadata.author, subject: metadata.subject, keywords: metadata.keywords,
            language: metadata.language, date: date, producer: PDFFinisher.producer,
            claimsUniversalAccessibility: tagged, claimsArchival: archival
        ).xml
        let figures = CStringArray(tagged ? structure.figureAlternatives : [])
        let links = CStringArray(structure.linkDescriptions)
        let continues = (tagged ? structure.tableContinues : []).map { UInt8($0 ? 1 : 0) }
        var output: UnsafeMutablePointer<UInt8>?
        var outputLength = 0
        var message = [CChar](repeating: 0, count: 512)
        let status = xmp.withCString { xmpPointer in
            metadata.language.withCString { language in
                PDFFinisher.outputCondition.withCString { condition in
                    continues.withUnsafeBufferPointer { continuesPointer in
                        (profile ?? Data()).withUnsafeBytes { profileBytes in
                            pdf.withUnsafeBytes { pdfBytes in
                                var finishing = folio_pdf_finishing(
                                    language: language, xmp: xmpPointer, xmp_length: strlen(xmpPointer),
                                    figure_alternatives: figures.pointers, figure_count: figures.count,
                                    table_continues: continuesPointer.baseAddress, table_count: continues.count,
                                    link_descriptions: links.pointers, link_count: links.count,
                                    mark_artifacts: tagged ? 1 : 0, tagged: tagged ? 1 : 0,
                                    icc_profile: profile == nil ? nil : profileBytes.bindMemory(to: UInt8.self).baseAddress,
                                    icc_profile_length: profileBytes.count, output_condition: condition)
                                return folio_pdf_finish(
                                    &finishing, pdfBytes.bindMemory(to: UInt8.self).baseAddress, pdfBytes.count, &output,
                                    &outputLength, &message, message.count)
                            }
                        }
                    }
                }
            }
        }
        guard status == 0, let output else {
            let reason = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            throw FolioError(path: "", "could not finish the PDF: \(reason)")
        }
        defer { folio_pdf_free(output) }
        return Data(bytes: output, count: outputLength)
    }

    /// The /Producer Cairo writes into the info dictionary, which the XMP must repeat.
    static var producer: String { "cairo \(String(cString: cairo_version_string())) (https://cairographics.org)" }

    static let outputCondition = "sRGB IEC61966-2.1"

    /// Where Debian keeps an sRGB ICC profile (colord-data, then icc-profiles-free, then Ghostscript's).
    static let outputProfilePaths = [
        "/usr/share/color/icc/colord/sRGB.icc",
        "/usr/share/color/icc/sRGB.icc",
        "/usr/share/color/icc/ghostscript/srgb.icc",
    ]

    static func outputProfile() throws -> Data {
        for path in outputProfilePaths {
            if let data = FileManager.default.contents(atPath: path), data.count > 128, data.count < 1 << 20 { return data }
        }
        throw FolioError(
            path: "metadata.conformance",
            "PDF/A needs an sRGB ICC profile and none is installed (apt-get install colord-data): looked in "
                + outputProfilePaths.joined(separator: ", "))
    }
}

/// NUL-terminated copies of strings in a C array of `char *` that lives as long as the value.
final class CStringArray {
    let pointers: UnsafeMutablePointer<UnsafePointer<CChar>?>
    let count: Int

    init(_ strings: [String]) {
        count = strings.count
        pointers = .allocate(capacity: max(strings.count, 1))
        for (index, string) in strings.enumerated() { pointers[index] = UnsafePointer(strdup(string)) }
    }

    deinit {
        for index in 0..<count { free(UnsafeMutableRawPointer(mutating: pointers[index])) }
        pointers.deallocate()
    }
}
