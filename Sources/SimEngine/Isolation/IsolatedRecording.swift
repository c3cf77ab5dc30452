import SimCore
import SimTrace

/// Records one schedule in a child process (`simrun _record`) and keeps its trace whatever happens:
/// complete when the run ends, sealed with a `crashed` verdict up to the last event when the model
/// traps.
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

    package let scenario: String
    package let variant: String
    package let strategy: String
    /// Noise lanes of the run (the plan's, or the recording's).
    package let noise: Int
    /// Where the run's jobs run (the plan's, or the recording's `carriers` option).
    package var carriers: CarrierMode = .off
    /// The binary to run the child from (nil: this one).
    package let executable: String?

    /// The schedule prefix every run of the campaign kept (`fuzz --from`): the trace it came from
    /// and how many of its decisions. A seed's schedule is only that seed's with it.
    package let prefix: (source: String, keep: Int)?

    /// The step estimate the child's plan uses instead of probing with a `fifo` run of its own (which
    /// would trap before recording anything when the model traps on the fifo schedule); nil: probe.
    package var estimatedSteps: Int?

    package init(
        scenario: String, variant: String, strategy: String, noise: Int = 0, prefix: (source: String, keep: Int)? = nil,
        estimatedSteps: Int? = nil, executable: String? = nil, carriers: CarrierMode = .off
    ) {
        self.carriers = carriers
        self.estimatedSteps = estimatedSteps
        self.scenario = scenario
        self.variant = variant
        self.strategy = strategy
        self.noise = noise
        self.prefix = prefix
        self.executable = executable
    }

    /// Records `seed` with the plan's strategy, or following the schedule of `tapeFrom`, into `path`.
    /// With `byIdentity`, the schedule of `tapeFrom` is followed by job identity (as a replay on
    /// another variant or under other noise follows it), not decision by decision. With `inOrder`,
    /// the run is run `inOrder.run` of an in-order campaign, which the child runs again up to it.
    package func record(
        seed: UInt64, tapeFrom: String? = nil, byIdentity: Bool = false, scheduleFromTrace: Bool = false,
        fileScheduleOnly: Bool = false, inOrder: RecordRequest.InOrderRun? = nil, to path: String,
        timeoutSeconds: Double = 300
    ) throws(SimEngineError) -> Outcome {
        let request = RecordRequest(
            scenario: scenario, variant: variant, strategy: strategy, seed: seed, out: path, tapeFrom: tapeFrom,
            byIdentity: byIdentity, scheduleFromTrace: scheduleFromTrace, fileScheduleOnly: fileScheduleOnly,
            noise: noise, from: prefix?.source,
            keep: prefix?.keep ?? 0, estimatedSteps: estimatedSteps, carriers: carriers, inOrder: inOrder)
        // The request goes on the child's stdin, one typed value (never argv to parse back).
        return try Self.record(
            ["_record"], input: Array(request.text.utf8), executable: executable, to: path,
            timeoutSeconds: timeoutSeconds)
    }

    /// Runs `simrun <arguments>` (with `input` on its stdin), a child that prints `partial <file>`
    /// and then records one run into `path` through a checkpointing sink; seals the partial file when
    /// the child dies.
    package static func record(
        _ arguments: [String], input: [UInt8] = [], executable: String? = nil, to path: String,
        timeoutSeconds: Double = 300
    ) throws(SimEngineError) -> Outcome {
        let output = try ChildProcess.run(
            arguments, input: input, executable: executable, timeoutSeconds: timeoutSeconds)
        if output.termination == .exited(0) {
            let input = try TraceInput(path: path)
            guard let footer = input.footer else {
                throw SimEngineError(.badTrace, "\(path): the recording child left a trace without footer")
            }
            return Outcome(
                path: path, verdict: footer.verdict, eventCount: footer.eventCount, digest: footer.digest,
                crashed: false, lastEventText: "")
        }
        let partial = ChildRecord.records(in: output.stdout).lazy.compactMap { record -> String? in
            if case .partial(let path) = record { return path } else { return nil }
        }.first
        guard let partial else {
            // The child's own "cannot write" or "bad trace" stays that (its failure record says which):
            // an I/O error is never "bug found".
            let failure = ChildRecord.records(in: output.stdout).lazy.compactMap {
                record -> (SimEngineError.Kind, String)? in
                if case .failure(let kind, let message) = record { return (kind, message) } else { return nil }
            }.first
            let why =
                failure?.1 ?? output.stderr.split(separator: "\n").first.map(String.init)
                ?? output.termination.description
            throw SimEngineError(failure?.0 ?? .failed, "the recording child process failed before running: \(why)")
        }
        let message = ChildProcess.trapMessage(in: output.stderr) ?? "the model \(output.termination)"
        let frames = ChildProcess.trapFrames(in: output.stderr)
        do {
            let sealed = try TraceSealer.seal(
                partial: partial, as: path, verdict: .crashed(message), trapFrames: frames)
            return Outcome(
                path: path, verdict: sealed.footer.verdict, eventCount: sealed.footer.eventCount,
                digest: sealed.footer.digest, crashed: true, lastEventText: sealed.lastEventText, trapFrames: frames)
        } catch {
            throw TraceInput.failure(error)
        }
    }
}
