import SimCore
import SimTrace
import SystemPackage

/// "Is my scenario deterministic under load?" (`fuzz --check-determinism[=N]`): runs a campaign's
/// checked seeds in two more processes (``ChildJob/digests(_:)``), compares each seed's event
/// digest, and explains every difference with two saved traces and the first event where they part.
///
/// A separate process is the only way to see what changes from process to process (a `Set`'s order
/// follows a per-process hash seed; real time or a thread's timing leaking into the run).
package struct DeterminismCampaign {
    /// The seeds to check: `count` seeds from `start`, `stride` apart.
    package struct Seeds: Sendable, Equatable, Codable {
        package var start: UInt64
        package var stride: UInt64
        package var count: Int

        package init(start: UInt64, stride: UInt64, count: Int) {
            self.start = start
            self.stride = max(1, stride)
            self.count = max(0, count)
        }

        package var all: [UInt64] { (0..<count).map { start &+ UInt64($0) &* stride } }
    }

    /// One seed's run in one process.
    package struct Sample: Sendable, Equatable {
        package var digest: UInt64
        package var verdictCode: UInt8
        /// The trap's message when the run trapped (killing its process): no digest was printed, and
        /// two processes agree on a trapping seed when both trap with the same message.
        package var trap: String?

        package init(digest: UInt64, verdictCode: UInt8, trap: String? = nil) {
            self.digest = digest
            self.verdictCode = verdictCode
            self.trap = trap
        }
    }

    /// What the check found.
    package struct Report: Sendable {
        /// Seeds run in both processes and compared.
        package var checked: Int
        /// Seeds whose digests differ, lowest first, with each process's sample.
        package var differences: [(seed: UInt64, first: Sample, second: Sample)]
        /// Why the check could not compare every seed (a child died or printed nonsense); nil when it did.
        package var incomplete: String?
        /// Seeds that trapped the same way in both processes: deterministic crashes, with the message.
        package var trapped: [(seed: UInt64, message: String)] = []
    }

    /// The campaign's plan (its step estimate planned once: the children never probe their own)
    /// and who starts the children.
    package let recording: IsolatedRecording

    package init(recording: IsolatedRecording) { self.recording = recording }

    /// Runs `seeds` in two child processes, one after the other, and compares them seed by seed.
    package func run(_ seeds: Seeds) throws(SimEngineError) -> Report {
        let first = try samples(seeds)
        let second = try samples(seeds)
        var differences: [(seed: UInt64, first: Sample, second: Sample)] = []
        var checked = 0
        for seed in seeds.all {
            guard let a = first.samples[seed], let b = second.samples[seed] else { continue }
            checked += 1
            if a != b { differences.append((seed, a, b)) }
        }
        let incomplete = first.problem ?? second.problem
        var report = Report(checked: checked, differences: differences, incomplete: incomplete)
        report.trapped = seeds.all.compactMap { seed in
            guard let a = first.samples[seed], a == second.samples[seed], let message = a.trap else { return nil }
            return (seed, message)
        }
        return report
    }

    /// One process's samples by seed, and what stopped it early (if anything). A seed whose run
    /// traps kills its child: it is sampled as that trap, and a fresh child goes on from the next
    /// seed, so a trapping seed is compared like any other instead of ending the check.
    private func samples(_ seeds: Seeds) throws(SimEngineError) -> (samples: [UInt64: Sample], problem: String?) {
        var found: [UInt64: Sample] = [:]
        var remaining = seeds
        while remaining.count > 0 {
            let output = try recording.launcher.run(
                .digests(.init(plan: recording.plan, seeds: remaining)), timeoutSeconds: 3_600)
            for case .sample(let seed, let digest, let verdictCode) in output.replies {
                found[seed] = Sample(digest: digest, verdictCode: verdictCode)
            }
            let reached = remaining.all.prefix { found[$0] != nil }.count
            if output.termination == .exited(0) && reached == remaining.count { break }
            let message = output.trapMessage
            guard !output.cancelled, output.termination.isCrash, let message, reached < remaining.count
            else {
                let last = seeds.all.last { found[$0] != nil }.map { " after seed \($0)" } ?? " before its first seed"
                return (found, "a checking process \(output.termination)\(last)\(message.map { ": \($0)" } ?? "")")
            }
            // The seed after the last one printed trapped; the rest run in a fresh child.
            let trapped = remaining.all[reached]
            found[trapped] = Sample(digest: 0, verdictCode: Verdict.crashed(message).code, trap: message)
            remaining = Seeds(
                start: trapped &+ remaining.stride, stride: remaining.stride, count: remaining.count - reached - 1)
        }
        return (found, nil)
    }
}

