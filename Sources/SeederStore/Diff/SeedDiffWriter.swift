import Foundation
import SeederCore
import SeederFiles

/// The forms `seeder diff` prints.
package enum DiffFormat: String, CaseIterable, Sendable {
    /// For people at a terminal.
    case text
    /// One JSON document, keys in a fixed order, for tools.
    case json
    /// A summary table and collapsible details, for a pull-request comment.
    case markdown
}

/// Writes a diff while `SeedDiffer` runs, in constant memory.
///
/// The summary comes first but is known last, so each record is formatted when it arrives and
/// appended to an anonymous spool file; `finish` writes the summary, then each table's part of
/// the spool. At most `limit` items of each list are listed, the rest counted; markdown also fits
/// in `maxBytes` (docs/commands.md, diff: Markdown), so a table's records past that many bytes
/// are only counted, never spooled.
///
/// ```swift
/// let writer = try SeedDiffWriter(format: .markdown, limit: 50)
/// let diff = try SeedDiffer(old: a, new: b).diff(writer.add)
/// try writer.finish(diff)
/// ```
package final class SeedDiffWriter {
    let format: DiffFormat
    let limit: Int?
    /// Markdown's most bytes, the note of a cut included; `nil` for text and JSON.
    let maxBytes: Int?
    private let output: ByteSink
    private let spool: ByteSink
    /// Per table index: its bytes in the spool and how many records were listed or left out.
    private var parts: [Int: Part] = [:]
    /// The JSON of one record, its memory kept from record to record.
    private var recordJSON = JSONStreamWriter()

    private struct Part {
        var range: Range<Int>
        var listed = 0
        var notListed = 0
        /// Markdown: records past `maxBytes`, which no comment could list.
        var pastBytes = 0
        /// Markdown: where each listed record ends in the spool, so that a cut falls between two.
        var ends: [Int] = []
    }

    /// A markdown comment's most bytes unless `--max-bytes` says otherwise: GitHub takes 65,536
    /// characters a comment.
    package static let commentBytes = 60_000
    /// The fewest `--max-bytes`: room for the heading, a count table and the note of a cut.
    package static let minimumBytes = 2_000

    /// Markdown: what the last line says when a list was cut to fit `maxBytes`, instead of the
    /// default (`shortenedNote(_:)`): the step summary names its own limit.
    package var shortenedNote: String?

    /// The `--changeset` file written and what it holds, for the JSON document.
    package var changeset: (path: String, SeedChangeset)?

    /// A writer to the file descriptor `descriptor` (standard output by default); `maxBytes` for
    /// markdown, `commentBytes` by default.
    package init(format: DiffFormat, limit: Int? = nil, maxBytes: Int? = nil, descriptor: Int32 = STDOUT_FILENO) throws {
        self.format = format
        self.limit = limit
        self.maxBytes = format == .markdown ? max(maxBytes ?? Self.commentBytes, Self.minimumBytes) : nil
        output = ByteSink(descriptor: descriptor)
        spool = try ByteSink(spoolIn: NSTemporaryDirectory())
    }

    /// Takes one record that differs: formats it into the spool, or counts it past the limit.
    package func add(_ table: TableDiff, _ change: RecordChange) throws {
        var part = parts[table.index] ?? Part(range: spool.count..<spool.count)
        if let limit, part.listed >= limit {
            part.notListed += 1
        } else if let maxBytes, part.range.count >= maxBytes {
            // More than a comment holds: only counted.
            part.pastBytes += 1
        } else {
            switch format {
            case .text: try spool.write(textRecord(table, change))
            case .json:
                writeJSONRecord(table, change, afterElement: part.listed > 0, to: &recordJSON)
                try spool.write(bytes: recordJSON.bytes)
            case .markdown: try spool.write(markdownRecord(table, change))
            }
            part.listed += 1
            part.range = part.range.lowerBound..<spool.count
            if maxBytes != nil { part.ends.append(spool.count) }
        }
        parts[table.index] = part
    }

    /// Writes the whole diff: schema, metadata, counts, then each table's records.
    package func finish(_ diff: SeedDiff) throws {
        switch format {
        case .text: try writeText(diff)
        case .json: try writeJSON(diff)
        case .markdown: try writeMarkdown(diff)
        }
        try output.flush()
    }

    /// Writes a table's spooled records: all of them, or as many whole ones as fit in `bytes`.
    /// Returns the bytes written, how many records were left out (by the limit or for want of
    /// room), and whether room left any out.
    func writeRecords(of table: TableDiff, within bytes: Int = .max) throws -> (bytes: Int, notListed: Int, shortened: Bool) {
        guard let part = parts[table.index] else { return (0, 0, false) }
        var end = part.range.upperBound, listed = part.listed
        if part.range.count > bytes {
            listed = part.ends.lastIndex { $0 - part.range.lowerBound <= bytes }.map { $0 + 1 } ?? 0
            end = listed == 0 ? part.range.lowerBound : part.ends[listed - 1]
        }
        try spool.copy(part.range.lowerBound..<end, to: output)
        let shortened = listed < part.listed || part.pastBytes > 0
        return (end - part.range.lowerBound, part.notListed + part.pastBytes + part.listed - listed, shortened)
    }

    /// The bytes of the table's records waiting in the spool: what listing them all would take.
    func spooledBytes(_ table: TableDiff) -> Int {
        parts[table.index]?.range.count ?? 0
    }

    /// How many of the table's records were left out by the limit (or, in markdown, by `maxBytes`).
    func notListed(_ table: TableDiff) -> Int {
        parts[table.index].map { $0.notListed + $0.pastBytes } ?? 0
    }

    /// `items` bounded by `--limit`, and how many it left out.
    func bounded<Item>(_ items: [Item]) -> (items: ArraySlice<Item>, notListed: Int) {
        let shown = items.prefix(limit ?? items.count)
        return (shown, items.count - shown.count)
    }

    /// The sources a diff lists: none when it was narrowed to entities, which sources are not
    /// kept by (docs/commands.md, diff); then all are counted as left out.
    static func listedSources(_ diff: SeedDiff) -> [SourceChange] {
        diff.entities.isEmpty ? diff.sources : []
    }

    func write(_ text: String) throws {
        try output.write(text)
    }

    func write(bytes: [UInt8]) throws {
        try output.write(bytes: bytes)
    }

    // MARK: Shared wording

    /// `2 added, 1 changed` (only the non-zero counts), or `no change`.
    static func countsText(_ counts: DiffCounts) -> String {
        let parts = [(counts.added, "added"), (counts.removed, "removed"), (counts.changed, "changed")].filter { $0.0 > 0 }
        return parts.isEmpty ? "no change" : parts.map { "\(Wording.grouped($0.0)) \($0.1)" }.joined(separator: ", ")
    }

    /// The one-line verdict: what differs (`2 added, 1 removed, 3 changed records; 1 schema
    /// change`), or that the records are the same.
    static func verdict(_ diff: SeedDiff) -> String {
        var total = DiffCounts()
        for table in diff.tables {
            total.added += table.counts.added
            total.removed += table.counts.removed
            total.changed += table.counts.changed
        }
        guard !diff.holdsSameRecords else { return "the seeds hold the same records" }
        var parts: [String] = []
        if !total.isUnchanged {
            let records = total.differing == 1 ? "record" : "records"
            parts.append(
                "\(Wording.grouped(total.added)) added, \(Wording.grouped(total.removed)) removed, \(Wording.grouped(total.changed)) changed \(records)"
            )
        }
        if !diff.schema.isEmpty {
            parts.append("\(diff.schema.count) schema \(diff.schema.count == 1 ? "change" : "changes")")
        }
        return parts.joined(separator: "; ")
    }

    /// A value for people: `42`, `"Blake"` (shortened past 60 characters), `null`, and a blob as
    /// its size and digest.
    /// With `json`, a text is the JSON it holds (a `json` attribute's column), shown unquoted.
    static func display(_ value: SQLValue, json: Bool = false) -> String {
        guard case let .blob(bytes) = value else { return value.shown(json: json) }
        return "<\(bytes.count) bytes, sha256 \(shortDigest(bytes))>"
    }

    /// A value of `column` in `table`: its JSON as it is for a `json` attribute's column.
    static func display(_ value: SQLValue, of column: String, in table: TableDiff) -> String {
        display(value, json: table.jsonColumns.contains(column))
    }

    /// A field's value, or `absent` on the side without the column.
    static func display(_ value: SQLValue?, json: Bool = false) -> String {
        value.map { display($0, json: json) } ?? "absent"
    }

    /// A metadata change: `old -> new`, `none` on a side without the key; values longer than
    /// a digest by their sizes only.
    static func valueChange(_ change: MetadataChange) -> String {
        if max(change.old?.count ?? 0, change.new?.count ?? 0) > 64 {
            let sizes = [change.old, change.new].map { $0.map { "\($0.utf8.count) bytes" } ?? "none" }
            return "changed (" + sizes.joined(separator: " -> ") + ")"
        }
        return [change.old, change.new].map { $0 ?? "none" }.joined(separator: " -> ")
    }

    /// A metadata value as it is, unless it is longer than a digest: then its first 60
    /// characters and the length.
    static func shortened(_ text: String) -> String {
        text.count <= 64 ? text : String(text.prefix(60)) + "… (\(text.utf8.count) bytes)"
    }

    /// The first 12 hex digits of a blob's SHA-256.
    static func shortDigest(_ bytes: [UInt8]) -> String {
        String(SHA256.hex(bytes).prefix(12))
    }

    /// An identity as messages write it: `7`, `(hearts, 10)`, escaped (`PrintedText.escaped`).
    static func identity(_ key: some Collection<SQLValue>) -> String {
        PrintedText.escaped(IdentityKey(Array(key)).description)
    }

    /// A link's owner identity, and its target's entity and identity, split by the join table's
    /// columns. Through a selector the key ends with the chosen entity's name: `Photo`, `p1`.
    static func linkEnds(_ join: MappingSummary.JoinTable, _ key: [SQLValue]) -> (owner: String, entity: String, target: String) {
        let split = min(join.ownerColumns.count, key.count)
        var target = key[split...]
        var entity = join.target
        if join.isSelector, target.count > 1, case let .text(name)? = target.last {
            entity = name
            target = target.dropLast()
        }
        return (identity(key[..<split]), entity, identity(target))
    }

    /// The fields that describe an added or removed record: up to three non-null ones, the most
    /// telling first (`tellingColumns`, then the others in column order), links to elsewhere
    /// (`isLink`) only when nothing else is left; or every non-null field of a row without key,
    /// which has nothing else to tell it by (docs/commands.md, diff).
    static func describingFields(_ change: RecordChange) -> (fields: [(String, SQLValue)], more: Bool) {
        let present = change.fields.compactMap { field in (field.new ?? field.old).flatMap { $0 == .null ? nil : (field.column, $0) } }
        guard !change.key.isEmpty else { return (present, false) }
        // Each field ranked once, not at every comparison of the sort.
        let ranked = present.enumerated().map { (rank: rank($0.element.0, $0.element.1), offset: $0.offset) }.sorted { a, b in
            (a.rank, a.offset) < (b.rank, b.offset)
        }
        return (ranked.prefix(3).map { present[$0.offset] }, present.count > 3)
    }

    /// The field that names a changed record beside its identity: the unchanged one whose
    /// column is the most telling (`tellingColumns`, whole or as an ending), the first of equals;
    /// `nil` when none is, or only an empty text.
    static func namingField(_ change: RecordChange) -> (column: String, value: SQLValue)? {
        let ranked = change.unchanged.map { (field: $0, rank: rank($0.column, $0.value)) }
        return ranked.filter { $0.field.value != .text("") && $0.rank < 2 * tellingColumns.count }.min { $0.rank < $1.rank }?.field
    }

    /// The columns that tell a record best, best first: a column named so, or ending so
    /// (`full_name`, `issue_number`), ranks with the name (docs/commands.md, diff).
    static let tellingColumns = [
        "title", "name", "login", "username", "number", "email", "slug", "label", "key", "code", "summary", "description", "text",
        "content", "body", "message",
    ]

    /// Where a field goes in a record's description: a telling column by its place in
    /// `tellingColumns` (a whole name before an ending), then any other, then a link.
    private static func rank(_ column: String, _ value: SQLValue) -> Int {
        // Without a copy for the usual lowercase name: a diff ranks every field it prints.
        let name = column.utf8.allSatisfy { $0 < 0x80 && $0 &- UInt8(ascii: "A") >= 26 } ? column : column.lowercased()
        if isLink(name, value) { return 3 * tellingColumns.count + 1 }
        if let whole = tellingColumns.firstIndex(of: name) { return whole }
        let last = name.lastIndex(of: "_").map { name[name.index(after: $0)...] } ?? name[...]
        if let ending = tellingColumns.firstIndex(where: { $0[...] == last }) { return tellingColumns.count + ending }
        return 3 * tellingColumns.count
    }

    /// Whether a field is a link to elsewhere, which tells a person little in 60 characters: a
    /// column named `url`, `uri`, `href` or `*_url`, or a value that starts `http://` or `https://`.
    static func isLink(_ column: String, _ value: SQLValue) -> Bool {
        if column == "url" || column == "uri" || column == "href" || column.hasSuffix("_url") || column.hasSuffix("_uri")
            || column.hasSuffix("_href")
        {
            return true
        }
        guard case let .text(text) = value else { return false }
        return startsLowercased(text, with: "http://") || startsLowercased(text, with: "https://")
    }

    /// Whether `text` begins with the lowercase ASCII `prefix`, ignoring ASCII case.
    private static func startsLowercased(_ text: String, with prefix: StaticString) -> Bool {
        var bytes = text.utf8.makeIterator()
        return prefix.withUTF8Buffer { expected in
            expected.allSatisfy { wanted in
                guard let byte = bytes.next() else { return false }
                return (byte &- UInt8(ascii: "A") < 26 ? byte | 0x20 : byte) == wanted
            }
        }
    }

    /// A changed field's two values as people read them (`display`), each cut around the first
    /// character where they differ when the two would read the same (`SQLValue.contrasted`).
    static func display(_ field: FieldChange, in table: TableDiff) -> (old: String, new: String) {
        let json = table.jsonColumns.contains(field.column)
        guard let old = field.old, let new = field.new, case .text = old, case .text = new else {
            return (display(field.old, json: json), display(field.new, json: json))
        }
        return SQLValue.contrasted(old, new, json: json)
    }
}
