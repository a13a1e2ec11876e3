import Foundation

/// Holds a build's output for the build's length, so that a second build of the same output
/// fails at once rather than sharing, and removing, the first one's temporary files.
///
/// The lock is `flock` on a lock file beside the output (`.<name>.seeder-lock`). The kernel
/// releases it when the process ends however it ends, so a lock file that a killed build left
/// (`kill -9`) holds nothing: the next build locks it, and removes it at its end as every build
/// does. Removing it while it is locked opens a race, which `init` closes: a build that locked a
/// file that was unlinked meanwhile locks the file now at the path instead.
package final class OutputLock {
    /// The lock file.
    package let path: String
    private var descriptor: Int32

    /// Locks the output `output` through the lock file `path`, without waiting. Throws when
    /// another build holds it, or when the file cannot be made (the message then names `output`,
    /// which cannot be made there either, unless something is in the lock's way).
    /// `shownPath` is how messages name the lock file (`BuildFiles.shown`).
    package init(path: String, shownPath: String, output: String) throws(OutputError) {
        self.path = path
        while true {
            let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
            guard descriptor >= 0 else {
                let error = errno
                // Something at the lock's path (a link, a directory) is that file's fault;
                // else the directory would not let the seed be made either.
                var existing = stat()
                throw OutputError.cannot("create", lstat(path, &existing) == 0 ? shownPath : output, error: error)
            }
            guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
                let error = errno
                close(descriptor)
                if error == EWOULDBLOCK {
                    throw OutputError(.outputRefused, "another build is writing \(output); try again when it is done")
                }
                throw OutputError.cannot("lock", shownPath, error: error)
            }
            var locked = stat(), current = stat()
            if fstat(descriptor, &locked) == 0, stat(path, &current) == 0, locked.st_dev == current.st_dev, locked.st_ino == current.st_ino
            {
                self.descriptor = descriptor
                return
            }
            close(descriptor)
        }
    }

    /// Removes the lock file, then releases the lock. A build that opened the file before it was
    /// removed and locks it after sees it gone from the path, and tries again (`init`).
    package func release() {
        guard descriptor >= 0 else { return }
        unlink(path)
        close(descriptor)
        descriptor = -1
    }

    deinit { release() }
}