extension ChildJob.Digests {
    /// The child's work: runs each seed and answers its sample as it ends, so that a parent sees how
    /// far a child got when a seed traps and kills it.
    func perform(_ plan: RunPlan, emit: (ChildReply) -> Void) {
        for seed in seeds.all {
            let result = plan.run(seed: seed, strategy: plan.makeStrategy())
            emit(.sample(seed: seed, digest: result.digest.value, verdictCode: result.verdict.code))
        }
    }
}

/// Recordings of one seed that differ, saved under names that say so, and where they part.
package struct NondeterminismEvidence: Sendable {
    package var seed: UInt64
    /// The saved traces with their labels: the run like the first process's (`labels.0`) and one
    /// unlike it (`labels.1`); or, when no recording was like the first process's, two unlike it that
    /// differ from each other (`labels.1`, `labels.1-2`); or the one behaviour seen.
    package var traces: [(label: String, outcome: IsolatedRecording.Outcome)]
    /// Whether some recording reproduced the first process's run (its digest).
    package var reproducedFirst: Bool
    /// The first differing event with context, when two differing runs were saved.
    package var divergence: [String]?
    /// How many recordings were made.
    package var recordings: Int

    /// The saved outcome labelled `label`, if any.
    package func outcome(_ label: String) -> IsolatedRecording.Outcome? { traces.first { $0.label == label }?.outcome }

    /// Records `seed` in child processes (at most `attempts`) until one run matches `firstDigest` (the
    /// digest the first process saw) and one does not; saves them in `directory` as
    /// `<stem>-<label>.simtrace` and compares them (see `traces`).
    package static func gather(
        seed: UInt64, firstDigest: UInt64, recording: IsolatedRecording, directory: String, stem: String,
        labels: (String, String), attempts: Int = 6
    ) throws(SimEngineError) -> NondeterminismEvidence {
        try OutputPath.createParent(of: "\(directory)/\(stem)")
        var runs: [IsolatedRecording.Outcome] = []
        var kept: Set<String> = []
        defer { for run in runs where !kept.contains(run.path) { unlink(run.path) } }
        func like() -> Int? { runs.firstIndex { $0.digest.value == firstDigest } }
        func unlike() -> Int? { runs.firstIndex { $0.digest.value != firstDigest } }
        while runs.count < attempts && (like() == nil || unlike() == nil) {
            // Recorded beside its final name, so that saving it is a rename in one directory.
            runs.append(
                try recording.record(seed: seed, to: "\(directory)/.\(stem)-recording-\(runs.count + 1).simtrace"))
        }
        var chosen: [(index: Int, label: String)] = []
        if let first = like() {
            chosen.append((first, labels.0))
            if let second = unlike() { chosen.append((second, labels.1)) }
        } else if let second = unlike() {
            chosen.append((second, labels.1))
            if let third = runs.firstIndex(where: { $0.digest != runs[second].digest }) {
                chosen.append((third, labels.1 + "-2"))
            }
        }
        var evidence = NondeterminismEvidence(
            seed: seed, traces: [], reproducedFirst: like() != nil, divergence: nil, recordings: runs.count)
        for (index, label) in chosen {
            var outcome = runs[index]
            let path = "\(directory)/\(stem)-\(label).simtrace"
            try move(outcome.path, to: path)
            outcome.path = path
            kept.insert(path)
            runs[index].path = path
            evidence.traces.append((label, outcome))
        }
        if evidence.traces.count == 2 {
            evidence.divergence = try TraceComparison(
                expected: evidence.traces[0].outcome.path, actual: evidence.traces[1].outcome.path
            )
            .firstDifference(expectedLabel: evidence.traces[0].label, actualLabel: evidence.traces[1].label)
        }
        return evidence
    }

    private static func move(_ from: String, to path: String) throws(SimEngineError) {
        do throws(Errno) {
            try SystemIO.publish(from, as: path)
        } catch {
            unlink(from)
            throw SimEngineError(.cannotWrite, "cannot save \(path): \(error)")
        }
    }
}
