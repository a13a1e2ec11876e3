import SeederCore
import SeederFiles

/// `--format markdown`: a heading with the verdict, the count table, schema and metadata lists,
/// then one collapsed `<details>` per table that differs. GitHub-flavoured, for a PR comment.
extension SeedDiffWriter {
    func markdownRecord(_ table: TableDiff, _ change: RecordChange) -> String {
        if case let .links(join) = table.role {
            let (owner, entity, target) = Self.linkEnds(join, change.key)
            let (ownerName, entityName) = (PrintedText.html(join.owner), PrintedText.html(entity))
            switch change.kind {
            case .added: return "- \(ownerName) \(Self.code(owner)) gained \(entityName) \(Self.code(target))\n"
            case .removed: return "- \(ownerName) \(Self.code(owner)) lost \(entityName) \(Self.code(target))\n"
            case .changed:
                return "- \(ownerName) \(Self.code(owner)) moved \(entityName) \(Self.code(target)): "
                    + Self.markdownFields(change, in: table) + "\n"
            }
        }
        let subject = change.key.isEmpty ? "row" : "\(PrintedText.html(table.name)) \(Self.code(Self.identity(change.key)))"
        switch change.kind {
        case .changed:
            let naming =
                Self.namingField(change).map { " (\(Self.code($0.column)) \(Self.code(Self.display($0.value, of: $0.column, in: table))))" }
                ?? ""
            return "- changed \(subject)\(naming): " + Self.markdownFields(change, in: table) + "\n"
        case .added, .removed:
            let shown = Self.describingFields(change)
            let fields =
                shown.fields.map { "\(Self.code($0.0)) \(Self.code(Self.display($0.1, of: $0.0, in: table)))" }
                + (shown.more ? ["…"] : [])
            return "- \(change.kind.rawValue) \(subject)" + (fields.isEmpty ? "" : ": " + fields.joined(separator: ", ")) + "\n"
        }
    }

    func writeMarkdown(_ diff: SeedDiff) throws {
        var text = "### seeder diff: \(Self.verdict(diff))\n\n\(Self.code(diff.old.path)) → \(Self.code(diff.new.path))\n\n"
        text += "| entity | added | removed | changed | unchanged |\n|:--|--:|--:|--:|--:|\n"
        for table in diff.tables {
            let counts = table.counts
            text += "| \(PrintedText.cell(table.name)) | \(counts.added) | \(counts.removed) | \(counts.changed) | \(counts.unchanged) |\n"
        }
        if !diff.schema.isEmpty {
            text += "\n**Schema**\n\n" + diff.schema.map { "- " + Self.code(Self.textLine($0)) + "\n" }.joined()
        }
        if !diff.metadata.isEmpty || !diff.sources.isEmpty {
            text += "\n**Metadata**\n\n"
            for change in diff.metadata {
                text += "- \(Self.code(change.key)): " + Self.code(Self.valueChange(change)) + "\n"
            }
            text += diff.sources.map { "- " + Self.code(Self.textLine($0)) + "\n" }.joined()
        }
        try write(text)
        for table in diff.tables where !table.counts.isUnchanged {
            var summary = "\(table.name): \(Self.countsText(table.counts))"
            if case let .rows(reason) = table.pairing { summary += " (compared as whole rows: \(reason))" }
            try write("\n<details><summary>\(PrintedText.html(summary))</summary>\n\n")
            try writeRecords(of: table)
            let rest = notListed(table)
            try write((rest > 0 ? "- … \(rest) more not listed (`--limit`)\n" : "") + "\n</details>\n")
        }
    }

    /// `` `name` `"old"` → `"new"` ``, for each field of a change.
    static func markdownFields(_ change: RecordChange, in table: TableDiff) -> String {
        change.fields.map { field in
            let shown = display(field, in: table)
            return "\(code(field.column)) \(code(shown.old)) → \(code(shown.new))"
        }.joined(separator: ", ")
    }

    /// `text` as a code span (`PrintedText.codeSpan`): every name and value a diff prints in
    /// markdown is one, so that no name or value ends the markup around it.
    static func code(_ text: String) -> String {
        PrintedText.codeSpan(text)
    }
}
