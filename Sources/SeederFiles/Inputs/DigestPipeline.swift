import Foundation
import SeederCore

/// SHA-256 of the dump files on a thread of its own, off the reading thread's path
/// (bench/README.md). The reading thread copies what it reads into a block of a megabyte and goes
/// back to parsing; the hashing thread hashes the blocks in order, while the writing thread waits
/// for records. Small files share a block (pages: ten thousand of 60 KB), so the thread wakes once a megabyte
/// rather than once a file. `blocks` bound the memory: the reader waits for a hashed block when all
/// are full, which at these speeds it does not.
package final class DigestPipeline: @unchecked Sendable {
    /// A file's digest: set on the hashing thread, read once `close` returned.
    package final class Digest: @unchecked Sendable {
        fileprivate var hasher = SHA256()
        /// Lowercase hex.
        package fileprivate(set) var hex = ""
    }

    private enum Operation {
        case update(Digest, Range<Int>)
        case finalize(Digest)
    }

    private struct Block {
        package let bytes: UnsafeMutableRawBufferPointer
        package var count = 0
        package var operations: [Operation] = []
    }

    package static var blockSize: Int { 1 << 20 }
    private let condition = NSCondition()
    // Under `condition`: blocks to hash, in order; hashed blocks to reuse; the ends.
    private var full: [Block] = []
    private var free: [Block] = []
    private var closed = false
    private var stopped = false
    /// The block the reading thread fills (that thread's only).
    private var current: Block

    package init(blocks: Int = 4) {
        current = Block(bytes: .allocate(byteCount: Self.blockSize, alignment: 16))
        for _ in 1..<max(2, blocks) { free.append(Block(bytes: .allocate(byteCount: Self.blockSize, alignment: 16))) }
        let thread = Thread { [self] in hashAll() }
        thread.start()
    }

    deinit {
        for block in free + full + [current] { block.bytes.deallocate() }
    }

    /// Adds `bytes` to `digest` (reading thread).
    package func update(_ digest: Digest, with bytes: UnsafeRawBufferPointer) {
        var rest = bytes
        while !rest.isEmpty {
            if current.count == current.bytes.count { submit() }
            let taken = min(rest.count, current.bytes.count - current.count)
            (current.bytes.baseAddress! + current.count).copyMemory(from: rest.baseAddress!, byteCount: taken)
            current.operations.append(.update(digest, current.count..<current.count + taken))
            current.count += taken
            rest = UnsafeRawBufferPointer(rebasing: rest[taken...])
        }
    }

    /// Ends `digest` after the bytes added to it (reading thread).
    package func finalize(_ digest: Digest) {
        current.operations.append(.finalize(digest))
    }

    /// Hashes what is left and stops the hashing thread; every digest is final when it returns.
    /// Call once, from the reading thread, when it is done (or failed).
    package func close() {
        condition.lock()
        full.append(current)
        current = Block(bytes: .allocate(byteCount: 0, alignment: 16))
        closed = true
        condition.broadcast()
        while !stopped { condition.wait() }
        condition.unlock()
    }

    /// Queues the current block and takes an empty one, waiting while none is.
    private func submit() {
        condition.lock()
        full.append(current)
        condition.broadcast()
        while free.isEmpty { condition.wait() }
        current = free.removeLast()
        condition.unlock()
        current.count = 0
        current.operations.removeAll(keepingCapacity: true)
    }

    /// The hashing thread: each block in turn, until closed and none is left.
    private func hashAll() {
        while true {
            condition.lock()
            while full.isEmpty, !closed { condition.wait() }
            guard !full.isEmpty else {
                stopped = true
                condition.broadcast()
                condition.unlock()
                return
            }
            let block = full.removeFirst()
            condition.unlock()
            for operation in block.operations {
                switch operation {
                case let .update(digest, range):
                    digest.hasher.update(UnsafeRawBufferPointer(rebasing: block.bytes[range]))
                case let .finalize(digest):
                    digest.hex = digest.hasher.finalizeHex()
                }
            }
            condition.lock()
            free.append(block)
            condition.broadcast()
            condition.unlock()
        }
    }
}
