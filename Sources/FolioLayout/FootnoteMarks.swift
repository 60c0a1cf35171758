import FolioModel

/// How a document's footnote citations are drawn: each `[^id]` run becomes its note's number, raised,
/// a link to the note (`footnote-N`), and the note itself a link back to where it is first cited
/// (`footnote-ref-N`). The numbers are the document's (`Document.footnoteNumbers`).
struct FootnoteMarks {
    /// Each cited note's number, by its id.
    let numbers: [String: Int]

    /// The anchor of note `number` (the foot of its page).
    static func noteAnchor(_ number: Int) -> String { "footnote-\(number)" }
    /// The anchor of note `number`'s first citation.
    static func referenceAnchor(_ number: Int) -> String { "footnote-ref-\(number)" }

    /// The note a link to `url` is the citation of, or nil.
    static func citedNote(_ url: String) -> Int? {
        guard url.hasPrefix("#footnote-"), !url.hasPrefix("#footnote-ref-") else { return nil }
        return Int(url.dropFirst("#footnote-".count))
    }

    /// `runs` with every citation written as its note's number, a link to the note.
    func resolved(_ runs: [TextRun]) -> [TextRun] {
        guard !numbers.isEmpty, runs.contains(where: { $0.footnote != nil }) else { return runs }
        return runs.map { run in
            guard let id = run.footnote, let number = numbers[id] else { return run }
            var marked = run
            marked.text = String(number)
            marked.link = .anchor(FootnoteMarks.noteAnchor(number))
            return marked
        }
    }
}
