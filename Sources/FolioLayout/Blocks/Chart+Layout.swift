import FolioCharts
import FolioGraphics
import FolioModel
import Foundation

extension Chart: LaidOutBlock {
    /// The most rows of a chart's data table the PDF prints under it (about a page).
    static let printedDataRows = 60

    /// The chart's drawing at the column's width, with its title and caption: a figure whose text
    /// alternative is the author's alt or a description of the data.
    func flowables(in builder: FlowableBuilder, path: String) throws -> [Flowable] {
        let theme = builder.theme
        let renderer = ChartRenderer(measurer: builder.text, theme: theme, strings: builder.strings)
        let drawing = renderer.drawing(for: self, width: builder.width)
        if let alt, alt.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
            builder.warn(
                LayoutReport.Warning(
                    kind: .missingAlt, path: "\(path).alt",
                    message: "the chart's alt is blank, so its text alternative is described from its data"
                ))
        }
        if renderer.repeatsColors(self) {
            builder.warn(
                LayoutReport.Warning(
                    kind: .colorsRepeat, path: path,
                    message:
                        "more series than the \(theme.distinguishableColors) colours the palette gives in its shades, so some share a colour; give them tints"
                ))
        }
        let faint = renderer.lowContrastColors(self)
        if !faint.isEmpty {
            let listed = faint.prefix(4).map {
                "\($0.field) \($0.color.hex) (\(String(format: "%.1f", $0.color.contrast(with: .white))):1)"
            }
            builder.warn(
                LayoutReport.Warning(
                    kind: .lowContrast, path: path,
                    message: "bars, lines and markers need 3:1 contrast against the page (WCAG 1.4.11); "
                        + listed.joined(separator: ", ") + (faint.count > 4 ? " and \(faint.count - 4) more" : "")
                        + " have less: choose darker tints or palette colours"
                ))
        }
        let titleText = title.map { builder.body([TextRun($0)], width: builder.width, size: theme.bodySize + 1, bold: true, path: path) }
        let captionText = builder.caption(caption)
        let width = builder.width
        func figure(_ drawing: Drawing, refit: ((Double) -> FigureFlowable?)?, shrinkable: Double = 0) -> FigureFlowable {
            FigureFlowable(
                content: .drawing(drawing), title: titleText, caption: captionText, frameWidth: width,
                textColor: theme.text, captionColor: theme.muted, alternative: drawing.description, refit: refit,
                shrinkable: shrinkable)
        }
        // Where the page has less room than the chart, it is drawn with a shorter plot, down to the
        // minHeight its author allows (half its plot by default), rather than move whole and leave a gap.
        let natural = ChartRenderer.plotHeight(of: self)
        let least = Swift.min(natural, minHeight?.points ?? (natural * Chart.defaultLeastPlotShare).rounded(.up))
        let whole = figure(drawing, refit: nil)
        let refit: ((Double) -> FigureFlowable?)? =
            least < natural
            ? { available in
                let plot = (natural - (whole.height - available)).rounded(.down)
                guard plot >= least, plot < natural else { return nil }
                var shorter = self
                shorter.height = Length(points: plot)
                return figure(renderer.drawing(for: shorter, width: width), refit: nil)
            } : nil
        let chartFigure = figure(drawing, refit: refit, shrinkable: natural - least)
        guard dataTable, printsDataTable else { return [chartFigure] }
        // The data as a table under the chart, as the HTML gives it: captioned by the chart's title.
        // Long data (a session's 300 readings) would turn a two-page summary into twelve: it stays
        // in the HTML's collapsed table, and the layout report says so.
        let data = ChartDataTable(self, strings: builder.strings)
        guard data.rows.count <= Chart.printedDataRows else {
            builder.warn(
                LayoutReport.Warning(
                    kind: .overflow, path: "\(path).dataTable",
                    message:
                        "the data table has \(data.rows.count) rows, more than the \(Chart.printedDataRows) the PDF prints under a chart; it is in the HTML, and the chart's text alternative summarises it"
                ))
            return [chartFigure]
        }
        let caption = title.map { "\($0): \(builder.strings[.data])" } ?? builder.strings[.data]
        return [chartFigure] + (try data.table(caption: caption).flowables(in: builder, path: "\(path).dataTable"))
    }
}
