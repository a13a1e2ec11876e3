/// Path text taken apart as `dirname` does, by hand: Foundation's
/// `NSString.deletingLastPathComponent` on Linux traps on a name of one character (`-o a`,
/// `--report -`).
package enum PathText {
    /// The directory part of `path`, as `NSString.deletingLastPathComponent` gives it: `""` for a
    /// bare name, `/` for a name in the root; trailing slashes are not a component.
    package static func directory(of path: String) -> String {
        var trimmed = Substring(path)
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        if trimmed == "/" { return "/" }
        guard let slash = trimmed.lastIndex(of: "/") else { return "" }
        var directory = trimmed[..<slash]
        while directory.hasSuffix("/") { directory = directory.dropLast() }
        return directory.isEmpty ? "/" : String(directory)
    }
}
