// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "seeder",
    platforms: [.macOS(.v13)],
    products: [
        .library(name: "SeederCore", targets: ["SeederCore"]),
    ],
    dependencies: [
        .package(url: "https://github.com/jpsim/Yams.git", from: "6.2.2"),
    ],
    targets: [
        // The mapper: YAML -> Mapping, dump bytes -> JSON values -> Records. No SQLite, no CLI.
        .target(
            name: "SeederCore",
            dependencies: [.product(name: "Yams", package: "Yams")]
        ),
        // Measures the JSON reader alone on a generated dump (see bench/README.md).
        .executableTarget(
            name: "seeder-json-bench",
            dependencies: ["SeederCore"],
            path: "bench/json-reader"
        ),
        .testTarget(
            name: "SeederCoreTests",
            dependencies: ["SeederCore"]
        ),
    ]
)
