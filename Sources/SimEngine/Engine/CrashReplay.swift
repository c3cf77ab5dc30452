import SimCore
import SimTrace

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// `replay` of a trace whose run crashed: following its schedule traps again, so the replay runs in
/// a child process, and the events it recorded up to the trap are compared with the recording.
package struct CrashReplay {
    package let input: TraceInput
    package let plan: RunPlan

    package init(input: TraceInput, plan: RunPlan) {
        self.input = input
        self.plan = plan
    }

    package func run(console: Console) throws(CommandFailure) -> Int32 {
        let header = input.header
        let title = "\(header.scenario)/\(plan.variant) seed \(header.seed)"
        let path = DeterminismCheck.temporaryTracePath("replay")
        defer { unlink(path) }
        let again = try IsolatedRecording(
            scenario: header.scenario, variant: plan.variant, strategy: header.strategy, noise: plan.noise
        )
        .record(seed: header.seed, tapeFrom: input.path, to: path)
        let recorded = input.footer?.verdict.message ?? ""
        if plan.variant != header.variant {
            let what =
                again.crashed
                ? "CRASHED at event \(again.eventCount): \(again.verdict.message)"
                : again.verdict.isFailure ? "FAIL — \(again.verdict)" : "pass"
            console.verdict("\(title): crashing schedule of \(header.variant) replayed on \(plan.variant): \(what)")
            return again.crashed || again.verdict.isFailure ? ExitStatus.failure : ExitStatus.ok
        }
        if let divergence = try TraceComparison(expected: input.path, actual: path)
            .firstDifference(expectedLabel: "recorded", actualLabel: "replayed")
        {
            console.verdict("\(title): DIVERGED")
            for line in divergence { console.out(line) }
            if !again.crashed {
                console.out("  the replay did not crash: \(again.verdict.isFailure ? "\(again.verdict)" : "pass")")
            }
            return ExitStatus.failure
        }
        guard again.crashed else {
            console.verdict(
                "\(title): DIVERGED — the same events, but the replay did not crash (recorded: \(recorded))")
            return ExitStatus.failure
        }
        console.verdict(
            "\(title): identical — crashed at event \(again.eventCount) (after \(again.lastEventText)): \(again.verdict.message)"
        )
        if again.verdict.message != recorded { console.err("note: recorded message was: \(recorded)") }
        return ExitStatus.ok
    }
}
