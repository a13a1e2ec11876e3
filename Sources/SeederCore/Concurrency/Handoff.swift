import Foundation

/// A bounded queue of chunks from one producing thread to one consuming thread, the one such
/// queue of seeder: a build's reading thread hands records to the writer through one
/// (`DumpReader`), and bytes to the hashing thread through another (`DigestPipeline`). The
/// consumer hands each chunk back when it is done (`recycle`), for the producer to reuse or free
/// on its own thread.
package final class Handoff<Chunk: Sendable>: @unchecked Sendable {
    private let condition = NSCondition()
    private var chunks: [Chunk?] = []
    private var head = 0
    /// The chunks the queue holds at most.
    package let capacity: Int
    private var finished = false
    private var cancelled = false
    private var failure: Error?

    package init(capacity: Int) {
        self.capacity = capacity
    }

    /// Chunks the consumer is done with, for the producer.
    private var spent: [Chunk] = []

    /// Adds a chunk, waiting while the queue is full; returns the chunks then queued and those
    /// the consumer handed back since the last `put` (dropped, they are freed on this thread,
    /// outside the lock), `nil` once the consumer cancelled.
    package func put(_ chunk: Chunk) -> (queued: Int, spent: [Chunk])? {
        var handedBack: [Chunk] = []
        condition.lock()
        defer { condition.unlock() }
        while chunks.count - head >= capacity, !cancelled { condition.wait() }
        guard !cancelled else { return nil }
        chunks.append(chunk)
        swap(&handedBack, &spent)
        condition.broadcast()
        return (chunks.count - head, handedBack)
    }

    /// Hands a chunk the consumer is done with back to the producer, whose thread allocated its
    /// elements: reused or freed there, memory goes back to that thread's arena without
    /// contention.
    package func recycle(_ chunk: consuming Chunk) {
        condition.lock()
        spent.append(chunk)
        condition.unlock()
    }

    /// The next chunk, waiting for one; `nil` at the end. Rethrows the producer's error.
    package func take() throws -> Chunk? {
        condition.lock()
        defer { condition.unlock() }
        while chunks.count == head, !finished { condition.wait() }
        if chunks.count == head {
            if let failure { throw failure }
            return nil
        }
        let chunk = chunks[head]
        chunks[head] = nil
        head += 1
        if head >= 64 {
            chunks.removeFirst(head)
            head = 0
        }
        condition.broadcast()
        return chunk
    }

    /// The producer is done (with an error if it failed).
    package func finish(error: Error?) {
        condition.lock()
        finished = true
        failure = error
        condition.broadcast()
        condition.unlock()
    }

    /// The consumer gives up: `put` returns `false` from now on.
    package func cancel() {
        condition.lock()
        cancelled = true
        condition.broadcast()
        condition.unlock()
    }
}
