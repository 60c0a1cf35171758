import Foundation
import XCTest
import Yams

/// The OCI image `make image` builds (deploy/image/build.sh, docs/image.md), as someone running it
/// would check it: what its root file system holds and lacks, `folio render` and `folio serve` run
/// inside it (chroot in a mount namespace, as the user the image names) giving what the same
/// binary gives on a full machine, every package it holds one the binary opens, the deploy files
/// naming it, and the same digest when it is built again.
final class ImageIntegrationTests: XCTestCase {
    /// The image, unpacked once for all the tests (its root file system is about 400 MB).
    nonisolated(unsafe) private static var unpacked: UnpackedImage?

    private func image() throws -> UnpackedImage {
        try TestSupport.integrationOnly()
        if let image = Self.unpacked { return image }
        let image = try UnpackedImage()
        Self.unpacked = image
        return image
    }

    /// A document in every script the fonts must cover, with an appended PDF whose pages' text is
    /// read by poppler (no `alt`), so the rendering opens the fonts and libraries a full report does.
    private static let scripts = """
        title: Every script
        metadata: {creationDate: 2026-11-16T08:00:00Z, language: en}
        elements:
          - {type: paragraph, text: "English, *italic*, **bold**, `mono`; Ελληνικά; Русский"}
          - {type: paragraph, text: "العربية: سُجلت قيمة 10.4 ملمول/لتر. עברית: נמדד ערך של 10.4."}
          - {type: paragraph, text: "हिन्दी: रक्त शर्करा 10.4 थी। ภาษาไทย: ระดับน้ำตาล 10.4"}
          - {type: paragraph, text: "中文：血糖 10.4。日本語：血糖値は 10.4 でした。한국어: 혈당 10.4"}
          - {type: barcode, symbology: qr, data: "MRN-104233"}
          - {type: pdf, path: appended/lab-report.pdf, pages: "1"}
        \(hyphenated)
        """

    /// A justified paragraph in each language the image has hyphenation patterns for but the
    /// document's (hard-cases.yaml justifies English), so each dictionary is opened.
    private static let hyphenated = [
        ("en-GB", "The physiotherapist recommended strengthening exercises and an individualised rehabilitation programme"),
        ("fr", "La kinésithérapeute recommande des exercices de renforcement musculaire et une réadaptation individualisée"),
        ("de", "Die Physiotherapeutin empfiehlt Kräftigungsübungen und eine individuelle Rehabilitationsmaßnahme"),
        ("es", "La fisioterapeuta recomienda ejercicios de fortalecimiento muscular y una rehabilitación individualizada"),
        ("it", "La fisioterapista raccomanda esercizi di rafforzamento muscolare e una riabilitazione individualizzata"),
        ("pt-PT", "A fisioterapeuta recomenda exercícios de fortalecimento muscular e uma reabilitação individualizada"),
        ("nl", "De fysiotherapeut adviseert spierversterkende oefeningen en een geïndividualiseerde revalidatie"),
    ].map { language, text in
        "  - {type: paragraph, align: justify, language: \(language), text: \"\(String(repeating: text + "; ", count: 3))\"}"
    }.joined(separator: "\n")

    /// A PDF/A document: its output intent is the sRGB profile of colord-data.
    private static let archival = """
        title: Archived summary
        metadata: {creationDate: 2026-11-16T08:00:00Z, language: en, conformance: pdfa-2u}
        elements:
          - {type: paragraph, text: "Kept for the record."}
        """

