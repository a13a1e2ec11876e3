import Foundation
import SeederCore

/// A byte source that hands what it reads to a `DigestPipeline`, so a dump's digest costs no
/// second read and no time of the reading thread but a copy.
package final class HashingByteSource: ByteSource {
    private let source: ByteSource
    private let pipeline: DigestPipeline
    private let digest = DigestPipeline.Digest()
    /// Bytes read so far.
    package private(set) var count = 0

    package init(_ source: ByteSource, pipeline: DigestPipeline) {
        self.source = source
        self.pipeline = pipeline
    }

    package func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let read = try source.read(into: buffer)
        if read > 0 {
            pipeline.update(digest, with: UnsafeRawBufferPointer(rebasing: buffer[..<read]))
            count += read
        }
        return read
    }

    /// The digest of everything read, final once the pipeline is closed. Call once, at the end.
    package func finish() -> DigestPipeline.Digest {
        pipeline.finalize(digest)
        return digest
    }
}
