/// The properties a scenario states about its runs.
struct OracleSet {
    struct Check {
        let name: String
        let check: () -> String?
    }

    struct Goal {
        let name: String
        let condition: (() -> Bool)?
        var reached = false
    }

    var always: [Check] = []
    var atEnd: [Check] = []
    var pending: [Check] = []
    var goals: [Goal] = []
    var goalsLeft = 0
}

extension Simulation {
    /// A property checked after every step: return nil when it holds, or what is wrong.
    public func always(_ name: String, _ check: @escaping () -> String?) {
        oracles.always.append(.init(name: name, check: check))
    }

    /// A property checked once the run is quiet (no job ready, no timer left).
    public func atEnd(_ name: String, _ check: @escaping () -> String?) {
        oracles.atEnd.append(.init(name: name, check: check))
    }

    /// Work that must be finished when the run goes quiet: return nil, or what is still pending.
    public func pendingWork(_ name: String, _ check: @escaping () -> String?) {
        oracles.pending.append(.init(name: name, check: check))
    }

    /// A coverage goal: fuzzing reports how many runs reached it. With a condition it is checked after
    /// every step until reached; without one, model code marks it with `reach(_:)`.
    public func sometimes(_ name: String, _ condition: (() -> Bool)? = nil) {
        oracles.goals.append(.init(name: name, condition: condition))
        oracles.goalsLeft += 1
    }

    /// Marks a coverage goal reached.
    public func reach(_ name: String) {
        guard let index = oracles.goals.firstIndex(where: { $0.name == name }) else {
            sometimes(name)
            return reach(name)
        }
        if !oracles.goals[index].reached {
            oracles.goals[index].reached = true
            oracles.goalsLeft -= 1
        }
    }

    /// A failure reported by model code (e.g. a test store's assertion); the run ends after this step.
    public func fail(_ oracle: String, _ message: String) {
        if reportedFailure == nil { reportedFailure = .fail(oracle: oracle, message: message) }
    }

    /// The names of all coverage goals, in the order they were declared.
    public var goalNames: [String] { oracles.goals.map(\.name) }

    package func checkAlways() -> Verdict? {
        for oracle in oracles.always {
            if let message = oracle.check() { return .fail(oracle: oracle.name, message: message) }
        }
        return nil
    }

    package func checkGoals() {
        guard oracles.goalsLeft > 0 else { return }
        for index in oracles.goals.indices where !oracles.goals[index].reached {
            if let condition = oracles.goals[index].condition, condition() {
                oracles.goals[index].reached = true
                oracles.goalsLeft -= 1
            }
        }
    }

    func checkAtEnd() -> Verdict? {
        var pendingNotes: [String] = []
        if !liveTasks.isEmpty {
            let names = liveTasks.keys.sorted().map { liveTasks[$0]! }
            pendingNotes.append("\(names.count) task(s) still suspended: \(names.joined(separator: ", "))")
        }
        for check in oracles.pending {
            if let note = check.check() { pendingNotes.append("\(check.name): \(note)") }
        }
        if !pendingNotes.isEmpty {
            return .pending("work still pending at the end: " + pendingNotes.joined(separator: "; "))
        }
        for oracle in oracles.atEnd {
            if let message = oracle.check() { return .fail(oracle: oracle.name, message: message) }
        }
        return nil
    }

    var reachedGoals: [String] { oracles.goals.filter(\.reached).map(\.name) }
}
