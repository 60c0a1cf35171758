import Foundation
import FolioCharts
import FolioGraphics
import FolioModel

/// Turns a document's title and blocks into flowables at the content width.
struct FlowableBuilder {
    let text: PangoTextEngine
    let theme: Theme
    let width: Double
    let baseDirectory: URL?

    func flowables(for document: Document) throws -> [Flowable] {
        var result: [Flowable] = [heading(document.title, size: theme.titleSize, spaceBefore: 0)]
        for (index, block) in document.elements.enumerated() {
            result.append(try flowable(for: block, path: "elements[\(index)]"))
        }
        return result
    }

    private func heading(_ string: String, size: Double, spaceBefore: Double) -> TextFlowable {
        let layout = text.paragraph([TextRun(string)], font: theme.font(size, bold: true), width: width, lineSpacing: 1.1)
        return TextFlowable(layout: layout, color: theme.text, spaceBefore: spaceBefore, keepWithNext: true)
    }

    private func body(_ runs: [TextRun], width: Double, size: Double? = nil, bold: Bool = false) -> TextLayout {
        text.paragraph(runs, font: theme.font(size ?? theme.bodySize, bold: bold), width: width, linkColor: theme.accent)
    }

    func flowable(for block: Block, path: String) throws -> Flowable {
        switch block {
        case .subtitle(let subtitle):
            return heading(subtitle.text, size: theme.subtitleSize, spaceBefore: 16)
        case .paragraph(let paragraph):
            return TextFlowable(layout: body(paragraph.text.runs, width: width), color: theme.text, spaceBefore: 6)
        case .image(let image):
            let data = try ImageLoader.load(image, path: path, baseDirectory: baseDirectory)
            let natural = Double(data.pixelWidth) * 0.75
            let shownWidth = min(image.width?.points ?? natural, width)
            let size = Size(shownWidth, shownWidth * Double(data.pixelHeight) / Double(data.pixelWidth))
            return FigureFlowable(content: .image(data, size), title: nil, caption: caption(image.caption),
                                  frameWidth: width, textColor: theme.text, captionColor: theme.muted)
        case .table(let table):
            return TableFlowable(layout: TableLayout(table: table, width: width, text: text, theme: theme),
                                 range: 0..<table.rows.count, showsCaption: true)
        case .chart(let chart):
            let drawing = ChartRenderer(measurer: text, theme: theme).drawing(for: chart, width: width)
            let title = chart.title.map { body([TextRun($0)], width: width, size: theme.bodySize + 1, bold: true) }
            return FigureFlowable(content: .drawing(drawing), title: title, caption: caption(chart.caption),
                                  frameWidth: width, textColor: theme.text, captionColor: theme.muted)
        case .message(let message):
            let textWidth = MessageFlowable.textWidth(frame: width)
            var titleRuns: [TextRun] = []
            if let label = message.kind.label { titleRuns.append(TextRun(label + ": ", bold: true)) }
            titleRuns.append(TextRun(message.title, bold: true))
            let bodyLayout = message.text.runs.isEmpty ? nil : body(message.text.runs, width: textWidth)
            return MessageFlowable(title: body(titleRuns, width: textWidth), body: bodyLayout,
                                   tint: message.effectiveTint, width: width, textColor: theme.text)
        case .widgets(let widgets):
            let textWidth = WidgetsFlowable.textWidth(frame: width, count: widgets.items.count)
            let tiles = widgets.items.enumerated().map { index, item in
                WidgetsFlowable.Tile(
                    title: body([TextRun(item.title)], width: textWidth, size: theme.smallSize + 0.5),
                    value: body([TextRun(item.value)], width: textWidth, size: theme.widgetValueSize, bold: true),
                    detail: item.detail.map { body([TextRun($0)], width: textWidth, size: theme.smallSize) },
                    tint: item.tint ?? theme.seriesColor(index + 1))
            }
            return WidgetsFlowable(tiles: tiles, width: width, theme: theme)
        case .pageBreak:
            return PageBreakFlowable()
        }
    }

    private func caption(_ string: String?) -> TextLayout? {
        string.map { text.paragraph([TextRun($0)], font: theme.font(theme.smallSize + 1, italic: true), width: width) }
    }
}
