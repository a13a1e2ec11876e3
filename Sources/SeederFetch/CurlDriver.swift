import CCurl
import Foundation
import SeederCore

/// One libcurl transfer, handed between the task that waits for it and the driver's thread.
struct CurlTransfer: @unchecked Sendable, Hashable {
    let pointer: OpaquePointer
}

/// The thread that drives libcurl's multi handle: every transfer of a fetch runs on it, over
/// connections it keeps alive between requests (and multiplexes on HTTP/2). Tasks queue a
/// transfer and are resumed when it ends; no task ever blocks on the network.
final class CurlDriver: @unchecked Sendable {
    private let multi: OpaquePointer
    private let lock = NSLock()
    // Under `lock`: what tasks have queued, and whether the driver should stop once idle.
    private var queued: [(CurlTransfer, CheckedContinuation<Void, Never>)] = []
    private var stopping = false
    private var stopped: CheckedContinuation<Void, Never>?
    // The driver thread's own.
    private var running: [CurlTransfer: CheckedContinuation<Void, Never>] = [:]

    init?() {
        guard let multi = ccurl_multi_new() else { return nil }
        self.multi = multi
        // Never waited for: `shutdown` resumes when the loop ends.
        _ = BackgroundWork(name: "seeder-fetch-curl") { [self] in run() }
    }

    /// Runs `transfer` to its end (its outcome is on it).
    func perform(_ transfer: CurlTransfer) async {
        await withCheckedContinuation { continuation in
            lock.withLock { queued.append((transfer, continuation)) }
            ccurl_multi_wakeup(multi)
        }
    }

    /// Lets the transfers under way finish, then closes every connection.
    func shutdown() async {
        await withCheckedContinuation { continuation in
            lock.withLock {
                stopping = true
                stopped = continuation
            }
            ccurl_multi_wakeup(multi)
        }
    }

    private func run() {
        while true {
            let (adding, stop) = lock.withLock {
                defer { queued = [] }
                return (queued, stopping)
            }
            for (transfer, continuation) in adding {
                if ccurl_multi_add(multi, transfer.pointer) == 0 {
                    running[transfer] = continuation
                } else {
                    continuation.resume()
                }
            }
            if stop, running.isEmpty { break }
            // A second at most: a wakeup ends the wait as soon as a task queues a transfer.
            ccurl_multi_run(multi, 1000)
            while let done = ccurl_multi_next_done(multi) {
                running.removeValue(forKey: CurlTransfer(pointer: done))?.resume()
            }
        }
        ccurl_multi_free(multi)
        lock.withLock { stopped }?.resume()
    }
}
