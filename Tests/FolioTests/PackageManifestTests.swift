import Foundation
import XCTest

/// A package that depends on Folio must build without warnings: SwiftPM reports every pkg-config
/// flag outside its allow-list (such as `-pthread`, which pango's .pc files pull in through gio)
/// as a "prohibited flag" to every dependent package.
final class PackageManifestTests: XCTestCase {
    func testNoSystemLibraryBringsAProhibitedFlag() throws {
        let manifest = try String(contentsOf: TestSupport.root.appendingPathComponent("Package.swift"), encoding: .utf8)
        let names = manifest.matches(of: #/pkgConfig: "([^"]+)"/#).map { String($0.output.1) }
        XCTAssertFalse(names.isEmpty)
        XCTAssertFalse(names.contains { $0.hasPrefix("pango") }, "pango's .pc files bring gio's -pthread")
        for name in names {
            let flags = try TestSupport.run("pkg-config", ["--cflags", "--libs", name]).text
                .split(whereSeparator: \.isWhitespace).map(String.init)
            // SwiftPM's allow-list: include and framework paths for C flags, library paths and names for linking.
            let prohibited = flags.filter { flag in !["-I", "-L", "-l", "-F"].contains { flag.hasPrefix($0) } }
            XCTAssertEqual(prohibited, [], "pkg-config \(name) gives flags SwiftPM prohibits")
        }
    }

    func testThePangoHeadersLinkPointsAtTheInstalledHeaders() throws {
        let link = TestSupport.root.appendingPathComponent("Sources/CCairoPango/include/pango/pangocairo.h")
        XCTAssertTrue(FileManager.default.fileExists(atPath: link.path), "Sources/CCairoPango/include/pango must lead to pango's headers")
    }

    /// Concurrency is checked by the compiler (issue 26): Swift 6 language mode, one lock type
    /// (`Locked`, over Synchronization's `Mutex`), and at most three declarations in Sources that
    /// opt out of checking, each with a comment on the line before saying why it is safe.
    func testConcurrencyIsCheckedByTheCompiler() throws {
        let manifest = try String(contentsOf: TestSupport.root.appendingPathComponent("Package.swift"), encoding: .utf8)
        let version = try XCTUnwrap(manifest.firstMatch(of: #/swift-tools-version:\s*(\d+)\.(\d+)/#))
        XCTAssertGreaterThanOrEqual(Int(version.output.1) ?? 0, 6, "Swift 6 language mode comes with tools version 6")
        for loosening in [".v5", "swiftLanguageVersions", "strict-concurrency", "unsafeFlags"] {
            XCTAssertFalse(manifest.contains(loosening), "Package.swift loosens concurrency checking: \(loosening)")
        }
        var optOuts: [String] = []
        var optedOut: [String] = []
        let sources = TestSupport.root.appendingPathComponent("Sources")
        let files = try XCTUnwrap(FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil))
        for case let file as URL in files where file.pathExtension == "swift" {
            let lines = try String(contentsOf: file, encoding: .utf8).components(separatedBy: "\n")
            for (index, line) in lines.enumerated() {
                let name = "\(file.lastPathComponent):\(index + 1)"
                if line.contains("@unchecked Sendable") || line.contains("nonisolated(unsafe)") {
                    optOuts.append(name)
                    if let type = line.firstMatch(of: #/class (\w+): @unchecked Sendable/#) { optedOut.append(String(type.output.1)) }
                    let before = index > 0 ? lines[index - 1].trimmingCharacters(in: .whitespaces) : ""
                    XCTAssertTrue(before.hasPrefix("//"), "\(name) opts out of concurrency checking without saying why")
                }
                for lock in ["NSLock", "NSCondition", "NSRecursiveLock", "pthread_mutex", "DispatchQueue(label"] where line.contains(lock) {
                    XCTFail("\(name) uses \(lock): shared state goes in Locked (a Mutex)")
                }
            }
        }
        // docs/design.md names every type that opts out, and no other.
        let design = try String(contentsOf: TestSupport.root.appendingPathComponent("docs/design.md"), encoding: .utf8)
        let paragraph = try XCTUnwrap(design.firstMatch(of: #/Three types opt out of the\s+checking[^\n]*(?:\n[^\n]+)*/#))
        let named = Set(String(paragraph.output).matches(of: #/`([A-Z]\w+)` \(/#).map { String($0.output.1) })
        XCTAssertEqual(Set(optedOut), named, "docs/design.md names other opted-out types than Sources has")
        XCTAssertEqual(optOuts.count, 3, "unchecked concurrency in \(optOuts): docs/design.md says three")
    }
}
