import Foundation
import SeederCore

/// The folder beside DUMPS where a fetch's pages wait until every source succeeded; then each
/// changed file is moved into DUMPS by a rename, removed pages are deleted, and the manifest is
/// written last (docs/commands.md, fetch: Nothing lost). A failure or a signal removes the folder
/// and leaves DUMPS as it was.
///
/// Every folder and file is made here under `lock`, which the signal handler takes too before it
/// removes the folder and closes the area: a page written at that moment then fails instead of
/// making the folder again, or adding a file to one being removed. The folder itself is made once,
/// by `init`; the folders below it one `mkdir` at a time, never with their parents.
final class StagingArea: @unchecked Sendable {
    let root: String
    let dumps: String
    /// Nothing is made here any more: the folder was removed (by a signal, a failure or the end of
    /// the commit). Read and written under `lock`.
    private var closed = false
    /// How many body file names `newBodyFile` gave, under `lock`.
    private var bodyFiles = 0

    /// Held while anything is made in a staging area, while files move into DUMPS (so that a signal
    /// waits for a commit to end rather than stop it halfway), and by the signal handler to the
    /// process's end.
    private static let lock = NSLock()
    nonisolated(unsafe) private static var live: [StagingArea] = []
    nonisolated(unsafe) private static var dumpsNote = "the dumps are as they were"

    /// Makes the folder beside `dumps` (same file system: renames are atomic).
    init(dumps: String) throws(InputError) {
        let absolute = URL(fileURLWithPath: dumps).standardizedFileURL.path
        self.dumps = absolute
        let parent = (absolute as NSString).deletingLastPathComponent
        let name = (absolute as NSString).lastPathComponent
        var template = Array("\(parent)/.\(name).seeder-fetch.XXXXXX".utf8CString)
        let made = template.withUnsafeMutableBufferPointer { buffer -> String? in
            guard let base = buffer.baseAddress, mkdtemp(base) != nil else { return nil }
            return String(cString: base)
        }
        guard let made else {
            throw InputError(path: parent, reason: "cannot make a temporary folder: \(FileKind.reason(errno))")
        }
        root = made
        Self.locked { Self.live.append(self) }
    }

    /// Removes every live staging folder, each area closed first so that nothing is made in it
    /// again, and returns what became of DUMPS. Takes `lock` and keeps it: a page about to make
    /// a file waits, and a commit under way ends first. For the signal handler, which ends the
    /// process next.
    static func removeLiveFolders() -> String {
        lock.lock()
        for area in live {
            area.closed = true
            try? FileManager.default.removeItem(atPath: area.root)
        }
        return dumpsNote
    }

