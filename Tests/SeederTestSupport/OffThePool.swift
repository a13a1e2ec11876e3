import Foundation

/// What `body` returns, run on a thread of its own: for work that blocks or computes for seconds,
/// which on one of the cooperative pool's few threads (2 on 2 cores) would hold back every other
/// test's tasks and the test server's handlers. `Issue.record` and `#expect` belong to the test's
/// task: return what they check.
public func offThePool<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try body() }) }.start()
    }
}
