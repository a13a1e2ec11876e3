import SeederCore

/// A source whose files differ between two seeds: one line of a diff however many files it reads
/// (docs/commands.md, diff: Sources). `nil` on the side that lacks it.
///
/// A seed's `seed_source` holds a row per source (its glob, `items/*.json`) or, in seeds built
/// before and with `provenance: files`, a row per file. `changes(old:new:)` puts both on one
/// footing: files go under the glob of a source row that matches them, else into groups of
/// their own (`filePatterns`).
package struct SourceChange: Sendable, Hashable {
    /// One side's source: its files, and their digest, bytes and records.
    package struct Side: Sendable, Hashable {
        package var files: Int
        /// A source row's digest, or one recomputed from per-file rows as the build makes it:
        /// SHA-256 over "path\nsha256\n" of each file in path order (the order files are read), so that an unchanged source reads as unchanged
        /// whichever layout each seed has.
        package var sha256: String
        package var bytes: Int
        package var records: Int
    }

    /// Files changed, added and removed, when both seeds list the source's files one by one.
    package struct FileCounts: Sendable, Hashable {
        package var changed = 0
        package var added = 0
        package var removed = 0
    }

    /// The source's glob, or a file's path when it stands alone.
    package var path: String
    package var old: Side?
    package var new: Side?
    /// `nil` when a side has only the source's row, which does not name its files.
    package var files: FileCounts?

    /// Whether the source's files hold other bytes (or other files).
    package var contentsChanged: Bool { old?.sha256 != new?.sha256 }

    /// The sources that differ between `old`'s and `new`'s `seed_source` rows, by path.
    package static func changes(old: [SeedCatalog.Source], new: [SeedCatalog.Source]) -> [SourceChange] {
        let globs = (new + old).filter(isSourceRow).map { SourceGlob($0.path) }
        let pattern = filePatterns(Set((old + new).filter { !isSourceRow($0) }.map(\.path)))
        func group(_ row: SeedCatalog.Source) -> String {
            if isSourceRow(row) { return row.path }
            return globs.first { $0.matches(row.path) }?.pattern ?? pattern[row.path]!
        }
        var groups: [String: (old: [SeedCatalog.Source], new: [SeedCatalog.Source])] = [:]
        for row in old { groups[group(row), default: ([], [])].old.append(row) }
        for row in new { groups[group(row), default: ([], [])].new.append(row) }
        return groups.keys.sorted().compactMap { key in
            let rows = groups[key]!
            let change = SourceChange(
                path: key, old: side(rows.old), new: side(rows.new),
                files: fileCounts(rows.old, rows.new))
            return change.old == change.new ? nil : change
        }
    }

    /// One seed's sources, grouped as `changes` groups them: what `inspect` lists, a line a source.
    package static func sources(_ rows: [SeedCatalog.Source]) -> [(path: String, totals: Side)] {
        changes(old: [], new: rows).map { ($0.path, $0.new!) }
    }

    /// Whether a row stands for a whole source, not one file (`SourceRow.Scope`).
    private static func isSourceRow(_ row: SeedCatalog.Source) -> Bool {
        row.scope == .source
    }

    /// The group of each file that no source row's glob takes: files whose paths differ only in
    /// their numbers are one (`items/07/0712.json` -> `items/*/*.json`); of the files left alone,
    /// more than `folderFiles` of one extension in one folder are one (`items/*.json`: pages named
    /// by a slug); any other file stands alone (`users.json`).
    static func filePatterns(_ paths: Set<String>) -> [String: String] {
        let numbered = Dictionary(grouping: paths, by: numberPattern)
        var pattern: [String: String] = [:]
        var alone: [String] = []
        for (key, members) in numbered {
            if members.count > 1 { for path in members { pattern[path] = key } } else { alone.append(members[0]) }
        }
        for (key, members) in Dictionary(grouping: alone, by: folderPattern) {
            for path in members { pattern[path] = members.count > folderFiles ? key : path }
        }
        return pattern
    }

    /// How many files of one folder and extension, each alone by its numbers, make a source.
    static let folderFiles = 10

    /// `items/07/0712.json` -> `items/*/*.json`: each run of digits a star.
    static func numberPattern(_ path: String) -> String {
        var text = ""
        for character in path {
            if character.isASCII, character.isNumber {
                if text.last != "*" { text.append("*") }
            } else {
                text.append(character)
            }
        }
        return text
    }

    /// `items/abc.json` -> `items/*.json`; `README` -> `*`.
    static func folderPattern(_ path: String) -> String {
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { String(path[...$0]) } ?? ""
        let name = slash.map { path[path.index(after: $0)...] } ?? path[...]
        let dot = name.lastIndex(of: ".").flatMap { $0 == name.startIndex ? nil : $0 }
        return folder + "*" + (dot.map { String(name[$0...]) } ?? "")
    }

    /// A side's totals: the source row's, or its files' summed, with their digest recomputed.
    private static func side(_ rows: [SeedCatalog.Source]) -> Side? {
        guard let first = rows.first else { return nil }
        if rows.count == 1, isSourceRow(first) {
            return Side(files: first.files, sha256: first.sha256, bytes: first.bytes, records: first.records)
        }
        return Side(
            files: rows.count, sha256: SeedSource.digest(rows.map { ($0.path, $0.sha256) }), bytes: rows.reduce(0) { sum($0, $1.bytes) },
            records: rows.reduce(0) { sum($0, $1.records) })
    }

    /// Files changed, added and removed, when neither side is a source row.
    private static func fileCounts(_ old: [SeedCatalog.Source], _ new: [SeedCatalog.Source]) -> FileCounts? {
        guard !(old + new).contains(where: isSourceRow) else { return nil }
        let before = Dictionary(old.map { ($0.path, $0.sha256) }, uniquingKeysWith: { first, _ in first })
        var counts = FileCounts()
        var seen = Set<String>()
        for row in new {
            seen.insert(row.path)
            switch before[row.path] {
            case nil: counts.added += 1
            case row.sha256?: break
            default: counts.changed += 1
            }
        }
        counts.removed = before.keys.filter { !seen.contains($0) }.count
        return counts
    }
}

/// `a + b`, held at the nearest bound where it would overflow: a seed's counts are data, and a
/// hostile one's (`9223372036854775807` bytes twice) must not stop the command.
private func sum(_ a: Int, _ b: Int) -> Int {
    let (total, overflow) = a.addingReportingOverflow(b)
    return overflow ? (b > 0 ? .max : .min) : total
}
