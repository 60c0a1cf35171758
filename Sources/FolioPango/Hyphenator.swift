import CHyphen
import FolioModel
import Foundation
import Synchronization

/// Where words of a language may break, from libhyphen and the TeX patterns Debian's `hyphen-*`
/// packages install (`/usr/share/hyphen/hyph_<language>.dic`). Justified text is given soft
/// hyphens (U+00AD) at those points, which Pango breaks at and draws as a hyphen only there.
/// A language without an installed dictionary is not hyphenated.
package final class Hyphenator {
    private let dictionary: UnsafeMutablePointer<HyphenDict>
    /// The encoding the dictionary's patterns are in (its first line): UTF-8 or ISO 8859-1 (German's).
    private let latin1: Bool
    /// Characters kept together at a word's end: 3, as TeX does, but 2 in German (its babel setting).
    private let keptAtEnd: Int

    private init?(path: String, language: String) {
        keptAtEnd = language == "de" ? 2 : 3
        // The first line names the encoding; one this reader cannot match words to is not loaded.
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        let head = (try? handle.read(upToCount: 64)) ?? Data()
        try? handle.close()
        let encoding = String(decoding: head.prefix { $0 != 0x0A && $0 != 0x0D }, as: UTF8.self).trimmingCharacters(in: .whitespaces)
        switch encoding.uppercased() {
        case "UTF-8": latin1 = false
        case "ISO8859-1", "ISO8859-15": latin1 = true
        default: return nil
        }
        guard let loaded = hnj_hyphen_load(path) else { return nil }
        dictionary = loaded
    }

    deinit { hnj_hyphen_free(dictionary) }

    /// Where Debian's hyphen packages put their dictionaries.
    static let folder = "/usr/share/hyphen"

    /// The dictionaries loaded so far, by language (nil: none installed), shared by every thread of
    /// the process: German's takes libhyphen over two seconds to load. Words are hyphenated under the lock.
    private static let loaded = Mutex<[String: Hyphenator?]>([:])

    /// `runs` with soft hyphens where `language`'s dictionary breaks their words, or as they are when
    /// none is installed; each dictionary is loaded once per process.
    package static func hyphenated(_ runs: [TextRun], language: String) -> [TextRun] {
        loaded.withLock { cache -> [TextRun] in
            let hyphenator: Hyphenator?
            if let known = cache[language] {
                hyphenator = known
            } else {
                hyphenator = forLanguage(language)
                cache[language] = .some(hyphenator)
            }
            return hyphenator?.hyphenated(runs) ?? runs
        }
    }

    /// The hyphenator for `language` (a BCP 47 tag such as `en`, `fr-CA`, `de-CH`), or nil when
    /// no dictionary of it is installed: the whole dictionary is read (use `hyphenated(_:language:)`,
    /// which keeps it).
    package static func forLanguage(_ language: String) -> Hyphenator? {
        let parts = language.split(whereSeparator: { $0 == "-" || $0 == "_" }).map(String.init)
        guard let primary = parts.first?.lowercased(), primary.count <= 8, primary.allSatisfy(\.isLetter) else { return nil }
        let region = parts.dropFirst().first { $0.count == 2 && $0.allSatisfy(\.isLetter) }?.uppercased()
        // The region asked for, the language alone, then its home region (Debian installs
        // Spanish and Italian only as hyph_es_ES, hyph_it_IT).
        let names = [region.map { "hyph_\(primary)_\($0).dic" }, "hyph_\(primary).dic", "hyph_\(primary)_\(primary.uppercased()).dic"]
            .compactMap { $0 }
        return names.lazy.compactMap { name -> Hyphenator? in
            let path = "\(folder)/\(name)"
            return FileManager.default.fileExists(atPath: path) ? Hyphenator(path: path, language: primary) : nil
        }.first
    }

    /// Words shorter than this are never hyphenated.
    static let shortestWord = 6
    /// Characters kept together at a word's start.
    static let keptAtStart = 2

    /// `runs` with soft hyphens at the break points of their words: words of letters only, in runs
    /// that are not addresses. Text with nothing to hyphenate is returned as it is.
    package func hyphenated(_ runs: [TextRun]) -> [TextRun] {
        runs.map { run in
            guard !run.text.contains("://"), !run.text.contains("@") else { return run }
            var copy = run
            copy.text = hyphenated(run.text)
            return copy
        }
    }

    /// `text` with soft hyphens at its words' break points.
    func hyphenated(_ text: String) -> String {
        var result = ""
        var word = ""
        var changed = false
        func flush() {
            if word.count >= Hyphenator.shortestWord {
                let broken = hyphenatedWord(word)
                if broken.utf8.count != word.utf8.count { changed = true }
                result += broken
            } else {
                result += word
            }
            word = ""
        }
        for character in text {
            if character.isLetter {
                word.append(character)
            } else {
                flush()
                result.append(character)
            }
        }
        flush()
        return changed ? result : text
    }

    /// `word` with a soft hyphen at each break point libhyphen finds (none in words it cannot read).
    private func hyphenatedWord(_ word: String) -> String {
        let characters = Array(word)
        let lower = characters.map { $0.lowercased() }
        // The word in the dictionary's encoding, and after which byte each character ends.
        var bytes: [UInt8] = []
        var ends: [Int] = []
        for character in lower {
            if latin1 {
                guard character.unicodeScalars.count == 1, let scalar = character.unicodeScalars.first, scalar.value < 256 else {
                    return word
                }
                bytes.append(UInt8(truncatingIfNeeded: scalar.value))
            } else {
                bytes += Array(character.utf8)
            }
            ends.append(bytes.count - 1)
        }
        guard bytes.count < 256, let size = Int32(exactly: bytes.count) else { return word }
        var points = [CChar](repeating: 0, count: bytes.count + 5)
        // libhyphen writes non-standard breaks (German "Schiff=fahrt") here, allocating them; they are freed unused.
        var replacements: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
        var positions: UnsafeMutablePointer<Int32>?
        var cuts: UnsafeMutablePointer<Int32>?
        let status = bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { text in
                hnj_hyphen_hyphenate3(
                    dictionary, text.baseAddress, size, &points, nil, &replacements, &positions, &cuts,
                    Int32(Hyphenator.keptAtStart), Int32(keptAtEnd), Int32(Hyphenator.keptAtStart), Int32(keptAtEnd))
            }
        }
        if let replacements {
            for index in 0..<bytes.count { free(replacements[index]) }
            free(replacements)
        }
        free(positions)
        free(cuts)
        guard status == 0 else { return word }
        // An odd value after a character's last byte is a break after it (never after the last).
        var out = ""
        for (index, character) in characters.enumerated() {
            out.append(character)
            if index < characters.count - 1, points[ends[index]] & 1 == 1 { out.append("\u{AD}") }
        }
        return out
    }
}
