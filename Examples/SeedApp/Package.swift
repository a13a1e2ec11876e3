// swift-tools-version:6.0
import PackageDescription

// An app package whose seed is built with it by seeder's plugin (docs/guides/swiftpm-plugin.md):
// `Sources/SeedApp/tasklist.seeder.yaml` and its dumps `Sources/SeedApp/tasklist/` become
// `tasklist.sqlite` in the app's bundle, and `room.seeder.yaml` with `room/` and the Room schema
// it names in `schemas/` becomes `room.sqlite`. seeder is found by path here; an app names its URL.
let package = Package(
    name: "SeedApp",
    platforms: [.macOS(.v13)],
    dependencies: [.package(name: "seeder", path: "../..")],
    targets: [
        .executableTarget(
            name: "SeedApp",
            dependencies: ["CSQLite3", .product(name: "SeedInstaller", package: "seeder")],
            // The dumps and the schema are the plugin's inputs, not the app's resources.
            exclude: ["tasklist", "room", "schemas"],
            plugins: [.plugin(name: "SeederPlugin", package: "seeder")]
        ),
        // The system's SQLite, to read the installed seed.
        .systemLibrary(name: "CSQLite3", path: "Sources/CSQLite3", providers: [.apt(["libsqlite3-dev"])]),
    ]
)
