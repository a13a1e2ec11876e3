import SeederCore

/// `--format json`: one document, keys in a fixed order, each table and record on its own line.
/// Values are given in full; a blob as its size and SHA-256.
extension SeedDiffWriter {
    func jsonRecord(_ table: TableDiff, _ change: RecordChange) -> String {
        let fields: [String]
        switch change.kind {
        case .changed:
            // A side without the column has no key.
            fields = change.fields.map { field in
                let sides = [field.old.map { "\"old\":" + Self.json($0) }, field.new.map { "\"new\":" + Self.json($0) }]
                return Self.string(field.column) + ":{" + sides.compactMap { $0 }.joined(separator: ",") + "}"
            }
        case .added, .removed:
            fields = change.fields.map { Self.string($0.column) + ":" + Self.json($0.new ?? $0.old ?? .null) }
        }
        return "{\"change\":\(Self.string(change.kind.rawValue)),\"key\":[\(change.key.map(Self.json).joined(separator: ","))],"
            + "\"fields\":{\(fields.joined(separator: ","))}}"
    }

    func writeJSON(_ diff: SeedDiff) throws {
        let schema = diff.schema.map { change in
            "{\"change\":\(Self.string(change.kind.rawValue)),\"table\":\(Self.optional(change.table)),\"name\":\(Self.optional(change.name)),"
                + "\"old\":\(Self.optional(change.old)),\"new\":\(Self.optional(change.new))}"
        }
        let metadata = diff.metadata.map { "{\"key\":\(Self.string($0.key)),\"old\":\(Self.optional($0.old)),\"new\":\(Self.optional($0.new))}" }
        func source(_ source: SeedCatalog.Source?) -> String {
            guard let source else { return "null" }
            return "{\"sha256\":\(Self.string(source.sha256)),\"bytes\":\(source.bytes),\"records\":\(source.records)}"
        }
        let sources = diff.sources.map { "{\"path\":\(Self.string($0.path)),\"old\":\(source($0.old)),\"new\":\(source($0.new))}" }
        try write("{\"old\":\(Self.string(diff.old.path)),\"new\":\(Self.string(diff.new.path)),\"same\":\(diff.holdsSameRecords),\n"
            + "\"schema\":[\(schema.joined(separator: ","))],\n\"metadata\":[\(metadata.joined(separator: ","))],\n"
            + "\"sources\":[\(sources.joined(separator: ","))],\n\"tables\":[")
        for (position, table) in diff.tables.enumerated() {
            var head = (position > 0 ? ",\n" : "\n") + "{\"table\":\(Self.string(table.table)),\"name\":\(Self.string(table.name)),"
            switch table.role {
            case .entity: head += "\"role\":\"entity\","
            case .table: head += "\"role\":\"table\","
            case let .links(join):
                head += "\"role\":\"links\",\"owner\":\(Self.string(join.owner)),\"relationship\":\(Self.string(join.relationship)),"
                    + "\"target\":\(Self.string(join.target)),\"ownerKey\":\(join.ownerColumns.count),"
            }
            switch table.pairing {
            case .identity: head += "\"pairing\":\"identity\",\"reason\":null,"
            case .primaryKey: head += "\"pairing\":\"primaryKey\",\"reason\":null,"
            case let .rows(reason): head += "\"pairing\":\"rows\",\"reason\":\(Self.string(reason)),"
            }
            let counts = table.counts
            head += "\"key\":[\(table.keyColumns.map(Self.string).joined(separator: ","))],"
                + "\"added\":\(counts.added),\"removed\":\(counts.removed),\"changed\":\(counts.changed),\"unchanged\":\(counts.unchanged),"
                + "\"records\":["
            try write(head)
            try writeRecords(of: table)
            try write("],\"notListed\":\(notListed(table))}")
        }
        try write("\n]}\n")
    }

    /// A JSON string.
    static func string(_ text: String) -> String {
        JSONWriter.stringLiteral(text)
    }

    static func optional(_ text: String?) -> String {
        text.map(string) ?? "null"
    }

    /// A value in JSON: numbers as numbers, text as a string, a blob as `{"bytes":…,"sha256":…}`.
    static func json(_ value: SQLValue) -> String {
        switch value {
        case .null: return "null"
        case let .integer(integer): return String(integer)
        case let .real(real): return real.isFinite ? String(real) : string(String(real))
        case let .text(text): return string(text)
        case let .blob(bytes): return "{\"bytes\":\(bytes.count),\"sha256\":\(string(sha256Hex(bytes)))}"
        }
    }
}
