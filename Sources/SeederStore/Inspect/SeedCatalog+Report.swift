import SeederCore
import SeederFiles

/// What `seeder inspect` prints: the catalog of a seed as text for people or as one JSON document.
extension SeedCatalog {
    /// The seed described for people: file, metadata, sources, tables with row counts.
    package var text: String {
        var text =
            "\(PrintedText.escaped(path)): \(fileSize) bytes, schema version \(userVersion), \(Wording.count(listed.count, "table"))\n"
        text += "schema: \(schemaDescription)\n"
        text += "\nmetadata\n" + TextTable.render(metadata.map { ["  " + $0.key, SeedDiffWriter.shortened($0.value)] }, rightAligned: [])
        text +=
            "\nsources\n"
            + TextTable.render(
                [["  source", "files", "bytes", "records"]]
                    + SourceChange.sources(sources).map {
                        [
                            "  " + $0.path, Wording.grouped($0.totals.files), Wording.grouped($0.totals.bytes),
                            Wording.grouped($0.totals.records),
                        ]
                    }, rightAligned: [1, 2, 3])
        text +=
            "\ntables\n"
            + TextTable.render(
                [["  table", "rows", "holds"]]
                    + listed.map { table in
                        ["  " + table.name, table.rows.map(String.init) ?? "", table.holds]
                    }, rightAligned: [1])
        if let selectors = mapping?.selectorColumns, !selectors.isEmpty {
            text +=
                "\nreferences seeder checks (to the entity a selector chose; SQLite cannot declare them)\n"
                + TextTable.render(
                    [["  table", "columns", "relationship", "to"]]
                        + selectors.map { ["  " + $0.table, $0.columns.joined(separator: ", "), $0.relationship, $0.targets] },
                    rightAligned: [])
        }
        return text
    }

    /// The seed as one JSON document, keys in a fixed order; `mapping` is the description itself.
    package var json: String {
        var json = JSONStreamWriter()
        json.object { json in
            JSONDocumentKind.inspect.writeHeader(to: &json)
            json.member("path", path)
            json.member("bytes", fileSize)
            json.member("applicationId", applicationID)
            json.member("userVersion", userVersion)
            json.member("schema", mapping?.schemaMode ?? "generated")
            json.member("metadata") { json in
                json.object { json in
                    for (key, value) in metadata where key != "mapping" { json.member(key, value) }
                }
            }
            json.lineBreak()
            json.member("sources") { json in
                json.array { json in
                    for source in sources {
                        json.object { json in
                            json.member("path", source.path)
                            json.member("files", source.files)
                            json.member("sha256", source.sha256)
                            json.member("bytes", source.bytes)
                            json.member("records", source.records)
                        }
                    }
                }
            }
            json.lineBreak()
            json.member("tables") { json in
                json.array { json in
                    for table in listed {
                        json.object { json in
                            json.member("name", table.name)
                            json.member("rows", table.rows)
                            json.member("holds", table.holds.isEmpty ? nil : table.holds)
                        }
                    }
                }
            }
            json.lineBreak()
            if let selectors = mapping?.selectorColumns, !selectors.isEmpty {
                json.member("selectorReferences") { json in
                    json.array { json in
                        for selector in selectors {
                            json.object { json in
                                json.member("table", selector.table)
                                json.member("columns") { json in
                                    json.array { json in for column in selector.columns { json.value(column) } }
                                }
                                json.member("relationship", selector.relationship)
                                json.member("to", selector.targets)
                            }
                        }
                    }
                }
                json.lineBreak()
            }
            json.key("mapping")
            // The description as stored when this version reads it, else as a string.
            switch metadata("mapping") {
            case let description? where mapping != nil: json.raw(description)
            case let description: json.value(description)
            }
        }
        return json.text
    }

    /// How the seed's schema was made (docs/commands.md, inspect).
    private var schemaDescription: String {
        switch mapping?.schemaMode {
        case nil: return "generated by seeder from the mapping"
        case "room": return "the app's own, from Room's exported schema"
        case "core data": return "the app's own, a Core Data store"
        case let mode?: return "the app's own, from a \(mode) database"
        }
    }

    /// The tables shown, by name: the data tables, and each search table once, as what it
    /// holds (`Pod search (fts5)`), without its shadow tables.
    private var listed: [(name: String, rows: Int?, holds: String)] {
        let data = tables.map { (name: $0.name, rows: $0.rows, holds: holder(of: $0.name)) }
        let search = searchTables.map { table in
            // What the mapping says of it, else what the file does: its module.
            let owner = mapping?.searchOwner(table.name)
            let described = owner?.search?.description ?? table.engine
            return (name: table.name, rows: table.rows, holds: "\(owner.map { "\($0.name) " } ?? "")search (\(described))")
        }
        return (data + search).sorted { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
    }

    /// What a table holds: `User` for an entity's table, `Project.tags` for a join table.
    private func holder(of table: String) -> String {
        if let entity = mapping?.entity(table: table) { return entity.name }
        if let join = mapping?.joinTable(table) { return "\(join.owner).\(join.relationship)" }
        return ""
    }
}
