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
        "search", "of", "json", "jsonl", "ndjson", "file", "gz", "zst",
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

    /// The path with each run of digits in its file name made `*`.
    package static func numberedPattern(_ path: String) -> String {
        let slash = path.lastIndex(of: "/").map { path.index(after: $0) } ?? path.startIndex
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
        return String(path[..<slash]) + name
    }

    /// The entity name of a file or glob.
    package static func entityName(_ path: String) -> String {
        var components = path.split(separator: "/").map(String.init)
        var base = String(DumpCompression.of(file: components.removeLast()).stripped)
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
