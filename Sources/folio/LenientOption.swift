import ArgumentParser

/// `--lenient`, with one meaning for `render` and `batch`: a key no field has is a warning on
/// standard error, not an error.
struct LenientOption: ParsableArguments {
    @Flag(
        help:
            "Keys no field has (such as a misspelt 'titel') are warnings printed on standard error, not errors. Batch prints the template's once."
    )
    var lenient = false
}
