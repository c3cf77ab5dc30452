import SimCore
import SimTestSupport
import Testing

@Suite struct PrefixStrategyTests {
    private func run(seed: UInt64, _ strategy: any Strategy) -> (order: [String], result: RunResult) {
        let log = OrderLog()
        let result = simulate(seed: seed, strategy: strategy) { threeLanes($0, log: log) }
        return (log.entries, result)
    }

    @Test func keepingTheWholeTapeReplaysIt() {
        for seed in UInt64(0)..<10 {
            let recorded = run(seed: seed, RandomStrategy())
            let again = run(
                seed: seed + 100, PrefixStrategy(prefix: recorded.result.tape, keep: .max, then: RandomStrategy()))
            #expect(again.order == recorded.order)
            #expect(again.result.digest == recorded.result.digest)
        }
    }

    @Test func keepingNothingIsTheDelegatesOwnRun() {
        let tape = run(seed: 3, RandomStrategy()).result.tape
        for seed in UInt64(0)..<10 {
            let plain = run(seed: seed, RandomStrategy())
            let prefixed = run(seed: seed, PrefixStrategy(prefix: tape, keep: 0, then: RandomStrategy()))
            #expect(prefixed.order == plain.order)
        }
    }

    @Test func theKeptDecisionsAreFollowedAndTheRestVaries() {
        let recorded = run(seed: 7, RandomStrategy()).result
        let keep = 2
        var tails = Set<[String]>()
        for seed in UInt64(0)..<30 {
            let strategy = PrefixStrategy(prefix: recorded.tape, keep: keep, then: RandomStrategy())
            let result = run(seed: seed, strategy).result
            #expect(strategy.followedPrefix)
            for index in 0..<keep {
                #expect(result.tape.decisions[index].chosen == recorded.tape.decisions[index].chosen)
            }
            tails.insert(result.tape.decisions.dropFirst(keep).map { "\($0.chosen)" })
        }
        #expect(tails.count > 1, "the delegate never varied the rest")
    }
}
