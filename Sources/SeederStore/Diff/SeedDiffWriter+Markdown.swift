import SeederCore
import SeederFiles

/// `--format markdown`: a heading with the verdict, the count table, the schema list, one
/// collapsed `<details>` per table that differs, then the sources and metadata lists.
/// GitHub-flavoured, for a PR comment: at most `maxBytes`, each list cut between two items, never
/// inside one (docs/commands.md, diff: Markdown).
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
        let subject = change.key.isEmpty ? "row" : "\(Self.code(table.name)) \(Self.code(Self.identity(change.key)))"
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
        let total = maxBytes ?? Self.commentBytes
        let note = shortenedNote.map { "\n*\($0)*\n" } ?? Self.shortenedNote(total)
        // 200 bytes spare for the cut lines and headings a list may end with past its room.
        var room = CommentRoom(left: total - note.utf8.count - 200, limit: limit)
        func emit(_ text: String) throws {
            try write(text)
            room.left -= text.utf8.count
        }

        let paths = [diff.old.path, diff.new.path].map { Self.code(Self.shortened($0)) }
        try emit("### seeder diff: \(Self.verdict(diff))\n\n\(paths[0]) → \(paths[1])\n\n")
        try emit("| entity | added | removed | changed | unchanged |\n|:--|--:|--:|--:|--:|\n")
        func row(_ name: String, _ counts: DiffCounts) -> String {
            let numbers = [counts.added, counts.removed, counts.changed, counts.unchanged].map(Wording.grouped)
            return "| \(name) | " + numbers.joined(separator: " | ") + " |\n"
        }
        let differing = diff.tables.filter { !$0.counts.isUnchanged }
        var rows = differing.map { row(Self.cellCode($0.name), $0.counts) }
        // The tables without a change are one row: a reviewer reads what changed.
        let unchanged = diff.tables.filter(\.counts.isUnchanged)
        if !unchanged.isEmpty {
            let rest = DiffCounts(unchanged: unchanged.reduce(0) { $0 + $1.counts.unchanged })
            rows.append(row(unchanged.count == 1 ? Self.cellCode(unchanged[0].name) : "\(unchanged.count) tables, unchanged", rest))
        }
        // The count table is the diff's summary, no list --limit bounds; it fits the room too, a
        // cut after it a paragraph of its own.
        try emit(room.fitted(rows, within: room.left, limited: false) { "\n… \(Wording.grouped($0)) more tables not listed\n" })
        // The first list: whether it was cut is whether the comment was, so far.
        let countsShown = !room.cut

        // Sources and metadata come last but keep up to a quarter of what is left, so that the
        // records crowd them out no further.
        var whole = CommentRoom(left: .max, limit: limit)
        let kept = max(0, min(sourcesAndMetadata(diff, room: &whole, within: .max).utf8.count, room.left / 4))
        if !diff.schema.isEmpty {
            let lines = diff.schema.map { "- " + Self.code(Self.textLine($0)) + "\n" }
            try emit("\n**Schema**\n\n" + room.fitted(lines, within: (room.left - kept) / 2, more: CommentRoom.more))
        }
        let sections = differing.map { table in
            var summary = Self.countsText(table.counts)
            if case let .rows(reason) = table.pairing { summary += " (compared as whole rows: \(reason))" }
            // Names as code, an element here and code spans below: GitHub makes no link, image,
            // mention or emphasis of what a name holds there (docs/trust.md).
            let name = "<code>\(PrintedText.html(table.name))</code>"
            return (open: "\n<details><summary>\(name): \(PrintedText.html(summary))</summary>\n\n", close: "\n</details>\n")
        }
        // Headings first, in mapping order, as many as fit; then the records' room shared so that
        // no table gets less than an equal share unless it needs less (`sharedFairly`).
        let headingBytes = sections.map { $0.open.utf8.count + $0.close.utf8.count + CommentRoom.more(Int.max).utf8.count }
        var headed = 0, headingsTotal = 0
        while headed < sections.count, headingsTotal + headingBytes[headed] <= room.left - kept {
            headingsTotal += headingBytes[headed]
            headed += 1
        }
        let budgets = Self.sharedFairly(
            room.left - kept - headingsTotal, needs: differing.prefix(headed).map(spooledBytes))
        var spare = 0
        for index in 0..<headed {
            try emit(sections[index].open)
            let budget = budgets[index] + spare
            let records = try writeRecords(of: differing[index], within: budget)
            room.left -= records.bytes
            spare = budget - records.bytes
            if records.shortened { room.cut = true }
            try emit((records.notListed > 0 ? CommentRoom.more(records.notListed) : "") + sections[index].close)
        }
        if headed < differing.count {
            room.cut = true
            let whereCounts = countsShown ? ": their counts are in the table above" : ""
            try emit("\n… \(Wording.grouped(differing.count - headed)) more tables with changes not listed\(whereCounts)\n")
        }
        try emit(sourcesAndMetadata(diff, room: &room, within: room.left))
        if room.cut { try write(note) }
    }

    /// `total` bytes shared among lists that need `needs` bytes: the least needy get all they
    /// need, the rest an equal share of what is left (max-min fairness), so that a table early
    /// in the mapping gets as much as one late in it.
    static func sharedFairly(_ total: Int, needs: [Int]) -> [Int] {
        var shares = Array(repeating: 0, count: needs.count)
        var left = max(0, total)
        for (position, index) in needs.indices.sorted(by: { needs[$0] < needs[$1] }).enumerated() {
            shares[index] = min(needs[index], left / (needs.count - position))
            left -= shares[index]
        }
        return shares
    }

    /// The sources and metadata lists, as much of them as fits in `budget`.
    private func sourcesAndMetadata(_ diff: SeedDiff, room: inout CommentRoom, within budget: Int) -> String {
        var text = ""
        func left(after heading: String) -> Int { budget == .max ? .max : budget - text.utf8.count - heading.utf8.count }
        if !diff.sources.isEmpty {
            let heading = "\n**Sources**\n\n"
            if diff.entities.isEmpty {
                let lines = diff.sources.map { "- " + Self.code(Self.textLine($0)) + "\n" }
                text += heading + room.fitted(lines, within: left(after: heading), more: CommentRoom.more)
            } else {
                text += heading + Self.sourcesLeftOut(diff) + "\n"
            }
        }
        if !diff.metadata.isEmpty {
            let heading = "\n**Metadata**\n\n"
            let lines = diff.metadata.map { change in "- \(Self.code(change.key)): " + Self.code(Self.valueChange(change)) + "\n" }
            text += heading + room.fitted(lines, within: left(after: heading), more: CommentRoom.more)
        }
        return text
    }

    /// The last line of a comment cut to fit: that it was, and where the whole diff is.
    static func shortenedNote(_ bytes: Int) -> String {
        "\n*Shortened to fit \(Wording.grouped(bytes)) bytes (`--max-bytes`): `seeder diff OLD NEW` prints the whole diff; "
            + "in GitHub Actions, the run's summary holds more.*\n"
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

    /// `text` as a code span in a table's cell, where a `|` ends the cell even inside code
    /// unless escaped (GitHub's tables).
    static func cellCode(_ text: String) -> String {
        code(text).replacingOccurrences(of: "|", with: "\\|")
    }
}

/// A markdown comment's bytes as they are spent (docs/commands.md, diff: Markdown): what is left,
/// and whether a list lost items for want of room, which the comment's last line then says.
private struct CommentRoom {
    var left: Int
    let limit: Int?
    var cut = false

    /// How a cut list ends.
    static func more(_ count: Int) -> String {
        "- … \(Wording.grouped(count)) more not listed\n"
    }

    /// Whole lines of a list, at most `--limit` of them (unless not `limited`) and as many as fit
    /// in `budget`, ending with the count left out (`more`).
    mutating func fitted(_ lines: [String], within budget: Int, limited: Bool = true, more: (Int) -> String) -> String {
        let shown = limited ? lines.prefix(limit ?? lines.count) : lines[...]
        var text = "", used = 0, count = 0
        for line in shown {
            let rest = lines.count - count - 1
            if used + line.utf8.count + (rest > 0 ? more(rest).utf8.count : 0) > budget { break }
            text += line
            used += line.utf8.count
            count += 1
        }
        if count < shown.count { cut = true }
        let rest = lines.count - count
        return text + (rest > 0 ? more(rest) : "")
    }
}
