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
    @Test func withoutBug3NoScheduleLosesOrRepeatsAnItem() throws {
        let scenario = try #require(SCTBench.scenarios.first { $0.name == "WorkStealQueue" })
        let strategies: [any Strategy] = [RandomStrategy(), POSStrategy()]
        for strategy in strategies {
            for seed in 0..<300 {
                let result = scenario.run(variant: "fixed", seed: UInt64(seed), strategy: strategy)
                #expect(result.verdict == Verdict.pass, "\(strategy.description), seed \(seed): \(result.verdict)")
            }
        }
    }
}
