import SimCore

extension Benchmark {
    /// The linearizability checker's speed: histories of 10, 100 and 1,000 calls checked per second,
    /// each against one pass of the model over the same calls in a known linearization (no search):
    /// the ratio is what the search costs over merely stepping the model, and the notes give the time
    /// per call at each size, which is how it grows.
    func linearizabilityFigures() -> [BenchFigure] {
        var figures: [BenchFigure] = []
        var perCallAtTen = Double.nan
        for size in [10, 100, 1_000] {
            let count = Swift.max(1, configuration.linearizabilityCalls / size)
            let histories = (0..<count).map { RegisterHistories.make(calls: size, tasks: 4, seed: UInt64($0)) }
            var checked = 0
            var steps = 0
            var searchSeconds = Double.infinity
            var passSeconds = Double.infinity
            for _ in 0..<repetitions {
                searchSeconds = Swift.min(
                    searchSeconds,
                    Stopwatch.time {
                        checked = 0
                        steps = 0
                        for history in histories {
                            var effort = LinearizabilityChecker<Int, RegisterHistories.Op, Int>.Effort()
                            if case .linearizable = RegisterHistories.checker.check(history.history, effort: &effort) {
                                checked += 1
                            }
                            steps += effort.steps
                        }
                    })
                passSeconds = Swift.min(passSeconds, Stopwatch.time { _ = histories.map(RegisterHistories.replay) })
            }
            precondition(checked == histories.count, "the benchmark's histories are linearizable by construction")
            let rate = Double(checked) / searchSeconds
            let perCall = searchSeconds / Double(checked * size) * 1e6
            if size == 10 { perCallAtTen = perCall }
            figures.append(
                .rate(
                    key: "linearizability_\(size)", name: "histories of \(size) calls checked/s", rate,
                    unit: "histories/s", against: "one model pass over the same calls", Double(count) / passSeconds,
                    ratioMeaning: "model-pass rate / checking rate", target: "context", met: nil,
                    note:
                        "\(count) linearizable register histories (writes of 1-5, reads), 4 tasks, calls overlapping; \(perCall.rounded(significant: 3)) µs per call"
                        + (size == 10
                            ? "" : " (\((perCall / perCallAtTen).rounded(significant: 3))x the 10-call cost per call)")
                        + ", \((Double(steps) / Double(checked * size)).rounded(significant: 3)) model steps per call"))
        }
        return figures
    }
}

/// Linearizable histories of a read/write register (the standard workload of Knossos and Porcupine),
/// made by construction: each task's calls follow one
/// another with random gaps and durations, each call takes effect at a random instant inside its
/// span, and its result is what the queue gives at that instant.
enum RegisterHistories {
    /// `write(x)` returns 0; `read()` returns the value held (0 at first).
    enum Op: Sendable, Hashable {
        case write(Int)
        case read
    }

    struct Made {
        var history: CallHistory<Op, Int>
        /// The calls in the order they took effect.
        var order: [Int]
    }

    static var checker: LinearizabilityChecker<Int, Op, Int> {
        LinearizabilityChecker<Int, Op, Int>(initial: 0) { value, op in step(value, op) }
    }

    static func step(_ value: Int, _ op: Op) -> (output: Int, next: Int) {
        switch op {
        case .write(let x): (0, x)
        case .read: (value, value)
        }
    }

    /// The model stepped over the calls in their known order: the baseline, no search.
    static func replay(_ made: Made) -> Bool {
        var value = 0
        for call in made.order {
            let (output, next) = step(value, made.history.calls[call].input)
            guard output == made.history.calls[call].output else { return false }
            value = next
        }
        return true
    }

    static func make(calls: Int, tasks: Int, seed: UInt64) -> Made {
        var random = SplitMix64(seed: seed &+ 0x5eed)
        // Spans in abstract time; each task's next call starts after its previous one returned.
        var free = Array(repeating: 0, count: tasks)
        var spans: [(task: Int, start: Int, end: Int, point: Int, op: Op)] = []
        for _ in 0..<calls {
            let task = random.below(tasks)
            let start = free[task] + random.below(4)
            let end = start + 1 + random.below(12)
            free[task] = end + 1
            let op: Op = random.below(2) == 0 ? .write(1 + random.below(5)) : .read
            spans.append((task, start, end, start + random.below(end - start + 1), op))
        }
        // Results by the instant each call took effect (ties by index, so the order is total).
        let order = spans.indices.sorted { (spans[$0].point, $0) < (spans[$1].point, $1) }
        var outputs = Array(repeating: 0, count: calls)
        var value = 0
        for call in order {
            let (output, next) = step(value, spans[call].op)
            outputs[call] = output
            value = next
        }
        // Positions: invocations before responses at the same instant, all distinct.
        let entries = spans.indices.flatMap { [($0, true), ($0, false)] }.sorted { a, b in
            let ta = a.1 ? spans[a.0].start : spans[a.0].end
            let tb = b.1 ? spans[b.0].start : spans[b.0].end
            return (ta, a.1 ? 0 : 1, a.0) < (tb, b.1 ? 0 : 1, b.0)
        }
        var invoked = Array(repeating: 0, count: calls)
        var returned = Array(repeating: 0, count: calls)
        for (position, entry) in entries.enumerated() {
            if entry.1 { invoked[entry.0] = position + 1 } else { returned[entry.0] = position + 1 }
        }
        let history = CallHistory(
            calls: spans.indices.map {
                CallHistory<Op, Int>.Call(
                    task: spans[$0].task, input: spans[$0].op, output: outputs[$0], invoked: invoked[$0],
                    returned: returned[$0])
            })
        return Made(history: history, order: order)
    }
}
