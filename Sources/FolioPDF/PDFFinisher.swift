import CCairoPango
import CPDFFinish
import Crypto
import FolioGraphics
import FolioInput
import FolioModel
import Foundation

/// Completes the PDF Cairo writes with what Cairo 1.16 cannot write, using libqpdf (see
/// `Sources/CPDFFinish`), one part at a time: Cairo writes a long document as several files of
/// consecutive pages (`add`), which become one PDF (`finish`), so that no step holds the whole
/// document's structure tree. For a tagged document, PDF/UA-1 (decoration as Artifacts, figure
/// /Alt, header-cell /Scope, one Table element per table, link /Contents, /Tabs, /MarkInfo, XMP
/// with pdfuaid); for every document, /Lang, DisplayDocTitle, bookmarks and XMP; for an archival
/// one, PDF/A-2u's output intent and claim; protection and a signature when asked.
final class PDFFinisher {
    private let assembly: OpaquePointer
    /// Signs the finished file when set; kept alive as long as the assembly uses it.
    private let signer: PDFSigner?

    /// A bookmark: its title, its level (0 for the top), its page (from 0) and where on it (PDF
    /// coordinates, from the bottom left).
    struct Outline {
        var title: String
        var level: Int
        var page: Int
        var x: Double
        var y: Double
    }

    /// A finisher for `document`; with `outputFD`, the finished file is written to that descriptor
    /// as it is made (not for an encrypted or signed file, which are written again once whole).
    init(document: Document, date: Date, signer: PDFSigner? = nil, outputFD: Int32 = -1, attachments: [AttachedFile] = []) throws {
        // A long-running service outlives certificates: a signature it can no longer make validly is an error.
        if let signer, Date() >= signer.notAfter {
            throw FolioError(
                path: "--sign-cert", "the signing certificate expired on \(ISODate.dateTime(signer.notAfter.timeIntervalSince1970))")
        }
        let metadata = document.metadata
        let archival = metadata.conformance.archivalPart != nil
        let profile = archival ? try PDFFinisher.outputProfile() : Data()
        let xmp = XMPPacket(
            title: document.displayTitle(strings: document.builtInStrings), author: metadata.author, subject: metadata.subject,
            keywords: metadata.keywords,
            language: metadata.language, date: date, producer: PDFFinisher.producer,
            claimsUniversalAccessibility: metadata.tagged, archivalPart: metadata.conformance.archivalPart,
            attachments: attachments.map { file in
                let attachment = file.attachment
                return "\(attachment.shownName) (\(attachment.shownMimeType), \(attachment.relationship.rawValue)): "
                    + (attachment.description ?? attachment.shownName)
            }
        ).xml
        let protection = document.protection
        if protection != nil, folio_pdf_encryption_available() == 0 {
            throw FolioError(
                path: "protection",
                "encrypting a PDF needs GnuTLS (libgnutls.so.30), which could not be loaded (Debian: apt install libgnutls30)")
        }
        // Without an owner password, a random one nobody is given: the restrictions then hold.
        let ownerPassword = protection.map { $0.ownerPassword ?? PDFFinisher.randomPassword() }
        let digest = BodyDigest()
        let signatureName = document.builtInStrings[.digitalSignature]
        let signatureDescription = signer.map { $0.commonName.isEmpty ? signatureName : "\(signatureName): \($0.commonName)" }
        let strings = CStringArray([
            xmp, metadata.language, PDFFinisher.outputCondition, protection?.userPassword, ownerPassword, signatureDescription,
        ])
        var finishing = folio_pdf_finishing(
            language: strings.pointers[1], xmp: strings.pointers[0], xmp_length: strings.pointers[0].map { strlen($0) } ?? 0,
            tagged: metadata.tagged ? 1 : 0, icc_profile: nil, icc_profile_length: profile.count,
            output_condition: strings.pointers[2], user_password: strings.pointers[3], owner_password: strings.pointers[4],
            allow_print: protection?.allow.contains(.print) == true ? 1 : 0, allow_copy: protection?.allow.contains(.copy) == true ? 1 : 0,
            allow_modify: protection?.allow.contains(.modify) == true ? 1 : 0,
            allow_annotate: protection?.allow.contains(.annotate) == true ? 1 : 0, signer: signer?.pointer,
            signing_time: Int64(Date().timeIntervalSince1970.clampedInt(.down)), signature_description: strings.pointers[5],
            identify: PDFFinisher.identify, identify_context: Unmanaged.passUnretained(digest).toOpaque(), output_fd: outputFD,
            absorb: PDFFinisher.absorb, attachments: nil, attachment_count: 0)
        // The assembly copies what it is given; the strings and bytes must outlive the call only.
        let created = withExtendedLifetime(strings) {
            profile.withUnsafeBytes { profile in
                finishing.icc_profile = archival ? profile.bindMemory(to: UInt8.self).baseAddress : nil
                return PDFFinisher.withAttachments(attachments, date: date) { described in
                    described.withUnsafeBufferPointer { described in
                        finishing.attachments = described.baseAddress
                        finishing.attachment_count = described.count
                        return folio_pdf_assembly_create(&finishing)
                    }
                }
            }
        }
        guard let created else {
            throw NativeLibraryError(.qpdf, operation: "finishing the PDF", status: nil, reason: "out of memory")
        }
        assembly = created
        self.signer = signer
        body = digest
        rewritesBody = protection != nil || signer != nil
    }

