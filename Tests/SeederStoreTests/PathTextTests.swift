import Foundation
import SeederFiles
import Testing

struct PathTextTests {
    /// As `dirname` and `NSString.deletingLastPathComponent` give them, one-character names
    /// included (on which Foundation's traps).
    @Test(arguments: [
        ("a", ""), ("-", ""), ("ab", ""), ("a/b", "a"), ("/a", "/"), ("/", "/"), ("", ""), ("a/b/", "a"),
        ("dir/sub/seed.sqlite", "dir/sub"), ("/tmp/x/a", "/tmp/x"), ("a//b", "a"), ("./a", "."),
    ])
    func takesTheDirectoryPart(_ path: String, _ directory: String) {
        #expect(PathText.directory(of: path) == directory)
    }
}
