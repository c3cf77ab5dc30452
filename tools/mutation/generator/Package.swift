// swift-tools-version: 6.1
// simrun's mutant generator (tools/mutation/generate.py runs it): parses the verdict-deciding files
// with swift-syntax and prints one mutant per line. A package of its own, so simrun's own package
// never depends on swift-syntax.
import PackageDescription

let package = Package(
    name: "simrun-mutants",
    platforms: [.macOS(.v15)],
    dependencies: [
        // Any of the releases this project's machines carry (600.0.1, 602.0.0, 603.0.1).
        .package(url: "https://github.com/swiftlang/swift-syntax", "600.0.1"..<"604.0.0")
    ],
    targets: [
        .executableTarget(
            name: "simrun-mutants",
            dependencies: [
                .product(name: "SwiftSyntax", package: "swift-syntax"),
                .product(name: "SwiftParser", package: "swift-syntax"),
            ]
        )
    ],
    swiftLanguageModes: [.v6]
)
