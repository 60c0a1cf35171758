import Dispatch
import Folio
import FolioData
import FolioTemplate
import Foundation

/// `folio check`'s work on each record: bound to the template, decoded and validated (and with
/// `render`, drawn and discarded), on every core, the outcomes in the data's order.
struct RecordChecker: Sendable {
    /// What checking one record found.
    enum Outcome: Sendable {
        /// It passed; the kinds of the layout report's warnings, when drawn.
        case passed(warnings: [String])
        /// It failed with `message`; `templateField` is the template's field that made the one
        /// the message names, when it can be said.
        case failed(message: String, templateField: String?)
    }

    let template: DocumentTemplate
    let options: RenderOptions
    let render: Bool
    let lenient: Bool

    /// Records checked together: enough to keep every core busy, few enough to print failures soon.
    static let batchSize = 256

    /// The outcome for `record`, the `number`th of the data.
    func check(_ record: TreeValue, number: Int) -> Outcome {
        // The template's field behind a failure: the binding's errors name it; the bound
        // document's are traced back through the lists the binding expanded.
        var templateField: String?
        do {
            let bound: TreeValue
            do {
                bound = try template.bind(record, number: number)
            } catch let error as FolioError {
                templateField = error.path
                throw error
            }
            let document = try DocumentDecoder.decode(bound, lenient: lenient)
            guard render else { return .passed(warnings: []) }
            let report = try document.prepared(options: options).pdfWithReport(signer: nil).report
            return .passed(warnings: report.warnings.map(\.kind.rawValue))
        } catch {
            if templateField == nil, let path = (error as? FolioError)?.path, !path.isEmpty {
                templateField = template.templatePath(ofBound: path, record: record, number: number)
            }
            return .failed(message: StandardStreams.message(of: error), templateField: templateField)
        }
    }

    /// The outcomes of `records`, in their order, checked on `workers` threads.
    func check(_ records: [(record: TreeValue, number: Int)], workers: Int) -> [Outcome] {
        let workers = max(1, min(workers, records.count))
        guard workers > 1 else { return records.map { check($0.record, number: $0.number) } }
        let outcomes = Locked([Outcome?](repeating: nil, count: records.count))
        DispatchQueue.concurrentPerform(iterations: workers) { worker in
            for index in stride(from: worker, to: records.count, by: workers) {
                let outcome = check(records[index].record, number: records[index].number)
                outcomes.withLock { $0[index] = outcome }
            }
        }
        return outcomes.value.map { $0 ?? .failed(message: "the record was not checked", templateField: nil) }
    }
}
