import SeederFiles

/// A seed's tables, columns and references as a Mermaid `erDiagram`, which GitHub draws where
/// markdown holds it (`seeder inspect --format mermaid`, docs/commands.md).
///
/// The references are what the mapping stored (to-ones, join tables, row numbers, selectors)
/// and what the tables declare (`REFERENCES`), once each; a search table is linked to the table
/// it indexes. seeder's own `seed_metadata` and `seed_source` are left out.
package enum SeedDiagram {
    /// Columns of `table` that name a row of `target`.
    struct Reference: Hashable {
        var table: String
        var columns: [String]
        var target: String
        var label: String
        /// Through a selector: one of the tables the columns may name (drawn dotted).
        var isSelector = false
    }

    package static func mermaid(_ catalog: SeedCatalog) -> String {
        let references = references(catalog)
        var lines = ["erDiagram"]
        for table in catalog.tables {
            let keyed = Set(references.filter { $0.table == table.name }.flatMap(\.columns))
            lines.append("    \(entity(table.name)) {")
            for column in table.columns {
                var keys: [String] = []
                if table.primaryKey.contains(column.name) { keys.append("PK") }
                if keyed.contains(column.name) { keys.append("FK") }
                let type = column.type.isEmpty ? "ANY" : word(column.type, allowing: "()[]")
                lines.append(
                    "        \(type) \(word(column.name, allowing: "()[]"))\(keys.isEmpty ? "" : " " + keys.joined(separator: ", "))")
            }
            lines.append("    }")
        }
        for search in catalog.searchTables {
            lines.append("    \(entity(search.name)) {")
            for column in search.columns { lines.append("        TEXT \(word(column, allowing: "()[]"))") }
            lines.append("    }")
        }
        let tables = Dictionary(catalog.tables.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        for reference in references {
            // How many targets a row has: exactly one when every column is NOT NULL.
            let required =
                !reference.columns.isEmpty
                && reference.columns.allSatisfy { name in
                    tables[reference.table]?.columns.first { $0.name == name }?.notNull == true
                }
            let line = reference.isSelector ? ".." : "--"
            let many = reference.columns.isEmpty ? "||" : "o{"
            lines.append(
                "    \(entity(reference.target)) \(required || reference.columns.isEmpty ? "||" : "|o")\(line)\(many) "
                    + "\(entity(reference.table)) : \"\(reference.label.replacingOccurrences(of: "\"", with: "'"))\"")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Every reference between the catalog's tables, the mapping's first, in a stable order.
    static func references(_ catalog: SeedCatalog) -> [Reference] {
        let names = Set(catalog.tables.map(\.name) + catalog.searchTables.map(\.name))
        var references: [Reference] = []
        func add(_ table: String, _ columns: [String], _ target: String?, _ label: String, selector: Bool = false) {
            guard let target, names.contains(table), names.contains(target) else { return }
            guard !references.contains(where: { $0.table == table && $0.columns == columns && $0.target == target }) else { return }
            references.append(Reference(table: table, columns: columns, target: target, label: label, isSelector: selector))
        }
        if let mapping = catalog.mapping {
            func table(of entity: String) -> String? { mapping.entities.first { $0.name == entity }?.table }
            for toOne in mapping.toOnes { add(toOne.table, toOne.columns, table(of: toOne.target), toOne.relationship) }
            for join in mapping.joinTables {
                let label = "\(join.owner).\(join.relationship)"
                add(join.table, join.ownerColumns, table(of: join.owner), label)
                if !join.isSelector { add(join.table, join.targetColumns, table(of: join.target), label) }
            }
            for selector in mapping.selectorColumns {
                let entities = selector.targets.prefix { $0 != "(" }.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
                for entity in entities { add(selector.table, selector.columns, table(of: entity), selector.relationship, selector: true) }
            }
            for (table, columns) in mapping.rowNumberReferences.sorted(by: { $0.key < $1.key }) {
                for (column, target) in columns.sorted(by: { $0.key < $1.key }) { add(table, [column], target, column) }
            }
            for entity in mapping.entities {
                if let search = entity.search { add(search.table, [], entity.table, "search (\(search.engine))") }
            }
        }
        for table in catalog.tables {
            for key in table.foreignKeys { add(table.name, key.columns, key.target, key.columns.joined(separator: ", ")) }
        }
        // The app's own full-text tables name the table they index (`content='task'`).
        for search in catalog.searchTables {
            if let content = contentTable(search.definition) { add(search.name, [], content, "search (\(search.engine))") }
        }
        return references
    }

    /// The `content=` table of a `CREATE VIRTUAL TABLE ... USING fts5(..., content='task')`.
    static func contentTable(_ definition: String) -> String? {
        let create = definition.prefix { $0 != ";" }
        var from = create.startIndex
        while let option = create.range(of: "content", options: .caseInsensitive, range: from..<create.endIndex) {
            from = option.upperBound
            var rest = create[option.upperBound...].drop { $0 == " " }
            guard rest.first == "=" else { continue }  // content_rowid
            rest = rest.dropFirst().drop { $0 == " " || $0 == "'" || $0 == "\"" }
            let name = rest.prefix { $0.isLetter || $0.isNumber || $0 == "_" }
            return name.isEmpty ? nil : String(name)
        }
        return nil
    }

    /// A table's name as a Mermaid entity: quoted, so that no name is read as a keyword of the
    /// grammar (`class`, `one`, `u`) and spaces stay; the few characters a quoted name may not
    /// hold (`"`, `%`, `\`, control characters) written `_`.
    static func entity(_ name: String) -> String {
        "\"" + String(name.map { "\"%\\".contains($0) || $0.isNewline || ($0.asciiValue ?? 32) < 32 ? "_" : $0 }) + "\""
    }

    /// `text` as a Mermaid attribute name or type: letters, digits, `_` and `-` (and `allowing`), anything else
    /// `_`; never starting with a digit.
    static func word(_ text: String, allowing extra: String = "") -> String {
        var word = String(
            text.map { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" || extra.contains($0)) ? $0 : "_" })
        if word.first.map({ !$0.isLetter && $0 != "_" }) ?? true { word = "_" + word }
        return word
    }
}
