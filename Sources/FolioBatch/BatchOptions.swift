import FolioFHIR
import FolioGraphics
import FolioHTML
import FolioModel
import FolioPDF
import FolioSheets
import FolioWorkers
import Foundation

/// What `folio batch` was asked to do.
public struct BatchOptions: Sendable {
    /// The document template (YAML or JSON).
    public var template: URL
    /// The data file; `-` for standard input.
    public var data: String
    /// The folder the documents, the manifest and the failures go to.
    public var outputDirectory: URL
    /// The formats written for each record.
    public var formats: [OutputFormat]
    /// File name pattern, bound to each record; the format's extension is added.
    public var namePattern: String
    /// Field that identifies a record in `failures.jsonl`; by default `id` or `patient.id`.
    public var idField: String?
    /// Worker threads (1…256).
    public var jobs: Int
    /// Skip records whose files all exist and are in the manifest.
    public var resume: Bool
    /// Render only records whose number ≡ `shard.index` (mod `shard.count`).
    public var shard: (index: Int, count: Int)?
    /// Stop the batch at the first failed record.
    public var failFast: Bool
    /// The theme under each document's own `theme` settings.
    public var theme: Theme = .standard
    /// Fail a record whose PDF layout report has warnings.
    public var strictLayout = false
    /// Keys no field has are warnings (told once to `BatchProgress.warned`), not each record's error.
    public var lenient = false
    /// HTML outputs as whole pages, fragments or shadow-root fragments.
    public var html: HTMLRenderer.Output = .page
    /// Render in these worker processes, so a crash in a C library fails only the record it was
    /// drawing; nil renders in threads of this process (`folio batch --in-process`).
    public var workers: WorkerSettings?
    /// FHIR R4 data: how the export at `data` becomes one record per patient; nil for JSON lines,
    /// a JSON array or CSV.
    public var fhir: FHIRImportOptions?
    /// The IANA zone the template's dates are shown in where it names none (`--zone`).
    public var zone: String?
    /// Write a FHIR DocumentReference of this type beside each record's documents
    /// (`NAME.fhir.json`) and a transaction Bundle of them all (`bundle.json`); nil for none.
    public var documentReferences: FHIRDocumentReference.DocumentType?
    /// Sign every PDF with this key and certificate (PAdES baseline B-B); nil for none.
    public var signer: PDFSigner?
    /// Embed each patient's FHIR resources in their PDF as a FHIR Bundle (`folio batch --attach fhir`):
    /// needs FHIR data whose records carry it (`fhir.keepsRecordBundles`, which the runner sets).
    public var attachesFHIR = false

    /// Options for a batch of `template` over `data` into `outputDirectory`.
    public init(
        template: URL, data: String, outputDirectory: URL, formats: [OutputFormat] = [.pdf],
        namePattern: String = "record-{{$number}}", idField: String? = nil,
        jobs: Int = ProcessInfo.processInfo.activeProcessorCount, resume: Bool = false,
        shard: (index: Int, count: Int)? = nil, failFast: Bool = false
    ) {
        self.template = template
        self.data = data
        self.outputDirectory = outputDirectory
        self.formats = formats
        self.namePattern = namePattern
        self.idField = idField
        self.jobs = jobs
        self.resume = resume
        self.shard = shard
        self.failFast = failFast
    }

    /// `manifest.jsonl`, or `manifest-shard-K-of-N.jsonl` for a shard, so shards can share a folder.
    package func logName(_ name: String) -> String {
        guard let shard else { return name }
        let stem = name.hasSuffix(".jsonl") ? String(name.dropLast(6)) : name
        return "\(stem)-shard-\(shard.index)-of-\(shard.count).jsonl"
    }

    /// `bundle.json`, or `bundle-shard-K-of-N.json` for a shard.
    package var bundleName: String {
        guard let shard else { return "bundle.json" }
        return "bundle-shard-\(shard.index)-of-\(shard.count).json"
    }

    /// Whether record `number` belongs to this shard.
    func selects(_ number: Int) -> Bool {
        guard let shard else { return true }
        return number % shard.count == shard.index
    }
}

/// How a batch ended.
public struct BatchSummary: Sendable {
    /// Records read.
    public var total = 0
    /// Records whose files were written.
    public var written = 0
    /// Records skipped by `--resume`.
    public var skipped = 0
    /// Records that failed (listed in failures.jsonl).
    public var failed = 0
    /// Whether the batch was interrupted before its end.
    public var interrupted = false
    /// Wall-clock seconds the batch took.
    public var seconds = 0.0

    /// Documents per second over the run.
    public var rate: Double { seconds > 0 ? Double(written) / seconds : 0 }
}

/// Receives progress while a batch runs (on the thread that called `run`).
public protocol BatchProgress: AnyObject {
    /// The batch will render `total` records.
    func started(total: Int)
    /// Records were written, skipped or failed (at most ten times a second).
    func progressed(_ summary: BatchSummary)
    /// The batch has ended.
    func finished(_ summary: BatchSummary)
    /// With `lenient`, a key of the template no field has (told once, before the first record).
    func warned(_ warning: FolioError)
}

extension BatchProgress {
    /// Warnings are not shown unless the receiver shows them.
    public func warned(_ warning: FolioError) {}
}
