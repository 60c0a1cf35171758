import Folio
import FolioFHIR
import FolioTemplate
import Foundation

/// What the fuzzer (`make fuzz`) and the regression tests feed every input through:
/// decode (JSON when it starts with `{`, else YAML), validate, lay out, and render to PDF
/// and to HTML page, fragment and shadow; a PNG or JPEG is rendered as an image block.
/// Other surfaces read the input as an SVG picture or as header, footer and pattern texts
/// (`Surface`); the service's request path has its own (`ServiceFuzzHarness`).
/// Errors are expected; a trap, a hang or unbounded memory is what the fuzzer finds.
package enum FuzzHarness {
    /// What an input is read as.
    package enum Surface: String, Sendable, CaseIterable {
        /// A whole document (JSON or YAML), or an image.
        case document
        /// The markup of an `svg` block, shown at its own width and at 400 pt.
        case svg
        /// Texts of the page header, footer and built-in sentence patterns: the input's lines are
        /// the header's left, centre and right, the footer's left and right, and the `points` pattern.
        case runningText = "running-text"
        /// A FHIR Bundle, a single resource or NDJSON lines, read into records for a week in New York.
        case fhir
    }

    /// Runs one input read as `surface`; returns the error message, or nil when it rendered.
    @discardableResult
    package static func run(_ data: Data, surface: Surface) -> String? {
        switch surface {
        case .document: return run(data)
        case .svg: return runSVG(data)
        case .runningText: return runRunningText(data)
        case .fhir: return runFHIR(data)
        }
    }

    private static func runFHIR(_ data: Data) -> String? {
        do {
            // A week (as a weekly batch reads), or all of the data (as a patient summary does), by the input's length.
            let options = try FHIRImportOptions(
                period: data.count % 2 == 0 ? "2026-11-09/P7D" : nil, zone: "America/New_York", allPatients: true)
            let export: FHIRExport
            if data.first == UInt8(ascii: "{"), data.contains(0x0A), !data.starts(with: Data(#"{"resourceType":"Bundle""#.utf8)) {
                // NDJSON lines, through the file reader.
                let folder = FileManager.default.temporaryDirectory.appendingPathComponent("folio-fuzz-fhir-\(getpid())")
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                let file = folder.appendingPathComponent("Observation.ndjson")
                try data.write(to: file)
                export = try FHIRExport(path: file.path, options: options)
            } else {
                export = try FHIRExport(bundle: data, options: options)
            }
            try export.forEachRecord { _ = $0.json }
            return nil
        } catch {
            return "\(error)"
        }
    }

    private static func renderEverywhere(_ document: Document) throws {
        _ = try document.pdfWithReport()
        for output in HTMLRenderer.Output.allCases {
            _ = try document.html(options: RenderOptions(html: output))
        }
    }

    private static func runSVG(_ data: Data) -> String? {
        let markup = String(decoding: data, as: UTF8.self)
        do {
            // The bytes as they are (encodings, DTDs) through the sanitiser, then drawn both ways.
            _ = try SanitizedSVG.sanitize(data, path: "svg", width: 400)
            try renderEverywhere(
                Document(
                    title: "SVG",
                    elements: [
                        .svg(SVGBlock(source: .markup(markup), alt: "fuzzed")),
                        .svg(SVGBlock(source: .markup(markup), width: Length(points: 400), alt: "fuzzed")),
                    ]))
            return nil
        } catch {
            return "\(error)"
        }
    }

    private static func runRunningText(_ data: Data) -> String? {
        let lines = String(decoding: data, as: UTF8.self).split(separator: "\n", maxSplits: 5, omittingEmptySubsequences: false).map(
            String.init)
        func line(_ index: Int) -> String? { index < lines.count ? lines[index] : nil }
        var document = Document(
            title: "Running text", strings: .init(line(5).map { [.points: $0] } ?? [:]),
            elements: [
                .paragraph(Paragraph("One")), .pageBreak,
                .chart(.line(LineChart(x: .categories(["a", "b"]), plots: [LinePlot(title: "p", values: [1, 2])]), title: "C")),
            ])
        document.header = RunningLine(left: line(0), center: line(1), right: line(2))
        document.footer = RunningLine(left: line(3), right: line(4))
        do {
            try renderEverywhere(document)
            return nil
        } catch {
            return "\(error)"
        }
    }

    /// Runs one input; returns the error message, or nil when it rendered. `lenient` (the
    /// fuzzer's choice) lets unknown keys pass, so mutated documents reach layout more often.
    @discardableResult
    package static func run(_ data: Data, lenient: Bool = true) -> String? {
        do {
            let document: Document
            if ImageData(bytes: data) != nil {
                document = Document(title: "Image", elements: [.image(ImageBlock(source: .data(data), alt: "fuzzed"))])
                try document.validate()
            } else {
                let trimmed = data.drop { $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }
                let format: DocumentDecoder.Format = trimmed.first == UInt8(ascii: "{") ? .json : .yaml
                document = try DocumentDecoder.decode(data, format: format, lenient: lenient)
            }
            _ = try document.pdfWithReport()
            for output in HTMLRenderer.Output.allCases {
                _ = try document.html(options: RenderOptions(html: output))
            }
            return nil
        } catch {
            return "\(error)"
        }
    }
}