    deinit { folio_pdf_assembly_free(assembly) }

    /// Runs `body` with the attached files as the finishing step takes them, pointing into strings and
    /// bytes valid for the call: each file's name, MIME type, relationship, description, the
    /// document's date as a PDF date, its MD5 (the embedded file's /CheckSum, ISO 32000-1 table 46)
    /// and its bytes.
    private static func withAttachments<Result>(
        _ files: [AttachedFile], date: Date, _ body: ([folio_pdf_attachment]) -> Result
    ) -> Result {
        let stamp = "D:" + ISODate.dateTime(date.timeIntervalSince1970).prefix(19).filter(\.isNumber) + "Z"
        let strings = CStringArray(
            files.flatMap { file in
                let attachment = file.attachment
                return [
                    attachment.shownName, attachment.shownMimeType, attachment.relationship.rawValue,
                    attachment.description ?? attachment.shownName, stamp,
                ]
            })
        return withExtendedLifetime(strings) {
            withBytes(of: files) { buffers in
                let described = files.indices.map { index in
                    var entry = folio_pdf_attachment()
                    entry.name = strings.pointers[index * 5]
                    entry.mime_type = strings.pointers[index * 5 + 1]
                    entry.relationship = strings.pointers[index * 5 + 2]
                    entry.description = strings.pointers[index * 5 + 3]
                    entry.date = strings.pointers[index * 5 + 4]
                    withUnsafeMutableBytes(of: &entry.checksum) { checksum in
                        checksum.copyBytes(from: Array(Insecure.MD5.hash(data: files[index].bytes)))
                    }
                    entry.bytes = buffers[index].bindMemory(to: UInt8.self).baseAddress
                    entry.length = buffers[index].count
                    return entry
                }
                return body(described)
            }
        }
    }

    /// Runs `body` with the bytes of every file, from `index` on, valid for the call.
    private static func withBytes<Result>(
        of files: [AttachedFile], from index: Int = 0, collected: [UnsafeRawBufferPointer] = [],
        _ body: ([UnsafeRawBufferPointer]) -> Result
    ) -> Result {
        guard index < files.count else { return body(collected) }
        return files[index].bytes.withUnsafeBytes { raw in
            withBytes(of: files, from: index + 1, collected: collected + [raw], body)
        }
    }