    func testTheImageHoldsTheBinaryItsPackagesAndANonRootUserOnly() throws {
        let image = try image()
        XCTAssertEqual(image.config.entrypoint, ["/usr/local/bin/folio"])
        XCTAssertEqual(image.config.cmd, ["serve"])
        XCTAssertEqual(image.config.user, "65532:65532", "a numeric user, so runAsNonRoot can check it")
        let rootfs = image.rootfs.path
        let manager = FileManager.default
        XCTAssertTrue(manager.isExecutableFile(atPath: rootfs + "/usr/local/bin/folio"))
        let symbols = try TestSupport.run("nm", [rootfs + "/usr/local/bin/folio"])
        XCTAssertTrue(symbols.stderr.contains("no symbols"), "the binary is stripped: \(symbols.stderr.prefix(200))")
        // Nothing to run but folio: no shell, no package manager, no interpreter.
        for tool in [
            "/bin/sh", "/bin/bash", "/bin/dash", "/usr/bin/sh", "/usr/bin/apt", "/usr/bin/apt-get", "/usr/bin/dpkg",
            "/usr/bin/perl", "/usr/bin/python3", "/usr/bin/env", "/bin/busybox",
        ] {
            XCTAssertFalse(manager.fileExists(atPath: rootfs + tool), "\(tool) is in the image")
        }
        XCTAssertTrue(try String(contentsOfFile: rootfs + "/etc/passwd", encoding: .utf8).contains("folio:x:65532:65532:"))
        // Every file is root's but the user's home; /tmp is shared and sticky.
        let owners = try TestSupport.run("find", [rootfs, "-path", rootfs + "/work", "-prune", "-o", "!", "-user", "0", "-printf", "%P\n"])
        XCTAssertEqual(owners.text.split(separator: "\n").sorted(), ["var/lib/folio"], "work is these tests' own folder")
        let tmp = try manager.attributesOfItem(atPath: rootfs + "/tmp")
        XCTAssertEqual((tmp[.posixPermissions] as? Int).map { $0 & 0o7777 }, 0o1777)
        // The packages: every one deploy/image/packages lists is installed, with what it depends on.
        let installed = image.installedPackages
        for package in UnpackedImage.listed() {
            XCTAssertTrue(installed.contains(package), "\(package) is listed but not in the image")
        }
        // docs/image.md lists the same packages.
        let docs = try String(contentsOf: TestSupport.root.appendingPathComponent("docs/image.md"), encoding: .utf8)
        let documented = docs.split(separator: "\n").filter { $0.hasPrefix("| `") }.flatMap { row in
            (row.split(separator: "|").first ?? "").matches(of: #/`([a-z0-9.+-]+)`/#).map { String($0.output.1) }
        }
        XCTAssertEqual(documented.sorted(), UnpackedImage.listed().sorted(), "docs/image.md and deploy/image/packages")
        // What they depend on is there too, but what deploy/image/left-out names (maintainer scripts' tools).
        let leftOut = Set(UnpackedImage.listed(in: "deploy/image/left-out"))
        XCTAssertGreaterThan(leftOut.count, 5)
        let provided = image.provided
        for (package, depends) in image.dependencies {
            for alternatives in depends {
                XCTAssertTrue(
                    alternatives.contains { installed.contains($0) || provided.contains($0) || leftOut.contains($0) },
                    "\(package) needs one of \(alternatives)")
            }
        }
        XCTAssertTrue(leftOut.isDisjoint(with: installed), "\(leftOut.intersection(installed)) left out, yet in the image")
        for left in [
            "/usr/bin/perl", "/usr/bin/debconf", "/usr/bin/openssl", "/usr/bin/tar", "/usr/bin/fc-cache", "/bin/tar", "/usr/share/perl5",
        ] {
            XCTAssertFalse(manager.fileExists(atPath: rootfs + left), "\(left) is in the image")
        }
        for kept in UnpackedImage.listed(in: "deploy/image/kept-files") {
            XCTAssertTrue(manager.fileExists(atPath: rootfs + kept), "\(kept), which deploy/image/kept-files keeps, is not in the image")
        }
        // The CA bundle HTTPS needs, without the maintainer script that usually makes it.
        let bundle = try String(contentsOfFile: rootfs + "/etc/ssl/certs/ca-certificates.crt", encoding: .utf8)
        XCTAssertGreaterThan(bundle.components(separatedBy: "BEGIN CERTIFICATE").count, 100)
    }

    func testRendersTheSamplesInsideTheImageAsTheSameBinaryDoesOnAFullMachine() throws {
        let image = try image()
        let host = try TestSupport.temporaryDirectory()
        let binary = image.rootfs.appendingPathComponent("usr/local/bin/folio").path
        var renders: [(arguments: [String], outputs: [String])] = []
        for sample in try FileManager.default.contentsOfDirectory(atPath: TestSupport.samples.path).sorted()
        where sample.hasSuffix(".yaml") {
            let name = String(sample.dropLast(5))
            for format in ["pdf", "html"] {
                renders.append((["render", "Samples/\(sample)", "-o", "out/\(name).\(format)"], ["out/\(name).\(format)"]))
            }
        }
        renders.append((["render", "Samples/scripts.yaml", "-o", "out/scripts.pdf"], ["out/scripts.pdf"]))
        renders.append((["render", "Samples/scripts.yaml", "-o", "out/scripts.html"], ["out/scripts.html"]))
        renders.append((["render", "Samples/archival.yaml", "-o", "out/archival.pdf"], ["out/archival.pdf"]))
        renders.append(
            (
                ["render", "Templates/medication-log.yaml", "--data", "Samples/medication-log.json", "-o", "out/medication-log.xlsx"],
                ["out/medication-log.xlsx"]
            ))
        renders.append(
            (
                [
                    "batch", "Templates/fhir-weekly-summary.yaml", "--data", "Samples/fhir-export", "--data-format", "fhir", "--period",
                    "2026-11-09/2026-11-15", "--zone", "America/New_York", "--out", "out/fhir", "--format", "pdf,html", "--quiet",
                ], []
            ))
        let inside = try image.workFolder()
        for folder in [host, inside] {
            try Self.copyInputs(to: folder)
            try Self.writeDocuments(to: folder)
        }
        for (arguments, outputs) in renders {
            let here = try TestSupport.run(
                "/usr/bin/env", ["-C", host.path, binary] + arguments, environment: ["SOURCE_DATE_EPOCH": "1763280000"])
            XCTAssertEqual(here.status, 0, "\(arguments): \(here.stderr)")
            let there = try TestSupport.run(image.launcher[0], Array(image.launcher.dropFirst()) + arguments)
            XCTAssertEqual(there.status, 0, "\(arguments) in the image: \(there.stderr)")
            for output in outputs {
                let expected = try Data(contentsOf: host.appendingPathComponent(output))
                let got = try Data(contentsOf: inside.appendingPathComponent(output))
                XCTAssertGreaterThan(got.count, 1000, output)
                XCTAssertTrue(expected == got, "\(output) differs in the image: a font or library the image lacks")
            }
        }
        // The batch's documents, one by one.
        let documents = try FileManager.default.contentsOfDirectory(atPath: host.appendingPathComponent("out/fhir").path)
            .filter { $0.hasSuffix(".pdf") || $0.hasSuffix(".html") }.sorted()
        XCTAssertEqual(documents.count, 8, "four patients, a PDF and an HTML each")
        for document in documents {
            let expected = try Data(contentsOf: host.appendingPathComponent("out/fhir/\(document)"))
            XCTAssertTrue(expected == (try Data(contentsOf: inside.appendingPathComponent("out/fhir/\(document)"))), document)
        }
        // The user the image names wrote them.
        let owner = try FileManager.default.attributesOfItem(atPath: inside.appendingPathComponent("out/scripts.pdf").path)
        XCTAssertEqual(owner[.ownerAccountID] as? Int, 65532)
        // Every script drawn from a real face: no missing glyph boxes, Chinese and Japanese from Noto CJK.
        let fonts = try TestSupport.run("pdffonts", [inside.appendingPathComponent("out/scripts.pdf").path]).text
        for face in ["DejaVuSans-Oblique", "NotoSansCJK", "NotoSansDevanagari", "NotoSansThai"] {
            XCTAssertTrue(fonts.contains(face), "\(face) not used:\n\(fonts)")
        }
    }

    func testServesInsideTheImage() throws {
        let image = try image()
        let inside = try image.workFolder()
        try Self.copyInputs(to: inside)
        let server = try RunningServer(
            ["--templates", "/work/Templates", "--assets", "/work/Samples"], launcher: image.launcher)
        defer { server.stop() }
        XCTAssertEqual(try HTTPExchange.send("GET", server.url("/healthz")).status, 200)
        let body = try Data(contentsOf: TestSupport.samples.appendingPathComponent("weekly-summary.yaml"))
        let response = try HTTPExchange.send(
            "POST", server.url("/v1/render?format=pdf"), headers: ["Content-Type: application/yaml"], body: body)
        XCTAssertEqual(response.status, 200, response.text)
        XCTAssertEqual(try TestSupport.pdfInfo(response.body)["Pages"], "3")
        XCTAssertTrue(try TestSupport.pdfText(response.body).contains("Weekly Care Summary"))
        // SIGTERM ends it cleanly.
        XCTAssertEqual(server.stop(), 0, server.log)
    }

    func testEveryPackageOfTheImageIsOneTheBinaryOpens() throws {
        let image = try image()
        let binary = image.rootfs.appendingPathComponent("usr/local/bin/folio").path
        let work = try TestSupport.temporaryDirectory()
        try Self.copyInputs(to: work)
        try Self.writeDocuments(to: work)
        var runs: [[String]] = []
        for sample in try FileManager.default.contentsOfDirectory(atPath: TestSupport.samples.path) where sample.hasSuffix(".yaml") {
            runs.append(["render", "Samples/\(sample)", "-o", "out/\(sample).pdf"])
        }
        runs += [
            ["render", "Samples/scripts.yaml", "-o", "out/scripts.pdf"],
            ["render", "Samples/archival.yaml", "-o", "out/archival.pdf"],
            ["render", "Templates/medication-log.yaml", "--data", "Samples/medication-log.json", "-o", "out/medication.xlsx"],
            [
                "batch", "Templates/fhir-weekly-summary.yaml", "--data", "Samples/fhir-export", "--data-format", "fhir", "--period",
                "2026-11-09/2026-11-15", "--zone", "America/New_York", "--out", "out/fhir", "--format", "pdf", "--quiet",
            ],
        ]
        // HTTPS: a TLS server on loopback whose certificate folio refuses, after loading the CA bundle.
        let tls = try TLSServer(folder: work)
        defer { tls.stop() }
        let fetch = [
            "render", "Templates/fhir-weekly-summary.yaml", "--fhir-server", "https://127.0.0.1:\(tls.port)/fhir", "--patient", "p1",
            "--data-format", "fhir", "-o", "out/fetched.pdf",
        ]
        var opened = Set<String>()
        for (index, arguments) in (runs + [fetch]).enumerated() {
            let log = work.appendingPathComponent("strace-\(index)").path
            let result = try TestSupport.run(
                "/usr/bin/env",
                ["-C", work.path, "strace", "-f", "-qq", "-e", "trace=open,openat", "-e", "status=successful", "-o", log, binary]
                    + arguments, environment: ["SOURCE_DATE_EPOCH": "1763280000", "PATH": "/usr/bin:/bin"])
            if arguments != fetch { XCTAssertEqual(result.status, 0, "\(arguments): \(result.stderr)") }
            for line in try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n") where !line.contains("O_DIRECTORY") {
                if let path = line.firstMatch(of: #/open(?:at)?\((?:AT_FDCWD, )?"(/[^"]+)"/#)?.output.1 { opened.insert(String(path)) }
            }
        }
        let packages = try Self.packages(owning: opened)
        let installed = image.installedPackages
        // A file of a package left out is one deploy/image/kept-files keeps (openssl's configuration).
        let keptFiles = Set(UnpackedImage.listed(in: "deploy/image/kept-files"))
        for (package, files) in packages.sorted(by: { $0.key < $1.key }) where !installed.contains(package) {
            let missing = files.filter { !keptFiles.contains($0) || !FileManager.default.fileExists(atPath: image.rootfs.path + $0) }
            XCTAssertTrue(missing.isEmpty, "folio opens \(missing.sorted().prefix(3)) of \(package), which the image lacks")
        }
        XCTAssertFalse(keptFiles.isEmpty)
        for package in UnpackedImage.listed() {
            XCTAssertNotNil(packages[package], "\(package) is listed in deploy/image/packages but folio opens none of its files")
        }
    }

    func testTheDeployFilesNameTheImageAndItsUser() throws {
        let image = try image()
        let deploy = TestSupport.root.appendingPathComponent("deploy")
        var named = 0
        for file in try FileManager.default.contentsOfDirectory(atPath: deploy.path) where file.hasPrefix("kubernetes") {
            let text = try String(contentsOf: deploy.appendingPathComponent(file), encoding: .utf8)
            for document in try Yams.load_all(yaml: text).compactMap({ $0 as? [String: Any] }) {
                for pod in Self.podSpecs(in: document) {
                    let containers = ((pod["containers"] as? [[String: Any]]) ?? []) + ((pod["initContainers"] as? [[String: Any]]) ?? [])
                    for container in containers {
                        guard let name = container["image"] as? String, name.contains("folio") else { continue }
                        named += 1
                        XCTAssertEqual(name, "localhost/folio:\(image.tag)", "\(file): the image make image builds")
                        let command = container["command"] as? [String]
                        XCTAssertTrue(
                            command == nil || command?.first == "/usr/local/bin/folio", "\(file): the image has no shell: \(command ?? [])")
                        XCTAssertEqual((pod["securityContext"] as? [String: Any])?["runAsUser"] as? Int, 65532, file)
                    }
                }
            }
        }
        XCTAssertGreaterThanOrEqual(named, 5)
    }

    func testTheSameInputsGiveTheSameImage() throws {
        let image = try image()
        guard let binary = ProcessInfo.processInfo.environment["FOLIO_IMAGE_BINARY"] else {
            return XCTFail("FOLIO_IMAGE_BINARY (the release folio the image was built from) is set by make test")
        }
        let again = try TestSupport.temporaryDirectory().appendingPathComponent("again.tar")
        let build = try TestSupport.run(
            TestSupport.root.appendingPathComponent("deploy/image/build.sh").path, [binary, image.tag, again.path],
            environment: ["SOURCE_DATE_EPOCH": String(image.config.epoch), "PATH": "/usr/sbin:/usr/bin:/sbin:/bin"])
        XCTAssertEqual(build.status, 0, build.stderr)
        XCTAssertTrue(build.text.contains(image.digest), "built again: \(build.text), first: \(image.digest)")
        XCTAssertTrue(try Data(contentsOf: again) == Data(contentsOf: image.archive), "the archives differ")
    }

    // MARK: - Helpers

    /// Copies Samples and Templates into `folder`, writable by the image's user.
    private static func copyInputs(to folder: URL) throws {
        for name in ["Samples", "Templates"] {
            let result = try TestSupport.run("cp", ["-a", TestSupport.root.appendingPathComponent(name).path, folder.path])
            XCTAssertEqual(result.status, 0, result.stderr)
        }
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("out"), withIntermediateDirectories: true)
        XCTAssertEqual(try TestSupport.run("chown", ["-R", "65532:65532", folder.path]).status, 0)
    }

