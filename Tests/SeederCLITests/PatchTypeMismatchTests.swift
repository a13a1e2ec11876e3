import Foundation
import SeederTestSupport
import Testing

/// A changeset that would write a value its table cannot take (a key that is not an integer for
/// an `INTEGER PRIMARY KEY`) does not apply to the seed's rows (docs/commands.md, patch): status
/// 1, the table, the row and the column named, nothing written.
struct PatchTypeMismatchTests {
    /// `changeset` with the key of its first insert into `table` made the text `abc`: the type
    /// byte of an integer (1) and its 8 bytes become a text's (3), its length and bytes.
    static func textKey(in changeset: Data, table: String) throws -> Data {
        var bytes = [UInt8](changeset)
        let name = Array((table + "\0").utf8)
        let start = try #require(bytes.indices.first { bytes[$0...].starts(with: name) })
        let insert = try #require((start..<bytes.count).first { bytes[$0...].starts(with: [0x12, 0x00, 0x01]) })
        bytes.replaceSubrange((insert + 2)..<(insert + 11), with: [0x03, 0x03] + Array("abc".utf8))
        return Data(bytes)
    }

    @Test func aKeyOfAnotherTypeNamesTheRowAndWritesNothing() async throws {
        let scratch = try await PatchCommandTests.seedsAndChangeset()
        let changeset = try PatchCommandTests.bytes(scratch.path("v1-to-v2.changeset"))
        try scratch.write("bad.changeset", try Self.textKey(in: changeset, table: "user"))
        let v1 = try PatchCommandTests.bytes(scratch.path("v1.sqlite"))

        let run = try await seeder(["patch", "v1.sqlite", "bad.changeset", "-o", "out.sqlite"], in: scratch.root)
        #expect(run.status == 1)
        #expect(run.stdout == "")
        #expect(
            run.stderr
                == "error: the changeset bad.changeset does not fit the working copy's table user: the row id = 'abc' would hold "
                + "text ('abc') in id, its INTEGER PRIMARY KEY, which takes only integers; nothing was applied\n")
        #expect(!FileManager.default.fileExists(atPath: scratch.path("out.sqlite")))
        #expect(try PatchCommandTests.bytes(scratch.path("v1.sqlite")) == v1)
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.root).filter { $0.hasPrefix(".") } == [])
    }
}
