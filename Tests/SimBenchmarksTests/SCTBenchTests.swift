import SimBenchmarks
import SimCore
import Testing

@Suite struct SCTBenchTests {
    /// The oracle each port keeps from its original, and a few random schedules that reach it (cheap:
    /// the 10,000-schedule runs belong to tools/sctbench.sh).
    static let expected: [String: (oracle: String, seeds: Int)] = [
        "account_bad": ("assertion", 200),
        "arithmetic_prog_bad": ("assertion", 5),
        "din_phil2_sat": ("assertion", 20),
        "din_phil5_sat": ("assertion", 20),
        "fsbench_bad": ("assertion", 5),
        "phase01_bad": ("deadlock", 5),
        "sync01_bad": ("deadlock", 5),
        "sync02_bad": ("deadlock", 5),
        "wronglock_3_bad": ("assertion", 200),
        "WorkStealQueue": ("assertion", 2_000),
        "stringbuffer-jdk1.4": ("assertion", 300),
        "bluetooth_driver_bad": ("assertion", 200),
        "carter01_bad": ("deadlock", 200),
        "circular_buffer_bad": ("assertion", 50),
        "deadlock01_bad": ("deadlock", 200),
        "lazy01_bad": ("assertion", 50),
        "queue_bad": ("assertion", 50),
        "reorder_3_bad": ("assertion", 300),
        "reorder_4_bad": ("assertion", 300),
        "stack_bad": ("assertion", 50),
        "token_ring_bad": ("assertion", 200),
        "twostage_bad": ("assertion", 300),
        "wronglock_bad": ("assertion", 200),
    ]

    @Test func everyBenchmarkIsInTheSctbenchGroupWithItsOriginalFirst() {
        #expect(SCTBench.scenarios.count >= 30)
        for scenario in SCTBench.scenarios {
            #expect(scenario.group == SCTBench.group)
            #expect(scenario.defaultVariant == "buggy")
            #expect(scenario.variants.allSatisfy { ["buggy", "fixed"].contains($0.name) })
        }
        let names = SCTBench.scenarios.map(\.name)
        #expect(Set(names).count == names.count)
    }

    @Test(arguments: expected.keys.sorted())
    func aFewRandomSchedulesReachTheOriginalsOracle(_ name: String) throws {
        let scenario = try #require(SCTBench.scenarios.first { $0.name == name })
        let (oracle, seeds) = try #require(Self.expected[name])
        let strategy = RandomStrategy()
        let found = (0..<seeds).lazy.map { scenario.run(variant: "buggy", seed: UInt64($0), strategy: strategy) }
            .first { $0.verdict.isFailure }
        let verdict = try #require(found?.verdict)
        #expect(verdict.oracle == oracle)
    }

    @Test func everyBenchmarkEndsUnderTheFifoScheduleWithinItsStepLimit() {
        for scenario in SCTBench.scenarios {
            let result = scenario.run(variant: "buggy", seed: 0, strategy: FIFOStrategy())
            #expect(result.verdict.oracle != "step-limit", "\(scenario.name): \(result.verdict)")
            #expect(result.steps > 0)
        }
    }
}

@Suite struct WorkStealQueuePortTests {
    @Test(arguments: ["WorkStealQueue", "WorkStealQueue-1stealer"])
    func withoutBug3NoScheduleLosesOrRepeatsAnItem(_ name: String) throws {
        let scenario = try #require(SCTBench.scenarios.first { $0.name == name })
        let strategies: [any Strategy] = [RandomStrategy(), POSStrategy()]
        for strategy in strategies {
            for seed in 0..<300 {
                let result = scenario.run(variant: "fixed", seed: UInt64(seed), strategy: strategy)
                #expect(result.verdict == Verdict.pass, "\(strategy.description), seed \(seed): \(result.verdict)")
            }
        }
    }
}

/// Records every lane a pick offers (a random walk otherwise), to count a port's threads.
private final class LaneCounter: Strategy {
    let inner = RandomStrategy()
    var lanes = Set<String>()
    var description: String { "lanes" }
    func start(seed: UInt64, symbols: SymbolTable) { inner.start(seed: seed, symbols: symbols) }
    func pick(_ ready: ReadySet) -> Int {
        for index in ready.indices { lanes.insert(ready.symbols[ready[index].lane]) }
        return inner.pick(ready)
    }
    func choose(_ count: Int, kind: DecisionKind, site: Symbol) -> Int { inner.choose(count, kind: kind, site: site) }
}