    /// Writes the scripts and the archival document into `folder`'s Samples.
    private static func writeDocuments(to folder: URL) throws {
        try Data(scripts.utf8).write(to: folder.appendingPathComponent("Samples/scripts.yaml"))
        try Data(archival.utf8).write(to: folder.appendingPathComponent("Samples/archival.yaml"))
    }

    /// The pod specs of a Deployment, Job, CronJob or StatefulSet.
    private static func podSpecs(in document: [String: Any]) -> [[String: Any]] {
        var spec = document["spec"] as? [String: Any]
        if let job = spec?["jobTemplate"] as? [String: Any] { spec = job["spec"] as? [String: Any] }
        guard let pod = (spec?["template"] as? [String: Any])?["spec"] as? [String: Any] else { return [] }
        return [pod]
    }

    /// The Debian packages owning `paths` (regular files), by package; the loader's cache, the
    /// host's locale and fontconfig's configuration and cache say how the host is set up, not what
    /// folio needs, and are left out.
    private static func packages(owning paths: Set<String>) throws -> [String: Set<String>] {
        let generated = ["/etc/ssl/certs/ca-certificates.crt": "ca-certificates"]
        let skipped = [
            "/etc/ld.so.cache", "/etc/localtime", "/etc/fonts/", "/usr/share/fontconfig/", "/var/cache/", "/usr/lib/locale/",
            "/usr/share/locale/", "/etc/nsswitch.conf", "/etc/passwd", "/etc/group", "/etc/hosts", "/etc/resolv.conf", "/etc/gai.conf",
            "/etc/host.conf",
        ]
        var result: [String: Set<String>] = [:]
        let candidates = paths.filter { path in
            (path.hasPrefix("/usr/") || path.hasPrefix("/lib") || path.hasPrefix("/etc/")) && !skipped.contains { path.hasPrefix($0) }
                && !path.hasPrefix("/usr/local/")
        }
        for path in candidates {
            if let package = generated[path] {
                result[package, default: []].insert(path)
                continue
            }
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue else { continue }
            let real = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
            // Debian 12 has merged /usr: a package may name the file under /lib or under /usr/lib.
            let aliases = Set([path, real].flatMap { [$0, $0.hasPrefix("/usr/lib/") ? String($0.dropFirst(4)) : "/usr" + $0] })
            let owners = try TestSupport.run("dpkg", ["-S"] + aliases.sorted()).text
            let names = owners.split(separator: "\n").flatMap { line in
                (line.split(separator: ":", maxSplits: 1).first ?? "").split(separator: ",").map {
                    $0.trimmingCharacters(in: .whitespaces)
                }
            }
            XCTAssertFalse(names.isEmpty, "no package owns \(path), which folio opens")
            for name in Set(names) { result[name, default: []].insert(path) }
        }
        return result
    }
}

