import Foundation

/// FHIR R4 at scale: a generated Bulk Data export of `observations` vital-sign Observations (100 per
/// patient: heart rate, blood pressure panels, weight in pounds, glucose, steps, SpO2, temperature in
/// °F, pain, for one week, the file not grouped by patient) and, per patient, the rest of a record
/// (`clinicalPerPatient` resources: problems, an allergy, medications by concept and by reference,
/// immunizations, a procedure, five laboratory results with ranges and their report), read by
/// `folio records` and rendered by `folio batch --data-format fhir` (the weekly summary of every
/// patient; the patient summary of a tenth), each in its own process: time and peak memory, which
/// must stay flat as the export grows (`FOLIO_BENCH_FHIR_OBSERVATIONS`, default 5,000,000).
enum FHIRBenchmark {
    static let perPatient = 100
    /// Resources other than vital signs per patient (and one shared Medication).
    static let clinicalPerPatient = 14

    /// Writes each patient's problems, allergy, medications, immunizations, procedure and laboratory
    /// report into their own NDJSON files of `folder`.
    static func generateClinical(into folder: URL, patients: Int) throws {
        let files = [
            "Condition", "AllergyIntolerance", "Medication", "MedicationStatement", "Immunization", "Procedure",
            "DiagnosticReport", "Observation.labs",
        ]
        var handles: [String: FileHandle] = [:]
        var buffers: [String: String] = [:]
        for name in files {
            let url = folder.appendingPathComponent("\(name).ndjson")
            _ = FileManager.default.createFile(atPath: url.path, contents: nil)
            handles[name] = try FileHandle(forWritingTo: url)
        }
        defer { for handle in handles.values { try? handle.close() } }
        func write(_ name: String, _ line: String) throws {
            buffers[name, default: ""] += line + "\n"
            if let buffer = buffers[name], buffer.utf8.count > 1 << 20 {
                try handles[name]?.write(contentsOf: Data(buffer.utf8))
                buffers[name] = ""
            }
        }
        let snomed = "http://snomed.info/sct"
        try write(
            "Medication",
            #"{"resourceType":"Medication","id":"lisinopril","code":{"coding":[{"system":"http://www.nlm.nih.gov/research/umls/rxnorm","code":"314076","display":"lisinopril 10 MG Oral Tablet"}]}}"#
        )
        let labs: [(code: String, name: String, unit: String, low: Double, high: Double)] = [
            ("2823-3", "Potassium [Moles/volume] in Serum or Plasma", "mmol/L", 3.5, 5.1),
            ("2951-2", "Sodium [Moles/volume] in Serum or Plasma", "mmol/L", 136, 145),
            ("2160-0", "Creatinine [Mass/volume] in Serum or Plasma", "mg/dL", 0.6, 1.2),
            ("718-7", "Hemoglobin [Mass/volume] in Blood", "g/dL", 12, 16),
            ("4548-4", "Hemoglobin A1c/Hemoglobin.total in Blood", "%", 4, 5.6),
        ]
        var random = SystemRandomNumberGenerator()
        for index in 0..<patients {
            let subject = #""subject":{"reference":"Patient/p\#(index)"}"#
            try write(
                "Condition",
                #"{"resourceType":"Condition","id":"c\#(index)a","clinicalStatus":{"coding":[{"code":"active"}]},"code":{"coding":[{"system":"\#(snomed)","code":"38341003","display":"Hypertensive disorder"}]},\#(subject),"onsetDateTime":"2015"}"#
            )
            try write(
                "Condition",
                #"{"resourceType":"Condition","id":"c\#(index)b","clinicalStatus":{"coding":[{"code":"resolved"}]},"code":{"coding":[{"system":"\#(snomed)","code":"195662009","display":"Acute viral pharyngitis"}]},\#(subject),"onsetDateTime":"2024-02-10","abatementDateTime":"2024-02-20"}"#
            )
            try write(
                "AllergyIntolerance",
                #"{"resourceType":"AllergyIntolerance","id":"a\#(index)","clinicalStatus":{"coding":[{"code":"active"}]},"type":"allergy","category":["medication"],"criticality":"high","code":{"coding":[{"system":"\#(snomed)","code":"764146007","display":"Penicillin"}]},"patient":{"reference":"Patient/p\#(index)"},"reaction":[{"manifestation":[{"coding":[{"system":"\#(snomed)","code":"247472004","display":"Hives"}]}],"severity":"moderate"}]}"#
            )
            try write(
                "MedicationStatement",
                #"{"resourceType":"MedicationStatement","id":"m\#(index)a","status":"active","medicationReference":{"reference":"Medication/lisinopril"},\#(subject),"effectivePeriod":{"start":"2020-03-01"},"dosage":[{"text":"One tablet daily"}]}"#
            )
            try write(
                "MedicationStatement",
                #"{"resourceType":"MedicationStatement","id":"m\#(index)b","status":"active","medicationCodeableConcept":{"coding":[{"system":"http://www.nlm.nih.gov/research/umls/rxnorm","code":"860975","display":"metformin 500 MG Oral Tablet"}]},\#(subject),"dosage":[{"doseAndRate":[{"doseQuantity":{"value":1,"unit":"tablet"}}],"timing":{"repeat":{"frequency":2,"period":1,"periodUnit":"d"}}}]}"#
            )
            for (dose, date) in [(1, "2025-10-01"), (2, "2026-10-03")] {
                try write(
                    "Immunization",
                    #"{"resourceType":"Immunization","id":"i\#(index)-\#(dose)","status":"completed","vaccineCode":{"coding":[{"system":"http://hl7.org/fhir/sid/cvx","code":"141","display":"Influenza, seasonal, injectable"}]},"patient":{"reference":"Patient/p\#(index)"},"occurrenceDateTime":"\#(date)","protocolApplied":[{"doseNumberPositiveInt":\#(dose)}]}"#
                )
            }
            try write(
                "Procedure",
                #"{"resourceType":"Procedure","id":"pr\#(index)","status":"completed","code":{"coding":[{"system":"\#(snomed)","code":"80146002","display":"Appendectomy"}]},\#(subject),"performedDateTime":"1998-06-12"}"#
            )
            var members: [String] = []
            for (position, lab) in labs.enumerated() {
                let value = (lab.low + (lab.high - lab.low) * Double(Int.random(in: -20...120, using: &random)) / 100 * 1.0)
                let rounded = (value * 10).rounded() / 10
                let id = "l\(index)-\(position)"
                members.append(#"{"reference":"Observation/\#(id)"}"#)
                try write(
                    "Observation.labs",
                    #"{"resourceType":"Observation","id":"\#(id)","status":"final","category":[{"coding":[{"system":"http://terminology.hl7.org/CodeSystem/observation-category","code":"laboratory"}]}],"code":{"coding":[{"system":"http://loinc.org","code":"\#(lab.code)","display":"\#(lab.name)"}]},\#(subject),"effectiveDateTime":"2026-11-10T07:30:00-05:00","valueQuantity":{"value":\#(rounded),"unit":"\#(lab.unit)","system":"http://unitsofmeasure.org","code":"\#(lab.unit)"},"referenceRange":[{"low":{"value":\#(lab.low)},"high":{"value":\#(lab.high)}}]}"#
                )
            }
            try write(
                "DiagnosticReport",
                #"{"resourceType":"DiagnosticReport","id":"r\#(index)","status":"final","code":{"coding":[{"system":"http://loinc.org","code":"24323-8","display":"Comprehensive metabolic panel"}]},\#(subject),"effectiveDateTime":"2026-11-10T07:30:00-05:00","result":[\#(members.joined(separator: ","))]}"#
            )
        }
        for (name, buffer) in buffers where !buffer.isEmpty { try handles[name]?.write(contentsOf: Data(buffer.utf8)) }
    }

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
        try generateClinical(into: folder, patients: patients)
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
        let folder = bench.appendingPathComponent("fhir-export-full-\(count)")
        var figures: [String: Double] = [:]
        let start = Timing.now()
        guard let bytes = try? generate(into: folder, observations: count) else {
            print("FHIR: cannot write the export into \(folder.path)")
            return figures
        }
        print(
            String(
                format:
                    "FHIR export: %d vital-sign observations for %d patients (Observation.ndjson %.0f MB) and %d other resources (problems, allergies, medications, immunizations, procedures, laboratory results and reports; generated or reused in %.1f s)",
                count, max(1, count / perPatient), Double(bytes) / 1_048_576, max(1, count / perPatient) * clinicalPerPatient + 1,
                Timing.now() - start))
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
        let patients = Double(max(1, count / perPatient))
        /// Runs one `folio batch` into `out` (emptied before and after), prints its figures and keeps them as `key`-seconds and `key`-peak-mb.
        func batch(_ key: String, _ options: [String], documents: Double, _ label: String) {
            try? FileManager.default.removeItem(at: out)
            defer { try? FileManager.default.removeItem(at: out) }
            let start = Timing.now()
            guard let (status, peakKB) = ChildProcess.runMeasuringMemory([folio.path, "batch"] + options), status == 0 else {
                return print("FHIR \(label) failed")
            }
            let seconds = Timing.now() - start
            figures["\(key)-seconds"] = seconds
            figures["\(key)-peak-mb"] = Double(peakKB) / 1024
            print(
                String(
                    format: "FHIR %@: %.1f s, %.1f documents/s, peak memory %.0f MB", label as NSString, seconds, documents / seconds,
                    Double(peakKB) / 1024))
        }
        batch(
            "batch",
            ["Templates/fhir-weekly-summary.yaml", "--data", folder.path, "--out", out.path, "--format", "pdf"] + week
                + ["--jobs", "2", "--quiet", "--emit", "fhir"],
            documents: patients,
            String(format: "`folio batch --data-format fhir --emit fhir --jobs 2` (%.0f PDFs and DocumentReferences)", patients))
        // The patient summary (every section, results flagged and charted) of a tenth of the patients.
        batch(
            "summary",
            ["Templates/patient-summary.yaml", "--data", folder.path, "--out", out.path, "--format", "pdf"]
                + ["--data-format", "fhir", "--jobs", "2", "--quiet", "--shard", "0/10"],
            documents: (patients / 10).rounded(.down),
            String(
                format:
                    "`folio batch Templates/patient-summary.yaml --data-format fhir --jobs 2 --shard 0/10` (%.0f patient summaries of all of the data, after indexing the whole export)",
                (patients / 10).rounded(.down)))
        return figures
    }
}
