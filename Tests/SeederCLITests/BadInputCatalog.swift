import Foundation
import SeederTestSupport
import Testing

/// One kind of bad input: how to make it, the command to run on it, and what the command must
/// answer. Each kind runs in a scratch copy of the tasklist example where a seed was already built
/// (`tasklist.sqlite`, the previous output), and besides its status and messages the catalog checks
/// that nothing was lost: every file in the scratch directory is as `prepare` left it, byte for
/// byte, and no file was added (a temporary file left behind) or removed, but for the files the
/// kind names in `writes`.
struct BadInput: Sendable, CustomTestStringConvertible {
    /// What standard error must be.
    enum Stderr: Sendable {
        /// Exactly this text.
        case exact(String)
        /// These lines, in this order, among others.
        case lines([String])
    }

    /// The kind, as the test list shows it.
    var name: String
    /// Makes the bad input in the scratch directory (its path is the argument).
    var prepare: @Sendable (String) async throws -> Void = { _ in }
    /// The command's arguments, run in the scratch directory.
    var arguments: [String]
    /// A command line the binary is run under, its path and arguments appended
    /// (`["setpriv", "--reuid=nobody", ...]`, a shell that sets `ulimit -f` first).
    var launcher: [String] = []
    /// A file standard output goes to instead of a pipe (`/dev/full`).
    var stdoutFile: String?
    /// The exit status.
    var status: Int32
    var stderr: Stderr
    /// Paths, relative to the scratch directory, that the command may create or change.
    var writes: Set<String> = []
    /// Undoes what `prepare` did that the scratch directory's removal cannot (a mount).
    var cleanUp: @Sendable (String) async -> Void = { _ in }

    var testDescription: String { name }
}

/// The catalog: every kind of bad input the command must refuse with a clear, located error,
/// the exit status of docs/commands.md, and nothing lost. Kinds that need root (a full disk on a
/// small tmpfs, a read-only mount, another user) are in `rootKinds`, reported as skipped where the
/// tests do not run as root.
struct BadInputCatalog {
    /// Kinds that any user can make.
    static let kinds: [BadInput] =
        [
            BadInput(
                name: "a mapping that does not exist",
                arguments: ["build", "missing.yaml", "dumps"],
                status: 2,
                stderr: .exact(
                    "missing.yaml: error: cannot read the mapping file: No such file or directory\nbuild failed: 1 error, 0 warnings; nothing was written\n"
                )
            )
        ] + fileKinds + diagnosticKinds + compressedKinds

    /// Kinds that need root to make.
    static let rootKinds: [BadInput] = fileRootKinds

    @Test(arguments: kinds)
    func refuses(_ kind: BadInput) async throws {
        try await Self.check(kind)
    }

    @Test(.enabled(if: getuid() == 0, "making these inputs needs root"), arguments: rootKinds)
    func refusesAsRoot(_ kind: BadInput) async throws {
        try await Self.check(kind)
    }

    /// Runs one kind and checks its status, its messages, and that nothing was lost.
    static func check(_ kind: BadInput, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let scratch = try CommandTests.tasklist()
        let previous = try await seeder(["build", "tasklist.yaml", "dumps", "--quiet"], in: scratch.root)
        try #require(previous.status == 0, "the previous seed was not built: \(previous.stderr)")
        try await withCleanUp {
            try await kind.prepare(scratch.root)
            let before = try DirectorySnapshot(scratch.root)
            let run = try await seederWithin(kind, in: scratch.root)
            #expect(run.status == kind.status, "exit status of '\(kind.name)'; stderr: \(run.stderr)", sourceLocation: sourceLocation)
            switch kind.stderr {
            case let .exact(text):
                #expect(run.stderr == text, sourceLocation: sourceLocation)
            case let .lines(lines):
                var rest = run.stderr.split(separator: "\n", omittingEmptySubsequences: false)[...]
                for line in lines {
                    guard let found = rest.firstIndex(where: { $0 == line }) else {
                        Issue.record("missing line '\(line)' (in order) in stderr:\n\(run.stderr)", sourceLocation: sourceLocation)
                        break
                    }
                    rest = rest[(found + 1)...]
                }
            }
            let after = try DirectorySnapshot(scratch.root)
            for difference in before.differences(from: after) where !kind.writes.contains(difference) {
                Issue.record("'\(kind.name)' changed, added or removed \(difference)", sourceLocation: sourceLocation)
            }
        } cleanUp: {
            await kind.cleanUp(scratch.root)
        }
    }

    /// Runs the binary for `kind`, under its launcher, killed after 60 s: a hang is a failure,
    /// never a test that never ends.
    static func seederWithin(_ kind: BadInput, in directory: String) async throws -> Run {
        let binary = try seederBinary()
        return try await program(
            kind.launcher.isEmpty ? binary : "/usr/bin/env",
            kind.launcher.isEmpty ? kind.arguments : kind.launcher + [binary] + kind.arguments,
            in: directory,
            standardOutput: try kind.stdoutFile.map { .file(try FileHandle(forWritingTo: URL(fileURLWithPath: $0))) } ?? .captured,
            killAfter: 60
        )
    }
}

/// Every entry below a directory: its type and, for a regular file, its bytes.
struct DirectorySnapshot {
    enum Entry: Equatable {
        case file(Data), unreadableFile, directory, link(String), special(mode: UInt32, device: UInt64)
    }

    var entries: [String: Entry] = [:]

    init(_ directory: String) throws {
        let manager = FileManager.default
        guard let enumerator = manager.enumerator(atPath: directory) else { return }
        while let relative = enumerator.nextObject() as? String {
            let path = directory + "/" + relative
            var status = stat()
            guard lstat(path, &status) == 0 else { continue }
            switch status.st_mode & S_IFMT {
            case S_IFREG: entries[relative] = manager.contents(atPath: path).map(Entry.file) ?? .unreadableFile
            case S_IFDIR: entries[relative] = .directory
            case S_IFLNK: entries[relative] = .link((try? manager.destinationOfSymbolicLink(atPath: path)) ?? "?")
            default: entries[relative] = .special(mode: UInt32(status.st_mode & S_IFMT), device: UInt64(status.st_rdev))
            }
        }
    }

    /// The paths whose entry differs, was added, or was removed.
    func differences(from other: DirectorySnapshot) -> [String] {
        Set(entries.keys).union(other.entries.keys).filter { entries[$0] != other.entries[$0] }.sorted()
    }
}