/// The image archive (`FOLIO_IMAGE`, set by make test, else out/folio-image.tar) unpacked with umoci.
struct UnpackedImage {
    /// The image's configuration, as a runtime reads it.
    struct Config {
        let entrypoint: [String]
        let cmd: [String]
        let user: String
        /// Its creation time, seconds since 1970 (SOURCE_DATE_EPOCH of the build).
        let epoch: Int
    }

    let archive: URL
    let tag: String
    /// The manifest's digest, `sha256:…`.
    let digest: String
    let config: Config
    let rootfs: URL
    /// Each installed package's Depends, as groups of alternatives.
    let dependencies: [String: [[String]]]
    var installedPackages: Set<String> { Set(dependencies.keys) }
    /// The virtual packages the installed ones provide.
    let provided: Set<String>

    struct MissingImage: Error, CustomStringConvertible {
        let path: String
        var description: String { "\(path): no image; make test builds it (make image)" }
    }

    init() throws {
        let environment = ProcessInfo.processInfo.environment
        archive = URL(fileURLWithPath: environment["FOLIO_IMAGE"] ?? TestSupport.root.appendingPathComponent("out/folio-image.tar").path)
        guard FileManager.default.fileExists(atPath: archive.path) else { throw MissingImage(path: archive.path) }
        let folder = try TestSupport.temporaryDirectory()
        let layout = folder.appendingPathComponent("oci")
        try FileManager.default.createDirectory(at: layout, withIntermediateDirectories: true)
        XCTAssertEqual(try TestSupport.run("tar", ["-xf", archive.path, "-C", layout.path]).status, 0)
        let index = try Self.json(layout.appendingPathComponent("index.json"))
        let manifests = try XCTUnwrap(index["manifests"] as? [[String: Any]])
        XCTAssertEqual(manifests.count, 1, "one image in the archive")
        digest = try XCTUnwrap(manifests.first?["digest"] as? String)
        tag = try XCTUnwrap((manifests.first?["annotations"] as? [String: String])?["org.opencontainers.image.ref.name"])
        let manifest = try Self.json(Self.blob(digest, in: layout))
        let configDigest = try XCTUnwrap((manifest["config"] as? [String: Any])?["digest"] as? String)
        XCTAssertEqual((manifest["layers"] as? [Any])?.count, 1, "one layer")
        let configuration = try Self.json(Self.blob(configDigest, in: layout))
        let process = try XCTUnwrap(configuration["config"] as? [String: Any])
        let created = try XCTUnwrap(configuration["created"] as? String)
        config = Config(
            entrypoint: process["Entrypoint"] as? [String] ?? [], cmd: process["Cmd"] as? [String] ?? [],
            user: process["User"] as? String ?? "",
            epoch: Int(try XCTUnwrap(ISO8601DateFormatter().date(from: created)).timeIntervalSince1970))
        let bundle = folder.appendingPathComponent("bundle")
        let unpack = try TestSupport.run("umoci", ["unpack", "--image", "\(layout.path):\(tag)", bundle.path])
        XCTAssertEqual(unpack.status, 0, unpack.stderr)
        rootfs = bundle.appendingPathComponent("rootfs")
        let status = try String(contentsOf: rootfs.appendingPathComponent("var/lib/dpkg/status"), encoding: .utf8)
        dependencies = Self.dependencies(inStatus: status)
        provided = Set(
            status.split(separator: "\n").filter { $0.hasPrefix("Provides: ") }.flatMap { line in
                line.dropFirst(10).split(separator: ",").map { Self.packageName($0) }
            })
    }

