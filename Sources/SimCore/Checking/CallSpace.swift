/// The call scenarios an `ObjectCheck` generates: its shape and its operations' argument counts.
/// A scenario carries it (`Scenario.callSpace`) so that the shrinker can make the *scenario* smaller
/// — fewer tasks, fewer calls, simpler operations and arguments — before it shrinks the schedule.
public struct CallSpace: Hashable, Sendable {
    /// How big scenarios are.
    public var shape: ScenarioShape
    /// Each operation's number of arguments (0 when it takes none).
    public var argumentCounts: [Int]

    /// The space of scenarios of `shape` over operations with these argument counts.
    public init(shape: ScenarioShape, argumentCounts: [Int]) {
        self.shape = shape
        self.argumentCounts = argumentCounts
    }

    /// The scenario a run with these decisions generated.
    public func scenario(from tape: Tape) -> CallScenario {
        var choices = TapeChoices(tape)
        return CallScenario.generate(shape: shape, argumentCounts: argumentCounts, choices: &choices)
    }

    /// The choices (by site) that generate `scenario`; nil when it lies outside the shape.
    public func choices(for scenario: CallScenario) -> [String: Int]? {
        var sites: [String: Int] = [:]
        func size(_ count: Int, _ range: ClosedRange<Int>, _ site: String) -> Bool {
            guard range.contains(count) else { return false }
            sites[site] = count - range.lowerBound
            return true
        }
        func calls(_ list: [CallScenario.Invocation], _ site: String) -> Bool {
            for (index, call) in list.enumerated() {
                guard argumentCounts.indices.contains(call.operation),
                    call.argument >= 0 && call.argument < max(1, argumentCounts[call.operation])
                else { return false }
                sites["\(site).\(index + 1).op"] = call.operation
                sites["\(site).\(index + 1).arg"] = call.argument
            }
            return true
        }
        guard size(scenario.prefix.count, shape.prefix, "check.prefix"), calls(scenario.prefix, "check.p"),
            size(scenario.tasks.count, shape.tasks, "check.tasks"),
            size(scenario.suffix.count, shape.suffix, "check.suffix"), calls(scenario.suffix, "check.s")
        else { return nil }
        for (index, task) in scenario.tasks.enumerated() {
            guard size(task.count, shape.callsPerTask, "check.t\(index + 1)"), calls(task, "check.t\(index + 1)")
            else { return nil }
        }
        return sites
    }

    /// Scenarios one step smaller or simpler than `scenario`, most reducing first: without a task,
    /// without one call, with a call replaced by an earlier operation, with a simpler argument.
    /// Every one lies in the shape.
    public func smaller(than scenario: CallScenario) -> [CallScenario] {
        var candidates: [CallScenario] = []
        if scenario.tasks.count > shape.tasks.lowerBound {
            for task in scenario.tasks.indices.reversed() {
                var fewer = scenario
                fewer.tasks.remove(at: task)
                candidates.append(fewer)
            }
        }
        func withoutOne(
            _ list: [CallScenario.Invocation], floor: Int,
            _ put: (inout CallScenario, [CallScenario.Invocation]) -> Void
        ) {
            guard list.count > floor else { return }
            for index in list.indices.reversed() {
                var fewer = scenario
                var shorter = list
                shorter.remove(at: index)
                put(&fewer, shorter)
                candidates.append(fewer)
            }
        }
        withoutOne(scenario.suffix, floor: shape.suffix.lowerBound) { $0.suffix = $1 }
        withoutOne(scenario.prefix, floor: shape.prefix.lowerBound) { $0.prefix = $1 }
        for task in scenario.tasks.indices {
            withoutOne(scenario.tasks[task], floor: shape.callsPerTask.lowerBound) { $0.tasks[task] = $1 }
        }
        // Simpler calls: each call in turn, an earlier operation (first argument), or an earlier argument.
        func simpler(_ call: CallScenario.Invocation) -> [CallScenario.Invocation] {
            (0..<call.operation).map { CallScenario.Invocation($0, 0) }
                + (0..<call.argument).map { CallScenario.Invocation(call.operation, $0) }
        }
        for index in scenario.prefix.indices {
            for call in simpler(scenario.prefix[index]) {
                var changed = scenario
                changed.prefix[index] = call
                candidates.append(changed)
            }
        }
        for task in scenario.tasks.indices {
            for index in scenario.tasks[task].indices {
                for call in simpler(scenario.tasks[task][index]) {
                    var changed = scenario
                    changed.tasks[task][index] = call
                    candidates.append(changed)
                }
            }
        }
        for index in scenario.suffix.indices {
            for call in simpler(scenario.suffix[index]) {
                var changed = scenario
                changed.suffix[index] = call
                candidates.append(changed)
            }
        }
        return candidates
    }

    /// Greedy reduction: repeatedly moves to the first smaller scenario for which `fails` finds a
    /// failing run, until none does (or `budget` calls of `fails` are spent). Returns the smallest
    /// scenario reached and the last failure `fails` gave for it.
    public func reduce<Failure>(
        _ scenario: CallScenario, failure: Failure, budget: Int = 200, fails: (CallScenario) -> Failure?
    ) -> (scenario: CallScenario, failure: Failure) {
        var best = (scenario: scenario, failure: failure)
        var spent = 0
        var improved = true
        while improved && spent < budget {
            improved = false
            for candidate in smaller(than: best.scenario) where spent < budget {
                spent += 1
                if let found = fails(candidate) {
                    best = (candidate, found)
                    improved = true
                    break
                }
            }
        }
        return best
    }
}
