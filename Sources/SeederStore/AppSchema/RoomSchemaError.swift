import SeederCore
import SeederFiles

/// A Room schema file that seeder cannot use: which file, where in it, and what is wrong.
package struct RoomSchemaError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The schema file, as given.
    package var path: String
    /// 1-based line and column of the problem; `nil` when it concerns the file as a whole.
    package var line: Int?
    package var column: Int?
    /// What is wrong (`/database/entities/2/fields/0/affinity is missing`).
    package var message: String

    /// A problem with the file as a whole (it cannot be read).
    package init(path: String, message: String) {
        self.path = path
        self.message = message
    }

    /// A problem at byte `offset` of `bytes`, the file's text.
    init(path: String, offset: Int, in bytes: [UInt8], message: String) {
        self.path = path
        self.message = message
        if case let .lineColumn(line, column)? = (try? LineLocator.locate([offset], in: MemoryByteSource(bytes)))?[offset] {
            self.line = line
            self.column = column
        }
    }

    /// `path:line:col: message`, as a compiler says it.
    package var description: String {
        guard let line, let column else { return "\(path): \(message)" }
        return "\(path):\(line):\(column): \(message)"
    }
}
