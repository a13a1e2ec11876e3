import SeederCore
import SeederFiles

/// `--format json`: one document, keys in a fixed order, each table and record on its own line.
/// Values are given in full; a blob as its size and SHA-256.
extension SeedDiffWriter {
    /// Writes a record of a table's `records` array: `afterElement` when one is written before it.
    func writeJSONRecord(_ table: TableDiff, _ change: RecordChange, afterElement: Bool, to json: inout JSONStreamWriter) {
        json.reset(afterElement: afterElement)
        json.lineBreak()
        json.object { json in
            json.member("change", change.kind.rawValue)
            json.member("key") { json in
                json.array { json in
                    for value in change.key { Self.write(value, to: &json) }
                }
            }
            json.member("fields") { json in
                json.object { json in
                    for field in change.fields {
                        json.key(field.column)
                        switch change.kind {
                        case .changed:
                            // A side without the column has no key.
                            json.object { json in
                                if let old = field.old { json.key("old"); Self.write(old, to: &json) }
                                if let new = field.new { json.key("new"); Self.write(new, to: &json) }
                            }
                        case .added, .removed:
                            Self.write(field.new ?? field.old ?? .null, to: &json)
                        }
                    }
                }
            }
        }
    }

    func writeJSON(_ diff: SeedDiff) throws {
        var json = JSONStreamWriter()
        json.beginObject()
        JSONDocumentKind.diff.writeHeader(to: &json)
        json.member("old", diff.old.path)
        json.member("new", diff.new.path)
        json.member("same", diff.holdsSameRecords)
        json.lineBreak()
        let schema = bounded(diff.schema)
        json.member("schema") { json in
            json.array { json in
                for change in schema.items {
                    json.object { json in
                        json.member("change", change.kind.rawValue)
                        json.member("table", change.table)
                        json.member("name", change.name)
                        json.member("old", change.old)
                        json.member("new", change.new)
                    }
                }
            }
        }
        json.member("schemaNotListed", schema.notListed)
        json.lineBreak()
        let metadata = bounded(diff.metadata)
        json.member("metadata") { json in
            json.array { json in
                for change in metadata.items {
                    json.object { json in
                        json.member("key", change.key)
                        json.member("old", change.old)
                        json.member("new", change.new)
                    }
                }
            }
        }
        json.member("metadataNotListed", metadata.notListed)
        json.lineBreak()
        let sources = bounded(Self.listedSources(diff))
        json.member("sources") { json in
            json.array { json in
                for source in sources.items {
                    json.object { json in
                        json.member("path", source.path)
                        json.member("old") { Self.write(source.old, to: &$0) }
                        json.member("new") { Self.write(source.new, to: &$0) }
                        json.member("files") { json in
                            guard let files = source.files else { return json.null() }
                            json.object { json in
                                json.member("changed", files.changed)
                                json.member("added", files.added)
                                json.member("removed", files.removed)
                            }
                        }
                    }
                }
            }
        }
        json.member("sourcesNotListed", diff.sources.count - sources.items.count)
        json.lineBreak()
        json.key("tables")
        json.beginArray()
        for table in diff.tables {
            json.lineBreak()
            json.beginObject()
            writeHead(of: table, to: &json)
            json.key("records")
            json.beginArray()
            // The records are in the spool already, each with its comma.
            try write(bytes: json.bytes)
            json.removeBytes()
            _ = try writeRecords(of: table)
            json.endArray()
            json.member("notListed", notListed(table))
            json.endObject()
        }
        json.lineBreak()
        json.endArray()
        if let (path, changeset) = changeset {
            json.lineBreak()
            json.member("changeset") { json in
                json.object { json in
                    json.member("path", path)
                    json.member("bytes", changeset.bytes)
                    json.member("tables") { json in
                        json.array { json in
                            for table in changeset.tables {
                                json.object { json in
                                    json.member("table", table.table)
                                    json.member("inserts", table.inserts)
                                    json.member("updates", table.updates)
                                    json.member("deletes", table.deletes)
                                }
                            }
                        }
                    }
                    json.member("rebuild") { $0.array(changeset.searchTablesToRebuild) }
                }
            }
        }
        json.endObject()
        try write(bytes: json.bytes)
        try write("\n")
    }

    /// A table's members before its records: what it is, how records pair, the counts.
    private func writeHead(of table: TableDiff, to json: inout JSONStreamWriter) {
        json.member("table", table.table)
        json.member("name", table.name)
        switch table.role {
        case .entity: json.member("role", "entity")
        case .table: json.member("role", "table")
        case let .links(join):
            json.member("role", "links")
            json.member("owner", join.owner)
            json.member("relationship", join.relationship)
            json.member("target", join.target)
            json.member("ownerKey", join.ownerColumns.count)
            // Through a selector, a link's key ends with the chosen entity's name.
            if join.isSelector { json.member("targetEntityInKey", true) }
        }
        let (pairing, reason): (String, String?)
        switch table.pairing {
        case .identity: (pairing, reason) = ("identity", nil)
        case .primaryKey: (pairing, reason) = ("primaryKey", nil)
        case let .rows(why): (pairing, reason) = ("rows", why)
        }
        json.member("pairing", pairing)
        json.member("reason", reason)
        json.member("key") { $0.array(table.keyColumns) }
        let counts = table.counts
        json.member("added", counts.added)
        json.member("removed", counts.removed)
        json.member("changed", counts.changed)
        json.member("unchanged", counts.unchanged)
    }

    private static func write(_ source: SourceChange.Side?, to json: inout JSONStreamWriter) {
        guard let source else { return json.null() }
        json.object { json in
            json.member("files", source.files)
            json.member("sha256", source.sha256)
            json.member("bytes", source.bytes)
            json.member("records", source.records)
        }
    }

    /// A value in JSON: numbers as numbers, text as a string, a blob as `{"bytes":…,"sha256":…}`.
    static func write(_ value: SQLValue, to json: inout JSONStreamWriter) {
        switch value {
        case .null: json.null()
        case let .integer(integer): json.value(integer)
        case let .real(real): if real.isFinite { json.raw(String(real)) } else { json.value(String(real)) }
        case let .text(text): json.value(text)
        case let .blob(bytes):
            json.object { json in
                json.member("bytes", bytes.count)
                json.member("sha256", SHA256.hex(bytes))
            }
        }
    }
}
