import Foundation
import SeederTestSupport
import Testing

/// Outputs and reports named by one character in the current directory (`-o a`, `--report r`)
/// are written like any other: Foundation's own path splitting traps on such names.
struct ShortPathTests {
    @Test func writesAnOutputAndAReportOfOneCharacter() async throws {
        let scratch = try CommandTests.tasklist()
        let build = try await seeder(["build", "tasklist.yaml", "dumps", "-o", "a", "--report", "r", "-q"], in: scratch.root)
        #expect(build.status == 0, "\(build.stderr)")
        #expect(build.stderr == "")
        #expect(FileManager.default.fileExists(atPath: scratch.path("a")))
        let report = try String(contentsOfFile: scratch.path("r"), encoding: .utf8)
        #expect(report.contains("\"outcome\":\"success\""), "\(report)")
        let validate = try await seeder(["validate", "tasklist.yaml", "dumps", "--report", "v"], in: scratch.root)
        #expect(validate.status == 0, "\(validate.stderr)")
        #expect(FileManager.default.fileExists(atPath: scratch.path("v")))
    }
}
