import Foundation
import SeederTestSupport
import Testing

/// What a build may be made to hold or read (docs/mapping.md, Compressed dumps and Fitting the
/// app's own schema): a compressed dump past its expansion limit, and a schema file past its
/// size, are errors at the file, exit 2, before they cost the memory or the time.
struct MemoryBoundsTests {
    private static let failed = "build failed: 1 error, 0 warnings; nothing was written\n"

    @Test(arguments: Compressor.allCases)
    func aCompressedDumpThatExpandsPastItsLimitIsRefusedAtTheFile(_ compressor: Compressor) async throws {
        let scratch = try Workspace(directories: ["dumps"])
        try scratch.write("pods.yaml", "seeder: 1\nentities:\n  Pod:\n    attributes: { id: integer, name: string }\n")
        // 24 MiB of text in a few kilobytes: one record whose name is the whole of it.
        let text = #"[{"id": 1, "name": ""# + String(repeating: "x", count: 24 << 20) + #""}]"#
        try scratch.write("dumps/pods.json" + compressor.suffix, try await compressor.compress(Data(text.utf8)))
        let run = try await seeder(["build", "pods.yaml", "dumps"], in: scratch.root)
        #expect(run.status == 2)
        #expect(
            run.stderr
                == "dumps/pods.json\(compressor.suffix): error: cannot read this dump file: its \(compressor) text passes 16 MiB and 100 "
                + "times the compressed bytes that hold it, the most a compressed dump may expand\n" + Self.failed)
    }

    @Test func aTemplateLargerThanTheLimitIsRefusedBeforeItIsRead() async throws {
        let scratch = try Workspace(directories: ["dumps"])
        try scratch.write("dumps/pods.json", #"[{"id": 1, "name": "a"}]"#)
        try scratch.write(
            "pods.yaml", "seeder: 1\nschema: { template: app.sqlite }\nentities:\n  Pod:\n    attributes: { id: integer, name: string }\n")
        // Sparse: 65 MiB that take no disk, and would take the memory if read.
        try scratch.write("app.sqlite", "")
        #expect(truncate(scratch.path("app.sqlite"), 65 << 20) == 0)
        let run = try await seeder(["build", "pods.yaml", "dumps"], in: scratch.root)
        #expect(run.status == 2)
        #expect(
            run.stderr
                == "pods.yaml:2:21: error: cannot read the template 'app.sqlite': it is 68157440 bytes, more than the 64 MiB seeder "
                + "reads of such a file\nschema: { template: app.sqlite }\n                    ^\n" + Self.failed)
    }

    /// A file whose size says 0 but that reads on and on (`/proc/self/pagemap`) is refused once
    /// the read passes the limit, as a template, as Room's exported schema, and as the mapping.
    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/proc/self/pagemap"), "Linux's /proc"), arguments: ["template", "room"])
    func aSchemaFileWhoseSizeSaysZeroIsRefusedPastTheLimit(_ kind: String) async throws {
        let scratch = try Workspace(directories: ["dumps"])
        try scratch.write("dumps/pods.json", #"[{"id": 1, "name": "a"}]"#)
        try scratch.write(
            "pods.yaml",
            "seeder: 1\nschema: { \(kind): /proc/self/pagemap }\nentities:\n  Pod:\n    attributes: { id: integer, name: string }\n")
        let run = try await seeder(["build", "pods.yaml", "dumps"], in: scratch.root)
        let what = kind == "room" ? "Room's exported schema" : "the template"
        #expect(run.status == 2)
        #expect(
            run.stderr.hasPrefix(
                "pods.yaml:2:\(kind == "room" ? 17 : 21): error: cannot read \(what) '/proc/self/pagemap': it is more than 67108864 bytes, "
                    + "more than the 64 MiB seeder reads of such a file\n"),
            "\(run.stderr)")
    }

    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/proc/self/pagemap"), "Linux's /proc"))
    func aMappingWhoseSizeSaysZeroIsRefusedPastTheLimit() async throws {
        let scratch = try Workspace(directories: ["dumps"])
        let run = try await seeder(["build", "/proc/self/pagemap", "dumps"], in: scratch.root)
        #expect(run.status == 2)
        #expect(
            run.stderr
                == "/proc/self/pagemap: error: cannot read the mapping file: it is more than 67108864 bytes, more than the 64 MiB "
                + "seeder reads of such a file\n" + Self.failed)
    }

    /// One record of 24 MB, an object of strings and numbers (the shape of bench/README.md,
    /// Memory), costs the build less than 4.5 times its size beyond a build of a small one.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/time"), "GNU time(1) measures the peak"))
    func oneLargeRecordCostsAFewTimesItsSize() async throws {
        let scratch = try Workspace(directories: ["large", "small"])
        let mapping =
            "seeder: 1\nentities:\n  Thing:\n    attributes: { id: integer, extra: json }\nsources:\n  - { path: things.json, entity: Thing }\n"
        try scratch.write("things.yaml", mapping)
        var members: [String] = []
        var size = 0
        while size < 24_000_000 {
            let member =
                members.count % 2 == 0
                ? #""key\#(members.count)": "\#(String(repeating: "x", count: 40))""# : #""key\#(members.count)": \#(members.count * 7919)"#
            members.append(member)
            size += member.utf8.count + 1
        }
        try scratch.write("large/things.json", #"[{"id": 1, "extra": {"# + members.joined(separator: ",") + "}}]")
        try scratch.write("small/things.json", #"[{"id": 1, "extra": {"key": "value"}}]"#)
        let small = try await Self.peakMemory([
            "build", scratch.path("things.yaml"), scratch.path("small"), "-o", scratch.path("small.sqlite"),
        ])
        let large = try await Self.peakMemory([
            "build", scratch.path("things.yaml"), scratch.path("large"), "-o", scratch.path("large.sqlite"),
        ])
        #expect(small.status == 0 && large.status == 0)
        #expect(large.bytes - small.bytes < 9 * size / 2, "\(large.bytes - small.bytes) bytes for a record of \(size)")
    }

    /// The status and the peak resident memory of one run of seeder, as GNU time(1) reports it
    /// (`%M`, kilobytes). Through time(1), a small process: a child's peak counts the memory of
    /// the process that spawned it (Linux carries it across `exec`), and the tests' runner is large.
    private static func peakMemory(_ arguments: [String]) async throws -> (status: Int32, bytes: Int) {
        let scratch = try Workspace()
        let run = try await program("/usr/bin/time", ["-f", "%M", "-o", scratch.path("peak"), try seederBinary()] + arguments)
        let kilobytes = try String(contentsOfFile: scratch.path("peak"), encoding: .utf8).split(separator: "\n").last.flatMap { Int($0) }
        return (run.status, try #require(kilobytes) * 1024)
    }
}
