import Folio
import FolioHTML
import FolioPDF
import Foundation

/// Times each chart family of the gallery (layout + SVG, and a one-chart PDF),
/// and a 100,000-point line chart to PDF and to SVG.
enum ChartBenchmark {
    static func run(gallery: URL, repetitions: Int) throws {
        let document = try DocumentDecoder.decode(try Data(contentsOf: gallery), format: .yaml)
        let measurer = PangoTextEngine()
        let renderer = ChartRenderer(measurer: measurer)
        var seen = Set<String>()
        print("Charts (layout + SVG replay; one-chart PDF), median of \(repetitions):")
        for case .chart(let chart) in document.elements where seen.insert(chart.kind + (chartVariant(chart))).inserted {
            let layout = Timing.median(repetitions) {
                let drawing = renderer.drawing(for: chart, width: 482)
                _ = SVGCanvas.svgMarkup(drawing, id: "c", title: "", fontFamily: "DejaVu Sans")
            }
            let single = Document(title: "Chart", elements: [.chart(chart)])
            let pdf = try Timing.median(repetitions) { _ = try single.pdf() }
            print(
                String(
                    format: "  %-22@ layout+SVG %7.3f ms   PDF %6.2f ms", "\(chart.kind)\(chartVariant(chart))" as NSString,
                    layout * 1000, pdf * 1000))
        }

        let count = 100_000
        let values: [Double?] = (0..<count).map { index -> Double? in
            let wave: Double = 30 * sin(Double(index) / 700)
            let noise = Double((index * 7919) % 13) - 6
            return 70 + wave + noise
        }
        let big = Chart(
            title: "100,000 points", xAxis: ChartAxis(title: "Sample"),
            .line(LineChart(x: .numbers((0..<count).map(Double.init)), plots: [LinePlot(title: "Signal", values: values)])))
        let bigDocument = Document(title: "Large line chart", elements: [.chart(big)])
        let untagged = Document(title: "Large line chart", metadata: Metadata(tagged: false), elements: [.chart(big)])
        let untaggedTime = try Timing.median(5) { _ = try untagged.pdf() }
        var pdfSize = 0
        var svgSize = 0
        let pdfTime = try Timing.median(5) { pdfSize = try bigDocument.pdf().count }
        let svgTime = Timing.median(5) {
            svgSize = SVGCanvas.svgMarkup(renderer.drawing(for: big, width: 482), id: "c", title: "", fontFamily: "DejaVu Sans").utf8.count
        }
        print(
            String(
                format: "100,000-point line chart: PDF %.1f ms (untagged %.1f ms), %d KB; SVG %.1f ms, %d KB", pdfTime * 1000,
                untaggedTime * 1000, pdfSize / 1024, svgTime * 1000, svgSize / 1024))
    }

    private static func chartVariant(_ chart: Chart) -> String {
        if case .bar(let bar) = chart.body {
            return bar.stacked ? " stacked" : bar.orientation == .horizontal ? " horizontal" : ""
        }
        return ""
    }
}

/// Wall-clock helpers.
enum Timing {
    static func now() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }

    /// Median seconds of `count` runs after one warm-up.
    static func median(_ count: Int, _ body: () throws -> Void) rethrows -> Double {
        try body()
        var samples: [Double] = []
        for _ in 0..<count {
            let start = now()
            try body()
            samples.append(now() - start)
        }
        return samples.sorted()[samples.count / 2]
    }
}
