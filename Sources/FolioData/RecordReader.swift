import CSV
import FolioModel
import Foundation

/// One input record: its 1-based number and its value, or why it could not be read.
package struct DataRecord: Sendable {
    /// The record's number, from 1.
    package let number: Int
    /// The record, or why it could not be read.
    package let value: Result<TreeValue, FolioError>
    /// The record's JSON text as read (JSON lines and arrays, when it parsed), which a render
    /// worker is sent as is and parses itself: writing the parsed tree out again cost the batch
    /// process more than reading it. Nil for CSV rows.
    package let json: [UInt8]?

    init(number: Int, value: Result<TreeValue, FolioError>, json: [UInt8]? = nil) {
        self.number = number
        self.value = value
        self.json = json
    }
}

/// Streams records from JSON lines, a JSON array or CSV, one at a time, so memory
/// does not grow with the number of records.
package final class RecordReader {
    /// The layout of the data file.
    package enum Format: String, Sendable {
        case jsonLines, jsonArray, csv
    }

    private let handle: FileHandle
    private let format: Format
    private var buffer: [UInt8] = []
    private var position = 0
    private var atEnd = false
    private var count = 0
    private var csv: CSVReader?
    private var arrayStarted = false
    /// The array element being scanned is too large to be a record and is skipped to its end.
    private var skippingElement = false
    /// JSON lines: the line (from 1) of the record `next()` returned last, blank lines counted.
    package private(set) var lineNumber = 0
    /// What of a JSON record's value `next()` builds (its text, `DataRecord.json`, is always whole):
    /// a batch process reads only what names its files; a malformed record fails all the same.
    package var projection: JSONProjection = .whole

    /// Opens `path`; the format comes from the extension (`.csv`, `.jsonl`, `.ndjson`)
    /// or, for `.json` and others, from the first character (`[` for an array).
    /// With `format`, the file is read as that, whatever its name (a FHIR export's NDJSON files).
    package init(path: String, format forced: Format? = nil) throws {
        var info = stat()
        if stat(path, &info) == 0, info.st_mode & S_IFMT != S_IFREG {
            throw FolioError(path: "", "cannot read data file \(path): it is not a regular file (use - for standard input)")
        }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw FolioError(path: "", "cannot read data file \(path): \(String(cString: strerror(errno)))")
        }
        self.handle = handle
        let lower = path.lowercased()
        if let forced {
            format = forced
        } else if lower.hasSuffix(".csv") {
            format = .csv
        } else if lower.hasSuffix(".jsonl") || lower.hasSuffix(".ndjson") {
            format = .jsonLines
        } else {
            let head = (try? handle.read(upToCount: 4096)) ?? Data()
            try handle.seek(toOffset: 0)
            if head.contains(0) { throw FolioError(path: "", "\(path) is not a JSON or CSV text file") }
            let first = head.first { ![0x20, 0x0A, 0x0D, 0x09, 0xEF, 0xBB, 0xBF].contains($0) }
            format = first == UInt8(ascii: "[") ? .jsonArray : first == UInt8(ascii: "{") || first == nil ? .jsonLines : .csv
        }
        if format == .csv {
            if let line = try CSVQuoteCheck.unclosedQuoteLine(path: path) {
                throw FolioError(
                    path: "",
                    "\(path): line \(line): a quoted field is never closed (its \" opens it and the file ends), so no record after it could be read"
                )
            }
            guard let stream = InputStream(fileAtPath: path) else { throw FolioError(path: "", "cannot read data file \(path) as CSV") }
            do {
                csv = try CSVReader(stream: stream, hasHeaderRow: true)
            } catch {
                throw FolioError(path: "", "\(path) is not valid CSV: \(error)")
            }
        }
    }

    deinit { try? handle.close() }

    /// The next record, or nil at the end. A malformed record is returned as a failure;
    /// only a file that cannot be read at all throws.
    package func next() throws -> DataRecord? {
        switch format {
        case .jsonLines: return try nextLine()
        case .jsonArray: return try nextArrayElement()
        case .csv: return try nextCSVRow()
        }
    }

    /// Reads the next chunk; false at the end.
    private func fill() throws -> Bool {
        guard !atEnd else { return false }
        let chunk: Data
        do {
            chunk = try handle.read(upToCount: 1 << 16) ?? Data()
        } catch {
            throw FolioError(path: "", "cannot read the data file: \((error as NSError).localizedDescription)")
        }
        if chunk.isEmpty {
            atEnd = true
            return false
        }
        if position > 0 {
            buffer.removeFirst(position)
            position = 0
        }
        buffer.append(contentsOf: chunk)
        return true
    }

    /// The next record, which is larger than `InputLimits.documentBytes`: it fails alone (its
    /// bytes were skipped, never held), and the batch goes on with the next one.
    private func oversizedRecord() -> DataRecord {
        count += 1
        return DataRecord(
            number: count,
            value: .failure(
                FolioError(path: "", "the record is larger than \(InputLimits.documentBytes) bytes, the most one record may have")))
    }

    private func record(_ bytes: ArraySlice<UInt8>) -> DataRecord {
        count += 1
        do {
            let json = Array(bytes)
            return DataRecord(number: count, value: .success(try JSONTreeParser.parse(json, keeping: projection)), json: json)
        } catch var error as FolioError {
            // Its line and column are the record's, which its message says, not the data file's.
            error.position = nil
            return DataRecord(number: count, value: .failure(error))
        } catch {
            return DataRecord(number: count, value: .failure(FolioError(path: "", "\(error)")))
        }
    }

    private func nextLine() throws -> DataRecord? {
        // Bytes from `position` up to `scanned` hold no newline; a long line is scanned once.
        var scanned = position
        while true {
            if let newline = buffer[scanned...].firstIndex(of: 0x0A) {
                let line = buffer[position..<newline]
                position = newline + 1
                scanned = position
                lineNumber += 1
                if line.allSatisfy({ $0 == 0x20 || $0 == 0x0D || $0 == 0x09 }) { continue }
                return line.count > InputLimits.documentBytes ? oversizedRecord() : record(line)
            }
            if buffer.count - position > InputLimits.documentBytes { return try skipOversizedLine() }
            let consumed = position
            scanned = buffer.count
            guard try fill() else {
                let line = buffer[position...]
                position = buffer.count
                if line.allSatisfy({ $0 == 0x20 || $0 == 0x0D || $0 == 0x09 || $0 == 0x0A }) { return nil }
                lineNumber += 1
                return line.count > InputLimits.documentBytes ? oversizedRecord() : record(line)
            }
            scanned -= consumed  // fill() dropped the bytes before `position`
        }
    }

    /// Drops the line being read, chunk by chunk, up to its newline: it is too large to be a record.
    private func skipOversizedLine() throws -> DataRecord {
        lineNumber += 1
        buffer.removeAll(keepingCapacity: true)
        position = 0
        while try fill() {
            if let newline = buffer.firstIndex(of: 0x0A) {
                position = newline + 1
                break
            }
            buffer.removeAll(keepingCapacity: true)
            position = 0
        }
        return oversizedRecord()
    }

    /// Scans to the end of the next top-level element, tracking strings and nesting.
    private func nextArrayElement() throws -> DataRecord? {
        var scan = position
        var depth = 0
        var inString = false
        var escaped = false
        var start: Int?
        while true {
            while scan < buffer.count {
                let byte = buffer[scan]
                if inString {
                    if escaped {
                        escaped = false
                    } else if byte == UInt8(ascii: "\\") {
                        escaped = true
                    } else if byte == UInt8(ascii: "\"") {
                        inString = false
                    }
                } else if !arrayStarted {
                    if byte == UInt8(ascii: "[") {
                        arrayStarted = true
                        position = scan + 1
                    } else if ![0x20, 0x0A, 0x0D, 0x09, 0xEF, 0xBB, 0xBF].contains(byte) {
                        throw FolioError(path: "", "the data file is not a JSON array")
                    }
                } else if start == nil {
                    if byte == UInt8(ascii: "]") {
                        atEnd = true
                        position = buffer.count
                        return nil
                    }
                    if ![0x20, 0x0A, 0x0D, 0x09, UInt8(ascii: ",")].contains(byte) {
                        start = scan
                        if byte == UInt8(ascii: "\"") {
                            inString = true
                        } else if byte == UInt8(ascii: "{") || byte == UInt8(ascii: "[") {
                            depth = 1
                        }
                    }
                } else if byte == UInt8(ascii: "\"") {
                    inString = true
                } else if byte == UInt8(ascii: "{") || byte == UInt8(ascii: "[") {
                    depth += 1
                } else if byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]") {
                    if depth == 0, let begin = start {
                        // A scalar element ended by the array's closing bracket.
                        position = scan
                        return finishedElement(buffer[begin..<scan])
                    }
                    depth -= 1
                    if depth == 0, let begin = start {
                        position = scan + 1
                        return finishedElement(buffer[begin...scan])
                    }
                } else if byte == UInt8(ascii: ","), depth == 0, let begin = start {
                    position = scan + 1
                    return finishedElement(buffer[begin..<scan])
                }
                scan += 1
            }
            if let begin = start, scan - begin > InputLimits.documentBytes {
                // Too large to be a record: forget what was scanned, keep scanning to its end.
                skippingElement = true
                position = scan
                start = scan
            }
            let consumed = position
            if try !fill() {
                if let begin = start { throw FolioError(path: "", "the data file ends inside record \(count + 1) (byte \(begin))") }
                if arrayStarted { throw FolioError(path: "", "the data file's JSON array is not closed with ]") }
                return nil
            }
            // fill() dropped the consumed bytes: shift our indexes with them.
            scan -= consumed
            if let begin = start { start = begin - consumed }
        }
    }

    /// The element just scanned, or its failure when it was too large and skipped.
    private func finishedElement(_ bytes: ArraySlice<UInt8>) -> DataRecord {
        guard skippingElement || bytes.count > InputLimits.documentBytes else { return record(bytes) }
        skippingElement = false
        return oversizedRecord()
    }

    private func nextCSVRow() throws -> DataRecord? {
        guard let csv else { return nil }
        var next: [String]?
        repeat {
            next = csv.next()
            // A blank line is no record.
        } while next.map({ row in row.allSatisfy { $0.allSatisfy(\.isWhitespace) } }) == true
        guard let row = next else {
            // CSV.swift stops at bytes that are not UTF-8: say so rather than end the batch early.
            if let error = csv.error as? CSVError, case .unicodeDecoding = error {
                throw FolioError(path: "", "the CSV data is not UTF-8 after record \(count)")
            }
            return nil
        }
        if row.reduce(0, { $0 + $1.utf8.count }) > InputLimits.documentBytes { return oversizedRecord() }
        count += 1
        let header = csv.headerRow ?? []
        if let deep = header.first(where: { $0.split(separator: ".").count > InputLimits.nestingDepth }) {
            throw FolioError(path: "", "the CSV column \"\(deep.prefix(40))…\" nests more than \(InputLimits.nestingDepth) levels deep")
        }
        var tree = TreeValue.object([])
        for (index, name) in header.enumerated() where index < row.count {
            let cell = row[index]
            guard !cell.isEmpty else { continue }
            tree = RecordReader.setting(tree, path: name.split(separator: ".").map(String.init), to: RecordReader.cellValue(cell))
        }
        return DataRecord(number: count, value: .success(tree))
    }

    /// A CSV cell as a number, a JSON list or object, or text.
    static func cellValue(_ cell: String) -> TreeValue {
        if let number = Double(cell), number.isFinite { return .number(number) }
        if let first = cell.first, first == "[" || first == "{", let parsed = try? JSONTreeParser.parse(Data(cell.utf8)) {
            return parsed
        }
        return .string(cell)
    }

    /// `tree` with the value at a dotted column name (`patient.name`) set, creating objects on the way.
    static func setting(_ tree: TreeValue, path: [String], to value: TreeValue) -> TreeValue {
        guard let key = path.first else { return value }
        guard case .object(var members) = tree else { return tree }
        if let index = members.firstIndex(where: { $0.key == key }) {
            members[index].value = setting(members[index].value, path: Array(path.dropFirst()), to: value)
        } else {
            members.append((key, setting(.object([]), path: Array(path.dropFirst()), to: value)))
        }
        return .object(members)
    }
}
