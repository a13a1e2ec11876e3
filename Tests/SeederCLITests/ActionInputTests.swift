import Foundation
import SeederTestServer
import SeederTestSupport
import Testing

/// The action's hostile inputs (docs/ci.md, What the action checks): each refused with its
/// message before any is used, and nothing written to GITHUB_OUTPUT or GITHUB_PATH; paths that
/// start with '-' taken as paths; the tarball installed only when it matches its published SHA-256.
extension ActionTests {
    /// A server of the release (the tarball and `checksum`, or none) and a previous seed.
    static func releaseServer(tarball: Box<[UInt8]>, checksum: Box<[UInt8]?>, previous: Box<[UInt8]> = Box([])) -> TestHTTPServer.Handler {
        { request in
            if request.path == "/previous.sqlite" { return .bytes(previous.value, contentType: "application/vnd.sqlite3") }
            guard request.path.hasPrefix("/seeder-org/seeder/releases/download/v0.1.0/") else { return .status(404) }
            if request.path.hasSuffix(".tar.gz") { return .bytes(tarball.value, contentType: "application/gzip") }
            if request.path.hasSuffix(".tar.gz.sha256"), let sum = checksum.value { return .bytes(sum, contentType: "text/plain") }
            return .status(404)
        }
    }

    /// Runs the action with `inputs` against a server of the tests' release, its checksum as
    /// `scripts/release` writes it unless `checksum` changes it.
    static func runWithRelease(
        _ inputs: [String: String], checksum change: @escaping @Sendable (_ written: String) -> String? = { $0 },
        prepare: @escaping (Workspace) async throws -> Void = { _ in }
    ) async throws -> (Outcome, Workspace) {
        let tarball = Box<[UInt8]>([])
        let checksum = Box<[UInt8]?>(nil)
        let previous = Box<[UInt8]>([])
        return try await TestHTTPServer.with(Self.releaseServer(tarball: tarball, checksum: checksum, previous: previous)) { server in
            let (scratch, bytes, sum) = try await Self.repositoryLayout(server: server)
            tarball.value = bytes
            checksum.value = change(String(decoding: sum, as: UTF8.self)).map { Array($0.utf8) }
            try await prepare(scratch)
            if FileManager.default.fileExists(atPath: scratch.path("previous.sqlite")) {
                previous.value = try [UInt8](Data(contentsOf: URL(fileURLWithPath: scratch.path("previous.sqlite"))))
            }
            return (try await Self.runAction(inputs, in: scratch, server: server, cached: false), scratch)
        }
    }

    static let required = ["mapping": "mappings/app.yaml", "dumps": "dumps", "artifact": ""]

    /// What an output upload-artifact's `path:` would read as a pattern is refused with.
    static let outputPattern =
        "::error::seeder: the input 'output' is read as a pattern by upload-artifact (a *, ?, [, ], {, } or \\; a leading !, # or ~; white space at either end): give the seed's plain path"

    /// The issue's own: an output with a line feed and a second `seed=` after it.
    @Test(arguments: ["mapping", "dumps", "output", "version", "fetch", "diff-against", "artifact", "strict", "releases"])
    func refusesALineBreakInAnyInput(input: String) async throws {
        for value in ["x.sqlite\nseed=elsewhere.sqlite", "x.sqlite\r::warning::forged"] {
            let (run, scratch) = try await Self.runWithRelease(Self.required.merging([input: value]) { $1 })
            #expect(run.failedStep == "inputs")
            #expect(run.stdout == "::error::seeder: the input '\(input)' holds a line break: every input is one line\n", "\(run.stderr)")
            #expect(run.outputFile == "" && run.pathFile == "" && !run.installed)
            #expect(!FileManager.default.fileExists(atPath: scratch.path("toolcache/seeder")))
        }
    }