/// Each port against its original (mc-imperial/sctbench d59ab26): the threads it runs, main
/// included, and the bug it shows in every one of a few schedules, or in some of them.
@Suite struct SCTBenchPortShapeTests {
    /// Threads (main included) as the original runs them, and the original's bug.
    static let shapes: [(name: String, threads: Int, oracle: String, everySchedule: Bool)] = [
        // reorder_N_bad.c: iSet setters and iCheck checkers (2/1, 3/1, 4/1, 9/1, 10/10).
        ("reorder_3_bad", 4, "assertion", false),
        ("reorder_4_bad", 5, "assertion", false),
        ("reorder_5_bad", 6, "assertion", false),
        ("reorder_10_bad", 11, "assertion", false),
        ("reorder_20_bad", 21, "assertion", false),
        // din_phil5/6_sat.c: `++phil` in an atomic section, so the last philosopher always fails.
        ("din_phil5_sat", 6, "assertion", true),
        ("din_phil6_sat", 7, "assertion", true),
        // din_phil7_sat.c: a second atomic_begin, so the first philosopher there deadlocks itself.
        ("din_phil7_sat", 8, "deadlock", true),
        // WorkStealQueue.cpp: the study's 2 stealers, and the original's default (PERIOD's) 1.
        ("WorkStealQueue", 3, "assertion", false),
        ("WorkStealQueue-1stealer", 2, "assertion", false),
    ]

    @Test(arguments: shapes.map(\.name))
    func aPortRunsItsOriginalsThreadsAndShowsItsOriginalsBug(_ name: String) throws {
        let shape = try #require(Self.shapes.first { $0.name == name })
        let scenario = try #require(SCTBench.scenarios.first { $0.name == name })
        // Threads: every lane a pick offered, and every lane a deadlock names as blocked.
        let counter = LaneCounter()
        var failures: [Verdict] = []
        for seed in 0..<20 {
            let result = scenario.run(variant: "buggy", seed: UInt64(seed), strategy: counter)
            if result.verdict.isFailure { failures.append(result.verdict) }
            if result.verdict.oracle == "deadlock" {
                for part in result.verdict.message.split(separator: ";") {
                    let words = part.split(separator: " ")
                    if let at = words.firstIndex(of: "waits"), at > 0 { counter.lanes.insert(String(words[at - 1])) }
                }
            }
        }
        #expect(counter.lanes.count == shape.threads, "\(name): lanes \(counter.lanes.sorted())")
        if shape.everySchedule {
            #expect(failures.count == 20, "\(name): \(failures.count) of 20 schedules failed")
        } else if failures.isEmpty {
            // A rare bug: the selective walk reaches it within a few thousand schedules.
            let surw = SURWStrategy()
            for seed in 0..<3_000 {
                let result = scenario.run(variant: "buggy", seed: UInt64(seed), strategy: surw)
                if result.verdict.isFailure {
                    failures.append(result.verdict)
                    break
                }
            }
        }
        let first = try #require(failures.first, "\(name): no failure")
        #expect(first.oracle == shape.oracle)
        #expect(failures.allSatisfy { $0.oracle == shape.oracle })
    }

    @Test func reorder20RunsTenSettersAndTenCheckers() throws {
        let scenario = try #require(SCTBench.scenarios.first { $0.name == "reorder_20_bad" })
        let counter = LaneCounter()
        for seed in 0..<20 { _ = scenario.run(variant: "buggy", seed: UInt64(seed), strategy: counter) }
        #expect(counter.lanes.count { $0.hasPrefix("set.") } == 10)
        #expect(counter.lanes.count { $0.hasPrefix("check.") } == 10)
    }

    @Test func eachPortNamesItsOriginalFileAndCommit() {
        for name in ["reorder_20_bad", "din_phil5_sat", "din_phil7_sat", "WorkStealQueue", "WorkStealQueue-1stealer"] {
            let scenario = SCTBench.scenarios.first { $0.name == name }
            let origin = scenario?.variants.first?.summary ?? ""
            #expect(origin.contains("d59ab26"), "\(name): \(origin)")
        }
    }
}
