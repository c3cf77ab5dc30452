// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "simrun",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "simrun", targets: ["simrun"]),
        .executable(name: "simrun-example", targets: ["simrun-example"]),
        .library(name: "SimRunKit", targets: ["SimRunKit"]),
        .library(name: "SimEngine", targets: ["SimEngine"]),
        .library(name: "SimCore", targets: ["SimCore"]),
        .library(name: "SimCapture", targets: ["SimCapture"]),
        .library(name: "SimModels", targets: ["SimModels"]),
        .library(name: "SimTesting", targets: ["SimTesting"]),
        // `simrun bench --only allocations` preloads this into a child of itself to count mallocs per
        // unit on the hot paths (glibc only; elsewhere the bench says the figure is not available).
        .library(name: "SimAllocCount", type: .dynamic, targets: ["CAllocCount"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
        // The process layer (SimEngine/Isolation), on Linux and macOS alike: descriptors, reads and
        // writes (EINTR retried there, `SystemIO`) and Errno messages through swift-system.
        .package(url: "https://github.com/apple/swift-system", from: "1.8.1"),
        // `swift package generate-documentation --target SimCore` (and SimTesting): the DocC catalogs.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
        // Only the bench's baseline executable (`simrun bench --only viewmodel`): the same view model
        // under Point-Free's TestClock + withMainSerialExecutor. Never a dependency of the libraries.
        .package(url: "https://github.com/pointfreeco/swift-clocks", from: "1.1.1"),
        .package(url: "https://github.com/pointfreeco/swift-concurrency-extras", from: "1.4.3"),
    ],
    targets: [
        .systemLibrary(
            name: "CZstd",
            pkgConfig: "libzstd",
            providers: [.apt(["libzstd-dev"])]
        ),
        // The kernel (DESIGN §2): lanes, jobs, clock, strategies, decisions, events, oracles, scenarios,
        // checking. Pure Swift: no I/O, no environment, no runtime SPI. HeapModule is its one package
        // dependency: the timer queue (measured: BENCHMARKS.md).
        .target(
            name: "SimCore",
            dependencies: [.product(name: "HeapModule", package: "swift-collections")]
        ),
        // The capture of a run's process (issue #42): Swift concurrency's executors and tasks, GCD, run
        // loops, locks and threads on carriers, code symbols. Built on the kernel, which never imports
        // it; it installs the kernel's `RunHost` at load time.
        .target(
            name: "SimCapture",
            dependencies: ["SimCore", "CSimInterpose"],
            exclude: ["CSimInterpose"]
        ),
        // The one interposition layer (DESIGN §11), under SimCapture: C entry points (the clocks, …; its
        // load-time constructor installs simrun's executors first) defined in every executable and test
        // executable that links SimCapture, simulated on a run's thread, forwarded elsewhere. `dl` for
        // dlsym on C libraries older than glibc 2.34.
        .target(
            name: "CSimInterpose",
            path: "Sources/SimCapture/CSimInterpose",
            linkerSettings: [.linkedLibrary("dl", .when(platforms: [.linux]))]
        ),
        .target(
            name: "SimTrace",
            dependencies: ["SimCore", "CZstd", .product(name: "SystemPackage", package: "swift-system")]),
        .target(name: "SimModels", dependencies: ["SimCapture", "SimCore"]),
        .target(name: "SimScenarios", dependencies: ["SimModels", "SimCapture", "SimCore"]),
        // SCTBench's programs ported to the kernel (`simrun list --group sctbench`), apart from the app scenarios.
        .target(name: "SimBenchmarks", dependencies: ["SimCore"]),
        // The library behind the command line: campaigns, replay, shrink, explain, recording, child
        // processes. No ArgumentParser: SimTesting and users' tools build on it without the CLI.
        .target(
            name: "SimEngine",
            dependencies: [
                "SimCore", "SimCapture", "SimTrace", "CSimInterpose",
                .product(name: "SystemPackage", package: "swift-system"),
            ]
        ),
        // `simrun bench`'s measurements (issue #42: apart from the command tree): the kernel, recording,
        // replay, fuzzing, async, carriers, memory and allocations, each against a baseline of the
        // same run. Not SimBenchmarks (SCTBench's programs, which the bench does not run).
        .target(
            name: "SimBench",
            dependencies: [
                "SimCore", "SimCapture", "SimTrace", "SimEngine", "SimScenarios", "CZstd",
            ]
        ),
        .target(
            name: "SimRunKit",
            dependencies: [
                "SimCore", "SimCapture", "SimTrace", "SimEngine", "SimScenarios", "SimBenchmarks", "SimBench",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "SystemPackage", package: "swift-system"),
            ]
        ),
        // Swift Testing integration: explore a scenario from a @Test, replay a Traces/ corpus.
        .target(name: "SimTesting", dependencies: ["SimCapture", "SimCore", "SimTrace", "SimEngine"]),
        .executableTarget(name: "simrun", dependencies: ["SimRunKit"]),
        // `simrun bench`'s baseline for the view-model row, run as a child next to `simrun`.
        .executableTarget(
            name: "simrun-bench-baseline",
            dependencies: [
                .product(name: "Clocks", package: "swift-clocks"),
                .product(name: "ConcurrencyExtras", package: "swift-concurrency-extras"),
            ]
        ),
        // A user's own executable over their own scenario, through the same command tree (README).
        .executableTarget(name: "simrun-example", dependencies: ["SimRunKit", "SimModels", "SimCapture", "SimCore"]),

        .target(name: "SimTestSupport", dependencies: ["SimCore"], path: "Tests/SimTestSupport"),
        // Test-only: one user's code at four commits, each its own executable (its own build id),
        // for replaying a trace on another build and bisecting (OtherBuildReplayTests, ReplayCommandTests);
        // the library also holds a user's search screen with its fixes (FixCheckTests).
        .target(name: "LedgerFixture", dependencies: ["SimCapture", "SimCore"], path: "Tests/BuildFixtures/Ledger"),
        .executableTarget(
            name: "ledger-recorded", dependencies: ["LedgerFixture", "SimRunKit"],
            path: "Tests/BuildFixtures/LedgerRecorded"),
        .executableTarget(
            name: "ledger-fixed", dependencies: ["LedgerFixture", "SimRunKit"], path: "Tests/BuildFixtures/LedgerFixed"),
        .executableTarget(
            name: "ledger-moved", dependencies: ["LedgerFixture", "SimRunKit"], path: "Tests/BuildFixtures/LedgerMoved"),
        .executableTarget(
            name: "ledger-asserting", dependencies: ["LedgerFixture", "SimRunKit"],
            path: "Tests/BuildFixtures/LedgerAsserting"),
        // Counts heap allocations per thread (wraps malloc on glibc): linked statically into the
        // AllocationTests binary, and built as the preloadable `SimAllocCount` library for
        // `simrun bench` (never linked into simrun itself: valgrind cannot run a binary defining malloc).
        .target(name: "CAllocCount"),
        .testTarget(
            name: "AllocationTests",
            dependencies: ["CAllocCount", "SimBench", "SimEngine", "SimTrace", "SimCapture", "SimCore", "SimTestSupport"]
        ),
        .testTarget(name: "SimBenchTests", dependencies: ["SimBench"]),
        .testTarget(name: "SimCoreTests", dependencies: ["SimCore", "SimTestSupport"]),
        // The capture (SimCapture) tested through the kernel's runs: async code, GCD, run loops,
        // threads, carriers, clocks, code symbols, the executor factory.
        .testTarget(name: "SimCaptureTests", dependencies: ["SimCapture", "SimCore", "SimTestSupport"]),
        .testTarget(
            name: "SimTraceTests",
            dependencies: [
                "SimTrace", "SimCore", "SimTestSupport", .product(name: "SystemPackage", package: "swift-system"),
            ]),
        .testTarget(name: "SimModelsTests", dependencies: ["SimModels", "SimCapture", "SimCore", "SimTestSupport"]),
        // SimEngine: the scenarios under the engine's campaigns; `simrun`: the child processes where a
        // run that traps is a finding and where runs are compared across processes.
        .testTarget(
            name: "SimScenariosTests",
            dependencies: ["SimScenarios", "SimModels", "SimCapture", "SimCore", "SimEngine", "SimTrace", "SimTestSupport", "simrun"]
        ),
        // SimEngine: SCTBench's programs under the engine's campaigns (in-order strategies).
        .testTarget(
            name: "SimBenchmarksTests",
            dependencies: ["SimBenchmarks", "SimCapture", "SimCore", "SimEngine", "SimTestSupport"]
        ),
        // `simrun`: the child processes of engine tests whose runs trap (Isolation.processes).
        .testTarget(
            name: "SimEngineTests",
            dependencies: [
                "SimEngine", "SimScenarios", "SimCapture", "SimCore", "SimTrace", "SimTestSupport", "simrun",
                // A user's code at four commits (FixCheckTests, OtherBuildReplayTests): the scenarios in
                // process, and the builds that trap launched as the replay's child processes.
                "LedgerFixture", "ledger-recorded", "ledger-asserting",
            ]
        ),
        .testTarget(
            name: "SimRunKitTests",
            dependencies: [
                "SimRunKit", "SimBench", "SimEngine", "SimTrace", "SimScenarios", "SimBenchmarks", "SimCapture", "SimCore", "SimTestSupport",
                "SimTesting", "simrun",
                "simrun-example",
                "simrun-bench-baseline",
                "ledger-recorded", "ledger-fixed", "ledger-moved", "ledger-asserting", "LedgerFixture",
            ]
        ),
        // What README, the DocC catalogs and the engine recipes say is true: the outputs they show
        // (run with the executables they name), the excerpts they quote, the manifest they give.
        .testTarget(
            name: "DocsTests",
            dependencies: [
                "SimRunKit", "SimEngine", "SimScenarios", "SimCapture", "SimTestSupport", "simrun", "simrun-example",
                "ledger-recorded", "ledger-fixed", "ledger-moved", "ledger-asserting",
            ]
        ),
        // A user's package from the outside: public products only (and the temporary-file helper).
        .testTarget(
            name: "UserPackageTests",
            dependencies: ["SimTesting", "SimEngine", "SimModels", "SimCapture", "SimCore", "SimTestSupport"]
        ),
        .testTarget(
            name: "SimTestingTests",
            dependencies: ["SimTesting", "SimScenarios", "SimCapture", "SimCore", "SimTestSupport", "simrun", "LedgerFixture"]
        ),
        .testTarget(
            name: "TraceRegressionTests",
            // `simrun`: a trace whose run trapped is replayed in a child process, as `simrun replay` does.
            dependencies: [
                "SimTesting", "SimEngine", "SimScenarios", "SimModels", "SimCapture", "SimCore", "SimTestSupport", "simrun",
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
