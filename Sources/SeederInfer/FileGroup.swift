import SeederCore
import SeederFiles

/// Dump files that are one source, as the grouping rules (`FileGroup.rules`) find them: the
/// files of one fetched source, the one-record files of one folder, numbered files of one name
/// (`page-1.json`, `page-2.json`) under one glob (`page-*.json`), or a file on its own
/// (docs/commands.md, `seeder infer`).
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

    /// The numbered files among `paths` (rule `numbered-files`): those whose names differ only
    /// in their numbers, under the glob that makes each number `*` (`numberedPattern`), when it
    /// matches exactly them among `all`.
    static func numbered(_ paths: [String], among all: [String], work: GroupingWork) -> [FileGroup] {
        var byPattern: [String: [String]] = [:]
        var order: [String] = []
        for path in paths {
            let pattern = numberedPattern(path)
            if byPattern[pattern] == nil { order.append(pattern) }
            byPattern[pattern, default: []].append(path)
        }
        return order.compactMap { pattern in
            let paths = byPattern[pattern]!
            guard paths.count > 1, exactGlob([pattern], for: paths, among: all, work: work) != nil else { return nil }
            return FileGroup(pattern: pattern, paths: paths, name: entityName(pattern))
        }
    }

    /// The files of one folder that each hold one record of the same kind (rule
    /// `one-record-a-file`), whatever their names, as a fetch with `each` writes a file per
    /// record named by its id or its slug: `type/18.json`, `type/fire.json` and
    /// `type/fire/index.json` are all records of `type/`, one group named for the folder
    /// (`Type`). Files are of one kind when their record's keys are the first one's, or nine in
    /// ten of them in common; `recordKeys` gives a file's keys when it holds one record, else
    /// `nil`. The kind of the most files is the folder's; other files keep their own names.
    /// Files at the top of the dumps directory name their kinds themselves (`labels.json`,
    /// `repo.json`). The group's glob is the narrowest that matches exactly its files among
    /// `all` (`type/*.json`, `type/*/index.json`); when none does, each file is a source of its
    /// own, all of them one entity.
    static func byFolder(
        _ paths: [String], among all: [String], recordKeys: (String) -> Set<String>?, work: GroupingWork
    ) -> [FileGroup] {
        var byFolder: [String: [String]] = [:]
        var folderOrder: [String] = []
        for path in paths {
            guard let folder = recordFolder(path) else { continue }
            if byFolder[folder] == nil { folderOrder.append(folder) }
            byFolder[folder, default: []].append(path)
        }
        var result: [FileGroup] = []
        for folder in folderOrder where byFolder[folder]!.count > 1 {
            var kinds: [(keys: Set<String>, members: [String])] = []
            for path in byFolder[folder]! {
                guard let keys = recordKeys(path), !keys.isEmpty else { continue }
                // Against the kinds found so far, a handful: a folder's records are of one or two.
                if let kind = kinds.firstIndex(where: { Self.oneKind($0.keys, keys) }) {
                    kinds[kind].members.append(path)
                } else {
                    kinds.append((keys, [path]))
                }
            }
            guard let kind = kinds.max(by: { $0.members.count < $1.members.count }), kind.members.count > 1 else { continue }
            let paths = kind.members
            let name = entityName(folder + "/*")
            let numbered = Set(paths.map(numberedPattern))
            let extensions = Set(paths.map { $0[($0.lastIndex(of: ".") ?? $0.endIndex)...] })
            // Records laid out as folders (`type/fire/index.json`), or as files (`type/fire.json`).
            let nested = paths.allSatisfy { $0.dropFirst(folder.count + 1).contains("/") }
            let folderGlob = folder + (nested ? "/*/index" : "/*") + (extensions.first ?? "")
            let patterns = (numbered.count == 1 ? [numbered.first!] : []) + (extensions.count == 1 ? [folderGlob] : [])
            if let pattern = exactGlob(patterns, for: paths, among: all, work: work) {
                result.append(FileGroup(pattern: pattern, paths: paths, name: name))
            } else {
                result += paths.map { FileGroup(pattern: $0, paths: [$0], name: name) }
            }
        }
        return result
    }

    /// The folder whose record a file is: its own (`type/fire.json` -> `type`), or its folder's
    /// for a record laid out as a folder (`type/fire/index.json` -> `type`); `nil` at the top of
    /// the dumps directory. A folder's own `index.json` (`type/index.json`) is the folder's.
    static func recordFolder(_ path: String) -> String? {
        guard let slash = path.lastIndex(of: "/") else { return nil }
        let folder = path[..<slash]
        let base = path[path.index(after: slash)...].split(separator: ".", maxSplits: 1).first ?? ""
        guard base == "index", let parent = folder.lastIndex(of: "/") else { return String(folder) }
        return String(folder[..<parent])
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
