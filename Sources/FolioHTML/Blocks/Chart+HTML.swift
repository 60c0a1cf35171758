import FolioCharts
import FolioModel

extension Chart: HTMLBlock {
    /// A figure with the chart's title, its screen layouts as inline SVG, its data table on request and its caption.
    func html(in writer: inout HTMLBodyWriter, path: String) throws -> HTML {
        var html: HTML = "<figure class=\"folio-chart\">"
        if let title { html += "<div class=\"folio-figure-title\">\(title)</div>" }
        html += writer.charts.markup(for: self, ids: &writer.ids, fontFamily: writer.theme.fontFamily)
        if dataTable {
            let data = ChartDataTable(self, strings: writer.strings)
            html += "<details class=\"folio-chart-data\"><summary>\(writer.strings[.data])</summary>"
            // Its region is named by the chart: "Heart rate: Data", not one more "Table".
            let name = title.map { "\($0): \(writer.strings[.data])" } ?? writer.strings[.data]
            html += try writer.tableHTML(data.table(), regionName: name)
            html += "</details>"
        }
        if let caption { html += "<figcaption>\(caption)</figcaption>" }
        return html + "</figure>"
    }
}
