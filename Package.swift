// swift-tools-version:6.0
import Foundation
import PackageDescription

let package = Package(
    name: "Folio",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "Folio", targets: ["Folio"]),
        .library(name: "FolioModel", targets: ["FolioModel"]),
        .library(name: "FolioTemplate", targets: ["FolioTemplate"]),
        .library(name: "FolioSheets", targets: ["FolioSheets"]),
        .executable(name: "folio", targets: ["folio"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/jpsim/Yams", from: "5.0.1"),
        .package(url: "https://github.com/yaslab/CSV.swift", from: "2.5.2"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache", from: "2.1.1"),
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.0"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.34.1"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
    ],
    targets: [
        // Cairo and Pango. Their include paths come from cairo.pc and harfbuzz.pc (which name
        // glib's too) and from include/pango, a link to Debian's /usr/include/pango-1.0/pango:
        // pango's own .pc files pull in gio's "-pthread", which SwiftPM reports as a prohibited
        // flag to every package that depends on Folio.
        .systemLibrary(name: "CCairoFlags", pkgConfig: "cairo", providers: [.apt(["libcairo2-dev"])]),
        .systemLibrary(name: "CHarfBuzzFlags", pkgConfig: "harfbuzz", providers: [.apt(["libharfbuzz-dev"])]),
        // libpng: page pictures written at zlib level 1 (Cairo's own writer takes libpng's slow defaults).
        .target(name: "CCairoPango", dependencies: ["CCairoFlags", "CHarfBuzzFlags"], linkerSettings: [.linkedLibrary("png16")]),
        .systemLibrary(
            name: "CJPEG",
            pkgConfig: "libjpeg",
            providers: [.apt(["libjpeg62-turbo-dev"])]
        ),
        // Expat (Debian's libexpat1, which fontconfig loads into every process already): the XML parser
        // an svg block's markup is read with.
        .systemLibrary(name: "CExpat", pkgConfig: "expat", providers: [.apt(["libexpat1-dev"])]),
        // libhyphen (Debian's libhyphen-dev, its static library): break opportunities in justified text.
        .systemLibrary(name: "CHyphen", providers: [.apt(["libhyphen-dev"])]),
        // librsvg, loaded with dlopen on the first SVG picture (Debian's librsvg2-2).
        .target(name: "CRSVG", linkerSettings: [.linkedLibrary("dl")]),
        // The PDF finishing step (C++). qpdf is linked statically (Debian's libqpdf.a, with the JPEG and
        // zlib it needs) and GnuTLS, its crypto provider, is opened on first use (GnuTLSOnDemand.cc), as
        // is OpenSSL's libcrypto for signing (OpenSSLOnDemand.hh): binding libqpdf.so, GnuTLS's libraries
        // and libcrypto cost every process start 5 ms. The file identifier's digest is given by FolioPDF
        // (swift-crypto's SHA-256).
        // FreeType (Debian's libfreetype-dev; Cairo loads libfreetype into every process already): the
        // finishing step opens every font program an appended PDF embeds, as a viewer would.
        .systemLibrary(name: "CFreeTypeFlags", pkgConfig: "freetype2", providers: [.apt(["libfreetype-dev"])]),
        .target(
            name: "CPDFFinish",
            dependencies: ["CFreeTypeFlags"],
            linkerSettings: [
                .linkedLibrary(":libqpdf.a"), .linkedLibrary("jpeg"), .linkedLibrary("z"),
                .linkedLibrary("deflate"), .linkedLibrary("dl"),
            ]),
        // Barcodes (Debian's libzint, opened with dlopen on the first barcode; its header from
        // libzint-dev): QR, Data Matrix, Code 128, PDF417, EAN-13 as rectangles.
        .target(name: "CBarcode", linkerSettings: [.linkedLibrary("dl")]),
        // The text of appended PDFs' pages (Debian's libpoppler-glib8, opened with dlopen when a pdf block
        // without a text alternative first needs it).
        .target(name: "CPageText", linkerSettings: [.linkedLibrary("dl")]),
        // SQLite (Debian's libsqlite3, its header from libsqlite3-dev): the temporary index a FHIR export
        // is sorted through by patient, loaded with dlopen when an export first needs it.
        .target(name: "CSQLite", linkerSettings: [.linkedLibrary("dl")]),
        // Render worker processes: their shared activity page, spawning, memory limits and the crash report.
        .target(name: "CProcessSupport"),
        // `folio render`'s start-up constructor: reads the font configuration before `main`.
        .target(name: "CFolioStartup", dependencies: ["CCairoPango"]),
        // The executable's zlib default level (Cairo's font subsets and images at level 1): only `folio`
        // and `folio-bench` link it, so a program using the library keeps zlib's default.
        .target(name: "CStreamCompression", linkerSettings: [.linkedLibrary("z")]),
        // printf's fixed notation for FolioGraphics' DecimalText, without Swift's variadic CVarArg boxing.
        .target(name: "CNumberText"),
        // The document model: its types, validation, limits and built-in words.
        .target(name: "FolioModel"),
        // Drawing: geometry, paths, themes, the Canvas protocol, Drawing, text measuring and shaping protocols.
        .target(name: "FolioGraphics", dependencies: ["FolioModel", "CNumberText"]),
        .target(name: "FolioCharts", dependencies: ["FolioModel", "FolioGraphics"]),
        // Input: files read within their limits and confinement, images and SVG pictures checked,
        // a document prepared (validated, themed, its files read once) for the writers.
        // Appended PDFs are read and checked by the finishing step's qpdf (CPDFFinish).
        .target(
            name: "FolioInput",
            dependencies: ["FolioModel", "FolioGraphics", "FolioFiles", "CBarcode", "CExpat", "CPDFFinish", "CPageText"]),
        // Layout: blocks into flowables, pages and page frames; no C module (text through TextShaper).
        .target(name: "FolioLayout", dependencies: ["FolioModel", "FolioGraphics", "FolioCharts", "FolioInput"]),
        // The text engine: Pango shaping and measuring (the TextShaper the PDF lays out with).
        .target(name: "FolioPango", dependencies: ["CCairoPango", "CHyphen", "FolioModel", "FolioGraphics"]),
        .target(
            name: "FolioPDF",
            dependencies: [
                "CCairoPango", "CJPEG", "CRSVG", "CPDFFinish", "FolioModel", "FolioGraphics", "FolioInput", "FolioLayout", "FolioPango",
                "FolioFiles",
                // SHA-256 for the file identifier (the trailer's /ID).
                .product(name: "Crypto", package: "swift-crypto"),
            ]),
        .target(
            name: "FolioHTML",
            dependencies: [
                "FolioModel", "FolioGraphics", "FolioCharts", "FolioInput",
                .product(name: "Mustache", package: "swift-mustache"),
                // SHA-256 of the stylesheet for the Content-Security-Policy (also the batch manifest's and ETags').
                .product(name: "Crypto", package: "swift-crypto"),
            ]),
        // Shared state and the one lock type (`Locked`) live in FolioModel, the lowest module.
        // Files written whole or not at all (`AtomicFile`: fsync, rename, fsync of the folder), line
        // logs and secret files: what every program that writes outputs uses.
        .target(name: "FolioFiles", dependencies: ["FolioModel", "CProcessSupport"]),
        // Reading: the JSON tree and its parser, YAML read with libyaml's event parser, the tree
        // decoder, source locations, includes, and the record reader (JSON lines, arrays, CSV).
        .target(
            name: "FolioData",
            dependencies: [
                "FolioModel", "FolioFiles", .product(name: "CSV", package: "CSV.swift"),
                // Yams brings libyaml (its CYaml module), whose event parser YAMLEventReader reads documents with.
                .product(name: "Yams", package: "Yams"),
            ]),
        // Templates bound to records, tables of records made into rows, and documents decoded whole.
        .target(name: "FolioTemplate", dependencies: ["FolioModel", "FolioGraphics", "FolioData"]),
        // Tables as spreadsheets: XLSX written by libxlsxwriter, CSV by RFC 4180, a document's tables as typed cells.
        // libxlsxwriter (Debian's libxlsxwriter-dev) loaded with dlopen when a spreadsheet is written: it brings libcrypto.
        .target(name: "CXLSXWriter", linkerSettings: [.linkedLibrary("dl")]),
        .target(
            name: "FolioSheets", dependencies: ["Folio", "FolioModel", "FolioGraphics", "FolioData", "FolioTemplate", "CXLSXWriter"]),
        // FHIR R4 read into report records (the export's index in SQLite, the record builder, units,
        // times, the words of a summary) and DocumentReferences written back.
        .target(
            name: "FolioFHIR",
            dependencies: [
                "FolioModel", "FolioData", "FolioFiles", "CSQLite",
                // SHA-1 of each written document for its FHIR DocumentReference (Attachment.hash).
                .product(name: "Crypto", package: "swift-crypto"),
            ]),
        // HTTP(S) through Debian's libcurl (libcurl4; its header from libcurl4-openssl-dev), opened with dlopen on the
        // first request: only the commands that talk to a FHIR server use it, and a render never binds it.
        .target(name: "CHTTPClient", linkerSettings: [.linkedLibrary("dl")]),
        // Talking to FHIR servers: addresses checked, SMART Backend Services authorization (RS384 and ES384
        // assertions, tokens renewed), retries, the Bulk Data client `folio fetch` runs and the poster of
        // `folio batch --post`.
        .target(
            name: "FolioConnect",
            dependencies: [
                "FolioModel", "FolioFiles", "FolioFHIR", "CHTTPClient",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
            ]),
        // The editors' JSON Schemas, made from the model by probing its decoder.
        .target(name: "FolioSchema", dependencies: ["FolioModel", "FolioData", "FolioTemplate"]),
        // The render API: a document to PDF, HTML or page pictures. A program wanting only a PDF
        // imports this and builds none of the reading, templates, FHIR, spreadsheets, workers or schemas.
        .target(
            name: "Folio",
            dependencies: [
                "FolioModel", "FolioGraphics", "FolioCharts", "FolioInput", "FolioLayout", "FolioPango", "FolioPDF", "FolioHTML",
                "FolioFiles",
            ]),
        // Render worker processes (spawning, their channel, memory limits, the crash report) shared by batch and service.
        .target(name: "FolioWorkers", dependencies: ["Folio", "FolioFiles", "FolioData", "FolioTemplate", "CProcessSupport"]),
        // One template and many records: one document each, on every core, with progress and failures.
        .target(
            name: "FolioBatch",
            dependencies: ["Folio", "FolioWorkers", "FolioTemplate", "FolioData", "FolioFHIR", "FolioSheets", "FolioFiles"]),
        .target(
            name: "FolioServer",
            dependencies: [
                "Folio", "FolioWorkers", "FolioTemplate", "FolioData", "FolioFHIR", "FolioSheets", "FolioFiles", "FolioBatch",
                // Webhooks are sent through FolioConnect's libcurl exchange, to public addresses only.
                "FolioConnect",
                .product(name: "Hummingbird", package: "hummingbird"),
                // HMAC-SHA256 of webhook signatures.
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                // The job store of several servers (--job-store postgresql://…), and its TLS.
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ], resources: [.embedInCode("openapi.yaml")]),
        // What the fuzzer and the regression tests feed every input through.
        .target(name: "FolioFuzzing", dependencies: ["Folio", "FolioServer", "FolioTemplate", "FolioData", "FolioFHIR"]),
        .executableTarget(
            name: "folio",
            dependencies: [
                "Folio", "FolioServer", "FolioBatch", "FolioWorkers", "FolioTemplate", "FolioData", "FolioFHIR", "FolioSheets",
                "FolioSchema", "FolioFiles", "FolioConnect", "CFolioStartup", "CStreamCompression",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),
        // The benchmark measures what `folio` does: with its zlib level (and, at start-up, its
        // compressStreamsOnce).
        .executableTarget(
            name: "folio-bench",
            dependencies: ["Folio", "FolioTemplate", "FolioData", "FolioFHIR", "FolioPango", "FolioPDF", "FolioHTML", "CStreamCompression"]),
        // A program that imports only Folio to write a PDF: the proof that such a program builds none of the
        // reading, templates, FHIR, spreadsheets, workers, schemas or fuzz harnesses (PDFOnlyProgramTests).
        .executableTarget(name: "weekly-summary-pdf", dependencies: ["Folio"], path: "Examples/weekly-summary-pdf"),
        .testTarget(
            name: "FolioTests",
            dependencies: [
                "Folio", "FolioLayout", "FolioPango", "FolioPDF", "FolioHTML", "FolioServer", "FolioBatch", "FolioWorkers", "FolioTemplate",
                "FolioData", "FolioFHIR", "FolioSheets", "FolioSchema", "FolioFiles", "FolioFuzzing", "FolioConnect", "folio",
                "weekly-summary-pdf",
                .product(name: "PropertyBased", package: "swift-property-based"),
                // The FHIR test server `folio fetch` is tested against, and its checks of the client's assertions.
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "Yams", package: "Yams"),
            ], exclude: ["Fixtures", "Golden", "Browser"]),
        .testTarget(name: "FolioFHIRTests", dependencies: ["FolioFHIR", "FolioData", "FolioModel"], exclude: ["Fixtures"]),
    ],
    cxxLanguageStandard: .cxx17
)

// The libFuzzer target exists only for `make fuzz` (FOLIO_FUZZ=1): it has no main of its own.
if ProcessInfo.processInfo.environment["FOLIO_FUZZ"] != nil {
    package.targets.append(
        .executableTarget(name: "folio-fuzz", dependencies: ["FolioFuzzing", "Folio"], path: "Fuzz/folio-fuzz"))
    package.products.append(.executable(name: "folio-fuzz", targets: ["folio-fuzz"]))
}
