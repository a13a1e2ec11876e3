import Foundation

/// A scratch directory of a test's own, removed when the test ends.
public final class Workspace: Sendable {
    /// The directory's absolute path.
    public let root: String

    /// A new empty directory in the temporary directory, with `directories` made in it.
    public init(directories: [String] = []) throws {
        root = NSTemporaryDirectory() + "seeder-test-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        for directory in directories {
            try FileManager.default.createDirectory(atPath: root + "/" + directory, withIntermediateDirectories: true)
        }
    }

    deinit { try? FileManager.default.removeItem(atPath: root) }

    /// The absolute path of `name` in the directory.
    public func path(_ name: String) -> String { root + "/" + name }

    /// Writes `text` to `name`, making the directories it is in.
    public func write(_ name: String, _ text: String) throws {
        try write(name, Data(text.utf8))
    }

    /// Writes `bytes` to `name`, making the directories it is in.
    public func write(_ name: String, _ bytes: Data) throws {
        let url = URL(fileURLWithPath: path(name))
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try bytes.write(to: url)
    }

    /// The names in the directory, sorted.
    public var files: [String] { (try? FileManager.default.contentsOfDirectory(atPath: root).sorted()) ?? [] }
}
