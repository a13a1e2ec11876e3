import Foundation
import GRDB
import SeederTestSupport
import Testing

/// What a command may touch (docs/commands.md, Files a command touches), beyond the refusals of
/// the bad-input catalog: `--force`, two builds of one output at once, a stale lock, seeds read
/// without a trace, and a reader that went away.
struct FileSafetyTests {
    @Test func forceReplacesAnOutputThatIsNotASeed() async throws {
        let scratch = try CommandTests.tasklist()
        try "my notes\n".write(toFile: scratch.root + "/notes.txt", atomically: false, encoding: .utf8)
        let run = try await seeder(["build", "tasklist.yaml", "dumps", "-o", "notes.txt", "--force", "--quiet"], in: scratch.root)
        #expect(run.status == 0 && run.stderr == "")
        let tables = try await DatabaseQueue(path: scratch.root + "/notes.txt").read {
            try String.fetchAll($0, sql: "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
        }
        #expect(tables == ["project", "seed_metadata", "seed_source", "task", "user"])
        // An empty file holds nothing to lose (what `mktemp` makes): no --force needed.
        _ = FileManager.default.createFile(atPath: scratch.root + "/empty.sqlite", contents: Data())
        #expect(try await seeder(["build", "tasklist.yaml", "dumps", "-o", "empty.sqlite", "--quiet"], in: scratch.root).status == 0)
    }

    @Test func aSecondBuildOfTheSameOutputFailsAtOnceAndTheFirstFinishes() async throws {
        let scratch = try Workspace()
        try FileManager.default.createDirectory(atPath: scratch.root + "/dumps", withIntermediateDirectories: true)
        try "seeder: 1\nentities:\n  Pod:\n    attributes: { id: integer, name: string }\n"
            .write(toFile: scratch.root + "/pods.yaml", atomically: true, encoding: .utf8)
        // Large enough that the first build is still running when the second starts.
        var text = "["
        for id in 1...400_000 { text += "{\"id\":\(id),\"name\":\"pod \(id)\"}," }
        text += "{\"id\":0}]"
        try text.write(toFile: scratch.root + "/dumps/pods.json", atomically: true, encoding: .utf8)
        let first = try RunningProgram(
            try seederBinary(), ["build", "pods.yaml", "dumps", "--quiet"], in: scratch.root, environment: programEnvironment())
        // Its working database is made once it holds the output.
        let work = scratch.root + "/.pods.sqlite.seeder-work"
        let deadline = Date().addingTimeInterval(20)
        // Polled on this thread: the file must be seen within milliseconds, which an await that
        // resumes on a busy pool would miss.
        while !FileManager.default.fileExists(atPath: work), Date() < deadline { usleep(5_000) }
        // Started now, not in its turn among the suite's programs (`runProgram`): the first must
        // still be running.
        let second = try await RunningProgram(
            try seederBinary(), ["build", "pods.yaml", "dumps", "--quiet"], in: scratch.root, environment: programEnvironment()
        ).finished()
        #expect(second.status == 2)
        #expect(
            second.stderr
                == "error: another build is writing pods.sqlite; try again when it is done\nbuild failed: 1 error, 0 warnings; nothing was written\n"
        )
        let firstRun = await first.finished()
        #expect(firstRun.status == 0, "\(firstRun.stderr)")
        #expect(firstRun.ended > second.ended, "the first build ended before the second was refused: the test proves nothing")
        let (count, integrity) = try await DatabaseQueue(path: scratch.root + "/pods.sqlite").read { db in
            (try Int.fetchOne(db, sql: "SELECT count(*) FROM pod"), try String.fetchAll(db, sql: "PRAGMA integrity_check"))
        }
        #expect(count == 400_001 && integrity == ["ok"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.root).sorted() == ["dumps", "pods.sqlite", "pods.yaml"])
    }

    @Test func aLockFileThatAKilledBuildLeftHoldsNothingAndGoes() async throws {
        let scratch = try CommandTests.tasklist()
        try "".write(toFile: scratch.root + "/.tasklist.sqlite.seeder-lock", atomically: false, encoding: .utf8)
        let run = try await seeder(["build", "tasklist.yaml", "dumps", "--quiet"], in: scratch.root)
        #expect(run.status == 0 && run.stderr == "")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: scratch.root).sorted() == ["dumps", "tasklist.sqlite", "tasklist.yaml"])
    }

