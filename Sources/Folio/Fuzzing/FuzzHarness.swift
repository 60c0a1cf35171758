import Foundation

/// What the fuzzer (`make fuzz`) and the regression tests feed every input through:
/// decode (JSON when it starts with `{`, else YAML), validate, lay out, and render to PDF
/// and to HTML page, fragment and shadow; a PNG or JPEG is rendered as an image block.
/// Errors are expected; a trap, a hang or unbounded memory is what the fuzzer finds.
package enum FuzzHarness {
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
