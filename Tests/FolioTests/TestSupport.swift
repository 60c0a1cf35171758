import FolioWorkers
import Foundation
import XCTest

@testable import Folio
@testable import FolioCharts
@testable import FolioTemplate

/// Paths, processes and PDF tools shared by the tests.
enum TestSupport {
    /// The render workers (`folio __render-worker`) whose parent is `parent`, from /proc: each one's
    /// nice value and the CPU ticks (user + system) it has used.
    static func renderWorkers(of parent: pid_t) -> [(pid: pid_t, nice: Int, cpuTicks: Int)] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { name -> (pid: pid_t, nice: Int, cpuTicks: Int)? in
            guard let pid = pid_t(name),
                let stat = try? String(contentsOfFile: "/proc/\(name)/stat", encoding: .utf8),
                let command = try? String(contentsOfFile: "/proc/\(name)/cmdline", encoding: .utf8),
                command.contains(WorkerSettings.workerArgument),
                let close = stat.lastIndex(of: ")")
            else { return nil }
            // After the command: state (field 3 of the line), ppid (4), …, utime (14), stime (15), …, nice (19).
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            guard fields.count > 16, pid_t(fields[1]) == parent else { return nil }
            return (pid, Int(fields[16]) ?? 0, (Int(fields[11]) ?? 0) + (Int(fields[12]) ?? 0))
        }
    }

    /// The package's root folder.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    static let samples = root.appendingPathComponent("Samples")

    /// Skips a slow test in the fast unit suite (`make unit` sets FOLIO_UNIT_ONLY); CI runs it.
    /// Whole classes of such tests are named `…IntegrationTests` instead.
    static func integrationOnly() throws {
        try XCTSkipIf(ProcessInfo.processInfo.environment["FOLIO_UNIT_ONLY"] != nil, "integration test: run by make test")
    }

    /// The words of one page of `pdf` with their boxes, from `pdftotext -bbox`.
    static func words(_ pdf: Data, page: Int = 1) throws -> [(text: String, xMin: Double, yMin: Double, xMax: Double)] {
        let file = try temporaryFile(pdf, name: "words-\(page).pdf")
        let html = try run("pdftotext", ["-bbox", "-f", String(page), "-l", String(page), file.path, "-"]).text
        return html.matches(of: try Regex(#"<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="[\d.]+">([^<]*)</word>"#))
            .compactMap {
                guard let x0 = $0.output[1].substring.flatMap({ Double($0) }), let y0 = $0.output[2].substring.flatMap({ Double($0) }),
                    let x1 = $0.output[3].substring.flatMap({ Double($0) }), let word = $0.output[4].substring
                else { return nil }
                return (String(word), x0, y0, x1)
            }
    }

    /// A tool the test venv holds that is missing (`make test` installs them).
    struct MissingTool: Error, CustomStringConvertible {
        let path: String
        var description: String { "\(path) not found: run `make test`, which installs it into .venv" }
    }

    /// A tool of the test venv (outloud, pdfua, python): the path in the environment variable
    /// `variable` (set by `make test`), else `.venv/bin/NAME`; a missing one fails the test.
    static func venvTool(_ name: String, variable: String) throws -> String {
        let path = ProcessInfo.processInfo.environment[variable] ?? root.appendingPathComponent(".venv/bin/\(name)").path
        guard FileManager.default.isExecutableFile(atPath: path) else { throw MissingTool(path: path) }
        return path
    }

    /// The test venv's python (with fhir.resources, zxing-cpp, selenium).
    static func python() throws -> String { try venvTool("python", variable: "FOLIO_PYTHON") }

    /// Asserts that both PDF/UA checkers nobody here wrote pass every PDF at `paths`: outloud with
    /// warnings counted as failures, and pdfua with no errors and no warnings.
    static func assertPassesPDFUACheckers(_ paths: [String], file: StaticString = #filePath, line: UInt = #line) throws {
        let outloud = try venvTool("outloud", variable: "FOLIO_OUTLOUD")
        let pdfua = try venvTool("pdfua", variable: "FOLIO_PDFUA")
        let checked = try run(outloud, ["--fail-on", "warning", "--no-info"] + paths)
        XCTAssertEqual(checked.status, 0, checked.text, file: file, line: line)
        for path in paths {
            let result = try run(pdfua, ["check", path])
            XCTAssertTrue(result.text.contains("errors=0 warnings=0"), "\(path): \(result.text)", file: file, line: line)
        }
    }

    /// An error line with its `FILE:LINE:COLUMN: error: ` start said as `folio: error: `, for tests of
    /// the message itself (the place is tested in `SourceLocatorTests`).
    static func unlocated(_ line: String) -> String {
        line.replacing(#/^\S+:\d+:\d+: (error|warning): /#) { "folio: \($0.output.1): " }
    }

    /// The built `folio` executable, next to the test bundle.
    static var folioBinary: URL {
        var directory = Bundle.main.bundleURL
        for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
            directory = bundle.bundleURL.deletingLastPathComponent()
        }
        let candidate = directory.appendingPathComponent("folio")
        if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        return root.appendingPathComponent(".build/debug/folio")
    }

    struct Output {
        let status: Int32
        let stdout: Data
        let stderr: String
        var text: String { String(decoding: stdout, as: UTF8.self) }
    }

    /// Runs `executable` with `arguments`, feeding `input` on standard input.
    @discardableResult
    static func run(
        _ executable: String, _ arguments: [String], input: Data? = nil,
        environment: [String: String]? = nil
    ) throws -> Output {
        let process = Process()
        process.executableURL =
            executable.hasPrefix("/")
            ? URL(fileURLWithPath: executable)
            : URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = executable.hasPrefix("/") ? arguments : [executable] + arguments
        if let environment { process.environment = environment }
        let stdout = Pipe()
        let stderr = Pipe()
        let stdin = Pipe()
        process.standardOutput = stdout
        process.standardError = stderr
        process.standardInput = stdin
        try process.run()
        if let input { stdin.fileHandleForWriting.write(input) }
        try stdin.fileHandleForWriting.close()
        // Read both pipes while the process runs so neither fills up.
        let errorData = Locked(Data())
        let errorReader = Thread { errorData.set(stderr.fileHandleForReading.readDataToEndOfFile()) }
        errorReader.start()
        let outData = stdout.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        while !errorReader.isFinished { usleep(1000) }
        return Output(status: process.terminationStatus, stdout: outData, stderr: String(decoding: errorData.value, as: UTF8.self))
    }

    /// No loopback port could be bound.
    struct NoFreePort: Error {}

    /// A throw-away self-signed certificate for `localhost` and its key, made by openssl in
    /// `folder`: their paths.
    static func selfSignedCertificate(in folder: URL) throws -> (key: String, certificate: String) {
        let key = folder.appendingPathComponent("tls-key.pem").path
        let certificate = folder.appendingPathComponent("tls-cert.pem").path
        let made = try run(
            "openssl",
            ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", certificate, "-days", "2", "-subj", "/CN=localhost"])
        XCTAssertEqual(made.status, 0, made.stderr)
        return (key, certificate)
    }

    /// A loopback port no one listens on now.
    static func freePort() throws -> Int {
        let socket = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(socket, $0, length) == 0 && getsockname(socket, $0, &length) == 0
            }
        }
        guard bound else { throw NoFreePort() }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// One folder per test process for every temporary file, removed when the process exits.
    static let scratch: URL = {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("folio-tests-\(getpid())")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        atexit { try? FileManager.default.removeItem(at: TestSupport.scratch) }
        return url
    }()

    /// A fresh temporary folder.
    static func temporaryDirectory() throws -> URL {
        let url = scratch.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Writes `data` to a temporary file named `name` and returns its URL.
    static func temporaryFile(_ data: Data, name: String) throws -> URL {
        let url = try temporaryDirectory().appendingPathComponent(name)
        try data.write(to: url)
        return url
    }

    /// The PDF's objects as text, written by qpdf without object streams (Folio packs every object
    /// that is not a stream into compressed object streams) and with every stream uncompressed.
    static func readablePDF(_ pdf: Data) throws -> String {
        let input = try temporaryFile(pdf, name: "packed.pdf")
        let output = input.deletingLastPathComponent().appendingPathComponent("readable-\(UUID().uuidString).pdf")
        let written = try run("qpdf", ["--object-streams=disable", "--stream-data=uncompress", input.path, output.path])
        guard written.status == 0 else { throw FolioError(path: "", "qpdf could not rewrite the PDF: \(written.stderr)") }
        return String(decoding: try Data(contentsOf: output), as: UTF8.self)
    }

    /// The text of each page, as `pdftotext -layout` sees it.
    static func pageTexts(_ pdf: Data) throws -> [String] {
        let file = try temporaryFile(pdf, name: "doc.pdf")
        let text = try run("pdftotext", ["-layout", file.path, "-"]).text
        var pages = text.components(separatedBy: "\u{0C}")
        if pages.last?.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty == true { pages.removeLast() }
        return pages
    }

    /// The text of the whole PDF, as pdftotext reads it.
    static func pdfText(_ pdf: Data) throws -> String {
        try pageTexts(pdf).joined(separator: "\n")
    }

    /// One RGB pixel of a rasterized page.
    struct Pixel: Hashable {
        let r: UInt8, g: UInt8, b: UInt8
        /// Whether the pixel is not (nearly) white paper.
        var isInk: Bool { min(r, g, b) < 240 }
    }

    /// The pixels of the PDF's page `page` (1 the first) at `dpi`, rendered by pdftoppm.
    static func rasterize(_ pdf: Data, dpi: Int, page: Int = 1) throws -> [Pixel] {
        let url = try temporaryFile(pdf, name: "raster.pdf")
        let result = try run("pdftoppm", ["-r", String(dpi), "-f", String(page), "-l", String(page), url.path])
        // A binary PPM: "P6\n<w> <h>\n255\n" then RGB bytes.
        let bytes = [UInt8](result.stdout)
        var newlines = 0
        var index = 0
        while index < bytes.count, newlines < 3 {
            if bytes[index] == 0x0A { newlines += 1 }
            index += 1
        }
        var pixels: [Pixel] = []
        while index + 2 < bytes.count {
            pixels.append(Pixel(r: bytes[index], g: bytes[index + 1], b: bytes[index + 2]))
            index += 3
        }
        return pixels
    }

    /// `pdfinfo` fields by name.
    static func pdfInfo(_ pdf: Data) throws -> [String: String] {
        let file = try temporaryFile(pdf, name: "doc.pdf")
        var info: [String: String] = [:]
        for line in try run("pdfinfo", [file.path]).text.split(separator: "\n") {
            guard let colon = line.firstIndex(of: ":") else { continue }
            info[String(line[..<colon])] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return info
    }

    /// Loads the W1 sample document.
    static func sampleDocument() throws -> Document {
        let url = samples.appendingPathComponent("weekly-summary.yaml")
        return try DocumentDecoder.decode(try Data(contentsOf: url), format: .yaml)
    }

    static var sampleOptions: RenderOptions { RenderOptions(baseDirectory: samples) }

    /// Every chart of a document, those in columns included, in reading order.
    static func charts(of document: Document) -> [Chart] {
        document.elements.flatMap { block -> [Chart] in
            switch block {
            case .chart(let chart): return [chart]
            case .columns(let columns): return columns.items.compactMap { if case .chart(let c) = $0 { return c } else { return nil } }
            default: return []
            }
        }
    }

    /// The strings of a document a reader must be able to read.
    static func visibleStrings(of document: Document) -> [String] {
        var strings = [document.title]
        // Header texts as written (those with placeholders are filled in per page).
        strings += RunningLine.Slot.allCases.compactMap { document.header?[$0] }.filter { !$0.contains("{") }
        func visit(_ block: Block) {
            switch block {
            case .chart(let chart): strings += visibleStrings(of: chart)
            case .columns(let columns): columns.items.forEach(visit)
            default: strings += block.textContent
            }
        }
        document.elements.forEach(visit)
        return strings.filter { !$0.isEmpty }
    }

    /// The filled rectangles of `color` in `drawing` (bars, swatches: drawn with the canvas's
    /// rectangle primitive), in drawing order.
    static func filledRects(_ drawing: Drawing, color: Color) -> [Rect] {
        drawing.commands.compactMap { command in
            guard case .rect(let rect, let fill) = command, fill == color else { return nil }
            return rect
        }
    }

    /// Every stroke in `drawing` as a path and its style: paths, lines and arcs.
    static func strokes(_ drawing: Drawing) -> [(Path, StrokeStyle)] {
        drawing.commands.compactMap { command in
            switch command {
            case .stroke(let path, let style): return (path, style)
            case .line(let a, let b, let style): return (.line(from: a, to: b), style)
            case .arc(let center, let radius, let start, let end, let style):
                var path = Path()
                path.arc(center: center, radius: radius, start: start, end: end)
                return (path, style)
            default: return nil
            }
        }
    }

    /// The texts a reader sees on a chart, except the turned y-axis title.
    static func visibleStrings(of chart: Chart) -> [String] {
        var strings = [chart.title, chart.caption, chart.xAxis.title].compactMap { $0 }
        strings += chart.thresholds.compactMap(\.label)
        switch chart.body {
        case .bar(let bar):
            strings += bar.categories
            if chart.legend.position != .none { strings += bar.series.map(\.title).filter { !$0.isEmpty } }
            if bar.valueLabels, !bar.stacked {
                strings += bar.series.flatMap { s in
                    s.values.indices.compactMap { i in
                        s.valueLabels?[i]
                            ?? s.values[i].map {
                                NumberFormat.english.string(
                                    $0, format: chart.yAxis.format,
                                    fallbackDecimals: NumberFormat.decimals(for: s.values.compactMap { $0 }))
                            }
                    }
                }
            }
        case .line(let line):
            if chart.legend.position != .none { strings += line.plots.map(\.title).filter { !$0.isEmpty } }
            strings += line.referenceLines.compactMap(\.label)
        case .pie(let pie):
            if chart.legend.position != .none { strings += pie.segments.map(\.title) }
            if pie.percentLabels, pie.segments.contains(where: { $0.value > 0 }) {
                strings += PieChartLayout.percentages(pie.segments.map(\.value)).filter { $0 > 0 }.map { "\($0)%" }
            }
            strings += [pie.centerTitle, pie.centerText].compactMap { $0 }
        case .rings(let rings):
            strings += rings.rings.map { "\($0.title) \(Int(($0.value * 100).rounded()))%" }
            strings += [rings.centerLabel].compactMap { $0 }
        case .range(let range):
            strings += range.categories
            if chart.legend.position != .none { strings += range.plots.map(\.title) }
        case .boxPlot(let boxes): strings += boxes.groups.map(\.title)
        case .histogram, .heatmap: break
        case .measures(let measures):
            // Each measure's title and value, as the chart writes them.
            for measure in measures.measures {
                strings += [measure.title, MeasureText(measure: measure, numbers: .english).value]
            }
        }
        return strings
    }

    /// Collapses runs of white space, so text wrapped across lines compares as one string.
    /// `text` with its white space (no-break spaces included) as single spaces and typographic quotes
    /// and apostrophes as the straight ones an author types (`Typography` sets them).
    static func normalized(_ text: String) -> String {
        let straight = text.map { character -> Character in
            switch character {
            case "\u{2018}", "\u{2019}": return "'"
            case "\u{201C}", "\u{201D}", "\u{201E}": return "\""
            default: return character
            }
        }
        return String(straight).split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
    }
}

/// A test's own fixture is not what the test reads: the test fails (never skips) saying so.
struct FixtureError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