    /// Each input of a fixed form, checked up front: every problem said, none used.
    @Test(arguments: [
        ("version", "0.1.0/../../x", "::error::seeder: the input 'version' is not a release's version like 1.2.3 or 1.2.3-rc.1"),
        ("fetch", "yes", "::error::seeder: the input 'fetch' is 'true' or 'false'"),
        ("strict", "TRUE", "::error::seeder: the input 'strict' is 'true' or 'false'"),
        ("output", "", "::error::seeder: the input 'output' is empty: give a path"),
        (
            "releases", "http://github.test/seeder-org/seeder/releases/download",
            "::error::seeder: the input 'releases' is an https:// URL: the tarball and its checksum are downloaded over https only"
        ),
        (
            "releases", "file:///tmp/releases",
            "::error::seeder: the input 'releases' is an https:// URL: the tarball and its checksum are downloaded over https only"
        ),
        (
            "releases", "HTTPS://github.test/x",
            "::error::seeder: the input 'releases' is an https:// URL: the tarball and its checksum are downloaded over https only"
        ),
        (
            "diff-against", "http://github.test/previous.sqlite",
            "::error::seeder: the input 'diff-against' is a path or an https:// URL: a previous seed is downloaded over https only"
        ),
        (
            "diff-against", "file:previous.sqlite",
            "::error::seeder: the input 'diff-against' is a path or an https:// URL: a previous seed is downloaded over https only"
        ),
        ("output", "*.sqlite", Self.outputPattern),
        ("output", "seed?.sqlite", Self.outputPattern),
        ("output", "seed[1].sqlite", Self.outputPattern),
        ("output", "seed].sqlite", Self.outputPattern),
        ("output", "{a,b}.sqlite", Self.outputPattern),
        ("output", "seed}.sqlite", Self.outputPattern),
        ("output", "!seed.sqlite", Self.outputPattern),
        ("output", "#seed.sqlite", Self.outputPattern),
        ("output", "~/seed.sqlite", Self.outputPattern),
        ("output", "seeds\\a.sqlite", Self.outputPattern),
        ("output", " seed.sqlite", Self.outputPattern),
        ("output", "seed.sqlite\t", Self.outputPattern),
    ])
    func refusesAnInputOfAnotherForm(input: String, value: String, message: String) async throws {
        let (run, _) = try await Self.runWithRelease(Self.required.merging([input: value]) { $1 })
        #expect(run.failedStep == "inputs")
        #expect(run.stdout == message + "\n", "\(run.stderr)")
        #expect(run.outputFile == "" && run.pathFile == "" && !run.installed)
    }

    /// A `releases` or `diff-against` URL holding curl's globs (`{a,b}`, `[1-3]`) is one URL, as
    /// written: curl runs with `--globoff`, and nothing is fetched from the URLs a glob would make.
    @Test func takesAURLWithCurlsGlobsAsItIs() async throws {
        let requested = Box<[String]>([])
        let tarball = Box<[UInt8]>([])
        let checksum = Box<[UInt8]?>(nil)
        let serve = Self.releaseServer(tarball: tarball, checksum: checksum)
        try await TestHTTPServer.with { request in
            requested.update { $0.append(request.path) }
            return try await serve(request)
        } run: { server in
            let (scratch, bytes, sum) = try await Self.repositoryLayout(server: server)
            tarball.value = bytes
            checksum.value = sum
            let releases = Self.host + "/{seeder-org}/seeder/releases/download"
            let run = try await Self.runAction(
                Self.required.merging(["releases": releases]) { $1 }, in: scratch, server: server, cached: false)
            #expect(run.failedStep == "install")
            #expect(run.stdout.hasPrefix("::error::seeder: no checksum at \(releases)/v0.1.0/seeder-0.1.0-linux-"), "\(run.stdout)")
            #expect(run.outputFile.wholeMatch(of: #/releases-digest=[0-9a-f]{64}\n/#) != nil && run.pathFile == "")
            #expect(!FileManager.default.fileExists(atPath: scratch.path("toolcache/seeder")))
            #expect(!requested.value.contains { $0.hasPrefix("/seeder-org/") }, "\(requested.value)")

            // The previous seed, installed from the cache.
            let name = try #require(
                try FileManager.default.contentsOfDirectory(atPath: scratch.path("release")).first { !$0.hasSuffix(".gz") })
            try FileManager.default.createDirectory(atPath: scratch.path("toolcache/seeder"), withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: scratch.path("release/\(name)"), toPath: scratch.path("toolcache/seeder/0.1.0"))
            try scratch.write("dumps/users/0001.json", #"{"items": [{"id": 1, "name": "Ann"}]}"#)
            let diff = try await Self.runAction(
                Self.required.merging(["diff-against": Self.host + "/previous[1-1].sqlite", "fetch": "false"]) { $1 }, in: scratch,
                server: server, cached: true)
            #expect(diff.failedStep == "diff", "\(diff.stdout) \(diff.stderr)")
            #expect(!requested.value.contains("/previous1.sqlite"), "\(requested.value)")
        }
    }

    /// The cache key holds the SHA-256 of the releases URL: a seeder installed from a fork's
    /// releases is never restored, unchecked, for a job that installs another's.
    @Test func keysTheCacheOnTheReleasesURL() async throws {
        func key(_ releases: String?) async throws -> String? {
            let inputs = releases.map { Self.required.merging(["releases": $0]) { $1 } } ?? Self.required
            let (run, _) = try await Self.runWithRelease(inputs)
            #expect(run.failedStep != "inputs", "\(run.stdout) \(run.stderr)")
            return run.cacheKey
        }
        func sha256(_ text: String) async throws -> String {
            try await program("/bin/bash", ["-c", "printf '%s' \"$0\" | sha256sum", text]).stdout.prefix(64).description
        }
        let official = try await key(nil)
        await #expect(official == "seeder-0.1.0-Linux-X64-" + (try sha256(Self.host + "/seeder-org/seeder/releases/download")))
        #expect(try await key(Self.host + "/seeder-org/seeder/releases/download") == official)
        let fork = Self.host + "/a-fork/seeder/releases/download"
        #expect(try await key(fork) == "seeder-0.1.0-Linux-X64-" + (try sha256(fork)))
        #expect(try await key(fork) != official)
    }

