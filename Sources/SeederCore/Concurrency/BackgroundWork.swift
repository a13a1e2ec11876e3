import Foundation

/// Work begun now on a thread of its own and waited for when its outcome is needed: the one
/// way seeder starts a thread. A build reads its dumps on one (`DumpReader`) and hashes them on
/// another (`DigestPipeline`); a seed's checks run `quick_check` and the file's sync beside the
/// foreign-key check (`SeedChecks.check`, `FileSync`); a fetch drives libcurl on one
/// (`CurlDriver`). Threads, not tasks: each blocks (on SQLite, the disk or the network), which a
/// task of the cooperative pool must never do.
package final class BackgroundWork<Value: Sendable>: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    // Written by the working thread before `done` is signalled, read after it.
    private var outcome: Result<Value, Error>?

    /// Begins `work` on a new thread named `name`, with a stack of `stackSize` bytes when given
    /// (the reading thread's JSON goes deep).
    package init(name: String? = nil, stackSize: Int? = nil, _ work: @escaping @Sendable () throws -> Value) {
        let thread = Thread { [self] in
            outcome = Result(catching: work)
            done.signal()
        }
        if let name { thread.name = name }
        if let stackSize { thread.stackSize = stackSize }
        thread.start()
    }

    /// The work's outcome, once it is done. Waited for by any number of callers.
    package var result: Result<Value, Error> {
        done.wait()
        done.signal()
        return outcome!
    }

    /// Waits for the work and returns its value, or throws its error.
    @discardableResult
    package func wait() throws -> Value {
        try result.get()
    }
}
