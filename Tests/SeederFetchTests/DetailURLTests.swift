import Foundation
import Testing

@testable import SeederFetch

/// A record's URL against `base` (docs/mapping.md, A detail URL from the record): RFC 3986's own
/// examples, then what fetch refuses.
struct DetailURLTests {
    /// RFC 3986, 5.4.1 and 5.4.2, against `http://a/b/c/d;p?q` (the examples whose target has a
    /// path segment to name a file; a fragment is never sent).
    @Test(arguments: [
        ("g", "http://a/b/c/g"), ("./g", "http://a/b/c/g"), ("g/", "http://a/b/c/g/"), ("/g", "http://a/g"),
        ("//g/x", "http://g/x"), ("?y", "http://a/b/c/d;p?y"), ("g?y", "http://a/b/c/g?y"), ("#s", "http://a/b/c/d;p?q"),
        ("g#s", "http://a/b/c/g"), ("g?y#s", "http://a/b/c/g?y"), (";x", "http://a/b/c/;x"), ("g;x", "http://a/b/c/g;x"),
        ("", "http://a/b/c/d;p?q"), ("..", "http://a/b/"), ("../", "http://a/b/"), ("../g", "http://a/b/g"),
        ("../../g", "http://a/g"), ("../../../g", "http://a/g"), ("../../../../g", "http://a/g"),
        ("/./g", "http://a/g"), ("/../g", "http://a/g"), ("g.", "http://a/b/c/g."), (".g", "http://a/b/c/.g"),
        ("g..", "http://a/b/c/g.."), ("..g", "http://a/b/c/..g"), ("./../g", "http://a/b/g"), ("./g/.", "http://a/b/c/g/"),
        ("g/./h", "http://a/b/c/g/h"), ("g/../h", "http://a/b/c/h"), ("g;x=1/./y", "http://a/b/c/g;x=1/y"),
        ("g;x=1/../y", "http://a/b/c/y"), ("g?y/./x", "http://a/b/c/g?y/./x"), ("HTTP://a/%2e%2E/b/./c", "http://a/b/c"),
        ("https://x.test/api/v2/type/12/", "https://x.test/api/v2/type/12/"),
    ])
    func resolvesAsRFC3986Says(reference: String, target: String) throws {
        #expect(try DetailURL(reference, base: "http://a/b/c/d;p?q").url == target)
    }

    /// The file's name: the last non-empty segment, decoded, then safe.
    @Test func namesTheFileByTheLastSegment() throws {
        #expect(try DetailURL("https://x.test/api/v2/type/12/", base: nil).fileName == "12")
        #expect(try DetailURL("https://x.test/items/caf%C3%A9?v=1", base: nil).fileName == "café")
        #expect(try DetailURL("https://x.test/items/a%2Fb", base: nil).fileName == "a%2Fb")
        #expect(try DetailURL("https://x.test/items/.hidden/", base: nil).fileName == "%2Ehidden")
    }

    @Test(
        arguments: [
            ("type/1/", nil, DetailURL.Problem.relativeWithoutBase), ("ftp://x.test/1", "https://x.test/", .scheme("ftp")),
            ("file:///etc/passwd", "https://x.test/", .scheme("file")), ("http:///1/", nil, .noHost),
            ("https://x.test/a b/", nil, .controlCharacter), ("https://x.test/a\r\n/", nil, .controlCharacter),
            ("https://x.test/a\u{0}/", nil, .controlCharacter), ("https://x.test/", nil, .noSegment),
            ("../..", "http://a/b/c/d", .noSegment),
            ("http://user:pass@x.test/1/", nil, .userInfo), ("http://x.test:80@y.test/1/", nil, .userInfo),
            ("http://x.test%3a8801/1/", nil, .noHost), ("http://x.test\\@y.test/1/", nil, .userInfo),
        ] as [(String, String?, DetailURL.Problem)])
    func refuses(value: String, base: String?, problem: DetailURL.Problem) {
        #expect(throws: problem) { try DetailURL(value, base: base) }
    }
}
