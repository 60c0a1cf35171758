import Foundation

/// Cairo 1.16 has no setting for the document language, nor does it mark tagged
/// output as such, so both are added afterwards as a PDF incremental update: the
/// catalog again, with `/Lang`, `/MarkInfo` and `/ViewerPreferences`, a one-entry
/// cross-reference section and a trailer pointing back at Cairo's.
enum PDFCatalogUpdate {
    static func adding(language: String, to pdf: Data) -> Data {
        guard !language.isEmpty, language.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" }),
            let tail = String(data: pdf.suffix(2048), encoding: .isoLatin1),
            let trailerRange = tail.range(of: "trailer", options: .backwards),
            let root = number(after: "/Root", in: tail[trailerRange.upperBound...]),
            let size = number(after: "/Size", in: tail[trailerRange.upperBound...]),
            let startxrefRange = tail.range(of: "startxref", options: .backwards),
            let previous = number(after: "", in: tail[startxrefRange.upperBound...])
        else { return pdf }
        let info = number(after: "/Info", in: tail[trailerRange.upperBound...])
        guard let catalog = catalogDictionary(object: root, in: pdf) else { return pdf }
        var entries = "   /Lang (\(language))\n   /ViewerPreferences << /DisplayDocTitle true >>\n"
        if catalog.contains("/StructTreeRoot") && !catalog.contains("/MarkInfo") { entries += "   /MarkInfo << /Marked true >>\n" }
        var update = "\n\(root) 0 obj\n" + catalog.dropLast(2) + entries + ">>\nendobj\n"
        let objectOffset = pdf.count + 1
        let xrefOffset = pdf.count + update.utf8.count
        update += "xref\n\(root) 1\n" + String(format: "%010d 00000 n \n", objectOffset)
        update += "trailer\n<< /Size \(size)\n   /Root \(root) 0 R\n"
        if let info { update += "   /Info \(info) 0 R\n" }
        update += "   /Prev \(previous)\n>>\nstartxref\n\(xrefOffset)\n%%EOF\n"
        return pdf + Data(update.utf8)
    }

    private static func number(after key: String, in text: Substring) -> Int? {
        guard let range = key.isEmpty ? text.startIndex..<text.startIndex : text.range(of: key) else { return nil }
        let digits = text[range.upperBound...].drop { $0 == " " || $0 == "\n" || $0 == "\r" }.prefix { $0.isNumber }
        return Int(digits)
    }

    /// The text of `<< … >>` of object `number`, found from the end of the file.
    private static func catalogDictionary(object number: Int, in pdf: Data) -> String? {
        let marker = Data("\n\(number) 0 obj\n".utf8)
        guard let start = pdf.range(of: marker, options: .backwards)?.upperBound,
            let end = pdf.range(of: Data("endobj".utf8), in: start..<pdf.count)?.lowerBound,
            let body = String(data: pdf[start..<end], encoding: .isoLatin1)?.trimmingCharacters(in: .whitespacesAndNewlines),
            body.hasPrefix("<<"), body.hasSuffix(">>"), body.contains("/Type /Catalog"), !body.contains("/Lang")
        else { return nil }
        return body
    }
}
