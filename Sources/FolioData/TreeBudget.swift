import FolioModel

/// The values one input may hold, counted across the input and every file it includes: each value
/// as it is read (`literal`), and each value a YAML alias or a file included again repeats
/// (`repeated`), so that nothing can make the tree far larger than its text.
///
/// The rule is the one Kubernetes' YAML reader (go-yaml) keeps against "billion laughs": up to
/// `freeValues` values anything goes; past it, repeats may make at most 99 % of the values, falling
/// to 10 % at `strictValues` and beyond; and never more than `InputLimits.treeValues` in all.
/// A repeat is never copied (the tree shares it), but every reader after this one — the includes'
/// resolver, the decoder, the layout — spends time and memory on each value as if it were.
package final class TreeBudget {
    /// Values any input may hold, however many of them repeat others.
    package static let freeValues = 400_000
    /// Values past which repeats may make at most 10 % of an input.
    package static let strictValues = 4_000_000

    /// Values counted so far, repeats included.
    package private(set) var values = 0
    /// Values counted so far that repeat others.
    package private(set) var repeated = 0

    /// A budget with nothing spent.
    package init() {}

    /// The share of `values` that may be repeats.
    package static func allowedShare(of values: Int) -> Double {
        if values <= freeValues { return 0.99 }
        if values >= strictValues { return 0.10 }
        return 0.99 - 0.89 * Double(values - freeValues) / Double(strictValues - freeValues)
    }

    /// Counts `literal` values read and `repeated` values repeated; throws `Exceeded` once the input
    /// holds more than it may.
    package func spend(literal: Int = 0, repeated more: Int = 0) throws {
        values += literal + more
        repeated += more
        guard values <= InputLimits.treeValues else { throw Exceeded(values: values, repeated: repeated) }
        if values > TreeBudget.freeValues, Double(repeated) > TreeBudget.allowedShare(of: values) * Double(values) {
            throw Exceeded(values: values, repeated: repeated)
        }
    }

    /// Thrown when an input holds more values than it may: `message` says how many and why.
    package struct Exceeded: Error {
        /// Values counted when the budget ran out.
        package let values: Int
        /// Of them, repeats.
        package let repeated: Int

        /// One line for the error: what was counted, against which bound.
        package var message: String {
            if values > InputLimits.treeValues {
                return "the document and the files it includes hold more than \(InputLimits.treeValues) values"
            }
            let percent = Int((TreeBudget.allowedShare(of: values) * 100).rounded())
            return
                "YAML aliases and files included more than once repeat \(repeated) of the document's first \(values) values; past \(TreeBudget.freeValues) values at most \(percent) % may be repeats"
        }
    }
}

extension TreeValue {
    /// How many values the tree holds, itself included (a shared subtree counted each time it appears).
    package var valueCount: Int {
        switch self {
        case .array(let items): return items.reduce(1) { $0 + $1.valueCount }
        case .object(let members): return members.reduce(1) { $0 + $1.value.valueCount }
        default: return 1
        }
    }
}
