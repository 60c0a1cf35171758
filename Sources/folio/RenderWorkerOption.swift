import ArgumentParser
import Folio
import FolioWorkers

/// `--memory-limit` and `--in-process`, with one meaning for `batch` and `serve`: documents are
/// rendered in supervised worker processes, each under a memory cap, unless asked to render in
/// threads of the command's own process.
struct RenderWorkerOption: ParsableArguments {
    @Option(help: "Megabytes of memory each render worker may use (0: no limit); a document that needs more fails alone.")
    var memoryLimit = Int(WorkerSettings.defaultMemoryLimit >> 20)

    @Flag(
        help:
            "Render in threads of this process instead of worker processes: a little faster to start, but a crash in a C library then ends every render in flight and the command."
    )
    var inProcess = false

    func validate() throws {
        guard (0...(1 << 24)).contains(memoryLimit) else { throw ValidationError("--memory-limit must be between 0 and 16777216 MB") }
    }

    /// The worker processes to render in, each document given `timeLimit` seconds; nil to render in process.
    func workers(timeLimit: Double) -> WorkerSettings? {
        inProcess ? nil : WorkerSettings.runningThisProgram(memoryLimit: UInt64(memoryLimit) << 20, timeLimit: timeLimit)
    }
}
