/// A source's `path`: a glob relative to the dumps directory (docs/mapping.md, Sources), matched
/// shell-style per path segment. `*` and `?` never cross `/`, `**` (a whole segment) matches any
/// number of segments, `[abc]` and `[a-z]` match one character (`[!abc]` any other).
///
/// Its stars are what `@file.N` reads (docs/mapping.md, Key paths): each `*` of a segment, and
/// each `**` segment, counted from the left; `?` and `[...]` are not stars.
///
///     let glob = SourceGlob("comics/*/*.json")
///     glob.starCount                                  // 2
///     glob.stars(in: "comics/1011334/0001.json")      // ["1011334", "0001"]
///     glob.stars(in: "comics/1011334.json")           // nil: no match
public struct SourceGlob: Sendable, Hashable {
    /// The glob as the source writes it.
    public var pattern: String

    /// The glob `pattern`.
    public init(_ pattern: String) {
        self.pattern = pattern
    }

    /// The number of stars `@file.N` can name.
    public var starCount: Int {
        var count = 0
        for segment in pattern.split(separator: "/") {
            if segment == "**" {
                count += 1
                continue
            }
            let scalars = Array(segment.unicodeScalars)
            var index = 0
            while index < scalars.count {
                switch scalars[index] {
                case "*":
                    count += 1
                    index += 1
                case "[":
                    // As `matchSegment` reads a set: up to the first `]` after it (a `*` in it is
                    // a character of the set).
                    guard let close = scalars[(index + 1)...].firstIndex(of: "]") else { return count }
                    index = close + 1
                default:
                    index += 1
                }
            }
        }
        return count
    }

    /// The one path a glob without `*`, `?` or `[` matches (its segments joined by `/`), which a
    /// planner looks up rather than matching every file against it; `nil` for any other glob.
    public var literalPath: String? {
        guard !pattern.unicodeScalars.contains(where: { $0 == "*" || $0 == "?" || $0 == "[" }) else { return nil }
        return segments(of: pattern).joined(separator: "/")
    }

    /// `true` when `path` (relative, `/`-separated) matches.
    public func matches(_ path: String) -> Bool {
        var failed = Failures()
        return Self.match(segments(of: pattern), segments(of: path), capturing: false, failed: &failed) != nil
    }

    /// The text each star matched in `path`, in order; `nil` when `path` does not match. Where a
    /// path matches in several ways, each star takes the shortest text that lets the rest match,
    /// from the left (`*-*.json` on `a-b-c.json`: `a`, then `b-c`); a `**` takes its segments
    /// joined by `/` (empty for none).
    public func stars(in path: String) -> [String]? {
        var failed = Failures()
        return Self.match(segments(of: pattern), segments(of: path), capturing: true, failed: &failed)
    }

    /// The places (a pattern's position, the text's) already tried and found not to match: each
    /// is tried once, so that stars (`*a*a*a*b`, `**/**/**`) cost the product of the lengths, not
    /// a power of them. Trying in the same order keeps the same first match.
    private struct Failures {
        var segments = Set<Int64>()
        var scalars = Set<Int64>()
        static func key(_ pattern: Int, _ text: Int) -> Int64 { Int64(pattern) << 32 | Int64(text) }
    }

    private func segments(of text: String) -> ArraySlice<String> {
        text.split(separator: "/").map(String.init)[...]
    }

    /// The stars' texts when `path` matches (none when not `capturing`: an empty array, which
    /// allocates nothing), else `nil`.
    private static func match(
        _ pattern: ArraySlice<String>, _ path: ArraySlice<String>, capturing: Bool, failed: inout Failures
    ) -> [String]? {
        guard let first = pattern.first else { return path.isEmpty ? [] : nil }
        let key = Failures.key(pattern.startIndex, path.startIndex)
        guard !failed.segments.contains(key) else { return nil }
        if first == "**" {
            for skip in 0...path.count {
                guard let rest = match(pattern.dropFirst(), path.dropFirst(skip), capturing: capturing, failed: &failed) else { continue }
                return capturing ? [path.prefix(skip).joined(separator: "/")] + rest : rest
            }
            failed.segments.insert(key)
            return nil
        }
        // Each segment's own places: a pattern segment is tried on many path segments.
        var inSegment = Failures()
        guard let segment = path.first,
            let here = matchSegment(
                Array(first.unicodeScalars)[...], Array(segment.unicodeScalars)[...], capturing: capturing, failed: &inSegment),
            let rest = match(pattern.dropFirst(), path.dropFirst(), capturing: capturing, failed: &failed)
        else {
            failed.segments.insert(key)
            return nil
        }
        return capturing ? here + rest : rest
    }

    private static func matchSegment(
        _ pattern: ArraySlice<Unicode.Scalar>, _ text: ArraySlice<Unicode.Scalar>, capturing: Bool, failed: inout Failures
    ) -> [String]? {
        guard let head = pattern.first else { return text.isEmpty ? [] : nil }
        switch head {
        case "*":
            let key = Failures.key(pattern.startIndex, text.startIndex)
            guard !failed.scalars.contains(key) else { return nil }
            for skip in 0...text.count {
                guard let rest = matchSegment(pattern.dropFirst(), text.dropFirst(skip), capturing: capturing, failed: &failed) else {
                    continue
                }
                guard capturing else { return rest }
                var star = String.UnicodeScalarView()
                star.append(contentsOf: text.prefix(skip))
                return [String(star)] + rest
            }
            failed.scalars.insert(key)
            return nil
        case "?":
            guard !text.isEmpty else { return nil }
            return matchSegment(pattern.dropFirst(), text.dropFirst(), capturing: capturing, failed: &failed)
        case "[":
            guard let close = pattern.dropFirst().firstIndex(of: "]"), let character = text.first else { return nil }
            var set = pattern[(pattern.startIndex + 1)..<close]
            let negated = set.first == "!" || set.first == "^"
            if negated { set = set.dropFirst() }
            var matched = false
            var index = set.startIndex
            while index < set.endIndex {
                if index + 2 < set.endIndex, set[index + 1] == "-" {
                    // A reversed range (`[z-a]`) holds no character.
                    if set[index] <= set[index + 2], (set[index]...set[index + 2]).contains(character) { matched = true }
                    index += 3
                } else {
                    if set[index] == character { matched = true }
                    index += 1
                }
            }
            guard matched != negated else { return nil }
            return matchSegment(pattern[(close + 1)...], text.dropFirst(), capturing: capturing, failed: &failed)
        default:
            guard text.first == head else { return nil }
            return matchSegment(pattern.dropFirst(), text.dropFirst(), capturing: capturing, failed: &failed)
        }
    }
}
