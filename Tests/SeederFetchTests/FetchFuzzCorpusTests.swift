import Foundation
import Testing

@testable import SeederCore
@testable import SeederFetch

/// Every input in fuzz/corpus/fetch replayed through the fetch fuzz target's body, without the
/// sanitizers: a crash the fuzzer once found stays fixed (fuzz/README.md).
struct FetchFuzzCorpusTests {
    static let corpus = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("fuzz/corpus/fetch")

    static func files() throws -> [URL] {
        try FileManager.default.contentsOfDirectory(at: corpus, includingPropertiesForKeys: nil)
            .filter { !$0.lastPathComponent.hasPrefix(".") }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
    }

    /// The target's body blocks while the sender's task runs: off the tasks' threads.
    static func onAThread<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread { continuation.resume(returning: body()) }
        }
    }

    @Test func replaysTheCorpus() async throws {
        let files = try Self.files()
        #expect(files.count >= 10, "fuzz/corpus/fetch holds \(files.count) files")
        for file in files {
            let bytes = try [UInt8](Data(contentsOf: file))
            let problems = await Self.onAThread { FetchResponseFuzzing.run(bytes) }
            #expect(problems == [], "fuzz/corpus/fetch/\(file.lastPathComponent)")
        }
    }

    /// The seeds reach past the parts they are for: the sender, the pages after the first, the
    /// manifest.
    @Test func theSeedsReachTheirParts() async throws {
        func transcript(_ name: String) async throws -> [String] {
            let bytes = try [UInt8](Data(contentsOf: Self.corpus.appendingPathComponent(name)))
            return await Self.onAThread { FetchResponseFuzzing.outcome(bytes).transcript }
        }
        #expect(try await transcript("github-link.txt").contains("next https://api.github.com/repositories/1/issues?page=2"))
        #expect(try await transcript("marvel-offset-total.txt").contains("remaining 4"))
        #expect(try await transcript("stripe-has-more.txt").contains("next cus_2"))
        let retried = try await transcript("retry-after-1.txt")
        #expect(retried.contains { $0.hasPrefix("not sent: GET") && $0.contains("gave up after # attempts") })
        #expect(try await transcript("manifest.txt").contains { $0.hasPrefix("manifest s3p1/0001.json: ") })
    }

    /// The checks report what they are for: a URL of another scheme, a failure without a message,
    /// a POST body that is not JSON.
    @Test func theChecksReportBrokenInvariants() throws {
        #expect(!FetchResponseFuzzing.isHTTP("ftp://x/y"))
        #expect(FetchResponseFuzzing.isHTTP("HTTPS://x/y"))
        let location = SourceLocation(file: "mapping.yaml")
        #expect(FetchResponseFuzzing.check(FetchFailure.data(.shape, "", at: location), "here") == ["here: a failure without a message"])
        let source = FetchResponseFuzzing.Setup.shared.sources[5]
        var request = try RequestPlan(
            spec: source.fetch!, defaults: FetchDefaults(), variables: FetchResponseFuzzing.Setup.shared.variables
        )
        .request(.request(query: [], bodyCursor: nil), parent: nil, location: location)
        request.body = Array("{".utf8)
        #expect(FetchResponseFuzzing.checkRequest(request, spec: source.fetch!).count == 2)
        #expect(FetchResponseFuzzing.split(Array("\u{1}HTTP/1.1 200 OK\r\n\r\n[]".utf8)).body == Array("[]".utf8))
        #expect(FetchResponseFuzzing.status(ofHead: "HTTP/2 429\r\nRetry-After: 1\r\n\r\n") == 429)
    }
}
