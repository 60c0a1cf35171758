import Foundation

/// Starting the benchmark's child processes and measuring their peak memory.
///
/// A process started with posix_spawn inherits the spawning process's high-water mark in
/// `ru_maxrss` (glibc's posix_spawn shares the parent's memory until exec), so a child of this
/// 60 MB benchmark never reports less than 60 MB. GNU time (`/usr/bin/time -f %M`) forks from its
/// own small process, so the figure it prints is the child's own.
enum ChildProcess {
    /// Starts `arguments` (the executable's path first), standard output to `output` when given.
    static func spawn(_ arguments: [String], output: String? = nil) -> pid_t? {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if let output { posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o644) }
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        // Without this process's CAIRO_DEBUG_PDF (`PDFRenderer.compressStreamsOnce`): the C program
        // compresses its streams as Cairo does by default; Folio's processes set it themselves.
        var environment: [UnsafeMutablePointer<CChar>?] = inheritedEnvironment().map { strdup($0) } + [nil]
        defer { environment.forEach { free($0) } }
        var pid: pid_t = 0
        guard posix_spawn(&pid, arguments[0], &actions, nil, &argv, &environment) == 0 else { return nil }
        return pid
    }

    /// This process's environment (`NAME=value` entries) without CAIRO_DEBUG_PDF.
    private static func inheritedEnvironment() -> [String] {
        var entries: [String] = []
        var cursor = environ
        while let entry = cursor.pointee {
            let text = String(cString: entry)
            if !text.hasPrefix("CAIRO_DEBUG_PDF=") { entries.append(text) }
            cursor += 1
        }
        return entries
    }

    /// Waits for `pid`; its exit status (the signal number + 128 when killed).
    static func wait(_ pid: pid_t) -> Int32 {
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        return status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
    }

    /// Runs `arguments` to the end: exit status and peak resident memory in KB (the child's own,
    /// through GNU time; without it, the inflated `ru_maxrss`).
    static func runMeasuringMemory(_ arguments: [String], output: String? = nil) -> (status: Int32, peakKB: Int)? {
        let time = "/usr/bin/time"
        guard FileManager.default.isExecutableFile(atPath: time) else {
            guard let pid = spawn(arguments, output: output) else { return nil }
            var status: Int32 = 0
            var usage = rusage()
            wait4(pid, &status, 0, &usage)
            return ((status >> 8) & 0xFF, usage.ru_maxrss)
        }
        let report = FileManager.default.temporaryDirectory.appendingPathComponent("folio-bench-time-\(getpid())").path
        defer { try? FileManager.default.removeItem(atPath: report) }
        guard let pid = spawn([time, "-f", "%M", "-o", report] + arguments, output: output) else { return nil }
        let status = wait(pid)
        let text = (try? String(contentsOfFile: report, encoding: .utf8)) ?? ""
        // GNU time writes "Command exited with non-zero status N" before the figure when it fails.
        guard let peak = text.split(separator: "\n").last.flatMap({ Int($0.trimmingCharacters(in: .whitespaces)) }) else {
            return nil
        }
        return (status, peak)
    }
}
