import FolioCharts
import FolioGraphics
import FolioModel

extension Widgets: LaidOutBlock {
    /// A row of tiles of equal width, each with its title, value and detail.
    func flowables(in builder: FlowableBuilder, path: String) throws -> [Flowable] {
        let theme = builder.theme
        let textWidth = WidgetsFlowable.textWidth(frame: builder.width, count: items.count)
        let numbers = NumberFormat(builder.strings)
        let tiles = items.enumerated().map { index, item in
            WidgetsFlowable.Tile(
                title: builder.body([TextRun(item.title)], width: textWidth, size: theme.smallSize + 0.5, path: path),
                value: builder.body([TextRun(item.value)], width: textWidth, size: theme.widgetValueSize, bold: true, path: path),
                detail: item.detail.map { builder.body([TextRun($0)], width: textWidth, size: theme.smallSize, path: path) },
                tint: item.tint ?? theme.seriesColor(index + 1), sparkline: item.sparkline,
                sparklineWords: item.sparkline.map {
                    builder.body([TextRun(Sparkline.words($0, numbers: numbers))], width: textWidth, size: theme.smallSize, path: path)
                })
        }
        return [WidgetsFlowable(tiles: tiles, width: builder.width, theme: theme, rightToLeft: builder.strings.isRightToLeft)]
    }
}
