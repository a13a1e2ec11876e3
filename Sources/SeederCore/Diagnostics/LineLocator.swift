/// Turns byte offsets in a file into 1-based lines and columns, in one pass over the file.
///
/// Columns count Unicode scalars (as libyaml's marks do), so a column is the same whether an
/// editor counts characters or the YAML parser does. A UTF-8 byte-order mark at the start of
/// the file is not counted.
public enum LineLocator {
    /// The line and column of each offset; offsets past the end are placed at the end.
    public static func locate(_ offsets: [Int], in source: ByteSource) throws -> [Int: SourceLocation.Position] {
        var result: [Int: SourceLocation.Position] = [:]
        let sorted = Array(Set(offsets)).sorted()
        guard !sorted.isEmpty else { return result }
        var next = 0
        var line = 1
        var column = 1
        var fileOffset = 0
        var atStart = true
        var bomBytesLeft = 0
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 8)
        defer { chunk.deallocate() }
        while next < sorted.count {
            let count = try source.read(into: chunk)
            if count == 0 { break }
            if atStart {
                atStart = false
                if count >= 3, chunk[0] == 0xEF, chunk[1] == 0xBB, chunk[2] == 0xBF { bomBytesLeft = 3 }
            }
            for index in 0..<count {
                while next < sorted.count, sorted[next] == fileOffset {
                    result[sorted[next]] = .lineColumn(line: line, column: column)
                    next += 1
                }
                if next == sorted.count { break }
                let byte = chunk[index]
                if bomBytesLeft > 0 {
                    bomBytesLeft -= 1
                } else if byte == UInt8(ascii: "\n") {
                    line += 1
                    column = 1
                } else if byte & 0xC0 != 0x80 {
                    column += 1
                }
                fileOffset += 1
            }
        }
        while next < sorted.count {
            result[sorted[next]] = .lineColumn(line: line, column: column)
            next += 1
        }
        return result
    }
}