    /// The SHA-256 of the finished body, taken for the file identifier and kept so that the whole
    /// file's digest continues from it (`fileDigest`) instead of reading the body a second time.
    /// A file written as it is made gives its bytes as they are written (`absorb`): the body's
    /// first bytes, then (`identify`) the rest of the body, then the trailer.
    private final class BodyDigest {
        var hasher = SHA256()
        var length = 0
        var taken = false
    }

    private let body: BodyDigest
    /// Whether the finished file is written again after its body was digested (encrypted or signed).
    private let rewritesBody: Bool
    /// The SHA-256 of the file `finish` returned, when it could be continued from its body's or was
    /// taken with a signature's digest.
    private(set) var fileDigest: [UInt8]?
    /// How many bytes of the file `finish` wrote to the output descriptor (0 when it returned them).
    private(set) var written = 0

    /// The file identifier of a finished body: the first 16 bytes of its SHA-256 (the same
    /// document, the same identifier). The digest's state is kept in `context`, a `BodyDigest`.
    private static let identify:
        @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<UInt8>?, Int, UnsafeMutablePointer<UInt8>?) -> Void = {
            context, bytes, length, identifier in
            guard let context, let identifier else { return }
            let body = Unmanaged<BodyDigest>.fromOpaque(context).takeUnretainedValue()
            body.hasher.update(bufferPointer: UnsafeRawBufferPointer(start: bytes, count: bytes == nil ? 0 : length))
            body.length += bytes == nil ? 0 : length
            body.taken = true
            let digest = body.hasher.finalize()
            digest.withUnsafeBytes { digest in
                for index in 0..<min(16, digest.count) { identifier[index] = digest[index] }
            }
        }

    /// Bytes of the finished file written to its descriptor, for its digest (see `BodyDigest`).
    private static let absorb: @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<UInt8>?, Int) -> Void = {
        context, bytes, length in
        guard let context, let bytes else { return }
        let body = Unmanaged<BodyDigest>.fromOpaque(context).takeUnretainedValue()
        body.hasher.update(bufferPointer: UnsafeRawBufferPointer(start: bytes, count: length))
        if !body.taken { body.length += length }
    }

    /// Finishes `pdf`, the next part Cairo wrote, whose figures, tables and links `structure` records.
    func add(_ pdf: Data, structure: StructureRecord) throws {
        try pdf.withUnsafeBytes { try add($0, structure: structure) }
    }

    /// Finishes the bytes of the next part Cairo wrote, whose figures, tables and links `structure` records.
    func add(_ pdf: UnsafeRawBufferPointer, structure: StructureRecord) throws {
        let figures = CStringArray(structure.figureAlternatives)
        let links = CStringArray(structure.linkDescriptions)
        let textLanguages = CStringArray(structure.textLanguages)
        let cellLanguages = CStringArray(structure.cellLanguages)
        let passageLanguages = CStringArray(structure.passageLanguages)
        let continues = CArray(structure.splitElements.map(\.rawValue))
        let spanningCells = CArray(structure.spanningCells.map(\.cell))
        let spanningColumns = CArray(structure.spanningCells.map(\.columns))
        let rowHeaders = CArray(structure.rowHeaderCells)
        let pictures = CArray(structure.pictures.map { Optional($0.pointer) })
        let marker = CStringArray([structure.pictures.isEmpty ? nil : PictureObjects.marker])
        var part = folio_pdf_part(
            figure_alternatives: figures.pointers, figure_count: figures.count, table_continues: continues.pointer,
            table_count: continues.count, spanning_cells: spanningCells.pointer, spanning_columns: spanningColumns.pointer,
            spanning_count: spanningCells.count, row_header_cells: rowHeaders.pointer, row_header_count: rowHeaders.count,
            link_descriptions: links.pointers, link_count: links.count,
            text_languages: textLanguages.pointers, text_language_count: textLanguages.count, cell_languages: cellLanguages.pointers,
            cell_language_count: cellLanguages.count, passage_languages: passageLanguages.pointers,
            passage_language_count: passageLanguages.count,
            picture_marker: marker.pointers[0], pictures: UnsafePointer(pictures.pointer),
            picture_count: pictures.count)
        var message = [CChar](repeating: 0, count: 512)
        // The C arrays must outlive the call: ARC may free a class instance after its last use.
        let status = withExtendedLifetime(
            (
                figures, links, textLanguages, cellLanguages, passageLanguages, continues, spanningCells, spanningColumns, rowHeaders,
                pictures,
                marker, structure.pictures
            )
        ) {
            folio_pdf_assembly_add(assembly, &part, pdf.bindMemory(to: UInt8.self).baseAddress, pdf.count, &message, message.count)
        }
        if status != 0 { throw PDFFinisher.failure(status: status, message: message) }
    }

    /// The finished PDF, with `outlines` as its bookmarks: its bytes, or none when it was written to
    /// the output descriptor (`written` says how many).
    func finish(outlines: [Outline]) throws -> Data {
        let titles = CStringArray(outlines.map(\.title))
        let entries = outlines.indices.map { index in
            folio_pdf_outline(
                title: titles.pointers[index], level: Int32(clamping: outlines[index].level), page: max(outlines[index].page, 0),
                x: outlines[index].x, y: outlines[index].y)
        }
        var output: OpaquePointer?
        var message = [CChar](repeating: 0, count: 512)
        let status = withExtendedLifetime((titles, signer)) {
            entries.withUnsafeBufferPointer { entries in
                folio_pdf_assembly_finish(assembly, entries.baseAddress, entries.count, &output, &message, message.count)
            }
        }
        guard status == 0, let output else { throw PDFFinisher.failure(status: status, message: message) }
        written = folio_pdf_output_written_length(output)
        if written > 0 {
            // Written to the descriptor as it was made: every byte went through the digest.
            folio_pdf_output_free(output)
            fileDigest = Array(body.hasher.finalize())
            return Data()
        }
        guard let bytes = folio_pdf_output_bytes(output) else {
            folio_pdf_output_free(output)
            throw PDFFinisher.failure(status: status, message: message)
        }
        let length = folio_pdf_output_length(output)
        var signedDigest = [UInt8](repeating: 0, count: 32)
        if folio_pdf_output_sha256(output, &signedDigest) == 1 {
            fileDigest = signedDigest
        } else if !rewritesBody, body.taken, body.length <= length {
            var file = body.hasher
            file.update(bufferPointer: UnsafeRawBufferPointer(start: bytes + body.length, count: length - body.length))
            fileDigest = Array(file.finalize())
        }
        // The finished bytes are handed over, not copied: a long document's PDF is tens of megabytes.
        let finished = FinishedPDF(output)
        return Data(
            bytesNoCopy: UnsafeMutableRawPointer(mutating: bytes), count: folio_pdf_output_length(output),
            deallocator: .custom { _, _ in finished.free() })
    }

    /// The error for a failed finishing call: running out of memory is the document's size, anything
    /// else qpdf's.
    private static func failure(status: Int32, message: [CChar]) -> Error {
        let reason = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        if reason.contains("bad_alloc") {
            return FolioError(
                path: "",
                "the document needs more memory than this process may use to finish the PDF (a render worker's --memory-limit)")
        }
        return NativeLibraryError(.qpdf, operation: "finishing the PDF", status: status, reason: reason)
    }

    /// 32 random hexadecimal digits (128 bits from the system's generator).
    static func randomPassword() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<4).map { _ in String(generator.next() as UInt32, radix: 16) }.map {
            String(repeating: "0", count: 8 - $0.count) + $0
        }.joined()
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

/// A finished PDF's C buffer, freed once by the `Data` that holds its bytes.
private final class FinishedPDF: @unchecked Sendable {
    private let output: OpaquePointer

    init(_ output: OpaquePointer) { self.output = output }

    func free() { folio_pdf_output_free(output) }
}
