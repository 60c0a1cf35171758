import Foundation

/// The benchmark's patient records (W1–W3 of `../shared/bench/WORKLOAD.md`), generated from a fixed
/// seed, so `make bench` needs nothing outside the repository and every run renders the same data.
///
/// Each record has the shape of the shared `patients-1000.jsonl`: a patient, seven days of pain,
/// medication adherence, steps and stress ranges, activity rings and shares, a 300-sample heart-rate
/// session (expected and actual), six medications and three care-team notes.
enum WorkloadGenerator {
    /// The folder the generated workload is written to: `patients-1000.jsonl` and `logo.png`.
    static func prepare(in folder: URL, logo: URL, count: Int = 1000) throws -> URL {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let records = records(count: count)
        let lines = records.joined(separator: "\n") + "\n"
        try Data(lines.utf8).write(to: folder.appendingPathComponent("patients-1000.jsonl"), options: .atomic)
        // The C program's single-document modes read the first patient from weekly-summary.json.
        try Data((records.first ?? "{}").utf8).write(to: folder.appendingPathComponent("weekly-summary.json"), options: .atomic)
        try Data(contentsOf: logo).write(to: folder.appendingPathComponent("logo.png"), options: .atomic)
        return folder
    }

    /// `count` records as JSON lines.
    static func records(count: Int, seed: UInt64 = 20_261_116) -> [String] {
        var random = SplitMix64(seed: seed)
        return (1...max(1, count)).map { record(number: $0, random: &random) }
    }

    private static let firstNames = [
        "Émile", "Gül", "Bo", "Amara", "Jonas", "Mei", "Sofía", "Kwame", "Ingrid", "Ravi",
        "Chloé", "Tomasz", "Aiyana", "Lars", "Yuki", "Zanele", "Mateo", "Noor", "Oskar", "Leilani",
    ]
    private static let lastNames = [
        "Okafor", "Tanaka", "O'Brien", "Nguyen", "Müller", "Haddad", "García", "Kowalski",
        "Lindqvist", "Mensah", "Dubois", "Patel", "Søndergaard", "Ivanova", "Kim", "Rossi",
    ]
    private static let medications: [(name: String, dose: String, schedule: String, doses: Int)] = [
        ("Ibuprofen", "400 mg", "3× daily", 21), ("Gabapentin", "300 mg", "2× daily", 14), ("Vitamin D", "1000 IU", "daily", 7),
        ("Omeprazole", "20 mg", "daily", 7), ("Cyclobenzaprine", "5 mg", "at night", 7), ("Acetaminophen", "500 mg", "as needed", 7),
    ]
    private static let notes = [
        "Over the last week the patient completed most of the treatment plan. Pain peaked mid-week after a long shift and eased over the weekend as stretching sessions resumed.",
        "Medication adherence stayed above the care team's threshold on five of seven days. The two missed evening doses coincided with late appointments; a reminder has been scheduled.",
        "Heart rate during the Saturday session tracked the expected curve closely, with a brief excursion above the target zone near minute 31. No symptoms were reported. Keep the current plan and review again next week.",
    ]

    private static func record(number: Int, random: inout SplitMix64) -> String {
        func rounded(_ value: Double, _ places: Double) -> Double { (value * places).rounded() / places }
        let name = "\(firstNames[random.below(firstNames.count)]) \(lastNames[random.below(lastNames.count)])"
        let pain = (0..<7).map { _ in random.below(8) + 1 }
        let adherence = (0..<7).map { _ in rounded(0.3 + 0.7 * random.unit(), 100) }
        let steps = (0..<7).map { _ in 3000 + random.below(9000) }
        let stress = (0..<7).map { _ -> [Int] in
            let low = 1 + random.below(4)
            return [low, low + 2 + random.below(5)]
        }
        let elapsed = (0..<300).map { $0 * 10 }
        // Warm-up, a plateau near 150 bpm, cool-down.
        let expected = elapsed.map { t -> Double in
            let minutes = Double(t) / 60
            let effort = minutes < 10 ? minutes / 10 : minutes < 40 ? 1 : max(0, (50 - minutes) / 10)
            return rounded(70 + 80 * effort * effort * (3 - 2 * effort), 10)
        }
        let actual = expected.map { rounded($0 + (random.unit() - 0.5) * 14, 10) }
        let takenMedications = medications.map { medication -> [String: String] in
            let taken = medication.doses - random.below(max(1, medication.doses / 3))
            return [
                "name": medication.name, "dose": medication.dose, "schedule": medication.schedule,
                "taken": "\(taken)/\(medication.doses)",
            ]
        }
        let record: [String: Any] = [
            "patient": ["id": String(format: "P%05d", number), "name": name, "week": "2026-11-09 to 2026-11-15"],
            "days": ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"],
            "pain": pain, "medicationAdherence": adherence, "steps": steps, "stress": stress,
            "rings": ["Move": rounded(random.unit(), 100), "Exercise": rounded(random.unit(), 100), "Stand": rounded(random.unit(), 100)],
            "activityShare": ["Steps taken": 60, "Tasks completed": 25, "Surveys completed": 15],
            "heartRate": ["elapsedSeconds": elapsed, "expected": expected, "actual": actual],
            "medications": takenMedications,
            "notes": notes,
        ]
        guard let data = try? JSONSerialization.data(withJSONObject: record, options: [.sortedKeys]) else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }
}

/// A small, fast, seedable generator (Steele, Lea and Flood's SplitMix64): the same numbers on every machine.
struct SplitMix64 {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in 0..<1.
    mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }

    /// An integer in 0..<bound.
    mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(max(1, bound))) }
}