    /// `body`, under `lock`.
    private static func locked<T, Failure: Error>(_ body: () throws(Failure) -> T) throws(Failure) -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }

    /// Writes `bytes` at `relative` inside the folder.
    func write(_ bytes: [UInt8], at relative: String) throws(InputError) {
        let descriptor = try Self.locked { () throws(InputError) in try create(relative) }
        defer { close(descriptor) }
        try Self.fill(descriptor, with: bytes, path: root + "/" + relative)
    }

    /// A name for a body to be streamed to, in the folder's hidden `.bodies` (made once, under
    /// the lock): a file is made there only for a body that large, and goes with the folder.
    func newBodyFile() throws(InputError) -> String {
        try Self.locked { () throws(InputError) -> String in
            try checkOpen()
            let folder = root + "/.bodies"
            if bodyFiles == 0 {
                guard mkdir(folder, 0o700) == 0 || errno == EEXIST else { throw InputError(path: folder, reason: FileKind.reason(errno)) }
            }
            bodyFiles += 1
            return folder + "/body-\(bodyFiles)"
        }
    }

    /// Moves `file` (a body file of the folder, `newBodyFile`) to `relative`, synced, as
    /// `write` would have written it.
    func place(_ file: String, at relative: String) throws(InputError) {
        let descriptor = open(file, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else { throw InputError(path: file, reason: FileKind.reason(errno)) }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else { throw InputError(path: file, reason: FileKind.reason(errno)) }
        try Self.locked { () throws(InputError) in
            try checkOpen()
            try Self.makeFolders(of: relative, below: root)
            guard rename(file, root + "/" + relative) == 0 else {
                throw InputError(path: root + "/" + relative, reason: FileKind.reason(errno))
            }
        }
    }

    /// Moves `changed` (relative paths written here) into DUMPS, deletes `removed` from DUMPS,
    /// then puts the manifest in place, if it differs; then removes the folder. Nothing moves when
    /// a folder or file of those below DUMPS is a symbolic link (DUMPS itself may be one, the
    /// user's choice): the error names every one, below DUMPS as `shown`.
    func commit(changed: [String], removed: [String], manifest: String?, shown: String) throws(InputError) {
        Self.lock.lock()
        defer { Self.lock.unlock() }
        try checkOpen()
        let links = symbolicLinks(among: changed + removed + (manifest == nil ? [] : [FetchManifest.fileName]))
        if !links.isEmpty {
            let named = links.map { Self.shown($0, in: shown) }
            let list = named.count == 1 ? named[0] + " is a symbolic link" : Self.listed(named) + " are symbolic links"
            throw InputError(path: shown, reason: list + "; fetch never writes through one")
        }
        do {
            try FileManager.default.createDirectory(atPath: dumps, withIntermediateDirectories: true)
        } catch {
            throw InputError(path: dumps, reason: FileKind.reason(errno))
        }
        Self.dumpsNote = "the dumps were updated"
        for relative in changed.sorted() {
            let target = dumps + "/" + relative
            try Self.makeFolders(of: relative, below: dumps)
            guard rename(root + "/" + relative, target) == 0 else { throw InputError(path: target, reason: FileKind.reason(errno)) }
        }
        for relative in removed.sorted() {
            let target = dumps + "/" + relative
            if unlink(target) != 0, errno != ENOENT { throw InputError(path: target, reason: FileKind.reason(errno)) }
            // A parent's folder left empty goes too (`each`'s `comics/<id>/`).
            var directory = (target as NSString).deletingLastPathComponent
            while directory.count > dumps.count, rmdir(directory) == 0 { directory = (directory as NSString).deletingLastPathComponent }
        }
        if let manifest {
            let staged = root + "/" + FetchManifest.fileName
            let descriptor = try create(FetchManifest.fileName)
            defer { close(descriptor) }
            try Self.fill(descriptor, with: Array(manifest.utf8), path: staged)
            guard rename(staged, dumps + "/" + FetchManifest.fileName) == 0 else {
                throw InputError(path: dumps + "/" + FetchManifest.fileName, reason: FileKind.reason(errno))
            }
        }
        let directory = open(dumps, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if directory >= 0 {
            fsync(directory)
            close(directory)
        }
        discard()
    }

    /// `relative`, a path inside DUMPS, as messages name it: below DUMPS as the user gave it.
    static func shown(_ relative: String, in dumps: String) -> String {
        (dumps.hasSuffix("/") ? dumps : dumps + "/") + relative
    }

    /// Removes the folder and all in it.
    func remove() {
        Self.locked { discard() }
    }

    // MARK: Under the lock

    private func checkOpen() throws(InputError) {
        guard !closed else { throw InputError(path: root, reason: "the temporary folder was removed (the fetch was interrupted)") }
    }

    /// Removes the folder, and with it every file made here; nothing is made here after.
    private func discard() {
        closed = true
        try? FileManager.default.removeItem(atPath: root)
        Self.live.removeAll { $0 === self }
    }

    /// Makes the file `relative` in the folder (its folders first), empty, open for writing.
    private func create(_ relative: String) throws(InputError) -> Int32 {
        try checkOpen()
        try Self.makeFolders(of: relative, below: root)
        let path = root + "/" + relative
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw InputError(path: path, reason: FileKind.reason(errno)) }
        return descriptor
    }

    /// The folders of the file `relative` below `base`, made one `mkdir` at a time where missing:
    /// `base` itself is never made.
    private static func makeFolders(of relative: String, below base: String) throws(InputError) {
        var folder = base
        for component in relative.split(separator: "/").dropLast() {
            folder += "/" + component
            guard mkdir(folder, 0o755) == 0 || errno == EEXIST else { throw InputError(path: folder, reason: FileKind.reason(errno)) }
        }
    }

    /// The folders and files among `paths` (relative to DUMPS, each with the folders it is in)
    /// that are symbolic links, found with `lstat`; sorted.
    private func symbolicLinks(among paths: [String]) -> [String] {
        var links: Set<String> = []
        for relative in paths {
            var partial = ""
            for component in relative.split(separator: "/") {
                partial += (partial.isEmpty ? "" : "/") + component
                var status = stat()
                guard lstat(dumps + "/" + partial, &status) == 0 else { break }
                if status.st_mode & S_IFMT == S_IFLNK {
                    links.insert(partial)
                    break
                }
            }
        }
        return links.sorted()
    }

    /// `a`, `a and b`, `a, b and c`.
    private static func listed(_ names: [String]) -> String {
        names.count < 2 ? names.joined() : names.dropLast().joined(separator: ", ") + " and " + names.last!
    }

    /// Writes every byte of `bytes` to `descriptor`, then syncs it.
    private static func fill(_ descriptor: Int32, with bytes: [UInt8], path: String) throws(InputError) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { Foundation.write(descriptor, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                throw InputError(path: path, reason: FileKind.reason(errno))
            }
            offset += written
        }
        // On the disk before the rename that puts it in DUMPS (one sync() for all pages instead
        // took the whole machine's dirty pages with it: bench/README.md, fetch).
        guard fsync(descriptor) == 0 else { throw InputError(path: path, reason: FileKind.reason(errno)) }
    }
}

/// What the command's signal handler calls during a fetch.
public enum SeederFetchSignals {
    /// Removes the fetch's staging folders (after a commit under way) and returns what became
    /// of DUMPS: `the dumps are as they were`, or `the dumps were updated`.
    public static func removeStagingFolders() -> String { StagingArea.removeLiveFolders() }
}
