/// A copy of `elements` in C memory that lives as long as the value: what a C struct points to
/// (`CStringArray` does the same for strings).
final class CArray<Element> {
    let pointer: UnsafeMutablePointer<Element>
    let count: Int

    init(_ elements: [Element]) {
        count = elements.count
        pointer = .allocate(capacity: max(elements.count, 1))
        _ = UnsafeMutableBufferPointer(start: pointer, count: count).initialize(from: elements)
    }

    deinit {
        pointer.deinitialize(count: count)
        pointer.deallocate()
    }
}
