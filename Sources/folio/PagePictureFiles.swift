import Folio
import FolioFiles
import Foundation

/// Where `folio render --format png` writes each page, and its text beside it: `-o page-%d.png`
/// numbers the pages into the name; a one-page document is written to `-o`'s name itself, a longer
/// one's pages as NAME-1.png, NAME-2.png. Each page's text in reading order goes to the same name
/// with `.txt`. Every file is written whole (atomically); when drawing stops part-way, the pages
/// written so far are removed again, so no half set is left.
struct PagePictureFiles {
    /// The output as given (`page-%d.png`, `summary.png`).
    let pattern: String
    /// Pages (and text files) written so far.
    private(set) var written: [URL] = []

    /// Files named from `pattern`; standard output cannot hold several pictures.
    init(pattern: String) throws {
        guard pattern != "-" else {
            throw FolioError(path: "", "-o: PNG pages are files, one per page; give a name such as page-%d.png")
        }
        self.pattern = pattern
    }

    /// The picture of page `number` of `count`.
    func path(ofPage number: Int, of count: Int) -> String {
        if pattern.contains("%d") {
            guard let range = pattern.range(of: "%d") else { return pattern }
            return pattern.replacingCharacters(in: range, with: String(number))
        }
        guard count > 1 else { return pattern }
        let base = pattern.lowercased().hasSuffix(".png") ? String(pattern.dropLast(4)) : pattern
        return "\(base)-\(number).png"
    }

    /// Writes `page` and its text, each whole.
    mutating func write(_ page: RasterRenderer.Page) throws {
        let picture = URL(fileURLWithPath: path(ofPage: page.number, of: page.count))
        let base = picture.pathExtension.lowercased() == "png" ? picture.deletingPathExtension() : picture
        let text = base.appendingPathExtension("txt")
        try AtomicFile.write(page.png, to: picture)
        written.append(picture)
        try AtomicFile.write(Data(page.text.utf8), to: text)
        written.append(text)
    }

    /// Removes every file written (after an error).
    func removeWritten() {
        for url in written { unlink(url.path) }
    }
}
