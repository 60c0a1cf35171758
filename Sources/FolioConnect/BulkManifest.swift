import FolioModel
import Foundation

/// A completed export's manifest: when it was taken, whether its files need the token, and its
/// files (each a type, an address and, when the server says, a count of resources).
package struct BulkManifest: Sendable {
    /// One file of the export.
    package struct File: Sendable, Equatable {
        /// Its resource type.
        package var type: String
        /// Where it is.
        package var url: ServerURL
        /// How many resources it holds, when the server says.
        package var count: Int?
    }

    /// The server's `transactionTime`: an incremental fetch's `_since` next time.
    package var transactionTime: String
    /// Whether the files need the bearer token.
    package var requiresAccessToken: Bool
    /// The data files, in the manifest's order.
    package var output: [File]
    /// Files of OperationOutcomes about the export.
    package var errors: [File]
    /// The manifest's own JSON (every page of it), kept in the folder.
    package var pages: [Data]
    /// The next page's address, when the manifest is paged.
    package var next: ServerURL?

    /// The most files a manifest may list.
    package static let maximumFiles = 100_000

    /// The manifest in `object`, its addresses read against `status` and checked.
    package init(_ object: [String: Any], status: ServerURL) throws {
        guard let time = object["transactionTime"] as? String else {
            throw FolioError(path: "manifest.transactionTime", "the export's manifest has no transactionTime")
        }
        transactionTime = time
        requiresAccessToken = object["requiresAccessToken"] as? Bool ?? false
        output = try Self.files(object["output"], field: "manifest.output", status: status)
        errors = try Self.files(object["error"], field: "manifest.error", status: status)
        pages = [(try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()]
        next = nil
        for (index, link) in ((object["link"] as? [[String: Any]]) ?? []).enumerated() where link["relation"] as? String == "next" {
            guard let url = link["url"] as? String else { continue }
            next = try status.resolving(url, field: "manifest.link[\(index)].url")
        }
    }

    /// Adds the next page's files.
    package mutating func append(_ page: BulkManifest) throws {
        output += page.output
        errors += page.errors
        pages += page.pages
        next = page.next
        guard output.count + errors.count <= Self.maximumFiles else {
            throw FolioError(path: "manifest.output", "the export lists more than \(Self.maximumFiles) files")
        }
    }

    private static func files(_ value: Any?, field: String, status: ServerURL) throws -> [File] {
        guard let value else { return [] }
        guard let items = value as? [[String: Any]] else { throw FolioError(path: field, "expected an array of objects") }
        guard items.count <= maximumFiles else { throw FolioError(path: field, "the export lists more than \(maximumFiles) files") }
        return try items.enumerated().map { index, item in
            guard let type = item["type"] as? String, BulkExportRequest.isResourceType(type) else {
                throw FolioError(path: "\(field)[\(index)].type", "expected a FHIR resource type")
            }
            guard let url = item["url"] as? String else { throw FolioError(path: "\(field)[\(index)].url", "expected an address") }
            var count: Int?
            if let number = item["count"] as? NSNumber {
                let value = number.doubleValue
                guard value >= 0, value <= 1e12, value == value.rounded() else {
                    throw FolioError(path: "\(field)[\(index)].count", "expected a whole number of resources")
                }
                count = Int(exactly: value)
            }
            return File(type: type, url: try status.resolving(url, field: "\(field)[\(index)].url"), count: count)
        }
    }

    /// The file names of `output` in the folder: `Observation.ndjson`, or `Observation-1.ndjson`,
    /// `Observation-2.ndjson`, … when a type has several files.
    package var fileNames: [String] {
        var total: [String: Int] = [:]
        for file in output { total[file.type, default: 0] += 1 }
        var seen: [String: Int] = [:]
        return output.map { file in
            seen[file.type, default: 0] += 1
            return total[file.type] == 1 ? "\(file.type).ndjson" : "\(file.type)-\(seen[file.type] ?? 1).ndjson"
        }
    }
}