    /// An input that starts with '-' is a path, never an option: `mapping: --help` fails the
    /// build (no such file), with no `seed` output; files named so build and diff.
    @Test func takesAnInputStartingWithADashAsAPath() async throws {
        let (help, _) = try await Self.runWithRelease(Self.required.merging(["mapping": "--help"]) { $1 })
        #expect(help.failedStep == "build")
        #expect(help.stdout.contains("::error file=--help,title=seeder io::cannot read the mapping file"), "\(help.stdout)")
        #expect(!help.stdout.contains("USAGE") && !help.stderr.contains("USAGE"))
        #expect(help.outputs["build"]?["seed"] == nil && !help.outputFile.contains("seed"))

        let inputs = ["mapping": "-m.yaml", "dumps": "-d", "output": "-o.sqlite", "diff-against": "--old.sqlite", "artifact": "seed"]
        let (dashes, scratch) = try await Self.runWithRelease(
            inputs,
            prepare: { scratch in
                try scratch.write("-d/users.json", #"[{"id": 1, "name": "Ann"}]"#)
                try scratch.write(
                    "-m.yaml",
                    "seeder: 1\nentities:\n  User: { attributes: { id: integer, name: string } }\nsources:\n  - { path: users.json, entity: User }\n"
                )
                #expect(
                    try await seeder(["build", "--output=--old.sqlite", "--quiet", "--", "-m.yaml", "-d"], in: scratch.root).status == 0)
            })
        #expect(dashes.failedStep == nil, "\(dashes.stdout) \(dashes.stderr)")
        #expect(dashes.outputs["build"]?["seed"] == "-o.sqlite")
        #expect(dashes.outputs["diff"]?["changed"] == "false")
        #expect(dashes.uploaded == ["-o.sqlite"])
        #expect(FileManager.default.fileExists(atPath: scratch.path("-o.sqlite")))
    }

    /// The tarball is unpacked only when it matches the SHA-256 published beside it.
    @Test(arguments: [
        (
            "0000000000000000000000000000000000000000000000000000000000000000", "mismatch",
            "does not match the SHA-256 published with it (0000000000000000000000000000000000000000000000000000000000000000, downloaded HASH); nothing installed"
        ),
        (
            "", "absent",
            "no checksum at URL.sha256: a release publishes NAME.sha256 beside the tarball (docs/install.md); nothing installed"
        ),
        ("", "another file's", "URL.sha256 is not one line '<64 hex digits>  NAME' (sha256sum's form); nothing installed"),
        ("", "two lines", "URL.sha256 is not one line '<64 hex digits>  NAME' (sha256sum's form); nothing installed"),
    ])
    func installsOnlyATarballThatMatchesItsChecksum(hash: String, kind: String, message: String) async throws {
        let (run, scratch) = try await Self.runWithRelease(Self.required) { written in
            switch kind {
            case "mismatch": return hash + written.dropFirst(64)
            case "absent": return nil
            case "another file's": return written.replacingOccurrences(of: "linux", with: "darwin")
            default: return written + written
            }
        }
        let name =
            "seeder-0.1.0-linux-\(try await program("/usr/bin/uname", ["-m"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)).tar.gz"
        let actual = try await program("/usr/bin/sha256sum", ["release/\(name)"], in: scratch.root).stdout.prefix(64)
        let url = "\(Self.host)/seeder-org/seeder/releases/download/v0.1.0/\(name)"
        let expected = message.replacingOccurrences(of: "URL", with: url).replacingOccurrences(of: "NAME", with: name)
            .replacingOccurrences(of: "HASH", with: String(actual))
        #expect(run.failedStep == "install")
        #expect(run.stdout == "::error::seeder: " + (kind == "mismatch" ? name + " " : "") + expected + "\n", "\(run.stderr)")
        // The cache key's digest of the releases URL, and nothing else.
        #expect(run.outputFile.wholeMatch(of: #/releases-digest=[0-9a-f]{64}\n/#) != nil && run.pathFile == "")
        #expect(!FileManager.default.fileExists(atPath: scratch.path("toolcache/seeder/0.1.0")))
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path("tmp")).filter { $0.hasPrefix("seeder-download") } == [])
    }
}
