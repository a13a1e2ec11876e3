import Foundation
import SeederTestSupport
import Testing

@testable import SeederInfer

/// The grouping stage at a real service's size (docs/commands.md, `seeder infer`, Rules): a
/// folder of thousands of one-record files, named by slug or by number, is one group, found by
/// work that grows with the files, not with their square.
struct InferGroupingTests {
    /// A slug made of letters only (`0` -> `a`, `27` -> `bb`): names that are no numbers.
    static func slug(_ number: Int) -> String {
        var number = number
        var letters = ""
        repeat {
            letters.append(Character(Unicode.Scalar(UInt8(ascii: "a") + UInt8(number % 26))))
            number /= 26
        } while number > 0
        return letters
    }

    /// 3,000 records of `things/`, most named by slug, some by slugs with digits (`mega-1`,
    /// `mega-2`, numbered files by their names alone): one source, `things/*.json`, one entity
    /// `Thing`, and no more than two path tests a file. Handing each group its files by looking
    /// every file up in the group's list cost 4.5 million for this folder.
    @Test func aFolderOfThousandsOfRecordsIsOneGroupFoundInLinearWork() throws {
        let workspace = try Workspace()
        let count = 3_000
        for index in 0..<count {
            let name = index % 100 == 0 ? "mega-\(index)" : "thing-" + Self.slug(index)
            try workspace.write("dumps/things/\(name).json", #"{"id": \#(index), "name": "\#(name)", "weight": \#(index % 7)}"#)
        }
        let report = MappingInferrer.infer(InferOptions(dumps: workspace.path("dumps")))
        #expect(report.outcome == .success, "\(report.diagnostics.map(\.description))")
        let draft = try #require(report.draft)
        #expect(draft.contains("  - path: things/*.json"), "\(draft.prefix(2_000))")
        #expect(report.mapping?.entities.map(\.name) == ["Thing"], "\(draft.prefix(2_000))")
        #expect(report.mapping?.sources.count == 1)
        #expect(report.records == count)
        #expect(report.pathTests <= 2 * count, "\(report.pathTests) path tests for \(count) files")
    }
}
