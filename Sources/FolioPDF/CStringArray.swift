import Foundation

/// NUL-terminated copies of strings in a C array of `char *` that lives as long as the value.
final class CStringArray {
    let pointers: UnsafeMutablePointer<UnsafePointer<CChar>?>
    let count: Int

    init(_ strings: [String?]) {
        count = strings.count
        pointers = .allocate(capacity: max(strings.count, 1))
        // nil stays a NULL pointer (free(NULL) does nothing).
        for (index, string) in strings.enumerated() { pointers[index] = string.map { UnsafePointer(strdup($0)) } }
    }

    deinit {
        for index in 0..<count { free(UnsafeMutableRawPointer(mutating: pointers[index])) }
        pointers.deallocate()
    }
}
