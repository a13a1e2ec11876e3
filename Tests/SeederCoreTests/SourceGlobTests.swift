import Testing

@testable import SeederCore

/// A source's `path` glob (docs/mapping.md, Sources): what it matches, and what its stars matched,
/// which `@file.N` reads (Key paths).
struct SourceGlobTests {
    static let stars: [(pattern: String, path: String, stars: [String]?)] = [
        ("comics/*/*.json", "comics/1011334/0001.json", ["1011334", "0001"]),
        ("comics/*/*.json.gz", "comics/1011334/0001.json.gz", ["1011334", "0001"]),
        ("comics/*/*.json", "comics/1011334/0001.json.gz", nil),
        ("comics/*/*", "comics/1011334/0001.json.zst", ["1011334", "0001.json.zst"]),
        // A `*` never crosses `/`.
        ("comics/*.json", "comics/1011334/0001.json", nil),
        // The shortest text that lets the rest match, from the left.
        ("*-*.json", "a-b-c.json", ["a", "b-c"]),
        ("page-*.json", "page-.json", [""]),
        // `?` and `[...]` match a character but are no stars; a `*` in a set is a character.
        ("p?ge-[0-9]*.json", "page-12.json", ["2"]),
        ("[*]-*.json", "*-x.json", ["x"]),
        // A `**` segment is one star: the segments it spans, joined (none: empty).
        ("**/*.json", "a/b/c.json", ["a/b", "c"]),
        ("**/*.json", "c.json", ["", "c"]),
        ("users/**/posts.json", "users/42/posts.json", ["42"]),
        ("users.json", "users.json", []),
        ("users.json", "user.json", nil),
    ]

    @Test(arguments: stars)
    func readsTheTextOfEachStar(_ pattern: String, _ path: String, _ expected: [String]?) {
        let glob = SourceGlob(pattern)
        #expect(glob.stars(in: path) == expected)
        #expect(glob.matches(path) == (expected != nil))
        if let expected { #expect(glob.starCount == expected.count) }
    }

    @Test func countsTheStarsOfAPattern() {
        let counts = ["users.json", "*.json", "comics/*/*.json", "a**b.json", "**/x/*.json", "p?ge-[*a-z].json", "[unclosed*.json"].map {
            SourceGlob($0).starCount
        }
        #expect(counts == [0, 1, 2, 2, 2, 0, 0])
    }

    /// Patterns are data too (a manifest's source, a seed's `seed_source` row): a reversed range
    /// holds no character, and stars cost the product of the lengths, never a power of them.
    @Test func hostilePatternsNeitherTrapNorBacktrackWithoutEnd() {
        #expect(SourceGlob("[z-a].json").matches("q.json") == false)
        #expect(SourceGlob("[z-a0-9].json").stars(in: "7.json") == [])
        let clock = ContinuousClock()
        let started = clock.now
        let name = String(repeating: "a", count: 60) + ".json"
        #expect(SourceGlob("*a*a*a*a*a*a*a*a*a*a*a*ab").matches(name) == false)
        #expect(SourceGlob("*a*a*a*a*a*a*a*a*a*a*a*a.json").stars(in: name)?.count == 12)
        let deep = (1...12).map { "d\($0)" }.joined(separator: "/") + "/y"
        #expect(SourceGlob(Array(repeating: "**", count: 13).joined(separator: "/") + "/x").matches(deep) == false)
        #expect(clock.now - started < .seconds(2))
    }
}
