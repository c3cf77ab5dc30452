import SimCore
import SimEngine

extension RunCommand {
    /// Records the seed in two separate processes and compares them: `Set` order is stable within a
    /// process (one hash seed) but not across processes, so only this catches it.
    func checkDeterminism(plan: RunPlan, context: CommandContext) throws(CommandFailure) -> Int32 {
        let console = context.console
        // Both recordings go under $TMPDIR: one that cannot be written is "cannot write" (73), before
        // anything runs, never a verdict.
        try TemporaryDirectory.check()
        let first = try DeterminismCheck.temporaryTracePath("first")
        let second = try DeterminismCheck.temporaryTracePath("second")
        defer {
            unlink(first)
            unlink(second)
        }
        let recording = IsolatedRecording(
            plan: try plan.descriptor(), launcher: try context.isolation.launcher(for: "run --check-determinism"))
        let a = try recording.record(seed: seed, to: first)
        let b = try recording.record(seed: seed, to: second)
        let title = "\(plan.scenario.name)/\(plan.variant) seed \(seed) \(strategy)"
        let divergence = try TraceComparison(expected: first, actual: second).firstDifference()
        let same = divergence == nil && a.digest == b.digest && a.verdict == b.verdict
        console.json(
            ResultDocument(
                command: "run", verdict: same ? "deterministic" : "nondeterministic",
                exitCode: same ? ExitStatus.ok : ExitStatus.failure,
                members: ResultDocument.run(
                    scenario: plan.scenario.name, variant: plan.variant, strategy: strategy.description, seed: seed)
                    + [
                        .init("outcome", ResultDocument.outcome(a.verdict)),
                        .init("digests", .array([.string(a.digest.description), .string(b.digest.description)])),
                        .init("divergence", .array((divergence ?? []).map { .string($0) })),
                    ]
            ).text)
        if same {
            console.verdict(
                "\(title): deterministic — two processes recorded the same \(a.eventCount) events, digest \(a.digest); verdict \(a.verdict.isFailure ? "FAIL — \(a.verdict)" : "pass")"
            )
            return ExitStatus.ok
        }
        console.verdict(
            "\(title): NONDETERMINISTIC — digest \(a.digest) in the first process, \(b.digest) in the second")
        for line in divergence ?? ["  verdicts differ: \(a.verdict) / \(b.verdict)"] { console.out(line) }
        return ExitStatus.failure
    }
}
