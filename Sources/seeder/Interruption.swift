import Foundation
import SeederFetch

/// What SIGINT, SIGTERM and SIGHUP do to every command (docs/commands.md, Exit status): remove
/// the temporary files the command made and has not renamed into place (docs/seed.md, Atomic
/// output; the output itself is only ever replaced by a rename, so it needs no cleaning) and a
/// fetch's staging folder (after a commit under way, never halfway through one), then end as the
/// signal would: status 128 + n.
///
/// Handled on a dispatch queue, not in a signal handler: removing a folder is not
/// async-signal-safe, and a handler written in Swift once hung a build for good, on a runtime lock
/// (type metadata made under it) that the interrupted thread held.
enum Interruption {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var temporaries: [String] = []
    nonisolated(unsafe) private static var fetching = false
    nonisolated(unsafe) private static var sources: [DispatchSourceSignal] = []

    /// The temporary files a signal removes, in place of those given before (`AtomicFile`'s and
    /// a build's `willCreate`).
    @Sendable static func removeOnInterrupt(_ paths: [String]) {
        lock.withLock {
            temporaries = paths
            installIfNeeded()
        }
    }

    /// Before a fetch: a signal removes its staging folder, and says what became of DUMPS.
    static func removeFetchStaging() {
        lock.withLock {
            fetching = true
            installIfNeeded()
        }
    }

    /// Under `lock`.
    private static func installIfNeeded() {
        guard sources.isEmpty else { return }
        for number in [SIGINT, SIGTERM, SIGHUP] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { interrupted(by: number) }
            source.resume()
            sources.append(source)
        }
    }

    /// Removes what the run left, and ends the process. `lock` is kept to the end: a list
    /// being replaced is replaced whole first.
    private static func interrupted(by number: Int32) -> Never {
        lock.lock()
        for path in temporaries { unlink(path) }
        if fetching {
            let note = SeederFetchSignals.removeStagingFolders()
            FileHandle.standardError.write(Data("fetch: interrupted; \(note)\n".utf8))
        }
        _exit(128 + number)
    }
}
