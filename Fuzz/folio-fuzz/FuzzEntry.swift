import Folio
import Foundation

/// libFuzzer's entry point: `make fuzz` builds this with `-sanitize=fuzzer` and runs it on
/// the corpus in Fuzz/corpus. Every input goes through `FuzzHarness.run`.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    FuzzHarness.run(Data(bytes: start, count: count))
    return 0
}
