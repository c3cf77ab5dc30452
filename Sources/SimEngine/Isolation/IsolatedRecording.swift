import SimCore
import SimTrace

/// Records one run in a child process (``ChildJob/record(_:)``) and keeps its trace whatever
/// happens: complete when the run ends, sealed with a `crashed` verdict up to the last event when
/// the model traps.
package struct IsolatedRecording {
    /// What the child's run left.
    package struct Outcome {
        /// The trace, under its final name.
        package var path: String
        /// The recorded verdict (`crashed` when the child died).
        package var verdict: Verdict
        package var eventCount: UInt64
        package var digest: Digest
        /// True when the child died (a trap) and the trace was sealed by the parent.
        package var crashed: Bool
        /// For a crash, the last event recorded before it (kind and subject).
        package var lastEventText: String
        /// For a crash, the functions it trapped in (``ChildProcess/trapFrames(in:)``).
        package var trapFrames: [String] = []
    }

    /// The plan of the runs recorded.
    package let plan: RunPlan.Descriptor
    /// Who starts the children.
    package let launcher: ProcessLauncher

    package init(plan: RunPlan.Descriptor, launcher: ProcessLauncher) {
        self.plan = plan
        self.launcher = launcher
    }

    /// Records `seed`, following `schedule`, into `path`, with `options` added to the header.
    package func record(
        seed: UInt64, schedule: ChildJob.Record.Schedule = .strategy, options: [ChildJob.Record.Option] = [],
        to path: String, timeoutSeconds: Double = 300
    ) throws(SimEngineError) -> Outcome {
        // The child's partial trace is listed here as soon as it is announced: if the child dies (a
        // trap), it is this process's to seal, or to remove when a signal ends the command first.
        let partialFile = ListedPartial()
        defer { PendingFiles.remove(partialFile.slot) }
        let run = try launcher.run(
            .record(.init(plan: plan, seed: seed, out: path, schedule: schedule, options: options)),
            timeoutSeconds: timeoutSeconds,
            onReply: { reply in
                if case .partial(let announced) = reply, partialFile.slot == nil {
                    partialFile.slot = PendingFiles.add(announced)
                }
            })
        if run.termination == .exited(0) {
            let input = try TraceInput(path: path)
            guard let footer = input.footer else {
                throw SimEngineError(.badTrace, "\(path): the recording child left a trace without footer")
            }
            return Outcome(
                path: path, verdict: footer.verdict, eventCount: footer.eventCount, digest: footer.digest,
                crashed: false, lastEventText: "")
        }
        let partial = run.replies.lazy.compactMap { reply -> String? in
            if case .partial(let path) = reply { return path } else { return nil }
        }.first
        guard let partial else {
            // The child's own "cannot write" or "bad trace" stays that (its failure record says which):
            // an I/O error is never "bug found".
            let why =
                run.failure?.message ?? run.stderr.split(separator: "\n").first.map(String.init)
                ?? run.termination.description
            throw SimEngineError(run.failure?.kind ?? .failed, "the recording child process failed before running: \(why)")
        }
        // Ended with this process (a signal) rather than sealed: its partial trace is no finding.
        if PendingFiles.isClosed {
            unlink(partial)
            throw SimEngineError(.interrupted, "the recording was stopped: the command is ending at a signal")
        }
        let message = run.trapMessage ?? "the model \(run.termination)"
        let frames = ChildProcess.trapFrames(in: run.stderr)
        do {
            let sealed = try TraceSealer.seal(partial: partial, as: path, verdict: .crashed(message), trapFrames: frames)
            return Outcome(
                path: path, verdict: sealed.footer.verdict, eventCount: sealed.footer.eventCount,
                digest: sealed.footer.digest, crashed: true, lastEventText: sealed.lastEventText, trapFrames: frames)
        } catch {
            throw TraceInput.failure(error)
        }
    }
}

extension ChildJob.Record {
    /// The child's work: records the run into `out` through a checkpointing sink, `announce` told
    /// the file the parent seals if this process dies (`partial`) before the run starts. For an
    /// in-order run, the campaign runs again up to it (keeping going past failures, as the campaign
    /// that reached it did) and records it.
    func perform(_ plan: RunPlan, announce: (ChildReply) -> Void) throws(SimEngineError) {
        let strategy = try strategy(for: plan)
        let header = TraceHeader(
            toolVersion: SimRunVersion.current, scenario: plan.scenario.name, variant: plan.variant, seed: seed,
            strategy: plan.strategy.description,
            options: (plan.options.map { TraceOption($0.0, $0.1) } + options.map { TraceOption($0.key, $0.value) }),
            build: BuildIdentity.current)
        let writer: TraceWriter
        do {
            writer = try TraceWriter(path: out, header: header)
        } catch {
            throw SimEngineError.cannotWrite(out, error)
        }
        announce(.partial(path: writer.temporaryPath ?? out))
        let sink = CheckpointingSink(writer: writer)
        let result: RunResult
        if case .inOrderRun(let run, let seeds) = schedule {
            let recording = InOrderRecording(run: run, sink: sink)
            var configuration = Fuzzer.Configuration(seeds: seeds, keepGoing: true)
            configuration.recording = recording
            _ = Fuzzer(plan: plan, configuration: configuration).runCampaign(progress: { _, _, _, _ in })
            guard let reached = recording.result, recording.seed == seed else {
                writer.abandon()
                throw SimEngineError(.failed, "the campaign re-run did not reach run \(run + 1) (seed \(seed))")
            }
            result = reached
        } else {
            result = plan.run(seed: seed, strategy: strategy ?? plan.makeStrategy(), sink: sink)
        }
        do {
            try writer.finish(Recorder.footer(for: result))
        } catch {
            writer.abandon()
            throw SimEngineError.cannotWrite(out, error)
        }
    }

    /// The strategy the run follows: a trace's schedule (by decision, or by job identity), the
    /// plan's own (nil), or none of its own for an in-order run (the campaign's).
    private func strategy(for plan: RunPlan) throws(SimEngineError) -> (any Strategy)? {
        switch schedule {
        case .strategy, .inOrderRun: return nil
        case .decisions(let trace): return ReplayStrategy(tape: try TraceInput(path: trace).tape)
        case .identities(let trace):
            let replayer = TraceReplayer(input: try TraceInput(path: trace), plan: plan)
            return ScheduleStrategy(schedule: replayer.identitySchedule().schedule)
        case .otherBuild(let trace, let fileOnly):
            let replayer = TraceReplayer(input: try TraceInput(path: trace), plan: plan)
            return ScheduleStrategy(schedule: try replayer.scheduleForOtherBuild(rerunning: !fileOnly).schedule)
        }
    }
}

/// The slot of a recording child's partial trace in `PendingFiles` (one recording, one thread).
private final class ListedPartial {
    var slot: Int?
}
