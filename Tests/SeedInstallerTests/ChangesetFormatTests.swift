import CSQLite
import Foundation
import GRDB
import SeederStore
import SeederTestSupport
import Testing

@testable import SeedInstaller

/// `ChangesetFormat`: SQLite 3.40 never returns from reading a table header cut short, so the
/// installer checks a file's whole format before SQLite sees it
/// (docs/guides/updating-an-installed-seed.md, What it does on each launch).
///
/// Every call that could spin (the check, SQLite's reading, the installer) runs under
/// `returning(within:)`, on a thread of its own, not under a suite time limit: a time limit
/// measures the wait for a thread of the cooperative pool as well as the work, and fails a test
/// that never ran.
struct ChangesetFormatTests {
    /// A call that did not return in time: it spins, on a thread of its own, until the tests end.
    struct Spun: Error, CustomStringConvertible {
        var seconds: Double
        var description: String { "did not return within \(Int(seconds)) s" }
    }

    /// What `body` returns, run on a thread of its own and awaited for at most `seconds` of its
    /// own time, no thread of the pool held meanwhile; `Spun` if it takes longer.
    static func returning<T: Sendable>(within seconds: Double = 60, _ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            let outcome = Outcome(continuation)
            let timeout = DispatchWorkItem { outcome.finish(.failure(Spun(seconds: seconds))) }
            outcome.timeout = timeout
            Thread { outcome.finish(Result { try body() }) }.start()
            DispatchQueue.global().asyncAfter(deadline: .now() + seconds, execute: timeout)
        }
    }

    /// The awaiting test, resumed once: by the thread's result or by the timeout, whichever is
    /// first.
    private final class Outcome<T: Sendable>: @unchecked Sendable {
        private let lock = NSLock()
        private var continuation: CheckedContinuation<T, any Error>?
        var timeout: DispatchWorkItem?

        init(_ continuation: CheckedContinuation<T, any Error>) { self.continuation = continuation }

        func finish(_ result: Result<T, any Error>) {
            let waiting = lock.withLock {
                defer { (continuation, timeout) = (nil, nil) }
                timeout?.cancel()
                return continuation
            }
            waiting?.resume(with: result)
        }
    }

    static func check(_ bytes: Data, in workspace: Workspace) async throws -> ChangesetFormat.Malformed? {
        let path = workspace.path("checked.changeset")
        try bytes.write(to: URL(fileURLWithPath: path))
        return try await returning { () throws -> ChangesetFormat.Malformed? in
            guard let file = fopen(path, "rb") else { throw CocoaError(.fileNoSuchFile) }
            defer { fclose(file) }
            do throws(ChangesetFormat.Malformed) {
                try ChangesetFormat.check(file)
                return nil
            } catch {
                return error
            }
        }
    }

    /// SQLite reads `bytes` to its end: the number of changes, or `nil` for an error.
    static func sqliteCount(_ bytes: Data) async throws -> Int? {
        try await returning { unwatchedSQLiteCount(bytes) }
    }

    private static func unwatchedSQLiteCount(_ bytes: Data) -> Int? {
        bytes.withUnsafeBytes { buffer -> Int? in
            var iterator: OpaquePointer?
            guard sqlite3changeset_start(&iterator, Int32(buffer.count), UnsafeMutableRawPointer(mutating: buffer.baseAddress)) == SQLITE_OK
            else { return nil }
            defer { sqlite3changeset_finalize(iterator) }
            var count = 0
            while true {
                switch sqlite3changeset_next(iterator) {
                case SQLITE_ROW: count += 1
                case SQLITE_DONE: return count
                default: return nil
                }
            }
        }
    }

    /// Every prefix of a real changeset is either refused or one SQLite reads to its end (a cut
    /// between two changes is a shorter changeset); the whole one passes.
    @Test func everyPrefixIsRefusedOrReadToItsEnd() async throws {
        let fixture = try SeedFixture()
        let changeset = try SeedFixture.bytes(fixture.changeset(from: fixture.seed(edition: 1), to: fixture.seed(edition: 2)))
        #expect(try await Self.check(changeset, in: fixture.workspace) == nil)
        let whole = try #require(try await Self.sqliteCount(changeset))
        var passed = 0
        for length in 0..<changeset.count {
            let prefix = changeset.prefix(length)
            guard try await Self.check(prefix, in: fixture.workspace) == nil else { continue }
            passed += 1
            let count = try #require(
                try await Self.sqliteCount(prefix), "a prefix of \(length) bytes passed the check but SQLite cannot read it")
            #expect(count < whole)
        }
        // The empty prefix, and those cut between two changes or after a table's header.
        #expect(passed > 1 && passed < changeset.count / 4)
    }

    /// A changeset cut between two changes is well formed, but lacks the pin it ends with: the
    /// installer skips it and replaces the copy, never patching it with part of the rows.
    /// With `allKeysChange`, the new seed has another mapping and seeder too, so the changeset's
    /// first changes already name every identity key: only its end tells it whole.
    @Test(arguments: [false, true])
    func aChangesetCutBetweenTwoChangesIsNotApplied(allKeysChange: Bool) async throws {
        let fixture = try SeedFixture()
        let (old, new) = (try fixture.seed(edition: 1), try fixture.seed(edition: 2))
        if allKeysChange {
            let queue = try DatabaseQueue(path: new)
            try await queue.write { db in
                try db.execute(sql: "UPDATE seed_metadata SET value = value || '-next' WHERE key IN ('mapping_sha256', 'seeder_version')")
            }
            try queue.close()
        }
        let changeset = try SeedFixture.bytes(fixture.changeset(from: old, to: new))
        let copy = fixture.workspace.path("copy.sqlite"), cut = fixture.workspace.path("cut.changeset")
        var cuts = 0
        for length in 1..<changeset.count {
            guard try await Self.check(changeset.prefix(length), in: fixture.workspace) == nil else { continue }
            cuts += 1
            try changeset.prefix(length).write(to: URL(fileURLWithPath: cut))
            try SeedFixture.bytes(old).write(to: URL(fileURLWithPath: copy))
            let outcome = try await Self.returning { try SeedInstaller(seed: new, workingCopy: copy, changesets: [cut]).install() }
            guard case let .replaced(skipped) = outcome, skipped.count == 1 else {
                Issue.record("cut at \(length) of \(changeset.count) bytes: \(outcome)")
                continue
            }
        }
        #expect(cuts > 3)
    }

    /// A table whose primary key has two columns (a join table): SQLite numbers the key's columns
    /// in its header (1, 2), and the changeset is whole.
    @Test func takesATableWithATwoColumnKey() async throws {
        let workspace = try Workspace()
        for name in ["old.db", "new.db"] {
            let queue = try DatabaseQueue(path: workspace.path(name))
            try await queue.write { db in
                try db.execute(
                    sql: "CREATE TABLE link(a INTEGER, b INTEGER, v TEXT, PRIMARY KEY (b, a)); INSERT INTO link VALUES (1, 2, 'x')")
                if name == "new.db" { try db.execute(sql: "INSERT INTO link VALUES (3, 4, 'y'); UPDATE link SET v = 'z' WHERE a = 1") }
            }
            try queue.close()
        }
        _ = try SeedChangeset.write(old: workspace.path("old.db"), new: workspace.path("new.db"), to: workspace.path("c"))
        let bytes = try SeedFixture.bytes(workspace.path("c"))
        #expect(try await Self.check(bytes, in: workspace) == nil)
        #expect(try await Self.sqliteCount(bytes) == 2)
    }

    /// Random damage to a real changeset (bytes flipped, cut, dropped, inserted): whatever the
    /// check passes, SQLite reads to its end, change by change; most damage is refused.
    @Test func damagedChangesetsAreRefusedOrReadToTheirEnd() async throws {
        let fixture = try SeedFixture()
        let changeset = try SeedFixture.bytes(fixture.changeset(from: fixture.seed(edition: 1), to: fixture.seed(edition: 2)))
        // Seeded: a damage that fails the test is the same on the next run.
        var generator = SplitMix64(seed: 0xC4A9_6E5E)
        var refused = 0
        for _ in 0..<1500 {
            var damaged = Array(changeset)
            for _ in 0..<Int.random(in: 1...3, using: &generator) {
                let at = Int.random(in: 0..<max(1, damaged.count), using: &generator)
                switch Int.random(in: 0..<4, using: &generator) {
                case 0 where !damaged.isEmpty: damaged[at] ^= UInt8(1 << Int.random(in: 0..<8, using: &generator))
                case 1: damaged = Array(damaged.prefix(at))
                case 2 where !damaged.isEmpty: damaged.remove(at: at)
                default: damaged.insert(UInt8.random(in: 0...255, using: &generator), at: min(at, damaged.count))
                }
            }
            guard try await Self.check(Data(damaged), in: fixture.workspace) == nil else {
                refused += 1
                continue
            }
            // Returns, with its changes or SQLite's error: a value SQLite rejects (a text that is
            // not UTF-8, say) is its to report; never spinning is the check's.
            _ = try await Self.sqliteCount(Data(damaged))
        }
        #expect(refused > 500)
    }

    /// Files SQLite 3.40 would spin on forever: a table header cut short, text that begins with
    /// `T` or `P`.
    @Test(arguments: ["T", "This folder holds the release changesets.", "Patch notes", "T\u{02}\u{01}", "T\u{02}\u{01}\u{00}book"])
    func refusesWhatSQLiteWouldSpinOn(_ text: String) async throws {
        let fixture = try SeedFixture()
        let malformed = try #require(try await Self.check(Data(text.utf8), in: fixture.workspace))
        #expect(malformed.offset == 0)

        // In a bundle, before the changeset that leads: skipped, and the patch goes on.
        let (old, new) = (try fixture.seed(edition: 1), try fixture.seed(edition: 2))
        let good = try fixture.changeset(from: old, to: new)
        try fixture.workspace.write("bad.changeset", text)
        let copy = fixture.workspace.path("copy.sqlite")
        #expect(try SeedInstaller(seed: old, workingCopy: copy).install() == .installed)
        let bad = fixture.workspace.path("bad.changeset")
        let outcome = try await Self.returning { try SeedInstaller(seed: new, workingCopy: copy, changesets: [bad, good]).install() }
        guard case let .patched(report) = outcome, case let .unreadable(reason) = report.skipped.first?.reason else {
            Issue.record("\(outcome)")
            return
        }
        #expect(reason.hasPrefix("not a changeset: "))
    }
}
