import SimCore

extension ObjectCheck {
    /// One run: generate the calls, make them (prefix, concurrent tasks, suffix), then decide.
    func run(_ simulation: Simulation, variant: Variant) async {
        var choices = Simulation.Choices(simulation)
        let calls = CallScenario.generate(
            shape: shape, argumentCounts: operations.map(\.arguments.count), choices: &choices)
        let recorder = CallRecorder(simulation: simulation)
        // Coverage: a call was invoked while another was still running (the only way to interleave).
        simulation.sometimes(CallRecorder.overlapGoal)
        let object = await variant.make(simulation)
        for (index, invocation) in calls.prefix.enumerated() {
            await recorder.call(invocation, task: 0, index: index, of: self, on: object)
        }
        // Task-group children: both capture routes hold their jobs, sleeps and yields.
        await withTaskGroup(of: Void.self) { group in
            for (task, list) in calls.tasks.enumerated() {
                group.addTask {
                    for (index, invocation) in list.enumerated() {
                        await recorder.call(invocation, task: task + 1, index: index, of: self, on: object)
                    }
                }
            }
        }
        for (index, invocation) in calls.suffix.enumerated() {
            await recorder.call(invocation, task: calls.tasks.count + 1, index: index, of: self, on: object)
        }
        let history = recorder.history()
        simulation.emit("check.model", name, ["calls": .int(Int64(history.calls.count))])
        if let (oracle, message) = await decide(history, calls: calls, variant: variant, simulation: simulation) {
            simulation.fail(oracle, message)
        }
    }

    /// The oracle and message of a failed check, or nil when the results are right.
    func decide(
        _ history: CallHistory<CallScenario.Invocation, CallResult>, calls: CallScenario, variant: Variant,
        simulation: Simulation
    ) async -> (String, String)? {
        let model = SequentialRuns(check: self, variant: variant, simulation: simulation)
        let order = history.invocationOrder
        let uninterrupted = await model.results(of: order.map { history.calls[$0].input })
        let violation = AtomicityCheck.firstViolation(in: history, uninterrupted: uninterrupted)
        let table = CallTable(check: self, calls: calls, history: history)
        if variant.property == .atomic {
            guard let violation else { return nil }
            let expected = uninterrupted[order.firstIndex(of: violation.call) ?? 0]
            return ("atomic-calls", table.atomicityMessage(violation, expected: expected))
        }
        // An atomic history is linearizable (invocation order respects real time): no search needed.
        guard violation != nil else { return nil }
        var runs = 0
        while true {
            let checker = LinearizabilityChecker<[CallScenario.Invocation], CallScenario.Invocation, CallResult>(
                initial: [], maxConfigurations: 200_000
            ) { applied, input in
                let next = applied + [input]
                guard let output = model.known[next] else { return nil }
                return (output, next)
            }
            switch checker.check(history) {
            case .linearizable: return nil
            case .notLinearizable:
                return ("linearizable", table.linearizabilityMessage(uninterrupted: uninterrupted))
            case .undecided(let configurations):
                return (
                    "check-undecided",
                    "the linearizability search stopped after \(configurations) configurations without an answer"
                )
            case .modelNeeded(let applied, let input):
                runs += 1
                if runs > maxModelRuns {
                    return (
                        "check-undecided",
                        "the linearizability search needed more than \(maxModelRuns) sequential runs of the model"
                    )
                }
                _ = await model.results(of: applied + [input])
            }
        }
    }
}

/// Records calls as they are invoked and return, as events in the trace and as a history.
/// Unchecked `Sendable`: every job of a run runs on the run's one thread, one at a time.
final class CallRecorder: @unchecked Sendable {
    let simulation: Simulation
    static let overlapGoal = "calls overlapped"
    private var position = 0
    private var running = 0
    private var calls: [CallHistory<CallScenario.Invocation, CallResult>.Call] = []

    init(simulation: Simulation) { self.simulation = simulation }

    func call<Object>(
        _ invocation: CallScenario.Invocation, task: Int, index: Int, of check: ObjectCheck<Object>, on object: Object
    ) async {
        let operation = check.operations[invocation.operation]
        let text = operation.text(argument: invocation.argument)
        let subject = "t\(task).\(index + 1)"
        position += 1
        let invoked = position
        if running > 0 { simulation.reach(Self.overlapGoal) }
        running += 1
        simulation.emit("call.invoke", subject, ["call": .text(text)])
        // Invoked is entered: the call's hop onto the object is no decision (`AtomicityCheck`).
        simulation.entersNextActorAtOnce()
        let result = await operation.call(object, invocation.argument)
        running -= 1
        position += 1
        simulation.emit("call.return", subject, ["call": .text(text), "result": .text(result.description)])
        calls.append(.init(task: task, input: invocation, output: result, invoked: invoked, returned: position))
    }

    /// The calls so far, in the order they returned.
    func history() -> CallHistory<CallScenario.Invocation, CallResult> { CallHistory(calls: calls) }
}

/// The sequential specification's behaviour (by default the variant's own objects): fresh objects run
/// one call at a time, each result cached by
/// the sequence of calls that led to it (so every sequence is run at most once).
final class SequentialRuns<Object: Sendable>: @unchecked Sendable {
    let check: ObjectCheck<Object>
    let variant: ObjectCheck<Object>.Variant
    let simulation: Simulation
    private(set) var known: [[CallScenario.Invocation]: CallResult] = [:]

    init(check: ObjectCheck<Object>, variant: ObjectCheck<Object>.Variant, simulation: Simulation) {
        self.check = check
        self.variant = variant
        self.simulation = simulation
    }

    /// The result of each call of `sequence`, run on a fresh object one after another.
    func results(of sequence: [CallScenario.Invocation]) async -> [CallResult] {
        var prefix: [CallScenario.Invocation] = []
        var results: [CallResult] = []
        var object: Object?
        for invocation in sequence {
            prefix.append(invocation)
            if let cached = known[prefix], object == nil {
                results.append(cached)
                continue
            }
            if object == nil {
                // Bring a fresh object up to the cached prefix before the first call not cached.
                let fresh = await (check.specification ?? variant.make)(simulation)
                for earlier in prefix.dropLast() {
                    _ = await check.operations[earlier.operation].call(fresh, earlier.argument)
                }
                object = fresh
            }
            guard let object else { break }
            let result = await check.operations[invocation.operation].call(object, invocation.argument)
            known[prefix] = result
            results.append(result)
        }
        return results
    }
}
