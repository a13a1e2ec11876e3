import Foundation
import Testing

/// Compares `text` with the snapshot `name` in `directory`. With `RECORD_SNAPSHOTS=1` it writes
/// the snapshot instead, and the test fails all the same: a recording run must never pass for a
/// checking one (as swift-argument-parser's `assertSnapshot` does).
public func assertSnapshot(
    _ text: String, named name: String, in directory: String,
    recording: Bool = ProcessInfo.processInfo.environment["RECORD_SNAPSHOTS"] != nil,
    sourceLocation: SourceLocation = #_sourceLocation
) throws {
    let path = directory + "/\(name).txt"
    if recording {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        Issue.record(
            "recorded snapshot \(name) to \(path); run the tests without RECORD_SNAPSHOTS to check it", sourceLocation: sourceLocation)
        return
    }
    let expected = try String(contentsOfFile: path, encoding: .utf8)
    #expect(text == expected, "snapshot \(name) differs; rerun with RECORD_SNAPSHOTS=1 to record it", sourceLocation: sourceLocation)
}
