// `simrun bench --only viewmodel`'s baseline: the bench's view model (two profile selections whose
// loads sleep 100 ms, then a check of the screen) tested the way Point-Free's libraries test it —
// `TestClock` for the sleeps, `withMainSerialExecutor` for the order — `runs` times in a row. One
// order per run, whatever the run. Prints `runs=N seconds=S passed=P` for the bench to read.

import Clocks
import ConcurrencyExtras

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

@MainActor final class ProfileModel {
    private(set) var selected: Int?
    private(set) var shown: Int?
    private var loads: [Task<Void, Never>] = []
    private let service: ProfileService

    init(service: ProfileService) { self.service = service }

    func select(_ id: Int) {
        selected = id
        loads.append(
            Task {
                let profile = await service.load(id)
                if selected != id { return }
                shown = profile
            })
    }

    func waitForLoads() async { for load in loads { await load.value } }
}

actor ProfileService {
    let clock: TestClock<Duration>
    init(clock: TestClock<Duration>) { self.clock = clock }

    func load(_ id: Int) async -> Int {
        try? await clock.sleep(for: .milliseconds(100))
        return id
    }
}

@MainActor func oneRun() async -> Bool {
    var passed = false
    await withMainSerialExecutor {
        let clock = TestClock()
        let model = ProfileModel(service: ProfileService(clock: clock))
        model.select(1)
        model.select(2)
        await clock.advance(by: .milliseconds(100))
        await model.waitForLoads()
        passed = model.shown == model.selected
    }
    return passed
}

@main struct Baseline {
    static func main() async {
        let arguments = CommandLine.arguments.dropFirst()
        guard arguments.count == 1, let runs = Int(arguments.first!), runs > 0 else {
            print("usage: simrun-bench-baseline RUNS")
            exit(64)
        }
        let start = ContinuousClock.now
        var passed = 0
        for _ in 0..<runs where await oneRun() { passed += 1 }
        let (seconds, attoseconds) = (ContinuousClock.now - start).components
        print("runs=\(runs) seconds=\(Double(seconds) + Double(attoseconds) / 1e18) passed=\(passed)")
    }
}
