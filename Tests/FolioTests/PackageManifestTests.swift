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
}
