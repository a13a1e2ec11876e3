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

    /// Schema, counts and records first, what a reviewer reads first; then a line per source
    /// whose files changed and the metadata (docs/commands.md, diff: Output order).
    func writeText(_ diff: SeedDiff) throws {
        if !diff.schema.isEmpty {
            try write("schema\n" + textList(diff.schema.map(Self.textLine)) + "\n")
        }
        try write(Self.countTable(diff.tables) + "\n")
        for table in diff.tables where !table.counts.isUnchanged {
            var heading = "\(PrintedText.escaped(table.name)): \(Self.countsText(table.counts))"
            if case let .rows(reason) = table.pairing { heading += " (compared as whole rows: \(reason))" }
            try write(heading + "\n")
            let rest = try writeRecords(of: table).notListed
            try write((rest > 0 ? "  … \(Wording.grouped(rest)) more not listed (--limit)\n" : "") + "\n")
        }
        if !diff.sources.isEmpty {
            if diff.entities.isEmpty {
                try write("sources\n" + textList(diff.sources.map(Self.textLine)) + "\n")
            } else {
                try write("sources: \(Self.sourcesLeftOut(diff))\n\n")
            }
        }
        if !diff.metadata.isEmpty {
            try write("metadata\n" + textList(diff.metadata.map(Self.textLine)) + "\n")
        }
        try write((diff.holdsSameRecords ? "" : "the seeds differ: ") + Self.verdict(diff) + "\n")
    }

    /// Lines of a section, indented, at most `--limit` of them, then how many were left out.
    private func textList(_ lines: [String]) -> String {
        let (shown, rest) = bounded(lines)
        return shown.map { "  \($0)\n" }.joined() + (rest > 0 ? "  … \(Wording.grouped(rest)) more not listed (--limit)\n" : "")
    }

    /// What a diff narrowed by `--entity` says of the sources it does not list.
    static func sourcesLeftOut(_ diff: SeedDiff) -> String {
        "\(Wording.grouped(diff.sources.count)) changed, not listed with --entity (sources are the whole seed's)"
    }

    /// A metadata change as one line: `~ inputs_sha256: 63cc… -> 3d8c…`, escaped.
    static func textLine(_ change: MetadataChange) -> String {
        let mark = change.old == nil ? "+" : change.new == nil ? "-" : "~"
        return "\(mark) \(PrintedText.escaped(change.key)): \(PrintedText.escaped(valueChange(change)))"
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

    /// A source change as one line, its path escaped: `~ items/*.json: 2,728 files changed, 3
    /// removed; records 2,800 -> 2,797`, `~ users.json: contents changed; bytes 188 -> 255`,
    /// `+ tags/*.json: 3 files, 1,204 bytes, 9 records`.
    static func textLine(_ change: SourceChange) -> String {
        PrintedText.escaped(unescapedLine(change))
    }

    private static func unescapedLine(_ change: SourceChange) -> String {
        func describe(_ side: SourceChange.Side) -> String {
            "\(Wording.count(side.files, "file")), \(Wording.count(side.bytes, "byte")), \(Wording.count(side.records, "record"))"
        }
        guard let old = change.old else { return "+ \(change.path): \(describe(change.new!))" }
        guard let new = change.new else { return "- \(change.path): \(describe(old))" }
        var what: [String] = []
        if let files = change.files, files.changed + files.added + files.removed > 0, old.files + new.files > 2 {
            for (count, verb) in [(files.changed, "changed"), (files.added, "added"), (files.removed, "removed")] where count > 0 {
                what.append(what.isEmpty ? "\(Wording.count(count, "file")) \(verb)" : "\(Wording.grouped(count)) \(verb)")
            }
        } else if change.contentsChanged {
            what.append("contents changed")
        }
        var totals: [String] = []
        if change.files == nil, old.files != new.files {
            totals.append("files \(Wording.grouped(old.files)) -> \(Wording.grouped(new.files))")
        }
        if old.bytes != new.bytes { totals.append("bytes \(Wording.grouped(old.bytes)) -> \(Wording.grouped(new.bytes))") }
        if old.records != new.records { totals.append("records \(Wording.grouped(old.records)) -> \(Wording.grouped(new.records))") }
        return "~ \(change.path): "
            + [what.joined(separator: ", "), totals.joined(separator: ", ")].filter { !$0.isEmpty }.joined(separator: "; ")
    }
}
