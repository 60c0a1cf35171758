import Folio
import FolioHTML
import FolioPango
import FolioTemplate
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

        try liveChart(repetitions: Swift.max(repetitions, 20), renderer: renderer)

        let count = 100_000
        let values = signal(count: count, level: 70, amplitude: 30, period: 700, noise: 13)
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

    /// `count` readings around `level`: a slow wave of `amplitude` plus repeatable noise of `noise` steps.
    private static func signal(count: Int, level: Double, amplitude: Double, period: Double, noise: Int) -> [Double?] {
        (0..<count).map { index -> Double? in
            let wave: Double = amplitude * sin(Double(index) / period)
            return level + wave + Double((index * 7919) % noise - noise / 2)
        }
    }

    /// The README's live-data case: a portal re-rendering a 10,000-point heart-rate chart as an
    /// HTML fragment each time readings arrive. Target: the chart's SVG under 5 ms.
    static func liveChart(repetitions: Int, renderer: ChartRenderer) throws {
        let count = 10_000
        let readings = signal(count: count, level: 72, amplitude: 18, period: 300, noise: 9)
        let chart = Chart(
            title: "Heart rate", xAxis: ChartAxis(title: "Seconds", format: .duration), yAxis: ChartAxis(title: "bpm"),
            thresholds: [ChartThreshold(kind: .greaterThan, value: 100, label: "100 bpm")],
            .line(LineChart(x: .numbers((0..<count).map(Double.init)), plots: [LinePlot(title: "Heart rate", values: readings)])))
        var svgSize = 0
        let svg = Timing.median(repetitions) {
            svgSize =
                SVGCanvas.svgMarkup(renderer.drawing(for: chart, width: 600), id: "c", title: "", fontFamily: "DejaVu Sans")
                .utf8.count
        }
        let document = Document(title: "Heart rate", elements: [.chart(chart)])
        var fragmentSize = 0
        let fragment = try Timing.median(repetitions) {
            fragmentSize = try document.html(options: RenderOptions(fragment: true)).utf8.count
        }
        print(
            String(
                format: "10,000-point line chart (live data): SVG %.2f ms, %d KB (target ≤ 5 ms: %@); "
                    + "HTML fragment (wide and narrow layouts) %.2f ms, %d KB",
                svg * 1000, svgSize / 1024, (svg <= 0.005 ? "holds" : "MISSED") as NSString, fragment * 1000, fragmentSize / 1024))
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