    @Test func inspectAndDiffLeaveNothingBesideAWALModeSeed() async throws {
        let scratch = try CommandTests.tasklist()
        #expect(try await seeder(["build", "tasklist.yaml", "dumps", "--quiet", "-o", "wal.sqlite"], in: scratch.root).status == 0)
        try FileManager.default.copyItem(atPath: scratch.root + "/wal.sqlite", toPath: scratch.root + "/plain.sqlite")
        let queue = try DatabaseQueue(path: scratch.root + "/wal.sqlite")
        try await queue.writeWithoutTransaction { try $0.execute(sql: "PRAGMA journal_mode = WAL") }
        try queue.close()
        let before = try DirectorySnapshot(scratch.root)
        let inspect = try await seeder(["inspect", "wal.sqlite"], in: scratch.root)
        #expect(inspect.status == 0 && inspect.stderr == "")
        #expect(inspect.stdout.contains("  task        7  Task\n"))
        let diff = try await seeder(["diff", "plain.sqlite", "wal.sqlite"], in: scratch.root)
        #expect(diff.status == 0 && diff.stdout.hasSuffix("the seeds hold the same records\n"))
        #expect(before.differences(from: try DirectorySnapshot(scratch.root)) == [])
    }

    @Test func readsTheTransactionsAWALFileStillHolds() async throws {
        let scratch = try CommandTests.tasklist()
        #expect(try await seeder(["build", "tasklist.yaml", "dumps", "--quiet"], in: scratch.root).status == 0)
        // A writer that is still open: its rows are in the -wal file, not yet in the database.
        let queue = try DatabaseQueue(path: scratch.root + "/tasklist.sqlite")
        try await queue.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA journal_mode = WAL")
            try db.execute(sql: "PRAGMA wal_autocheckpoint = 0")
            try db.execute(sql: "INSERT INTO user (id, name) VALUES (99, 'Late')")
        }
        let inspect = try await seeder(["inspect", "tasklist.sqlite"], in: scratch.root)
        #expect(inspect.status == 0)
        #expect(inspect.stdout.contains("  user        4  User\n"), "\(inspect.stdout)")
        try queue.close()
    }

    @Test(.enabled(if: getuid() == 0, "a read-only directory binds only another user")) func readsAWALModeSeedInADirectoryItCannotWrite()
        async throws
    {
        let scratch = try CommandTests.tasklist()
        try FileManager.default.createDirectory(atPath: scratch.root + "/ro", withIntermediateDirectories: false)
        #expect(try await seeder(["build", "tasklist.yaml", "dumps", "--quiet", "-o", "ro/seed.sqlite"], in: scratch.root).status == 0)
        let queue = try DatabaseQueue(path: scratch.root + "/ro/seed.sqlite")
        try await queue.writeWithoutTransaction { try $0.execute(sql: "PRAGMA journal_mode = WAL") }
        try queue.close()
        try await BadInputCatalog.shell("chmod 555 ro", in: scratch.root)
        let before = try DirectorySnapshot(scratch.root)
        for arguments in [["inspect", "ro/seed.sqlite"], ["diff", "ro/seed.sqlite", "ro/seed.sqlite"]] {
            let kind = BadInput(name: arguments[0], arguments: arguments, launcher: BadInputCatalog.nobody, status: 0, stderr: .exact(""))
            let run = try await BadInputCatalog.seederWithin(kind, in: scratch.root)
            #expect(run.status == 0 && run.stderr == "", "\(arguments[0]): \(run.stderr)")
        }
        #expect(before.differences(from: try DirectorySnapshot(scratch.root)) == [])
    }

    @Test func aReaderThatWentAwayIsStatusTwoNotADeathBySIGPIPE() async throws {
        let scratch = try CommandTests.tasklist()
        #expect(try await seeder(["build", "tasklist.yaml", "dumps", "--quiet"], in: scratch.root).status == 0)
        // No reader at all: the first write fails with EPIPE.
        let run = try await runProgram(try seederBinary(), ["inspect", "tasklist.sqlite"], in: scratch.root, standardOutput: .unread)
        #expect(!run.signalled)
        #expect(run.status == 2)
        #expect(run.stderr == "error: cannot write standard output: Broken pipe\n")
    }
}