    /// What a list of deploy/image (`packages` by default) names, one package or path per line.
    static func listed(in file: String = "deploy/image/packages") -> [String] {
        let text = (try? String(contentsOf: TestSupport.root.appendingPathComponent(file), encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap {
            let name = $0.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)[0].trimmingCharacters(in: .whitespaces)
            return name.isEmpty ? nil : name
        }
    }

    /// A folder at /work inside the root file system (emptied), owned by the image's user.
    func workFolder() throws -> URL {
        let work = rootfs.appendingPathComponent("work")
        try? FileManager.default.removeItem(at: work)
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        return work
    }

    /// The command that runs the image's folio with the arguments after it: in a mount namespace
    /// of its own with /proc and /dev mounted, with the image as its root, as its user (no other
    /// group), in /work, with only the image's PATH and the tests' SOURCE_DATE_EPOCH. Each step
    /// execs the next, so the process started is folio itself, and a signal sent to it is folio's.
    /// (No PID namespace: its init would have to pass signals on, and the kernel clears the
    /// parent-death signal unshare's --kill-child relies on when the user is changed.)
    var launcher: [String] {
        return ["/usr/bin/unshare", "--mount", "/bin/sh", "-c", Self.launchScript, "sh", rootfs.path, config.user]
    }

    /// `launcher`'s shell script: $1 the root file system, $2 the user, then folio's arguments.
    private static let launchScript = #"""
        root=$1; uid=${2%:*}; gid=${2#*:}; shift 2
        mkdir -p "$root/proc" && mount -t proc proc "$root/proc" && mount --rbind /dev "$root/dev" || exit 1
        exec /usr/bin/env -i PATH=/usr/local/bin SOURCE_DATE_EPOCH=1763280000 \
          /usr/bin/unshare --root="$root" --wd=/work --setgid="$gid" --setuid="$uid" /usr/local/bin/folio "$@"
        """#

    /// A package's name in a Depends or Provides entry, without its version or architecture.
    private static func packageName(_ entry: Substring) -> String {
        String(entry.trimmingCharacters(in: .whitespaces).prefix { $0 != " " && $0 != ":" && $0 != "(" })
    }

    private static func blob(_ digest: String, in layout: URL) -> URL {
        layout.appendingPathComponent("blobs/sha256/\(digest.replacingOccurrences(of: "sha256:", with: ""))")
    }

    private static func json(_ url: URL) throws -> [String: Any] {
        try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any], url.path)
    }

    /// Each package of a dpkg status file with its Depends and Pre-Depends (versions dropped).
    private static func dependencies(inStatus status: String) -> [String: [[String]]] {
        var result: [String: [[String]]] = [:]
        for stanza in status.components(separatedBy: "\n\n") {
            var name: String?
            var depends: [[String]] = []
            for line in stanza.split(separator: "\n") {
                if line.hasPrefix("Package: ") { name = String(line.dropFirst(9)) }
                if line.hasPrefix("Depends: ") || line.hasPrefix("Pre-Depends: ") {
                    let list = line.split(separator: ":", maxSplits: 1)[1]
                    depends += list.split(separator: ",").map { group in group.split(separator: "|").map { packageName($0) } }
                }
            }
            if let name { result[name] = depends }
        }
        return result
    }
}

/// `openssl s_server` on a loopback port with a throw-away self-signed certificate.
final class TLSServer {
    let port: Int
    private let process = Process()

    init(folder: URL) throws {
        let (key, certificate) = try TestSupport.selfSignedCertificate(in: folder)
        port = try TestSupport.freePort()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        process.arguments = ["s_server", "-accept", "127.0.0.1:\(port)", "-key", key, "-cert", certificate, "-quiet"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        process.standardInput = Pipe()
        try process.run()
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline, (try? TestSupport.run("/usr/bin/env", ["bash", "-c", "exec 3<>/dev/tcp/127.0.0.1/\(port)"]).status) != 0 {
            usleep(50_000)
        }
    }

    func stop() {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
    }
}
