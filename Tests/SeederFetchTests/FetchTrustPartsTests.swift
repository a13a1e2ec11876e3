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

extension FetchTrustPartsTests {
    /// A manifest's entry is kept only when it names, plainly, a file fetch names for its
    /// source: a page of a paged or `each` source, the file of a source without a paginator.
    @Test func manifestEntriesFetchWouldName() throws {
        let mapping = try validMapping(
            """
            seeder: 1
            fetch: { base: "http://127.0.0.1:9/" }
            entities:
              User: { attributes: { id: integer } }
            sources:
              - { path: p.json, entity: User, fetch: { url: users } }
              - { path: c/*/*.json, entity: User, fetch: { url: "users/{id}/comics", each: p.json, paginate: link } }
              - { path: local/*.json, entity: User }
            """)
        let sources = mapping.sources ?? []
        let kept: [(String, String)] = [("p.json", "p.json"), ("c/7/0001.json", "c/*/*.json"), ("local/a.json", "local/*.json")]
        for (path, source) in kept { #expect(FetchManifest.reasonToIgnore(path, of: source, among: sources) == nil, "\(path)") }
        let ignored: [(String, String, String)] = [
            ("c/7/0001.json", "p.json", #"not a file fetch names for "p.json""#),
            ("c/7/notes.json", "c/*/*.json", #"not a file fetch names for "c/*/*.json""#),
            ("c/../0001.json", "c/*/*.json", "a '..' leads out of DUMPS"),
            ("local/.hidden.json", "local/*.json", #"not a file fetch names for "local/*.json""#),
            ("", "p.json", "a '.' or empty component; fetch names its files plainly"),
            ("p.json\u{7F}", "p.json", "a control character; fetch names its files plainly"),
            ("p.json", "P.json", #"its source "P.json" is no source of the mapping"#),
        ]
        for (path, source, reason) in ignored {
            #expect(FetchManifest.reasonToIgnore(path, of: source, among: sources) == reason, "\(path)")
        }
        var manifest = FetchManifest()
        let entry = FetchManifest.Entry(source: "p.json", url: "u", sha256: "0", size: 0)
        manifest.files = ["p.json": entry, "../p.json": entry]
        let (trusted, warnings) = manifest.keepingFiles(of: sources, shown: "dumps/.seeder-fetch.json")
        #expect(trusted.files == ["p.json": entry])
        #expect(
            warnings.map(\.description) == [
                #"dumps/.seeder-fetch.json: warning: ignoring the manifest's entry "../p.json": a '..' leads out of DUMPS"#
            ])
    }
}

extension FetchTrustPartsTests {
    /// A body file has a name of its own in the staging folder's hidden `.bodies` (the file is made
    /// only for a body that large), and goes with the folder; a removed area makes nothing again,
    /// not even its folder.
    @Test func bodyFilesGoWithTheStagingFolder() throws {
        let workspace = try Workspace(directories: ["dumps"])
        let staging = try StagingArea(dumps: workspace.path("dumps"))
        let first = try staging.newBodyFile()
        let second = try staging.newBodyFile()
        #expect(first != second)
        #expect(first.hasPrefix(staging.root + "/.bodies/") && second.hasPrefix(staging.root + "/.bodies/"))
        var status = stat()
        #expect(lstat(staging.root + "/.bodies", &status) == 0 && status.st_mode & 0o777 == 0o700)
        #expect(lstat(first, &status) != 0, "no file until a body needs one")
        staging.remove()
        #expect(!FileManager.default.fileExists(atPath: staging.root))
        #expect(throws: InputError.self) { try staging.newBodyFile() }
        #expect(throws: InputError.self) { try staging.write([1], at: "users/0001.json") }
        #expect(!FileManager.default.fileExists(atPath: staging.root))
        #expect(workspace.files == ["dumps"])
    }
}
