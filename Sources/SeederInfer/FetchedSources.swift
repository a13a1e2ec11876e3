import Foundation
import SeederCore
import SeederFiles

/// The sources `seeder fetch` wrote into the dumps directory, from its manifest
/// (`DUMPS/.seeder-fetch.json`: each file it wrote, with the `path` of the source it came from):
/// the files of one fetched source are one group, whatever their names (docs/commands.md,
/// `seeder infer`, rule `fetched-source`). The manifest is data: one that is not a regular
/// file, too large, not JSON or not of that shape gives no source, and the files are grouped by
/// their names and folders; a file it lists is only ever one that infer found in the directory.
enum FetchedSources {
    static let fileName = ".seeder-fetch.json"
    /// A larger manifest is not read (a fetch's manifest is some 300 bytes a file).
    static let sizeLimit = 64 << 20

    /// Each fetched source's `path`, with the files the manifest lists for it; empty when there is
    /// no manifest it can read.
    static func read(root: String) -> [String: [String]] {
        let path = root + "/" + fileName
        var status = stat()
        // `lstat`: a link is no manifest, wherever it leads.
        guard lstat(path, &status) == 0, FileKind.isRegular(status.st_mode),
            let bytes = try? FileByteSource(path: path).readAll(atMost: sizeLimit),
            let document = try? JSONDocument(parsing: bytes), let files = document.root["files"], files.kind == .object
        else { return [:] }
        var sources: [String: [String]] = [:]
        for member in files.members {
            guard let file = member.key.string, let source = member.value["source"]?.string, !source.isEmpty else { continue }
            sources[source, default: []].append(file)
        }
        return sources
    }
}

extension FileGroup {
    /// The files of each `fetched` source (`FetchedSources`) among `paths`, one group a source
    /// (rule `fetched-source`): under the source's glob when it matches exactly those files
    /// among `all`, else a group a file, all named for the source.
    static func byFetchedSource(
        _ paths: [String], fetched: [String: [String]], among all: [String], work: GroupingWork
    ) -> [FileGroup] {
        guard !fetched.isEmpty else { return [] }
        let dumps = Set(paths)
        var claimed = Set<String>()
        var result: [FileGroup] = []
        for source in fetched.keys.sorted() {
            let paths = Set(fetched[source]!).intersection(dumps).subtracting(claimed).sorted {
                $0.utf8.lexicographicallyPrecedes($1.utf8)
            }
            guard !paths.isEmpty else { continue }
            claimed.formUnion(paths)
            let name = entityName(source)
            if paths.count > 1, exactGlob([source], for: paths, among: all, work: work) != nil {
                result.append(FileGroup(pattern: source, paths: paths, name: name))
            } else {
                result += paths.map { FileGroup(pattern: $0, paths: [$0], name: name) }
            }
        }
        return result
    }
}
