import FolioModel

/// Cuts a very long paragraph into pieces laid out one after another. Pango 1.50 spends
/// time per line in proportion to the whole paragraph (attribute iterators and character
/// offsets counted from its start), so a 1 MB paragraph in one layout takes minutes;
/// in pieces of a few thousand characters it stays linear. Pieces end after a sentence
/// where one is near, else at a space; only a word longer than a piece is cut inside.
enum TextChunks {
    /// Paragraphs up to this many characters stay whole.
    static let threshold = 8_000
    /// The size of a piece, in characters.
    static let target = 3_000

    static func chunks(_ runs: [TextRun]) -> [[TextRun]] {
        let total = runs.reduce(0) { $0 + $1.text.utf8.count }
        guard total > threshold else { return [runs] }
        var chunks: [[TextRun]] = []
        var current: [TextRun] = []
        var count = 0
        func piece(_ run: TextRun, _ scalars: ArraySlice<Unicode.Scalar>) -> TextRun {
            TextRun(String(String.UnicodeScalarView(scalars)), bold: run.bold, italic: run.italic, link: run.link, language: run.language)
        }
        for run in runs {
            var scalars = Array(run.text.unicodeScalars)[...]
            while count + scalars.count > target {
                let room = max(target - count, 1)
                let window = scalars.prefix(room)
                var cut: Int?
                var sentence: Int?
                var index = window.endIndex - 1
                while index > window.startIndex {
                    if window[index].hasWhiteSpaceProperty {
                        if cut == nil { cut = index + 1 }
                        if ".!?".unicodeScalars.contains(window[index - 1]) {
                            sentence = index + 1
                            break
                        }
                        if index < window.startIndex + room * 2 / 3 { break }
                    }
                    index -= 1
                }
                if let sentence { cut = sentence }
                if cut == nil {
                    if count > 0 {
                        // No space in reach: end the piece before this run's text.
                        chunks.append(current)
                        current = []
                        count = 0
                        continue
                    }
                    cut = window.endIndex
                }
                let end = cut ?? window.endIndex
                current.append(piece(run, scalars[scalars.startIndex..<end]))
                chunks.append(current)
                current = []
                count = 0
                scalars = scalars[end...]
            }
            if !scalars.isEmpty {
                current.append(piece(run, scalars))
                count += scalars.count
            }
        }
        if !current.isEmpty { chunks.append(current) }
        return chunks
    }
}
