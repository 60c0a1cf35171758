import Foundation
import XCTest

/// The libraries only some documents need (libzint, librsvg, GnuTLS, libcrypto, SQLite) are opened
/// when first needed, so a machine may lack them: then only the documents that need one fail, each
/// with one line naming the field, the library and the Debian package, and every other render works.
/// Each library is hidden from `folio` in a mount namespace of its own (`unshare -m`, as root).
final class OnDemandLibraryIntegrationTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = try TestSupport.temporaryDirectory()
        // Hiding a file needs a mount namespace and a bind mount in it (root, and a container that allows both).
        let probe = folder.appendingPathComponent("probe").path
        FileManager.default.createFile(atPath: probe, contents: Data("x".utf8))
        guard
            (try? TestSupport.run("unshare", ["-m", "sh", "-c", "mount --bind /dev/null '\(probe)' && test ! -s '\(probe)'"]).status) == 0
        else {
            throw XCTSkip("unshare -m and mount --bind are not permitted here: no library can be hidden from folio")
        }
    }

    /// Where the dynamic loader finds `soname`, resolved to the file itself.
    private func libraryFile(_ soname: String) throws -> String {
        let listing = try TestSupport.run("ldconfig", ["-p"]).text
        guard let line = listing.split(separator: "\n").first(where: { $0.trimmingCharacters(in: .whitespaces).hasPrefix(soname + " ") }),
            let path = line.components(separatedBy: "=> ").last
        else { throw XCTSkip("\(soname) is not installed") }
        return URL(fileURLWithPath: String(path)).resolvingSymlinksInPath().path
    }

    /// `folio arguments` run with `soname` hidden (its file replaced by an empty one).
    private func folioWithout(_ soname: String, _ arguments: [String]) throws -> TestSupport.Output {
        let quoted = ([TestSupport.folioBinary.path] + arguments).map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }
        let script = "mount --bind /dev/null '\(try libraryFile(soname))' && exec \(quoted.joined(separator: " "))"
        return try TestSupport.run("unshare", ["-m", "sh", "-c", script])
    }

    private func write(_ text: String, _ name: String) throws -> String {
        let url = folder.appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url.path
    }

    func testADocumentNeedingAMissingLibraryFailsInOneLineAndOthersRender() throws {
        let plain = try write("title: Plain\nelements:\n  - {type: paragraph, text: Hello}\n", "plain.yaml")
        let barcode = try write(
            "title: Label\nelements:\n  - {type: paragraph, text: Hello}\n  - {type: barcode, symbology: qr, data: MRN-1}\n", "barcode.yaml"
        )
        let svg = try write(
            "title: Picture\nelements:\n  - {type: svg, alt: A dot, svg: '<svg width=\"10\" height=\"10\"><circle r=\"5\"/></svg>'}\n",
            "svg.yaml")
        let protected = try write("title: Protected\nprotection: {userPassword: secret}\nelements: []\n", "protected.yaml")
        let (key, certificate) = try TestSupport.selfSignedCertificate(in: folder)
        let output = folder.appendingPathComponent("out.pdf").path
        let cases: [(soname: String, arguments: [String], error: String)] = [
            (
                "libzint.so.2.11", ["render", barcode, "-o", output],
                "folio: error: elements[1]: drawing a barcode needs libzint (libzint.so.2.11), which could not be loaded (Debian: apt install libzint2.11)"
            ),
            (
                "librsvg-2.so.2", ["render", svg, "-o", output],
                "folio: error: elements[0]: drawing SVG in a PDF needs librsvg, which is not installed (Debian: apt install librsvg2-2)"
            ),
            (
                "libgnutls.so.30", ["render", protected, "-o", output],
                "folio: error: protection: encrypting a PDF needs GnuTLS (libgnutls.so.30), which could not be loaded (Debian: apt install libgnutls30)"
            ),
            (
                "libcrypto.so.3", ["render", plain, "--sign-key", key, "--sign-cert", certificate, "-o", output],
                "folio: error: --sign-key: signing needs OpenSSL's libcrypto (libcrypto.so.3), which could not be loaded (Debian: apt install libssl3)"
            ),
            (
                "libsqlite3.so.0",
                [
                    "batch", TestSupport.root.appendingPathComponent("Templates/fhir-weekly-summary.yaml").path, "--data",
                    TestSupport.samples.appendingPathComponent("fhir-export").path, "--data-format", "fhir", "--period",
                    "2026-11-09/2026-11-15", "--out", folder.appendingPathComponent("fhir").path, "--quiet",
                ],
                "folio: error: cannot create the FHIR index: SQLite (libsqlite3.so.0) could not be loaded (Debian: apt install libsqlite3-0)"
            ),
        ]
        for (soname, arguments, error) in cases {
            let failed = try folioWithout(soname, arguments)
            XCTAssertEqual(failed.status, 1, soname)
            XCTAssertEqual(TestSupport.unlocated(failed.stderr), error + "\n", soname)
            // The same library missing, a document that does not need it renders.
            try? FileManager.default.removeItem(atPath: output)
            let rendered = try folioWithout(soname, ["render", plain, "-o", output])
            XCTAssertEqual(rendered.status, 0, "\(soname): \(rendered.stderr)")
            XCTAssertTrue(try TestSupport.pdfText(Data(contentsOf: URL(fileURLWithPath: output))).contains("Hello"), soname)
        }
    }
}
