import SimCore
import SimEngine
import SimTrace

/// Planning a campaign runs the `fifo` schedule once, in a child; when it traps, the campaign's
/// finding is that crash, recorded again and saved with its trace (`FindingCampaign.fifoCrash`).
/// This only presents it.
extension FuzzCommand {
    /// The exit status after presenting the fifo schedule's crash (`plan`'s, unplanned) as the finding.
    func fuzzFifoCrash(plan: RunPlan.Descriptor, context: CommandContext) throws(CommandFailure) -> Int32 {
        let finding = try FindingCampaign.fifoCrash(
            plan: plan, directory: out, launcher: try context.isolation.launcher(for: "recording the fifo crash"))
        guard let path = finding.path, finding.recording != nil else {
            throw CommandFailure(.failed, "the fifo schedule's crash could not be recorded")
        }
        let console = context.console
        for warning in finding.warnings { console.err(warning) }
        console.out(
            "CRASH on the fifo schedule (seed 0), which plans the campaign before its first run: \(finding.verdict.message)"
        )
        let lines = try finding.crashLines(path: path) {
            "the fifo schedule trapped once but ran to \($0) when recorded again"
        }
        for line in lines { console.out(line) }
        console.out("  trace:  \(path)")
        console.out("  replay: \(context.programName) replay \(shellQuoted(path))")
        console.out(
            "summary: the campaign did not start: the model traps on the fifo schedule, the plain order every \(strategy.kind) campaign is planned from; the crash is its finding"
        )
        if console.outputStyle == .quiet {
            console.verdict("fuzz \(plan.scenario)/\(plan.variant): FAIL — a crash on the fifo schedule; trace \(path)")
        }
        console.json(
            ResultDocument(
                command: "fuzz", verdict: "fail", exitCode: ExitStatus.failure,
                members: ResultDocument.run(
                    scenario: plan.scenario, variant: plan.variant, strategy: strategy.description, seed: nil)
                    + [
                        .init("schedules", .int(1)),
                        .init("findings", ResultDocument.findings(finding.verdict, seed: 0, trace: path)),
                    ]
            ).text)
        return ExitStatus.failure
    }
}
