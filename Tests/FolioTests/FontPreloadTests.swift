import XCTest

@testable import Folio
@testable import FolioGraphics
@testable import FolioInput
@testable import FolioLayout
@testable import FolioPango

/// The text engine, recording every font the layout asks it for.
private final class FontRecordingShaper: TextShaper {
    private let engine = PangoTextEngine()
    private(set) var fonts: Set<FontSpec> = []

    func measure(_ text: String, font: FontSpec) -> TextMetrics {
        fonts.insert(font)
        return engine.measure(text, font: font)
    }

    func singleLine(_ text: String, font: FontSpec) -> ShapedText {
        fonts.insert(font)
        return engine.singleLine(text, font: font)
    }

    func wrapped(
        _ runs: [TextRun], font: FontSpec, width: Double, alignment: Paragraph.Alignment, linkColor: Color?, lineSpacing: Double,
        direction: TextDirection?
    ) -> ShapedText {
        fonts.insert(font)
        return engine.wrapped(
            runs, font: font, width: width, alignment: alignment, linkColor: linkColor, lineSpacing: lineSpacing, direction: direction)
    }

    func lineWidth(_ text: String, font: FontSpec) -> Double {
        fonts.insert(font)
        return engine.lineWidth(text, font: font)
    }

    func wrappedHeight(_ text: String, font: FontSpec, width: Double, alignment: Paragraph.Alignment, lineSpacing: Double) -> Double {
        fonts.insert(font)
        return engine.wrappedHeight(text, font: font, width: width, alignment: alignment, lineSpacing: lineSpacing)
    }
}

private final class AnyPictures: PictureSupport {
    func decoding(_ image: ImageData) -> PictureDecoding { .decoded }
    var drawsSVG: Bool { true }
}

/// The fonts a process loads ahead of its first document (`Theme.commonFonts`, loaded while
/// `folio render` reads its arguments and document) are the ones a weekly summary is set in: a
/// font missing from the list costs the first layout in it 0.3 ms, one too many costs the loading
/// thread as much for nothing.
final class FontPreloadTests: XCTestCase {
    func testTheWeeklySummaryIsSetInExactlyTheFontsLoadedAheadOfIt() throws {
        let prepared = try TestSupport.sampleDocument().prepared(options: TestSupport.sampleOptions)
        let shaper = FontRecordingShaper()
        let layout = try DocumentLayout(prepared, shaper: shaper, pictures: AnyPictures())
        for page in 0..<layout.pageCount { _ = try layout.frame(ofPage: page) }
        let loaded = Theme.standard.commonFonts
        XCTAssertEqual(Set(loaded).count, loaded.count, "each font once")
        let describe = { (fonts: Set<FontSpec>) in
            fonts.map { "\($0.size)\($0.bold ? " bold" : "")\($0.italic ? " italic" : "")" }.sorted()
        }
        XCTAssertEqual(describe(shaper.fonts.subtracting(loaded)), [], "fonts the sample uses that are not loaded ahead of it")
        // Bold runs of body text (`**51%**` in the tip) reach their font through Pango's attributes, not the shaper.
        let theme = Theme.standard
        let throughRichText: Set<FontSpec> = [theme.font(theme.bodySize, bold: true)]
        let unused = Set(loaded).subtracting(shaper.fonts).subtracting(throughRichText)
        XCTAssertEqual(describe(unused), [], "fonts loaded ahead that the sample does not use")
    }
}
