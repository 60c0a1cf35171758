import Foundation

/// A `folio` process started in the background (to be interrupted, killed or raced), whose
/// standard error is read when it ends.
struct RunningFolio {
    /// The process, running.
    let process: Process
    private let errors = Pipe()

    /// Starts `folio` with `arguments`.
    init(_ arguments: [String]) throws {
        process = Process()
        process.executableURL = TestSupport.folioBinary
        process.arguments = arguments
        process.standardError = errors
        try process.run()
    }

    /// Waits for the process to end; what it wrote on standard error.
    func finish() -> String {
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return text
    }
}
