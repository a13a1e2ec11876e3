import Foundation
import SeederTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Paths and names no file system quirk may hide (docs/commands.md, Files a command touches;
/// docs/mapping.md, Sources): an empty or over-long output name is said plainly, a legal one
/// always works, and a dump past `PATH_MAX` or with a name that is not UTF-8 is reported, by its
/// bytes, never skipped.
struct PathNamesTests {
    private static let failed = "build failed: 1 error, 0 warnings; nothing was written\n"

    /// A dumps directory with one pod and a mapping that reads every `pods.json` under it.
    private static func pods() throws -> Workspace {
        let scratch = try Workspace()
        try scratch.write("dumps/pods.json", #"[{"id": 1, "name": "a"}]"#)
        try scratch.write(
            "pods.yaml",
            "seeder: 1\nentities:\n  Pod:\n    attributes: { id: integer, name: string }\nsources:\n  - { path: \"**/*.json\", entity: Pod }\n"
        )
        return scratch
    }

    @Test func anEmptyOutputPathIsSaidToBeEmpty() async throws {
        let scratch = try Self.pods()
        let run = try await seeder(["build", "pods.yaml", "dumps", "-o", ""], in: scratch.root)
        #expect(run.status == 2)
        #expect(run.stderr == "error: the output path is empty: name a file\n" + Self.failed)
    }

    @Test func anyLegalOutputNameIsBuiltAndItsTemporaryFilesFit() async throws {
        let scratch = try Self.pods()
        let name = String(repeating: "s", count: 245) + ".sqlite"
        #expect(name.utf8.count == 252)
        let run = try await seeder(["build", "pods.yaml", "dumps", "-o", name, "--quiet"], in: scratch.root)
        #expect(run.status == 0 && run.stderr == "")
        #expect(scratch.files == ["dumps", "pods.yaml", name])
        // Built again over itself: its lock and assembly names are short, hidden ones.
        #expect(try await seeder(["build", "pods.yaml", "dumps", "-o", name, "--quiet"], in: scratch.root).status == 0)
    }

    @Test func anOutputNameLongerThanAFileNameMayBeIsRefusedByName() async throws {
        let scratch = try Self.pods()
        let name = String(repeating: "s", count: 249) + ".sqlite"
        let run = try await seeder(["build", "pods.yaml", "dumps", "-o", name], in: scratch.root)
        #expect(run.status == 2)
        #expect(
            run.stderr == "error: the output \(name) may not be written: its name is 256 bytes long, and a file name may have 255\n"
                + Self.failed)
    }

    @Test func aDumpWhoseNameIsNotUTF8IsReportedByItsBytes() async throws {
        let scratch = try Self.pods()
        let descriptor = Array("\(scratch.root)/dumps/caf".utf8 + [0xE9] + ".json".utf8 + [0]).withUnsafeBufferPointer {
            $0.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_WRONLY | O_CREAT, 0o644) }
        }
        #expect(descriptor >= 0)
        _ = "[]".withCString { write(descriptor, $0, 2) }
        close(descriptor)
        let run = try await seeder(["build", "pods.yaml", "dumps"], in: scratch.root)
        #expect(run.status == 2)
        #expect(
            run.stderr == "dumps/caf\\xE9.json: error: cannot read this file: its name is not UTF-8, and seeder names files in UTF-8\n"
                + Self.failed)
    }

    @Test func aDumpNestedPastPathMaxIsReportedNotSkipped() async throws {
        let scratch = try Self.pods()
        // Made one level at a time through directory descriptors: no path this long can be named.
        let segment = String(repeating: "d", count: 200)
        var directory = open(scratch.root + "/dumps", O_RDONLY | O_DIRECTORY)
        var relative = ""
        var first: String?
        let root = URL(fileURLWithPath: scratch.root).resolvingSymlinksInPath().path + "/dumps"
        for _ in 0..<24 {
            #expect(mkdirat(directory, segment, 0o755) == 0)
            let next = openat(directory, segment, O_RDONLY | O_DIRECTORY)
            close(directory)
            directory = next
            relative += (relative.isEmpty ? "" : "/") + segment
            if first == nil, (root + "/" + relative).utf8.count >= Int(PATH_MAX) { first = relative }
        }
        let file = openat(directory, "pods.json", O_WRONLY | O_CREAT, 0o644)
        _ = "[]".withCString { write(file, $0, 2) }
        close(file)
        close(directory)
        defer { Self.removeNested(scratch.root + "/dumps", segment: segment, depth: 24) }
        let run = try await seeder(["build", "pods.yaml", "dumps"], in: scratch.root)
        #expect(run.status == 2)
        #expect(run.stderr == "dumps/\(try #require(first)): error: cannot read this file: File name too long\n" + Self.failed)
    }

    /// Removes `depth` nested `segment` directories and the file at the bottom, through
    /// descriptors (Foundation cannot name them).
    private static func removeNested(_ top: String, segment: String, depth: Int) {
        var chain = [open(top, O_RDONLY | O_DIRECTORY)]
        for _ in 0..<depth { chain.append(openat(chain.last!, segment, O_RDONLY | O_DIRECTORY)) }
        unlinkat(chain.last!, "pods.json", 0)
        for level in stride(from: depth, to: 0, by: -1) {
            close(chain[level])
            unlinkat(chain[level - 1], segment, AT_REMOVEDIR)
        }
        close(chain[0])
    }
}
