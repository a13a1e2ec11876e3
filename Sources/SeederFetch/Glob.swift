import Foundation

/// Files of DUMPS by a source's path pattern.
enum Glob {
    /// The files under `root` that the glob `pattern` matches, as relative paths, sorted (`*`
    /// does not cross a `/`, as in the build).
    static func files(matching pattern: String, in root: String) -> [String] {
        all(under: root, prefix: literalDirectory(of: pattern)).filter { fnmatch(pattern, $0, FNM_PATHNAME) == 0 }.sorted()
    }

    /// The files under `root` named as fetch names a source's pages: the parent's `*` any name,
    /// the page's `*` digits (4 or more).
    static func pages(of pattern: String, each: Bool, paged: Bool, in root: String) -> [String] {
        guard each || paged else { return [] }
        return all(under: root, prefix: literalDirectory(of: pattern)).filter { isPage($0, of: pattern, each: each, paged: paged) }.sorted()
    }

    static func isPage(_ path: String, of pattern: String, each: Bool, paged: Bool) -> Bool {
        guard each || paged else { return false }
        // Matched by hand, not by a regular expression made each time: a manifest's every entry
        // is checked (bench/README.md, fetch).
        let pieces = pattern.utf8.split(separator: UInt8(ascii: "*"), omittingEmptySubsequences: false).map(Array.init)
        let path = Array(path.utf8)
        func match(_ piece: Int, at start: Int) -> Bool {
            let literal = pieces[piece]
            guard path.count - start >= literal.count, path[start..<(start + literal.count)].elementsEqual(literal) else { return false }
            let after = start + literal.count
            guard piece + 1 < pieces.count else { return after == path.count }
            // The star after this piece: the parent's folder (any name, no `/`), or a page's
            // number (4 digits or more).
            let parent = each && piece == 0
            var end = after
            while end < path.count, parent ? path[end] != UInt8(ascii: "/") : (48...57).contains(path[end]) { end += 1 }
            let shortest = after + (parent ? 1 : 4)
            guard end >= shortest else { return false }
            return (shortest...end).reversed().contains { match(piece + 1, at: $0) }
        }
        return match(0, at: 0)
    }

    /// The folders of `pattern` before its first `*`: what comes before it, up to its last `/`
    /// (`o/*.json` -> `o`, `*.json` -> ``). Plain string logic: `NSString`'s path calls trap on
    /// a one-letter folder with its slash (`o/`) on Linux.
    static func literalDirectory(of pattern: String) -> String {
        let literal = pattern[..<(pattern.firstIndex(of: "*") ?? pattern.endIndex)]
        guard let slash = literal.lastIndex(of: "/") else { return "" }
        return String(literal[..<slash])
    }

    /// Every regular file under `root/prefix`, relative to `root`; hidden files left out.
    private static func all(under root: String, prefix: String) -> [String] {
        let start = prefix.isEmpty ? root : root + "/" + prefix
        guard let enumerator = FileManager.default.enumerator(atPath: start) else { return [] }
        var result: [String] = []
        while let name = enumerator.nextObject() as? String {
            let relative = prefix.isEmpty ? name : prefix + "/" + name
            if name.split(separator: "/").last?.hasPrefix(".") ?? false { continue }
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: root + "/" + relative, isDirectory: &isDirectory), !isDirectory.boolValue {
                result.append(relative)
            }
        }
        return result
    }
}
