import SeederCore
import SeederFiles

/// The SQL of one entity's search table (docs/seed.md, Search): an external-content FTS table
/// `<table>_search` over the entity's `search:` columns, with SQLite's own statements to fill it
/// ('rebuild', then 'optimize' into one segment, as a read-mostly index wants) and, for
/// `sync: triggers`, the external-content triggers of SQLite's FTS5 and FTS4 documentation.
struct SearchTable: Sendable, Hashable {
    /// `<table>_search`.
    let name: String
    /// The entity's table, which holds the text.
    let content: String
    /// The indexed columns, in `fields:` order.
    let columns: [String]
    let engine: SearchEngine
    let tokenizer: SearchTokenizer?
    let triggers: Bool
    /// The content table's `INTEGER PRIMARY KEY`, FTS5's `content_rowid`; `nil` when its rowid
    /// is no column (a text or composite identity), whose rowids a VACUUM may renumber.
    let rowidColumn: String?

    /// The search tables of `mapping`, in mapping order.
    static func all(for mapping: Mapping, schema: SeedSchema) -> [SearchTable] {
        mapping.entities.enumerated().compactMap { index, entity in
            guard let search = entity.search else { return nil }
            let table = schema.tables[schema.entityTables[index]]
            return SearchTable(
                name: SearchSpec.tableName(for: entity.table), content: entity.table,
                columns: search.fields.map { entity.attributes[$0].column }, engine: search.engine,
                tokenizer: search.tokenizer, triggers: search.triggers,
                rowidColumn: table.hasIntegerPrimaryKey ? table.primaryKey[0] : nil)
        }
    }

    /// `CREATE VIRTUAL TABLE ... USING fts5(...)` or `fts4(...)`.
    var create: String {
        var arguments = columns.map(SQLText.quote)
        switch engine {
        case .fts5:
            arguments.append("content=\(SQLText.literal(content))")
            if let rowidColumn { arguments.append("content_rowid=\(SQLText.literal(rowidColumn))") }
        case .fts4:
            arguments.append("content=\(SQLText.quote(content))")
        }
        if let tokenizer { arguments.append(tokenizer.argument(engine: engine)) }
        return "CREATE VIRTUAL TABLE \(SQLText.quote(name)) USING \(engine.rawValue)(\(arguments.joined(separator: ", ")))"
    }

    /// Reads every content row into the index, then merges the index into one segment.
    var fill: [String] {
        ["rebuild", "optimize"].map { "INSERT INTO \(SQLText.quote(name))(\(SQLText.quote(name))) VALUES ('\($0)')" }
    }

    /// The external-content triggers (docs/seed.md, Search): FTS5's three after-triggers, each
    /// removing old text with the 'delete' command and adding new text; FTS4's four, deleting by
    /// `docid` before an update or delete and inserting after an insert or update.
    var triggerStatements: [String] {
        guard triggers else { return [] }
        let table = SQLText.quote(name), on = SQLText.quote(content)
        let rowid = rowidColumn.map(SQLText.quote) ?? "rowid"
        func values(_ row: String) -> String {
            ([row + "." + rowid] + columns.map { row + "." + SQLText.quote($0) }).joined(separator: ", ")
        }
        func trigger(_ suffix: String, _ when: String, _ body: [String]) -> String {
            "CREATE TRIGGER \(SQLText.quote(name + "_" + suffix)) \(when) ON \(on) BEGIN\n  " + body.joined(separator: ";\n  ") + ";\nEND"
        }
        switch engine {
        case .fts5:
            let insert = "INSERT INTO \(table)(\"rowid\", \(SQLText.list(columns))) VALUES (\(values("new")))"
            let delete = "INSERT INTO \(table)(\(table), \"rowid\", \(SQLText.list(columns))) VALUES ('delete', \(values("old")))"
            return [
                trigger("ai", "AFTER INSERT", [insert]), trigger("ad", "AFTER DELETE", [delete]),
                trigger("au", "AFTER UPDATE", [delete, insert]),
            ]
        case .fts4:
            let insert = "INSERT INTO \(table)(\"docid\", \(SQLText.list(columns))) VALUES (\(values("new")))"
            let delete = "DELETE FROM \(table) WHERE \"docid\" = old.\(rowid)"
            return [
                trigger("bu", "BEFORE UPDATE", [delete]), trigger("bd", "BEFORE DELETE", [delete]),
                trigger("au", "AFTER UPDATE", [insert]), trigger("ai", "AFTER INSERT", [insert]),
            ]
        }
    }
}
