import Foundation
import SeederCore
import SeederStore

/// Paths to remove if the build is interrupted (SIGINT, SIGTERM, SIGHUP): C strings, so the
/// signal handler only calls `unlink`, which is safe there.
nonisolated(unsafe) private var interruptionPaths: [UnsafeMutablePointer<CChar>] = []

/// Makes an interrupted build leave no temporary file behind (SEED.md, Atomic output). The
/// output itself is only ever replaced by a rename, so it needs no cleaning.
enum Interruption {
    @Sendable static func removeOnInterrupt(_ paths: [String]) {
        interruptionPaths = paths.map { strdup($0)! }
        // A parent may have spawned us with these blocked (masks are inherited): unblock them,
        // or an interrupt would wait until the build is over.
        var set = sigset_t()
        sigemptyset(&set)
        for signal in [SIGINT, SIGTERM, SIGHUP] { sigaddset(&set, signal) }
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
        for signal in [SIGINT, SIGTERM, SIGHUP] {
            Foundation.signal(signal) { number in
                for path in interruptionPaths { unlink(path) }
                _exit(128 + number)
            }
        }
    }
}
