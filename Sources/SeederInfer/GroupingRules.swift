import SeederCore
import SeederFiles

/// One rule of the grouping stage (docs/commands.md, `seeder infer`, Rules): given the dump files
/// no earlier rule grouped, the groups it makes of some of them. `FileGroup.groups` runs
/// `FileGroup.rules` in order, and the first rule that groups a file wins; a file no rule groups
/// is a source of its own.
struct GroupingRule: Sendable {
    /// What the rule is, as the docs' table lists it.
    let rule: InferRule
    let group: @Sendable (GroupingInput) -> [FileGroup]
}

/// What the grouping rules read: the files left to group, and what tells how.
struct GroupingInput {
    /// The dump files no earlier rule grouped, in path order.
    let left: [String]
    /// Every file of the dumps directory, in path order: a glob is used only when it matches
    /// exactly its group's files among them.
    let all: [String]
    /// The files of each source `seeder fetch` wrote, by the source's path (`FetchedSources`).
    let fetched: [String: [String]]
    /// The keys of the one record a file holds, else `nil`.
    let recordKeys: (String) -> Set<String>?
    let work: GroupingWork
}

/// How many paths infer compared while grouping the files and handing each group its files:
/// the files of the dumps directory times the globs tried, a few a folder, and no lookup of a
/// file in its group's list. A folder of thousands of records costs thousands of tests, not
/// millions (`InferReport.pathTests`, which tests pin).
final class GroupingWork {
    var pathTests = 0
}

extension FileGroup {
    /// The grouping rules, in the order they are tried.
    static let rules: [GroupingRule] = [
        GroupingRule(
            rule: InferRule(
                name: "fetched-source", stage: "grouping",
                drafts: "the files a fetched source wrote (`.seeder-fetch.json`) are one source and one entity, named for the source",
                corpusCase: "api/pokeapi", test: "InferServiceTests/filesOfOneFetchedSourceAreOneEntity"),
            group: { input in byFetchedSource(input.left, fetched: input.fetched, among: input.all, work: input.work) }),
        GroupingRule(
            rule: InferRule(
                name: "one-record-a-file", stage: "grouping",
                drafts: "the files of one folder that each hold one record of the same keys (`pokemon/1.json`, `pokemon/bulbasaur.json`, "
                    + "`type/fire/index.json`) are one source and one entity, named for the folder",
                corpusCase: "api/pokeapi", test: "InferServiceTests/filesNamedByTheirRecordsAreOneEntityOfTheFolder"),
            group: { input in byFolder(input.left, among: input.all, recordKeys: input.recordKeys, work: input.work) }),
        GroupingRule(
            rule: InferRule(
                name: "numbered-files", stage: "grouping",
                drafts: "numbered files (`page-1.json`, `type/18.json`, `type/18/index.json`) are one source under one glob",
                corpusCase: "pokeapi", test: "InferServiceTests/folderOfRecordsIsOneEntityNamedForIt"),
            group: { input in numbered(input.left, among: input.all, work: input.work) }),
    ]

    /// The groups of `dumps` (sorted by path), in the order of their first file: each file in
    /// the group of the first rule that groups it, else alone.
    static func groups(
        of dumps: [String], among all: [String], fetched: [String: [String]], work: GroupingWork,
        recordKeys: (String) -> Set<String>?
    ) -> [FileGroup] {
        var left = dumps
        var result: [FileGroup] = []
        for rule in rules {
            guard !left.isEmpty else { break }
            let made = withoutActuallyEscaping(recordKeys) { recordKeys in
                rule.group(GroupingInput(left: left, all: all, fetched: fetched, recordKeys: recordKeys, work: work))
            }
            let grouped = Set(made.flatMap(\.paths))
            left.removeAll { grouped.contains($0) }
            result += made
        }
        result += left.map { FileGroup(pattern: $0, paths: [$0], name: entityName($0)) }
        return result.sorted { $0.paths[0].utf8.lexicographicallyPrecedes($1.paths[0].utf8) }
    }

    /// The first of `patterns` that matches exactly `paths` among `all` (no other file, none of
    /// them left out), else `nil`: a group's glob, which must not read another file on a build.
    static func exactGlob(_ patterns: [String], for paths: [String], among all: [String], work: GroupingWork) -> String? {
        let wanted = Set(paths)
        return patterns.first { pattern in
            guard !wanted.contains(pattern) else { return false }
            let glob = SourceGlob(pattern)
            var matched = 0
            for path in all {
                work.pathTests += 1
                guard glob.matches(path) else { continue }
                guard wanted.contains(path) else { return false }
                matched += 1
            }
            return matched == wanted.count
        }
    }
}
