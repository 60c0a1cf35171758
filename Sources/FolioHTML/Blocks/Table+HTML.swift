import FolioModel

extension Table: HTMLBlock {
    /// The table in its scrolling region.
    func html(in writer: inout HTMLBodyWriter, path: String) throws -> HTML {
        try writer.tableHTML(self)
    }
}
