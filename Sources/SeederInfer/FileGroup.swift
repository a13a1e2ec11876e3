import SeederCore
import SeederFiles

/// Dump files that are one source: numbered files of one name (`page-1.json`, `page-2.json`)
/// under one glob (`page-*.json`), or a file on its own (docs/commands.md, `seeder infer`).
package struct FileGroup {
    /// The glob, or the file's path, relative to the dumps directory.
    package var pattern: String
    /// The files, in path order.
    package var paths: [String]
    /// The entity name the files suggest: their name's words in the singular
    /// (`article_comments.json` -> `ArticleComment`), without numbers and words that say
    /// nothing (`page`, `data`, `export`), else the directory's (`characters/page-1.json` ->
    /// `Character`).
    package var name: String

    /// Words of a file name that name no kind of record.
    package static let genericWords: Set<String> = [
        "page", "pages", "part", "parts", "chunk", "chunks", "batch", "export", "dump", "dumps", "data", "response", "all",
        "search", "of", "json", "jsonl", "ndjson", "file", "gz", "zst", "index",
    ]

    /// The groups of `dumps` (sorted by path) in the order of their first file. A glob is used
    /// only when it matches exactly its files among `all` the files of the directory.
    package static func groups(of dumps: [String], among all: [String]) -> [FileGroup] {
        var byPattern: [String: [String]] = [:]
        var order: [String] = []
        for path in dumps {
            let pattern = numberedPattern(path)
            if byPattern[pattern] == nil { order.append(pattern) }
            byPattern[pattern, default: []].append(path)
        }
        var groups: [FileGroup] = []
        for pattern in order {
            let paths = byPattern[pattern]!
            if paths.count > 1, pattern != paths[0], all.filter({ InputPlanner.glob(pattern, matches: $0) }) == paths {
                groups.append(FileGroup(pattern: pattern, paths: paths, name: entityName(pattern)))
            } else {
                for path in paths { groups.append(FileGroup(pattern: path, paths: [path], name: entityName(path))) }
            }
        }
        return groups.sorted { $0.paths[0].utf8.lexicographicallyPrecedes($1.paths[0].utf8) }
    }

    /// Joins the files of one folder that each hold one record of the same kind into one group,
    /// named for the folder (`type/bug.json`, `type/fire.json` -> `type/*.json`, `Type`), as a
    /// fetch with `each` writes a file per record named by it (rule `one-record-a-file`). Files
    /// are of one kind when their record's keys are the first one's, or nine in ten of them in
    /// common; `recordKeys` gives a file's keys when it holds one record, else `nil`. Files at
    /// the top of the dumps directory name their kinds themselves (`labels.json`, `repo.json`).
    /// When the folder's glob would match other files too, each file stays a source of its own,
    /// all of them one entity.
    package static func byFolder(_ groups: [FileGroup], among all: [String], recordKeys: (String) -> Set<String>?) -> [FileGroup] {
        var singles: [String: [Int]] = [:]
        var folderOrder: [String] = []
        for (index, group) in groups.enumerated() where group.paths.count == 1 {
            guard let slash = group.paths[0].lastIndex(of: "/") else { continue }
            let folder = String(group.paths[0][..<slash])
            if singles[folder] == nil { folderOrder.append(folder) }
            singles[folder, default: []].append(index)
        }
        var result = groups
        var removed = Set<Int>()
        for folder in folderOrder where singles[folder]!.count > 1 {
            var kinds: [(keys: Set<String>, members: [Int])] = []
            for index in singles[folder]! {
                guard let keys = recordKeys(groups[index].paths[0]), !keys.isEmpty else { continue }
                if let kind = kinds.firstIndex(where: { Self.oneKind($0.keys, keys) }) {
                    kinds[kind].members.append(index)
                } else {
                    kinds.append((keys, [index]))
                }
            }
            // The kind of the most files is the folder's; other files keep their own names.
            guard let kind = kinds.max(by: { $0.members.count < $1.members.count }), kind.members.count > 1 else { continue }
            let paths = kind.members.map { groups[$0].paths[0] }
            let extensions = Set(paths.map { $0[($0.lastIndex(of: ".") ?? $0.endIndex)...] })
            let name = entityName(folder + "/*")
            let pattern = folder + "/*" + (extensions.first ?? "")
            if extensions.count == 1, all.filter({ InputPlanner.glob(pattern, matches: $0) }) == paths {
                result[kind.members[0]] = FileGroup(pattern: pattern, paths: paths, name: name)
                removed.formUnion(kind.members.dropFirst())
            } else {
                for index in kind.members { result[index].name = name }
            }
        }
        return result.enumerated().filter { !removed.contains($0.offset) }.map(\.element)
    }

    /// Whether two records' keys are of one kind: the same, or nine in ten in common.
    static func oneKind(_ one: Set<String>, _ other: Set<String>) -> Bool {
        one == other || one.intersection(other).count * 10 >= one.union(other).count * 9
    }

    /// The path with each run of digits in its file name made `*`, and each folder named by a
    /// number alone too: a folder a record (`type/18/index.json` -> `type/*/index.json`, as
    /// PokéAPI's api-data lays its answers out).
    package static func numberedPattern(_ path: String) -> String {
        let slash = path.lastIndex(of: "/").map { path.index(after: $0) } ?? path.startIndex
        let folders = path[..<slash].split(separator: "/", omittingEmptySubsequences: false).dropLast().map { folder in
            !folder.isEmpty && folder.allSatisfy { $0.isASCII && $0.isNumber } ? "*" : String(folder)
        }
        var name = ""
        var inDigits = false
        for character in path[slash...] {
            if character.isASCII, character.isNumber {
                if !inDigits { name.append("*") }
                inDigits = true
            } else {
                name.append(character)
                inDigits = false
            }
        }
        return folders.map { $0 + "/" }.joined() + name
    }

    /// The entity name of a file or glob.
    package static func entityName(_ path: String) -> String {
        var components = path.split(separator: "/").map(String.init)
        // A glob of nothing but slashes (a manifest's `"/"`) names nothing.
        guard let last = components.popLast() else { return "Record" }
        var base = String(DumpCompression.of(file: last).stripped)
        for suffix in [".json", ".jsonl", ".ndjson"] where base.lowercased().hasSuffix(suffix) {
            base = String(base.dropLast(suffix.count))
        }
        for candidate in [base] + components.reversed() {
            let words = DraftNaming.words(of: candidate).filter { word in
                !word.allSatisfy(\.isNumber) && !genericWords.contains(word.lowercased())
            }
            if !words.isEmpty { return DraftNaming.entityName(fromWords: words) }
        }
        return "Record"
    }

}
