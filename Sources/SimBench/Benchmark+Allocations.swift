import SimCore
import SimEngine

extension Benchmark {
    /// The preloadable counting library's file name, beside `simrun` in the build directory.
    static let allocationLibrary = "libSimAllocCount.so"

    /// Allocations per unit on the six hot paths (`AllocationProbe`), each against its threshold.
    /// Counted in this process when `libSimAllocCount` is already loaded, else in a child of this
    /// executable (`simrun _bench-allocations`) with the library preloaded. Where that cannot be
    /// done the rows say why and count as not met: a count nobody took is no pass.
    func allocationFigures() throws(SimEngineError) -> [BenchFigure] {
        var counts: [AllocationProbe.Path: Double] = [:]
        var how = ""
        if let counter = AllocationProbe.preloadedCounter() {
            let probe = AllocationProbe(directory: configuration.directory, count: counter)
            for path in AllocationProbe.Path.allCases { counts[path] = try probe.perUnit(path) }
            how = "counted in this process (libSimAllocCount loaded)"
        } else {
            switch Self.countInChild(directory: configuration.directory) {
            case .success(let measured):
                counts = measured
                how = "counted in `simrun _bench-allocations` with \(Self.allocationLibrary) preloaded"
            case .failure(let failure):
                how = "not counted: \(failure.message)"
            }
        }
        return AllocationProbe.Path.allCases.map { path in
            let value = counts[path]
            let within = value.map { $0 <= path.threshold }
            // Not counted is not met; a zero target is met at (nearly) zero, the others are context.
            let met: Bool? = value.map { path.target == "0" ? $0 <= 0.05 : nil } ?? false
            return BenchFigure(
                key: "allocations_per_\(path.rawValue)", name: "allocations per \(path.unit)",
                value: value ?? .nan, unit: "allocations", baselineName: "threshold (swift test fails above)",
                baseline: path.threshold,
                ratioText: within.map { $0 ? "within" : "OVER the threshold" } ?? "not counted",
                ratio: value.map { $0 / path.threshold }, ratioMeaning: "count / threshold",
                target: path.target, met: met, note: "\(path.workload); \(how)")
        }
    }

    /// Runs `simrun _bench-allocations` with the counting library preloaded and reads its lines
    /// (`<path> <allocations per unit>`).
    private static func countInChild(directory: String) -> Result<[AllocationProbe.Path: Double], SimEngineError> {
        #if os(Linux)
            let library = ChildProcess.siblingPath(allocationLibrary)
            guard access(library, R_OK) == 0 else {
                return .failure(
                    SimEngineError(
                        .usage,
                        "\(library) is not there: build it (`swift build -c release --product SimAllocCount`)"))
            }
            let output: ChildProcess.Output
            do {
                output = try ChildProcess.run(
                    ["_bench-allocations", "--directory", directory], environment: ["LD_PRELOAD": library])
            } catch {
                return .failure(error)
            }
            guard case .exited(0) = output.termination else {
                return .failure(
                    SimEngineError(.failed, "the counting child failed: \(output.stderr)\(output.stdout)"))
            }
            var counts: [AllocationProbe.Path: Double] = [:]
            for line in output.stdout.split(separator: "\n") {
                let words = line.split(separator: " ")
                guard words.count == 2, let path = AllocationProbe.Path(rawValue: String(words[0])),
                    let value = Double(words[1])
                else { continue }
                counts[path] = value
            }
            guard counts.count == AllocationProbe.Path.allCases.count else {
                return .failure(SimEngineError(.failed, "the counting child said: \(output.stdout)"))
            }
            return .success(counts)
        #else
            return .failure(
                SimEngineError(.usage, "allocation counting needs glibc (malloc wrapped by a preload)"))
        #endif
    }
}
