import Foundation
import SeederTestSupport
import Testing

@testable import SeederCore
@testable import SeederFetch

/// The parts of `seeder fetch` that keep a DUMPS someone else prepared from turning it against
/// the user, without a server (docs/commands.md, `seeder fetch`: DUMPS is data).
struct FetchTrustPartsTests {
    /// A source's folder of one letter (`o/*.json`, `c/*/*.json`) is listed as any other.
    @Test func globsUnderOneLetterFolders() throws {
        let workspace = try Workspace()
        for name in ["o/0001.json", "o/notes.txt", "c/7/0001.json", "c/7/0002.json", "c/8/x.json", "top.json"] {
            try workspace.write(name, "[]")
        }
        #expect(Glob.files(matching: "o/*.json", in: workspace.root) == ["o/0001.json"])
        #expect(Glob.files(matching: "c/*/*.json", in: workspace.root) == ["c/7/0001.json", "c/7/0002.json", "c/8/x.json"])
        #expect(Glob.pages(of: "o/*.json", each: false, paged: true, in: workspace.root) == ["o/0001.json"])
        #expect(Glob.pages(of: "c/*/*.json", each: true, paged: true, in: workspace.root) == ["c/7/0001.json", "c/7/0002.json"])
        #expect(Glob.files(matching: "*.json", in: workspace.root) == ["top.json"])
        #expect(Glob.files(matching: "top.json", in: workspace.root) == ["top.json"])
    }
}
