import Foundation
import SeederCore

/// SHA-256 of the dump files on a thread of its own, off the reading thread's path
/// (bench/README.md). The reading thread copies what it reads into a block of a megabyte and goes
/// back to parsing; the hashing thread hashes the blocks in order, while the writing thread waits
/// for records. Small files share a block (pages: ten thousand of 60 KB), so the thread wakes once a megabyte
/// rather than once a file. The blocks go through a `Handoff` and come back through it to be
/// filled again: the reader waits for a hashed block when `blocks` are in use, which bounds the
/// memory and at these speeds does not happen.
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

    /// Bytes and what to do with them; owned by one thread at a time, handed over by the queue.
    private final class Block: @unchecked Sendable {
        let bytes = UnsafeMutableRawBufferPointer.allocate(byteCount: DigestPipeline.blockSize, alignment: 16)
        var count = 0
        var operations: [Operation] = []

        deinit { bytes.deallocate() }
    }

    package static var blockSize: Int { 1 << 20 }
    private let handoff: Handoff<Block>
    private let hashing: BackgroundWork<Void>
    /// The block the reading thread fills, and hashed blocks back for it to fill (that thread's
    /// only).
    private var current = Block()
    private var spare: [Block] = []

    package init(blocks: Int = 4) {
        // In use at most: the queue's, the one being hashed, and the one being filled.
        let handoff = Handoff<Block>(capacity: max(1, blocks - 2))
        self.handoff = handoff
        hashing = BackgroundWork(name: "seeder-digest") {
            while let block = try handoff.take() {
                Self.hash(block)
                handoff.recycle(block)
            }
        }
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
        _ = handoff.put(current)
        handoff.finish(error: nil)
        _ = hashing.result
    }

    /// Queues the current block and takes a hashed one (or a new one while none is back).
    private func submit() {
        if let spent = handoff.put(current)?.spent { spare += spent }
        current = spare.popLast() ?? Block()
        current.count = 0
        current.operations.removeAll(keepingCapacity: true)
    }

    /// The hashing thread's work on one block.
    private static func hash(_ block: Block) {
        for operation in block.operations {
            switch operation {
            case let .update(digest, range):
                digest.hasher.update(UnsafeRawBufferPointer(rebasing: block.bytes[range]))
            case let .finalize(digest):
                digest.hex = digest.hasher.finalizeHex()
            }
        }
    }
}
