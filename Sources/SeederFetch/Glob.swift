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
        var expression = "^"
        var star = 0
        for character in pattern {
            if character == "*" {
                star += 1
                expression += each && star == 1 ? "[^/]+" : "[0-9]{4,}"
            } else {
                expression += NSRegularExpression.escapedPattern(for: String(character))
            }
        }
        expression += "$"
        return path.range(of: expression, options: .regularExpression) != nil
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
