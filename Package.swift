// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "seeder",
    platforms: [.macOS(.v13)],
    products: [
        .library(name: "SeederCore", targets: ["SeederCore"]),
        .library(name: "SeederFiles", targets: ["SeederFiles"]),
        .library(name: "SeederStore", targets: ["SeederStore"]),
        // For the fuzz package (fuzz/README.md): `FetchResponseFuzzing` is its one public entry.
        .library(name: "SeederFetch", targets: ["SeederFetch"]),
        // For apps: installs a seed in the app's working copy, or patches it (docs/guides/updating-an-installed-seed.md).
        .library(name: "SeedInstaller", targets: ["SeedInstaller"]),
        // Builds an app target's `NAME.seeder.yaml` into `NAME.sqlite` in its bundle
        // (docs/guides/swiftpm-plugin.md).
        .plugin(name: "SeederPlugin", targets: ["SeederPlugin"]),
    ],
    // Exact versions: the tool is built from the same code on every machine. (Package.resolved
    // is not committed: the package mirror seeder is built from in CI has commit ids of its own,
    // which a pin file would carry to every other machine.)
    dependencies: [
        .package(url: "https://github.com/jpsim/Yams.git", exact: "6.2.2"),
        .package(url: "https://github.com/groue/GRDB.swift.git", exact: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", exact: "1.8.2"),
    ],
    targets: [
        // The mapping and the mapper: YAML -> Mapping, dump bytes (plain, .gz, .zst) -> JSON values
        // -> Records; digests. No SQLite, no files written, no CLI.
        .target(
            name: "SeederCore",
            dependencies: ["CZlib", "CZstd", "CPCRE2", "CSHA", .product(name: "Yams", package: "Yams")]
        ),
        // SHA-256 (on the processor's SHA extensions where it has them) and MD5, in C: the
        // digests of a seed's provenance and a fetch's manifest.
        .target(name: "CSHA"),
        // The system's zlib and libzstd, which decompress `.gz` and `.zst` dumps as they are read.
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"]), .brew(["zlib"])]),
        .systemLibrary(name: "CZstd", pkgConfig: "libzstd", providers: [.apt(["libzstd-dev"]), .brew(["zstd"])]),
        // The system's PCRE2, which reads `match:` patterns (docs/mapping.md, Values inside text):
        // chosen by measurement over Swift's Regex and NSRegularExpression (bench/README.md).
        .systemLibrary(name: "CPCRE2", pkgConfig: "libpcre2-8", providers: [.apt(["libpcre2-dev"]), .brew(["pcre2"])]),
        // The files, without SQLite: which dump files a build reads and how each is opened
        // (decompressed, hashed); the guards and atomic writes of every file a command writes.
        .target(name: "SeederFiles", dependencies: ["SeederCore"]),
        // `seeder infer`: dump files (read through the build's own input planning) -> what their
        // records' shapes say -> a draft mapping. Its own module, so the mapper's module holds the
        // mapper (docs/commands.md, infer).
        .target(name: "SeederInfer", dependencies: ["SeederCore", "SeederFiles"]),
        // The commands' work in SQLite, as values the CLI prints: the dumps read into records and
        // encoded as the rows the seed's tables take (on their own thread), the rows merged in
        // those tables, references, the seed file finished and published; diff, changesets,
        // patch, inspect; whether an existing output is a seed.
        .target(
            name: "SeederStore",
            dependencies: [
                "SeederCore",
                "SeederFiles",
                .product(name: "GRDB", package: "GRDB.swift"),
                // The C API, for hot loops on the raw statement handle.
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                "CSQLite",
                "SeedInstaller",
            ]
        ),
        // The build-tool plugin: `seeder build` for each mapping of an app's target.
        .plugin(name: "SeederPlugin", capability: .buildTool(), dependencies: ["seeder"]),
        // What an app links to install or patch its copy of a seed: SQLite and nothing else.
        .target(name: "SeedInstaller", dependencies: ["CSQLite"]),
        // The system SQLite's C API with its session extension declared (changesets), and
        // `sqlite3_db_config`, variadic in C and so out of Swift's reach: the switch that keeps an
        // app's triggers from running while seeder fills its tables.
        .target(name: "CSQLite", linkerSettings: [.linkedLibrary("sqlite3")]),
        // `seeder fetch`: a mapping's `fetch:` blocks -> the dump files its sources read (HTTP,
        // paginators, the manifest). Its own module, so the builder never links an HTTP client.
        .target(
            name: "SeederFetch",
            dependencies: [
                "SeederCore",
                "CCurl",
            ]
        ),
        // The system's libcurl (HTTP/1.1 and 2, TLS, proxies, decompression), opened by
        // `seeder fetch` when it starts, not linked: the other commands run without it
        // (docs/install.md). Building needs its header (libcurl4-openssl-dev).
        .target(name: "CCurl", linkerSettings: [.linkedLibrary("dl")]),
        // The command: a thin shell over SeederFiles, SeederStore and SeederFetch.
        .executableTarget(
            name: "seeder",
            dependencies: [
                "SeederFiles",
                "SeederInfer",
                "SeederStore",
                "SeederFetch",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // The benchmark datasets, the JSON reader measured alone, and the paged API that `seeder
        // fetch` is timed against (see bench/README.md).
        .executableTarget(
            name: "seeder-bench",
            dependencies: ["SeederCore", "SeedInstaller", "SeederTestServer"],
            path: "bench/generate"
        ),
        // What the test targets share: scratch directories, snapshots, valid mappings.
        .target(
            name: "SeederTestSupport",
            dependencies: ["SeederCore"],
            path: "Tests/SeederTestSupport"
        ),
        // An HTTP/1.1 server on 127.0.0.1 for the tests of `seeder fetch` and for
        // `seeder-bench serve`: a handler per request, recorded requests, injected faults.
        // Plain sockets and threads, no HTTP library: the server must say exactly what a test
        // gives it, faults included.
        .target(name: "SeederTestServer", dependencies: ["SeederTestSupport"], path: "Tests/SeederTestServer"),
        // The server over real TCP, read byte for byte by a socket client of its own.
        .testTarget(
            name: "SeederTestServerTests",
            dependencies: ["SeederTestServer", "SeederTestSupport"]
        ),
        .testTarget(
            name: "SeederCoreTests",
            // Yams: the mapping's scalars parsed as the loader parses them (`YAMLNodeTests`).
            dependencies: ["SeederCore", "SeederTestSupport", .product(name: "Yams", package: "Yams")]
        ),
        // `seeder infer`'s drafts, built by the real builder.
        .testTarget(
            name: "SeederInferTests",
            dependencies: ["SeederInfer", "SeederFiles", "SeederStore", "SeederTestSupport", .product(name: "GRDB", package: "GRDB.swift")]
        ),
        .testTarget(
            name: "SeederStoreTests",
            dependencies: ["SeederFiles", "SeederStore", "SeederTestSupport", "CSQLite", .product(name: "GRDB", package: "GRDB.swift")]
        ),
        // `seeder fetch`'s parts: templates and secrets, links, paginators, requests, the manifest.
        .testTarget(
            name: "SeederFetchTests",
            dependencies: ["SeederFetch", "SeederTestSupport", "SeederTestServer"]
        ),
        // Installs, replaces and patches seeds built by SeederStore, checked through GRDB; CSQLite
        // reads and writes changesets the writer would not make.
        .testTarget(
            name: "SeedInstallerTests",
            dependencies: [
                "SeedInstaller", "SeederStore", "SeederTestSupport", "CSQLite", .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        // Runs the built `seeder` binary on the examples in mappings/ and seeds/.
        .testTarget(
            name: "SeederCLITests",
            dependencies: [
                "seeder", "seeder-bench", "SeederFiles", "SeederStore", "SeederTestSupport", "SeederTestServer", "CSQLite",
                .product(name: "GRDB", package: "GRDB.swift"),
                // action.yml, read as GitHub reads it.
                .product(name: "Yams", package: "Yams"),
            ],
            // Read by path from the source tree, not bundled.
            exclude: ["Fixtures", "Snapshots"]
        ),
    ]
)
