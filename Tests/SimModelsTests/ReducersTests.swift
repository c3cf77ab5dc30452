import SimCapture
import SimCore
import SimModels
import SimTestSupport
import Testing

private typealias Support = ReducersTestSupport

/// Runs `body` on the `main` lane at `milliseconds` of virtual time (a user's tap, a view event).
private func onMain(_ sim: Simulation, at milliseconds: Int64 = 0, _ label: String, _ body: @escaping () -> Void) {
    sim.schedule(at: milliseconds * 1_000_000, on: sim.lane(TCA.mainLane), label, body)
}

/// A request store with `latency`, in a fresh simulation.
private func requestStore(
    _ sim: Simulation, latency: Duration = .milliseconds(100)
) -> (TCA.Store<TCARequestFeature>, ReducersTestSupport.Box<Int>) {
    let cancellations = ReducersTestSupport.Box(0)
    let store = TCA.Store(
        sim, name: "requests", initialState: TCARequestFeature.State(),
        reducer: TCARequestFeature(clock: sim.clock, latency: latency, sawCancellation: cancellations))
    return (store, cancellations)
}

@Suite struct ReducersTests {
    // MARK: Store

    @Test func reentrantSendsAreBufferedAndProcessedFIFOAfterTheCurrentOne() {
        let sink = MemorySink()
        let sim = Simulation(seed: 0, strategy: FIFOStrategy(), sink: sink)
        let store = TCA.Store(
            sim, name: "log", initialState: TCALogState(),
            reducer: tcaLoggingReducer { action in
                switch action {
                case .start: .concatenate(.send(.a), .send(.b))
                case .a: .send(.c)
                default: .none
                }
            })
        sim.post(on: TCA.mainLane, "view.tap") { store.send(.start) }
        let result = sim.run()
        #expect(result.verdict == .pass)
        // Processed recursively, `c` would come before `b`.
        #expect(store.state.log == ["start", "a", "b", "c"])
        #expect(
            Support.lines(sink, kind: "store.send") == [
                "log action=start kind=plain origin=view buffered=false",
                "log action=a kind=plain origin=effect buffered=true",
                "log action=b kind=plain origin=effect buffered=true",
                "log action=c kind=plain origin=effect buffered=true",
            ])
        #expect(Support.lines(sink, kind: "state.change").count == 4)
    }

    // MARK: Composition

    @Test func scopeAndIfLetRunTheChildBeforeTheParent() {
        let sink = MemorySink()
        let sim = Simulation(seed: 0, strategy: FIFOStrategy(), sink: sink)
        let store = TCA.Store(
            sim, name: "parent", initialState: TCAParentFeature.State(), reducer: TCAParentFeature(clock: sim.clock))
        onMain(sim, "view.open") { store.send(.view(.open)) }
        onMain(sim, at: 1, "view.closeScoped") { store.send(._internal(.scoped(.view(.close)))) }
        onMain(sim, at: 2, "view.closeChild") { store.send(._internal(.child(.view(.close)))) }
        let result = sim.run()
        #expect(result.verdict == .pass)
        // The parent sees `closed == true`: the child reducer ran first, on both paths.
        #expect(
            store.state.log == [
                "parent saw scoped closed=true", "parent saw child closed=true", "parent got didClose",
            ])
        #expect(store.state.child == nil)
        let reduces = Support.lines(sink, kind: "reducer.reduce")
        let childClose = reduces.firstIndex(of: "TCAChildFeature kind=view action=view.close")
        let parentClose = reduces.firstIndex(
            of: "TCAParentFeature kind=internal action=_internal.child.view.close")
        #expect(childClose != nil && parentClose != nil)
        if let childClose, let parentClose { #expect(childClose < parentClose) }
    }

    @Test func ifLetDropsChildActionsWhileTheChildStateIsNil() {
        let sink = MemorySink()
        let sim = Simulation(seed: 0, strategy: FIFOStrategy(), sink: sink)
        let store = TCA.Store(
            sim, name: "parent", initialState: TCAParentFeature.State(), reducer: TCAParentFeature(clock: sim.clock))
        onMain(sim, "view.load") { store.send(._internal(.child(.view(.load)))) }
        let result = sim.run()
        #expect(result.verdict == .pass)
        #expect(
            Support.lines(sink, kind: "reducer.drop") == [
                "ifLet.TCAChildFeature action=view.load reason=child state is nil"
            ])
        // The child never ran, so its effect never started.
        #expect(!Support.lines(sink, kind: "reducer.reduce").contains { $0.hasPrefix("TCAChildFeature") })
        #expect(Support.lines(sink, kind: "effect.start").isEmpty)
        #expect(store.state == TCAParentFeature.State())
    }

    @Test func ifLetCancelsChildEffectsWhenTheChildIsDismissed() {
        let sink = MemorySink()
        let sim = Simulation(seed: 0, strategy: FIFOStrategy(), sink: sink)
        let store = TCA.Store(
            sim, name: "parent", initialState: TCAParentFeature.State(), reducer: TCAParentFeature(clock: sim.clock))
        onMain(sim, "view.open") { store.send(.view(.open)) }
        onMain(sim, at: 1, "view.load") { store.send(._internal(.child(.view(.load)))) }
        onMain(sim, at: 50, "view.close") { store.send(._internal(.child(.view(.close)))) }
        let result = sim.run()
        #expect(result.verdict == .pass)
        #expect(Support.lines(sink, kind: "effect.cancel").contains("ifLet.TCAChildFeature count=1 missed=0 by=parent"))
        #expect(!Support.lines(sink, kind: "effect.send").contains { $0.contains("loaded") })
        #expect(result.endTime == 50_000_000, "the child's 100 ms load was interrupted at 50 ms")
    }

    @Test func boundingReducerDispatchesEachKindToItsOwnReduce() {
        let sink = MemorySink()
        let sim = Simulation(seed: 0, strategy: FIFOStrategy(), sink: sink)
        let store = TCA.Store(
            sim, name: "dispatch", initialState: TCADispatchFeature.State(), reducer: TCADispatchFeature())
        onMain(sim, "view.tap") { store.send(.view(.tap)) }
        onMain(sim, at: 1, "internal") { store.send(._internal(.loaded)) }
        onMain(sim, at: 2, "delegate") { store.send(.delegate(.done)) }
        let result = sim.run()
        #expect(result.verdict == .pass)
        // The delegate action reaches the default `reduce(delegateAction:)`, which does nothing.
        #expect(store.state.calls == ["view:tap", "internal:loaded"])
        #expect(
            Support.lines(sink, kind: "reducer.reduce") == [
                "TCADispatchFeature kind=view action=view.tap",
                "TCADispatchFeature kind=internal action=_internal.loaded",
                "TCADispatchFeature kind=delegate action=delegate.done",
            ])
    }

    // MARK: Effects

    /// The order in which `.merge(.send(.a), .send(.b), .send(.c))` delivers, for one seed.
    private func mergeOrder(seed: UInt64, strategy: any Strategy) -> ([String], RunResult) {
        let sim = Simulation(seed: seed, strategy: strategy)
        let store = TCA.Store(
            sim, name: "log", initialState: TCALogState(),
            reducer: tcaLoggingReducer { $0 == .start ? .merge(.send(.a), .send(.b), .send(.c)) : .none })
        sim.post(on: TCA.mainLane, "view.tap") { store.send(.start) }
        let result = sim.run()
        return (store.state.log, result)
    }

    @Test func mergeOrderIsADecision() {
        let (fifo, fifoResult) = mergeOrder(seed: 0, strategy: FIFOStrategy())
        #expect(fifo == ["start", "a", "b", "c"])
        #expect(
            fifoResult.tape.decisions.contains { $0.kind == .permute && fifoResult.tape.text($0.label) == "tca.merge" })
        var orders = Set<[String]>()
        let strategy = RandomStrategy()
        for seed in 0..<60 {
            let (order, result) = mergeOrder(seed: UInt64(seed), strategy: strategy)
            #expect(result.verdict == .pass)
            #expect(order.first == "start" && order.dropFirst().sorted() == ["a", "b", "c"])
            orders.insert(order)
        }
        #expect(orders.count == 6, "every order of three merged effects occurs: \(orders)")
    }

    @Test func concatenateRunsEffectsOneAfterAnother() {
        func run(seed: UInt64, concatenated: Bool) -> ([String], Int64) {
            let sim = Simulation(seed: seed, strategy: RandomStrategy())
            let clock = sim.clock
            let slow = TCA.Effect<TCALogAction>.run(name: "slow") { send in
                try await clock.sleep(for: .milliseconds(30))
                await send(.a)
            }
            let fast = TCA.Effect<TCALogAction>.run(name: "fast") { send in
                try await clock.sleep(for: .milliseconds(10))
                await send(.b)
            }
            let store = TCA.Store(
                sim, name: "log", initialState: TCALogState(),
                reducer: tcaLoggingReducer { action in
                    guard action == .start else { return .none }
                    return concatenated ? .concatenate(slow, fast, .send(.c)) : .merge(slow, fast)
                })
            sim.post(on: TCA.mainLane, "view.tap") { store.send(.start) }
            let result = sim.run()
            #expect(result.verdict == .pass)
            return (store.state.log, result.endTime)
        }
        for seed in 0..<30 {
            let (log, end) = run(seed: UInt64(seed), concatenated: true)
            #expect(log == ["start", "a", "b", "c"])
            #expect(end == 40_000_000, "the fast effect waited for the slow one")
            #expect(run(seed: UInt64(seed), concatenated: false).0 == ["start", "b", "a"])
        }
    }

    @Test func cancelCancelsAStartedEffectAndWakesItsSleep() {
        for seed in 0..<20 {
            let sink = MemorySink()
            let sim = Simulation(
                seed: UInt64(seed), strategy: seed == 0 ? FIFOStrategy() : RandomStrategy(), sink: sink)
            let (store, cancellations) = requestStore(sim)
            onMain(sim, "view.search") { store.send(.search("a", cancelInFlight: false)) }
            onMain(sim, at: 50, "view.stop") { store.send(.stop) }
            let result = sim.run()
            #expect(result.verdict == .pass)
            #expect(store.state.responses.isEmpty)
            #expect(cancellations.value == 1, "the sleeping effect woke with CancellationError")
            #expect(result.endTime == 50_000_000)
            #expect(Support.lines(sink, kind: "effect.cancel") == ["CancelID.request count=1 missed=0 by=requests"])
            #expect(Support.lines(sink, kind: "effect.finish") == ["requests.request#1 cancelled=true"])
            #expect(store.inFlightEffects.isEmpty && store.registeredIDs.isEmpty && store.cancelledEffects == 1)
        }
    }

    @Test func aCancelInTheSameActionMissesAnEffectThatHasNotStarted() {
        for seed in 0..<20 {
            let sink = MemorySink()
            let sim = Simulation(
                seed: UInt64(seed), strategy: seed == 0 ? FIFOStrategy() : RandomStrategy(), sink: sink)
            let (store, cancellations) = requestStore(sim)
            onMain(sim, "view.searchAndCancel") { store.send(.searchAndCancel("a")) }
            let result = sim.run()
            #expect(result.verdict == .pass)
            #expect(store.state.responses == ["a"], "the cancel ran before the effect registered")
            #expect(cancellations.value == 0)
            // Merged, the cancel runs before or after the effect is launched (a decision); either way the
            // effect has not registered. Launched first, the store counts the cancel as missed.
            let cancels = Support.lines(sink, kind: "effect.cancel")
            #expect(
                cancels == ["CancelID.request count=0 missed=1 by=requests"]
                    || cancels == ["CancelID.request count=0 missed=0 by=requests"])
            if seed == 0 {
                #expect(cancels == ["CancelID.request count=0 missed=1 by=requests"])
                #expect(store.missedCancellations == 1)
            }
        }
    }

    @Test func aCancelSentRightAfterTheSearchMissesItWhenTheEffectHasNotStarted() {
        func outcome(seed: UInt64, strategy: any Strategy) -> [String] {
            let sim = Simulation(seed: seed, strategy: strategy)
            let (store, _) = requestStore(sim)
            // Two taps queued on main: the effect's first job competes with the second tap.
            sim.post(on: TCA.mainLane, "view.search") { store.send(.search("a", cancelInFlight: false)) }
            sim.post(on: TCA.mainLane, "view.stop") { store.send(.stop) }
            #expect(sim.run().verdict == .pass)
            return store.state.responses
        }
        #expect(outcome(seed: 0, strategy: FIFOStrategy()) == ["a"])
        let strategy = RandomStrategy()
        let outcomes = Set((0..<40).map { outcome(seed: UInt64($0), strategy: strategy) })
        #expect(outcomes == [[], ["a"]], "cancelled when the effect started first, missed otherwise")
    }

    @Test func cancelInFlightCancelsOnlyWhatIsRegisteredWhenTheNewEffectStarts() {
        // Spaced out: the first effect has registered, the second one cancels it.
        for seed in 0..<20 {
            let sim = Simulation(seed: UInt64(seed), strategy: RandomStrategy())
            let (store, _) = requestStore(sim)
            onMain(sim, "view.search") { store.send(.search("a", cancelInFlight: true)) }
            onMain(sim, at: 50, "view.search") { store.send(.search("b", cancelInFlight: true)) }
            #expect(sim.run().verdict == .pass)
            #expect(store.state.responses == ["b"])
        }
        // Back to back: whichever effect starts last cancels the other, even the older one the newer.
        var outcomes = Set<[String]>()
        let strategy = RandomStrategy()
        for seed in 0..<60 {
            let sim = Simulation(seed: UInt64(seed), strategy: strategy)
            let (store, _) = requestStore(sim)
            sim.post(on: TCA.mainLane, "view.search") { store.send(.search("a", cancelInFlight: true)) }
            sim.post(on: TCA.mainLane, "view.search") { store.send(.search("b", cancelInFlight: true)) }
            #expect(sim.run().verdict == .pass)
            outcomes.insert(store.state.responses)
        }
        #expect(outcomes == [["a"], ["b"]])
    }

    // MARK: Test store

    /// Runs a test-store script over the counter feature.
    private func runTestStore(
        seed: UInt64 = 0, strategy: any Strategy = FIFOStrategy(),
        _ script: @escaping @Sendable (TCA.TestStore<TCACounterFeature>) async -> Void
    ) -> RunResult {
        let sim = Simulation(seed: seed, strategy: strategy)
        let store = TCA.TestStore(
            sim, name: "counter", initialState: TCACounterFeature.State(), reducer: TCACounterFeature(clock: sim.clock))
        sim.spawn("test") { await script(store) }
        return sim.run()
    }

    @Test func testStorePassesWhenEveryChangeAndActionIsAsserted() {
        let strategy = RandomStrategy()
        for seed in 0..<20 {
            let result = runTestStore(seed: UInt64(seed), strategy: seed == 0 ? FIFOStrategy() : strategy) { store in
                await store.send(.view(.increment)) { $0.count = 1 }
                await store.send(.view(.save)) { $0.isSaving = true }
                await store.receive(._internal(.saved)) { $0.isSaving = false }
                await store.finish()
            }
            #expect(result.verdict == .pass)
        }
    }

    @Test func testStoreFailsOnAnUnassertedStateChange() {
        let result = runTestStore { store in
            await store.send(.view(.increment))
        }
        #expect(result.verdict.oracle == "tca.test-store")
        #expect(result.verdict.message.contains("State after send view.increment differs"))
    }

    @Test func testStoreFailsOnAWrongStateAssertion() {
        let result = runTestStore { store in
            await store.send(.view(.increment)) { $0.count = 2 }
        }
        #expect(result.verdict.oracle == "tca.test-store")
        #expect(result.verdict.message.contains("expected State(count: 2"))
    }

    @Test func testStoreFailsOnAnActionItNeverReceived() {
        let result = runTestStore { store in
            await store.send(.view(.save)) { $0.isSaving = true }
            await store.finish()
        }
        #expect(result.verdict.oracle == "tca.test-store")
        #expect(result.verdict.message.contains("received 1 unexpected action(s): _internal.saved"))
    }

    @Test func testStoreFailsOnAnEffectStillRunningAtTheEnd() {
        let result = runTestStore { store in
            await store.send(.view(.startTimer))
            await store.finish(timeout: .seconds(1))
        }
        #expect(result.verdict.oracle == "tca.test-store")
        #expect(result.verdict.message.contains("still effects in-flight after 1.0 seconds: counter.timer#1"))
    }

    @Test func testStoreFailsWhenAnExpectedActionNeverArrives() {
        let result = runTestStore { store in
            await store.send(.view(.increment)) { $0.count = 1 }
            await store.receive(._internal(.saved))
        }
        #expect(result.verdict.oracle == "tca.test-store")
        #expect(result.verdict.message.contains("Expected to receive _internal.saved, but received none"))
    }

    // MARK: Random schedules

    /// A run of both test features driven by a random user: taps chosen and spaced by decisions.
    private func randomRun(seed: UInt64, sink: MemorySink) -> (
        RunResult, searches: Int, responses: Int, cancellations: Int
    ) {
        let sim = Simulation(seed: seed, strategy: RandomStrategy(), sink: sink)
        let parent = TCA.Store(
            sim, name: "parent", initialState: TCAParentFeature.State(), reducer: TCAParentFeature(clock: sim.clock))
        let (requests, cancellations) = requestStore(sim, latency: .milliseconds(40))
        let searches = ReducersTestSupport.Box(0)
        let taps: [(String, () -> Void)] = [
            ("open", { parent.send(.view(.open)) }),
            ("child.load", { parent.send(._internal(.child(.view(.load)))) }),
            ("child.close", { parent.send(._internal(.child(.view(.close)))) }),
            ("scoped.load", { parent.send(._internal(.scoped(.view(.load)))) }),
            (
                "search",
                {
                    searches.value += 1
                    requests.send(.search("q", cancelInFlight: false))
                }
            ),
            (
                "search.inFlight",
                {
                    searches.value += 1
                    requests.send(.search("q", cancelInFlight: true))
                }
            ),
            (
                "searchAndCancel",
                {
                    searches.value += 1
                    requests.send(.searchAndCancel("q"))
                }
            ),
            ("stop", { requests.send(.stop) }),
        ]
        let user = sim.lane("user")
        func step(_ remaining: Int) {
            guard remaining > 0 else { return }
            let (name, tap) = taps[sim.choose(taps.count, "user.tap")]
            sim.post(on: TCA.mainLane, "view.\(name)", tap)
            let delay: Int64 = [0, 20, 120][sim.choose(3, "user.delay")]
            sim.schedule(at: sim.now + delay * 1_000_000, on: user, "user.step") { step(remaining - 1) }
        }
        sim.schedule(at: 0, on: user, "user.step") { step(8) }
        sim.always("tca.bookkeeping") { parent.invariantViolation() ?? requests.invariantViolation() }
        sim.atEnd("tca.quiet") {
            let left = parent.inFlightEffects + requests.inFlightEffects
            let registered = parent.registeredIDs + requests.registeredIDs
            return left.isEmpty && registered.isEmpty ? nil : "left running: \(left), registered: \(registered)"
        }
        let result = sim.run()
        return (result, searches.value, requests.state.responses.count, cancellations.value)
    }

    @Test func randomSchedulesKeepTheStoreInvariants() {
        var seen = (drops: 0, cancellations: 0, childDrops: 0, missed: 0)
        for seed in 0..<200 {
            let sink = MemorySink()
            let (result, searches, responses, cancellations) = randomRun(seed: UInt64(seed), sink: sink)
            #expect(result.verdict == .pass, "seed \(seed): \(result.verdict)")
            // Every request ends exactly one way: it responds, its send is dropped, or its sleep is cancelled.
            let drops = Support.lines(sink, kind: "effect.drop").filter { $0.hasPrefix("requests ") }.count
            #expect(searches == responses + drops + cancellations, "seed \(seed)")
            // Each action sent to the parent is reduced once, in the order it was sent.
            let sent = Support.lines(sink, kind: "store.send").filter { $0.hasPrefix("parent ") }
                .map { $0.split(separator: " ")[1] }
            let reduced = Support.lines(sink, kind: "reducer.reduce").filter { $0.hasPrefix("TCAParentFeature ") }
                .map { $0.split(separator: " ")[2] }
            #expect(sent == reduced, "seed \(seed)")
            seen.drops += drops
            seen.cancellations += cancellations
            seen.childDrops += Support.lines(sink, kind: "reducer.drop").count
            seen.missed += Support.lines(sink, kind: "effect.cancel").filter { !$0.contains("missed=0") }.count
        }
        // The schedules reach the interesting cases, so the checks above are not vacuous.
        #expect(seen.drops > 0 && seen.cancellations > 0 && seen.childDrops > 0 && seen.missed > 0, "\(seen)")
    }

    @Test func theSameSeedGivesTheSameRun() {
        for seed in 0..<10 {
            let first = randomRun(seed: UInt64(seed), sink: MemorySink()).0
            let second = randomRun(seed: UInt64(seed), sink: MemorySink()).0
            #expect(first.digest == second.digest)
            #expect(first.tape == second.tape)
        }
    }
}
