import Foundation
import SeederCore
import SeederFiles

/// Buffered writes to a file descriptor: standard output, or a spool file that can be read back.
final class ByteSink {
    private let descriptor: Int32
    private let ownsDescriptor: Bool
    /// How errors name the file: "standard output", or the spool's path.
    private let name: String
    private var buffer: [UInt8] = []
    /// Bytes written so far, buffered ones included.
    private(set) var count = 0

    /// A sink on an open descriptor (standard output: 1).
    init(descriptor: Int32) {
        self.descriptor = descriptor
        ownsDescriptor = false
        name = descriptor == STDOUT_FILENO ? "standard output" : "file descriptor \(descriptor)"
        buffer.reserveCapacity(Self.capacity)
    }

    /// A sink on a new anonymous file in the temporary directory: unlinked at once, so nothing is
    /// left behind however the process ends.
    init(spoolIn directory: String = NSTemporaryDirectory()) throws {
        var template =
            Array((directory.hasSuffix("/") ? directory : directory + "/").utf8CString.dropLast()) + Array("seeder-diff-XXXXXX".utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else { throw OutputError.cannot("create a file in", directory, error: errno) }
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        name = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        self.descriptor = descriptor
        ownsDescriptor = true
        buffer.reserveCapacity(Self.capacity)
    }

    deinit {
        if ownsDescriptor { close(descriptor) }
    }

    private static let capacity = 1 << 18

    /// Appends text, guarded (`PrintedText.guarded`): what a diff prints may go to a terminal
    /// or a CI log, and no name or value in it may act there (docs/commands.md, Printed text).
    func write(_ text: String) throws {
        var text = text
        try text.withUTF8 { try appendGuarded($0) }
    }

    /// Appends bytes of text, guarded as `write(_:)` guards them.
    func write(bytes: [UInt8]) throws {
        try bytes.withUnsafeBufferPointer { try appendGuarded($0) }
    }

    private func appendGuarded(_ bytes: UnsafeBufferPointer<UInt8>) throws {
        if let escaped = PrintedText.guarded(bytes) { try append(escaped) } else { try append(bytes) }
    }

    /// Appends bytes as they are: what another sink already guarded.
    private func append(_ bytes: some Collection<UInt8>) throws {
        buffer.append(contentsOf: bytes)
        count += bytes.count
        if buffer.count >= Self.capacity { try flush() }
    }

    /// Writes out what is buffered.
    func flush() throws {
        var written = 0
        while written < buffer.count {
            let result = buffer.withUnsafeBytes { Foundation.write(descriptor, $0.baseAddress! + written, $0.count - written) }
            if result < 0 {
                if errno == EINTR { continue }
                throw OutputError.cannot("write", name, error: errno)
            }
            written += result
        }
        buffer.removeAll(keepingCapacity: true)
    }

    /// Copies bytes `range` of this spool to `sink`.
    func copy(_ range: Range<Int>, to sink: ByteSink) throws {
        try flush()
        var chunk = [UInt8](repeating: 0, count: Self.capacity)
        var offset = range.lowerBound
        while offset < range.upperBound {
            let wanted = min(chunk.count, range.upperBound - offset)
            let read = chunk.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress!, wanted, off_t(offset)) }
            if read < 0, errno == EINTR { continue }
            guard read > 0 else { throw OutputError.cannot("read", name, error: read < 0 ? errno : EIO) }
            try sink.append(chunk[0..<read])
            offset += read
        }
    }
}
