import Foundation
import SeederTestSupport
import Testing

/// What a build may be made to hold or read (docs/mapping.md, Compressed dumps and Fitting the
/// app's own schema): a compressed dump past its expansion limit, and a schema file past its
/// size, are errors at the file, exit 2, before they cost the memory or the time.
struct MemoryBoundsTests {
    private static let failed = "build failed: 1 error, 0 warnings; nothing was written\n"

    @Test(arguments: Compressor.allCases)
    func aCompressedDumpThatExpandsPastItsLimitIsRefusedAtTheFile(_ compressor: Compressor) throws {
        let scratch = try Workspace(directories: ["dumps"])
        try scratch.write("pods.yaml", "seeder: 1\nentities:\n  Pod:\n    attributes: { id: integer, name: string }\n")
        // 24 MiB of text in a few kilobytes: one record whose name is the whole of it.
        let text = #"[{"id": 1, "name": ""# + String(repeating: "x", count: 24 << 20) + #""}]"#
        try scratch.write("dumps/pods.json" + compressor.suffix, try compressor.compress(Data(text.utf8)))
        let run = try seeder(["build", "pods.yaml", "dumps"], in: scratch.root)
        #expect(run.status == 2)
        #expect(
            run.stderr
                == "dumps/pods.json\(compressor.suffix): error: cannot read this dump file: its \(compressor) text passes 16 MiB and 100 "
                + "times the compressed bytes that hold it, the most a compressed dump may expand\n" + Self.failed)
    }

    @Test func aTemplateLargerThanTheLimitIsRefusedBeforeItIsRead() throws {
        let scratch = try Workspace(directories: ["dumps"])
        try scratch.write("dumps/pods.json", #"[{"id": 1, "name": "a"}]"#)
        try scratch.write(
            "pods.yaml", "seeder: 1\nschema: { template: app.sqlite }\nentities:\n  Pod:\n    attributes: { id: integer, name: string }\n")
        // Sparse: 65 MiB that take no disk, and would take the memory if read.
        try scratch.write("app.sqlite", "")
        #expect(truncate(scratch.path("app.sqlite"), 65 << 20) == 0)
        let run = try seeder(["build", "pods.yaml", "dumps"], in: scratch.root)
        #expect(run.status == 2)
        #expect(
            run.stderr
                == "pods.yaml:2:21: error: cannot read the template 'app.sqlite': it is 68157440 bytes, more than the 64 MiB seeder "
                + "reads of such a file\nschema: { template: app.sqlite }\n                    ^\n" + Self.failed)
    }
}
