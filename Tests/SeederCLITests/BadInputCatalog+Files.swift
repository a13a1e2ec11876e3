import Foundation
import GRDB
import SeederTestSupport
import Testing

/// The catalog's kinds about files (docs/commands.md, Files a command touches): what a command
/// may not write or read, and I/O that fails. Each names the failure it pins; the scratch
/// directory is the tasklist example with `tasklist.sqlite`, a seed, already built.
extension BadInputCatalog {
    static let failed = "build failed: 1 error, 0 warnings; nothing was written\n"

    static let fileKinds: [BadInput] = [
        // Inputs that cannot be read.
        BadInput(
            name: "a dumps directory that does not exist",
            arguments: ["build", "tasklist.yaml", "nowhere"],
            status: 2,
            stderr: .exact("nowhere: error: cannot read the dumps directory: No such file or directory\n" + failed)
        ),
        BadInput(
            name: "a dumps path that is a regular file",
            arguments: ["build", "tasklist.yaml", "tasklist.yaml"],
            status: 2,
            stderr: .exact("tasklist.yaml: error: cannot read the dumps directory: Not a directory\n" + failed)
        ),
        BadInput(
            name: "a dump file that is a FIFO",
            prepare: { try replaceWithFIFO($0 + "/dumps/users.json") },
            arguments: ["build", "tasklist.yaml", "dumps"],
            status: 2,
            stderr: .exact("dumps/users.json: error: cannot read this dump file: it is a FIFO, not a regular file\n" + failed)
        ),
        BadInput(
            name: "a mapping that is a FIFO",
            prepare: { try replaceWithFIFO($0 + "/tasklist.yaml") },
            arguments: ["build", "tasklist.yaml", "dumps"],
            status: 2,
            stderr: .exact("tasklist.yaml: error: cannot read the mapping file: it is a FIFO, not a regular file\n" + failed)
        ),
        BadInput(
            name: "a seed to diff that is a FIFO",
            prepare: { try replaceWithFIFO($0 + "/old.sqlite") },
            arguments: ["diff", "old.sqlite", "tasklist.sqlite"],
            status: 2,
            stderr: .exact("old.sqlite: error: cannot read this file: it is a FIFO, not a regular file\n")
        ),

        // An output that is no regular file.
        BadInput(
            name: "an output that is a FIFO",
            prepare: { try replaceWithFIFO($0 + "/out.sqlite") },
            arguments: ["build", "tasklist.yaml", "dumps", "-o", "out.sqlite"],
            status: 2,
            stderr: .exact("error: the output out.sqlite may not be written: it is a FIFO, not a regular file\n" + failed)
        ),
        BadInput(
            name: "an output that is a link to /dev/null",
            prepare: { try FileManager.default.createSymbolicLink(atPath: $0 + "/out.sqlite", withDestinationPath: "/dev/null") },
            arguments: ["build", "tasklist.yaml", "dumps", "-o", "out.sqlite"],
            status: 2,
            stderr: .exact(
                "error: the output out.sqlite may not be written: it is a link to a character device, not a regular file\n" + failed)
        ),
        BadInput(
            name: "an output that is a directory",
            prepare: { try FileManager.default.createDirectory(atPath: $0 + "/out.sqlite", withIntermediateDirectories: false) },
            arguments: ["build", "tasklist.yaml", "dumps", "-o", "out.sqlite"],
            status: 2,
            stderr: .exact("error: the output out.sqlite may not be written: it is a directory, not a regular file\n" + failed)
        ),
        BadInput(
            name: "a lock file that is a link",
            prepare: {
                try FileManager.default.createSymbolicLink(
                    atPath: $0 + "/.tasklist.sqlite.seeder-lock", withDestinationPath: "tasklist.yaml")
            },
            arguments: ["build", "tasklist.yaml", "dumps"],
            status: 2,
            stderr: .exact("error: cannot create .tasklist.sqlite.seeder-lock: Too many levels of symbolic links\n" + failed)
        ),
        BadInput(
            name: "an output in a directory that does not exist",
            arguments: ["build", "tasklist.yaml", "dumps", "-o", "nowhere/out.sqlite"],
            status: 2,
            stderr: .exact("error: cannot create nowhere/out.sqlite: No such file or directory\n" + failed)
        ),

        // An output that is not a seed, or is an input.
        BadInput(
            name: "an output that is a text file",
            prepare: { try "my notes\n".write(toFile: $0 + "/notes.txt", atomically: false, encoding: .utf8) },
            arguments: ["build", "tasklist.yaml", "dumps", "-o", "notes.txt"],
            status: 2,
            stderr: .exact(
                "error: the output notes.txt exists and is not a seed: it is not an SQLite database; --force replaces it\n" + failed)
        ),
        BadInput(
            name: "an output that is another app's database, in WAL mode",
            prepare: {
                try makeWALDatabase(
                    $0 + "/app.db", sql: "CREATE TABLE note(id INTEGER PRIMARY KEY, body TEXT); INSERT INTO note VALUES (1, 'keep me')")
            },
            arguments: ["build", "tasklist.yaml", "dumps", "-o", "app.db"],
            status: 2,
            stderr: .exact(
                "error: the output app.db exists and is not a seed: it is an SQLite database without a seed_metadata table; --force replaces it\n"
                    + failed)
        ),
        BadInput(
            name: "an output whose -wal file still holds transactions",
            prepare: { try leaveWALFile(beside: $0 + "/tasklist.sqlite") },
            arguments: ["build", "tasklist.yaml", "dumps", "--force"],
            status: 2,
            stderr: .exact(
                "error: the output tasklist.sqlite may not be replaced: tasklist.sqlite-wal beside it holds transactions not yet in it "
                    + "(a program has it open, or crashed with it open)\n" + failed)
        ),
        BadInput(
            name: "an output that is the mapping",
            arguments: ["build", "tasklist.yaml", "dumps", "-o", "tasklist.yaml"],
            status: 2,
            stderr: .exact("error: the output tasklist.yaml is the mapping file\n" + failed)
        ),
        BadInput(
            name: "an output that is a link to a dump file",
            prepare: { try FileManager.default.createSymbolicLink(atPath: $0 + "/users.sqlite", withDestinationPath: "dumps/users.json") },
            arguments: ["build", "tasklist.yaml", "dumps", "-o", "users.sqlite", "--force"],
            status: 2,
            stderr: .exact("error: the output users.sqlite is dumps/users.json, a dump file this build reads\n" + failed)
        ),

        // A report that would overwrite something.
        BadInput(
            name: "a report that is the mapping",
            arguments: ["build", "tasklist.yaml", "dumps", "--report", "tasklist.yaml"],
            status: 2,
            stderr: .exact("error: the report tasklist.yaml is the mapping file\n" + failed)
        ),
        BadInput(
            name: "a report that is a link to the mapping, with a mapping that fails to load",
            prepare: { scratch in
                try FileManager.default.createSymbolicLink(atPath: scratch + "/report.json", withDestinationPath: "tasklist.yaml")
                try "seeder: 1\nentities: []\n".write(toFile: scratch + "/tasklist.yaml", atomically: false, encoding: .utf8)
            },
            arguments: ["build", "tasklist.yaml", "dumps", "--report", "report.json"],
            status: 2,
            stderr: .lines(["error: the report report.json is the mapping file", "build failed: 2 errors, 0 warnings; nothing was written"])
        ),
        BadInput(
            name: "a report in the dumps directory, with a mapping that fails to load",
            prepare: { scratch in
                try "my notes\n".write(toFile: scratch + "/dumps/notes.txt", atomically: false, encoding: .utf8)
                try "seeder: 1\nentities: []\n".write(toFile: scratch + "/tasklist.yaml", atomically: false, encoding: .utf8)
            },
            arguments: ["build", "tasklist.yaml", "dumps", "--report", "dumps/notes.txt"],
            status: 2,
            stderr: .lines([
                "error: the report dumps/notes.txt is in the dumps directory, any file of which a build may read (the mapping was not loaded)",
                "build failed: 2 errors, 0 warnings; nothing was written",
            ])
        ),
        BadInput(
            name: "a report that is a dump file",
            arguments: ["validate", "tasklist.yaml", "dumps", "--report", "dumps/users.json"],
            status: 2,
            stderr: .exact("error: the report dumps/users.json is a dump file this build reads\nvalidation failed: 1 error, 0 warnings\n")
        ),
        BadInput(
            name: "a report that is the output, on a build that fails",
            prepare: { try #"[{"id": "one"}]"#.write(toFile: $0 + "/dumps/users.json", atomically: false, encoding: .utf8) },
            arguments: ["build", "tasklist.yaml", "dumps", "--report", "tasklist.sqlite", "-o", "tasklist.sqlite"],
            status: 2,
            stderr: .exact("error: the report tasklist.sqlite is the output\n" + failed)
        ),
        BadInput(
            name: "a report in a directory that does not exist",
            arguments: ["build", "tasklist.yaml", "dumps", "--report", "nowhere/report.json"],
            status: 2,
            stderr: .exact("error: cannot create nowhere/report.json: No such file or directory\n" + failed)
        ),
        BadInput(
            name: "a report that is a FIFO",
            prepare: { try replaceWithFIFO($0 + "/report.json") },
            arguments: ["build", "tasklist.yaml", "dumps", "--report", "report.json"],
            status: 2,
            stderr: .exact("error: the report report.json may not be written: it is a FIFO, not a regular file\n" + failed)
        ),

        // Writes that fail.
        BadInput(
            name: "a file size limit (ulimit -f) smaller than the seed",
            arguments: ["build", "tasklist.yaml", "dumps"],
            // 40 blocks of 512 bytes: the seed is 45,056 bytes. SIGXFSZ as a shell leaves it
            // (the test runner may ignore it, and an ignored signal stays ignored across exec).
            launcher: ["env", "--default-signal=XFSZ", "sh", "-c", "ulimit -f 40; exec \"$0\" \"$@\""],
            status: 2,
            stderr: .exact("error: cannot write .tasklist.sqlite.seeder-assembly: File too large\n" + failed)
        ),
        BadInput(
            name: "diff of two identical seeds, standard output on a full disk",
            arguments: ["diff", "tasklist.sqlite", "tasklist.sqlite"],
            stdoutFile: "/dev/full",
            status: 2,
            stderr: .exact("error: cannot write standard output: No space left on device\n")
        ),
        BadInput(
            name: "inspect --json, standard output on a full disk",
            arguments: ["inspect", "tasklist.sqlite", "--json"],
            stdoutFile: "/dev/full",
            status: 2,
            stderr: .exact("error: cannot write standard output: No space left on device\n")
        ),
        BadInput(
            name: "validate --json, standard output on a full disk",
            arguments: ["validate", "tasklist.yaml", "dumps", "--json"],
            stdoutFile: "/dev/full",
            status: 2,
            stderr: .exact("error: cannot write standard output: No space left on device\n")
        ),
        BadInput(
            name: "build's summary, standard output on a full disk",
            arguments: ["build", "tasklist.yaml", "dumps"],
            stdoutFile: "/dev/full",
            status: 2,
            stderr: .exact("error: cannot write standard output: No space left on device; the seed was written to tasklist.sqlite\n"),
            writes: ["tasklist.sqlite"]
        ),
        BadInput(
            name: "a report that is a link to standard output, a file (/proc/self/fd/1)",
            prepare: { try FileManager.default.createSymbolicLink(atPath: $0 + "/report.json", withDestinationPath: "/proc/self/fd/1") },
            arguments: ["build", "tasklist.yaml", "dumps", "--report", "report.json"],
            launcher: ["sh", "-c", "exec \"$0\" \"$@\" > ci.log"],
            status: 2,
            stderr: .exact(
                "error: the report report.json may not be written: it leads to /proc/self/fd/1, a file a process has open, "
                    + "not a file seeder can replace\n" + failed),
            writes: ["ci.log"]
        ),

        // Standard error that cannot be written: the status is the work's, and nothing else changes.
        BadInput(
            name: "a build with warnings, standard error closed",
            prepare: { try replace("dueAt: date", with: "dueAt: { type: date, from: due_ta }", in: $0 + "/tasklist.yaml") },
            arguments: ["build", "tasklist.yaml", "dumps"],
            launcher: ["sh", "-c", "exec \"$0\" \"$@\" 2>&-"],
            status: 0,
            stderr: .exact(""),
            writes: ["tasklist.sqlite"]
        ),
        BadInput(
            name: "a validation that fails, standard error on a full disk",
            prepare: { try #"[{"id": "one"}]"#.write(toFile: $0 + "/dumps/users.json", atomically: false, encoding: .utf8) },
            arguments: ["validate", "tasklist.yaml", "dumps"],
            launcher: ["sh", "-c", "exec \"$0\" \"$@\" 2>/dev/full"],
            status: 1,
            stderr: .exact("")
        ),
        BadInput(
            name: "inspect of a missing seed, standard error closed",
            arguments: ["inspect", "missing.sqlite"],
            launcher: ["sh", "-c", "exec \"$0\" \"$@\" 2>&-"],
            status: 2,
            stderr: .exact("")
        ),
    ]

    /// As another user, chmod bites (root reads and writes through permission bits).
    static let nobody = ["setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups", "--"]

    static let fileRootKinds: [BadInput] = [
        BadInput(
            name: "an output that is a character device",
            prepare: { try await shell("mknod null c 1 3", in: $0) },
            arguments: ["build", "tasklist.yaml", "dumps", "-o", "null"],
            status: 2,
            stderr: .exact("error: the output null may not be written: it is a character device, not a regular file\n" + failed)
        ),
        BadInput(
            name: "an unreadable dumps directory (another user)",
            prepare: { try await shell("chmod 000 dumps", in: $0) },
            arguments: ["build", "tasklist.yaml", "dumps"],
            launcher: nobody,
            status: 2,
            stderr: .exact("dumps: error: cannot read the dumps directory: Permission denied\n" + failed)
        ),
        BadInput(
            name: "an unreadable directory in the dumps directory (another user)",
            prepare: { try await shell("mkdir dumps/more && echo '[]' > dumps/more/users.json && chmod 000 dumps/more", in: $0) },
            arguments: ["validate", "tasklist.yaml", "dumps"],
            launcher: nobody,
            status: 2,
            stderr: .exact("dumps/more: error: cannot read this directory: Permission denied\nvalidation failed: 1 error, 0 warnings\n")
        ),
        BadInput(
            name: "an unreadable dump file (another user)",
            prepare: { try await shell("chmod 000 dumps/users.json", in: $0) },
            arguments: ["validate", "tasklist.yaml", "dumps"],
            launcher: nobody,
            status: 2,
            stderr: .exact(
                "dumps/users.json: error: cannot read this dump file: Permission denied\nvalidation failed: 1 error, 0 warnings\n")
        ),
        BadInput(
            name: "an unreadable mapping (another user)",
            prepare: { try await shell("chmod 000 tasklist.yaml", in: $0) },
            arguments: ["build", "tasklist.yaml", "dumps"],
            launcher: nobody,
            status: 2,
            stderr: .exact("tasklist.yaml: error: cannot read the mapping file: Permission denied\n" + failed)
        ),
        BadInput(
            name: "an output directory that is not writable (another user)",
            arguments: ["build", "tasklist.yaml", "dumps"],
            launcher: nobody,
            status: 2,
            stderr: .exact("error: cannot create tasklist.sqlite: Permission denied\n" + failed)
        ),
        BadInput(
            name: "an output on a read-only mount",
            prepare: { try await shell("mkdir ro && cp tasklist.sqlite ro/ && mount --bind ro ro && mount -o remount,bind,ro ro", in: $0) },
            arguments: ["build", "tasklist.yaml", "dumps", "-o", "ro/tasklist.sqlite"],
            status: 2,
            stderr: .exact("error: cannot create ro/tasklist.sqlite: Read-only file system\n" + failed),
            cleanUp: { try? await shell("umount ro", in: $0) }
        ),
        BadInput(
            name: "a full disk",
            // 64 KiB, of which the previous seed takes 44.
            prepare: { try await shell("mkdir out && mount -t tmpfs -o size=64k tmpfs out && cp tasklist.sqlite out/", in: $0) },
            arguments: ["build", "tasklist.yaml", "dumps", "-o", "out/tasklist.sqlite"],
            status: 2,
            stderr: .exact("error: cannot write out/.tasklist.sqlite.seeder-assembly: No space left on device\n" + failed),
            cleanUp: { try? await shell("umount out", in: $0) }
        ),
        BadInput(
            name: "a report on a full disk, after the seed was written",
            // One page, taken by the filler: the report's directory entry fits, its bytes do not.
            prepare: {
                try await shell(
                    "mkdir full && mount -t tmpfs -o size=4k tmpfs full && (head -c 4096 /dev/zero > full/filler || true)", in: $0)
            },
            arguments: ["build", "tasklist.yaml", "dumps", "--report", "full/report.json", "--quiet"],
            status: 2,
            stderr: .exact("error: cannot write full/report.json: No space left on device; the seed was written to tasklist.sqlite\n"),
            writes: ["tasklist.sqlite"],
            cleanUp: { try? await shell("umount full", in: $0) }
        ),
        BadInput(
            name: "a validation's report on a full disk",
            prepare: {
                try await shell(
                    "mkdir full && mount -t tmpfs -o size=4k tmpfs full && (head -c 4096 /dev/zero > full/filler || true)", in: $0)
            },
            arguments: ["validate", "tasklist.yaml", "dumps", "--report", "full/report.json"],
            status: 2,
            stderr: .exact("error: cannot write full/report.json: No space left on device; the mapping and the dumps are valid\n"),
            cleanUp: { try? await shell("umount full", in: $0) }
        ),
    ]

    /// Replaces `path`, if there is anything there, with a FIFO.
    static func replaceWithFIFO(_ path: String) throws {
        unlink(path)
        guard mkfifo(path, 0o644) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
    }

    /// A database that is no seed, in WAL mode, closed (SQLite then removes its `-wal` and `-shm`).
    static func makeWALDatabase(_ path: String, sql: String) throws {
        let queue = try DatabaseQueue(path: path)
        try queue.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA journal_mode = WAL")
            try db.execute(sql: sql)
        }
        try queue.close()
    }

    /// Leaves beside the database at `path` the `-wal` file of a program that crashed with it
    /// open: a transaction not yet copied into the database.
    static func leaveWALFile(beside path: String) throws {
        let queue = try DatabaseQueue(path: path)
        try queue.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA journal_mode = WAL")
            try db.execute(sql: "PRAGMA wal_autocheckpoint = 0")
            try db.execute(sql: "INSERT INTO user (id, name) VALUES (99, 'Late')")
        }
        let wal = try Data(contentsOf: URL(fileURLWithPath: path + "-wal"))
        try queue.close()
        try wal.write(to: URL(fileURLWithPath: path + "-wal"))
    }

    /// Runs `command` with `sh -c` in `directory`; throws unless it exits 0.
    static func shell(_ command: String, in directory: String) async throws {
        let run = try await runProgram("/bin/sh", ["-c", command], in: directory)
        try #require(run.status == 0, "'\(command)' failed with status \(run.status): \(run.stderr)")
    }
}
