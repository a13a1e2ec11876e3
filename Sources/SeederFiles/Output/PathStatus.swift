import Foundation
import SeederCore

/// What is at a path before a command touches it: nothing, or a file of some kind (links
/// followed), with the identity that tells two names of one file apart from two files.
package struct PathStatus {
    /// The device and inode of a file; for a path where nothing is yet, those of its directory
    /// and its name, so that two names of one file to be made are the same identity too.
    package struct Identity: Hashable {
        package var device: UInt64
        package var inode: UInt64
        package var name: String?
    }

    /// The path as given.
    package let path: String
    /// `stat` of the path, links followed; `nil` when nothing is there (or it cannot be seen).
    package let status: stat?
    /// Whether the path itself is a symbolic link (a dangling one counts as nothing there).
    package let isLink: Bool

    package init(_ path: String) {
        self.path = path
        var info = stat()
        isLink = lstat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFLNK
        status = stat(path, &info) == 0 ? info : nil
    }

    /// Whether something is at the path.
    package var exists: Bool { status != nil }

    /// Why the path may not be written: "it is a directory, not a regular file", "it is a link
    /// to a FIFO, not a regular file"; `nil` for a regular file or nothing.
    package var notRegularReason: String? {
        guard let status, !FileKind.isRegular(status.st_mode) else { return nil }
        let kind = FileKind.name(ofMode: status.st_mode)
        return isLink ? "it is a link to \(kind), not a regular file" : "it is \(kind), not a regular file"
    }

    /// Why the path may not be replaced although it leads to a regular file: a link on the way
    /// is a process's open file (`/proc/self/fd/1`, where `/dev/stdout` leads). Renaming over
    /// it, or over the file it stands for, would replace a file the user did not name (the log
    /// that standard output goes to) or a link of the system's (`/dev/stdout` itself).
    package var processFileReason: String? {
        var current = path
        for _ in 0..<40 {
            var info = stat()
            guard lstat(current, &info) == 0, info.st_mode & S_IFMT == S_IFLNK else { return nil }
            let directory = PathText.directory(of: current)
            if let real = realpath(directory.isEmpty ? "." : directory, nil) {
                defer { free(real) }
                let resolved = String(cString: real)
                if resolved == "/proc" || resolved.hasPrefix("/proc/") {
                    return "it leads to \(current), a file a process has open, not a file seeder can replace"
                }
            }
            guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: current) else { return nil }
            current = target.hasPrefix("/") ? target : (directory.isEmpty ? target : directory + "/" + target)
        }
        return nil
    }

    /// The file's identity, or for nothing there, its directory's and its name; `nil` when the
    /// directory is not there either.
    package var identity: Identity? {
        if let status { return Identity(device: UInt64(status.st_dev), inode: UInt64(status.st_ino)) }
        var directory = stat()
        let parent = PathText.directory(of: path)
        guard stat(parent.isEmpty ? "." : parent, &directory) == 0 else { return nil }
        return Identity(device: UInt64(directory.st_dev), inode: UInt64(directory.st_ino), name: (path as NSString).lastPathComponent)
    }
}

extension PathStatus {
    /// Whether a `-wal` file beside the SQLite file at `path` holds transactions not yet in it:
    /// what SQLite would read into the file when it is next opened, and a copy or a rename of the
    /// file alone would lose.
    package static func walHoldsTransactions(_ path: String) -> Bool {
        sidecarNames(of: path).contains { name in
            var wal = stat()
            return stat(name + "-wal", &wal) == 0 && wal.st_size > 0
        }
    }

    /// The names SQLite's files beside the database at `path` may take: beside `path`, and,
    /// when `path` is a symbolic link, beside the file it leads to, where SQLite keeps its
    /// journal and WAL (docs/seed.md, Journals).
    package static func sidecarNames(of path: String) -> [String] {
        guard let resolved = realpath(path, nil) else { return [path] }
        defer { free(resolved) }
        let target = String(cString: resolved)
        // Without a link on the way the two name one place: looked at twice, found once.
        return target == path ? [path] : [path, target]
    }
}
