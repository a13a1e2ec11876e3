import Foundation
import SeederTestSupport
import Testing

/// The summary's `skipped` column and the report's counts of what a source skipped.
struct SkippedCountTests {
    @Test func countsSkippedElementsAndNullsInTheSummaryAndTheReport() async throws {
        let scratch = try Workspace(directories: ["dumps"])
        try scratch.write(
            "friends.yaml",
            """
            seeder: 1
            entities:
              Friend:
                attributes: { id: integer }
              Tag:
                attributes: { id: integer }
            sources:
              - { path: users.json, entity: Friend, keyPath: friend }
              - { path: tags.json, entity: Tag }
            """)
        try scratch.write("dumps/users.json", #"[{"friend": {"id": 1}}, {"id": 2}, {"friend": null}, {}]"#)
        try scratch.write("dumps/tags.json", "[1, 2]")
        let run = try await seeder(["build", "friends.yaml", "dumps", "--report", "report.json"], in: scratch.root)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(
            run.stdout == """
                entity  records  rows  merged  conflicts  references  dropped  skipped
                Friend        1     1       0          0           0        0        3
                Tag           2     2       0          0           0        0        0
                wrote friends.sqlite

                """)
        let report = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: scratch.root + "/report.json"))) as? [String: Any])
        let entities = try #require(report["entities"] as? [[String: Any]])
        #expect(entities.map { $0["nullsSkipped"] as? Int } == [1, 0])
        #expect(entities.map { $0["elementsSkipped"] as? Int } == [2, 0])
        // Without anything skipped, the summary is as it was.
        try scratch.write("dumps/users.json", #"[{"friend": {"id": 1}}]"#)
        let plain = try await seeder(["build", "friends.yaml", "dumps"], in: scratch.root)
        #expect(plain.stdout.hasPrefix("entity  records  rows  merged  conflicts  references  dropped\n"), "\(plain.stdout)")
    }
}
