import Foundation
import GRDB
import SeederCore
import SeederFiles
import SeederTestSupport
import Testing

@testable import SeederStore

/// Gzipped and Zstandard dumps (docs/mapping.md, Dump files): found by name and by glob through
/// their suffix, read as their text, located in that text, recorded in `seed_source` as stored,
/// and refused at the file when the stored bytes are wrong.
struct CompressedDumpsTests {
    /// Writes `text` to `name` in the workspace, compresses it beside itself and removes the text.
    @discardableResult
    static func writeCompressed(_ workspace: Workspace, _ name: String, _ text: String, _ compressor: Compressor) async throws -> Data {
        try workspace.write(name, text)
        let stored = try await compressor.compress(workspace.path(name))
        try FileManager.default.removeItem(atPath: workspace.path(name))
        return try Data(contentsOf: URL(fileURLWithPath: stored))
    }

    static func sha256(_ data: Data) -> String { SHA256.hex(data) }

    @Test(arguments: Compressor.allCases)
    func feedsEntitiesFromCompressedFilesNamedAfterThem(_ compressor: Compressor) async throws {
        let workspace = try Workspace.withDumps()
        try workspace.write(
            "mapping.yaml",
            """
            seeder: 1
            entities:
              User:
                attributes: { id: integer, name: string }
              ArticleComment:
                attributes: { id: integer, bodyText: string }
            """)
        let suffix = compressor.suffix
        let users = try await Self.writeCompressed(
            workspace, "dumps/users.json", #"[{"id": 1, "name": "Ann"}, {"id": 2, "name": "Bo"}]"#, compressor)
        let comments = try await Self.writeCompressed(
            workspace, "dumps/article_comments.ndjson", "{\"id\": 1, \"body_text\": \"a\"}\n\n{\"id\": 2, \"body_text\": \"b\"}\n",
            compressor)
        try await Self.writeCompressed(workspace, "dumps/notes.json", "[]", compressor)
        let report = workspace.build()
        #expect(report.messages(workspace) == ["dumps/notes.json\(suffix): warning: no source reads this dump file"])
        #expect(try workspace.rows("SELECT * FROM user") == [#"[id:1 name:"Ann"]"#, #"[id:2 name:"Bo"]"#])
        #expect(try workspace.rows("SELECT * FROM article_comment") == [#"[id:1 body_text:"a"]"#, #"[id:2 body_text:"b"]"#])
        // As stored: the compressed file's digest and size (docs/seed.md), each file its own source.
        let digest = { (path: String, bytes: Data) in SHA256.hex(Array("\(path)\n\(Self.sha256(bytes))\n".utf8)) }
        #expect(
            try workspace.rows("SELECT * FROM seed_source ORDER BY path") == [
                #"[path:"article_comments.ndjson\#(suffix)" files:1 sha256:"\#(digest("article_comments.ndjson" + suffix, comments))" bytes:\#(comments.count) records:2]"#,
                #"[path:"users.json\#(suffix)" files:1 sha256:"\#(digest("users.json" + suffix, users))" bytes:\#(users.count) records:2]"#,
            ])
        #expect(report.files.map(\.sha256) == [Self.sha256(comments), Self.sha256(users)])
    }

