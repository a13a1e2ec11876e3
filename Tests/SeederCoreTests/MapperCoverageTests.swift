import Testing

@testable import SeederCore

/// The mapper's account of keys (docs/mapping.md, Unmapped keys and keys that match nothing),
/// gathered per key layout: what one layout found stays found, whatever the layouts after it.
struct MapperCoverageTests {
    func coverage(_ mapper: Mapper) -> [String] {
        let sink = DiagnosticSink()
        mapper.reportCoverage(to: sink)
        return sink.diagnostics.map(\.description)
    }

    static let articles = """
        seeder: 1
        entities:
          Article:
            ignore: [etag]
            attributes:
              id: integer
              bodyText: string
              title: string
              author: { type: string, from: meta.author }
              views: { type: integer, default: 0 }
            relationships:
              tags: { to: Tag, many: true }
          Tag:
            attributes: { id: integer }
        """

    @Test func keepsWhatAnyLayoutFoundAndCountsTheRecords() throws {
        // Four layouts, in turn: each key is found by one of them only, and the first layout
        // comes back after the others.
        let json = """
            [{"id": 1, "body_text": "a", "etag": "x"},
             {"title": null, "id": 2},
             {"id": 3, "meta": {"author": "b"}, "tag_ids": []},
             {"id": 4, "body_text": "c", "etag": "y"}]
            """
        let (records, diagnostics, mapper) = try mapRecords(Self.articles, json, entity: "Article")
        #expect(diagnostics == [])
        #expect(records.count == 4)
        #expect(mapper.recordCount(of: 0) == 4)
        #expect(mapper.recordCount(of: 1) == 0)
        #expect(coverage(mapper) == ["mapping.yaml:13:3: warning: Tag got no record from any source"])
    }

    @Test func reportsWhatNoLayoutFound() throws {
        let json = """
            [{"id": 1, "bodytext": "a", "meta": {"autor": "b"}, "tag": [1]},
             {"id": 2, "meta": null, "titel": "t"}]
            """
        let (_, _, mapper) = try mapRecords(Self.articles, json, entity: "Article")
        #expect(mapper.unmappedKeys(of: 0) == ["tag", "titel"])
        #expect(
            coverage(mapper) == [
                "mapping.yaml:3:3: warning: 2 keys are never mapped: Article.tag, Article.titel",
                "mapping.yaml:8:7: warning: Article.title: 'title' matched no key in 2 records (did you mean 'titel'?)",
                "mapping.yaml:9:7: warning: Article.author: 'meta.author' matched no key in 2 records",
                "mapping.yaml:12:7: warning: Article.tags: 'tags', 'tag_ids' or 'tags_ids' matched no key in 2 records (did you mean 'tag'?)",
                "mapping.yaml:4:14: warning: Article: ignored key 'etag' occurs in no record (did you mean 'tag'?)",
                "mapping.yaml:13:3: warning: Tag got no record from any source",
            ])
    }

    /// An ignored key near one the mapping reads, or ignores already, is an entry to remove: no
    /// suggestion to ignore that key, which would be an error.
    @Test func anIgnoredKeyNearAMappedOneIsToBeRemoved() throws {
        let mapping = Self.articles.replacingOccurrences(of: "ignore: [etag]", with: "ignore: [etag, etags, titl]")
        let (_, _, mapper) = try mapRecords(mapping, #"[{"id": 1, "body_text": "a", "title": "t", "etag": "x"}]"#, entity: "Article")
        #expect(
            coverage(mapper).filter { $0.contains("ignored key") } == [
                "mapping.yaml:4:20: warning: Article: ignored key 'etags' occurs in no record; 'etag', near it, is in 'ignore' already: remove the entry",
                "mapping.yaml:4:27: warning: Article: ignored key 'titl' occurs in no record; 'title', near it, is read by the mapping: remove the entry",
            ])
    }
}
