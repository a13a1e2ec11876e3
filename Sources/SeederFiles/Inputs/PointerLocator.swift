import SeederCore

/// The JSON Pointers of records at file offsets, found by reading their dump files again as the
/// build read them. A row keeps its record's file and offset, not its pointer: the pointer was a
/// text per row, written for the few rows a message ever names (bench/README.md).
package struct PointerLocator {
    /// The build's input files, in plan order.
    package let files: [InputFile]

    package init(files: [InputFile]) { self.files = files }

    /// The pointer of the record that starts at each `(file, offset)`, `file` as diagnostics
    /// name it; `nil` where the file no longer reads as it did (changed since, or unreadable).
    /// Each file is read once, and only until every offset asked of it is found.
    package func pointers(_ wanted: [(file: String, offset: Int)]) -> [String?] {
        var found: [String: [Int: String]] = [:]
        for (name, offsets) in group(wanted) {
            var missing = Set(offsets)
            for file in files where file.path == name && !missing.isEmpty {
                for (offset, pointer) in locate(missing, in: file) {
                    found[name, default: [:]][offset] = pointer
                    missing.remove(offset)
                }
            }
        }
        return wanted.map { found[$0.file]?[$0.offset] }
    }

    private func group(_ wanted: [(file: String, offset: Int)]) -> [String: [Int]] {
        var groups: [String: [Int]] = [:]
        for (file, offset) in wanted { groups[file, default: []].append(offset) }
        return groups
    }

    /// Reads `file` item by item until each offset is found as the start of a value: one pass,
    /// since items come in file order and the offsets are taken in order.
    private func locate(_ offsets: Set<Int>, in file: InputFile) -> [Int: String] {
        struct Done: Error {}
        let sorted = offsets.sorted()
        var next = 0
        var pointers: [Int: String] = [:]
        guard let source = try? file.openBytes() else { return pointers }
        let reader = JSONReader(source: source, format: file.format, keyPath: file.keyPath, keyed: file.keyedBy != nil)
        func find(in document: JSONDocument) throws {
            let end = document.fileOffset + document.bytes.count
            while next < sorted.count, sorted[next] < end {
                let offset = sorted[next]
                if offset >= document.fileOffset, let value = document.value(startingAt: offset - document.fileOffset) {
                    pointers[offset] = value.pointer.description
                }
                next += 1
            }
            if next == sorted.count { throw Done() }
        }
        try? reader.forEachItem { item in
            switch item {
            case let .record(record): try find(in: record.document)
            // A keyed record's key is a value of its record (the attribute it becomes), and so is
            // a bare id, a record of its own.
            case let .keyedRecord(key, record):
                try find(in: key.document)
                try find(in: record.document)
            case let .notARecord(value) where file.keyedBy == nil && value.kind != .array: try find(in: value.document)
            default: return
            }
        }
        return pointers
    }
}
