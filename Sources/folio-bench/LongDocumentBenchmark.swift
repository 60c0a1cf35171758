import Foundation

/// Long documents of distinct paragraphs (a clinic's notes exported whole), 1,000, 4,000 and 10,000
/// pages, each rendered by `folio render` in a process of its own from a JSON file, as a user would:
/// time and peak memory, which should stay within a constant of a short document's.
enum LongDocumentBenchmark {
    /// Paragraphs of about 90 words fill a page about 6.8 at a time.
    static let paragraphsPerPage = 6.8
    /// The page counts measured.
    static let pageCounts = [1_000, 4_000, 10_000]

    /// Writes the document of about `pages` pages into `folder` (once; the same seed every time).
    static func document(pages: Int, in folder: URL) throws -> URL {
        let url = folder.appendingPathComponent("long-\(pages)-pages.json")
        if FileManager.default.fileExists(atPath: url.path) { return url }
        let words = [
            "patient", "reading", "pressure", "heart", "rate", "glucose", "morning", "evening", "review", "plan", "dose", "tablet",
            "walk", "sleep", "weight", "change", "note", "team", "clinic", "visit", "stable", "higher", "lower", "than", "last",
            "week", "after", "breakfast", "before", "dinner", "reported", "dizziness", "none", "follow", "up", "call", "nurse",
        ]
        var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> Int {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(truncatingIfNeeded: seed >> 33)
        }
        var json = #"{"title": "Care notes, "# + String(pages) + #" pages", "footer": "Page {page} of {pages}", "elements": ["#
        let count = Int((Double(pages) * paragraphsPerPage).rounded())
        for index in 0..<count {
            if index > 0 { json += "," }
            json += #"{"type": "paragraph", "text": "Note "# + String(index + 1) + "."
            for _ in 0..<90 { json += " " + words[next() % words.count] }
            json += #""}"#
        }
        json += "]}\n"
        try Data(json.utf8).write(to: url)
        return url
    }

    /// Renders each length with `folio` and prints its figures; returns the peak memory in MB by page count.
    @discardableResult
    static func run(folio: URL, bench: URL) -> [Int: Double] {
        print("Long documents of distinct paragraphs (folio render, JSON to PDF, a process each):")
        var peaks: [Int: Double] = [:]
        for pages in pageCounts {
            guard let input = try? document(pages: pages, in: bench) else {
                print("  \(pages) pages: cannot write the document")
                continue
            }
            let output = FileManager.default.temporaryDirectory.appendingPathComponent("folio-bench-long-\(getpid()).pdf")
            defer { try? FileManager.default.removeItem(at: output) }
            let start = Timing.now()
            guard let (status, peakKB) = ChildProcess.runMeasuringMemory([folio.path, "render", input.path, "-o", output.path]),
                status == 0
            else {
                print("  \(pages) pages: folio render failed")
                continue
            }
            let seconds = Timing.now() - start
            let bytes = (try? FileManager.default.attributesOfItem(atPath: output.path)[.size] as? Int) ?? 0
            let shown = pageCount(output) ?? 0
            peaks[pages] = Double(peakKB) / 1024
            print(
                String(
                    format: "  %6d pages (%d in the PDF): %.1f s, %d KB PDF, peak memory %.1f MB (%.1f KB a page)", pages, shown, seconds,
                    bytes / 1024, Double(peakKB) / 1024, Double(peakKB) / Double(max(shown, 1))))
        }
        return peaks
    }

    /// The number of pages of the PDF at `url`, as qpdf counts them (nil without qpdf).
    private static func pageCount(_ url: URL) -> Int? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/qpdf")
        process.arguments = ["--show-npages", url.path]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return nil }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Int(String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
    }
}
