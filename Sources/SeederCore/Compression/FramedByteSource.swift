/// A compressed dump's text, decoded block by block into the reader's own buffer, so memory
/// stays flat whatever the file's size (docs/mapping.md, Dump files).
///
/// A file is units one after another (gzip's members, Zstandard's frames: `cat a.gz b.gz`), one
/// text, as `gunzip` and `zstd -d` read them. A file that holds none or ends inside one, bytes
/// after the last that do not start one, and what the decoder refuses are
/// `DecompressionError`s naming the file; text decoded before a bad block is handed out first.
/// Text past `DecompressionLimits` is an `InputError` naming the file.
final class FramedByteSource<Decoder: FrameDecoder>: ByteSource {
    private let input: CompressedInput
    private let decoder: Decoder
    private let path: String
    private let limits: DecompressionLimits
    /// Bytes of text handed out so far.
    private var produced = 0
    private var place = Place.beforeUnit(first: true)

    private enum Place {
        case beforeUnit(first: Bool)
        case inUnit
        case done
        /// Text decoded before the error was handed out; the error comes with the next read.
        case failed(DecompressionError)
    }

    init(_ source: ByteSource, path: String, limits: DecompressionLimits) throws {
        input = CompressedInput(source)
        decoder = try Decoder(path: path)
        self.path = path
        self.limits = limits
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let count = try decode(into: buffer)
        produced += count
        if let excess = limits.excess(text: produced, compressed: input.consumed, format: Decoder.format) {
            place = .done
            throw InputError(path: path, reason: excess)
        }
        return count
    }

    private func decode(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        guard buffer.baseAddress != nil, buffer.count > 0 else { return 0 }
        while true {
            switch place {
            case .done:
                return 0
            case let .failed(error):
                throw error
            case let .beforeUnit(first):
                let whole = try input.fill(atLeast: Decoder.magicCount)
                if input.available == 0 {
                    if first { throw DecompressionError.truncated(Decoder.format, path: path, empty: true) }
                    place = .done
                    return 0
                }
                guard whole, decoder.startsUnit(input) else {
                    throw corrupt(first ? "not in \(Decoder.format) format" : "trailing garbage after the last \(Decoder.unit)")
                }
                if !first { decoder.reset() }
                place = .inUnit
            case .inUnit:
                // Read on at the end too: output that did not fit the last buffer is still to come.
                _ = try input.fill()
                let step = try decoder.decode(input, into: buffer)
                if let reason = step.corruption {
                    // What decoded before the bad block is text like any other (docs/mapping.md).
                    guard step.produced > 0 else { throw corrupt(reason) }
                    place = .failed(corrupt(reason))
                    return step.produced
                }
                if step.unitEnded { place = .beforeUnit(first: false) }
                if step.produced > 0 { return step.produced }
                if case .inUnit = place, input.available == 0, input.isAtEnd {
                    throw DecompressionError.truncated(Decoder.format, path: path, empty: false)
                }
            }
        }
    }

    private func corrupt(_ reason: String) -> DecompressionError {
        DecompressionError.corrupt(Decoder.format, path: path, reason: reason)
    }
}

/// One compressed format's decoder, driven by `FramedByteSource`, which owns the units' order
/// and the errors about them.
protocol FrameDecoder: AnyObject {
    /// How messages name the format: `gzip`.
    static var format: String { get }
    /// What the format calls a unit: `member`.
    static var unit: String { get }
    /// The bytes that tell a unit's start.
    static var magicCount: Int { get }

    init(path: String) throws

    /// Whether the input's bytes (at least `magicCount`) start a unit.
    func startsUnit(_ input: CompressedInput) -> Bool
    /// Readies the decoder for a unit after the first.
    func reset()
    /// Decodes what it can of the input into `buffer`, consuming what it read. Throws only what
    /// is no fault of the data (out of memory).
    func decode(_ input: CompressedInput, into buffer: UnsafeMutableRawBufferPointer) throws -> DecodeStep
}

/// What one `FrameDecoder.decode` did.
struct DecodeStep {
    /// Bytes of text written to the buffer.
    var produced: Int
    /// Whether the unit ended, checks passed and all of its text handed out.
    var unitEnded = false
    /// Why the data is corrupt, in the library's words, if it is.
    var corruption: String?
}
