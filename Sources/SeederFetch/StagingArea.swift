import Foundation
import SeederCore

/// The folder beside DUMPS where a fetch's pages wait until every source succeeded; then each
/// changed file is moved into DUMPS by a rename, removed pages are deleted, and the manifest is
/// written last (docs/commands.md, fetch: Nothing lost). A failure or a signal removes the folder
/// and leaves DUMPS as it was.
final class StagingArea: @unchecked Sendable {
    let root: String
    let dumps: String

    /// Held while files move into DUMPS, so that a signal waits for a commit to end rather than
    /// stop it halfway.
    private static let commitLock = NSLock()
    nonisolated(unsafe) private static var live: Set<String> = []
    nonisolated(unsafe) private static var signalSources: [DispatchSourceSignal] = []

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
        Self.commitLock.lock()
        Self.live.insert(root)
        Self.commitLock.unlock()
    }

    /// SIGINT and SIGTERM remove every live staging folder, then end the process as the signal
    /// would (status 128 + the signal). Handled on a dispatch queue, not in a signal handler:
    /// removing a folder is not async-signal-safe.
    static func removeOnSignals() {
        for signalNumber in [SIGINT, SIGTERM, SIGHUP] {
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
            source.setEventHandler {
                commitLock.lock()
                for folder in live { try? FileManager.default.removeItem(atPath: folder) }
                FileHandle.standardError.write(Data("fetch: interrupted; \(dumpsNote)\n".utf8))
                exit(128 + signalNumber)
            }
            source.resume()
            signalSources.append(source)
        }
    }

    nonisolated(unsafe) private static var dumpsNote = "the dumps are as they were"

    /// Writes `bytes` at `relative` inside the folder.
    func write(_ bytes: [UInt8], at relative: String) throws(InputError) {
        let path = root + "/" + relative
        let directory = (path as NSString).deletingLastPathComponent
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw InputError(path: directory, reason: FileKind.reason(errno))
        }
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw InputError(path: path, reason: FileKind.reason(errno)) }
        defer { close(descriptor) }
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { Foundation.write(descriptor, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                throw InputError(path: relativeToDumps(path), reason: FileKind.reason(errno))
            }
            offset += written
        }
        // On the disk before the rename that puts it in DUMPS (one sync() for all pages instead
        // took the whole machine's dirty pages with it: bench/README.md, fetch).
        guard fsync(descriptor) == 0 else { throw InputError(path: path, reason: FileKind.reason(errno)) }
    }

    private func relativeToDumps(_ path: String) -> String { path }

    /// Moves `changed` (relative paths written here) into DUMPS, deletes `removed` from DUMPS,
    /// then puts the manifest in place, if it differs; then removes the folder. Nothing moves when
    /// a folder or file of those below DUMPS is a symbolic link (DUMPS itself may be one, the
    /// user's choice): the error names every one, below DUMPS as `shown`.
    func commit(changed: [String], removed: [String], manifest: String?, shown: String) throws(InputError) {
        Self.commitLock.lock()
        defer { Self.commitLock.unlock() }
        let links = symbolicLinks(among: changed + removed + (manifest == nil ? [] : [FetchManifest.fileName]))
        if !links.isEmpty {
            let named = links.map { Self.shown($0, in: shown) }
            let list = named.count == 1 ? named[0] + " is a symbolic link" : Self.listed(named) + " are symbolic links"
            throw InputError(path: shown, reason: list + "; fetch never writes through one")
        }
        Self.dumpsNote = "the dumps were updated"
        do {
            try FileManager.default.createDirectory(atPath: dumps, withIntermediateDirectories: true)
        } catch {
            throw InputError(path: dumps, reason: FileKind.reason(errno))
        }
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
            try write(Array(manifest.utf8), at: FetchManifest.fileName)
            guard rename(staged, dumps + "/" + FetchManifest.fileName) == 0 else {
                throw InputError(path: dumps + "/" + FetchManifest.fileName, reason: FileKind.reason(errno))
            }
        }
        let directory = open(dumps, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if directory >= 0 {
            fsync(directory)
            close(directory)
        }
        try? FileManager.default.removeItem(atPath: root)
        Self.live.remove(root)
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

    /// `relative`, a path inside DUMPS, as messages name it: below DUMPS as the user gave it.
    static func shown(_ relative: String, in dumps: String) -> String {
        (dumps.hasSuffix("/") ? dumps : dumps + "/") + relative
    }

    /// Removes the folder and all in it.
    func remove() {
        try? FileManager.default.removeItem(atPath: root)
        Self.commitLock.lock()
        Self.live.remove(root)
        Self.commitLock.unlock()
    }
}

/// What the command calls before a fetch: SIGINT and SIGTERM then remove the staging folder.
public enum SeederFetchSignals {
    public static func install() { StagingArea.removeOnSignals() }
}
