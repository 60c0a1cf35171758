import Folio
import FolioFuzzing
import Foundation

/// The surface this run fuzzes, from FOLIO_FUZZ_SURFACE: document (the default), svg,
/// running-text, fhir or service (`make fuzz FUZZ_SURFACE=svg`).
private let surface = ProcessInfo.processInfo.environment["FOLIO_FUZZ_SURFACE"] ?? "document"
private let debug = ProcessInfo.processInfo.environment["FOLIO_FUZZ_DEBUG"] != nil

/// libFuzzer's entry point: `make fuzz` builds this with `-sanitize=fuzzer` and runs it on
/// the surface's seed corpus (Fuzz/corpus, Fuzz/corpus-svg, Fuzz/corpus-running-text,
/// Fuzz/corpus-fhir, Fuzz/corpus-service). Every input goes through `FuzzHarness` or `ServiceFuzzHarness`.
/// With FOLIO_FUZZ_PRINT_DICTIONARY set, prints a dictionary token per block type (from the
/// model's one list, `Block.typeNames`) and exits: `make fuzz` appends them to Fuzz/folio.dict.
@_cdecl("LLVMFuzzerInitialize")
public func fuzzInitialize(
    _ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>
) -> CInt {
    if ProcessInfo.processInfo.environment["FOLIO_FUZZ_PRINT_DICTIONARY"] != nil {
        print(Block.typeNames.map { "\"\($0)\"" }.joined(separator: "\n"))
        exit(0)
    }
    return 0
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let data = Data(bytes: start, count: count)
    if surface == "service" {
        ServiceFuzzHarness.run(data)
    } else {
        let result = FuzzHarness.run(data, surface: FuzzHarness.Surface(rawValue: surface) ?? .document)
        // FOLIO_FUZZ_DEBUG=1: say what each input gave, to see that a surface reaches past its first check.
        if debug { FileHandle.standardError.write(Data("\(result ?? "rendered")\n".utf8)) }
    }
    return 0
}
