import FolioGraphics
import FolioModel

/// Starts a section: a new page whose numbering restarts; its heading follows as a `TextFlowable`.
final class SectionFlowable: Flowable {
    let section: Section
    init(_ section: Section) { self.section = section }
    var height: Double { 0 }
    var spaceBefore: Double { 0 }
    var isPageBreak: Bool { true }
    func draw(on canvas: PageCanvas, at origin: Point) {}
}
