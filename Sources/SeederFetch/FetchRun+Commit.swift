import Foundation
import SeederCore

/// What a run writes when it succeeded: the staged pages in, the gone ones out, the manifest last.
extension FetchRun {
    // MARK: Commit

    /// Moves the staged files in, removes the pages that are gone, writes the manifest: `true`
    /// when DUMPS changed.
    func commit(fetched: [Int]) throws(InputError) -> Bool {
        let sources = mapping.sources!
        let fetchedPaths = Set(fetched.map { sources[$0].path })
        var newManifest = FetchManifest()
        for (path, entry) in manifest.files where !fetchedPaths.contains(entry.source) { newManifest.files[path] = entry }
        for (path, entry) in entries { newManifest.files[path] = entry }
        var removed: Set<String> = []
        for (path, entry) in manifest.files where fetchedPaths.contains(entry.source) && entries[path] == nil {
            if FileManager.default.fileExists(atPath: staging.dumps + "/" + path) { removed.insert(path) }
        }
        for index in fetched {
            let spec = sources[index].fetch!
            for path in Glob.pages(of: sources[index].path, each: spec.each != nil, paged: spec.paginate != nil, in: staging.dumps)
            where entries[path] == nil && newManifest.files[path] == nil {
                removed.insert(path)
            }
        }
        for index in fetched {
            summaries[index]?.pagesRemoved = removed.count { path in
                manifest.files[path]?.source == sources[index].path
                    || Glob.isPage(
                        path, of: sources[index].path, each: sources[index].fetch!.each != nil, paged: sources[index].fetch!.paginate != nil
                    )
            }
        }
        let text = newManifest.text
        let current = try? FileByteSource(path: staging.dumps + "/" + FetchManifest.fileName).readAll()
        let manifestChanged = current != Array(text.utf8)
        try staging.commit(changed: changed, removed: Array(removed), manifest: manifestChanged ? text : nil, shown: dumpsShown)
        return !changed.isEmpty || !removed.isEmpty || manifestChanged
    }
}
