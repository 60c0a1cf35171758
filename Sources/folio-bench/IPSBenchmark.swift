import Folio
import FolioData
import FolioFHIR
import FolioTemplate
import Foundation

/// An International Patient Summary rendered in process as `folio render Templates/patient-summary.yaml
/// --data Samples/ips-summary.json --data-format fhir` does: the Bundle read and indexed, the
/// patient's record made, bound to the template, laid out and written as a PDF, each time anew.
enum IPSBenchmark {
    /// The median seconds per summary over `renders` (after a warm-up), and the PDF's pages in bytes.
    static func run(renders: Int) throws -> (median: Double, bytes: Int) {
        let bundle = try Data(contentsOf: URL(fileURLWithPath: "Samples/ips-summary.json"))
        let template = try DocumentTemplate(
            data: try Data(contentsOf: URL(fileURLWithPath: "Templates/patient-summary.yaml")), format: .yaml)
        let options = try FHIRImportOptions(period: nil, allPatients: true)
        func once() throws -> Int {
            let export = try FHIRExport(bundle: bundle, options: options)
            var record: TreeValue?
            try export.forEachRecord { record = $0 }
            guard let record else { throw FolioError(path: "", "Samples/ips-summary.json holds no patient") }
            return try template.documentForRendering(for: record).pdf().count
        }
        var bytes = 0
        for _ in 0..<3 { bytes = try once() }
        var samples: [Double] = []
        for _ in 0..<renders {
            let start = Timing.now()
            bytes = try once()
            samples.append(Timing.now() - start)
        }
        return (samples.sorted()[samples.count / 2], bytes)
    }
}
