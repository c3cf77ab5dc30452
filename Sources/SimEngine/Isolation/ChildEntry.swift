import SimCore
import SimTrace

/// The child side of simrun's child processes, owned by the engine: a child is this executable
/// started as `<program> --simrun-child <kind>`, which `SimRun.main` hands to ``main(catalog:)``
/// before it parses a command line. The child reads one ``ChildJob`` from stdin, says which plan it
/// rebuilt (``ChildReply/running(_:)``), does the job and answers with ``ChildReply`` records on
/// stdout. It dies with its parent, and a trap in it writes where it happened to stderr first.
package enum ChildEntry {
    /// The hidden first argument of every child (the job's kind follows it, for `ps` readers).
    package static let argument = "--simrun-child"

    /// Whether `arguments` (a process's, program name first) start a child.
    package static func isChild(_ arguments: [String]) -> Bool { arguments.dropFirst().first == argument }

    /// The child's whole work: nil when its job is done, else what stopped it (already answered as
    /// a `failure` record, and said on stderr).
    package static func main(catalog: ScenarioCatalog) -> SimEngineError? {
        ChildProcess.bindLifetimeToParent()
        // Its parent ends it with SIGTERM: the files it was writing are removed before it dies of it.
        Interruption.installChildCleanup()
        ChildProcess.installTrapReporter()
        do throws(SimEngineError) {
            guard isatty(0) == 0 else {
                throw .usage("\(argument) starts one of simrun's child processes, which reads its job from its parent")
            }
            let text: [UInt8]
            do {
                text = try SystemIO.readAll(0, limit: 1 << 20)
            } catch {
                throw .usage("child job: cannot read stdin: \(error)")
            }
            try perform(try ChildJob(decoding: String(decoding: text, as: UTF8.self)), in: catalog)
            return nil
        } catch {
            emit(.failure(kind: error.kind, message: error.message))
            emit(line: error.message, to: 2)
            return error
        }
    }

    /// Writes one reply on stdout.
    static func emit(_ reply: ChildReply) { emit(line: reply.line) }

    /// Writes one line (a reply, a worker's `FailureLine`) on `descriptor`; a parent that stopped
    /// reading misses it, which it notices.
    @Sendable static func emit(line: String, to descriptor: Int32 = 1) {
        try? SystemIO.writeAll(descriptor, Array((line + "\n").utf8))
    }

    private static func perform(_ job: ChildJob, in catalog: ScenarioCatalog) throws(SimEngineError) {
        var plan: RunPlan?
        if let descriptor = job.plan { plan = try RunPlan(descriptor, in: catalog) }
        // First: the plan as rebuilt here, which the parent checks against the one it sent.
        emit(.running(try plan?.descriptor()))
        switch (job, plan) {
        case (.plan, let plan?):
            let probed = RunPlan.probed(
                scenario: plan.baseScenario, variant: plan.variant, strategy: plan.strategy, noise: plan.noise,
                carriers: plan.carriers)
            emit(.planned(estimatedSteps: probed.estimatedSteps, goals: probed.goals()))
        case (.work(let work), let plan?): try work.perform(plan, emit: { emit(line: $0) })
        case (.record(let record), let plan?): try record.perform(plan, announce: emit)
        case (.shrink(let shrink), let plan?): emit(try shrink.perform(plan))
        case (.inOrderCampaign(let campaign), let plan?):
            // The parent passes Ctrl-C on: the campaign stops and still answers with what ran.
            Interruption.install()
            emit(try campaign.perform(plan, cancellation: .onInterrupt))
        case (.digests(let digests), let plan?): digests.perform(plan, emit: emit)
        case (.replay(let request), _): emit(.replayed(try TraceReplay.decide(request, catalog: catalog)))
        case (.plan, nil), (.work, nil), (.record, nil), (.shrink, nil), (.inOrderCampaign, nil), (.digests, nil):
            throw SimEngineError(.failed, "child job \(job.kind) carries no plan")
        }
    }
}
