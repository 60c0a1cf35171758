import FolioModel
import Foundation

/// How render worker processes are started and bounded: the program they run (the `folio`
/// executable), the memory each may use and the time each document may take.
///
/// `folio batch` and `folio serve` render in such workers, so that a crash inside a C library
/// (librsvg, FreeType, Cairo, qpdf) fails the one document it was drawing, never the batch or the
/// service: a worker killed by a signal, by its memory limit or at its time limit is replaced.
public struct WorkerSettings: Sendable {
    /// The program a worker runs: the `folio` executable, started as `folio __render-worker`.
    public var executable: URL
    /// Bytes of address space each worker may use (`RLIMIT_AS`); 0 for no limit.
    public var memoryLimit: UInt64
    /// Seconds one document may take; a worker still drawing a second after it is stopped and replaced.
    public var timeLimit: Double
    /// How much lower than a normal process's a worker's CPU priority is (its `nice`, 0…19): 0 for
    /// a service's request renders, more for its durable jobs, so that the server's own threads and
    /// a request's render take a core from a job's render at once.
    package var niceness: Int32 = 0
    /// What one piece of work is called in failures ("the record needs more than 512 MB"): a batch's
    /// record, a service's document.
    package var workName = "document"

    /// Workers running `executable`, each with `memoryLimit` bytes and `timeLimit` seconds per document.
    public init(executable: URL, memoryLimit: UInt64 = WorkerSettings.defaultMemoryLimit, timeLimit: Double = 120) {
        self.executable = executable
        self.memoryLimit = memoryLimit
        self.timeLimit = timeLimit
    }

    /// 4 GiB of address space: a tagged table of 100,000 rows fits, a picture that asks for many
    /// gigabytes does not.
    public static let defaultMemoryLimit: UInt64 = 4 << 30

    /// The argument that makes `folio` a render worker instead of a command.
    public static let workerArgument = "__render-worker"

    /// Workers running the program of this process (for the `folio` executable itself).
    public static func runningThisProgram(memoryLimit: UInt64 = defaultMemoryLimit, timeLimit: Double = 120) -> WorkerSettings {
        let path = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        return WorkerSettings(executable: URL(fileURLWithPath: path), memoryLimit: memoryLimit, timeLimit: timeLimit)
    }

    /// Checks the settings; errors name the option (`--memory-limit`, `--time-limit`).
    public func validate() throws {
        guard memoryLimit == 0 || memoryLimit >= 512 << 20 else {
            throw FolioError(path: "--memory-limit", "must be at least 512 MB (or 0 for no limit)")
        }
        guard timeLimit > 0, timeLimit <= 86_400 else {
            throw FolioError(path: "--time-limit", "must be more than 0 and at most 86400 seconds")
        }
        guard FileManager.default.isExecutableFile(atPath: executable.path) else {
            throw FolioError(path: "", "the render worker program \(executable.path) cannot be run")
        }
    }
}
