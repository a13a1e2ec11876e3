import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Copies the bundled seed over the working copy so that the working copy is either the old file
/// or the new one, never a part: into a temporary file beside it (`.<name>.seed-install`),
/// synced, renamed over it, then the directory synced so that the rename survives a power cut
/// (docs/guides/updating-an-installed-seed.md).
enum AtomicCopy {
    /// The temporary file an install of `path` writes. One name per working copy, so that the
    /// next install finds and removes a killed install's leftover.
    static func temporaryPath(for path: String) -> String {
        let url = URL(fileURLWithPath: path)
        return url.deletingLastPathComponent().appendingPathComponent("." + url.lastPathComponent + ".seed-install").path
    }

    /// Removes a killed install's temporary file, if there is one.
    static func removeLeftover(for path: String) throws(SeedInstallError) {
        let temporary = temporaryPath(for: path)
        guard unlink(temporary) == 0 || errno == ENOENT else { throw .system("remove", temporary) }
    }

    /// Copies `source` to `destination`. On failure the temporary file is removed and
    /// `destination` is as it was.
    static func copy(_ source: String, to destination: String) throws(SeedInstallError) {
        let temporary = temporaryPath(for: destination)
        try removeLeftover(for: destination)
        let input = open(source, O_RDONLY | O_CLOEXEC)
        guard input >= 0 else { throw .system("open", source) }
        defer { close(input) }
        let output = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard output >= 0 else { throw .system("create", temporary) }
        do throws(SeedInstallError) {
            try copyBytes(from: input, source: source, to: output, destination: temporary)
            guard fullSync(output) == 0 else { throw SeedInstallError.system("sync", temporary) }
            guard close(output) == 0 else { throw SeedInstallError.system("write", temporary) }
        } catch {
            close(output)
            unlink(temporary)
            throw error
        }
        guard rename(temporary, destination) == 0 else {
            let failure = SeedInstallError.system("rename \(temporary) to", destination)
            unlink(temporary)
            throw failure
        }
        try syncDirectory(of: destination)
    }

    private static func copyBytes(from input: Int32, source: String, to output: Int32, destination: String) throws(SeedInstallError) {
        let size = 1 << 20
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            let count = read(input, buffer, size)
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else { throw .system("read", source) }
            if count == 0 { return }
            var written = 0
            while written < count {
                let step = write(output, buffer + written, count - written)
                if step < 0, errno == EINTR { continue }
                guard step > 0 else { throw .system("write", destination) }
                written += step
            }
        }
    }

    /// Syncs the directory that holds `path`, which records a rename on disk.
    private static func syncDirectory(of path: String) throws(SeedInstallError) {
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
        let descriptor = open(directory, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .system("open", directory) }
        defer { close(descriptor) }
        guard fullSync(descriptor) == 0 else { throw .system("sync", directory) }
    }

    /// `fsync`, and on Apple's systems `F_FULLFSYNC`, without which `fsync` leaves the data in
    /// the drive's cache.
    private static func fullSync(_ descriptor: Int32) -> Int32 {
        #if canImport(Darwin)
            if fcntl(descriptor, F_FULLFSYNC) == 0 { return 0 }
        #endif
        return fsync(descriptor)
    }
}
