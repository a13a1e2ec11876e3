import Foundation
import SeederTestSupport
import Testing

/// The snapshot check itself: a recording run writes the snapshot and fails, so that a run with
/// `RECORD_SNAPSHOTS` set can never pass for a checking one.
struct SnapshotTests {
    @Test func recordingWritesTheSnapshotAndFails() throws {
        let workspace = try Workspace()
        withKnownIssue("a recording run fails the test that recorded") {
            try assertSnapshot("recorded\n", named: "example", in: workspace.root, recording: true)
        }
        #expect(try String(contentsOfFile: workspace.path("example.txt"), encoding: .utf8) == "recorded\n")
        try assertSnapshot("recorded\n", named: "example", in: workspace.root, recording: false)
        withKnownIssue("a different text fails") {
            try assertSnapshot("changed\n", named: "example", in: workspace.root, recording: false)
        }
    }
}
