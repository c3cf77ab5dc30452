import SimCore

/// A failed check as a small table: one row per task (and the prefix and suffix), one column per
/// call, each cell the call and its result — with, where it differs, what the call returns run
/// without interruption in invocation order.
struct CallTable<Object: Sendable> {
    let check: ObjectCheck<Object>
    let calls: CallScenario
    let history: CallHistory<CallScenario.Invocation, CallResult>

    /// `t2.1`: the name a call has in the table, the trace and messages.
    func name(_ call: Int) -> String {
        let entry = history.calls[call]
        let index = history.calls.indices.filter {
            history.calls[$0].task == entry.task && history.calls[$0].invoked < entry.invoked
        }.count
        return "t\(entry.task).\(index + 1)"
    }

    func text(_ call: Int) -> String {
        let input = history.calls[call].input
        return check.operations[input.operation].text(argument: input.argument)
    }

    func linearizabilityMessage(uninterrupted: [CallResult]) -> String {
        "not linearizable: no order of these calls that respects real time gives their results "
            + "(\(calls.tasks.count) tasks, \(history.calls.count) calls; alone: the result one at a time in invocation order)\n"
            + render(uninterrupted: uninterrupted)
    }

    func atomicityMessage(_ violation: AtomicityCheck.Violation, expected: CallResult) -> String {
        let call = violation.call
        let got = history.calls[call].output
        var line = "call \(name(call)) \(text(call))"
        if let other = violation.interleavedBy {
            line += " was interleaved at its await by call \(name(other)) \(text(other))"
        } else if let earlier = violation.earlierInterleaved {
            line += " saw state left by call \(name(earlier)) \(text(earlier)), which was interleaved at its await"
        }
        line += ": it returned \(got); run without interruption in invocation order it returns \(expected)"
        let order = history.invocationOrder
        return line + "\n"
            + render(uninterrupted: order.indices.map { history.calls[order[$0]].output }, marked: expected, at: call)
    }

    /// The table; a cell shows `alone → r` where the uninterrupted run in invocation order differs.
    private func render(uninterrupted: [CallResult], marked: CallResult? = nil, at markedCall: Int? = nil) -> String {
        let order = history.invocationOrder
        var alone: [Int: CallResult] = [:]
        for (rank, call) in order.enumerated() { alone[call] = uninterrupted[rank] }
        if let marked, let markedCall { alone[markedCall] = marked }
        let rows = Set(history.calls.map(\.task)).sorted()
        let lastTask = calls.tasks.count
        var lines: [[String]] = []
        for row in rows {
            let label = row == 0 ? "prefix" : row > lastTask ? "suffix" : "task \(row)"
            let cells = history.calls.indices.filter { history.calls[$0].task == row }
                .sorted { history.calls[$0].invoked < history.calls[$1].invoked }
                .map { call -> String in
                    let output = history.calls[call].output
                    var cell = "\(text(call)) → \(output)"
                    if let expected = alone[call], expected != output { cell += " (alone: \(expected))" }
                    return cell
                }
            lines.append([label] + cells)
        }
        let columns = lines.map(\.count).max() ?? 0
        var widths = Array(repeating: 0, count: columns)
        for line in lines {
            for (column, cell) in line.enumerated() { widths[column] = max(widths[column], cell.count) }
        }
        return lines.map { line in
            line.enumerated().map { column, cell in
                column == line.count - 1 ? cell : cell + String(repeating: " ", count: widths[column] - cell.count)
            }.joined(separator: "   ")
        }.map { "  " + $0 }.joined(separator: "\n")
    }
}
