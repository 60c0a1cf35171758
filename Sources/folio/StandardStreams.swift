import Folio
import FolioFiles
import Foundation

/// Standard output and error written with `write(2)`: a full disk or a closed pipe is
/// an error line and exit status 1, never a trap or a SIGPIPE death.
enum StandardStreams {
    /// Ignores SIGPIPE, so writing to a closed pipe fails with EPIPE instead of killing the process.
    static func ignoreBrokenPipes() { signal(SIGPIPE, SIG_IGN) }

    /// Writes `data` to standard output.
    static func writeOutput(_ data: Data) throws {
        do {
            try AtomicFile.writeAll(data, to: STDOUT_FILENO)
        } catch let error as FolioError {
            throw FolioError(path: "", "cannot write to standard output: \(error.message)")
        }
    }

    /// Writes one line to standard error; failures are ignored (there is nowhere left to say them).
    static func printError(_ line: String) {
        try? AtomicFile.writeAll(Data((line + "\n").utf8), to: STDERR_FILENO)
    }

    /// `folio: error: …` for any error: field errors as they are, others in one line.
    static func describe(_ error: Error) -> String { "folio: error: " + message(of: error) }

    /// `error` as one line without the `folio: error: ` prefix (for a line that says where first).
    static func message(of error: Error) -> String {
        if let error = error as? FolioError { return "\(error)" }
        if let error = error as? NativeLibraryError { return "\(error)".escapingInvisibleControls }
        let text = (error as NSError).localizedDescription
        return text.split(whereSeparator: \.isNewline).joined(separator: " ").escapingInvisibleControls
    }

    /// Removes the temporary output and exits with status 130 on SIGINT or SIGTERM.
    static func exitOnInterrupt() {
        AtomicFile.removeTemporaryAndExitOnInterrupt(message: "folio: interrupted\n")
    }
}
