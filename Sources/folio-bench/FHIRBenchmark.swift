import Foundation

/// FHIR R4 at scale: a generated Bulk Data export of `observations` Observations (100 per patient:
/// heart rate, blood pressure panels, weight in pounds, glucose, steps, SpO2, temperature in °F, pain,
/// for one week, the file not grouped by patient) read by `folio records` and rendered by
/// `folio batch --data-format fhir`, each in its own process: time and peak memory, which must stay
/// flat as the export grows (`FOLIO_BENCH_FHIR_OBSERVATIONS`, default 5,000,000).
enum FHIRBenchmark {
    static let perPatient = 100

    /// Writes the export into `folder` unless it is there already; returns its Observation file's size.
    static func generate(into folder: URL, observations: Int) throws -> Int {
        let observationFile = folder.appendingPathComponent("Observation.ndjson")
        let done = folder.appendingPathComponent(".complete")
        if FileManager.default.fileExists(atPath: done.path) {
            return ((try? FileManager.default.attributesOfItem(atPath: observationFile.path)[.size]) as? Int) ?? 0
        }
        try? FileManager.default.removeItem(at: folder)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let patients = max(1, observations / perPatient)
        var text = ""
        for index in 0..<patients {
            text +=
                #"{"resourceType":"Patient","id":"p\#(index)","identifier":[{"type":{"coding":[{"system":"http://terminology.hl7.org/CodeSystem/v2-0203","code":"MR"}]},"value":"MRN-\#(index)"}],"name":[{"use":"official","family":"Patient\#(index)","given":["Test"]}],"gender":"female","birthDate":"1950-01-01"}"#
            text += "\n"
        }
        try Data(text.utf8).write(to: folder.appendingPathComponent("Patient.ndjson"))
        _ = FileManager.default.createFile(atPath: observationFile.path, contents: nil)
        let handle = try FileHandle(forWritingTo: observationFile)
        defer { try? handle.close() }
        var random = SystemRandomNumberGenerator()
        var buffer = ""
        buffer.reserveCapacity(1 << 21)
        var written = 0
        func quantity(_ value: String, _ unit: String) -> String {
            #""valueQuantity":{"value":\#(value),"unit":"\#(unit)","system":"http://unitsofmeasure.org","code":"\#(unit)"}"#
        }
        // Interleaved by day, then patient, as an export of a week's readings would be: not grouped by patient.
        var number = 0
        for slot in 0..<perPatient {
            let day = 9 + slot % 7
            let hour = 6 + slot / 7
            for patient in 0..<patients {
                number += 1
                let time = "2026-11-\(day < 10 ? "0" : "")\(day)T\(hour < 10 ? "0" : "")\(hour):\(10 + patient % 50):00-05:00"
                let (code, value): (String, String)
                switch slot / 7 {
                case 0, 1, 2, 3, 4, 5: (code, value) = ("8867-4", quantity(String(Int.random(in: 60...100, using: &random)), "/min"))
                case 6: (code, value) = ("29463-7", quantity(String(Double(Int.random(in: 1400...2200, using: &random)) / 10), "[lb_av]"))
                case 7, 8: (code, value) = ("2339-0", quantity(String(Int.random(in: 80...200, using: &random)), "mg/dL"))
                case 9: (code, value) = ("55423-8", quantity(String(Int.random(in: 1000...12_000, using: &random)), "{steps}"))
                case 10: (code, value) = ("59408-5", quantity(String(Int.random(in: 92...99, using: &random)), "%"))
                case 11: (code, value) = ("8310-5", quantity(String(Double(Int.random(in: 970...995, using: &random)) / 10), "[degF]"))
                case 12:
                    (code, value) = (
                        "85354-9",
                        #""component":[{"code":{"coding":[{"system":"http://loinc.org","code":"8480-6"}]},\#(quantity(String(Int.random(in: 110...150, using: &random)), "mm[Hg]"))},{"code":{"coding":[{"system":"http://loinc.org","code":"8462-4"}]},\#(quantity(String(Int.random(in: 70...95, using: &random)), "mm[Hg]"))}]"#
                    )
                default: (code, value) = ("72514-3", #""valueInteger":\#(Int.random(in: 0...8, using: &random))"#)
                }
                buffer +=
                    #"{"resourceType":"Observation","id":"o\#(number)","status":"final","category":[{"coding":[{"system":"http://terminology.hl7.org/CodeSystem/observation-category","code":"vital-signs"}]}],"code":{"coding":[{"system":"http://loinc.org","code":"\#(code)"}]},"subject":{"reference":"Patient/p\#(patient)"},"effectiveDateTime":"\#(time)",\#(value)}"#
                buffer += "\n"
                if buffer.utf8.count > 1 << 20 {
                    try handle.write(contentsOf: Data(buffer.utf8))
                    written += buffer.utf8.count
                    buffer.removeAll(keepingCapacity: true)
                }
                if number >= observations { break }
            }
            if number >= observations { break }
        }
        try handle.write(contentsOf: Data(buffer.utf8))
        written += buffer.utf8.count
        _ = FileManager.default.createFile(atPath: done.path, contents: Data())
        return written
    }

    /// Generates (once) and measures; returns the figures by name ("records-seconds", "records-peak-mb", …).
    static func run(folio: URL, bench: URL) -> [String: Double] {
        let count = ProcessInfo.processInfo.environment["FOLIO_BENCH_FHIR_OBSERVATIONS"].flatMap { Int($0) } ?? 5_000_000
        let folder = bench.appendingPathComponent("fhir-export-\(count)")
        var figures: [String: Double] = [:]
        let start = Timing.now()
        guard let bytes = try? generate(into: folder, observations: count) else {
            print("FHIR: cannot write the export into \(folder.path)")
            return figures
        }
        print(
            String(
                format: "FHIR export: %d observations for %d patients, Observation.ndjson %.0f MB (generated or reused in %.1f s)",
                count, max(1, count / perPatient), Double(bytes) / 1_048_576, Timing.now() - start))
        let week = ["--data-format", "fhir", "--period", "2026-11-09/2026-11-15", "--zone", "America/New_York"]
        let recordsStart = Timing.now()
        if let (status, peakKB) = ChildProcess.runMeasuringMemory([folio.path, "records", folder.path] + week, output: "/dev/null"),
            status == 0
        {
            figures["records-seconds"] = Timing.now() - recordsStart
            figures["records-peak-mb"] = Double(peakKB) / 1024
            print(
                String(
                    format: "FHIR `folio records` (index, then one record per patient): %.1f s, %.0f observations/s, peak memory %.0f MB",
                    Timing.now() - recordsStart, Double(count) / (Timing.now() - recordsStart), Double(peakKB) / 1024))
        } else {
            print("FHIR `folio records` failed")
        }
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("folio-bench-fhir")
        try? FileManager.default.removeItem(at: out)
        let batchStart = Timing.now()
        let arguments =
            [folio.path, "batch", "Templates/fhir-weekly-summary.yaml", "--data", folder.path, "--out", out.path, "--format", "pdf"]
            + week + ["--jobs", "2", "--quiet", "--emit", "fhir"]
        if let (status, peakKB) = ChildProcess.runMeasuringMemory(arguments), status == 0 {
            let seconds = Timing.now() - batchStart
            figures["batch-seconds"] = seconds
            figures["batch-peak-mb"] = Double(peakKB) / 1024
            let documents = Double(max(1, count / perPatient))
            print(
                String(
                    format:
                        "FHIR `folio batch --data-format fhir --emit fhir --jobs 2` (%.0f PDFs and DocumentReferences): %.1f s, %.1f documents/s, peak memory %.0f MB",
                    documents, seconds, documents / seconds, Double(peakKB) / 1024))
        } else {
            print("FHIR `folio batch` failed")
        }
        try? FileManager.default.removeItem(at: out)
        return figures
    }
}