    @Test(arguments: Compressor.allCases)
    func readsSourcesWhosePathsNameTheCompression(_ compressor: Compressor) async throws {
        let workspace = try Workspace.withDumps()
        let suffix = compressor.suffix
        try workspace.write(
            "mapping.yaml",
            """
            seeder: 1
            entities:
              User:
                attributes: { id: integer, name: string }
            sources:
              - path: users.json\(suffix)
                entity: User
              - path: pages/page-*.json\(suffix)
                entity: User
                keyPath: result
            """)
        try await Self.writeCompressed(workspace, "dumps/users.json", #"[{"id": 1, "name": "Ann"}]"#, compressor)
        try await Self.writeCompressed(workspace, "dumps/pages/page-1.json", #"{"result": [{"id": 2, "name": "Bo"}]}"#, compressor)
        // Two members or frames, as `cat` makes them.
        let first = try await compressor.compress(Data(#"{"result": [{"id": 3, "name": "Cy"},"#.utf8))
        let second = try await compressor.compress(Data(#" {"id": 4, "name": "Di"}]}"#.utf8))
        try workspace.write("dumps/pages/page-2.json\(suffix)", first + second)
        try workspace.write("dumps/pages/page-3.json", #"{"result": []}"#)
        let report = workspace.build()
        #expect(report.messages(workspace) == ["dumps/pages/page-3.json: warning: no source reads this dump file"])
        #expect(try workspace.rows("SELECT id, name FROM user ORDER BY id").count == 4)
        #expect(
            try workspace.rows("SELECT name FROM user ORDER BY id") == [
                #"[name:"Ann"]"#, #"[name:"Bo"]"#, #"[name:"Cy"]"#, #"[name:"Di"]"#,
            ])
    }

    /// Line, column and JSON Pointer are the decompressed text's, for an error found while reading,
    /// one found once every file is read (its pointer found by reading the file again), and one
    /// in a related location.
    @Test(arguments: Compressor.allCases)
    func locatesErrorsInTheDecompressedText(_ compressor: Compressor) async throws {
        let workspace = try Workspace.withDumps()
        try workspace.write(
            "mapping.yaml",
            """
            seeder: 1
            entities:
              User:
                attributes: { id: integer, name: { type: string, required: true }, age: integer }
                relationships:
                  friend: { to: User }
            """)
        let users = """
            [
              {"id": 1, "name": "Ann", "age": 30},
              {"id": 2, "age": "old", "friend": 9},
              {"id": 1, "name": "Anne"}
            ]
            """
        // The text first, then the same text compressed: the same messages, but for the name.
        try workspace.write("dumps/users.json", users)
        let expected = [
            #"dumps/users.json:3:20: error: User 2: 'age' is "old", expected integer  [/1/age]"#,
            #"dumps/users.json:4:21: error: User 1: 'name' conflicts: "Anne" here, "Ann" at dumps/users.json:2:21"#,
            "dumps/users.json:3:37: error: User 2 references User 9 (friend), which no record provides  [/1/friend]",
            "dumps/users.json:3:3: error: User 2: 'name' is required, but no occurrence has it  [/1]",
        ]
        #expect(workspace.build(validate: true).messages(workspace) == expected)
        try FileManager.default.removeItem(atPath: workspace.path("dumps/users.json"))
        try await Self.writeCompressed(workspace, "dumps/users.json", users, compressor)
        let suffix = compressor.suffix
        #expect(
            workspace.build(validate: true).messages(workspace)
                == expected.map { $0.replacingOccurrences(of: "dumps/users.json", with: "dumps/users.json" + suffix) })
    }

    @Test func reportsCorruptDumpsAtTheFileAndReadsTheOthers() async throws {
        let workspace = try Workspace.withDumps()
        try workspace.write(
            "mapping.yaml",
            """
            seeder: 1
            entities:
              User:
                attributes: { id: integer, age: integer }
            sources:
              - { path: "*.json.gz", entity: User }
              - { path: "*.jsonl.zst", entity: User }
              - { path: "*.json", entity: User }
            """)
        var crc = try await Self.writeCompressed(workspace, "dumps/a-crc.json", #"[{"id": 1}]"#, .gzip)
        crc[crc.count - 8] ^= 1
        try workspace.write("dumps/a-crc.json.gz", crc)
        let cut = try await Self.writeCompressed(workspace, "dumps/b-cut.jsonl", "{\"id\": 2}\n{\"id\": 3}\n", .zstd)
        try workspace.write("dumps/b-cut.jsonl.zst", cut.dropLast(3))
        let garbage = try await Self.writeCompressed(workspace, "dumps/c-garbage.json", #"[{"id": 4}]"#, .gzip)
        try workspace.write("dumps/c-garbage.json.gz", garbage + Data("\n\n".utf8))
        try workspace.write("dumps/d-plain.json", #"[{"id": 5, "age": "x"}]"#)
        let report = workspace.build()
        #expect(report.outcome == .invalid)
        #expect(
            report.messages(workspace) == [
                "dumps/a-crc.json.gz: error: gzip data is corrupt (incorrect data check)",
                "dumps/c-garbage.json.gz: error: gzip data is corrupt (trailing garbage after the last member)",
                "dumps/b-cut.jsonl.zst: error: zstd data is truncated (unexpected end of file)",
                #"dumps/d-plain.json:1:19: error: User 5: 'age' is "x", expected integer  [/0/age]"#,
            ])
        #expect(!FileManager.default.fileExists(atPath: workspace.path("seed.sqlite")))
    }

    /// Bad data inside a stream most often decodes to text that is not JSON, or to other
    /// records: the corruption is still named, before the syntax error it caused, and the
    /// records decoded before the bad block count as read (the error in record 100 is reported).
    @Test(arguments: Compressor.allCases)
    func namesCorruptionThatDecodesToOtherText(_ compressor: Compressor) async throws {
        let workspace = try Workspace.withDumps()
        try workspace.write("mapping.yaml", "seeder: 1\nentities:\n  User:\n    attributes: { id: integer, name: string, age: integer }\n")
        // Text that compresses to a few hundred kilobytes, so that a byte at 30% is in a later block.
        var state: UInt64 = 7
        let records = (1...20_000).map { id -> String in
            let letters = (0..<30).map { _ -> Character in
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                return Character(UnicodeScalar(UInt8(97 + (state >> 33) % 10)))
            }
            return id == 100 ? #"{"id": 100, "name": "x", "age": "old"}"# : #"{"id": \#(id), "name": "user \#(String(letters))"}"#
        }
        var stored = try await Self.writeCompressed(workspace, "dumps/users.json", "[" + records.joined(separator: ",") + "]", compressor)
        stored[stored.count * 3 / 10] ^= 0x55
        try workspace.write("dumps/users.json" + compressor.suffix, stored)
        let messages = workspace.build(validate: true).messages(workspace)
        let name = "dumps/users.json" + compressor.suffix
        let corrupt = messages.firstIndex { $0.hasPrefix("\(name): error: \(compressor.rawValue) data is corrupt (") }
        #expect(corrupt != nil, "\(messages)")
        #expect(messages.first == #"\#(name):1:5767: error: User 100: 'age' is "old", expected integer  [/99/age]"#)
        // Anything the bad text caused comes after the corruption that explains it.
        let syntax = messages.firstIndex { $0.contains("error: unexpected") }
        if let corrupt, let syntax { #expect(corrupt < syntax) }
    }

    /// A source path without the compression suffix of the file that is there is a typo with
    /// the file named.
    @Test func suggestsTheCompressedFileASourcePathMisses() async throws {
        let workspace = try Workspace.withDumps()
        try workspace.write(
            "mapping.yaml",
            "seeder: 1\nentities:\n  User:\n    attributes: { id: integer }\nsources:\n  - { path: users.json, entity: User }\n")
        try await Self.writeCompressed(workspace, "dumps/users.json", #"[{"id": 1}]"#, .zstd)
        #expect(
            workspace.build(validate: true).messages(workspace) == [
                "mapping.yaml:6:5: error: source path 'users.json' matches no file in dumps (did you mean 'users.json.zst'?)",
                "dumps/users.json.zst: warning: no source reads this dump file",
            ])
    }

    /// Without `sources:`, a dump and its compressed copy both feed their entity by name: both
    /// are read, and a warning says so.
    @Test func warnsOfADumpBesideItsCompressedCopy() async throws {
        let workspace = try Workspace.withDumps()
        try workspace.write("mapping.yaml", "seeder: 1\nentities:\n  User:\n    attributes: { id: integer }\n")
        try await Self.writeCompressed(workspace, "dumps/users.json", #"[{"id": 1}]"#, .gzip)
        try workspace.write("dumps/users.json", #"[{"id": 1}]"#)
        let report = workspace.build(validate: true)
        #expect(
            report.messages(workspace) == [
                "dumps/users.json.gz: warning: users.json is this file's text too: both feed User, and both are read "
                    + "(keep one, or name the one to read in 'sources')"
            ])
        #expect(report.entities[0].counts.recordsRead == 2)
        // A compression seeder does not read is not passed over in silence.
        try FileManager.default.moveItem(atPath: workspace.path("dumps/users.json.gz"), toPath: workspace.path("dumps/users.json.bz2"))
        #expect(
            workspace.build(validate: true).messages(workspace) == [
                "dumps/users.json.bz2: warning: this dump is compressed in a way seeder does not read (it reads .gz and .zst)"
            ])
    }

    /// A source's glob that takes a dump and its compressed copy reads both: a warning says so;
    /// two globs, each taking one, are the mapping's own choice.
    @Test func warnsOfAGlobThatTakesADumpAndItsCopy() async throws {
        let workspace = try Workspace.withDumps()
        try workspace.write(
            "mapping.yaml",
            "seeder: 1\nentities:\n  User:\n    attributes: { id: integer }\nsources:\n  - { path: 'users.json*', entity: User }\n")
        try await Self.writeCompressed(workspace, "dumps/users.json", #"[{"id": 1}]"#, .zstd)
        try workspace.write("dumps/users.json", #"[{"id": 1}]"#)
        #expect(
            workspace.build(validate: true).messages(workspace) == [
                "dumps/users.json.zst: warning: users.json is this file's text too: 'users.json*' reads both (keep one, or name the one to read)"
            ])
    }
}
