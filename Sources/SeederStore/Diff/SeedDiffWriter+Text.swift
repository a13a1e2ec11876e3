import SeederCore
import SeederFiles

/// `--format text`: sections for people, `+` added, `-` removed, `~` changed. Names, keys and
/// values are escaped (`PrintedText.escaped`, docs/commands.md, Printed text): each stays on
/// its line.
extension SeedDiffWriter {
    func textRecord(_ table: TableDiff, _ change: RecordChange) -> String {
        let mark = ["added": "+", "removed": "-", "changed": "~"][change.kind.rawValue]!
        let name = PrintedText.escaped
        if case let .links(join) = table.role {
            let (owner, entity, target) = Self.linkEnds(join, change.key)
            switch change.kind {
            case .added: return "  + \(name(join.owner)) \(owner) gained \(name(entity)) \(target)\n"
            case .removed: return "  - \(name(join.owner)) \(owner) lost \(name(entity)) \(target)\n"
            case .changed:
                return "  ~ \(name(join.owner)) \(owner) moved \(name(entity)) \(target): "
                    + change.fields.map { field in
                        let shown = Self.display(field, in: table)
                        return "\(name(field.column)) \(shown.old) -> \(shown.new)"
                    }.joined(separator: ", ") + "\n"
            }
        }
        let subject = change.key.isEmpty ? "row" : "\(name(table.name)) \(Self.identity(change.key))"
        switch change.kind {
        case .changed:
            let naming =
                Self.namingField(change).map { ": \(name($0.column)) \(Self.display($0.value, of: $0.column, in: table))" } ?? ""
            return "  ~ \(subject)\(naming)\n"
                + change.fields.map { field in
                    let shown = Self.display(field, in: table)
                    return "      \(name(field.column)): \(shown.old) -> \(shown.new)\n"
                }.joined()
        case .added, .removed:
            let shown = Self.describingFields(change)
            let fields =
                shown.fields.map { "\(name($0.0)) \(Self.display($0.1, of: $0.0, in: table))" } + (shown.more ? ["…"] : [])
            return "  \(mark) \(subject)" + (fields.isEmpty ? "" : ": " + fields.joined(separator: ", ")) + "\n"
        }
    }

    func writeText(_ diff: SeedDiff) throws {
        if !diff.schema.isEmpty {
            try write("schema\n" + diff.schema.map { "  " + Self.textLine($0) + "\n" }.joined() + "\n")
        }
        if !diff.metadata.isEmpty || !diff.sources.isEmpty {
            var text = "metadata\n"
            for change in diff.metadata {
                let mark = change.old == nil ? "+" : change.new == nil ? "-" : "~"
                text += "  \(mark) \(PrintedText.escaped(change.key)): \(PrintedText.escaped(Self.valueChange(change)))\n"
            }
            for change in diff.sources { text += "  " + Self.textLine(change) + "\n" }
            try write(text + "\n")
        }
        try write(Self.countTable(diff.tables) + "\n")
        for table in diff.tables where !table.counts.isUnchanged {
            var heading = "\(PrintedText.escaped(table.name)): \(Self.countsText(table.counts))"
            if case let .rows(reason) = table.pairing { heading += " (compared as whole rows: \(reason))" }
            try write(heading + "\n")
            try writeRecords(of: table)
            let rest = notListed(table)
            try write((rest > 0 ? "  … \(rest) more not listed (--limit)\n" : "") + "\n")
        }
        try write((diff.holdsSameRecords ? "" : "the seeds differ: ") + Self.verdict(diff) + "\n")
    }

    /// The per-table counts as an aligned table.
    static func countTable(_ tables: [TableDiff]) -> String {
        let rows = tables.map { table in
            [
                table.name, String(table.counts.added), String(table.counts.removed), String(table.counts.changed),
                String(table.counts.unchanged),
            ]
        }
        return TextTable.render([["entity", "added", "removed", "changed", "unchanged"]] + rows, rightAligned: [1, 2, 3, 4])
    }

    /// A schema change as one line: `+ column task.priority INTEGER`, its names escaped.
    static func textLine(_ change: SchemaChange) -> String {
        PrintedText.escaped(unescapedLine(change))
    }

    private static func unescapedLine(_ change: SchemaChange) -> String {
        let table = change.table ?? ""
        let column = "\(table).\(change.name ?? "")"
        func typed(_ type: String?) -> String { type.map { $0.isEmpty ? "" : " " + $0 } ?? "" }
        switch change.kind {
        case .tableAdded: return "+ table \(table)"
        case .tableRemoved: return "- table \(table)"
        case .columnAdded: return "+ column \(column)" + typed(change.new)
        case .columnRemoved: return "- column \(column)" + typed(change.old)
        case .columnRetyped: return "~ column \(column): \(change.old ?? "") -> \(change.new ?? "")"
        case .primaryKeyChanged: return "~ primary key of \(table): (\(change.old ?? "")) -> (\(change.new ?? ""))"
        case .indexAdded: return "+ index \(change.name ?? "") on \(table)"
        case .indexRemoved: return "- index \(change.name ?? "") on \(table)"
        case .indexChanged: return "~ index \(change.name ?? "") on \(table)"
        case .userVersionChanged: return "~ user_version: \(change.old ?? "") -> \(change.new ?? "")"
        case .searchTableChanged: return "~ search table \(table) (its module, tokenizer, columns or triggers)"
        }
    }

    /// A source change as one line: `~ source users.json: sha256 1a2b… -> 3c4d…, records 6 -> 7`,
    /// its path escaped.
    static func textLine(_ change: SourceChange) -> String {
        PrintedText.escaped(unescapedLine(change))
    }

    private static func unescapedLine(_ change: SourceChange) -> String {
        func describe(_ source: SeedCatalog.Source) -> String {
            "sha256 \(source.sha256.prefix(12)), \(source.bytes) bytes, \(source.records) records"
        }
        guard let old = change.old else { return "+ source \(change.path) (\(describe(change.new!)))" }
        guard let new = change.new else { return "- source \(change.path) (\(describe(old)))" }
        var parts: [String] = []
        if old.sha256 != new.sha256 { parts.append("sha256 \(old.sha256.prefix(12)) -> \(new.sha256.prefix(12))") }
        if old.bytes != new.bytes { parts.append("bytes \(old.bytes) -> \(new.bytes)") }
        if old.records != new.records { parts.append("records \(old.records) -> \(new.records)") }
        return "~ source \(change.path): " + parts.joined(separator: ", ")
    }
}
