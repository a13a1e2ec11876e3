import Foundation
import SeederCore

/// `DUMPS/.seeder-fetch.json`: for each file fetch wrote, what it was fetched from and what the
/// server said of it, so that the next fetch asks only for what changed (docs/commands.md,
/// fetch: Only what changed). Keys sorted, no times: the same answers give the same bytes.
public struct FetchManifest: Sendable, Equatable {
    public static let fileName = ".seeder-fetch.json"
    public static let format = 1

    public struct Entry: Sendable, Equatable {
        /// The source's `path`, as the mapping writes it.
        public var source: String
        /// The request's URL, `${NAME}`s for values.
        public var url: String
        public var etag: String?
        public var lastModified: String?
        /// The file's SHA-256 (hex) and size, as stored.
        public var sha256: String
        public var size: Int
        /// The next page's URL (`link`, `next`) or cursor, as the page gave it; `nil` on the last.
        public var next: String?
    }

    /// By file path, relative to DUMPS.
    public var files: [String: Entry] = [:]

    public init() {}

    /// The manifest in `dumps`; an empty one when there is none. One that cannot be read is
    /// reported and ignored: every page is then fetched whole.
    static func read(dumps: String) -> (manifest: FetchManifest, problem: String?) {
        let path = dumps + "/" + fileName
        guard FileManager.default.fileExists(atPath: path) else { return (FetchManifest(), nil) }
        guard let bytes = try? FileByteSource(path: path).readAll(), let document = try? JSONDocument(parsing: bytes) else {
            return (FetchManifest(), "\(path) is not a manifest fetch can read; every page is fetched whole")
        }
        var manifest = FetchManifest()
        guard document.root["format"]?.numberText == String(format), let files = document.root["files"], files.kind == .object else {
            return (FetchManifest(), "\(path) is of another format; every page is fetched whole")
        }
        var malformed: [String] = []
        for member in files.members {
            let value = member.value
            guard let name = member.key.string, let source = value["source"]?.string, let url = value["url"]?.string,
                let sha256 = value["sha256"]?.string, let size = value["size"]?.numberText.flatMap({ Int($0) })
            else {
                malformed.append(member.key.string ?? "?")
                continue
            }
            manifest.files[name] = Entry(
                source: source, url: url, etag: value["etag"]?.string, lastModified: value["lastModified"]?.string, sha256: sha256,
                size: size, next: value["next"]?.string)
        }
        guard malformed.isEmpty else {
            let named =
                malformed.prefix(5).map { JSONWriter.stringLiteral($0) }.joined(separator: ", ") + (malformed.count > 5 ? ", ..." : "")
            return (
                manifest,
                "\(path): ignoring \(malformed.count == 1 ? "an entry" : "\(malformed.count) entries") fetch cannot read (\(named)); \(malformed.count == 1 ? "its" : "their") pages are fetched whole"
            )
        }
        return (manifest, nil)
    }

    /// The manifest's text.
    var text: String {
        var json = JSONStreamWriter()
        json.object { json in
            json.member("format", Self.format)
            json.member("files") { json in
                json.object { json in
                    for name in files.keys.sorted() {
                        let entry = files[name]!
                        json.member(name) { json in
                            json.object { json in
                                json.member("source", entry.source)
                                json.member("url", entry.url)
                                if let etag = entry.etag { json.member("etag", etag) }
                                if let lastModified = entry.lastModified { json.member("lastModified", lastModified) }
                                json.member("sha256", entry.sha256)
                                json.member("size", entry.size)
                                if let next = entry.next { json.member("next", next) }
                            }
                        }
                    }
                }
            }
        }
        return json.text + "\n"
    }
}
