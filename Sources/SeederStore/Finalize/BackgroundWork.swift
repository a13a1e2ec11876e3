import Foundation

/// Work begun now on a thread of its own and waited for when its outcome is needed: a seed's
/// checks run `quick_check` and the file's sync beside the foreign-key check this way
/// (`SeedChecks.check`), and a build begins its output's sync once the rows are in (`FileSync`).
final class BackgroundWork<Value: Sendable>: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    // Written by the working thread before `done` is signalled, read after it.
    private var outcome: Result<Value, Error>?

    /// Begins `work` on a new thread.
    init(_ work: @escaping @Sendable () throws -> Value) {
        Thread { [self] in
            outcome = Result(catching: work)
            done.signal()
        }.start()
    }

    /// The work's outcome, once it is done. Waited for by any number of callers.
    var result: Result<Value, Error> {
        done.wait()
        done.signal()
        return outcome!
    }

    /// Waits for the work and returns its value, or throws its error.
    @discardableResult
    func wait() throws -> Value {
        try result.get()
    }
}
