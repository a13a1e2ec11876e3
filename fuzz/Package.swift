// swift-tools-version:6.0
// The fuzz targets (fuzz/README.md): libFuzzer executables over SeederCore, SeederFetch and
// SeederStore, built by `fuzz/run` with libFuzzer and the address sanitizer. A package of its
// own, so the sanitizers and libFuzzer's `main` never touch the main package's builds.
import PackageDescription

let package = Package(
    name: "seeder-fuzz",
    platforms: [.macOS(.v13)],
    dependencies: [.package(name: "seeder", path: "..")],
    targets: [
        // What each target does with its bytes: a link to Tests/SeederCoreTests/FuzzTargets,
        // which the tests compile too, to replay the corpus.
        .target(name: "FuzzTargets", dependencies: [.product(name: "SeederCore", package: "seeder")]),
        .executableTarget(name: "fuzz-json", dependencies: ["FuzzTargets"]),
        .executableTarget(name: "fuzz-mapping", dependencies: ["FuzzTargets"]),
        .executableTarget(name: "fuzz-mapper", dependencies: ["FuzzTargets"]),
        // The HTTP response: its body is SeederFetch's own (FetchResponseFuzzing), which the
        // fetch tests replay the corpus through.
        .executableTarget(name: "fuzz-fetch", dependencies: [.product(name: "SeederFetch", package: "seeder")]),
        // A seed file: read by SeederStore's own `SeedFileFuzzing`, as `inspect` and `diff` read
        // one, which the store's tests replay the corpus through.
        .executableTarget(name: "fuzz-seed", dependencies: [.product(name: "SeederStore", package: "seeder")]),
    ]
)
