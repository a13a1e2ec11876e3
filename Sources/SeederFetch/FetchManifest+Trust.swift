import Foundation
import SeederCore

/// What a manifest may ask of fetch: it is data DUMPS holds, and DUMPS may come from someone
/// else (docs/commands.md, fetch: DUMPS is data). An entry fetch would act on (send its
/// validators, remove its file) must name a file inside DUMPS, plainly, that a source of the
/// mapping names; any other is ignored with a warning, and left out of the manifest written next.
extension FetchManifest {
    /// The entries that name a file of one of `sources` inside DUMPS, and a warning at `shown`
    /// (the manifest as the user names it) for each other, in the order of their paths.
    func keepingFiles(of sources: [Source], shown: String) -> (manifest: FetchManifest, ignored: [Diagnostic]) {
        var kept = FetchManifest()
        var ignored: [Diagnostic] = []
        for path in files.keys.sorted() {
            let entry = files[path]!
            if let reason = Self.reasonToIgnore(path, of: entry.source, among: sources) ?? Self.reasonToIgnore(entry) {
                ignored.append(
                    .warning(
                        .inputRefused, "ignoring the manifest's entry \(JSONWriter.stringLiteral(path)): \(reason)",
                        at: SourceLocation(file: shown)))
            } else {
                kept.files[path] = entry
            }
        }
        return (kept, ignored)
    }

    /// Why `entry` is not one fetch wrote, whatever its path: a validator or next page with a
    /// control character would become a header line or a URL fetch never sends.
    static func reasonToIgnore(_ entry: Entry) -> String? {
        let recorded = [entry.etag, entry.lastModified, entry.next].compactMap { $0 }
        guard recorded.contains(where: { $0.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F } }) else { return nil }
        return "a control character in its ETag, Last-Modified or next page; fetch sends no such header"
    }

    /// Why the entry of `path`, recorded for the source `source`, is not one fetch wrote; `nil`
    /// when it may be.
    static func reasonToIgnore(_ path: String, of source: String, among sources: [Source]) -> String? {
        if path.hasPrefix("/") { return "an absolute path; its files lie inside DUMPS" }
        let components = path.split(separator: "/", omittingEmptySubsequences: false)
        if components.contains("..") { return "a '..' leads out of DUMPS" }
        if components.contains(where: { $0.isEmpty || $0 == "." }) { return "a '.' or empty component; fetch names its files plainly" }
        if path.contains("\\") { return "a backslash; fetch names its files plainly" }
        if path.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            return "a control character; fetch names its files plainly"
        }
        guard let owner = sources.first(where: { $0.path == source }) else {
            return "its source \(JSONWriter.stringLiteral(source)) is no source of the mapping"
        }
        let each = owner.fetch?.each != nil
        let paged = owner.fetch?.paginate != nil
        // As fetch names the files: pages by `Glob.isPage`, the one file of a source without a
        // paginator by its path (`*` matching no hidden name).
        let named =
            if each || paged {
                Glob.isPage(path, of: owner.path, each: each, paged: paged)
            } else {
                fnmatch(owner.path, path, FNM_PATHNAME | FNM_PERIOD) == 0
            }
        return named ? nil : "not a file fetch names for \(JSONWriter.stringLiteral(owner.path))"
    }
}
